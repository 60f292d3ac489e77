#!/usr/bin/env bash
# Fuzzes the Markdown escaper, the date and amount parsers (issue 10), the template parser and checker (issue 16),
# the import reader and the Factur-X PDF reader (issue 41) with libFuzzer (docs/reliability.md), then runs the compiled-rows differential test with a fresh seed.
#
#   scripts/fuzz.sh [seconds per target, default 60]
#
# Each target is one swiftc invocation over the product's own sources plus Fuzz/<Target>.swift, built with
# -sanitize=fuzzer,address (SwiftPM renames an executable's main, which libFuzzer's main cannot replace).
# Corpora are kept in .build-fuzz/corpus/<Target> between runs; a crash leaves its input in .build-fuzz/.
# FuzzTemplates links swift-mustache, compiled here from the package's checkout (swift package resolve).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
OUT=.build-fuzz
mkdir -p "$OUT/corpus/FuzzMarkdownEscaper" "$OUT/corpus/FuzzCoreParsing" "$OUT/corpus/FuzzTemplates" "$OUT/modules"
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

MUSTACHE=.build/checkouts/swift-mustache/Sources/Mustache
[ -d "$MUSTACHE" ] || swift package resolve >/dev/null
build "${FLAGS[@]}" -module-name Mustache -emit-library -static -emit-module -emit-module-path "$OUT/modules/Mustache.swiftmodule" \
    -o "$OUT/libMustache.a" "$MUSTACHE"/*.swift
TEMPLATES=Sources/InvoicesSite/Templates
build "${FLAGS[@]}" -module-name FuzzTemplates -o "$OUT/FuzzTemplates" -I "$OUT/modules" -L "$OUT" -lMustache \
    "$TEMPLATES/TemplateSyntax.swift" "$TEMPLATES/TemplateChecker.swift" "$TEMPLATES/TemplateVariables.swift" \
    "$TEMPLATES/TemplateError.swift" "$TEMPLATES/RowTemplate.swift" "$TEMPLATES/RowList.swift" \
    Sources/InvoicesSite/Markdown/MarkdownValues.swift Sources/InvoicesSite/Markdown/MarkdownEscaper.swift Fuzz/FuzzTemplates.swift
# Seeds: the default templates, each one input.
for file in Templates/*.md Templates/*.html; do cp "$file" "$OUT/corpus/FuzzTemplates/seed-$(basename "$file")"; done

# The CSV importer (issue 16): InvoicesCore as a module of its own (the reader's sources import it), then the
# reader without the writer (which needs GRDB and the contexts), seeded with the import tests' fixtures.
# The reader of every import format, e-invoices (XML, and PDFs through libqpdf) among them: inputs starting with `<`
# or `%PDF-` reach the XML and Factur-X readers.
# Every source of the module but the writer's (ImportSession*, ImportWriter), so a new format's file is fuzzed too.
CSV_IMPORT_SOURCES=()
for source in Sources/InvoicesImport/*.swift Sources/InvoicesImport/EInvoice/*.swift; do
    case "$source" in */ImportSession*.swift | */ImportWriter.swift) ;; *) CSV_IMPORT_SOURCES+=("$source") ;; esac
done
mkdir -p "$OUT/corpus/FuzzCSVImport" "$OUT/InvoicesCore"
UPCOMING=(-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)  # as Package.swift
build "${FLAGS[@]}" "${UPCOMING[@]}" -module-name InvoicesCore -emit-module -emit-module-path "$OUT/InvoicesCore/InvoicesCore.swiftmodule" \
    -emit-library -static -o "$OUT/InvoicesCore/libInvoicesCore.a" Sources/InvoicesCore/*.swift Sources/InvoicesCore/Model/Rules.swift
build "${FLAGS[@]}" "${UPCOMING[@]}" -module-name FuzzCSVImport -o "$OUT/FuzzCSVImport" -I "$OUT/InvoicesCore" -L "$OUT/InvoicesCore" -lInvoicesCore -I Sources/CQPDF \
    "${CSV_IMPORT_SOURCES[@]}" Fuzz/FuzzCSVImport.swift
# The Factur-X reader (issue 41): the same sources, every input a PDF, seeded with the attack PDFs (Fuzz/seeds).
mkdir -p "$OUT/corpus/FuzzEInvoicePDF"
build "${FLAGS[@]}" "${UPCOMING[@]}" -module-name FuzzEInvoicePDF -o "$OUT/FuzzEInvoicePDF" -I "$OUT/InvoicesCore" -L "$OUT/InvoicesCore" -lInvoicesCore -I Sources/CQPDF \
    "${CSV_IMPORT_SOURCES[@]}" Fuzz/FuzzEInvoicePDF.swift

# Leaks that are not ours (Foundation's, named in the file) do not fail a run; any other still does.
export LSAN_OPTIONS="suppressions=$(pwd)/Fuzz/lsan.supp"

status=0
for target in FuzzCoreParsing FuzzMarkdownEscaper FuzzTemplates; do
    echo "== $target: $SECONDS_PER_TARGET s"
    start=$(date +%s)
    if (cd "$OUT" && "./$target" -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -timeout=10 -print_final_stats=1 \
        "corpus/$target" > "$target.log" 2>&1); then
        result=passed
    else
        result=FAILED
        status=1
    fi
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|Fatal error|input:|escaped:|rendered:|expected:|Test unit written" "$OUT/$target.log" || true
    echo "$target: $result in $(( $(date +%s) - start )) s, corpus $(ls "$OUT/corpus/$target" | wc -l) inputs (log: $OUT/$target.log)"
done

# The compiled row path against swift-mustache + cmark on 10,000 generated pages with a fresh seed (issue 16).
seed=${INVOICES_ROWS_SEED:-$(date +%s)}
echo "== RowDifferentialTests with INVOICES_ROWS_SEED=$seed"
if INVOICES_ROWS_SEED=$seed swift test --filter 'RowDifferentialTests/generatedRowTemplatesAreTheSameOnBothPaths' > "$OUT/rows.log" 2>&1; then
    echo "RowDifferentialTests: passed (seed $seed)"
else
    grep -E "differs|does not load|error" -A12 "$OUT/rows.log" | head -60 || true
    echo "RowDifferentialTests: FAILED (seed $seed; log: $OUT/rows.log)"
    status=1
fi

# The import readers run on their own lines: a 5 s timeout per input makes a hang a failure (libFuzzer's default is
# 20 minutes), and seed folders fill each corpus (libFuzzer reads the later folders and writes to the first).
#   run_reader TARGET MAX_LEN [libFuzzer options...] -- SEED_FOLDER...
run_reader() {
    local target=$1 max_len=$2
    shift 2
    local options=()
    while [ "$1" != "--" ]; do options+=("$1"); shift; done
    shift
    echo "== $target: $SECONDS_PER_TARGET s"
    start=$(date +%s)
    if (cd "$OUT" && "./$target" -max_total_time="$SECONDS_PER_TARGET" -max_len="$max_len" -timeout=5 "${options[@]}" -print_final_stats=1 \
        "corpus/$target" "$@" > "$target.log" 2>&1); then
        result=passed
    else
        result=FAILED
        status=1
    fi
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|Fatal error|Test unit written|timeout|rss limit" "$OUT/$target.log" || true
    echo "$target: $result in $(( $(date +%s) - start )) s, corpus $(ls "$OUT/corpus/$target" | wc -l) inputs (log: $OUT/$target.log)"
}
run_reader FuzzCSVImport 4096 -- ../Tests/InvoicesImportTests/Fixtures ../Fuzz/seeds/FuzzCSVImport
# The Factur-X reader under the input budget (issue 41): more than 1 GB of memory (the budget's 32 MB decoded
# attachment, a few times over, plus libFuzzer's and ASan's own) is a failure too.
run_reader FuzzEInvoicePDF 8192 -rss_limit_mb=1024 -- ../Fuzz/seeds/FuzzEInvoicePDF
exit $status
