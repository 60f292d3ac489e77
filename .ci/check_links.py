#!/usr/bin/env python3
"""Checks that every relative link and asset in a built site points at a file that exists."""
import os
import re
import sys

root = sys.argv[1]
missing = []
pages = 0
for folder, _, names in os.walk(root):
    for name in names:
        if not name.endswith(".html") or name == "404.html":
            continue
        pages += 1
        path = os.path.join(folder, name)
        html = open(path, encoding="utf-8").read()
        for target in re.findall(r'(?:href|src)="([^"#]+)"', html):
            if ":" in target or target.startswith("/"):
                continue
            if not os.path.exists(os.path.normpath(os.path.join(folder, target))):
                missing.append(f"{path}: {target}")
for line in missing:
    print("missing:", line)
print(f"checked {pages} pages, {len(missing)} missing links")
sys.exit(1 if missing or pages == 0 else 0)
