/// The Python program ``HostileStringsTests`` runs to parse every page of two sites with a real HTML parser.
///
/// It uses html5lib (the HTML5 parsing algorithm browsers use) when it can be imported, otherwise Python's
/// stdlib `html.parser` with a small tree builder; its first output line says which (`parser: html5lib`).
/// Arguments: the plain site, the hostile site, a JSON file of the hostile clients' values, and optionally a JSON file
/// of options (`lists`: long lists are paged; `external`: the address prefixes of the tool's own links out, the pay
/// links and the base URL). Every other line of output is a problem; no problem lines means the check passed.
///
/// With `lists`, page boundaries depend on the rows' keys (docs/cli.md, `page_size`), so the two sites' list pages
/// differ in number and content. Pages are then compared by kind (the path with slugs, tokens and page numbers
/// taken out) as sets of shapes, where a table body is the set of its rows' shapes and a `<nav class="pages">` is
/// one element: every page of the hostile site has a shape some page of its kind has on the plain site, and the other
/// way round. A QR code's label, path and size are left out of its shape, and a link to an `external` prefix is that
/// prefix.
///
/// Checks:
/// - both sites have the same files, except for the names of client pages and statements (`clients/<slug>.html`,
///   `statements/<slug>.html`);
/// - every page has the same elements, in order, with the same attributes and attribute values as the page of
///   the plain site (client pages are compared as a multiset, since their order differs); a link to a client
///   page counts as `CLIENT` and a `mailto:` link as `MAILTO` before comparing;
/// - every `href` of the hostile site is a `mailto:` of percent-encoded characters only, or a relative link to a
///   file inside the site (or starts with an `external` prefix); no element has a `src` attribute but clients.html's
///   own `<script src="clients.js">`; no page has an `<img>`, and no attribute value is a `javascript:` address;
/// - every value reads back as its exact text, after this normalization only, applied to both the value and the
///   text read: controls other than tab, LF and CR become U+FFFD, bidirectional controls are balanced as
///   ``HTMLEscaping`` balances them, and CR LF and lone CR become LF; no page holds a control character or an
///   unbalanced bidirectional control anywhere. (cmark writes a decoded `&#13;` as a raw CR,
///   which the HTML parser's input preprocessing turns into LF, while a `&#13;` in a raw HTML block stays CR.)
let hostileStringsChecker = #"""
import json, os, re, sys
from urllib.parse import unquote

try:
    import html5lib
    PARSER = 'html5lib'
except ImportError:
    html5lib = None
    PARSER = 'html.parser'

ATEXT = r"[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+"
LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
ADDRESS = re.compile(ATEXT + r"(?:\." + ATEXT + r")*@" + LABEL + r"(?:\." + LABEL + r")+")

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}

class Node:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children = tag, attrs, []
    def text(self):
        return ''.join(c if isinstance(c, str) else c.text() for c in self.children)
    def walk(self):
        yield self
        for c in self.children:
            if not isinstance(c, str):
                yield from c.walk()

def from_etree(e):
    tag = e.tag if isinstance(e.tag, str) else '#comment'
    node = Node(tag, dict(e.attrib) if tag != '#comment' else {})
    if e.text and tag != '#comment':
        node.children.append(e.text)
    for child in e:
        node.children.append(from_etree(child))
        if child.tail:
            node.children.append(child.tail)
    return node

def parse(data):
    if html5lib:
        tree = html5lib.parse(data, treebuilder='etree', namespaceHTMLElements=False)
        return from_etree(tree)
    from html.parser import HTMLParser
    root = Node('#document', {})
    stack = [root]
    class Builder(HTMLParser):
        def handle_starttag(self, tag, attrs):
            # HTML's optional end tags, as html5lib infers them: a cell ends at the next cell or row, a row at the
            # next row or row group.
            closes = {'td': ('td', 'th'), 'th': ('td', 'th'), 'tr': ('td', 'th', 'tr'),
                      'tbody': ('td', 'th', 'tr', 'thead', 'tbody'), 'tfoot': ('td', 'th', 'tr', 'thead', 'tbody')}.get(tag, ())
            while len(stack) > 1 and stack[-1].tag in closes:
                stack.pop()
            node = Node(tag, {k: (v or '') for k, v in attrs})
            stack[-1].children.append(node)
            if tag not in VOID:
                stack.append(node)
        def handle_startendtag(self, tag, attrs):
            stack[-1].children.append(Node(tag, {k: (v or '') for k, v in attrs}))
        def handle_endtag(self, tag):
            for i in range(len(stack) - 1, 0, -1):
                if stack[i].tag == tag:
                    del stack[i:]
                    break
        def handle_data(self, data):
            stack[-1].children.append(data.replace('\0', '\ufffd'))
        def handle_comment(self, data):
            stack[-1].children.append(Node('#comment', {}))
    b = Builder(convert_charrefs=True)
    b.feed(data.replace('\r\n', '\n').replace('\r', '\n'))
    b.close()
    return root

EMBEDDINGS, ISOLATES = '\u202a\u202b\u202d\u202e', '\u2066\u2067\u2068'

def inert(s):
    """s as the site shows a value: controls but tab, LF and CR as U+FFFD, bidirectional controls balanced."""
    out, opened = [], []
    for ch in s:
        o = ord(ch)
        if (o < 0x20 and ch not in '\t\n\r') or 0x7f <= o <= 0x9f:
            out.append('\ufffd')
            continue
        if ch in EMBEDDINGS:
            opened.append(False)
        elif ch in ISOLATES:
            opened.append(True)
        elif ch == '\u202c':
            if not opened or opened[-1]:
                continue
            opened.pop()
        elif ch == '\u2069':
            if True not in opened:
                continue
            del opened[len(opened) - 1 - opened[::-1].index(True):]
        out.append(ch)
    out.extend('\u2069' if isolate else '\u202c' for isolate in reversed(opened))
    return ''.join(out)

# The characters inert() changes: a page without any of them is its own inert() (a regex search instead of the
# character loop over every page, a fifth of the checker's time; docs/performance.md).
INERT_CHANGES = re.compile(r'[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]')

def norm(s):
    return inert(s).replace('\r\n', '\n').replace('\r', '\n')

CLIENT_LINK = re.compile(r'^(\.\./)*(clients|statements)/[a-z0-9-]+\.html$')

plain_site, hostile_site, expected_file = sys.argv[1:4]
OPTIONS = {}
if len(sys.argv) > 4:
    with open(sys.argv[4], encoding='utf-8') as handle:
        OPTIONS = json.load(handle)
LISTS = OPTIONS.get('lists', False)
EXTERNAL = OPTIONS.get('external', [])

def attributes(n, in_qr=False):
    attrs = []
    for k in sorted(n.attrs):
        v = n.attrs[k]
        if k == 'href' and CLIENT_LINK.match(v):
            v = 'CLIENT'
        elif k == 'href' and v.startswith('mailto:'):
            v = 'MAILTO'
        elif k == 'href' and any(v.startswith(prefix) for prefix in EXTERNAL):
            v = next(prefix for prefix in EXTERNAL if v.startswith(prefix))
        elif in_qr and k in ('aria-label', 'd', 'viewBox', 'viewbox', 'width', 'height'):
            v = '*'
        attrs.append((k, v))
    return tuple(attrs)

def skeleton(root):
    if LISTS:
        return shape(root)
    out = []
    for n in root.walk():
        out.append((n.tag, attributes(n)))
    return out

def shape(n, in_qr=False):
    """n's elements as a tree; a table body is the set of its rows' shapes, a page list one element."""
    in_qr = in_qr or (n.tag.split('}')[-1] == 'svg' and 'qr' in n.attrs.get('class', '').split())
    if n.tag == 'nav' and 'pages' in n.attrs.get('class', '').split():
        return ('nav.pages',)
    children = tuple(shape(c, in_qr) for c in n.children if not isinstance(c, str))
    if n.tag == 'tbody':
        children = tuple(sorted(set(children), key=repr))
    return (n.tag, attributes(n, in_qr), children)

problems = []

def pages(site):
    result = {}
    for folder, dirs, files in os.walk(site):
        for f in files:
            path = os.path.relpath(os.path.join(folder, f), site)
            if f.endswith('.html'):
                with open(os.path.join(site, path), encoding='utf-8') as handle:
                    data = handle.read()
                # No control character HTML forbids, and every bidirectional control closed where it was opened.
                if INERT_CHANGES.search(data) and inert(data) != data:
                    bad = next(i for i, (a, b) in enumerate(zip(inert(data) + '\0', data + '\0')) if a != b)
                    problems.append('%s: a control character or unbalanced bidirectional control at %d: %r' % (path, bad, data[max(0, bad - 40):bad + 40]))
                result[path] = parse(data)
            else:
                result[path] = None
    return result

print('parser: ' + PARSER)
plain, hostile = pages(plain_site), pages(hostile_site)

def is_client_page(p):
    return p.startswith('clients/')

# Pages named by a client's slug: its page and its statement.
def is_slug_page(p):
    return p.startswith('clients/') or p.startswith('statements/')

def kind(p):
    """p with its slug, token and page number taken out."""
    p = re.sub(r'^c/[^/]+/', 'c/TOKEN/', p)
    p = re.sub(r'^(clients|statements)/(?!pages/)[^/]+(\.html|/)', r'\1/SLUG\2', p)
    return re.sub(r'/[0-9]+\.html$', '/N.html', p)

if LISTS:
    kinds = sorted(set(kind(p) for p in plain) | set(kind(p) for p in hostile))
    for k in kinds:
        a = {repr(skeleton(plain[p])) for p in plain if kind(p) == k and plain[p] is not None}
        b = {repr(skeleton(hostile[p])) for p in hostile if kind(p) == k and hostile[p] is not None}
        if not any(kind(p) == k for p in plain) or not any(kind(p) == k for p in hostile):
            problems.append('pages of kind %s on one site only' % k)
        elif a != b:
            extra = sorted(b - a)
            missing = sorted(a - b)
            problems.append('%s: a page shape of the hostile site not on the plain one:\n  hostile: %s\n  plain:   %s' % (
                k, (extra[0] if extra else '')[:3000], (missing[0] if missing else '')[:3000]))
elif sorted(p for p in plain if not is_slug_page(p)) != sorted(p for p in hostile if not is_slug_page(p)):
    problems.append('different files: %s vs %s' % (sorted(plain), sorted(hostile)))
for folder in ('clients/', 'statements/') if not LISTS else ():
    plain_clients = sorted(repr(skeleton(plain[p])) for p in plain if p.startswith(folder))
    hostile_clients = sorted(repr(skeleton(hostile[p])) for p in hostile if p.startswith(folder))
    if len(plain_clients) != len(hostile_clients):
        problems.append('%d pages in %s, expected %d' % (len(hostile_clients), folder, len(plain_clients)))
    elif plain_clients != hostile_clients:
        for a, b in zip(plain_clients, hostile_clients):
            if a != b:
                problems.append('a page in %s has other elements than the plain one:\n  plain:   %s\n  hostile: %s' % (folder, a[:3000], b[:3000]))
                break
for p in sorted(plain) if not LISTS else ():
    if plain[p] is None or is_slug_page(p) or p not in hostile:
        continue
    a, b = skeleton(plain[p]), skeleton(hostile[p])
    if a != b:
        diff = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        problems.append('%s: other elements than the plain page at element %d: %s vs %s' % (p, diff, a[diff:diff+2], b[diff:diff+2]))

site_root = os.path.realpath(hostile_site)
for p, root in sorted(hostile.items()):
    if root is None:
        continue
    for n in root.walk():
        if n.tag.split('}')[-1] in ('img', 'image'):
            problems.append('%s: an image the tool did not draw: %r' % (p, n.attrs))
        for k, v in n.attrs.items():
            if re.sub(r'[\x00-\x20]', '', v).lower().startswith('javascript:'):
                problems.append('%s: <%s %s=%r>' % (p, n.tag, k, v))
        # The one src a page has is the site's own search script on clients.html (issue 30).
        if 'src' in n.attrs and not (n.tag == 'script' and p == 'clients.html' and n.attrs['src'] in ('clients.js', 'clients-index.js')):
            problems.append('%s: <%s src=%r>' % (p, n.tag, n.attrs['src']))
        for k in n.attrs:
            if k.startswith('on'):
                problems.append('%s: <%s %s=%r>' % (p, n.tag, k, n.attrs[k]))
        href = n.attrs.get('href')
        if href is None:
            continue
        if href.startswith('mailto:'):
            if not re.fullmatch(r'mailto:[A-Za-z0-9@.\-_+%]*', href):
                problems.append('%s: mailto link with raw characters: %r' % (p, href))
            continue
        if any(href.startswith(prefix) for prefix in EXTERNAL):
            continue
        if re.match(r'^[A-Za-z][A-Za-z0-9+.-]*:', href) or href.startswith('/') or href.startswith('\\'):
            problems.append('%s: link leaves the site: %r' % (p, href))
            continue
        target = os.path.realpath(os.path.join(hostile_site, os.path.dirname(p), unquote(href.split('#')[0])))
        if not (target == site_root or target.startswith(site_root + os.sep)):
            problems.append('%s: link outside the site: %r' % (p, href))
        elif not os.path.exists(target):
            problems.append('%s: link to a missing file: %r' % (p, href))

def find(root, tag, **attrs):
    return [n for n in root.walk() if n.tag == tag and all(n.attrs.get(k) == v for k, v in attrs.items())]

def expect_equal(what, got, want):
    got = [norm(g) for g in got] if isinstance(got, list) else norm(got)
    if got != want:
        problems.append('%s reads back as %r, expected %r' % (what, got[:200], want[:200]))

with open(expected_file, encoding='utf-8') as handle:
    clients = json.load(handle)
client_pages = {p: r for p, r in hostile.items() if is_client_page(p)}
def headings(r):
    return tuple(norm(h.text()) for h in find(r, 'h1'))
# The client pages and the statements by their h1s, read once (not once per client), in the pages' order.
client_pages_by_h1, statements_by_h1 = {}, {}
for r in client_pages.values():
    client_pages_by_h1.setdefault(headings(r), []).append(r)
for p, r in hostile.items():
    if p.startswith('statements/') and r is not None:
        statements_by_h1.setdefault(headings(r), []).append(r)
rows = set()
for clients_page in [r for p, r in hostile.items() if p == 'clients.html' or (p.startswith('clients/pages/') and r is not None)]:
    for tr in find(clients_page, 'tr'):
        cells = [c for c in tr.children if not isinstance(c, str)]
        if len(cells) == 5 and cells[0].tag == 'td':
            rows.add((norm(cells[0].text()), norm(cells[1].text())))
months = [r for p, r in hostile.items() if p.startswith('months/') and r is not None]
month_names = set()
for r in months:
    for a in find(r, 'a'):
        if CLIENT_LINK.match(a.attrs.get('href', '')):
            month_names.add(norm(a.text()))
for c in clients:
    label = repr(c['name'][:40])
    name = norm(c['name'])
    matches = client_pages_by_h1.get((name,), [])
    if len(matches) != 1:
        problems.append('client %s: %d pages whose h1 reads back as the name' % (label, len(matches)))
        continue
    page = matches[0]
    title = norm(find(page, 'title')[0].text())
    if not title.startswith(name + ' \u00b7 '):
        problems.append('client %s: title reads back as %r' % (label, title[:200]))
    facts = {}
    for dl in find(page, 'dl'):
        terms = find(dl, 'dt')
        values = find(dl, 'dd')
        # A description ends at the next term or at `</dl>` (the templates leave out `</dd>`): the line break
        # before either is the markup's, not the value's.
        for term, value in zip(terms, values):
            facts[term.text()] = re.sub(r'\n$', '', value.text())
    expect_equal('client %s number' % label, facts.get('Client number', ''), norm(c['number']))
    expect_equal('client %s email' % label, facts.get('Email', ''), norm(c['email']))
    mail = [n for n in find(page, 'a') if n.attrs.get('href', '').startswith('mailto:')]
    # Only an address (an addr-spec of dot-atoms) is a link; any other value shows as text only.
    expect_equal('client %s email link' % label, mail[0].text() if mail else '', norm(c['email']) if ADDRESS.fullmatch(c['email']) else '')
    if mail and unquote(mail[0].attrs['href'][len('mailto:'):]) != c['email']:
        problems.append('client %s: mailto link does not decode to the email' % label)
    address = find(page, 'address')
    parts = []
    if address:
        for child in address[0].children:
            parts.append(child if isinstance(child, str) else ('\n' if child.tag == 'br' else child.text()))
    expect_equal('client %s address' % label, ''.join(parts), norm(c['street']) + '\n' + norm(c['zip']) + ' ' + norm(c['city']) + '\n' + norm(c['country']))
    # An invoice row has data cells (the head's row has none) and a class only when overdue.
    invoice_rows = [tr for table in find(page, 'table') if 'invoices' in table.attrs.get('class', '') for tr in find(table, 'tr')
                    if find(tr, 'td') and tr.attrs.get('class') in (None, 'overdue')]
    ids = [th.text() for tr in invoice_rows for th in find(tr, 'th')]
    # The notes are an invoice row's last cell (its seventh column); the row's line break, which follows it with no
    # `</td>` between (an optional end tag the templates leave out), is the markup's, not the note's.
    notes = [re.sub(r'\n$', '', find(tr, 'td')[-1].text()) for tr in invoice_rows]
    expect_equal('client %s invoice identifier' % label, ids, [norm(c['identifier'])])
    expect_equal('client %s invoice notes' % label, notes, [norm(c['notes'])])
    if (norm(c['number']), name) not in rows:
        problems.append('client %s: not in clients.html as (number, name)' % label)
    if name not in month_names:
        problems.append('client %s: not linked by name from the month page' % label)
    statements = statements_by_h1.get(('Statement for ' + name,), [])
    if len(statements) != 1:
        problems.append('client %s: %d statements whose h1 reads back as the name' % (label, len(statements)))
    else:
        # A statement's lines are its rows with data cells and no class (the opening and closing balances have one;
        # the aging table's row has no heading).
        rows_ids = [th.text() for tr in find(statements[0], 'tr') if find(tr, 'td') and 'class' not in tr.attrs for th in find(tr, 'th')]
        expect_equal('client %s statement line' % label, rows_ids, ['Invoice ' + norm(c['identifier'])])
for line in problems:
    print(line.replace('\n', '\\n') if len(problems) > 1 else line)
"""#
