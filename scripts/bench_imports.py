#!/usr/bin/env python3
"""Times `invoices import` of N invoices (10,000 by default) laid out as each service exports them (issue 44).

The files are generated here, in a temporary folder, never checked in: one generator per service, each writing the
service's layout (the columns docs/import.md names, in their order) with N invoices over 200 clients, a third of
them paid, a sixth partly paid. Each is imported into a new store `--runs` times; the median wall time and the peak
memory are printed, one line per service. Usage:

    scripts/bench_imports.py [--invoices 10000] [--runs 3] [--only xero,quickbooks]

To add a service, write `def myservice(folder, n)` returning (files, extra import arguments) and add one line to
SERVICES.
"""
import argparse
import csv
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import INVOICES, timed  # noqa: E402

CLIENTS = 200


def day(n, offset=0):
    """A day in 2025 for invoice n (month 1-12, day 1-28), shifted by `offset` days within its month."""
    return 2025, 1 + n % 12, 1 + (n % 20) + offset


def iso(n, offset=0):
    year, month, d = day(n, offset)
    return f"{year}-{month:02d}-{d:02d}"


def cents(n):
    """Net and tax (20 %) of invoice n, in cents."""
    net = 10_000 + 37 * n
    return net, net // 5


def state(n):
    """'paid', 'partial' or 'open' for invoice n."""
    return "paid" if n % 3 == 0 else "partial" if n % 6 == 1 else "open"


def money(c):
    return f"{c // 100}.{c % 100:02d}"


def thousands(c):
    return f"{c // 100:,}.{c % 100:02d}"


def write_csv(path, header, rows, preamble=(), footer=()):
    with open(path, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        for line in preamble:
            writer.writerow(line)
        writer.writerow(header)
        writer.writerows(rows)
        for line in footer:
            writer.writerow(line)


def freshbooks(folder, n):
    """FreshBooks' clients export and invoices export (one line per invoice, tax 1 on it)."""
    clients = os.path.join(folder, "fb-clients.csv")
    write_csv(clients, ["Organization", "First Name", "Last Name", "Email", "Phone", "Street", "City", "Province/State", "Country",
                        "Postal Code", "Notes"],
              [[f"Client {c}", "Ana", "Diaz", f"c{c}@example.com", "", "1 Main St", "Springfield", "", "United States", "12345", ""]
               for c in range(CLIENTS)])
    invoices = os.path.join(folder, "fb-invoices.csv")
    rows = []
    for i in range(n):
        net, tax = cents(i)
        paid = state(i) == "paid"
        rows.append([f"Client {i % CLIENTS}", f"{i:07d}", iso(i), "paid" if paid else "sent", iso(i, 5) if paid else "", "Consulting",
                     "Work", money(net), "1.00000000", "0.0000", money(net), "GST", money(tax), "", "0.00", money(net + tax), "USD"])
    write_csv(invoices, ["Client Name", "Invoice #", "Date Issued", "Invoice Status", "Date Paid", "Item Name", "Item Description", "Rate",
                         "Quantity", "Discount Percentage", "Line Subtotal", "Tax 1 Type", "Tax 1 Amount", "Tax 2 Type", "Tax 2 Amount",
                         "Line Total", "Currency"], rows)
    return [clients, invoices], []


ZOHO = ("Invoice Date,Invoice ID,Invoice Number,Estimate Number,Invoice Status,Customer Name,Company Name,Customer ID,Branch ID,"
        "Branch Name,Due Date,Expected Payment Date,PurchaseOrder,Template Name,Currency Code,Exchange Rate,Discount Type,"
        "Is Discount Before Tax,Entity Discount Percent,Entity Discount Amount,Item Name,Item Desc,Quantity,Usage unit,Item Price,"
        "Discount,Discount Amount,Expense Reference ID,Project ID,Project Name,Item Total,SubTotal,Total,Balance,Shipping Charge,"
        "Adjustment,Adjustment Description,Round Off,Sales person,Payment Terms,Payment Terms Label,Last Payment Date,Notes,"
        "Terms & Conditions,Subject,LateFee Name,LateFee Type,LateFee Rate,LateFee Amount,LateFee Frequency,WriteOff Date,"
        "WriteOff Exchange Rate,WriteOff Amount,Recurrence Name,PayPal,Authorize.Net,Google Checkout,Payflow Pro,Stripe,2Checkout,"
        "Braintree,Forte,WorldPay,Payments Pro,Square,WePay,Razorpay,GoCardless,Partial Payments,Billing Address,Billing City,"
        "Billing State,Billing Country,Billing Code,Billing Fax,Billing Phone,Shipping Address,Shipping City,Shipping State,"
        "Shipping Country,Shipping Code,Shipping Fax,Shipping Phone Number").split(",")


def zoho(folder, n):
    """Zoho Invoice's invoices export: its 83 columns, one line per invoice, the balance after partial payments."""
    path = os.path.join(folder, "zoho-invoices.csv")
    rows = []
    for i in range(n):
        net, tax = cents(i)
        total = net + tax
        balance = {"paid": 0, "partial": total - total // 2, "open": total}[state(i)]
        values = {"Invoice Date": iso(i), "Invoice Number": f"INV-{i:06d}", "Invoice Status": "Paid" if balance == 0 else "Sent",
                  "Customer Name": f"Client {i % CLIENTS}", "Due Date": iso(i, 8), "Currency Code": "EUR", "Exchange Rate": "1.00",
                  "Item Name": "Consulting", "Quantity": "1.00", "Item Price": money(net), "Item Total": money(net),
                  "SubTotal": money(net), "Total": money(total), "Balance": money(balance), "Shipping Charge": "0.00",
                  "Adjustment": "0.00", "Round Off": "0.00", "Last Payment Date": iso(i, 5) if balance != total else "",
                  "WriteOff Exchange Rate": "1.00", "WriteOff Amount": "0.00", "Billing City": "Berlin", "Billing Country": "Germany"}
        rows.append([values.get(column, "") for column in ZOHO])
    write_csv(path, ZOHO, rows)
    return [path], []


XERO = ("ContactName,EmailAddress,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,POPostalCode,POCountry,"
        "SAAddressLine1,SAAddressLine2,SAAddressLine3,SAAddressLine4,SACity,SARegion,SAPostalCode,SACountry,InvoiceNumber,Reference,"
        "InvoiceDate,DueDate,PlannedDate,Total,TaxTotal,InvoiceAmountPaid,InvoiceAmountDue,InventoryItemCode,Description,Quantity,"
        "UnitAmount,Discount,LineAmount,AccountCode,TaxType,TaxAmount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2,"
        "Currency,Type,Sent,Status").split(",")


def xero(folder, n):
    """Xero's invoices export: its 44 columns, one line per invoice, UK dates (d/M/yyyy)."""
    path = os.path.join(folder, "xero-invoices.csv")
    rows = []
    for i in range(n):
        net, tax = cents(i)
        total = net + tax
        paid = {"paid": total, "partial": total // 2, "open": 0}[state(i)]
        year, month, d = day(i)
        values = {"ContactName": f"Client {i % CLIENTS}", "InvoiceNumber": f"INV-{i:06d}", "InvoiceDate": f"{d}/{month}/{year}",
                  "DueDate": f"{d + 8}/{month}/{year}", "Total": money(total), "TaxTotal": money(tax), "InvoiceAmountPaid": money(paid),
                  "InvoiceAmountDue": money(total - paid), "Description": "Consulting", "Quantity": "1.0000", "UnitAmount": money(net),
                  "LineAmount": money(net), "AccountCode": "200", "TaxType": "20% (VAT on Income)", "TaxAmount": money(tax),
                  "Currency": "GBP", "Type": "Sales invoice", "Sent": "Sent", "Status": "Paid" if paid == total else "Awaiting Payment"}
        rows.append([values.get(column, "") for column in XERO])
    write_csv(path, XERO, rows)
    return [path], ["--date-format", "dd/MM/yyyy"]


def stripe(folder, n):
    """The Stripe API's invoice list as JSON (`{"object": "list", "data": [...]}`), amounts in minor units."""
    path = os.path.join(folder, "stripe-invoices.json")
    data = []
    for i in range(n):
        net, tax = cents(i)
        total = net + tax
        status = state(i)
        paid = total if status == "paid" else 0
        year, month, d = day(i)
        finalized = 1735732800 + (i % 360) * 86400
        data.append({
            "id": f"in_{i:010d}", "object": "invoice", "number": f"SI-{i:06d}", "customer": f"cus_{i % CLIENTS:05d}",
            "customer_name": f"Client {i % CLIENTS}", "customer_email": f"c{i % CLIENTS}@example.com",
            "customer_address": {"line1": "1 Main St", "line2": None, "city": "Dublin", "state": None, "postal_code": "D01", "country": "IE"},
            "status": "paid" if status == "paid" else "open", "created": finalized - 3600, "due_date": finalized + 14 * 86400,
            "description": "Consulting", "currency": "eur", "total": total, "total_excluding_tax": net,
            "total_tax_amounts": [{"amount": tax, "inclusive": False, "tax_rate": "txr_20", "taxable_amount": net}],
            "amount_due": total, "amount_paid": paid, "amount_remaining": total - paid,
            "status_transitions": {"finalized_at": finalized, "paid_at": finalized + 5 * 86400 if paid else None,
                                   "marked_uncollectible_at": None, "voided_at": None},
        })
    with open(path, "w") as out:
        json.dump({"object": "list", "url": "/v1/invoices", "has_more": False, "data": data}, out)
    return [path], []


STRIPE_CSV = ["id", "Number", "Customer", "Customer Name", "Customer Email", "Status", "Currency", "Amount Due", "Amount Paid",
              "Amount Remaining", "Subtotal", "Total", "Tax", "Description", "Date (UTC)", "Due Date (UTC)", "Finalized At (UTC)",
              "Paid At (UTC)", "Starting Balance", "Ending Balance"]


def stripe_csv(folder, n):
    """The Stripe Dashboard's invoices export (docs/import.md, "Stripe Dashboard exports"): major units, UTC times. As in a
    real export, some invoices move money through the customer's balance ("Stripe's customer balance"): one invoice in
    97 is a credit (a negative total put on the balance), which the customer's next invoices use."""
    path = os.path.join(folder, "invoices.csv")
    signed = lambda c: ("-" if c < 0 else "") + money(abs(c))
    balance = {}
    rows = {}
    # Each customer's invoices in the order Stripe finalizes them (its balance moves in that order).
    for i in sorted(range(n), key=lambda i: (day(i), i)):
        net, tax = cents(i)
        total = net + tax
        customer = i % CLIENTS
        start = balance.get(customer, 0)
        if i % 97 == 7:
            net, tax, total = -net, -tax, -total
            used, status, paid = total, "paid", 0
        else:
            used = min(total, -start)
            due = total - used
            paid = due if state(i) == "paid" else 0
            status = "paid" if state(i) == "paid" else "open"
        end = start + used
        balance[customer] = end
        due = max(total - used, 0)
        year, month, d = day(i)
        when = f"{year:04d}-{month:02d}-{d:02d} 10:00:00"
        rows[i] = [f"in_{i:010d}", f"SC-{i:06d}", f"cus_{customer:05d}", f"Client {customer}", f"c{customer}@example.com",
                   status, "eur", money(due), money(paid), money(due - paid), signed(net), signed(total),
                   signed(tax), "Consulting", when, "", when, when if status == "paid" else "", signed(start), signed(end)]
    write_csv(path, STRIPE_CSV, [rows[i] for i in range(n)])
    return [path], []


def quickbooks(folder, n):
    """QuickBooks Online's Transaction List by Customer with multicurrency columns: title rows, each customer's
    invoices and payments in date order, `Total for …`, `TOTAL` and the timestamp row. The open balances are what
    QuickBooks shows when it applies each payment to the customer's oldest open invoices (its default)."""
    path = os.path.join(folder, "quickbooks-transactions.csv")
    header = ["", "Date", "Transaction type", "Num", "Posting", "Memo/Description", "Account", "Due date", "Amount", "Open balance",
              "Currency", "Exchange rate", "Foreign amount", "Foreign open balance"]
    rows = []
    for c in range(CLIENTS):
        invoices, payments = [], []
        for i in range(c, n, CLIENTS):
            net, tax = cents(i)
            total = net + tax
            paid = {"paid": total, "partial": total // 2, "open": 0}[state(i)]
            invoices.append([day(i), i, total, total])
            if paid:
                payments.append([day(i, 5), i, paid])
        invoices.sort(key=lambda item: item[0])
        payments.sort(key=lambda item: item[0])
        for when, _, amount in payments:
            for invoice in invoices:
                if amount == 0:
                    break
                if invoice[0] <= when and invoice[3] > 0:
                    take = min(amount, invoice[3])
                    invoice[3] -= take
                    amount -= take
        lines = [(when, 0, ["", "%02d/%02d/%d" % (when[1], when[2], when[0]), "Invoice", str(10_000 + i), "Yes", "Consulting",
                            "Accounts Receivable (A/R)", "%02d/%02d/%d" % (when[1], when[2] + 8, when[0]), thousands(total), thousands(left),
                            "USD", "1.00", thousands(total), thousands(left)]) for when, i, total, left in invoices]
        lines += [(when, 1, ["", "%02d/%02d/%d" % (when[1], when[2], when[0]), "Payment", f"P{i}", "Yes", "", "Undeposited Funds", "",
                             f"-{thousands(paid)}", "0.00", "USD", "1.00", f"-{thousands(paid)}", "0.00"]) for when, i, paid in payments]
        rows.append([f"Client {c}, Ltd"] + [""] * 13)
        rows += [line for _, _, line in sorted(lines, key=lambda item: (item[0], item[1]))]
        rows.append([f"Total for Client {c}, Ltd"] + [""] * 13)
    write_csv(path, header, rows, preamble=[["Transaction List by Customer"], ["Bench Company"], ["January 1 - December 31, 2025"], []],
              footer=[["TOTAL"] + [""] * 13, [], ["Wednesday, December 31, 2025 10:15 AM GMT-05:00"]])
    return [path], []

NINJA_CLIENTS = ("Name,Number,Client User,Client Assigned User,Balance,Paid to Date,Client Currency,Website,Private Notes,Industry,"
                 "Client Size,Client Phone,Street,Apt/Suite,City,State/Province,Postal Code,Country,Shipping Street,"
                 "Shipping Apt/Suite,Shipping City,Shipping State/Province,Shipping Postal Code,Shipping Country,"
                 "Client Payment Terms,VAT Number,ID Number,Public Notes,Contact Phone,First Name,Last Name,Email,Custom Value 1,"
                 "Custom Value 2,Custom Value 3,Custom Value 4,Contact Custom Value 1,Contact Custom Value 2,"
                 "Contact Custom Value 3,Contact Custom Value 4,Payment Balance,Credit Balance,Classification").split(",")
NINJA_INVOICES = ("Client Name,Client Currency,Invoice Invoice Number,Invoice Amount,Invoice Balance,Invoice Paid to Date,"
                  "Invoice PO Number,Invoice Date,Invoice Due Date,Invoice Terms,Invoice Footer,Invoice Status,Invoice Public Notes,"
                  "Invoice Private Notes,Invoice Uses Inclusive Taxes,Invoice Is Amount Discount,Invoice Discount,"
                  "Invoice Partial/Deposit,Invoice Partial Due Date,Invoice Custom Surcharge 1,Invoice Custom Surcharge 2,"
                  "Invoice Custom Surcharge 3,Invoice Custom Surcharge 4,Invoice Exchange Rate,Invoice Tax Amount,"
                  "Invoice Assigned User,Invoice User,Invoice Custom Value 1,Invoice Custom Value 2,Invoice Custom Value 3,"
                  "Invoice Custom Value 4,Invoice Tax Name 1,Invoice Tax Name 2,Invoice Tax Name 3,Invoice Tax Rate 1,"
                  "Invoice Tax Rate 2,Invoice Tax Rate 3,Invoice Recurring Invoice,Invoice Auto Bill,Invoice Project").split(",")
NINJA_PAYMENTS = ("Client Name,Payment Date,Payment Amount,Payment Refunded,Payment Applied,Payment Transaction Reference,"
                  "Payment Currency,Payment Exchange Rate,Payment Number,Payment Method,Payment Status,Payment Private Notes,"
                  "Payment Custom Value 1,Payment Custom Value 2,Payment Custom Value 3,Payment Custom Value 4,Payment User,"
                  "Payment Assigned User,Invoice Invoice Number").split(",")


def paid_part(i, gross):
    """What of invoice i's gross is paid: all, half or nothing (state)."""
    return gross if state(i) == "paid" else gross // 2 if state(i) == "partial" else 0


def invoiceninja(folder, n):
    """Invoice Ninja v5's clients, invoices and payments exports (the payments report with its invoice column added)."""
    owed = [0] * CLIENTS
    paid_to_date = [0] * CLIENTS
    invoices, payments = [], []
    for i in range(n):
        net, tax = cents(i)
        gross, paid = net + tax, paid_part(i, net + tax)
        c = i % CLIENTS
        owed[c] += gross - paid
        paid_to_date[c] += paid
        status = "Paid" if paid == gross else "Partial" if paid else "Sent"
        row = dict.fromkeys(NINJA_INVOICES, "")
        row.update({"Client Name": f"Client {c}", "Client Currency": "EUR", "Invoice Invoice Number": f"{i + 1:06d}",
                    "Invoice Amount": money(gross), "Invoice Balance": money(gross - paid), "Invoice Paid to Date": money(paid),
                    "Invoice Date": iso(i), "Invoice Due Date": iso(i, 5), "Invoice Status": status,
                    "Invoice Uses Inclusive Taxes": "No", "Invoice Is Amount Discount": "Yes", "Invoice Discount": "0",
                    "Invoice Partial/Deposit": "0", "Invoice Exchange Rate": "1", "Invoice Tax Amount": money(tax),
                    "Invoice User": "Ana Admin", "Invoice Tax Name 1": "VAT", "Invoice Tax Rate 1": "20",
                    "Invoice Tax Rate 2": "0", "Invoice Tax Rate 3": "0", "Invoice Auto Bill": "No"})
        invoices.append([row[column] for column in NINJA_INVOICES])
        if paid:
            payment = dict.fromkeys(NINJA_PAYMENTS, "")
            payment.update({"Client Name": f"Client {c}", "Payment Date": iso(i, 5), "Payment Amount": money(paid),
                            "Payment Refunded": "0", "Payment Applied": money(paid), "Payment Currency": "EUR",
                            "Payment Exchange Rate": "1", "Payment Number": f"{len(payments) + 1:06d}",
                            "Payment Method": "Bank Transfer", "Payment Status": "Completed", "Payment User": "Ana Admin",
                            "Invoice Invoice Number": f"{i + 1:06d}"})
            payments.append([payment[column] for column in NINJA_PAYMENTS])
    clients = []
    for c in range(CLIENTS):
        row = dict.fromkeys(NINJA_CLIENTS, "")
        row.update({"Name": f"Client {c}", "Number": f"{c + 1:04d}", "Client User": "Ana Admin", "Balance": money(owed[c]),
                    "Paid to Date": money(paid_to_date[c]), "Client Currency": "EUR", "Street": "1 Main St", "City": "Springfield",
                    "Country": "Germany", "Email": f"c{c}@example.com", "Payment Balance": "0", "Credit Balance": "0"})
        clients.append([row[column] for column in NINJA_CLIENTS])
    files = [os.path.join(folder, name) for name in ("ninja-clients.csv", "ninja-invoices.csv", "ninja-payments.csv")]
    write_csv(files[0], NINJA_CLIENTS, clients)
    write_csv(files[1], NINJA_INVOICES, invoices)
    write_csv(files[2], NINJA_PAYMENTS, payments)
    return files, []


WAVE_CUSTOMERS = ("customer_name,email,contact_first_name,contact_last_name,customer_currency,account_number,phone,fax,mobile,"
                  "toll_free,website,country,province/state,address_line_1,address_line_2,city,postal_code/zip_code,"
                  "shipping_address,ship-to_contact,ship-to_country,ship-to_province/state,ship-to_address_line_1,"
                  "ship-to_address_line_2,ship-to_city,ship-to_postal_code/zip_code,ship-to_phone,delivery_instructions").split(",")
WAVE_LEDGER = ["Transaction ID", "Transaction Date", "Account Name", "Transaction Description", "Transaction Line Description",
               "Amount (One column)", " ", "Debit Amount (Two Column Approach)", "Credit Amount (Two Column Approach)",
               "Other Accounts for this Transaction", "Customer", "Vendor", "Invoice Number", "Bill Number", "Notes / Memo",
               "Amount Before Sales Tax", "Sales Tax Amount", "Sales Tax Name", "Transaction Date Added",
               "Transaction Date Last Modified", "Account Group", "Account Type", "Account ID"]


def wave(folder, n):
    """Wave's customers export and its accounting transactions export (income, tax and receivable lines per invoice,
    receivable and cash lines per payment)."""
    customers = os.path.join(folder, "wave-customers.csv")
    write_csv(customers, WAVE_CUSTOMERS,
              [[f"Client {c}", f"c{c}@example.com", "Ana", "Diaz", "CAD"] + [""] * 6 + ["Canada", "Ontario", "1 Main St", "",
                                                                                       "Toronto", "M5V 2T6", "False"]
               + [""] * 9 for c in range(CLIENTS)])
    rows = []
    serial = 1_900_000_000_000_000_000

    def line(transaction, date, account, description, amount, debit, credit, others, customer, number, before, tax, tax_name,
             group, kind):
        rows.append([str(transaction), date, account, description, description, amount, "", debit, credit, others, customer, "",
                     number, "", "", before, tax, tax_name, date, date, group, kind, ""])

    for i in range(n):
        net, tax = cents(i)
        gross, paid = net + tax, paid_part(i, net + tax)
        customer, number, date = f"Client {i % CLIENTS}", str(i + 1), iso(i)
        serial += 1
        label = f"{customer} - {number}"
        line(serial, date, "Sales", label, money(net), "", money(net), "Accounts Receivable, GST", customer, number, money(net),
             money(tax), "GST", "Income", "Income")
        line(serial, date, "GST", label, money(tax), "", money(tax), "Accounts Receivable", customer, number, money(tax), "", "",
             "Liability", "Sales Tax on Sales and Purchases")
        line(serial, date, "Accounts Receivable", label, money(gross), money(gross), "", "GST, Sales", customer, number,
             money(gross), "", "", "Asset", "System Receivable Invoice")
        if paid:
            serial += 1
            day_paid = iso(i, 5)
            line(serial, day_paid, "Accounts Receivable", "Invoice Payment", "-" + money(paid), "", money(paid), "Cash on Hand",
                 customer, number, "-" + money(paid), "", "", "Asset", "System Receivable Invoice")
            line(serial, day_paid, "Cash on Hand", "Invoice Payment", money(paid), money(paid), "", "Accounts Receivable", "", "",
                 money(paid), "", "", "Asset", "Cash and Bank")
    ledger = os.path.join(folder, "wave-transactions.csv")
    write_csv(ledger, WAVE_LEDGER, rows)
    return [customers, ledger], []


# One line per service: its name and the generator of its files.
SERVICES = [
    ("FreshBooks", freshbooks),
    ("Zoho Invoice", zoho),
    ("Xero", xero),
    ("Stripe (API JSON)", stripe),
    ("Stripe (Dashboard CSV)", stripe_csv),
    ("QuickBooks Online", quickbooks),
    ("Invoice Ninja", invoiceninja),
    ("Wave", wave),
]


def import_timings(invoices, runs, only=None):
    """(service, seconds, peak MB, file MB) for each service in SERVICES (or those named in `only`)."""
    results = []
    for name, generate in SERVICES:
        if only and generate.__name__ not in only:
            continue
        folder = tempfile.mkdtemp(prefix=f"bench-import-{generate.__name__}-")
        try:
            files, extra = generate(folder, invoices)
            store = os.path.join(folder, "books.sqlite")

            def fresh():
                if os.path.exists(store):
                    os.remove(store)
            seconds, peak, _ = timed([INVOICES, "import", "--quiet", "--store", store] + extra + files, runs, before=fresh)
            size = sum(os.path.getsize(f) for f in files) / 1e6
            results.append((name, seconds, peak, size))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return results


def report(results, invoices):
    print(f"importing {invoices:,} invoices into a new store, per service's layout (median wall time, peak memory):")
    print(f"  {'service':20} {'files':>8} {'import':>8} {'peak':>7} {'per 1,000':>9}")
    for name, seconds, peak, size in results:
        print(f"  {name:20} {size:6.1f}MB {seconds:7.2f}s {peak:5.0f}MB {1000 * seconds / invoices:8.3f}s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--invoices", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated generator names (freshbooks,zoho,xero,stripe,stripe_csv,quickbooks,invoiceninja,wave)")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    report(import_timings(args.invoices, args.runs, only), args.invoices)


if __name__ == "__main__":
    main()
