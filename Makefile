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

# What the tests and scripts/site-checks.sh need beyond the build's libraries (sshd, nginx, PostgreSQL, Chromium,
# qpdf, zbar, hledger, Java, html5lib, beancount, qrbill...): scripts/test-deps.sh names each and why, and installs
# the missing ones in one apt-get run and one pip run.
test-deps:
	@scripts/test-deps.sh

# On a fresh machine the test tools install in the background while the package and its tests compile: apt and
# pip wait on the network and the disk, the build on the CPU (docs/performance.md, "A fresh machine").
# The suite runs what that build built (--skip-build): a `swift test` that builds plans the build again and relinks
# and re-embeds on the way (docs/performance.md, "The build graph").
test: setup
	@[ -z "$(SUDO)" ] || [ -z "$$(scripts/test-deps.sh --missing)" ] || $(SUDO) -v
	@mkdir -p .build; scripts/test-deps.sh >.build/test-deps.log 2>&1 & deps=$$!; \
	echo "scripts/test-deps.sh installs the tests' tools in the background (.build/test-deps.log)"; \
	$(SWIFT) build --build-tests; built=$$?; \
	wait $$deps; installed=$$?; cat .build/test-deps.log; \
	[ $$installed = 0 ] || { echo "scripts/test-deps.sh failed (above): make test-deps" >&2; exit 1; }; exit $$built
	TZ=$(TEST_TZ) $(SWIFT) test --skip-build
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
# Skipped there: the suites that drive publish's and serve's servers (sshd, nginx, the serve binary), which run in
# `make test`, and the two loops that SIGKILL an import and a build at random moments (a killed process reports
# nothing to ASan; what they hold is the store and the site after the kill, which `make test` checks). The PostgreSQL
# suites run under ASan: libpq's rows and COPY buffers are read by our code, a C boundary where memory errors hide. Of
# the command line's suites, only those in ASAN_CLI run: the ones that feed hostile bytes or cross a C library (qpdf,
# libqrencode, zbar, a Core Data file, the e-invoice XML). The others (builds with each option, rebuilds, exports,
# serve, checks, the pathological sizes) run the code the in-process suites run under ASan, by spawning the binary
# many times, some in Chromium or hledger, which ASan does not check (docs/reliability.md).
ASAN_SKIP := PublishOverSSHTests|PublishLocalTests|SiteServerTests|PostgresServeTests|ImportCommandTests/anImportKilledPartWay|ReliabilityTests/aBuildKilledAtRandomMoments
ASAN_CLI := HostileStoreTests|HostileStringsTests|EdgeInputsTests|RegularFileInputsTests|ReliabilityTests|EInvoiceImportTests|PaymentPagesTests|SwissQRBillPagesTests|CoreDataBuildTests
sanitize: setup
	ASAN_OPTIONS=detect_leaks=0 TZ=$(TEST_TZ) $(SWIFT) test --sanitize=address --scratch-path .build-asan --skip '$(ASAN_SKIP)' --skip 'InvoicesCLITests\.(?!($(ASAN_CLI))(/|$$))'
