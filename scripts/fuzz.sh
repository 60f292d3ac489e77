#!/usr/bin/env bash
# Fuzzes the Markdown escaper, the date and amount parsers (issue 10), the template parser and checker (issue 16),
# the import reader and the Factur-X PDF reader (issue 41) with libFuzzer (docs/reliability.md), then runs the compiled-rows differential test with a fresh seed.
#
#   scripts/fuzz.sh [seconds per target, default 60]
#
# Each target is Fuzz/<Target>.swift over the product's own sources, built with swiftc and -sanitize=fuzzer,address
# (SwiftPM renames an executable's main, which libFuzzer's main cannot replace); InvoicesCore and the import readers
# are static libraries built once (with -enable-testing, for the targets' @testable imports).
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

# InvoicesCore once, a module of its own built for testing: FuzzCoreParsing and the import readers import it.
UPCOMING=(-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)  # as Package.swift
mkdir -p "$OUT/InvoicesCore" "$OUT/InvoicesImport"
build "${FLAGS[@]}" "${UPCOMING[@]}" -enable-testing -module-name InvoicesCore -emit-module -emit-module-path "$OUT/InvoicesCore/InvoicesCore.swiftmodule" \
    -emit-library -static -o "$OUT/InvoicesCore/libInvoicesCore.a" Sources/InvoicesCore/*.swift Sources/InvoicesCore/Model/Rules.swift
CORE=(-I "$OUT/InvoicesCore" -L "$OUT/InvoicesCore" -lInvoicesCore)
build "${FLAGS[@]}" -module-name FuzzCoreParsing -o "$OUT/FuzzCoreParsing" "${CORE[@]}" Fuzz/FuzzCoreParsing.swift
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

# The CSV importer (issue 16) and the reader of every import format, e-invoices (XML, and PDFs through libqpdf) among
# them: every source of InvoicesImport but the writer's (ImportSession*, ImportWriter, which need GRDB and the
# contexts), so a new format's file is fuzzed too, built once as a module for testing that FuzzCSVImport (inputs
# starting with `<` or `%PDF-` reach the XML and Factur-X readers) and FuzzEInvoicePDF both import.
CSV_IMPORT_SOURCES=()
for source in Sources/InvoicesImport/*.swift Sources/InvoicesImport/EInvoice/*.swift; do
    case "$source" in */ImportSession*.swift | */ImportWriter.swift) ;; *) CSV_IMPORT_SOURCES+=("$source") ;; esac
done
mkdir -p "$OUT/corpus/FuzzCSVImport" "$OUT/corpus/FuzzEInvoicePDF"
build "${FLAGS[@]}" "${UPCOMING[@]}" -enable-testing -module-name InvoicesImport -emit-module \
    -emit-module-path "$OUT/InvoicesImport/InvoicesImport.swiftmodule" -emit-library -static -o "$OUT/InvoicesImport/libInvoicesImport.a" \
    -I "$OUT/InvoicesCore" -I Sources/CQPDF "${CSV_IMPORT_SOURCES[@]}"
# FuzzEInvoicePDF (issue 41): every input a PDF, seeded with the attack PDFs (Fuzz/seeds).
for target in FuzzCSVImport FuzzEInvoicePDF; do
    build "${FLAGS[@]}" "${UPCOMING[@]}" -module-name "$target" -o "$OUT/$target" -I "$OUT/InvoicesImport" -L "$OUT/InvoicesImport" -lInvoicesImport \
        "${CORE[@]}" -I Sources/CQPDF -lqpdf -lz -lFoundationXML "Fuzz/$target.swift"
done

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
