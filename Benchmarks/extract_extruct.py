#!/usr/bin/env python3
"""extruct on the same pages as `searchlight extract`: the peer of Benchmarks/extract.sh.

    VENV/bin/python Benchmarks/extract_extruct.py --base https://bench.example/ PATH...

A PATH that is a directory is walked and every *.html / *.htm file in it is a page (sorted path
order); a PATH that is a file is one page. Every page is read as bytes and run through

    extruct.extract(html, base_url=URL, encoding=CHARSET,
                    syntaxes=["json-ld", "microdata", "opengraph", "rdfa"], uniform=False, errors="log")

in this one process, where URL is the page's path below its PATH joined onto --base (percent-encoded,
as searchlight does) and CHARSET the page's declared charset: a <meta charset> / http-equiv
Content-Type in its first 1024 bytes (a byte-order mark first), else UTF-8 — what a crawler hands
extruct from the response. errors="log" keeps a failing syntax from stopping the others; each such
failure is counted (a logging handler) and named in the summary. The results are not serialized
(fewer costs for extruct, not more).

Prints one line of JSON to stdout: pages, bytes, items found per syntax, syntax failures and the pages
they happened on, and the versions of extruct, lxml and libxml2. Exit status 0 (a failed syntax is
reported, not fatal), 1 when a file could not be read.
"""
import argparse
import importlib.metadata
import json
import logging
import os
import re
import sys
import urllib.parse

import extruct
import lxml.etree

SYNTAXES = ["json-ld", "microdata", "opengraph", "rdfa"]
META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


class Counter(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage()[:160])


def charset(data):
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8"
    m = META_CHARSET.search(data[:1024])
    return m.group(1).decode("ascii").lower() if m else "utf-8"


def pages(paths):
    out = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in files:
                    if name.lower().endswith((".html", ".htm")):
                        full = os.path.join(root, name)
                        out.append((full, os.path.relpath(full, path)))
        else:
            out.append((path, os.path.basename(path)))
    return sorted(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    counter = Counter()
    logging.getLogger("extruct").addHandler(counter)
    logging.getLogger("extruct").propagate = False
    items = {s: 0 for s in SYNTAXES}
    total = 0
    failures = []
    unreadable = 0
    base = args.base if args.base.endswith("/") else args.base + "/"
    todo = pages(args.paths)
    for path, rel in todo:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"{path}: {e}", file=sys.stderr)
            unreadable += 1
            continue
        total += len(data)
        url = base + urllib.parse.quote(rel.replace(os.sep, "/"))
        before = len(counter.records)
        enc = charset(data)
        try:
            result = extruct.extract(data, base_url=url, encoding=enc, syntaxes=SYNTAXES, uniform=False, errors="log")
        except LookupError:  # an unknown charset label: what a crawler would fall back to
            result = extruct.extract(data, base_url=url, syntaxes=SYNTAXES, uniform=False, errors="log")
        for s in SYNTAXES:
            items[s] += len(result.get(s, []))
        for message in counter.records[before:]:
            failures.append({"page": rel, "error": message})
    print(json.dumps({
        "pages": len(todo) - unreadable, "bytes": total, "items": items, "syntax_failures": len(failures),
        "failures": failures, "unreadable": unreadable, "extruct": importlib.metadata.version("extruct"),
        "lxml": lxml.etree.__version__, "libxml2": ".".join(map(str, lxml.etree.LIBXML_VERSION)),
        "python": sys.version.split()[0],
    }, ensure_ascii=False))
    return 1 if unreadable else 0


if __name__ == "__main__":
    sys.exit(main())
