#!/usr/bin/env bash
# Screenshots of the demo site (overview, a month, a client) at desktop (1280 px) and phone (390 px) widths,
# with headless Chromium (Debian package `chromium`, installed if missing).
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
if [ -z "$site" ]; then
    swift build --product invoices >/dev/null
    site=.build/screenshots-site
    .build/debug/invoices sample --clients 40 --invoices 1200 --seed 1 --output .build/screenshots.sqlite >/dev/null
    .build/debug/invoices build --store .build/screenshots.sqlite --output "$site" --quiet
fi
mkdir -p "$out"
month=$(ls "$site"/months | sort | tail -n 2 | head -n 1)
client=$(ls "$site"/clients | sort | head -n 1)
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
for page in "index.html:overview" "months/$month:month" "clients/$client:client"; do
    path=${page%%:*}; name=${page##*:}
    for size in "1280,2400:desktop" "390,2400:phone"; do
        window=${size%%:*}; label=${size##*:}
        "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
            --window-size="$window" --screenshot="$out/$name-$label.png" "file://$(realpath "$site/$path")" 2>/dev/null
        echo "$out/$name-$label.png"
    done
done
