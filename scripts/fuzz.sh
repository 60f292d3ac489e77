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

# The builds and the fuzzers run in two lanes when there are two cores (each swiftc -O run and each fuzzer uses one):
# a lane is a background job whose output goes to its own file, printed when both lanes are done.
LANES=$(( $(nproc) > 1 ? 2 : 1 ))
LANE_PIDS=()
LANE_FAILED=0
lane() {  # lane NAME FUNCTION: FUNCTION in the background (its output in a file) when there are two lanes
    if [ "$LANES" = 2 ]; then
        "$2" > "$OUT/lane-$1.log" 2>&1 &
        LANE_PIDS+=($!)
    else
        "$2" || LANE_FAILED=1
    fi
}
lanes_done() {  # waits for the lanes and prints their output, lane 1 first; fails if a lane failed
    local pid failed=$LANE_FAILED
    for pid in "${LANE_PIDS[@]}"; do wait "$pid" || failed=1; done
    for log in "$OUT"/lane-*.log; do [ -e "$log" ] && cat "$log" && rm -f "$log"; done
    LANE_PIDS=()
    LANE_FAILED=0
    return $failed
}

UPCOMING=(-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)  # as Package.swift
mkdir -p "$OUT/InvoicesCore" "$OUT/InvoicesImport"
CORE=(-I "$OUT/InvoicesCore" -L "$OUT/InvoicesCore" -lInvoicesCore)
MUSTACHE=.build/checkouts/swift-mustache/Sources/Mustache
[ -d "$MUSTACHE" ] || swift package resolve >/dev/null
TEMPLATES=Sources/InvoicesSite/Templates

# Lane 1: InvoicesCore once, a module of its own built for testing (FuzzCoreParsing and the import readers import
# it), then the import readers and their two targets.
build_core_and_readers() {
    build "${FLAGS[@]}" "${UPCOMING[@]}" -enable-testing -module-name InvoicesCore -emit-module -emit-module-path "$OUT/InvoicesCore/InvoicesCore.swiftmodule" \
        -emit-library -static -o "$OUT/InvoicesCore/libInvoicesCore.a" Sources/InvoicesCore/*.swift Sources/InvoicesCore/Model/Rules.swift
    # The CSV importer (issue 16) and the reader of every import format, e-invoices (XML, and PDFs through libqpdf)
    # among them: every source of InvoicesImport but the writer's (ImportSession*, ImportWriter, which need GRDB and
    # the contexts), so a new format's file is fuzzed too, built once as a module for testing that FuzzCSVImport
    # (inputs starting with `<` or `%PDF-` reach the XML and Factur-X readers) and FuzzEInvoicePDF both import.
    local sources=()
    for source in Sources/InvoicesImport/*.swift Sources/InvoicesImport/EInvoice/*.swift; do
        case "$source" in */ImportSession*.swift | */ImportWriter.swift) ;; *) sources+=("$source") ;; esac
    done
    build "${FLAGS[@]}" "${UPCOMING[@]}" -enable-testing -module-name InvoicesImport -emit-module \
        -emit-module-path "$OUT/InvoicesImport/InvoicesImport.swiftmodule" -emit-library -static -o "$OUT/InvoicesImport/libInvoicesImport.a" \
        -I "$OUT/InvoicesCore" -I Sources/CQPDF "${sources[@]}"
    # FuzzEInvoicePDF (issue 41): every input a PDF, seeded with the attack PDFs (Fuzz/seeds).
    for target in FuzzCSVImport FuzzEInvoicePDF; do
        build "${FLAGS[@]}" "${UPCOMING[@]}" -module-name "$target" -o "$OUT/$target" -I "$OUT/InvoicesImport" -L "$OUT/InvoicesImport" -lInvoicesImport \
            "${CORE[@]}" -I Sources/CQPDF -lqpdf -lz -lFoundationXML "Fuzz/$target.swift"
    done
}
# Lane 2: the Markdown escaper, swift-mustache (compiled here from the package's checkout) and the templates' target.
build_escaper_and_templates() {
    build "${FLAGS[@]}" -module-name FuzzMarkdownEscaper -o "$OUT/FuzzMarkdownEscaper" -I Sources/Ccmark \
        Sources/InvoicesSite/Markdown/MarkdownEscaper.swift Sources/InvoicesSite/Markdown/MarkdownRenderer.swift \
        Fuzz/FuzzMarkdownEscaper.swift
    build "${FLAGS[@]}" -module-name Mustache -emit-library -static -emit-module -emit-module-path "$OUT/modules/Mustache.swiftmodule" \
        -o "$OUT/libMustache.a" "$MUSTACHE"/*.swift
    build "${FLAGS[@]}" -module-name FuzzTemplates -o "$OUT/FuzzTemplates" -I "$OUT/modules" -L "$OUT" -lMustache \
        "$TEMPLATES/TemplateSyntax.swift" "$TEMPLATES/TemplateChecker.swift" "$TEMPLATES/TemplateVariables.swift" \
        "$TEMPLATES/TemplateError.swift" "$TEMPLATES/RowTemplate.swift" "$TEMPLATES/RowList.swift" \
        Sources/InvoicesSite/Markdown/MarkdownValues.swift Sources/InvoicesSite/Markdown/MarkdownEscaper.swift Fuzz/FuzzTemplates.swift
}
lane 1 build_core_and_readers
lane 2 build_escaper_and_templates
lanes_done || true  # a failed build shows as its target's failure below (no binary to run)
# FuzzCoreParsing needs InvoicesCore (lane 1); it is one file, built after both lanes.
build "${FLAGS[@]}" -module-name FuzzCoreParsing -o "$OUT/FuzzCoreParsing" "${CORE[@]}" Fuzz/FuzzCoreParsing.swift
# Seeds: the default templates, each one input.
for file in Templates/*.md Templates/*.html; do cp "$file" "$OUT/corpus/FuzzTemplates/seed-$(basename "$file")"; done
mkdir -p "$OUT/corpus/FuzzCSVImport" "$OUT/corpus/FuzzEInvoicePDF"

# Leaks that are not ours (Foundation's, named in the file) do not fail a run; any other still does.
export LSAN_OPTIONS="suppressions=$(pwd)/Fuzz/lsan.supp"
status=0

# One fuzzer for SECONDS_PER_TARGET; the import readers run with a 5 s timeout per input, which makes a hang a failure
# (libFuzzer's default is 20 minutes), and seed folders fill their corpus (libFuzzer reads the later folders and
# writes to the first).
#   fuzz TARGET MAX_LEN TIMEOUT [libFuzzer options...] -- [SEED_FOLDER...]
fuzz() {
    local target=$1 max_len=$2 timeout=$3 result=passed
    shift 3
    local options=()
    while [ "$1" != "--" ]; do options+=("$1"); shift; done
    shift
    echo "== $target: $SECONDS_PER_TARGET s"
    local start=$(date +%s)
    if ! (cd "$OUT" && "./$target" -max_total_time="$SECONDS_PER_TARGET" -max_len="$max_len" -timeout="$timeout" "${options[@]}" \
        -print_final_stats=1 "corpus/$target" "$@" > "$target.log" 2>&1); then
        result=FAILED
    fi
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|Fatal error|input:|escaped:|rendered:|expected:|Test unit written|timeout|rss limit" \
        "$OUT/$target.log" || true
    echo "$target: $result in $(( $(date +%s) - start )) s, corpus $(ls "$OUT/corpus/$target" | wc -l) inputs (log: $OUT/$target.log)"
    [ "$result" = passed ]
}
# Lane 1: the core parsers, the Markdown escaper, the templates.
fuzz_parsers() {
    local failed=0
    fuzz FuzzCoreParsing 4096 10 -- || failed=1
    fuzz FuzzMarkdownEscaper 4096 10 -- || failed=1
    fuzz FuzzTemplates 4096 10 -- || failed=1
    return $failed
}
# Lane 2: the import readers. The Factur-X reader under the input budget (issue 41): more than 1 GB of memory (the
# budget's 32 MB decoded attachment, a few times over, plus libFuzzer's and ASan's own) is a failure too.
fuzz_readers() {
    local failed=0
    fuzz FuzzCSVImport 4096 5 -- ../Tests/InvoicesImportTests/Fixtures ../Fuzz/seeds/FuzzCSVImport || failed=1
    fuzz FuzzEInvoicePDF 8192 5 -rss_limit_mb=1024 -- ../Fuzz/seeds/FuzzEInvoicePDF || failed=1
    return $failed
}
lane 1 fuzz_parsers
lane 2 fuzz_readers
lanes_done || status=1

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
exit $status
