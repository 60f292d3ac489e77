#!/usr/bin/env bash
# Builds the demo books three ways with one binary, into three folders, so two binaries' sites can be compared
# byte for byte (`diff -r`): a refactoring of the site's code must leave them identical.
#   defaults/  `invoices build` with no options
#   paged/     `--page-size 10`: every long list on pages of its own
#   payee/     a payee, client links (a fixed key), a base URL and fiscal years from April
# Usage: scripts/reference-builds.sh OUT [INVOICES]   (INVOICES defaults to .build/debug/invoices)
set -euo pipefail
out=${1:?usage: scripts/reference-builds.sh OUT [INVOICES]}
INVOICES=${2:-${INVOICES:-.build/debug/invoices}}
rm -rf "$out"
mkdir -p "$out/work"
work=$(cd "$out/work" && pwd)
"$INVOICES" sample --clients 40 --invoices 1200 --seed 1 --output "$work/demo.sqlite" >/dev/null
"$INVOICES" build --store "$work/demo.sqlite" --output "$out/defaults" --quiet
"$INVOICES" build --store "$work/demo.sqlite" --output "$out/paged" --page-size 10 --quiet
# A fixed key, so the private addresses (c/<token>/) are the same from one run to the next.
printf '%064d' 7 > "$work/link.key"
{ echo 'client_links: link.key'; cat "$(dirname "$0")/demo-payee.yaml"; } > "$work/invoices.yaml"
"$INVOICES" build --config "$work/invoices.yaml" --store "$work/demo.sqlite" --output "$out/payee" \
    --base-url "https://example.com/reports/2026/" --fiscal-year-start 04 --quiet
# The manifest and trail beside each output record the executable's fingerprint; they are not the site.
rm -f "$out"/.defaults.* "$out"/.paged.* "$out"/.payee.*
echo "$out: defaults/ paged/ payee/"
