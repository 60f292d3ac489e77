-- One client with {size} invoices over one year (issue 10). {size} is replaced by the test or scripts/bench.py.
INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {size})
INSERT INTO invoice (identifier, clientId, amount, currency, notes, issuedOn, dueOn)
  SELECT 'INV-' || i, 1, 100, 'EUR', '', date('2024-01-01', '+' || (i % 365) || ' days'),
    date('2024-01-01', '+' || (i % 365 + 30) || ' days') FROM n;
