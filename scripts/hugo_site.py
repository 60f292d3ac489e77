#!/usr/bin/env python3
"""Writes a Hugo site equivalent to the Invoices report's page kinds: one page per client listing its invoices, one
per month, a statement per client (every invoice and payment with a running balance, per currency), and per fiscal
quarter the invoices issued in it, cut into pages of 1,000 rows (as our lists are, at the default page_size) with
the quarter's page linking them.

Used by the benchmark as the reference "what users would pick instead". Usage: hugo_site.py STORE.sqlite DIR
"""
import os
import re
import shutil
import sqlite3
import sys
from collections import defaultdict

store, out = sys.argv[1], sys.argv[2]
shutil.rmtree(out, ignore_errors=True)
for folder in ["content/clients", "content/months", "content/statements", "content/quarters", "layouts/_default"]:
    os.makedirs(os.path.join(out, folder), exist_ok=True)

with open(os.path.join(out, "config.toml"), "w") as f:
    f.write('baseURL = "http://example.org/"\ntitle = "Invoices report"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n')
with open(os.path.join(out, "layouts/_default/baseof.html"), "w") as f:
    f.write('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>'
            '<body><main>{{ block "main" . }}{{ end }}</main></body></html>\n')
with open(os.path.join(out, "layouts/_default/single.html"), "w") as f:
    f.write('{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}\n')
with open(os.path.join(out, "layouts/_default/list.html"), "w") as f:
    f.write('{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}\n')

db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
clients = {row[0]: row[1:] for row in db.execute("SELECT id, number, name, email, city FROM client")}
digits = {"JPY": 0, "KWD": 3, "BHD": 3}
by_client = defaultdict(list)
by_month = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
# A schema 1 store has invoice.paidOn; schema 2 has payments (the latest payment's day stands for the paid date).
invoice_columns = {row[1] for row in db.execute("PRAGMA table_info(invoice)")}
paid_sql = "paidOn" if "paidOn" in invoice_columns else "(SELECT MAX(paidOn) FROM payment WHERE invoiceId = invoice.id)"
for identifier, client, amount, currency, notes, issued, due, paid in db.execute(
        f"SELECT identifier, clientId, amount, currency, notes, issuedOn, dueOn, {paid_sql} FROM invoice ORDER BY issuedOn, identifier"):
    by_client[client].append((identifier, issued, due, paid or "", amount, currency, notes))
    by_month[issued[:7]][client][currency] += amount
payments = defaultdict(list)
if "paidOn" not in invoice_columns:
    for client, identifier, paid_on, amount, currency in db.execute(
            "SELECT i.clientId, i.identifier, p.paidOn, p.amount, i.currency FROM payment p JOIN invoice i ON i.id = p.invoiceId"):
        payments[client].append((paid_on, identifier, amount, currency))


def money(amount, currency):
    d = digits.get(currency, 2)
    return f"{currency} {amount / 10 ** d:,.{d}f}"


def escape(text):
    return re.sub(r"([\\`*_\[\]<>#|&])", r"\\\1", text)


for client, invoices in by_client.items():
    number, name, email, city = clients[client]
    lines = [f'---\ntitle: "{number}"\n---\n', f"{escape(name)} · {escape(email)} · {escape(city)}\n",
             "| Invoice | Issued | Due | Paid | Amount | Notes |", "|---|---|---|---|---:|---|"]
    for identifier, issued, due, paid, amount, currency, notes in invoices:
        lines.append(f"| {identifier} | {issued} | {due} | {paid} | {money(amount, currency)} | {escape(notes)} |")
    with open(os.path.join(out, "content/clients", f"{number.lower()}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
for month, rows in by_month.items():
    lines = [f'---\ntitle: "{month}"\n---\n', "| Client | Currency | Invoiced |", "|---|---|---:|"]
    for client, totals in sorted(rows.items()):
        for currency, amount in sorted(totals.items()):
            lines.append(f"| {escape(clients[client][1])} | {currency} | {money(amount, currency)} |")
    with open(os.path.join(out, "content/months", f"{month}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
statements = 0
for client, invoices in by_client.items():
    number, name, email, city = clients[client]
    events = [(issued, 0, identifier, amount, currency, f"due {due}") for identifier, issued, due, paid, amount, currency, _ in invoices]
    events += [(day, 1, identifier, -amount, currency, "payment") for day, identifier, amount, currency in payments[client]]
    lines = [f'---\ntitle: "Statement {number}"\n---\n', f"{escape(name)}\n"]
    for currency in sorted({event[4] for event in events}):
        balance = 0
        lines += [f"\n## {currency}\n", "| Date | Document | Detail | Charge | Credit | Balance |", "|---|---|---|---:|---:|---:|"]
        for day, _, identifier, delta, _, detail in sorted(e for e in events if e[4] == currency):
            balance += delta
            charge, credit = (money(delta, currency), "") if delta >= 0 else ("", money(-delta, currency))
            lines.append(f"| {day} | {identifier} | {detail} | {charge} | {credit} | {money(balance, currency)} |")
    with open(os.path.join(out, "content/statements", f"{number.lower()}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    statements += 1
by_quarter = defaultdict(list)
for client, invoices in by_client.items():
    for identifier, issued, due, paid, amount, currency, notes in invoices:
        by_quarter[f"{issued[:4]}-Q{(int(issued[5:7]) - 1) // 3 + 1}"].append((issued, identifier, client, amount, currency))
quarter_pages = 0
for quarter, rows in by_quarter.items():
    rows.sort()
    folder = os.path.join(out, "content/quarters", quarter)
    os.makedirs(folder, exist_ok=True)
    chunks = [rows[start:start + 1000] for start in range(0, len(rows), 1000)]
    with open(os.path.join(folder, "_index.md"), "w") as f:
        f.write(f'---\ntitle: "{quarter}"\n---\n{len(rows)} invoices on {len(chunks)} pages.\n')
    for number, chunk in enumerate(chunks, start=1):
        lines = [f'---\ntitle: "{quarter} page {number}"\nweight: {number}\n---\n', "| Invoice | Issued | Client | Amount |", "|---|---|---|---:|"]
        for issued, identifier, client, amount, currency in chunk:
            lines.append(f"| {identifier} | {issued} | {escape(clients[client][1])} | {money(amount, currency)} |")
        with open(os.path.join(folder, f"{number}.md"), "w") as f:
            f.write("\n".join(lines) + "\n")
        quarter_pages += 1
print(f"{len(by_client)} client pages, {len(by_month)} month pages, {statements} statements, {quarter_pages} quarter list pages")
