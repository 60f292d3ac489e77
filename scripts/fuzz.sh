#!/usr/bin/env bash
# Fuzzes the Markdown escaper and the date and amount parsers with libFuzzer (issue 10; docs/reliability.md).
#
#   scripts/fuzz.sh [seconds per target, default 60]
#
# Each target is one swiftc invocation over the product's own sources plus Fuzz/<Target>.swift, built with
# -sanitize=fuzzer,address (SwiftPM renames an executable's main, which libFuzzer's main cannot replace).
# Corpora are kept in .build-fuzz/corpus/<Target> between runs; a crash leaves its input in .build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
OUT=.build-fuzz
mkdir -p "$OUT/corpus/FuzzMarkdownEscaper" "$OUT/corpus/FuzzCoreParsing"
SWIFTC=${SWIFTC:-swiftc}
FLAGS=(-O -sanitize=fuzzer,address -parse-as-library -swift-version 6)

# Swift's backtracer would wait on a crashing fuzzer; libFuzzer prints the input and writes it out itself.
export SWIFT_BACKTRACE=enable=no
build() { "$SWIFTC" "$@" 2>&1 | grep -v "Cannot export local symbol '__asan" || true; }

build "${FLAGS[@]}" -module-name FuzzCoreParsing -o "$OUT/FuzzCoreParsing" \
    Sources/InvoicesCore/*.swift Fuzz/FuzzCoreParsing.swift
build "${FLAGS[@]}" -module-name FuzzMarkdownEscaper -o "$OUT/FuzzMarkdownEscaper" -I Sources/Ccmark \
    Sources/InvoicesSite/Markdown/MarkdownEscaper.swift Sources/InvoicesSite/Markdown/MarkdownRenderer.swift \
    Fuzz/FuzzMarkdownEscaper.swift

# The CSV importer (issue 16): InvoicesCore as a module of its own (the reader's sources import it), then the
# reader without the writer (which needs GRDB and the contexts), seeded with the import tests' fixtures.
CSV_IMPORT_SOURCES=(Sources/InvoicesImport/{CSVTable,DatePattern,DateReader,ForeignExport,ImportBatch,ImportError,ImportFormat,ImportReader,ImportReader+JSON,RowContext,RowContext+FreshBooks,RowContext+Native,RowContext+Zoho}.swift)
mkdir -p "$OUT/corpus/FuzzCSVImport" "$OUT/InvoicesCore"
UPCOMING=(-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)  # as Package.swift
build "${FLAGS[@]}" "${UPCOMING[@]}" -module-name InvoicesCore -emit-module -emit-module-path "$OUT/InvoicesCore/InvoicesCore.swiftmodule" \
    -emit-library -static -o "$OUT/InvoicesCore/libInvoicesCore.a" Sources/InvoicesCore/*.swift Sources/InvoicesCore/Model/Rules.swift
build "${FLAGS[@]}" "${UPCOMING[@]}" -module-name FuzzCSVImport -o "$OUT/FuzzCSVImport" -I "$OUT/InvoicesCore" -L "$OUT/InvoicesCore" -lInvoicesCore \
    "${CSV_IMPORT_SOURCES[@]}" Fuzz/FuzzCSVImport.swift

status=0
for target in FuzzCoreParsing FuzzMarkdownEscaper; do
    echo "== $target: $SECONDS_PER_TARGET s"
    start=$(date +%s)
    if (cd "$OUT" && "./$target" -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -print_final_stats=1 \
        "corpus/$target" > "$target.log" 2>&1); then
        result=passed
    else
        result=FAILED
        status=1
    fi
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|Fatal error|input:|escaped:|rendered:|expected:|Test unit written" "$OUT/$target.log" || true
    echo "$target: $result in $(( $(date +%s) - start )) s, corpus $(ls "$OUT/corpus/$target" | wc -l) inputs (log: $OUT/$target.log)"
done
# The CSV importer runs on its own lines: a 5 s timeout per input makes a hang a failure (libFuzzer's default is
# 20 minutes), and the fixtures seed its corpus (libFuzzer reads the second folder and writes to the first).
echo "== FuzzCSVImport: $SECONDS_PER_TARGET s"
start=$(date +%s)
if (cd "$OUT" && ./FuzzCSVImport -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -timeout=5 -print_final_stats=1 \
    corpus/FuzzCSVImport ../Tests/InvoicesImportTests/Fixtures > FuzzCSVImport.log 2>&1); then
    result=passed
else
    result=FAILED
    status=1
fi
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|Fatal error|Test unit written|timeout" "$OUT/FuzzCSVImport.log" || true
echo "FuzzCSVImport: $result in $(( $(date +%s) - start )) s, corpus $(ls "$OUT/corpus/FuzzCSVImport" | wc -l) inputs (log: $OUT/FuzzCSVImport.log)"
exit $status
