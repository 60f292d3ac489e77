#!/usr/bin/env python3
"""Writes a Hugo site equivalent to the Invoices report: one page per client listing its invoices, one per month.

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
for folder in ["content/clients", "content/months", "layouts/_default"]:
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
print(f"{len(by_client)} client pages, {len(by_month)} month pages")
