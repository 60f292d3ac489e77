-- {size} clients with one invoice each, all in one month (issue 10). {size} is replaced by the test or
-- scripts/bench.py.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {size})
INSERT INTO client (id, number, name) SELECT i, printf('C-%06d', i), 'Client ' || i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {size})
INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn)
  SELECT 'INV-' || i, i, 100 + i, 'EUR', '2025-01-15', '2025-02-15' FROM n;
