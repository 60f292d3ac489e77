-- One client, one invoice whose note is {size} characters of markup ('<*' repeated): every byte is escaped.
-- A shape the sample generator never makes (issue 10). {size} is replaced by the test or scripts/bench.py.
INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
INSERT INTO invoice (identifier, clientId, amount, currency, notes, issuedOn, dueOn)
  VALUES ('INV-1', 1, 100, 'EUR', replace(hex(zeroblob({size} / 4)), '0', '<*'), '2025-01-10', '2025-02-10');
