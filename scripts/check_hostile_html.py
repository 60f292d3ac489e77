#!/usr/bin/env python3
"""Parses every page of a site built from hostile data with html5lib (a spec-compliant HTML parser) and checks
that the data stayed text.

Usage: check_hostile_html.py HOSTILE_SITE BENIGN_SITE VALUES.json [HEADINGS.json]

- every value in VALUES.json appears, exactly, inside one text node of some page (NUL read as U+FFFD);
- the hostile site has no element name and no attribute name that the benign site (same layout, plain data) lacks;
- with HEADINGS.json ({"clients/x.html": "name", ...}), each page's <h1> reads exactly the name given;
- no script element but clients.html's own `<script src="clients.js">`, no on* attribute, no link, image or form address with a scheme other than http(s) or mailto.
Exits 1 and prints each problem otherwise.
"""
import json
import os
import sys

import html5lib

hostile_root, benign_root, values_path = sys.argv[1:4]
values = json.load(open(values_path, encoding="utf-8"))


def pages(root):
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                with open(path, "rb") as handle:
                    yield path, html5lib.parse(handle.read(), treebuilder="etree", namespaceHTMLElements=False)


def local(tag):
    return tag.split("}")[-1] if isinstance(tag, str) else "#comment"


def shape(root):
    elements, attributes = set(), set()
    for _, tree in pages(root):
        for element in tree.iter():
            elements.add(local(element.tag))
            for name in element.attrib:
                attributes.add((local(element.tag), name))
    return elements, attributes


problems = []
texts = []
count = 0
for path, tree in pages(hostile_root):
    count += 1
    for element in tree.iter():
        tag = local(element.tag)
        for piece in (element.text, element.tail):
            if piece:
                texts.append(piece)
        # The one script a site has is its own search file on clients.html (empty element, src="clients.js").
        own_search = os.path.relpath(path, hostile_root) == "clients.html" and element.get("src") == "clients.js" and not (element.text or "").strip()
        if tag == "script" and not own_search:
            problems.append(f"{path}: a <script> element")
        for name, value in element.attrib.items():
            if name.lower().startswith("on"):
                problems.append(f"{path}: event-handler attribute {name}={value!r} on <{tag}>")
            if name in ("href", "src", "action", "formaction", "xlink:href"):
                scheme = value.split(":", 1)[0].lower() if ":" in value.split("/", 1)[0] else ""
                if scheme not in ("", "http", "https", "mailto"):
                    problems.append(f"{path}: <{tag} {name}={value!r}> has a {scheme}: address")

for value in values:
    expected = value.replace("\0", "\ufffd")
    if not any(expected in text for text in texts):
        problems.append(f"value not found as text on any page: {value[:80]!r}")

if len(sys.argv) > 4:
    headings = json.load(open(sys.argv[4], encoding="utf-8"))
    for page, name in sorted(headings.items()):
        with open(os.path.join(hostile_root, page), "rb") as handle:
            tree = html5lib.parse(handle.read(), treebuilder="etree", namespaceHTMLElements=False)
        found = [("".join(h1.itertext())) for h1 in tree.iter("h1")]
        if found != [name.replace("\0", "\ufffd")]:
            problems.append(f"{page}: <h1> reads {found!r}, expected {name[:80]!r}")

hostile_elements, hostile_attributes = shape(hostile_root)
benign_elements, benign_attributes = shape(benign_root)
for element in sorted(hostile_elements - benign_elements):
    problems.append(f"element <{element}> appears only with hostile data")
for tag, name in sorted(hostile_attributes - benign_attributes):
    problems.append(f"attribute {name} on <{tag}> appears only with hostile data")

for problem in problems:
    print(problem)
print(f"checked {count} pages and {len(values)} values: {len(problems)} problems")
sys.exit(1 if problems or count == 0 else 0)
