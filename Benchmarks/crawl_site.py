#!/usr/bin/env python3
"""Generates the site that Benchmarks/crawl.sh crawls: N HTML pages of varied sizes and markup.

    python3 Benchmarks/crawl_site.py DIR --pages 20000 --base http://127.0.0.1:PORT [--seed 4] [--small]
                                     [--lastmod 2025-01-01T00:00:00Z]

The same arguments always give the same bytes (one seeded random.Random; no set or dict order
depends on string hashing). Writes:

  DIR/www/                  the document root for nginx
    index.html              the home page, served at `/` (node 0)
    {shop,recipes,blog,p}/N.html   pages 1..N-1; the folder follows the page's kind
    s/K.html                pages listed only in the sitemap (no page links to them)
    private/K.html          pages under a robots.txt Disallow, linked from ordinary pages
    robots.txt              `Disallow: /private/` for every agent, and the sitemap index
    sitemap.xml             a sitemapindex of sitemaps/pages-K.xml (at most 10,000 URLs each); every
                            <url> has a <lastmod>: a seeded date in 2025, or the --lastmod value
  DIR/manifest.json         counts, bytes and the size distribution, for the report and the checks
  DIR/expected-paths.txt    every HTML path a crawl that obeys robots.txt fetches (one per line)

Shape of the site:
- Reachability: node j >= 1 is linked from node (j - 1) // 10 ("more in this section"), so every
  node is reachable from `/` by links, at most ceil(log10 N) + 1 clicks deep. On top of that each
  page has navigation and footer furniture (home, six hub pages, four footer pages), a breadcrumb
  to its parent, and 3–15 "related" links (half to the 500 most popular pages, half uniform);
  10–30 links on most pages. Some related links carry a `#fragment` (the same page for a crawler).
- Robots: about a third of the pages link to /private/account.html and one in twenty to another
  of the private pages; robots.txt disallows /private/, so a crawler that obeys it fetches none.
- Sizes: log-normal, median 16 KiB, clipped to 2–200 KB (the default), or 2–6 KB with --small
  (for the 10k/100k memory runs, to keep generation time and disk use reasonable).
- Markup, by kind (shop 30%, recipes 15%, blog 35%, plain 20%): Open Graph (65%), Twitter cards
  (40%; app cards on 5%), a Smart App Banner (10%), App Links (5%), keywords (30%), JSON-LD
  Product / Recipe / Article / LocalBusiness blocks, BreadcrumbList (40%), microdata products
  (30% of the shop), RDFa Lite articles (10% of the blog), a few JSON-LD blocks with the common
  breakage (HTML comment wrapper, trailing `;`), inline <style> (50%) and <script> (30%),
  non-ASCII text. Links are absolute paths (`/blog/123.html`); absolute URLs (canonical, og:url,
  og:image, app-argument, sitemaps) use --base, so nothing points off the loopback server.
"""
import argparse
import json
import math
import os
import random
import re
import sys

KINDS = ("shop", "recipes", "blog", "p")
KIND_WEIGHTS = (0.30, 0.15, 0.35, 0.20)
HUBS = range(1, 7)  # nodes linked from every page's navigation
FOOTER = range(7, 11)  # nodes linked from every page's footer
FANOUT = 10  # children per node in the spanning tree
POPULAR = 500  # half of the related links go to the first POPULAR nodes
SITEMAP_CHUNK = 10_000
# The forms of a sitemap <lastmod> (https://www.w3.org/TR/NOTE-datetime): a date, or a date and time with a zone.
W3C_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$")

WORDS = (
    "searchlight crawler page link index query ranking robots sitemap anchor text title header footer "
    "article section paragraph content server client transfer response request cache latency throughput "
    "river mountain forest ocean city village market garden library museum harbour bridge tower station "
    "engine signal coffee bread tomato basil olive lemon garlic pepper butter flour sugar honey walnut "
    "jacket shoe lamp chair table kettle blender camera lens tripod backpack tent bicycle helmet "
    "café crème brûlée jalapeño naïve façade über smørrebrød ñandú zoë déjà straße "
    "quick slow bright dark warm cold fresh ripe crisp smooth gentle bold quiet loud early late"
).split()
FIRST_NAMES = ("Ada", "Björn", "Chloé", "Dmitri", "Esra", "Farah", "Giulia", "Hiro", "Inès", "José")
LAST_NAMES = ("Okafor", "Lindqvist", "Moreau", "Petrov", "Yılmaz", "Haddad", "Rossi", "Tanaka", "Dubois", "García")
CURRENCIES = ("EUR", "USD", "GBP", "JPY")
JS_LINES = (
    "window.dataLayer = window.dataLayer || [];",
    "function gtag(){dataLayer.push(arguments);}",
    "document.addEventListener('DOMContentLoaded', function () { var m = document.querySelector('.menu');",
    "  if (m) { m.addEventListener('click', function (e) { e.preventDefault(); m.classList.toggle('open'); }); }",
    "});",
    "var config = {\"endpoint\": \"/api/v2/events\", \"batch\": 20, \"sample\": 0.25, \"debug\": false};",
    "for (var i = 0; i < items.length; i++) { if (items[i].price < 10 && items[i].stock > 0) { cheap.push(items[i]); } }",
    "if (a < b && b > c) { console.log('<p>not markup</p>'); }",
    "lazyImages.forEach(function (img) { observer.observe(img); });",
)
CSS_LINES = (
    "body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222}",
    ".nav a{padding:.5em 1em;display:inline-block}",
    ".card{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}",
    "@media (max-width:600px){.grid{grid-template-columns:1fr}}",
    ".price::before{content:'\\20AC'}",
    "footer{background:#f4f4f4;padding:2rem}",
)


def words(rng, low, high):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def sentence(rng):
    return words(rng, 6, 16).capitalize() + "."


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def person(rng):
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def make_pool(rng):
    """Body chunks drawn from when filling pages to size: generating text per page would dominate."""
    pool = []
    for _ in range(3000):
        kind = rng.random()
        if kind < 0.6:
            pool.append("<p>" + " ".join(sentence(rng) for _ in range(rng.randint(2, 8))) + "</p>\n")
        elif kind < 0.75:
            items = "".join(f"<li>{escape(sentence(rng))}</li>" for _ in range(rng.randint(3, 8)))
            pool.append(f"<ul class=\"features\">{items}</ul>\n")
        elif kind < 0.85:
            rows = "".join(
                f"<tr><td>{words(rng, 1, 3)}</td><td>{rng.randint(1, 999)}</td><td>{words(rng, 2, 6)}</td></tr>"
                for _ in range(rng.randint(3, 12))
            )
            pool.append(f"<table class=\"specs\"><thead><tr><th>Name</th><th>Qty</th><th>Notes</th></tr></thead><tbody>{rows}</tbody></table>\n")
        elif kind < 0.95:
            pool.append(
                f"<div class=\"comment\"><span class=\"author\">{person(rng)}</span> "
                f"<time datetime=\"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}\">{rng.randint(1, 28)} days ago</time>"
                f"<p>{sentence(rng)} {sentence(rng)}</p></div>\n"
            )
        else:
            pool.append(f"<h2 id=\"s{rng.randint(1, 99)}\">{words(rng, 2, 5).title()}</h2>\n")
    return pool


class Site:
    def __init__(self, pages, seed, base, small, sitemap_only, private):
        self.count = pages
        self.base = base.rstrip("/")
        self.small = small
        self.rng = random.Random(seed)
        self.pool = make_pool(self.rng)
        self.kinds = [None] + [self.rng.choices(KINDS, KIND_WEIGHTS)[0] for _ in range(1, pages)]
        self.titles = [self.title() for _ in range(pages)]
        self.sitemap_only = sitemap_only
        self.private = private

    def title(self):
        return words(self.rng, 2, 6).title()

    def path(self, node):
        return "/" if node == 0 else f"/{self.kinds[node]}/{node}.html"

    def size(self):
        if self.small:
            return self.rng.randint(2048, 6000)
        return int(min(200_000, max(2048, self.rng.lognormvariate(math.log(16384), 0.8))))

    # ---- head ------------------------------------------------------------------------------
    def head(self, node, path, title, kind):
        rng = self.rng
        url = self.base + path
        description = " ".join(sentence(rng) for _ in range(rng.randint(1, 3)))
        image = f"{self.base}/img/{node % 997}.jpg"
        out = [
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
            f"<title>{escape(title)} | Loopback Market</title>\n",
        ]
        if rng.random() < 0.9:
            out.append(f"<meta name=\"description\" content=\"{escape(description)}\">\n")
        if rng.random() < 0.7:
            out.append(f"<link rel=\"canonical\" href=\"{url}\">\n")
        if rng.random() < 0.3:
            out.append(f"<meta name=\"keywords\" content=\"{', '.join(rng.choice(WORDS) for _ in range(rng.randint(3, 8)))}\">\n")
        if rng.random() < 0.65:
            og_type = {"shop": "product", "blog": "article"}.get(kind, "website")
            out.append(
                f"<meta property=\"og:title\" content=\"{escape(title)}\">\n"
                f"<meta property=\"og:description\" content=\"{escape(description)}\">\n"
                f"<meta property=\"og:image\" content=\"{image}\">\n"
                f"<meta property=\"og:url\" content=\"{url}\">\n"
                f"<meta property=\"og:type\" content=\"{og_type}\">\n"
                "<meta property=\"og:site_name\" content=\"Loopback Market\">\n"
            )
            if kind == "blog":
                out.append(f"<meta property=\"article:tag\" content=\"{rng.choice(WORDS)}\">\n")
        if rng.random() < 0.4:
            out.append(
                f"<meta name=\"twitter:card\" content=\"{rng.choice(('summary', 'summary_large_image'))}\">\n"
                f"<meta name=\"twitter:title\" content=\"{escape(title)}\">\n"
                f"<meta name=\"twitter:image\" content=\"{image}\">\n"
            )
            if rng.random() < 0.125:
                out.append(
                    "<meta name=\"twitter:app:name:iphone\" content=\"Loopback Market\">\n"
                    "<meta name=\"twitter:app:id:iphone\" content=\"1234567890\">\n"
                    f"<meta name=\"twitter:app:url:iphone\" content=\"loopback://item/{node}\">\n"
                )
        if rng.random() < 0.10:
            out.append(f"<meta name=\"apple-itunes-app\" content=\"app-id=1234567890, app-argument={url}\">\n")
        if rng.random() < 0.05:
            out.append(
                f"<meta property=\"al:ios:url\" content=\"loopback://item/{node}\">\n"
                "<meta property=\"al:ios:app_store_id\" content=\"1234567890\">\n"
                "<meta property=\"al:ios:app_name\" content=\"Loopback Market\">\n"
            )
        if rng.random() < 0.5:
            css = "".join(rng.choice(CSS_LINES) + "\n" for _ in range(rng.randint(5, 60)))
            out.append(f"<style>\n{css}</style>\n")
        out.extend(self.json_ld(node, path, title, kind, description, image))
        out.append("</head>\n")
        return out

    def json_ld(self, node, path, title, kind, description, image):
        rng = self.rng
        blocks = []
        if node == 0:
            blocks.append({
                "@context": "https://schema.org", "@type": "WebSite", "name": "Loopback Market", "url": self.base + "/",
                "potentialAction": {"@type": "SearchAction", "target": self.base + "/search?q={q}", "query-input": "required name=q"},
            })
            blocks.append({"@context": "https://schema.org", "@type": "Organization", "name": "Loopback Market",
                           "logo": self.base + "/img/logo.png", "telephone": "+1-555-0100"})
        elif kind == "shop" and rng.random() < 0.7:
            blocks.append({
                "@context": "https://schema.org", "@type": "Product", "name": title, "image": [image],
                "description": description, "sku": f"SKU-{node:06d}", "brand": {"@type": "Brand", "name": rng.choice(LAST_NAMES)},
                "offers": {"@type": "Offer", "price": f"{rng.randint(1, 500)}.{rng.randint(0, 99):02d}",
                           "priceCurrency": rng.choice(CURRENCIES), "availability": "https://schema.org/InStock"},
                "aggregateRating": {"@type": "AggregateRating", "ratingValue": round(rng.uniform(2.5, 5), 1),
                                    "reviewCount": rng.randint(1, 2000), "bestRating": 5},
            })
        elif kind == "recipes":
            blocks.append({
                "@context": "https://schema.org", "@type": "Recipe", "name": title, "image": image,
                "author": {"@type": "Person", "name": person(rng)}, "prepTime": f"PT{rng.randint(5, 45)}M",
                "totalTime": f"PT{rng.randint(20, 180)}M", "recipeYield": f"{rng.randint(1, 8)} servings",
                "recipeIngredient": [f"{rng.randint(1, 500)} g {rng.choice(WORDS)}" for _ in range(rng.randint(3, 12))],
                "recipeInstructions": [{"@type": "HowToStep", "text": sentence(rng)} for _ in range(rng.randint(3, 9))],
                "aggregateRating": {"@type": "AggregateRating", "ratingValue": round(rng.uniform(3, 5), 1), "ratingCount": rng.randint(1, 900)},
                "nutrition": {"@type": "NutritionInformation", "calories": f"{rng.randint(90, 900)} calories"},
            })
        elif kind == "blog" and rng.random() < 0.9:
            blocks.append({
                "@context": "https://schema.org", "@type": rng.choice(("Article", "NewsArticle", "BlogPosting")),
                "headline": title, "image": [image], "datePublished": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T08:00:00Z",
                "author": [{"@type": "Person", "name": person(rng)}],
                "publisher": {"@type": "Organization", "name": "Loopback Market",
                              "logo": {"@type": "ImageObject", "url": self.base + "/img/logo.png"}},
                "keywords": ", ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))),
                "interactionStatistic": {"@type": "InteractionCounter", "interactionType": "https://schema.org/CommentAction",
                                         "userInteractionCount": rng.randint(0, 300)},
            })
        elif kind == "p" and rng.random() < 0.1:
            blocks.append({
                "@context": "https://schema.org", "@type": "LocalBusiness", "name": title, "telephone": "+1-555-0199",
                "address": {"@type": "PostalAddress", "streetAddress": f"{rng.randint(1, 999)} {rng.choice(WORDS).title()} Street",
                            "addressLocality": rng.choice(WORDS).title(), "postalCode": f"{rng.randint(10000, 99999)}", "addressCountry": "US"},
                "geo": {"@type": "GeoCoordinates", "latitude": round(rng.uniform(-60, 60), 5), "longitude": round(rng.uniform(-170, 170), 5)},
            })
        if node != 0 and rng.random() < 0.4:
            parent = (node - 1) // FANOUT
            blocks.append({"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": [
                {"@type": "ListItem", "position": 1, "name": "Home", "item": self.base + "/"},
                {"@type": "ListItem", "position": 2, "name": self.titles[parent], "item": self.base + self.path(parent)},
                {"@type": "ListItem", "position": 3, "name": title},
            ]})
        out = []
        for block in blocks:
            text = json.dumps(block, ensure_ascii=False, indent=rng.choice((None, 2)))
            broken = rng.random()
            if broken < 0.01:
                text = f"<!--\n{text}\n-->"
            elif broken < 0.02:
                text += ";"
            out.append(f"<script type=\"application/ld+json\">\n{text}\n</script>\n")
        return out

    # ---- body ------------------------------------------------------------------------------
    def link(self, node, fragment=""):
        return f"<a href=\"{self.path(node)}{fragment}\">{escape(self.titles[node])}</a>"

    def related(self, node):
        rng = self.rng
        links = []
        for _ in range(rng.randint(3, 15)):
            target = rng.randrange(min(POPULAR, self.count)) if rng.random() < 0.5 else rng.randrange(self.count)
            fragment = rng.choice(("#reviews", "#comments", "#top")) if rng.random() < 0.05 else ""
            links.append(f"<li>{self.link(target, fragment)}</li>")
        return "<aside class=\"related\"><h2>You may also like</h2><ul>" + "".join(links) + "</ul></aside>\n"

    def structured_body(self, node, title, kind):
        rng = self.rng
        if kind == "shop" and rng.random() < 0.3:
            return (
                "<div itemscope itemtype=\"https://schema.org/Product\">"
                f"<h2 itemprop=\"name\">{escape(title)}</h2><img itemprop=\"image\" src=\"/img/{node % 997}.jpg\" alt=\"\">"
                f"<span itemprop=\"description\">{escape(sentence(rng))}</span>"
                "<div itemprop=\"offers\" itemscope itemtype=\"https://schema.org/Offer\">"
                f"<meta itemprop=\"priceCurrency\" content=\"EUR\"><span itemprop=\"price\" content=\"{rng.randint(1, 300)}.99\">€</span></div>"
                "<div itemprop=\"aggregateRating\" itemscope itemtype=\"https://schema.org/AggregateRating\">"
                f"<span itemprop=\"ratingValue\">{round(rng.uniform(2, 5), 1)}</span>/5 "
                f"(<span itemprop=\"reviewCount\">{rng.randint(1, 500)}</span> reviews)</div></div>\n"
            )
        if kind == "blog" and rng.random() < 0.1:
            return (
                "<div vocab=\"https://schema.org/\" typeof=\"Article\">"
                f"<h2 property=\"headline\">{escape(title)}</h2>"
                f"<span property=\"author\" typeof=\"Person\"><span property=\"name\">{person(rng)}</span></span>"
                f"<p property=\"description\">{escape(sentence(rng))}</p></div>\n"
            )
        return ""

    def page(self, node, kind=None, extra_links=()):
        """One page's HTML. Returns (bytes, private paths it links to)."""
        rng = self.rng
        path = self.path(node) if node is not None else extra_links[0]
        title = self.titles[node] if node is not None else self.title()
        kind = kind or (self.kinds[node] if node else "p")
        target = self.size()
        parts = self.head(node or 0, path, title, kind)
        nav = "".join(f"<li>{self.link(h)}</li>" for h in HUBS if h < self.count)
        parts.append(
            "<body>\n<header class=\"site\"><a class=\"logo\" href=\"/\">Loopback Market</a>"
            f"<nav class=\"menu\"><ul>{nav}</ul></nav>"
            "<form action=\"/search\" method=\"get\"><input name=\"q\" type=\"search\"></form></header>\n"
        )
        if node:
            parent = (node - 1) // FANOUT
            parts.append(f"<nav class=\"breadcrumb\"><a href=\"/\">Home</a> › {self.link(parent)} › {escape(title)}</nav>\n")
        parts.append(f"<main>\n<h1>{escape(title)}</h1>\n")
        parts.append(self.structured_body(node or 0, title, kind))
        footer = self.footer(node)
        tail = footer[0] + "</body>\n</html>\n"
        middle = [self.related(node or 0)]
        if node is not None:
            children = [c for c in range(node * FANOUT + 1, node * FANOUT + FANOUT + 1) if c < self.count]
            if children:
                items = "".join(f"<li>{self.link(c)}</li>" for c in children)
                middle.append(f"<section class=\"more\"><h2>More in this section</h2><ul>{items}</ul></section>\n")
        if rng.random() < 0.3:
            js = "".join(rng.choice(JS_LINES) + "\n" for _ in range(rng.randint(10, 200)))
            middle.append(f"<script>\n{js}</script>\n")
        size = sum(len(p) for p in parts) + sum(len(m) for m in middle) + len(tail) + 7
        body = []
        while size < target:
            chunk = rng.choice(self.pool)
            body.append(chunk)
            size += len(chunk)
        # The link blocks go somewhere in the body text, as on real pages.
        for block in middle:
            body.insert(rng.randint(0, len(body)), block)
        parts.extend(body)
        parts.append("</main>\n")
        parts.append(tail)
        return "".join(parts).encode(), footer[1]

    def footer(self, node):
        rng = self.rng
        links = "".join(f"<li>{self.link(f)}</li>" for f in FOOTER if f < self.count)
        private = []
        if rng.random() < 0.33:
            private.append("/private/account.html")
        if rng.random() < 0.05:
            private.append(f"/private/{rng.randrange(self.private)}.html")
        links += "".join(f"<li><a href=\"{p}\">Your account</a></li>" for p in private)
        return (
            f"<footer><ul>{links}</ul><p>© 2025 Loopback Market · <a href=\"/#top\">Back to top</a></p></footer>\n",
            private,
        )


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir")
    parser.add_argument("--pages", type=int, default=20000, help="linked pages, the home page included")
    parser.add_argument("--base", required=True, help="the site's origin, e.g. http://127.0.0.1:8080")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--small", action="store_true", help="2–6 KB pages instead of 2–200 KB")
    parser.add_argument("--sitemap-only", type=int, default=None, help="pages only in the sitemap (default 0.25%%, at least 5)")
    parser.add_argument("--private", type=int, default=50, help="pages under /private/")
    parser.add_argument("--lastmod", metavar="ISO", help="this W3C datetime as every sitemap <url>'s <lastmod> "
                        "(e.g. 2025-01-01T00:00:00Z; Benchmarks/refresh.sh), instead of a seeded date")
    args = parser.parse_args()
    if args.lastmod is not None and not W3C_DATETIME.match(args.lastmod):
        sys.exit("--lastmod must be a W3C datetime, e.g. 2025-01-01 or 2025-01-01T00:00:00Z")
    if args.pages < 20:
        sys.exit("--pages must be at least 20")
    sitemap_only = args.sitemap_only if args.sitemap_only is not None else max(5, args.pages // 400)
    site = Site(args.pages, args.seed, args.base, args.small, sitemap_only, args.private)
    www = os.path.join(args.dir, "www")
    html_bytes = 0
    sizes = []
    private_linked = set()
    expected = []

    def emit(path, data):
        nonlocal html_bytes
        write(os.path.join(www, "index.html" if path == "/" else path.lstrip("/")), data)
        html_bytes += len(data)
        sizes.append(len(data))
        expected.append(path)

    for node in range(args.pages):
        data, private = site.page(node)
        private_linked.update(private)
        emit(site.path(node), data)
    sitemap_only_paths = [f"/s/{k}.html" for k in range(sitemap_only)]
    for path in sitemap_only_paths:
        data, private = site.page(None, kind="p", extra_links=(path,))
        private_linked.update(private)
        emit(path, data)
    for k in range(args.private):
        data, _ = site.page(None, kind="p", extra_links=(f"/private/{k}.html",))
        write(os.path.join(www, "private", f"{k}.html"), data)
    write(os.path.join(www, "private", "account.html"), b"<!DOCTYPE html><title>Account</title><p>Sign in.</p>\n")

    # Sitemaps: every page (linked ones too, as real sites list them) plus the sitemap-only pages.
    urls = [site.path(n) for n in range(args.pages)] + sitemap_only_paths
    rng = site.rng
    children = []

    def lastmod():
        # The seeded date is drawn even when --lastmod replaces it, so that the option changes
        # nothing else in the output.
        drawn = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        return args.lastmod if args.lastmod is not None else drawn

    for index, start in enumerate(range(0, len(urls), SITEMAP_CHUNK)):
        entries = "".join(
            f"<url><loc>{site.base}{u}</loc><lastmod>{lastmod()}</lastmod></url>\n"
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
    manifest = {
        "base": site.base,
        "seed": args.seed,
        "small": args.small,
        "linked_pages": args.pages,
        "sitemap_only_pages": sitemap_only,
        "html_pages": len(expected),
        "html_bytes": html_bytes,
        "private_pages": args.private + 1,
        "private_linked": len(private_linked),
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
