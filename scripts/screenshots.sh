#!/usr/bin/env bash
# Screenshots of the demo site (overview, a month, a client, a statement, a fiscal year, a fiscal quarter, the
# collections page, the client search, a statement with payment codes, and a quarter, a client and a statement whose
# lists are on pages, and the overview, a month, a client and a statement in German, French and Hebrew) at desktop (1280 px) and phone (390 px) widths, with headless Chromium (Debian package `chromium`, installed if missing); and one client statement printed
# to PDF on A4 and on Letter, each page turned into a PNG by pdftoppm (Debian package `poppler-utils`, installed if
# missing): statement-a4-1.png, statement-letter-1.png..., and the statement with payment codes on A4
# (statement-pay-a4-1.png...), and a Swiss client's statement with its QR-bill on screen and on A4
# (statement-qrbill-desktop.png, statement-qrbill-a4-1.png); and the last quarter's print pack on A4 and Letter, its
# first and last printed page (quarter-pack-a4-first.png, quarter-pack-a4-last.png, quarter-pack-letter-...).
# Usage: scripts/screenshots.sh [SITE_FOLDER] [OUTPUT_FOLDER]   (default: build the demo into .build/screenshots-site)
set -euo pipefail
cd "$(dirname "$0")/.."
site=${1:-}
out=${2:-screenshots}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
    browser=$(command -v chromium)
fi
if ! command -v pdftoppm >/dev/null; then
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null
fi
if [ -z "$site" ]; then
    swift build --product invoices >/dev/null
    site=.build/screenshots-site
    .build/debug/invoices sample --clients 40 --invoices 1200 --seed 1 --output .build/screenshots.sqlite >/dev/null
    # Fiscal years from April: the overview and the period pages show their FY labels.
    # A payee: statements and client pages show EPC payment codes and pay links (docs/cli.md, "payee").
    cp scripts/demo-payee.yaml .build/screenshots.yaml
    .build/debug/invoices build --config .build/screenshots.yaml --store .build/screenshots.sqlite --output "$site" \
        --fiscal-year-start 04 --quiet
fi
mkdir -p "$out"
month=$(ls "$site"/months | sort | tail -n 2 | head -n 1)
client=$(ls "$site"/clients | sort | head -n 1)
# The first complete fiscal year (the widest tax tables), and the last quarter.
year=$(ls "$site"/years | sort | sed -n 2p); year=${year:-$(ls "$site"/years | sort | head -n 1)}
quarter=$(ls "$site"/quarters | sort | tail -n 1)
# The statement with the most currencies (page breaks between them), the first such by name.
statement=$(cd "$site/statements" && grep -c '<section class="statement"' -- *.html | sort -t: -k2,2nr -k1,1 | head -n 1 | cut -d: -f1)
# A statement with a payment code (a euro balance owed), the first by name; the first statement when none has one.
paid=$(cd "$site/statements" && { grep -l '<svg class="qr"' -- *.html || ls; } | sort | head -n 1)
profile=$(mktemp -d)
trap 'rm -rf "$profile" "$site"/statements/.print-*.html "$site"/quarters/*/.print-*.html' EXIT
for page in "index.html:overview" "months/$month:month" "clients/$client:client" "statements/$statement:statement" \
    "years/$year:year" "quarters/$quarter:quarter" "collections.html:collections" "statements/$paid:statement-pay"; do
    path=${page%%:*}; name=${page##*:}
    for size in "1280,2400:desktop" "390,2400:phone"; do
        window=${size%%:*}; label=${size##*:}
        "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
            --window-size="$window" --screenshot="$out/$name-$label.png" "file://$(realpath "$site/$path")" 2>/dev/null
        echo "$out/$name-$label.png"
    done
done

# Lists in pages: the same books built with --page-size 20, so the quarter's tax lists, a client's invoices and a
# statement's lines are on pages of their own: the last quarter and the first page of its first list, the client
# page and the first page of its invoices, the statement and the first page of its first currency's lines.
paged_site=.build/screenshots-paged
if [ -z "${1:-}" ]; then
    .build/debug/invoices build --config .build/screenshots.yaml --store .build/screenshots.sqlite --output "$paged_site" \
        --fiscal-year-start 04 --page-size 20 --quiet
    list=$(cd "$paged_site/quarters/${quarter%.html}" && ls | head -n 1)
    lines=$(cd "$paged_site/statements/${statement%.html}" && ls -d [A-Z]* | head -n 1)
    for page in "quarters/$quarter:quarter-paged" "quarters/${quarter%.html}/$list/1.html:quarter-list" \
        "clients/$client:client-paged" "clients/${client%.html}/invoices/1.html:client-list" \
        "statements/$statement:statement-paged" "statements/${statement%.html}/$lines/1.html:statement-list"; do
        path=${page%%:*}; name=${page##*:}
        for size in "1280,2400:desktop" "390,2400:phone"; do
            window=${size%%:*}; label=${size##*:}
            "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
                --window-size="$window" --screenshot="$out/$name-$label.png" "file://$(realpath "$paged_site/$path")" 2>/dev/null
            echo "$out/$name-$label.png"
        done
    done
fi

# Languages (docs/templates.md, "Languages"): the same books in German, French and Hebrew (right to left: the tables
# and the layout mirror): the overview, a month, a client and a statement, at both widths.
if [ -z "${1:-}" ]; then
    for language in de fr he; do
        language_site=.build/screenshots-$language
        .build/debug/invoices build --config .build/screenshots.yaml --store .build/screenshots.sqlite --output "$language_site" \
            --fiscal-year-start 04 --language "$language" --quiet
        for page in "index.html:overview" "months/$month:month" "clients/$client:client" "statements/$paid:statement"; do
            path=${page%%:*}; name=$language-${page##*:}
            for size in "1280,2400:desktop" "390,2400:phone"; do
                window=${size%%:*}; label=${size##*:}
                "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
                    --window-size="$window" --screenshot="$out/$name-$label.png" "file://$(realpath "$language_site/$path")" 2>/dev/null
                echo "$out/$name-$label.png"
            done
        done
    done
fi

# The client search, filtered by the first client's city (the box is filled from ?q=).
city=$(sed -n 's|.*<th><a href="[^"]*">[^<]*</a><td>\([^<]*\)<td>.*|\1|p' "$site/clients.html" | head -n 1)
for size in "1280,1200:desktop" "390,1600:phone"; do
    window=${size%%:*}; label=${size##*:}
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
        --window-size="$window" --screenshot="$out/clients-search-$label.png" "file://$(realpath "$site/clients.html")?q=${city// /%20}" 2>/dev/null
    echo "$out/clients-search-$label.png"
done

# The Swiss QR-bill (docs/cli.md): a Swiss client's CHF statement of a small store of its own, with a QR-IBAN and the
# payee's address, on screen and printed on A4 (statement-qrbill-a4-1.png).
qrbill_site=.build/screenshots-qrbill
if [ -z "${1:-}" ]; then
    rm -f .build/screenshots-qrbill.sqlite
    .build/debug/invoices schema | sqlite3 .build/screenshots-qrbill.sqlite
    sqlite3 .build/screenshots-qrbill.sqlite "
        INSERT INTO client (id, number, name, street, city, zip, country, language) VALUES
          (42, 'C-00042', 'Pia-Maria Rutschmann-Schnyder', 'Grosse Marktgasse 28', 'Rorschach', '9400', 'Schweiz', 'de-CH');
        INSERT INTO invoice (identifier, clientId, amount, net, currency, issuedOn, dueOn) VALUES
          ('RE-2025-0107', 42, 107700, 100000, 'CHF', '2025-04-03', '2025-05-03'),
          ('RE-2025-0131', 42, 87275, 81035, 'CHF', '2025-05-06', '2025-06-05');
        INSERT INTO taxLine (invoiceId, name, rate, amount) VALUES (1, 'MWST', '7.7', 7700), (2, 'MWST', '7.7', 6240);
        INSERT INTO payment (invoiceId, paidOn, amount, method) VALUES (1, '2025-05-02', 107700, 'QR-bill');"
    printf 'payee:\n  name: Robert Schneider AG\n  address:\n    street: Rue du Lac\n    number: "1268"\n    zip: "2501"\n    city: Biel\n    country: CH\n  qr_bill:\n    iban: CH44 3199 9123 0008 8901 2\n' \
        > .build/screenshots-qrbill.yaml
    .build/debug/invoices build --config .build/screenshots-qrbill.yaml --store .build/screenshots-qrbill.sqlite --output "$qrbill_site" --quiet
    qrbill=$(ls "$qrbill_site/statements" | grep '\.html$' | head -n 1)
    for size in "1280,1800:desktop" "390,2400:phone"; do
        window=${size%%:*}; label=${size##*:}
        "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
            --window-size="$window" --screenshot="$out/statement-qrbill-$label.png" "file://$(realpath "$qrbill_site/statements/$qrbill")" 2>/dev/null
        echo "$out/statement-qrbill-$label.png"
    done
    copy="$qrbill_site/statements/.print-qrbill.html"
    sed "s|</head>|<style>@page { size: A4; }</style></head>|" "$qrbill_site/statements/$qrbill" > "$copy"
    rm -f "$out/statement-qrbill-a4"-*.png
    "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$profile" --no-pdf-header-footer \
        --print-to-pdf="$out/statement-qrbill-a4.pdf" "file://$(realpath "$copy")" 2>/dev/null
    pdftoppm -png -r 100 "$out/statement-qrbill-a4.pdf" "$out/statement-qrbill-a4"
    rm -f "$copy"
    ls "$out/statement-qrbill-a4"-*.png
fi

# The last quarter's print pack (quarters/YYYY-QN/print.html) on A4 and on Letter: its first and last printed page
# (quarter-pack-a4-first.png, quarter-pack-a4-last.png, and -letter-), each with "n / m" at its foot.
pack="$site/quarters/${quarter%.html}"
for paper in A4 Letter; do
    label=quarter-pack-$(echo "$paper" | tr 'A-Z' 'a-z')
    copy="$pack/.print-$label.html"
    sed "s|</head>|<style>@page { size: $paper; }</style></head>|" "$pack/print.html" > "$copy"
    rm -f "$out/$label"-*.png
    "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$profile" --no-pdf-header-footer \
        --print-to-pdf="$out/$label.pdf" "file://$(realpath "$copy")" 2>/dev/null
    rm -f "$copy"
    pages=$(pdfinfo "$out/$label.pdf" | sed -n 's/^Pages: *//p')
    pdftoppm -png -r 60 -singlefile -f 1 -l 1 "$out/$label.pdf" "$out/$label-first"
    pdftoppm -png -r 60 -singlefile -f "$pages" -l "$pages" "$out/$label.pdf" "$out/$label-last"
    ls "$out/$label-first.png" "$out/$label-last.png"
done

# The statement on paper: a copy beside it (so its style sheet loads) that asks for the paper size, printed without
# the browser's header and footer, then one PNG per page.
for print in "A4:$statement:statement" "Letter:$statement:statement" "A4:$paid:statement-pay"; do
    paper=${print%%:*}; rest=${print#*:}; source=${rest%%:*}; prefix=${rest##*:}
    label=$prefix-$(echo "$paper" | tr 'A-Z' 'a-z')
    copy="$site/statements/.print-$label.html"
    sed "s|</head>|<style>@page { size: $paper; }</style></head>|" "$site/statements/$source" > "$copy"
    rm -f "$out/$label"-*.png
    "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$profile" --no-pdf-header-footer \
        --print-to-pdf="$out/$label.pdf" "file://$(realpath "$copy")" 2>/dev/null
    pdftoppm -png -r 60 "$out/$label.pdf" "$out/$label"
    ls "$out/$label"-*.png
done
