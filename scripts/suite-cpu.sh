#!/bin/bash
# The CPU (user + sys, spawned `invoices` and tools included) of each test suite run alone, most first
# (docs/performance.md, "Where make test spends its time"). Needs a built test bundle (swift build --build-tests).
# Usage: scripts/suite-cpu.sh [REGEX]   REGEX picks suites by name, e.g. 'InvoicesCLITests|InvoicesPostgresTests'.
set -u
pattern=${1:-.}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift test list --skip-build 2>/dev/null | awk -F/ '{print $1}' | sort -u | grep -E "$pattern" | while read -r suite; do
    TZ=Pacific/Kiritimati /usr/bin/time -o "$out/time" -f '%U %S %e' \
        swift test --skip-build --filter "^${suite//./\\.}/" >"$out/log" 2>&1
    status=$(grep -Eo 'Test run with .* (passed|failed)' "$out/log" | tail -1 | grep -Eo 'passed|failed$')
    read -r user sys wall <"$out/time"
    awk -v s="$suite" -v u="$user" -v y="$sys" -v w="$wall" -v t="${status:-?}" \
        'BEGIN { printf "%7.1f %7.1f  %s %s\n", u + y, w, s, t }'
done | sort -rn
