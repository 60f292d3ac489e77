# The two commands a new user runs: `make report` and `make test`. Both install what they need.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
DEMO_STORE := demo.sqlite
# Tests run in a time zone far from UTC: dates are calendar dates and must never shift.
TEST_TZ := Pacific/Kiritimati

.PHONY: report test setup build clean bench test-deps site-checks screenshots test-tsan fuzz sanitize

# The system packages the build needs are listed once, in scripts/system-packages.txt (the README names the same):
# each line's check (a pkg-config module, or a file) says whether it is installed; the missing ones are installed
# in one apt-get run, then every check runs again. Nothing missing: a pkg-config call per package, no apt-get.
setup:
	@installed() { case "$$1" in /*) [ -e "$$1" ] ;; *) pkg-config --exists "$$1" 2>/dev/null ;; esac; }; \
	packages=$$(grep -v '^#' scripts/system-packages.txt); \
	missing=$$(echo "$$packages" | while read -r package check purpose; do \
		[ -z "$$package" ] || installed "$$check" || echo "$$package"; done); \
	[ -z "$$missing" ] || { echo "Installing" $$missing "(scripts/system-packages.txt)..."; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing >/dev/null; } || exit 1; \
	echo "$$packages" | while read -r package check purpose; do [ -z "$$package" ] || installed "$$check" || \
		{ echo "$$package is installed but $$check is still missing ($$purpose)" >&2; exit 1; }; done

# The binary is built optimized; CI builds `CONFIG=debug` (the test build's configuration) to stay well under 30 minutes.
CONFIG ?= release
INVOICES := .build/$(CONFIG)/invoices

build: setup
	$(SWIFT) build -c $(CONFIG) --product invoices

report: build
	$(INVOICES) sample --clients 40 --invoices 1200 --seed 1 --output $(DEMO_STORE)
	$(INVOICES) build --store $(DEMO_STORE) --output Output
	@echo "Open $(CURDIR)/Output/index.html in a browser."

# The site tests parse pages with html5lib (Python); the books.beancount tests run bean-check and bean-query (PyPI); site-checks adds the Nu validator and an nginx crawl.
# The publish tests start sshd and nginx on loopback and check hashes with Apache's htpasswd.
# The PostgreSQL store tests run initdb and a server (as the postgres user) on loopback.
# The client search and payment code tests run pages in headless Chromium; zbarimg (zbar-tools) reads the codes back.
test-deps:
	@[ -x /usr/sbin/sshd ] && command -v rsync >/dev/null && command -v curl >/dev/null && command -v ssh-keygen >/dev/null && command -v htpasswd >/dev/null && command -v openssl >/dev/null && \
		{ command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; } || \
		{ echo "Installing openssh-server, rsync, nginx-light, apache2-utils..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server openssh-client rsync nginx-light apache2-utils openssl curl >/dev/null; }
	@[ -d /usr/lib/postgresql ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ echo "Installing postgresql (the PostgreSQL store tests)..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
		{ echo "Installing chromium (the client search test runs clients.html in headless Chromium)..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }
	@command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null || \
		{ echo "Installing poppler-utils (the quarter's print pack test reads Chromium's PDF with pdftotext)..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null; }
	@command -v qpdf >/dev/null || \
		{ echo "Installing qpdf (the Factur-X import test attaches its XML to a PDF)..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qpdf >/dev/null; }
	@command -v zbarimg >/dev/null || \
		{ echo "Installing zbar-tools (the payment code test decodes the QR codes on a screenshot)..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zbar-tools >/dev/null; }
	@command -v hledger >/dev/null && command -v ledger >/dev/null || \
		{ echo "Installing hledger and ledger (the journal tests read books.journal with both)..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hledger ledger >/dev/null; }
	@python3 -c 'import html5lib' 2>/dev/null || { echo "Installing html5lib..."; \
		python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-pip >/dev/null; }; \
		python3 -m pip install -q html5lib 2>/dev/null || python3 -m pip install -q --break-system-packages html5lib; }
	@command -v bean-check >/dev/null && command -v bean-query >/dev/null || { echo "Installing beancount and beanquery..."; \
		python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-pip >/dev/null; }; \
		python3 -m pip install -q 'beancount>=3' beanquery 2>/dev/null || python3 -m pip install -q --break-system-packages 'beancount>=3' beanquery; }
	@python3 -c 'import qrbill, stdnum' 2>/dev/null || { echo "Installing qrbill (the Swiss QR-bill tests compare payloads with it)..."; \
		python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-pip >/dev/null; }; \
		python3 -m pip install -q qrbill 2>/dev/null || python3 -m pip install -q --break-system-packages qrbill; }

test: setup test-deps
	TZ=$(TEST_TZ) $(SWIFT) test --package-path Packages/ObjectContexts
	TZ=$(TEST_TZ) $(SWIFT) test
	scripts/site-checks.sh

# The object contexts' tests under the thread sanitizer (CI runs this too).
test-tsan:
	$(SWIFT) test --package-path Packages/ObjectContexts --sanitize=thread --scratch-path .build-tsan

site-checks:
	scripts/site-checks.sh

# Screenshots of the overview, a month, a client page, a statement, a fiscal year and quarter and the collections
# page at 1280 and 390 px into screenshots/, and a
# statement printed to PDF on A4 and Letter with its pages as PNGs, and the last quarter's print pack's first and
# last printed page on A4 and Letter (headless Chromium, pdftoppm).
screenshots:
	scripts/screenshots.sh "" screenshots

# Benchmark against sqlite3, cmark and Hugo on the same data (docs/performance.md). CI runs BENCH_SIZES=tiny.
BENCH_SIZES ?= S,L
BENCH_RUNS ?= 5
# Invoices per service in the import timings (scripts/bench_imports.py); CI can pass a small number.
BENCH_IMPORT_INVOICES ?= 10000
bench: build
	@command -v hugo >/dev/null && command -v cmark >/dev/null && command -v sqlite3 >/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq hugo cmark sqlite3 >/dev/null; }
	@[ -d /usr/lib/postgresql ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ echo "Installing postgresql (the PostgreSQL line of the benchmark)..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }
	INVOICES=$(INVOICES) python3 scripts/bench.py --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --import-invoices $(BENCH_IMPORT_INVOICES)

clean:
	rm -rf .build Output $(DEMO_STORE)

# Fuzz the Markdown escaper, the date/amount parsers, the templates, the import reader and the Factur-X PDF reader
# (FuzzEInvoicePDF, seeded with Fuzz/seeds) with libFuzzer; FUZZ_SECONDS per target (docs/reliability.md).
FUZZ_SECONDS ?= 60
fuzz: setup
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The test suite under the address sanitizer, in its own build folder. Leak detection is off: the only
# leaks reported are XCTest's own (XCTMain's suite objects, never freed before exit), not the product's.
# Skipped there: the size-doubling timings (wall-clock ratios mean nothing under ASan) and the suites that drive
# publish's and serve's servers (sshd, nginx, the serve binary), which run in `make test`. The PostgreSQL suites run
# under ASan: libpq's rows and COPY buffers are read by our code, a C boundary where memory errors hide.
# Also skipped: the command line's end-to-end suites that run the same code the in-process suites run under ASan
# (builds, options, exports, serve, checks) by spawning the binary many times. The CLI suites that feed hostile
# bytes or cross a C library (qpdf, libqrencode, zbar, a Core Data file, the e-invoice XML) stay (docs/reliability.md).
ASAN_SKIP := PathologicalSizeTests|PublishOverSSHTests|PublishLocalTests|SiteServerTests|PostgresServeTests
ASAN_CLI_END_TO_END := ProjectCommandTests|IncrementalBuildTests|ClosedPeriodTests|DATEVExportTests|PaginatedListsTests|BuildCommandTests|BooksV2SiteTests|UpToDateBuildTests|SystemPackagesTests|OutputFolderSafetyTests|JournalExportTests|CSVDialectBuildTests|TerminalPrinterTests|TemplateFolderFilesTests|StoreAddressPasswordShapeTests|ServeAndProgressTests|ReportPeriodOptionTests|AgingBucketsBuildTests|ServeConfinementTests|SchemaMigrationBuildTests|DocumentedFiguresTests|ClientSearchTests|CheckPipelineTests|BuildExportsTests|TemplateGraphCommandTests|StoreAddressRedactionTests|QuarterCSVTests|ConcurrentWriterTests|ClientLanguageBuildTests
sanitize: setup
	ASAN_OPTIONS=detect_leaks=0 TZ=$(TEST_TZ) $(SWIFT) test --sanitize=address --scratch-path .build-asan --skip '$(ASAN_SKIP)' --skip 'InvoicesCLITests\.($(ASAN_CLI_END_TO_END))/'
