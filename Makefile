# The two commands a new user runs: `make report` and `make test`. Both install what they need.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
DEMO_STORE := demo.sqlite
# Tests run in a time zone far from UTC: dates are calendar dates and must never shift.
TEST_TZ := Pacific/Kiritimati

.PHONY: report test setup build clean bench fuzz sanitize

setup:
	@pkg-config --exists libcmark 2>/dev/null && [ -f /usr/include/sqlite3.h ] || \
		{ echo "Installing libcmark-dev and libsqlite3-dev..."; $(SUDO) apt-get update -qq && \
		  $(SUDO) apt-get install -y -qq libcmark-dev libsqlite3-dev >/dev/null; }

build: setup
	$(SWIFT) build -c release --product invoices

report: build
	.build/release/invoices sample --clients 40 --invoices 1200 --seed 1 --output $(DEMO_STORE)
	.build/release/invoices build --store $(DEMO_STORE) --output Output
	@echo "Open $(CURDIR)/Output/index.html in a browser."

test: setup
	TZ=$(TEST_TZ) $(SWIFT) test

clean:
	rm -rf .build Output $(DEMO_STORE)

# Fuzz the Markdown escaper and the date/amount parsers with libFuzzer; FUZZ_SECONDS per target (docs/reliability.md).
FUZZ_SECONDS ?= 60
fuzz: setup
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The whole test suite under the address sanitizer, in its own build folder. Leak detection is off: the only
# leaks reported are XCTest's own (XCTMain's suite objects, never freed before exit), not the product's.
sanitize: setup
	ASAN_OPTIONS=detect_leaks=0 TZ=$(TEST_TZ) $(SWIFT) test --sanitize=address --scratch-path .build-asan
