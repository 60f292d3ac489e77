#!/usr/bin/env python3
"""Crawls a served site from its base URL: every link and asset of every page answers 200, feed.xml and
sitemap.xml are well-formed XML whose addresses answer 200, and an unknown address deep below the base answers
404 with a page whose own links and style sheet answer 200.

Usage: crawl_site.py BASE_URL [PAY_PREFIX]   (e.g. http://127.0.0.1:8123/reports/2026/ https://pay.example.com/)

Links outside the site are problems, except `mailto:` and, with PAY_PREFIX, the pay links (payee.payment_url), which
are counted and not followed.
"""
import sys
import urllib.error
import urllib.request
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin

base = sys.argv[1]
pay_prefix = sys.argv[2] if len(sys.argv) > 2 else None
pay_links = 0
problems = []


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("Content-Type", "")


def links_of(url, body):
    parser = Links()
    parser.feed(body.decode("utf-8"))
    return [urldefrag(urljoin(url, link))[0] for link in parser.links]


seen, queue, pages = set(), [base], 0
while queue:
    url = queue.pop()
    if url in seen:
        continue
    seen.add(url)
    status, body, kind = fetch(url)
    if status != 200:
        problems.append(f"{url}: HTTP {status}")
        continue
    if "text/html" in kind:
        pages += 1
        for link in links_of(url, body):
            if link.startswith("mailto:"):
                continue
            if pay_prefix and link.startswith(pay_prefix):
                pay_links += 1
                continue
            if not link.startswith(base):
                problems.append(f"{url}: links outside the site: {link}")
                continue
            queue.append(link)

for name, namespace, tag in (("feed.xml", "http://www.w3.org/2005/Atom", "link"),
                             ("sitemap.xml", "http://www.sitemaps.org/schemas/sitemap/0.9", "loc")):
    status, body, _ = fetch(base + name)
    if status != 200:
        problems.append(f"{name}: HTTP {status}")
        continue
    try:
        root = ElementTree.fromstring(body)
    except ElementTree.ParseError as error:
        problems.append(f"{name}: not well-formed XML: {error}")
        continue
    addresses = [e.get("href") if tag == "link" else e.text for e in root.iter(f"{{{namespace}}}{tag}")]
    if not addresses:
        problems.append(f"{name}: no addresses")
    for address in addresses:
        if fetch(address)[0] != 200:
            problems.append(f"{name}: {address} does not answer 200")

missing = base + "no/such/deep/page.html"
status, body, _ = fetch(missing)
# The site's own 404 page, in whatever language the site is written (compared whole, not by an English phrase).
_, not_found_page, _ = fetch(base + "404.html")
if status != 404 or body != not_found_page:
    problems.append(f"{missing}: expected the 404 page, got HTTP {status}")
else:
    for link in links_of(missing, body):
        if not link.startswith("mailto:") and fetch(link)[0] != 200:
            problems.append(f"404 page: {link} does not answer 200")

for problem in problems:
    print(problem)
print(f"crawled {pages} pages, {len(seen)} addresses, {pay_links} pay links: {len(problems)} problems")
sys.exit(1 if problems or pages < 3 else 0)
