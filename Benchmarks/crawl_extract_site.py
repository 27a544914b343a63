#!/usr/bin/env python3
"""Builds the `SITE=extract` site of Benchmarks/crawl.sh: the extraction set's pages, linked to each other.

    python3 Benchmarks/crawl_extract_site.py SOURCES DIR --pages 2000 --base http://127.0.0.1:PORT [--seed 4]

SOURCES is a folder of saved pages (every *.html below it, sorted path order): crawl.sh fills it as
Benchmarks/extract.sh does (`extract_pages.py set --seed 15 --count 120` and the 11 real pages of
Benchmarks/extract-pages/real/pages.txt). The same arguments and sources always give the same bytes (one
seeded random.Random; no order that depends on string hashing). Writes, with Benchmarks/crawl_site.py's
conventions, so that crawl.sh and Benchmarks/crawl_helper.py check it the same way:

  DIR/www/                   the document root for nginx
    index.html               the home page, served at `/` (node 0)
    {news,shop,blog,recipes,events,apps,real}/N.html   nodes 1..N-1, the folder follows the source's kind
    s/K.html                 pages listed only in the sitemap (no page links to them)
    private/K.html, private/account.html   under a robots.txt Disallow, linked from ordinary pages
    robots.txt, sitemap.xml, sitemaps/pages-K.xml   as crawl_site.py writes them
  DIR/manifest.json          crawl_site.py's keys (html_pages, html_bytes, linked_pages, sitemap_only_pages,
                             private_linked, sitemaps, size_bytes, ...) and how the links were rewritten
  DIR/expected-paths.txt     every URL path (and query) a crawl that obeys robots.txt fetches

Every node is a byte-for-byte copy of one source page (round r of the nodes is a seeded permutation of the
sources, so each source appears about N / len(SOURCES) times) in which only the values of <a href>
attributes changed. The markup is otherwise the source's, charset and all (serve it without a charset in
the Content-Type: a few sources are windows-1252 or Shift_JIS and say so in a <meta>).

Which <a href>s are rewritten: those outside <script>, <style>, <template>, <textarea> and comments (what
an HTML parser hands a crawler as links) whose value is a link into the page's own site: relative
(`/c/slug`, `slug.html`, `../tag/x`, `./x/`, `?q=1`) or absolute / protocol-relative to the page's own
host (its canonical's or og:url's host, else its most frequent link host). Links to other hosts, mailto:,
tel:, javascript:, data: and bare `#fragment`s are kept as they are (a crawler skips them). A rewritten
link keeps its form: path-absolute `/news/12.html`, document-relative `../news/12.html` (`news/12.html`
from the home page, `12.html` within the same folder), absolute `http://127.0.0.1:PORT/news/12.html` or
protocol-relative `//127.0.0.1:PORT/news/12.html`, and keeps its `#fragment`. A link that had a query
points at one of the site's query pages instead: nodes n with n % QUERY_EVERY == 3 are also served as
`PATH?page=2`, a URL of its own (same bytes, a distinct page for a crawler), listed in the sitemap and
expected once like any page. Targets: the spanning tree first (each node gets up to 10 children, in
order, as its link capacity allows, so that every linked node is reachable from `/`), then a link to its
parent, then ~2% to /private/ (robots.txt disallows it), the rest half to the 500 most popular nodes
and half uniform.
"""
import argparse
import collections
import json
import os
import random
import re
import sys
import urllib.parse

FANOUT = 10
POPULAR = 500
QUERY_EVERY = 10
QUERY = "page=2"
PRIVATE_SHARE = 0.02
PRIVATE_PAGES = 50
SITEMAP_CHUNK = 10_000

KIND_FOLDERS = {"news": "news", "product": "shop", "blog": "blog", "recipe": "recipes", "event": "events", "app": "apps"}

# Regions whose contents are not markup a crawler sees as links: left exactly as they are.
OPAQUE = re.compile(
    rb"<!--.*?(?:-->|\Z)|<(script|style|template|textarea)\b[^>]*>.*?(?:</\1\s*>|\Z)", re.I | re.S
)
ANCHOR_HREF = re.compile(rb"""(<a\b[^>]*?\shref\s*=\s*)("[^"]*"|'[^']*'|[^\s>"']+)""", re.I)
CANONICAL = re.compile(
    rb"""<link\b[^>]*rel\s*=\s*["']?canonical["']?[^>]*href\s*=\s*["']?([^"'\s>]+)|"""
    rb"""<link\b[^>]*href\s*=\s*["']?([^"'\s>]+)["']?[^>]*rel\s*=\s*["']?canonical""", re.I
)
OG_URL = re.compile(rb"""<meta\b[^>]*property\s*=\s*["']?og:url["']?[^>]*content\s*=\s*["']?([^"'\s>]+)""", re.I)
ABSOLUTE = re.compile(rb"^\s*(?:(https?):)?//([^/?#\s]+)", re.I)
SKIP_SCHEMES = re.compile(rb"^\s*(?:mailto|tel|javascript|data|sms|ftp|file|about|intent|itms-apps|fb|twitter):", re.I)
OTHER_SCHEME = re.compile(rb"^\s*[a-z][a-z0-9+.-]*:", re.I)


def host_of(url):
    m = ABSOLUTE.match(url)
    return m.group(2).lower() if m else None


def own_host(data, hrefs):
    for pattern in (CANONICAL, OG_URL):
        m = pattern.search(data)
        if m:
            h = host_of(next(g for g in m.groups() if g))
            if h:
                return h
    hosts = collections.Counter(h for h in (host_of(v) for v in hrefs) if h)
    return hosts.most_common(1)[0][0] if hosts else None


class Source:
    """One source page: its bytes, and where its rewritable <a href> values are."""

    def __init__(self, rel, data):
        self.rel = rel
        self.data = data
        name = os.path.basename(rel)
        m = re.match(r"\d+-([a-z]+)\.html$", name)
        self.kind = KIND_FOLDERS.get(m.group(1), "real") if m else "real"
        opaque = [(m.start(), m.end()) for m in OPAQUE.finditer(data)]
        anchors = []
        j = 0
        for m in ANCHOR_HREF.finditer(data):
            while j < len(opaque) and opaque[j][1] <= m.start():
                j += 1
            if j < len(opaque) and opaque[j][0] <= m.start() < opaque[j][1]:
                continue
            anchors.append(m)
        raw = [self.value(m)[1] for m in anchors]
        self.host = own_host(data, raw)
        # (start, end, quote, form, has_query, fragment) of each rewritable value
        self.slots = []
        self.kept = 0
        for m in anchors:
            quote, value = self.value(m)
            form = self.form(value)
            if form is None:
                self.kept += 1
                continue
            text = value.decode("latin-1")
            text = text.replace("&amp;", "&").replace("&#38;", "&").replace("&#x26;", "&")
            frag = ""
            if "#" in text:
                text, frag = text.split("#", 1)
                frag = "#" + urllib.parse.quote(frag, safe="-._~!$'()*+,;=:@/?%")
            has_query = "?" in text
            self.slots.append((m.start(2), m.end(2), quote, form, has_query, frag))
        self.capacity = sum(1 for s in self.slots if not s[4])

    @staticmethod
    def value(m):
        v = m.group(2)
        if v[:1] in (b'"', b"'"):
            return v[:1], v[1:-1]
        return b"", v

    def form(self, value):
        """How a rewritten link is written ('abs', 'proto', 'root', 'rel'), or None to keep it."""
        v = value.strip()
        if not v or v.startswith(b"#") or SKIP_SCHEMES.match(v):
            return None
        m = ABSOLUTE.match(v)
        if m:
            if self.host is None or m.group(2).lower() != self.host:
                return None
            return "abs" if m.group(1) else "proto"
        if OTHER_SCHEME.match(v):
            return None
        return "root" if v.startswith(b"/") else "rel"


class Site:
    def __init__(self, sources, pages, seed, base, sitemap_only):
        self.rng = random.Random(seed)
        self.base = base.rstrip("/")
        self.sources = sources
        self.count = pages  # linked nodes, the home page included
        # Node -> source: rounds of seeded permutations; the home page is the source with the most links.
        order = []
        while len(order) < pages + sitemap_only:
            perm = list(range(len(sources)))
            self.rng.shuffle(perm)
            order.extend(perm)
        home = max(range(len(sources)), key=lambda i: (sources[i].capacity, -i))
        first = order.index(home)
        order[0], order[first] = order[first], order[0]
        self.source_of = order[: pages + sitemap_only]
        self.paths = []
        for n in range(pages):
            self.paths.append("/" if n == 0 else f"/{sources[self.source_of[n]].kind}/{n}.html")
        self.sitemap_only_paths = [f"/s/{k}.html" for k in range(sitemap_only)]
        self.query_nodes = [n for n in range(1, pages) if n % QUERY_EVERY == 3]
        # The spanning tree, breadth first, each node taking as many children as its links allow.
        self.children = [[] for _ in range(pages)]
        self.parent = [None] * pages
        nxt = 1
        for n in range(pages):
            if nxt >= pages:
                break
            room = min(FANOUT, max(0, sources[self.source_of[n]].capacity - 1))
            for c in range(nxt, min(pages, nxt + room)):
                self.children[n].append(c)
                self.parent[c] = n
            nxt += room
        self.unreached = pages - nxt if nxt < pages else 0

    def relative(self, from_path, to_path):
        from_dir = from_path.rsplit("/", 1)[0]  # '' for '/' and the folder for '/news/3.html'
        to_dir, name = to_path.rsplit("/", 1)
        if to_path == "/":
            return "../" if from_dir else "./"
        if from_dir == to_dir:
            return name
        if not from_dir:
            return to_path.lstrip("/")
        return "../" + to_path.lstrip("/")

    def href(self, from_path, to_path, form, query, frag):
        target = to_path + ("?" + QUERY if query else "")
        if form == "abs":
            url = self.base + target
        elif form == "proto":
            url = "//" + self.base.split("://", 1)[1] + target
        elif form == "root":
            url = target
        else:
            url = self.relative(from_path, to_path) + ("?" + QUERY if query else "")
        return url + frag

    def random_target(self):
        rng = self.rng
        if rng.random() < 0.5:
            return rng.randrange(min(POPULAR, self.count))
        return rng.randrange(self.count)

    def page(self, node, path):
        """The page's bytes, and the private paths it links to."""
        rng = self.rng
        src = self.sources[self.source_of[node]]
        slots = src.slots
        plain = [i for i, s in enumerate(slots) if not s[4]]
        assigned = {}
        fixed = (self.children[node] if node < self.count else []) + (
            [self.parent[node]] if node < self.count and self.parent[node] is not None else [])
        positions = rng.sample(plain, min(len(fixed), len(plain)))
        for pos, target in zip(positions, fixed):
            assigned[pos] = ("node", target)
        private = []
        out = []
        last = 0
        for i, (start, end, quote, form, has_query, frag) in enumerate(slots):
            if i in assigned:
                _, target = assigned[i]
                url = self.href(path, self.paths[target], form, False, frag)
            elif rng.random() < PRIVATE_SHARE:
                p = "/private/account.html" if rng.random() < 0.7 else f"/private/{rng.randrange(PRIVATE_PAGES)}.html"
                private.append(p)
                url = self.href(path, p, form, False, frag)
            elif has_query and self.query_nodes:
                target = rng.choice(self.query_nodes)
                url = self.href(path, self.paths[target], form, True, frag)
            else:
                url = self.href(path, self.paths[self.random_target()], form, False, frag)
            value = url.replace("&", "&amp;").encode("ascii")
            if quote:
                value = quote + value + quote
            elif b'"' in value or b"'" in value:
                value = b'"' + value + b'"'
            out.append(src.data[last:start])
            out.append(value)
            last = end
        out.append(src.data[last:])
        return b"".join(out), private


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def load_sources(folder):
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith((".html", ".htm")):
                full = os.path.join(root, name)
                found.append(os.path.relpath(full, folder))
    sources = []
    for rel in sorted(found):
        with open(os.path.join(folder, rel), "rb") as f:
            sources.append(Source(rel, f.read()))
    return sources


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", help="folder of saved pages (*.html below it)")
    parser.add_argument("dir")
    parser.add_argument("--pages", type=int, default=2000, help="linked nodes, the home page included")
    parser.add_argument("--base", required=True, help="the site's origin, e.g. http://127.0.0.1:8080")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--sitemap-only", type=int, default=None, help="pages only in the sitemap (default 0.25%%, at least 5)")
    args = parser.parse_args()
    if args.pages < 20:
        sys.exit("--pages must be at least 20")
    sources = load_sources(args.sources)
    if not sources:
        sys.exit(f"no *.html pages in {args.sources}")
    sitemap_only = args.sitemap_only if args.sitemap_only is not None else max(5, args.pages // 400)
    site = Site(sources, args.pages, args.seed, args.base, sitemap_only)
    www = os.path.join(args.dir, "www")
    html_bytes = 0
    sizes = []
    private_linked = set()
    expected = []
    rewritten = kept = 0

    def emit(path, data, node):
        nonlocal html_bytes, rewritten, kept
        write(os.path.join(www, "index.html" if path == "/" else path.lstrip("/")), data)
        html_bytes += len(data)
        sizes.append(len(data))
        expected.append(path)
        src = sources[site.source_of[node]]
        rewritten += len(src.slots)
        kept += src.kept
        if node in query_set:
            html_bytes += len(data)
            sizes.append(len(data))
            expected.append(path + "?" + QUERY)

    query_set = set(site.query_nodes)
    for node in range(args.pages):
        data, private = site.page(node, site.paths[node])
        private_linked.update(private)
        emit(site.paths[node], data, node)
    for k, path in enumerate(site.sitemap_only_paths):
        node = args.pages + k
        data, private = site.page(node, path)
        private_linked.update(private)
        emit(path, data, node)
    for k in range(PRIVATE_PAGES):
        write(os.path.join(www, "private", f"{k}.html"), f"<!DOCTYPE html><title>Private {k}</title><p>Members only.</p>\n".encode())
    write(os.path.join(www, "private", "account.html"), b"<!DOCTYPE html><title>Account</title><p>Sign in.</p>\n")

    rng = site.rng
    urls = list(expected)
    children = []
    for index, start in enumerate(range(0, len(urls), SITEMAP_CHUNK)):
        entries = "".join(
            f"<url><loc>{site.base}{u.replace('&', '&amp;')}</loc><lastmod>2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}</lastmod></url>\n"
            for u in urls[start:start + SITEMAP_CHUNK]
        )
        name = f"/sitemaps/pages-{index}.xml"
        write(os.path.join(www, name.lstrip("/")),
              f"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{entries}</urlset>\n".encode())
        children.append(name)
    index_entries = "".join(f"<sitemap><loc>{site.base}{c}</loc></sitemap>\n" for c in children)
    write(os.path.join(www, "sitemap.xml"),
          f"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{index_entries}</sitemapindex>\n".encode())
    write(os.path.join(www, "robots.txt"), (
        "# Benchmark site: everything but /private/ may be crawled.\n"
        "User-agent: *\nDisallow: /private/\nAllow: /\n\n"
        "User-agent: BadBot\nDisallow: /\n\n"
        f"Sitemap: {site.base}/sitemap.xml\n"
    ).encode())

    with open(os.path.join(args.dir, "expected-paths.txt"), "w") as f:
        f.write("".join(p + "\n" for p in expected))
    ordered = sorted(sizes)
    per_source = collections.Counter(site.source_of)
    manifest = {
        "base": site.base,
        "seed": args.seed,
        "site": "extract",
        "sources": len(sources),
        "copies_per_source": {"min": min(per_source.values()), "max": max(per_source.values())},
        "linked_pages": args.pages,
        "query_pages": len(site.query_nodes),
        "sitemap_only_pages": sitemap_only,
        "html_pages": len(expected),
        "html_bytes": html_bytes,
        "private_pages": PRIVATE_PAGES + 1,
        "private_linked": len(private_linked),
        "links_rewritten": rewritten,
        "links_kept": kept,
        "unreached_by_links": site.unreached,
        "sitemaps": ["/sitemap.xml"] + children,
        "size_bytes": {
            "min": ordered[0], "p10": ordered[len(ordered) // 10], "median": ordered[len(ordered) // 2],
            "p90": ordered[len(ordered) * 9 // 10], "max": ordered[-1], "mean": html_bytes // len(ordered),
        },
    }
    with open(os.path.join(args.dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(json.dumps(manifest))


if __name__ == "__main__":
    main()
