#!/usr/bin/env python3
"""Benchmarks `invoices build` against the references on the same data, in the same run.

Beside each SQLite build, the same store copied to a PostgreSQL server on loopback (initdb in a temporary folder,
stopped afterwards) is built with `--store postgres://…` (issue 19: within 1.5x the time and 10% of the peak).

References: sqlite3's GROUP BY over the invoices and a full scan (the floor for reading the store), cmark
rendering the Markdown the tool renders (the floor for rendering), and Hugo building the equivalent pages.
Prints a table of median wall times, peak memory and ratios. Usage:

    scripts/bench.py [--sizes tiny,S,L] [--runs N] [--data bench-data] [--no-hugo] [--no-postgres]

Stores are generated with `invoices sample` and cached in the data folder between runs.
"""
import argparse
import glob
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile

SIZES = {"tiny": (50, 5_000), "S": (2_000, 200_000), "M": (10_000, 1_000_000), "L": (20_000, 2_000_000)}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INVOICES = os.environ.get("INVOICES", os.path.join(ROOT, ".build/release/invoices"))


class LoopbackPostgres:
    """A PostgreSQL cluster from Debian's packages in a temporary folder on a free 127.0.0.1 port, as the tests start
    one: run as `postgres` (the server refuses root), trust logins on loopback only, stopped by `stop()`."""

    def __init__(self):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not bins:
            raise FileNotFoundError("PostgreSQL is not installed (make test-deps)")
        self.bin = os.path.dirname(bins[-1])
        self.folder = tempfile.mkdtemp(prefix="bench-pg-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        if os.getuid() == 0:
            subprocess.run(["chown", "-R", "postgres:", self.folder], check=True)
        self._run(f"{self.bin}/initdb -D {self.folder}/data -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null")
        self._run(f"{self.bin}/pg_ctl -D {self.folder}/data -l {self.folder}/server.log -w "
                  f"-o '-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off' start "
                  f"</dev/null >/dev/null 2>&1")

    def _run(self, command):
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", "sh", "-c", command]
        subprocess.run(command, shell=isinstance(command, str), check=True)

    def url(self, database):
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}?sslmode=disable"

    def store(self, name, sqlite_store):
        """A database `name` with the store's tables and the rows of `sqlite_store` (copied by `invoices import`)."""
        psql = [f"{self.bin}/psql", "-X", "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        subprocess.run(psql + ["-c", f"CREATE DATABASE {name}"], check=True)
        schema = subprocess.run([INVOICES, "schema", "--postgres"], check=True, capture_output=True, text=True).stdout
        subprocess.run(psql + ["-d", name, "-v", "ON_ERROR_STOP=1"], input=schema, text=True, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([INVOICES, "import", "--quiet", "--store", self.url(name), sqlite_store], check=True)
        subprocess.run(psql + ["-d", name, "-c", "VACUUM ANALYZE"], check=True)
        return self.url(name)

    def stop(self):
        try:
            self._run(f"{self.bin}/pg_ctl -D {self.folder}/data -m fast -w stop >/dev/null 2>&1")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def timed(command, runs, cwd=None, shell=False, after=None, before=None):
    """Runs `command` `runs` times under /usr/bin/time; returns (median seconds, max peak RSS MB, last stdout).

    `before` and `after`, when given, are called before and after each run (to change an input, to collect what
    the run wrote)."""
    walls, peaks, out = [], [], ""
    for _ in range(runs):
        if before:
            before()
        fd, path = tempfile.mkstemp()
        os.close(fd)
        full = ["/usr/bin/time", "-f", "%e %M", "-o", path] + (["sh", "-c", command] if shell else command)
        result = subprocess.run(full, cwd=cwd, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"failed: {command}\n{result.stderr}")
        wall, peak = open(path).read().split()[-2:]
        os.unlink(path)
        walls.append(float(wall))
        peaks.append(int(peak) / 1024)
        out = result.stdout
        if after:
            after()
    return statistics.median(walls), max(peaks), out


EINVOICE = """<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
  <cbc:ID>RE-{n:05d}</cbc:ID>
  <cbc:IssueDate>2025-{month:02d}-01</cbc:IssueDate>
  <cbc:DueDate>2025-{month:02d}-28</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Seller GmbH</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party><cac:PartyIdentification><cbc:ID>K-{buyer:03d}</cbc:ID></cac:PartyIdentification><cac:PartyLegalEntity><cbc:RegistrationName>Buyer {buyer}</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">{tax}</cbc:TaxAmount>
    <cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">{net}</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">{tax}</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
  <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">{net}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">{net}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">{gross}</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">{gross}</cbc:PayableAmount></cac:LegalMonetaryTotal>
  <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">{net}</cbc:LineExtensionAmount><cac:Item><cbc:Name>Work</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">{net}</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</Invoice>
"""


def einvoice_import(runs):
    """A folder of 1,000 UBL e-invoices (100 buyers) imported into a new store: the median seconds."""
    folder = tempfile.mkdtemp(prefix="bench-einvoices-")
    files = []
    for n in range(1000):
        cents = 10000 + 37 * n
        tax = (cents * 19 + 50) // 100
        path = os.path.join(folder, f"{n:05d}.xml")
        with open(path, "w") as out:
            out.write(EINVOICE.format(n=n, month=1 + n % 12, buyer=n % 100, net=f"{cents / 100:.2f}", tax=f"{tax / 100:.2f}",
                                      gross=f"{(cents + tax) / 100:.2f}"))
        files.append(path)
    store = os.path.join(folder, "books.sqlite")
    def fresh():
        if os.path.exists(store):
            os.remove(store)
    seconds, peak, _ = timed([INVOICES, "import", "--quiet", "--store", store] + files, runs, before=fresh)
    shutil.rmtree(folder, ignore_errors=True)
    return seconds, peak


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="S,L")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--data", default=os.path.join(ROOT, "bench-data"))
    parser.add_argument("--no-hugo", action="store_true")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.data, exist_ok=True)
    rows = []
    server = None if args.no_postgres else LoopbackPostgres()
    try:
        run_sizes(args, rows, server)
    finally:
        if server:
            server.stop()
    report(rows)
    seconds, peak = einvoice_import(args.runs)
    print(f"e-invoices: 1,000 UBL files imported into a new store in {seconds:.2f}s ({seconds / 10:.3f}s per hundred files), peak {peak:.0f}MB")


def run_sizes(args, rows, server):
    for size in args.sizes.split(","):
        clients, invoices = SIZES[size]
        store = os.path.join(args.data, f"{size}.sqlite")
        if not os.path.exists(store):
            print(f"generating {size}: {clients} clients, {invoices} invoices", flush=True)
            subprocess.run([INVOICES, "sample", "--clients", str(clients), "--invoices", str(invoices),
                            "--seed", "1", "--output", store], check=True, stdout=subprocess.DEVNULL)
        work = tempfile.mkdtemp(prefix=f"bench-{size}-")
        site = os.path.join(work, "site")
        markdown = os.path.join(work, "markdown")
        timings = os.path.join(work, "timings.json")
        # Our build, several times, each writing its phases (medians are reported); then once more for the
        # intermediate Markdown that cmark renders below.
        runs_phases = []
        ours, ours_mb, _ = timed([INVOICES, "build", "--full", "--store", store, "--output", site, "--quiet", "--timings", timings],
                                 args.runs, after=lambda: runs_phases.append(json.load(open(timings))))
        # Incremental rebuilds (docs/cli.md), on a copy of the store and the default templates in a folder:
        # nothing changed; the oldest invoice's amount changed before each run (its outstanding cent moves every later
        # month: the worst case); the newest invoice's amount changed before each run (the month-end case: earlier
        # months and periods stay); one line added to month.md before each run.
        copy = os.path.join(work, "store.sqlite")
        shutil.copyfile(store, copy)
        project = os.path.join(work, "project")
        subprocess.run([INVOICES, "init", project, "--clients", "1", "--invoices", "0"], check=True, stdout=subprocess.DEVNULL)
        templates = os.path.join(project, "templates")
        rebuild = [INVOICES, "build", "--store", copy, "--templates", templates, "--output", site, "--quiet"]
        subprocess.run(rebuild + ["--full"], check=True)
        unchanged, unchanged_mb, _ = timed(rebuild, args.runs)
        columns = subprocess.run(["sqlite3", copy, "SELECT name FROM pragma_table_info('invoice');"], check=True,
                                 capture_output=True, text=True).stdout.split()
        # A schema 2 store keeps the gross equal to net plus taxes: change both.
        change = "amount = amount + 1" + (", net = net + 1" if "net" in columns else "")
        def change_invoice(which):
            subprocess.run(["sqlite3", copy, f"UPDATE invoice SET {change} WHERE id = ({which});"], check=True)
        one_invoice, one_invoice_mb, _ = timed(rebuild, args.runs, before=lambda: change_invoice("SELECT MIN(id) FROM invoice"))
        newest, newest_mb, _ = timed(rebuild, args.runs, before=lambda: change_invoice(
            "SELECT id FROM invoice ORDER BY issuedOn DESC, id DESC LIMIT 1"))
        def change_template():
            with open(os.path.join(templates, "month.md"), "a") as month:
                month.write("\nOne more line.\n")
        template, template_mb, _ = timed(rebuild, args.runs, before=change_template)
        phases = {k: statistics.median(run[k] for run in runs_phases) for k in runs_phases[0]}
        phases["load+totals"] = statistics.median(run["load"] + run["totals"] for run in runs_phases)
        subprocess.run([INVOICES, "build", "--store", store, "--output", site, "--quiet",
                        "--debug-markdown", markdown], check=True)
        pages = sum(1 for _, _, names in os.walk(site) for n in names if n.endswith(".html"))
        # The site's size and its largest HTML page (the target: every page at most 1 MB, at any size of books).
        files = [(os.path.getsize(os.path.join(d, n)), os.path.relpath(os.path.join(d, n), site)) for d, _, names in os.walk(site) for n in names]
        site_mb = sum(size for size, _ in files) / 1e6
        largest_page = max(((size, path) for size, path in files if path.endswith(".html")), default=(0, "-"))
        group_sql = "SELECT clientId, currency, SUM(amount), COUNT(*) FROM invoice GROUP BY clientId, currency;"
        group, group_mb, _ = timed(["sqlite3", store, group_sql], args.runs)
        scan, scan_mb, _ = timed(f"sqlite3 {store} 'SELECT * FROM invoice;' > /dev/null", args.runs, shell=True)
        md_bytes = sum(os.path.getsize(os.path.join(d, n)) for d, _, names in os.walk(markdown) for n in names)
        cmark, cmark_mb, _ = timed(f"find {markdown} -name '*.md' -print0 | xargs -0 cat | cmark > /dev/null", args.runs, shell=True)
        # The same books from PostgreSQL on loopback, full builds, beside the SQLite ones.
        postgres = postgres_mb = postgres_load = None
        if server:
            url = server.store(f"bench_{size.lower()}", store)
            postgres_phases = []
            postgres, postgres_mb, _ = timed([INVOICES, "build", "--full", "--store", url, "--output", site, "--quiet", "--timings", timings],
                                             args.runs, after=lambda: postgres_phases.append(json.load(open(timings))))
            postgres_load = statistics.median(run["load"] for run in postgres_phases)
        hugo = hugo_mb = None
        if not args.no_hugo:
            hugo_dir = os.path.join(work, "hugo")
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts/hugo_site.py"), store, hugo_dir], check=True,
                           stdout=subprocess.DEVNULL)
            hugo, hugo_mb, _ = timed(["hugo", "--quiet", "-s", hugo_dir, "-d", os.path.join(work, "hugo-out")], max(1, args.runs // 2))
        rows.append(dict(unchanged=unchanged, unchanged_mb=unchanged_mb, one_invoice=one_invoice, one_invoice_mb=one_invoice_mb,
                         newest=newest, newest_mb=newest_mb, template=template, template_mb=template_mb))
        rows[-1].update(dict(site_mb=site_mb, largest_page=largest_page))
        rows[-1].update(dict(size=size, clients=clients, invoices=invoices, pages=pages, ours=ours, ours_mb=ours_mb,
                         phases=phases, group=group, scan=scan, cmark=cmark, md_mb=md_bytes / 1e6, hugo=hugo, hugo_mb=hugo_mb,
                         postgres=postgres, postgres_mb=postgres_mb, postgres_load=postgres_load))
        shutil.rmtree(work, ignore_errors=True)


def report(rows):
    print()
    print(f"{'size':5} {'invoices':>9} {'pages':>6} | {'invoices build':>15} {'peak':>8} | {'sqlite GROUP BY':>15} {'sqlite scan':>11} "
          f"{'cmark':>7} {'(MB md)':>8} {'hugo':>7} | {'vs scan+cmark':>13} {'vs GROUP BY':>11} {'hugo/ours':>9}")
    for r in rows:
        floor = r["scan"] + r["cmark"]
        hugo = f"{r['hugo']:6.2f}s" if r["hugo"] is not None else "    -  "
        hugo_ratio = f"{r['hugo'] / r['ours']:8.1f}x" if r["hugo"] else "       - "
        print(f"{r['size']:5} {r['invoices']:>9} {r['pages']:>6} | {r['ours']:14.2f}s {r['ours_mb']:6.0f}MB | "
              f"{r['group']:14.2f}s {r['scan']:10.2f}s {r['cmark']:6.2f}s {r['md_mb']:8.1f} {hugo} | "
              f"{r['ours'] / floor if floor else 0:12.2f}x {r['ours'] / r['group'] if r['group'] else 0:10.2f}x {hugo_ratio}")
    print()
    print("full build (--full) against Hugo and the floor (sqlite3 scan + cmark on the same Markdown); rebuilds as a share of it:")
    print(f"{'size':5} | {'full':>7} {'peak':>7} | {'floor':>6} {'x floor':>7} | {'hugo':>7} {'peak':>7} {'hugo/ours':>9} | "
          f"{'no change':>9} {'peak':>7} {'share':>6} | {'oldest inv':>9} {'peak':>7} {'share':>6} | "
          f"{'newest inv':>9} {'peak':>7} {'share':>6} | {'template':>9} {'peak':>7} {'share':>6}")
    for r in rows:
        floor = r["scan"] + r["cmark"]
        hugo = f"{r['hugo']:6.2f}s {r['hugo_mb']:5.0f}MB {r['hugo'] / r['ours']:8.1f}x" if r["hugo"] else f"{'-':>7} {'-':>7} {'-':>9}"
        shares = " | ".join(f"{r[k]:8.2f}s {r[k + '_mb']:5.0f}MB {100 * r[k] / r['ours']:5.0f}%"
                            for k in ("unchanged", "one_invoice", "newest", "template"))
        print(f"{r['size']:5} | {r['ours']:6.2f}s {r['ours_mb']:5.0f}MB | {floor:5.2f}s {r['ours'] / floor if floor else 0:6.2f}x | "
              f"{hugo} | {shares}")
    print()
    print("the site (target: every HTML page at most 1 MB):")
    for r in rows:
        size, path = r["largest_page"]
        print(f"  {r['size']}: {r['pages']} pages, {r['site_mb']:.0f} MB in all; largest page {size / 1e6:.2f} MB ({path})")
    print()
    print("phases of our build (median seconds, from --timings):")
    for r in rows:
        print(f"  {r['size']}: " + ", ".join(f"{k} {v:.2f}" for k, v in r["phases"].items()))
    print()
    if any(r["postgres"] is not None for r in rows):
        print("the same books from PostgreSQL on loopback (full builds; target: at most 1.5x the time, peak within 10%):")
        for r in rows:
            if r["postgres"] is not None:
                print(f"  {r['size']}: PostgreSQL {r['postgres']:.2f}s {r['postgres_mb']:.0f}MB, SQLite {r['ours']:.2f}s {r['ours_mb']:.0f}MB: "
                      f"{r['postgres'] / r['ours']:.2f}x the time, peak {100 * (r['postgres_mb'] / r['ours_mb'] - 1):+.0f}%; "
                      f"load phase {r['postgres_load']:.2f}s against {r['phases']['load']:.2f}s")
        print()
    print("the store read through the contexts (load: the store's fetch; totals: the child context's figures):")
    for r in rows:
        both = r["phases"]["load+totals"]
        ratio = both / r["group"] if r["group"] else 0
        print(f"  {r['size']}: load+totals {both:.2f}s = {ratio:.2f}x the sqlite3 GROUP BY ({r['group']:.2f}s); "
              f"totals phase {r['phases']['totals']:.2f}s")


if __name__ == "__main__":
    main()
