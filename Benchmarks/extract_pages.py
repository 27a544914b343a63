#!/usr/bin/env python3
"""Generates the saved pages that Benchmarks/extract.sh measures: realistic HTML, deterministically.

    python3 Benchmarks/extract_pages.py set --out DIR [--seed 15] [--count 120]
                                        [--min-bytes 10240] [--max-bytes 2000000]
    python3 Benchmarks/extract_pages.py linear --out DIR [--seed 15] [--bytes 7000000]

The same arguments always give the same bytes: one seeded random.Random, no set or dict order that
depends on string hashing, no clock. Nothing is fetched: the machine that runs the benchmark need not
reach the internet, so the pages are modelled on real ones instead of saved from them (the real pages
of the set are in Benchmarks/extract-pages/real/, see its PROVENANCE.md).

`set` writes DIR/NNN-KIND.html and DIR/MANIFEST.json (kind, bytes, charset, links, syntaxes and quirks
per page; the tools only read *.html). Shape of the set:
- Sizes: a stratified log-uniform spread from --min-bytes to --max-bytes (page i of N lands in the
  i-th of N equal slices of log(size), at a seeded point of it), so every seed covers the whole range;
  the largest 4 pages are e-commerce product pages.
- Kinds (seeded shuffle): news articles 24%, product pages 24%, blog posts 14%, recipes 13%,
  events 13% (Songkick-like listings), app landing pages 12%.
- Every page: <meta charset> (or the http-equiv form, or none), title, description, keywords,
  viewport, canonical, hreflang alternates, preload/preconnect links, icons; Open Graph (94%; with
  og:image:* and article:* / product:*), Twitter cards (75%), a Smart App Banner
  (<meta name="apple-itunes-app">: every app page, 30% of the others), App Links al:ios:* / al:android:*
  (all app pages, 30% of the others), Twitter app cards (app pages), fb:app_id; header navigation,
  breadcrumbs, the kind's main content, related items with images (srcset, <picture>, lazy loading),
  a footer; inline <style> and <script> (analytics snippets, minified code, a JSON state blob
  `window.__INITIAL_STATE__`, <script type="application/json">), inline SVG icons, HTML comments,
  <noscript>, forms, and now and then sloppy markup (unclosed <p>/<li>, unquoted attributes, stray
  end tags, upper-case tags). Share of the bytes in inline script and CSS: product pages 45–65%,
  news and app pages 30–45%, others 15–35%.
- Links: 50–600 <a href> a page (more on bigger pages): relative (`/c/slug`, `slug.html`, `../tag/x`),
  absolute same-site and other-site, protocol-relative (`//cdn…`), with queries (`?page=2&amp;sort=…`),
  fragments (`#comments`), non-ASCII paths (`/café/…`, `/検索?q=…`), mailto:, tel:, javascript:;
  rel=nofollow/noopener/ugc, target=_blank, data-* attributes, long class lists.
- Structured data, by kind: schema.org JSON-LD (NewsArticle in a Yoast-style @graph with WebSite,
  WebPage, Organization, BreadcrumbList and @id references; Product with offers, brand,
  aggregateRating and reviews; Recipe with HowToSection/HowToStep, nutrition, VideoObject; one
  MusicEvent block per event as Songkick does; BlogPosting; MobileApplication/SoftwareApplication and
  FAQPage), microdata (itemscope/itemtype/itemprop nested several levels, meta/link itemprops,
  itemid, itemref) and RDFa (vocab/typeof/property/resource/prefix). About a fifth of the pages with
  JSON-LD carry the breakage real pages have: HTML entities in strings (&amp;amp; &amp;#039;), a fully
  HTML-escaped block (&amp;quot;), trailing commas, JS comments, raw newlines and tabs in strings,
  <!-- --> or //<![CDATA[ wrappers, an empty or `null` block, a truncated block.
- Text: English, French, German, Spanish (accents), Japanese, Chinese and Korean (CJK), with emoji
  (ZWJ sequences, flags) and HTML entities; a few pages are not UTF-8: windows-1252 (Western text,
  emoji as numeric character references) and Shift_JIS (Japanese), declared by <meta charset> or the
  http-equiv form; one UTF-8 page starts with a byte-order mark.

`linear` writes DIR/full.html (about --bytes), DIR/half.html and DIR/eighth.html: one long category
page (a marketplace listing, "realistic sections repeated": each section is a product card — half of
them with microdata, a quarter with RDFa, a quarter plain — with 1–3 links, text in several scripts,
an inline data <script> and an SVG icon), cut after the first 1/2 and 1/8 of its sections, each
followed by a JSON-LD ItemList of its own sections and the same footer. DIR/MANIFEST.json gives the
sizes. The density keeps the full page under searchlight's per-page limits (10,000 links, 20,000
microdata values), so that every size gets the same work per byte.
"""
import argparse
import html
import json
import math
import os
import random
import re
import sys

# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

EN = (
    "the a of and to in for on with at from by about as into like through after over between out "
    "against during without before under around among new first last long great little own other old "
    "right big high different small large next early young important few public bad same able city "
    "market season report government company system program question work night point home water room "
    "mother area money story fact month lot study book eye job word business issue side kind head house "
    "service friend father power hour game line end member law car name president team minute idea kid "
    "body information back parent face others level office door health person art war history party "
    "result change morning reason research girl guy moment air teacher force education weekend price "
    "delivery review quality battery screen camera recipe flavour garlic butter oven tour concert "
    "ticket venue stage album festival update feature download privacy offline widget sync cloud"
).split()
FR = (
    "le la les des une été très déjà où à côté forêt hôtel élève café crème brûlée garçon français "
    "Noël château pâtisserie crêpe naïve bientôt même première fenêtre goût recette fraîche légère "
    "journée réservation spectacle théâtre"
).split()
DE = (
    "der die das und über für Größe Straße Mädchen schön Brötchen Fußball Äpfel Öl können müssen "
    "Grüße Käse Bücher Geschäft Qualität Lieferung Bewertung günstig Frühstück"
).split()
ES = (
    "el la los y año niño España mañana corazón canción información también jalapeño piñata acción "
    "Málaga cumpleaños pequeño señal envío reseña según después"
).split()
JA = (
    "東京 ラーメン 新しい お知らせ 商品 レビュー 価格 送料無料 今日 天気 旅行 日本語 こんにちは ありがとう "
    "カメラ 限定 人気 ランキング 料理 季節 野菜 醤油 味噌 予約 公演 会場 アプリ 配信 更新 特集"
).split()
ZH = "北京 新闻 产品 价格 评论 中国 美食 旅游 手机 应用 下载 更新 推荐 活动 门票 演唱会 食谱 味道 质量 快递".split()
KO = "서울 뉴스 가격 리뷰 맛집 여행 공연 티켓 앱 다운로드 배송 할인".split()
EMOJI = ["🎉", "🔥", "👍", "🍜", "📱", "⭐", "❤️", "🚀", "😀", "🇫🇷", "👩‍💻", "🎶", "🥐", "✅", "📦", "🌶️"]
ENTITIES = ["&amp;", "&nbsp;", "&eacute;", "&#8217;", "&mdash;", "&hellip;", "&copy;", "&#x2014;", "&lt;3"]
WORDS = {"en": EN, "fr": FR + EN[:60], "de": DE + EN[:60], "es": ES + EN[:60], "ja": JA, "zh": ZH, "ko": KO + EN[:40]}
CJK = {"ja", "zh"}


class Text:
    """Seeded words, sentences and paragraphs in one page's language."""

    def __init__(self, rng, lang, emoji=True):
        self.rng, self.lang, self.emoji = rng, lang, emoji
        self.words = WORDS[lang]

    def words_(self, lo, hi):
        rng = self.rng
        sep = "" if self.lang in CJK else " "
        return sep.join(rng.choice(self.words) for _ in range(rng.randint(lo, hi)))

    def title(self, lo=3, hi=8):
        t = self.words_(lo, hi)
        return t if self.lang in CJK else t[:1].upper() + t[1:]

    def sentence(self, lo=6, hi=18):
        rng = self.rng
        s = self.words_(lo, hi)
        if self.lang not in CJK:
            s = s[:1].upper() + s[1:]
            if rng.random() < 0.08:
                s += " " + rng.choice(WORDS[rng.choice(["fr", "ja", "zh", "de"])])
        if self.emoji and rng.random() < 0.06:
            s += " " + rng.choice(EMOJI)
        return s + ("。" if self.lang in CJK else rng.choice([".", ".", ".", "!", "?"]))

    def paragraph(self, lo=2, hi=6, entities=True):
        rng = self.rng
        parts = [html.escape(self.sentence(), quote=False) for _ in range(rng.randint(lo, hi))]
        if entities and rng.random() < 0.15:
            i = rng.randrange(len(parts))
            parts[i] = parts[i] + " " + rng.choice(ENTITIES)
        return ("" if self.lang in CJK else " ").join(parts)

    def slug(self, lo=2, hi=5):
        return "-".join(self.rng.choice(EN) for _ in range(self.rng.randint(lo, hi)))


def esc(value):
    return html.escape(str(value), quote=True)


# ---------------------------------------------------------------------------------------------
# Filler that real pages carry: CSS, JavaScript, JSON state, SVG
# ---------------------------------------------------------------------------------------------

CSS_PROPS = [
    "display:flex", "display:grid", "display:none", "position:relative", "position:absolute", "margin:0 auto",
    "padding:0 16px", "padding:8px 12px", "font-size:1.25rem", "font-size:14px", "line-height:1.5",
    "font-weight:600", "color:#1a1a1a", "color:var(--c-text)", "background:#fff", "background-color:rgba(0,0,0,.04)",
    "border-radius:8px", "border:1px solid #e5e5e5", "box-shadow:0 2px 8px rgba(0,0,0,.12)", "gap:12px",
    "grid-template-columns:repeat(auto-fill,minmax(220px,1fr))", "transition:opacity .2s ease-in-out",
    "text-overflow:ellipsis", "white-space:nowrap", "overflow:hidden", "z-index:10", "width:100%",
    "max-width:1280px", "object-fit:cover", "aspect-ratio:16/9", "cursor:pointer", "outline:2px solid #0a84ff",
]
CSS_BLOCKS = ["header", "nav", "card", "product", "price", "btn", "grid", "hero", "footer", "modal", "carousel", "review",
              "rating", "badge", "menu", "search", "banner", "article", "meta", "tag", "recipe", "event", "app"]
CSS_ELEMS = ["title", "image", "body", "link", "icon", "item", "list", "wrapper", "label", "value", "media"]


def css_rule(rng):
    sel = f".{rng.choice(CSS_BLOCKS)}__{rng.choice(CSS_ELEMS)}"
    if rng.random() < 0.3:
        sel += f"--{rng.choice(['active', 'large', 'muted', 'sale', 'dark', 'compact'])}"
    if rng.random() < 0.2:
        sel += f" {rng.choice(['a', 'img', 'span', 'svg', 'li'])}:{rng.choice(['hover', 'focus', 'first-child'])}"
    body = ";".join(rng.choice(CSS_PROPS) for _ in range(rng.randint(2, 7)))
    return f"{sel}{{{body}}}"


def css_text(rng, budget):
    out, size = [":root{--c-text:#1d1d1f;--c-accent:#0071e3;--radius:12px}"], 60
    while size < budget:
        if rng.random() < 0.1:
            inner = "".join(css_rule(rng) for _ in range(rng.randint(3, 10)))
            chunk = f"@media (min-width:{rng.choice([480, 768, 1024, 1280])}px){{{inner}}}"
        else:
            chunk = css_rule(rng)
        out.append(chunk)
        size += len(chunk)
    return "\n".join(out) if rng.random() < 0.3 else "".join(out)


JS_IDENT = "abcdefghijklmnopqrstuvwxyz"
JS_TEMPLATES = [
    "function {a}({b},{c}){{if(!{b})return null;var {d}={c}||{{}};return {b}.querySelectorAll('[data-{e}]').forEach(function({f}){{{f}.addEventListener('click',function(){{{d}.{e}=!{d}.{e}}})}}),{d}}}",
    "var {a}=window.{a}||[];{a}.push({{event:'{e}_view',ts:Date.now(),id:'{n}'}});",
    "!function({a},{b}){{'object'==typeof exports?module.exports={b}():{a}.{e}={b}()}}(this,function(){{var {c}={{}};return {c}.v='{n}',{c}}});",
    "document.addEventListener('DOMContentLoaded',function(){{var {a}=document.getElementById('{e}-{n}');{a}&&({a}.style.display='block')}});",
    "for(var {a}=0,{b}=[{nums}];{a}<{b}.length;{a}++){{{c}+={b}[{a}]*{n}%7}}",
    "const {a}=async({b})=>{{const {c}=await fetch(`/api/{e}/${{{b}}}?v={n}`);if(!{c}.ok)throw new Error('{e} '+{c}.status);return {c}.json()}};",
    "try{{localStorage.setItem('{e}','{n}')}}catch({a}){{console.warn('{e}: '+{a}.message)}}",
    "if(a<b&&b>c){{x='<div class=\"{e}\">'+{a}+'<\\/div>'}}",
]


def js_ident(rng):
    return rng.choice(JS_IDENT) + (rng.choice(JS_IDENT + "0123456789_$") if rng.random() < 0.6 else "")


def js_text(rng, budget):
    out, size = [], 0
    while size < budget:
        t = rng.choice(JS_TEMPLATES)
        chunk = t.format(
            a=js_ident(rng), b=js_ident(rng), c=js_ident(rng), d=js_ident(rng), f=js_ident(rng),
            e=rng.choice(CSS_BLOCKS), n=rng.randrange(10**6),
            nums=",".join(str(rng.randrange(1000)) for _ in range(rng.randint(4, 20))),
        )
        out.append(chunk)
        size += len(chunk)
    return "".join(out) if rng.random() < 0.7 else "\n".join(out)


def state_value(rng, text, depth):
    r = rng.random()
    if depth > 3 or r < 0.35:
        return rng.choice([
            rng.randrange(100000), round(rng.random() * 500, 2), True, False, None,
            text.title(1, 4), f"/{text.slug()}", f"https://img.shop-cdn.example/{rng.randrange(10**8):08x}.jpg",
            "<p class=\"intro\">" + text.sentence() + "</p>",
        ])
    if r < 0.55:
        return [state_value(rng, text, depth + 1) for _ in range(rng.randint(1, 6))]
    return {rng.choice(CSS_BLOCKS) + rng.choice(["Id", "Name", "Url", "Price", "List", "", "Count"]): state_value(rng, text, depth + 1)
            for _ in range(rng.randint(2, 7))}


def state_json(rng, text, budget):
    """A hydration blob: products, user, config — JSON, script-safe (`<\\/` and \\u escapes)."""
    items, size = [], 0
    while size < budget:
        item = {
            "id": rng.randrange(10**9), "sku": f"SKU-{rng.randrange(10**6):06d}", "title": text.title(),
            "price": {"amount": round(rng.random() * 300, 2), "currency": rng.choice(["USD", "EUR", "JPY", "GBP"])},
            "url": f"/p/{text.slug()}-{rng.randrange(10**5)}", "attrs": state_value(rng, text, 1),
        }
        s = json.dumps(item, ensure_ascii=rng.random() < 0.5, separators=(",", ":"))
        items.append(s)
        size += len(s) + 1
    blob = '{"config":{"locale":"%s","flags":{"newCheckout":true,"abTest":"b"}},"items":[%s]}' % (text.lang, ",".join(items))
    return blob.replace("</", "<\\/")


def svg_icon(rng, points=None):
    points = points or rng.randint(6, 40)
    d = "M" + " ".join(
        f"{rng.choice('LCQ')}{rng.uniform(0, 24):.2f} {rng.uniform(0, 24):.2f}" for _ in range(points)) + "Z"
    return f'<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"><path fill="currentColor" d="{d}"/></svg>'


def svg_sprite(rng, budget):
    out, size = ['<svg xmlns="http://www.w3.org/2000/svg" style="display:none">'], 80
    while size < budget:
        sym = f'<symbol id="i-{rng.choice(CSS_BLOCKS)}-{rng.randrange(1000)}" viewBox="0 0 24 24"><path d="M' + " ".join(
            f"{rng.uniform(0, 24):.3f},{rng.uniform(0, 24):.3f}" for _ in range(rng.randint(10, 80))) + 'Z"/></symbol>'
        out.append(sym)
        size += len(sym)
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Links and images
# ---------------------------------------------------------------------------------------------

OTHER_HOSTS = ["www.facebook.com", "twitter.com", "www.instagram.com", "www.youtube.com", "apps.apple.com",
               "play.google.com", "www.partner-store.example", "blog.example.org", "news.example.net", "maps.example.com"]
CLASSES = ["link", "nav__link", "text-sm", "font-medium", "hover:underline", "c-card__link", "js-track", "u-block",
           "px-2", "py-1", "text-gray-700", "truncate", "menu-item", "is-active"]


class Links:
    """A page's pool of <a href> elements: exactly `count` of them, handed out in order."""

    def __init__(self, rng, text, site, count, lean=False):
        self.rng, self.text, self.site, self.lean = rng, text, site, lean
        self.items = [self.make() for _ in range(count)]
        self.next = 0

    def href(self):
        rng, t = self.rng, self.text
        r = rng.random()
        if r < 0.30:
            return f"/{rng.choice(['c', 'news', 'shop', 'p', 'blog', 'events', 'recipes'])}/{t.slug()}"
        if r < 0.38:
            return rng.choice([f"{t.slug()}.html", f"../tag/{rng.choice(EN)}", f"./{t.slug()}/", f"{rng.randrange(9999)}"])
        if r < 0.52:
            return f"https://{self.site}/{t.slug()}/{rng.randrange(10**6)}"
        if r < 0.62:
            return f"https://{rng.choice(OTHER_HOSTS)}/{t.slug(1, 3)}"
        if r < 0.67:
            return f"//cdn.{self.site.split('.', 1)[-1]}/assets/{t.slug(1, 2)}.{rng.choice(['pdf', 'html', 'jpg'])}"
        if r < 0.77:
            q = "&".join(f"{rng.choice(['page', 'sort', 'q', 'utm_source', 'utm_medium', 'ref', 'lang', 'filter[color]'])}="
                             f"{rng.choice(['2', 'price_asc', 'newsletter', 'red', 'fr', rng.choice(EN)])}"
                             for _ in range(rng.randint(1, 4)))
            return f"{rng.choice(['', '/search', '/c/' + t.slug(1, 2), 'https://' + self.site + '/list'])}?{q}"
        if r < 0.85:
            return rng.choice(["#comments", "#reviews", "#top", "#recipe", f"/{t.slug()}#section-{rng.randint(1, 9)}", "#"])
        if r < 0.89:
            return rng.choice(["/café/crème-brûlée", "/検索?q=ラーメン", "/städte/köln", "/新闻/北京", "/%E6%97%A5%E6%9C%AC/"
                               "tokyo", "https://ja.wikipedia.org/wiki/東京", "/emoji/🍜"])
        if r < 0.93:
            return rng.choice([f"mailto:info@{self.site.split('.', 1)[-1]}?subject=Hello%20there", "tel:+1-555-0100",
                               "javascript:void(0)", "sms:+15550100"])
        return f"/{t.slug(1, 3)}/" + f"{rng.randrange(10**4)}/"

    def make(self):
        rng, t = self.rng, self.text
        href = self.href()
        # Mostly escaped as it should be (`&amp;` in queries); now and then a raw `&`, as sloppy pages have.
        attrs = [f'href="{esc(href)}"' if rng.random() < 0.9 else f'href="{href}"']
        if rng.random() < (0.15 if self.lean else 0.5):
            attrs.append(f'class="{" ".join(rng.sample(CLASSES, rng.randint(1, 2 if self.lean else 5)))}"')
        if rng.random() < 0.12:
            attrs.append(f'rel="{rng.choice(["nofollow", "noopener noreferrer", "ugc nofollow", "sponsored"])}"')
        if rng.random() < 0.1:
            attrs.append('target="_blank"')
        if rng.random() < (0.03 if self.lean else 0.2):
            attrs.append(f'data-track="{rng.choice(CSS_BLOCKS)}-{rng.randrange(100)}" data-position="{rng.randrange(40)}"')
        if rng.random() < 0.05:
            attrs.append(f'title="{esc(t.title(2, 4))}"')
        label = html.escape(t.title(1, 3 if self.lean else 5), quote=False)
        if rng.random() < (0.01 if self.lean else 0.08):
            label = svg_icon(rng, 8) + f'<span class="sr-only">{label}</span>'
        sep = " " if rng.random() < 0.95 else "\n    "
        return f"<a {sep.join(attrs)}>{label}</a>"

    def take(self, n):
        got = self.items[self.next:self.next + n]
        self.next += len(got)
        return got

    def spend(self):
        """Uses one link of the count for a link made elsewhere (an event's URL, a reply link): False if none is left."""
        if self.next < len(self.items):
            self.next += 1
            return True
        return False

    def rest(self):
        return self.take(len(self.items) - self.next)

    def left(self):
        return len(self.items) - self.next


def img(rng, text, host, w=None, h=None, lazy=True):
    w = w or rng.choice([160, 320, 480, 640, 800, 1200])
    h = h or int(w * rng.choice([0.5625, 0.75, 1.0, 1.333]))
    base = f"https://{host}/images/{rng.randrange(10**8):08x}"
    alt = esc(text.title(2, 6)) if rng.random() < 0.85 else ""
    r = rng.random()
    if r < 0.45:
        srcset = ", ".join(f"{base}_{x}w.jpg {x}w" for x in (320, 640, 960, 1280))
        return (f'<img src="{base}_{w}w.jpg" srcset="{srcset}" sizes="(max-width: 768px) 100vw, 50vw" alt="{alt}" '
                f'width="{w}" height="{h}"{" loading=lazy decoding=async" if lazy else ""}>')
    if r < 0.65:
        return (f'<picture><source type="image/webp" srcset="{base}.webp 1x, {base}@2x.webp 2x">'
                f'<source type="image/avif" srcset="{base}.avif"><img src="{base}.jpg" alt="{alt}" width="{w}" height="{h}"></picture>')
    if r < 0.8:
        return f'<img class="lazyload" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" data-src="{base}.jpg" alt="{alt}">'
    return f'<img src="//{host}/images/{rng.randrange(10**6)}.png" alt="{alt}" width={w} height={h}>'


# ---------------------------------------------------------------------------------------------
# JSON-LD with the breakage of real pages
# ---------------------------------------------------------------------------------------------

QUIRKS = ["entities", "escaped", "trailing-comma", "js-comment", "control-chars", "html-comment", "cdata", "empty",
          "null", "truncated"]
QUIRK_WEIGHTS = [20, 6, 14, 12, 14, 10, 10, 5, 4, 5]


def jsonld_script(rng, obj, quirk=None):
    indent = rng.choice([None, None, 2, 4, "\t"])
    s = json.dumps(obj, ensure_ascii=rng.random() < 0.3, indent=indent)
    s = s.replace("</", "<\\/")
    attrs = 'type="application/ld+json"'
    r = rng.random()
    if r < 0.15:
        attrs += f' class="yoast-schema-graph"'
    elif r < 0.25:
        attrs = f'data-n-head="ssr" data-hid="ldjson-{rng.randrange(100)}" ' + attrs
    elif r < 0.3:
        attrs += f' id="schema-{rng.randrange(1000)}"'
    if quirk == "escaped":
        s = html.escape(s, quote=True)
    elif quirk == "trailing-comma":
        i = s.rfind("}")
        s = s[:i].rstrip() + ",\n" + s[i:]
        j = s.find("]")
        if j > 0:
            s = s[:j] + "," + s[j:]
    elif quirk == "js-comment":
        s = rng.choice(["// generated by SEO Pack 4.2.1\n", "/* schema.org markup */ "]) + s
    elif quirk == "control-chars":
        s = s.replace("\\n", "\n").replace("\\t", "\t")
    elif quirk == "html-comment":
        s = "<!--\n" + s + "\n-->"
    elif quirk == "cdata":
        s = "//<![CDATA[\n" + s + "\n//]]>"
    elif quirk == "empty":
        s = rng.choice(["", "   \n  "])
    elif quirk == "null":
        s = "null"
    elif quirk == "truncated":
        s = s[: max(1, len(s) - rng.randint(1, 3))]
    nl = "\n" if indent is not None else ""
    return f"<script {attrs}>{nl}{s}{nl}</script>"


def entity_text(rng, text):
    """A string with HTML entities in it, as CMSs put into JSON-LD."""
    t = text.title(2, 6)
    return rng.choice([f"{t} &amp; more", f"{t} &#039;{text.title(1, 2)}&#039;", f"{t} &quot;best&quot;",
                       f"{t} &#8211; {text.title(1, 3)}", f"Tom &amp; Jerry&#8217;s {t}"])


# ---------------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------------

KINDS = ["news", "product", "blog", "recipe", "event", "app"]
KIND_SHARE = [24, 24, 14, 13, 13, 12]
SITES = {
    "news": ["www.dailyherald.example", "www.le-quotidien.example", "www.tokyo-shimbun.example", "www.berliner-post.example"],
    "product": ["www.megastore.example", "shop.outdoorgear.example", "www.tienda-online.example", "www.kaden-mart.example"],
    "blog": ["blog.janedoe.example", "www.devnotes.example", "www.reise-blog.example"],
    "recipe": ["www.tastykitchen.example", "www.cuisine-facile.example", "www.ramen-lab.example"],
    "event": ["www.gigfinder.example", "www.ticketbox.example", "www.konzerte.example"],
    "app": ["www.photoapp.example", "www.budgetly.example", "www.trainly.example", "www.meditate.example"],
}
SITE_LANG = {
    "www.le-quotidien.example": "fr", "www.tokyo-shimbun.example": "ja", "www.berliner-post.example": "de",
    "www.tienda-online.example": "es", "www.kaden-mart.example": "ja", "www.reise-blog.example": "de",
    "www.cuisine-facile.example": "fr", "www.ramen-lab.example": "ja", "www.konzerte.example": "de",
}


class Page:
    def __init__(self, rng, index, kind, target, charset):
        self.rng, self.index, self.kind, self.target, self.charset = rng, index, kind, target, charset
        self.site = rng.choice(SITES[kind])
        lang = SITE_LANG.get(self.site, "en")
        if charset == "shift_jis":
            lang = "ja"
        elif charset == "windows-1252" and lang not in ("en", "fr", "de", "es"):
            lang = rng.choice(["en", "fr", "de", "es"])
        elif charset == "utf-8" and lang == "en" and rng.random() < 0.12:
            lang = rng.choice(["zh", "ko"])
        self.lang = lang
        self.text = Text(rng, lang)
        self.slug = self.text.slug(3, 7)
        self.url = f"https://{self.site}/{kind}/{self.slug}-{rng.randrange(10**6)}"
        self.title = self.text.title(4, 10)
        self.description = self.text.sentence(12, 30)
        self.image = f"https://img.{self.site.split('.', 1)[-1]}/{kind}/{rng.randrange(10**8):08x}_1200x630.jpg"
        # Which markup this page carries.
        self.syntaxes = []
        self.quirks = []
        r = rng.random()
        if kind == "blog":
            self.main_syntax = "rdfa" if r < 0.35 else ("microdata" if r < 0.55 else "json-ld")
        elif kind in ("product", "recipe", "event"):
            self.main_syntax = "microdata" if r < 0.3 else ("rdfa" if r < 0.38 else "json-ld")
        elif kind == "news":
            self.main_syntax = "microdata" if r < 0.2 else "json-ld"
        else:
            self.main_syntax = "json-ld"
        self.syntaxes.append(self.main_syntax)
        self.opengraph = rng.random() < 0.94
        self.twitter = rng.random() < 0.75 or kind == "app"
        self.banner = kind == "app" or rng.random() < 0.3
        self.applinks = kind == "app" or rng.random() < 0.3
        self.jsonld_quirky = rng.random() < 0.22
        self.app_id = rng.randrange(284000000, 1700000000)
        self.app_name = self.text.title(1, 2) if lang not in CJK else self.site.split(".")[1].title()
        self.scheme = self.site.split(".")[1].replace("-", "")
        # Links: 45..585 in the pool, more on bigger pages; with the page's own few (logo, social links,
        # breadcrumbs, badges) that is 50..600 <a href> a page.
        scale = math.log(max(target, 10240) / 10240) / math.log(200)
        self.link_count = max(45, min(585, int(45 + 540 * scale * rng.uniform(0.6, 1.05))))
        # Small pages are plain ones: fewer attributes, images and extras, so that 50 links still fit in 10 KB.
        self.lean = target < 48000
        self.links = Links(rng, self.text, self.site, self.link_count, self.lean)
        # Byte shares of inline script and CSS.
        lo, hi = {"product": (0.45, 0.65), "news": (0.30, 0.45), "app": (0.30, 0.45)}.get(kind, (0.15, 0.35))
        self.script_share = rng.uniform(lo, hi)
        self.sloppy = rng.random() < 0.25
        self.bom = False

    # -- pieces ------------------------------------------------------------------------------

    def pick_quirk(self):
        if not self.jsonld_quirky or self.rng.random() < 0.4:
            return None
        q = self.rng.choices(QUIRKS, QUIRK_WEIGHTS)[0]
        self.quirks.append(q)
        return q

    def jsonld(self, obj):
        if "json-ld" not in self.syntaxes:
            self.syntaxes.append("json-ld")
        return jsonld_script(self.rng, obj, self.pick_quirk())

    def maybe_entities(self, s):
        if self.jsonld_quirky and self.rng.random() < 0.3:
            if "entities" not in self.quirks:
                self.quirks.append("entities")
            return entity_text(self.rng, self.text)
        return s

    def head(self):
        rng, t = self.rng, self.text
        out = []
        cs = self.charset
        if self.charset_form == "meta":
            out.append(f'<meta charset="{cs}">' if rng.random() < 0.8 else f"<meta charset={cs.upper()}>")
        elif self.charset_form == "http-equiv":
            out.append(f'<meta http-equiv="Content-Type" content="text/html; charset={cs}">')
        out.append('<meta http-equiv="X-UA-Compatible" content="IE=edge">')
        out.append('<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">')
        out.append(f"<title>{esc(self.title)} | {esc(self.site)}</title>")
        out.append(f'<meta name="description" content="{esc(self.description)}">')
        if rng.random() < 0.5:
            out.append(f'<meta name="keywords" content="{esc(", ".join(t.title(1, 2) for _ in range(rng.randint(3, 9))))}">')
        if rng.random() < 0.1:
            out.append(f'<meta name="robots" content="{rng.choice(["noindex, follow", "index, follow, max-image-preview:large", "nosnippet"])}">')
        out.append(f'<link rel="canonical" href="{esc(self.url)}">')
        for hl in rng.sample(["en", "fr", "de", "es", "ja", "x-default"], rng.randint(0, 1 if self.lean else 4)):
            out.append(f'<link rel="alternate" hreflang="{hl}" href="https://{self.site}/{hl}/{self.slug}">')
        out.append(f'<link rel="preconnect" href="https://img.{self.site.split(".", 1)[-1]}" crossorigin>')
        out.append(f'<link rel="preload" as="font" type="font/woff2" href="/fonts/inter-var.woff2" crossorigin>')
        out.append(f'<link rel="stylesheet" href="/assets/main.{rng.randrange(16**8):08x}.css">')
        out.append('<link rel="icon" href="/favicon.ico" sizes="any"><link rel="apple-touch-icon" href="/apple-touch-icon.png">')
        out.append('<link rel="manifest" href="/site.webmanifest">')
        if self.banner:
            arg = f' app-argument={self.scheme}://{self.kind}/{self.slug}' if rng.random() < 0.7 else ""
            if rng.random() < 0.3:
                arg = f", app-argument={esc(self.url)}"
            else:
                arg = arg and "," + arg
            out.append(f'<meta name="apple-itunes-app" content="app-id={self.app_id}{arg}">')
        if self.opengraph:
            og = [("og:type", {"news": "article", "blog": "article", "product": "product", "app": "website"}.get(self.kind, "website")),
                  ("og:title", self.title), ("og:description", self.description), ("og:url", self.url),
                  ("og:site_name", self.site.split(".")[1].title()),
                  ("og:locale", {"en": "en_US", "fr": "fr_FR", "de": "de_DE", "es": "es_ES", "ja": "ja_JP", "zh": "zh_CN", "ko": "ko_KR"}[self.lang])]
            for _ in range(1 if self.lean else rng.randint(1, 3)):
                og += [("og:image", f"https://img.{self.site.split('.', 1)[-1]}/{rng.randrange(10**8):08x}.jpg"),
                       ("og:image:width", "1200"), ("og:image:height", "630"), ("og:image:alt", t.title(2, 5))]
            if self.kind in ("news", "blog"):
                og += [("article:published_time", f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T0{rng.randint(0, 9)}:15:00+00:00"),
                       ("article:author", t.title(2, 2)), ("article:section", t.title(1, 2))]
                og += [("article:tag", t.title(1, 2)) for _ in range(rng.randint(0, 1 if self.lean else 5))]
            if self.kind == "product":
                og += [("product:price:amount", f"{rng.uniform(5, 900):.2f}"), ("product:price:currency", "USD"),
                       ("product:availability", "in stock")]
            attr = "property" if rng.random() < 0.9 else "name"
            for k, v in og:
                out.append(f'<meta {attr}="{k}" content="{esc(v)}">')
            out.append(f'<meta property="fb:app_id" content="{rng.randrange(10**14, 10**15)}">')
            self.syntaxes.append("opengraph")
        if self.twitter:
            tw = [("twitter:card", "app" if self.kind == "app" else rng.choice(["summary_large_image", "summary"])),
                  ("twitter:site", "@" + self.site.split(".")[1]), ("twitter:title", self.title),
                  ("twitter:description", self.description), ("twitter:image", self.image)]
            if self.kind == "app" or rng.random() < 0.1:
                tw += [("twitter:app:name:iphone", self.app_name), ("twitter:app:id:iphone", str(self.app_id)),
                       ("twitter:app:url:iphone", f"{self.scheme}://open/{self.slug}"),
                       ("twitter:app:name:ipad", self.app_name), ("twitter:app:id:ipad", str(self.app_id)),
                       ("twitter:app:url:ipad", f"{self.scheme}://open/{self.slug}"),
                       ("twitter:app:id:googleplay", f"com.{self.scheme}.android")]
            for k, v in tw:
                out.append(f'<meta name="{k}" content="{esc(v)}">')
        if self.applinks:
            al = [("al:ios:url", f"{self.scheme}://{self.kind}/{self.slug}"), ("al:ios:app_store_id", str(self.app_id)),
                  ("al:ios:app_name", self.app_name)]
            if rng.random() < 0.6:
                al += [("al:android:url", f"{self.scheme}://{self.kind}/{self.slug}"), ("al:android:package", f"com.{self.scheme}.android"),
                       ("al:android:app_name", self.app_name)]
            if rng.random() < 0.3:
                al += [("al:web:url", self.url)]
            for k, v in al:
                out.append(f'<meta property="{k}" content="{esc(v)}">')
        return out

    def nav(self, links):
        rng = self.rng
        items = "".join(f"<li class=\"menu-item\">{a}</li>" + ("" if rng.random() < 0.9 or not self.sloppy else "\n") for a in links)
        if self.sloppy and rng.random() < 0.5:
            items = items.replace("</li>", "", len(links) // 3)
        search = (f'<form class="search" action="/search" method="get" role="search"><label for="q" class="sr-only">Search</label>'
                  f'<input id="q" name="q" type="search" placeholder="{esc(self.text.title(1, 3))}" autocomplete="off">'
                  f'<button type="submit">{svg_icon(rng, 10)}</button></form>')
        return (f'<header class="site-header" role="banner"><div class="container"><a class="logo" href="/">'
                f'<img src="/static/logo.svg" alt="{esc(self.site)}" width="140" height="32"></a>'
                f'<nav class="main-nav" aria-label="Main"><ul class="menu">{items}</ul></nav>{search}</div></header>')

    def breadcrumbs(self):
        rng, t = self.rng, self.text
        crumbs = [("Home", "/")] + [(t.title(1, 2), f"/{t.slug(1, 2)}/") for _ in range(rng.randint(1, 3))]
        if self.main_syntax == "microdata" and rng.random() < 0.6:
            lis = "".join(
                f'<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a itemprop="item" href="{h}">'
                f'<span itemprop="name">{esc(n)}</span></a><meta itemprop="position" content="{i + 1}"></li>'
                for i, (n, h) in enumerate(crumbs))
            return f'<ol class="breadcrumbs" itemscope itemtype="https://schema.org/BreadcrumbList">{lis}</ol>', None
        lis = "".join(f'<li><a href="{h}">{esc(n)}</a></li>' for n, h in crumbs)
        ld = {"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": [
            {"@type": "ListItem", "position": i + 1, "name": n, "item": f"https://{self.site}{h}"} for i, (n, h) in enumerate(crumbs)]}
        return f'<nav aria-label="Breadcrumb"><ol class="breadcrumbs">{lis}</ol></nav>', ld

    def footer(self, links):
        rng = self.rng
        cols = []
        per = max(1, len(links) // 4)
        for i in range(0, len(links), per):
            cols.append(f'<div class="footer__col"><h4>{esc(self.text.title(1, 2))}</h4><ul>'
                        + "".join(f"<li>{a}</li>" for a in links[i:i + per]) + "</ul></div>")
        social = "".join(f'<a href="https://{h}/{self.scheme}" aria-label="{h}" rel="noopener">{h.split(".")[-2] if self.lean else svg_icon(rng, 12)}</a>'
                         for h in OTHER_HOSTS[:4])
        newsletter = ('<form class="newsletter" action="/newsletter" method="post"><input type="email" name="email" '
                      'placeholder="you@example.com" required><input type="hidden" name="csrf" value="%032x"><button>OK</button></form>'
                      % rng.randrange(16**32))
        return (f'<footer class="site-footer"><div class="footer__cols">{"".join(cols)}</div>{newsletter}'
                f'<div class="social">{social}</div><p class="legal">&copy; 2025 {esc(self.site)}. '
                f'{esc(self.text.sentence())}</p></footer>')

    def related(self, links):
        rng, t = self.rng, self.text
        cards = []
        for a in links:
            if self.lean:
                cards.append(f"<li>{a}</li>")
                continue
            cards.append(f'<li class="c-card"><div class="c-card__image">{img(rng, t, "img." + self.site.split(".", 1)[-1], 320)}</div>'
                         f'<div class="c-card__body">{a}<p class="c-card__meta">{esc(t.sentence(4, 9))}</p></div></li>')
        return f'<aside class="related" aria-label="Related"><h2>{esc(t.title(2, 4))}</h2><ul class="grid">{"".join(cards)}</ul></aside>'

    def paragraph_with_links(self, max_links):
        rng = self.rng
        p = self.text.paragraph()
        n = min(self.links.left(), rng.randint(0, max_links))
        if n:
            words = p.split(" ") if self.lang not in CJK else [p]
            for a in self.links.take(n):
                words.insert(rng.randint(0, len(words)), a)
            p = (" " if self.lang not in CJK else "").join(words)
        if self.sloppy and rng.random() < 0.2:
            return f"<p>{p}\n"  # unclosed <p>, closed by the next block
        if self.sloppy and rng.random() < 0.05:
            return f"<P CLASS=lead>{p}</P></div>"  # upper case, unquoted, a stray end tag
        return f"<p>{p}</p>\n"

    # -- kinds -------------------------------------------------------------------------------

    def person(self):
        return {"@type": "Person", "name": self.text.title(2, 2), "url": f"https://{self.site}/author/{self.text.slug(1, 2)}"}

    def org(self):
        return {"@type": "Organization", "@id": f"https://{self.site}/#organization", "name": self.site.split(".")[1].title(),
                "url": f"https://{self.site}/", "logo": {"@type": "ImageObject", "url": f"https://{self.site}/logo.png", "width": 600, "height": 60},
                "sameAs": [f"https://{h}/{self.scheme}" for h in OTHER_HOSTS[:3]]}

    def date(self):
        r = self.rng
        return f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00+0{r.randint(0, 9)}:00"

    def main_news(self, fill):
        rng, t = self.rng, self.text
        head, body = [], []
        authors = [self.person() for _ in range(rng.randint(1, 3))]
        if self.main_syntax == "json-ld":
            graph = [
                {"@type": "NewsArticle", "@id": self.url + "#article", "headline": self.maybe_entities(self.title[:110]),
                 "description": self.description, "image": [self.image, self.image.replace("1200x630", "1200x1200")],
                 "datePublished": self.date(), "dateModified": self.date(), "author": authors,
                 "publisher": {"@id": f"https://{self.site}/#organization"}, "mainEntityOfPage": {"@id": self.url},
                 "articleSection": t.title(1, 2), "inLanguage": self.lang, "isAccessibleForFree": rng.random() < 0.7,
                 "wordCount": rng.randint(300, 4000), "keywords": [t.title(1, 2) for _ in range(rng.randint(2, 8))]},
                {"@type": "WebPage", "@id": self.url, "url": self.url, "name": self.title,
                 "isPartOf": {"@id": f"https://{self.site}/#website"}, "breadcrumb": {"@id": self.url + "#breadcrumb"}},
                {"@type": "WebSite", "@id": f"https://{self.site}/#website", "url": f"https://{self.site}/", "name": self.site,
                 "potentialAction": {"@type": "SearchAction", "target": {"@type": "EntryPoint", "urlTemplate": f"https://{self.site}/search?q={{search_term_string}}"},
                                     "query-input": "required name=search_term_string"}},
                self.org(),
            ]
            if rng.random() < 0.3:
                graph[0]["description"] = t.sentence() + "\n\t" + t.sentence()  # raw control characters, with the quirk
            head.append(self.jsonld({"@context": "https://schema.org", "@graph": graph}))
            body.append(f'<article class="article"><h1 class="article__title">{esc(self.title)}</h1>')
            body.append(f'<p class="byline">{", ".join(esc(a["name"]) for a in authors)} &middot; <time datetime="{self.date()}">{esc(t.title(2, 3))}</time></p>')
        else:
            body.append(f'<article class="article" itemscope itemtype="https://schema.org/NewsArticle" itemid="{esc(self.url)}">'
                        f'<meta itemprop="mainEntityOfPage" content="{esc(self.url)}">'
                        f'<h1 itemprop="headline">{esc(self.title)}</h1><p class="byline">')
            for a in authors:
                body.append(f'<span itemprop="author" itemscope itemtype="https://schema.org/Person"><a itemprop="url" href="{esc(a["url"])}">'
                            f'<span itemprop="name">{esc(a["name"])}</span></a></span> ')
            body.append(f'<time itemprop="datePublished" datetime="{self.date()}">{esc(t.title(2, 3))}</time>'
                        f'<meta itemprop="dateModified" content="{self.date()}"></p>'
                        f'<div itemprop="publisher" itemscope itemtype="https://schema.org/Organization"><meta itemprop="name" content="{esc(self.site)}">'
                        f'<div itemprop="logo" itemscope itemtype="https://schema.org/ImageObject"><link itemprop="url" href="https://{self.site}/logo.png"></div></div>'
                        f'<figure itemprop="image" itemscope itemtype="https://schema.org/ImageObject"><link itemprop="url" href="{esc(self.image)}">'
                        f'{img(rng, t, "img." + self.site.split(".", 1)[-1], 1200, 630, lazy=False)}<figcaption itemprop="caption">{esc(t.sentence())}</figcaption></figure>'
                        f'<div itemprop="articleBody">')
        body.append("{FILL}")
        body.append("</div></article>" if self.main_syntax == "microdata" else "</article>")
        comments = rng.randint(0, 2 if self.lean else 12)
        if comments:
            body.append(f'<section id="comments"><h2>{comments} comments</h2><ol>'
                        + "".join(f'<li class="comment"><b>{esc(t.title(2, 2))}</b> {t.paragraph(1, 3)}</li>' for _ in range(comments)) + "</ol></section>")

        def chunk():
            r = rng.random()
            if r < 0.75:
                return self.paragraph_with_links(3)
            if r < 0.85:
                return f"<h2>{esc(t.title())}</h2>\n"
            if r < 0.93:
                return f'<figure class="inline">{img(rng, t, "img." + self.site.split(".", 1)[-1])}<figcaption>{esc(t.sentence())}</figcaption></figure>\n'
            if r < 0.97 and self.links.spend():
                return (f'<blockquote class="twitter-tweet"><p lang="{self.lang}" dir="ltr">{esc(t.sentence())}</p>&mdash; '
                        f'{esc(t.title(2, 2))} (@{t.slug(1, 1)}) <a href="https://twitter.com/x/status/{rng.randrange(10**18)}?ref_src=twsrc%5Etfw">'
                        f'{esc(t.title(2, 3))}</a></blockquote>\n')
            return f'<aside class="ad" data-slot="{rng.randrange(100)}"><!-- ad slot --><div id="div-gpt-ad-{rng.randrange(10**13)}-0"></div></aside>\n'
        return head, "".join(body), chunk

    def product_offer(self):
        rng = self.rng
        return {"@type": "Offer", "url": self.url, "priceCurrency": rng.choice(["USD", "EUR", "JPY", "GBP"]),
                "price": f"{rng.uniform(5, 900):.2f}", "priceValidUntil": "2026-12-31",
                "availability": rng.choice(["https://schema.org/InStock", "https://schema.org/OutOfStock", "InStock"]),
                "itemCondition": "https://schema.org/NewCondition",
                "seller": {"@type": "Organization", "name": self.site.split(".")[1].title()}}

    def main_product(self, fill):
        rng, t = self.rng, self.text
        head, body = [], []
        name = self.title
        reviews_ld = min(20, 2 + fill // 40000)
        price = f"{rng.uniform(5, 900):.2f}"
        gallery = "".join(f"<li>{img(rng, t, 'img.' + self.site.split('.', 1)[-1], 800, 800, lazy=i > 0)}</li>" for i in range(1 if self.lean else rng.randint(3, 9)))
        if self.main_syntax == "json-ld":
            prod = {"@context": "https://schema.org/", "@type": "Product", "@id": self.url + "#product",
                    "name": self.maybe_entities(name), "description": self.description,
                    "image": [self.image] + [f"https://img.{self.site.split('.', 1)[-1]}/{rng.randrange(10**8):08x}.jpg" for _ in range(rng.randint(1, 5))],
                    "sku": f"{rng.randrange(10**6):06d}", "gtin13": f"{rng.randrange(10**12, 10**13)}", "mpn": f"M-{rng.randrange(10**5)}",
                    "brand": {"@type": "Brand", "name": t.title(1, 2)},
                    "offers": self.product_offer() if rng.random() < 0.6 else {
                        "@type": "AggregateOffer", "lowPrice": price, "highPrice": f"{float(price) * 1.4:.2f}", "priceCurrency": "EUR",
                        "offerCount": rng.randint(2, 30), "offers": [self.product_offer() for _ in range(rng.randint(2, 5))]},
                    "aggregateRating": {"@type": "AggregateRating", "ratingValue": round(rng.uniform(2.5, 5), 1), "reviewCount": rng.randint(1, 5000)},
                    "review": [{"@type": "Review", "author": {"@type": "Person", "name": t.title(2, 2)}, "datePublished": self.date()[:10],
                                "reviewBody": t.paragraph(1, 3, entities=False), "name": t.title(2, 5),
                                "reviewRating": {"@type": "Rating", "ratingValue": rng.randint(1, 5), "bestRating": 5}} for _ in range(reviews_ld)]}
            if rng.random() < 0.3:
                prod["additionalProperty"] = [{"@type": "PropertyValue", "name": t.title(1, 2), "value": t.title(1, 3)} for _ in range(rng.randint(3, 12))]
            head.append(self.jsonld(prod))
            body.append(f'<div class="pdp"><ul class="pdp__gallery">{gallery}</ul><div class="pdp__info"><h1 class="pdp__title">{esc(name)}</h1>'
                        f'<div class="price"><span class="price__value">{price}</span></div>'
                        f'<form action="/cart/add" method="post"><input type="hidden" name="sku" value="{rng.randrange(10**6)}">'
                        f'<select name="size">{"".join(f"<option>{s}</option>" for s in ["XS", "S", "M", "L", "XL"])}</select>'
                        f'<button class="btn btn--primary">{esc(t.title(2, 3))}</button></form></div>'
                        f'<section class="pdp__details"><h2>{esc(t.title(1, 3))}</h2>{{FILL}}</section></div>')
        elif self.main_syntax == "microdata":
            body.append(f'<div class="pdp" itemscope itemtype="https://schema.org/Product" itemid="{esc(self.url)}#product">'
                        f'<ul class="pdp__gallery">{gallery}</ul><link itemprop="image" href="{esc(self.image)}">'
                        f'<h1 itemprop="name">{esc(name)}</h1><meta itemprop="sku" content="{rng.randrange(10**6):06d}">'
                        f'<div itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">{esc(t.title(1, 2))}</span></div>'
                        f'<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="USD">'
                        f'<span itemprop="price" content="{price}">${price}</span><link itemprop="availability" href="https://schema.org/InStock">'
                        f'<div itemprop="seller" itemscope itemtype="https://schema.org/Organization"><meta itemprop="name" content="{esc(self.site)}"></div></div>'
                        f'<div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">'
                        f'<span itemprop="ratingValue">{rng.uniform(2.5, 5):.1f}</span>/5 (<span itemprop="reviewCount">{rng.randint(1, 900)}</span>)</div>'
                        f'<div itemprop="description">{t.paragraph()}</div><section class="reviews" id="reviews">{{FILL}}</section></div>')
        else:  # RDFa, GoodRelations-era markup with the schema.org vocabulary
            body.append(f'<div class="pdp" vocab="https://schema.org/" typeof="Product" resource="{esc(self.url)}#product">'
                        f'<ul class="pdp__gallery">{gallery}</ul><link property="image" href="{esc(self.image)}">'
                        f'<h1 property="name">{esc(name)}</h1><span property="sku" content="{rng.randrange(10**6):06d}"></span>'
                        f'<div property="brand" typeof="Brand"><span property="name">{esc(t.title(1, 2))}</span></div>'
                        f'<div property="offers" typeof="Offer"><meta property="priceCurrency" content="EUR">'
                        f'<span property="price" content="{price}">{price} €</span><link property="availability" href="https://schema.org/InStock"></div>'
                        f'<div property="description">{t.paragraph()}</div><section class="reviews" id="reviews">{{FILL}}</section></div>')
        md_reviews = [0]

        def chunk():
            r = rng.random()
            if r < 0.4:
                if self.main_syntax == "microdata" and md_reviews[0] < 80:
                    md_reviews[0] += 1
                    return (f'<div itemprop="review" itemscope itemtype="https://schema.org/Review" class="review">'
                            f'<div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">{esc(t.title(2, 2))}</span></div>'
                            f'<div itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><meta itemprop="worstRating" content="1">'
                            f'<span itemprop="ratingValue">{rng.randint(1, 5)}</span>/<span itemprop="bestRating">5</span></div>'
                            f'<meta itemprop="datePublished" content="{self.date()[:10]}"><h3 itemprop="name">{esc(t.title(2, 5))}</h3>'
                            f'<p itemprop="reviewBody">{t.paragraph(1, 4)}</p></div>\n')
                if self.main_syntax == "rdfa" and md_reviews[0] < 40:
                    md_reviews[0] += 1
                    return (f'<div property="review" typeof="Review" class="review"><div property="author" typeof="Person">'
                            f'<span property="name">{esc(t.title(2, 2))}</span></div><div property="reviewRating" typeof="Rating">'
                            f'<span property="ratingValue">{rng.randint(1, 5)}</span></div><p property="reviewBody">{t.paragraph(1, 4)}</p></div>\n')
                return f'<div class="review"><b>{esc(t.title(2, 2))}</b> {"★" * rng.randint(1, 5)}<p>{t.paragraph(1, 4)}</p></div>\n'
            if r < 0.65:
                return self.paragraph_with_links(2)
            if r < 0.8:
                rows = "".join(f"<tr><th>{esc(t.title(1, 2))}</th><td>{esc(t.title(1, 4))}</td></tr>" for _ in range(rng.randint(3, 10)))
                return f'<table class="specs"><tbody>{rows}</tbody></table>\n'
            if r < 0.9:
                return f'<div class="qa"><p class="q">{esc(t.sentence())}</p><p class="a">{t.paragraph(1, 2)}</p></div>\n'
            return f'<div class="swatch" data-variant="{rng.randrange(10**6)}" data-json=\'{json.dumps({"c": rng.choice(CSS_BLOCKS), "p": rng.randrange(999)})}\'>{img(rng, t, "img." + self.site.split(".", 1)[-1], 64, 64)}</div>\n'
        return head, "".join(body), chunk

    def main_recipe(self, fill):
        rng, t = self.rng, self.text
        head, body = [], []
        ingredients = [f"{rng.randint(1, 500)} {rng.choice(['g', 'ml', 'cups', 'tbsp', 'tsp', '個', 'EL'])} {t.title(1, 3)}" for _ in range(rng.randint(5, 8 if self.lean else 18))]
        steps = [t.sentence(8, 25) for _ in range(rng.randint(3, 5) if self.lean else rng.randint(4, 14))]
        if self.main_syntax == "json-ld":
            rec = {"@context": "https://schema.org", "@type": "Recipe", "name": self.maybe_entities(self.title), "image": [self.image],
                   "author": self.person(), "datePublished": self.date()[:10], "description": self.description,
                   "prepTime": f"PT{rng.randint(5, 60)}M", "cookTime": f"PT{rng.randint(10, 240)}M", "totalTime": f"PT{rng.randint(1, 5)}H",
                   "recipeYield": [str(rng.randint(2, 8)), f"{rng.randint(2, 8)} servings"], "recipeCategory": t.title(1, 2),
                   "recipeCuisine": rng.choice(["French", "Japanese", "Mexican", "Italian"]), "keywords": ", ".join(t.title(1, 2) for _ in range(4)),
                   "nutrition": {"@type": "NutritionInformation", "calories": f"{rng.randint(100, 1200)} kcal", "fatContent": f"{rng.randint(1, 80)} g"},
                   "recipeIngredient": ingredients,
                   "recipeInstructions": [{"@type": "HowToSection", "name": t.title(1, 3), "itemListElement": [
                       {"@type": "HowToStep", "text": s, "url": f"{self.url}#step-{i}", "name": s[:30]} for i, s in enumerate(steps)]}]
                   if rng.random() < 0.4 else [{"@type": "HowToStep", "text": s} for s in steps],
                   "aggregateRating": {"@type": "AggregateRating", "ratingValue": f"{rng.uniform(3, 5):.2f}", "ratingCount": str(rng.randint(1, 3000))}}
            if rng.random() < 0.4:
                rec["video"] = {"@type": "VideoObject", "name": self.title, "description": self.description, "thumbnailUrl": [self.image],
                                "contentUrl": f"https://video.{self.site.split('.', 1)[-1]}/{rng.randrange(10**6)}.mp4", "uploadDate": self.date(),
                                "duration": f"PT{rng.randint(1, 9)}M{rng.randint(0, 59)}S"}
            if rng.random() < 0.5:
                rec = {"@context": "https://schema.org", "@graph": [rec, self.org(), {"@type": "WebPage", "@id": self.url, "url": self.url}]}
                del rec["@graph"][0]["@context"]
            head.append(self.jsonld(rec))
            lis = "".join(f"<li>{esc(i)}</li>" for i in ingredients)
            ols = "".join(f"<li id=step-{n}>{esc(s)}</li>" for n, s in enumerate(steps))
            card = f'<div class="recipe-card" id="recipe"><h2>{esc(self.title)}</h2><ul class="ingredients">{lis}</ul><ol class="steps">{ols}</ol></div>'
            body.append(f'<article class="post"><h1>{esc(self.title)}</h1><a class="jump" href="#recipe">Jump to recipe</a>{{FILL}}{card}</article>')
        else:
            ip = "itemprop" if self.main_syntax == "microdata" else "property"
            lis = "".join(f'<li {ip}="recipeIngredient">{esc(i)}</li>' for i in ingredients)
            ols = "".join(f'<li {ip}="recipeInstructions">{esc(s)}</li>' for s in steps)
            if self.main_syntax == "microdata":
                opener = f'<article class="post" itemscope itemtype="http://schema.org/Recipe">'
                extra = (f'<span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">{esc(t.title(2, 2))}</span></span>'
                         f'<meta itemprop="prepTime" content="PT{rng.randint(5, 60)}M"><meta itemprop="cookTime" content="PT{rng.randint(5, 60)}M">'
                         f'<div itemprop="nutrition" itemscope itemtype="http://schema.org/NutritionInformation"><span itemprop="calories">{rng.randint(100, 900)} calories</span></div>'
                         f'<div itemprop="aggregateRating" itemscope itemtype="http://schema.org/AggregateRating"><meta itemprop="ratingValue" content="4.{rng.randint(0, 9)}"><meta itemprop="reviewCount" content="{rng.randint(1, 300)}"></div>')
            else:
                opener = f'<article class="post" vocab="http://schema.org/" typeof="Recipe">'
                extra = (f'<span property="author" typeof="Person"><span property="name">{esc(t.title(2, 2))}</span></span>'
                         f'<meta property="prepTime" content="PT{rng.randint(5, 60)}M">')
            body.append(f'{opener}<h1 {ip}="name">{esc(self.title)}</h1>{extra}<img {ip}="image" src="{esc(self.image)}" alt="">'
                        f'<p {ip}="description">{esc(self.description)}</p>{{FILL}}<ul>{lis}</ul><ol>{ols}</ol></article>')

        def chunk():
            r = rng.random()
            if r < 0.55:
                return self.paragraph_with_links(2)
            if r < 0.7:
                return f'<figure>{img(rng, t, "img." + self.site.split(".", 1)[-1])}</figure>\n'
            if r < 0.9:
                return (f'<div class="comment" id="comment-{rng.randrange(10**6)}"><img class="avatar" src="https://secure.gravatar.example/avatar/{rng.randrange(16**32):032x}?s=48&amp;d=mm" alt="">'
                        f'<cite>{esc(t.title(2, 2))}</cite><p>{t.paragraph(1, 3)}</p>'
                        + (f'<a class="reply" rel="nofollow" href="?replytocom={rng.randrange(10**5)}#respond">Reply</a>' if self.links.spend() else "") + '</div>\n')
            return f"<h3>{esc(t.title())}</h3>\n"
        return head, "".join(body), chunk

    def event_ld(self):
        rng, t = self.rng, self.text
        venue = t.title(2, 4)
        return {"@context": "http://schema.org", "@type": rng.choice(["MusicEvent", "Event", "TheaterEvent"]), "name": t.title(2, 5),
                "url": f"https://{self.site}/concerts/{rng.randrange(10**8)}-{t.slug()}?utm_medium=organic&utm_source=microformat",
                "startDate": self.date(), "endDate": self.date() if rng.random() < 0.3 else None,
                "eventStatus": "https://schema.org/EventScheduled", "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
                "location": {"@type": "Place", "name": venue, "sameAs": f"https://{t.slug(1, 2)}.example",
                             "address": {"@type": "PostalAddress", "streetAddress": f"{rng.randint(1, 999)} {t.title(1, 2)} St",
                                         "addressLocality": t.title(1, 2), "postalCode": f"{rng.randrange(10**5):05d}", "addressCountry": rng.choice(["US", "GB", "DE", "JP", "FR"])},
                             "geo": {"@type": "GeoCoordinates", "latitude": round(rng.uniform(-60, 60), 6), "longitude": round(rng.uniform(-170, 170), 6)}},
                "performer": [{"@type": "MusicGroup", "name": t.title(1, 3), "sameAs": f"https://{self.site}/artists/{rng.randrange(10**6)}"} for _ in range(rng.randint(1, 3))],
                "offers": {"@type": "Offer", "url": f"https://{self.site}/tickets/{rng.randrange(10**7)}", "price": rng.randint(10, 150),
                           "priceCurrency": "USD", "availability": "https://schema.org/InStock", "validFrom": self.date()},
                "image": self.image}

    def main_event(self, fill):
        rng, t = self.rng, self.text
        head = []
        body = f'<div class="artist"><h1>{esc(self.title)}</h1><p>{t.paragraph()}</p><ul class="event-listings">{{FILL}}</ul></div>'
        count = [0]
        cap = 60

        def chunk():
            r = rng.random()
            if r < 0.7 and count[0] < cap:
                count[0] += 1
                ev = self.event_ld()
                a = "a" if self.links.spend() else "span"  # the listing's link counts against the page's links
                if self.main_syntax == "json-ld":
                    # One JSON-LD block per event, inside its listing item (as Songkick does).
                    return (f'<li class="event-listing" title="{esc(ev["startDate"])}"><time datetime="{ev["startDate"]}">{esc(t.title(1, 2))}</time>'
                            f'<{a} href="{esc(ev["url"])}"><strong>{esc(ev["name"])}</strong></{a}><p class="location">{esc(ev["location"]["name"])}</p>'
                            f'{self.jsonld([ev] if rng.random() < 0.5 else ev)}</li>\n')
                if self.main_syntax == "microdata":
                    return (f'<li class="event-listing" itemscope itemtype="http://schema.org/MusicEvent"><meta itemprop="startDate" content="{ev["startDate"]}">'
                            f'<link itemprop="url" href="{esc(ev["url"])}"><{a} href="{esc(ev["url"])}"><span itemprop="name">{esc(ev["name"])}</span></{a}>'
                            f'<div itemprop="location" itemscope itemtype="http://schema.org/Place"><span itemprop="name">{esc(ev["location"]["name"])}</span>'
                            f'<div itemprop="address" itemscope itemtype="http://schema.org/PostalAddress"><span itemprop="addressLocality">{esc(ev["location"]["address"]["addressLocality"])}</span>'
                            f'<meta itemprop="addressCountry" content="{ev["location"]["address"]["addressCountry"]}"></div>'
                            f'<div itemprop="geo" itemscope itemtype="http://schema.org/GeoCoordinates"><meta itemprop="latitude" content="{ev["location"]["geo"]["latitude"]}">'
                            f'<meta itemprop="longitude" content="{ev["location"]["geo"]["longitude"]}"></div></div>'
                            f'<span itemprop="performer" itemscope itemtype="http://schema.org/MusicGroup"><meta itemprop="name" content="{esc(ev["performer"][0]["name"])}"></span>'
                            f'<div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><meta itemprop="price" content="{ev["offers"]["price"]}"><meta itemprop="priceCurrency" content="USD"></div></li>\n')
                return (f'<li class="event-listing" vocab="http://schema.org/" typeof="MusicEvent"><meta property="startDate" content="{ev["startDate"]}">'
                        f'<{a} property="url" href="{esc(ev["url"])}"><span property="name">{esc(ev["name"])}</span></{a}>'
                        f'<div property="location" typeof="Place"><span property="name">{esc(ev["location"]["name"])}</span></div></li>\n')
            if r < 0.85:
                return f'<li class="event-listing past">{self.paragraph_with_links(3)}</li>\n'
            return f'<li class="promo">{img(rng, t, "img." + self.site.split(".", 1)[-1], 300)}<p>{esc(t.sentence())}</p></li>\n'
        return head, body, chunk

    def main_blog(self, fill):
        rng, t = self.rng, self.text
        head = []
        author = self.person()
        if self.main_syntax == "json-ld":
            head.append(self.jsonld({"@context": "https://schema.org", "@type": "BlogPosting", "headline": self.maybe_entities(self.title),
                                     "description": self.description, "image": {"@type": "ImageObject", "url": self.image, "width": 1200, "height": 630},
                                     "author": author, "datePublished": self.date(), "dateModified": self.date(), "publisher": self.org(),
                                     "mainEntityOfPage": {"@type": "WebPage", "@id": self.url},
                                     "comment": [{"@type": "Comment", "author": self.person(), "text": t.sentence()} for _ in range(rng.randint(0, 5))]}))
            opener, a_attr = '<article class="post">', ""
            meta = f'<p class="meta">{esc(author["name"])} &middot; {self.date()[:10]}</p>'
            p_attr = ""
        elif self.main_syntax == "microdata":
            opener = f'<article class="post" itemscope itemtype="https://schema.org/BlogPosting"><link itemprop="mainEntityOfPage" href="{esc(self.url)}">'
            a_attr = ' itemprop="headline"'
            meta = (f'<p class="meta"><span itemprop="author" itemscope itemtype="https://schema.org/Person"><a itemprop="url" href="{esc(author["url"])}">'
                    f'<span itemprop="name">{esc(author["name"])}</span></a></span> &middot; <time itemprop="datePublished" datetime="{self.date()}">{self.date()[:10]}</time></p>'
                    f'<meta itemprop="image" content="{esc(self.image)}">')
            p_attr = ' itemprop="articleBody"'
        else:
            prefix = ' prefix="og: http://ogp.me/ns# dc: http://purl.org/dc/terms/"' if rng.random() < 0.5 else ""
            opener = f'<article class="post" vocab="https://schema.org/" typeof="BlogPosting" resource="{esc(self.url)}"{prefix}>'
            a_attr = ' property="headline"'
            meta = (f'<p class="meta"><span property="author" typeof="Person"><a property="url" href="{esc(author["url"])}"><span property="name">{esc(author["name"])}</span></a></span>'
                    f' &middot; <time property="datePublished" datetime="{self.date()}">{self.date()[:10]}</time>'
                    f'{" <span property=dc:creator>" + esc(author["name"]) + "</span>" if prefix else ""}</p>'
                    f'<img property="image" src="{esc(self.image)}" alt="">')
            p_attr = ' property="articleBody"'
        body = f'{opener}<h1{a_attr}>{esc(self.title)}</h1>{meta}<div class="post__body"{p_attr}>' + "{FILL}" + "</div></article>"
        comments = [0]

        def chunk():
            r = rng.random()
            if r < 0.6:
                return self.paragraph_with_links(3)
            if r < 0.7:
                lang = rng.choice(["swift", "python", "bash"])
                code = html.escape("\n".join(f"let {js_ident(rng)} = {rng.randrange(100)} // {t.sentence(3, 6)}" for _ in range(rng.randint(3, 12))), quote=False)
                return f'<pre><code class="language-{lang}">{code}</code></pre>\n'
            if r < 0.8:
                return f"<h2 id=\"{t.slug(1, 3)}\">{esc(t.title())}</h2>\n"
            if r < 0.9:
                return f'<figure>{img(rng, t, "img." + self.site.split(".", 1)[-1])}<figcaption>{esc(t.sentence())}</figcaption></figure>\n'
            comments[0] += 1
            if self.main_syntax == "rdfa" and comments[0] < 30:
                return f'<div property="comment" typeof="Comment"><span property="author">{esc(t.title(2, 2))}</span><p property="text">{t.paragraph(1, 3)}</p></div>\n'
            if self.main_syntax == "microdata" and comments[0] < 30:
                return (f'<div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="author" itemscope itemtype="https://schema.org/Person">'
                        f'<span itemprop="name">{esc(t.title(2, 2))}</span></span><p itemprop="text">{t.paragraph(1, 3)}</p></div>\n')
            return f'<div class="comment"><b>{esc(t.title(2, 2))}</b><p>{t.paragraph(1, 3)}</p></div>\n'
        return head, body, chunk

    def main_app(self, fill):
        rng, t = self.rng, self.text
        head = []
        store = f"https://apps.apple.com/{rng.choice(['us', 'fr', 'de', 'jp'])}/app/{self.scheme}/id{self.app_id}"
        app = {"@context": "https://schema.org", "@type": rng.choice(["MobileApplication", "SoftwareApplication"]), "name": self.app_name,
               "operatingSystem": rng.choice(["iOS 16.0 or later", "iOS, iPadOS, macOS", "IOS, ANDROID"]),
               "applicationCategory": rng.choice(["PhotographyApplication", "FinanceApplication", "TravelApplication", "HealthApplication"]),
               "offers": {"@type": "Offer", "price": rng.choice(["0", "0.00", "2.99"]), "priceCurrency": "USD"},
               "aggregateRating": {"@type": "AggregateRating", "ratingValue": round(rng.uniform(3.5, 4.9), 1), "ratingCount": rng.randint(100, 500000)},
               "downloadUrl": store, "installUrl": store, "screenshot": [f"https://img.{self.site.split('.', 1)[-1]}/shot-{i}.png" for i in range(rng.randint(2, 6))],
               "author": {"@type": "Organization", "name": self.app_name + " Inc."}}
        head.append(self.jsonld(app))
        faqs = [(t.sentence(4, 9).rstrip(".!?。") + "?", t.paragraph(1, 3, entities=False)) for _ in range(rng.randint(2, 3) if self.lean else rng.randint(3, 10))]
        head.append(self.jsonld({"@context": "https://schema.org", "@type": "FAQPage", "mainEntity": [
            {"@type": "Question", "name": q, "acceptedAnswer": {"@type": "Answer", "text": a}} for q, a in faqs]}))
        badges = (f'<a class="badge" href="{store}"><img src="/badges/app-store-{self.lang}.svg" alt="Download on the App Store" width="120" height="40"></a>'
                  f'<a class="badge" href="https://play.google.com/store/apps/details?id=com.{self.scheme}.android&amp;hl={self.lang}">Google Play</a>')
        faq_html = "".join(f"<details><summary>{esc(q)}</summary><p>{esc(a)}</p></details>" for q, a in faqs)
        body = (f'<section class="hero"><h1>{esc(self.title)}</h1><p class="lead">{esc(self.description)}</p>{badges}'
                f'<div class="hero__phone">{img(rng, t, "img." + self.site.split(".", 1)[-1], 600, 1200, lazy=False)}</div></section>'
                f'<section class="features">{{FILL}}</section><section class="faq" id="faq">{faq_html}</section>'
                f'<section class="cta">{badges}</section>')

        def chunk():
            r = rng.random()
            if r < 0.45:
                return (f'<div class="feature">{svg_icon(rng)}<h3>{esc(t.title(2, 4))}</h3>{self.paragraph_with_links(2)}</div>\n')
            if r < 0.7:
                return (f'<blockquote class="testimonial">{"⭐" * 5}<p>{esc(t.sentence())}</p><cite>{esc(t.title(2, 2))}</cite></blockquote>\n')
            if r < 0.85:
                return f'<div class="screenshot">{img(rng, t, "img." + self.site.split(".", 1)[-1], 390, 844)}</div>\n'
            plans = "".join(f'<li><b>{esc(t.title(1, 2))}</b> ${rng.randint(0, 20)}.99/mo</li>' for _ in range(3))
            return f'<div class="pricing"><ul>{plans}</ul></div>\n'
        return head, body, chunk

    # -- assembly ----------------------------------------------------------------------------

    def nbytes(self, s):
        """Size of `s` in the page's own encoding (Shift_JIS takes 2 bytes where UTF-8 takes 3)."""
        return len(s.encode(self.charset, errors="xmlcharrefreplace"))

    def build(self):
        rng, t = self.rng, self.text
        self.charset_form = "none" if (self.charset == "utf-8" and rng.random() < 0.06) else (
            "http-equiv" if rng.random() < 0.25 else "meta")
        target = self.target
        head = self.head()
        n = self.link_count
        nav_links = self.links.take(max(8, int(n * rng.uniform(0.2, 0.35))))  # lean pages: the same counts, plainer markup
        footer_links = self.links.take(max(8, int(n * rng.uniform(0.1, 0.2))))
        related_links = self.links.take(max(4, int(n * rng.uniform(0.08, 0.15))))
        crumbs_html, crumbs_ld = self.breadcrumbs()
        if crumbs_ld and self.main_syntax == "json-ld" and rng.random() < 0.6:
            head.append(self.jsonld(crumbs_ld))
        # Fixed parts first, then the filler up to the target size.
        kind_head, main_html, chunk = getattr(self, "main_" + self.kind)(target)
        head += kind_head
        if self.kind != "app" and rng.random() < 0.15:
            head.append(self.jsonld(self.org() | {"@context": "https://schema.org"}))
        nav = self.nav(nav_links)
        footer = self.footer(footer_links)
        related = self.related(related_links)
        tag_html = '<html lang="%s"%s>' % (self.lang, ' prefix="og: https://ogp.me/ns# fb: http://ogp.me/ns/fb#"' if rng.random() < 0.3 else "")
        gid = "%010X" % rng.randrange(16**10)
        analytics = ("<script async src=\"https://www.googletagmanager.com/gtag/js?id=G-%s\"></script><script>window.dataLayer=window.dataLayer||[];"
                     "function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-%s');</script>" % (gid, gid))
        fixed = "".join(head) + crumbs_html + main_html + nav + footer + related + analytics
        unused = sum(self.nbytes(a) + 9 for a in self.links.items[self.links.next:])  # in the content or the "more" list
        size = self.nbytes(fixed) + unused + 900
        remaining = max(0, target - size)
        script_budget = int(remaining * self.script_share)
        css_budget = int(script_budget * rng.uniform(0.15, 0.35))
        svg_budget = int(remaining * (0.06 if rng.random() < 0.4 else 0.0))
        js_budget = script_budget - css_budget
        state_budget = int(js_budget * rng.uniform(0.3, 0.8))
        code_budget = js_budget - state_budget
        # Inline CSS: one to three <style> blocks.
        styles = []
        nstyles = rng.randint(1, 3)
        for _ in range(nstyles):
            styles.append(f'<style{" data-emotion=css" if rng.random() < 0.3 else ""}>{css_text(rng, css_budget // nstyles)}</style>')
        code_head = js_text(rng, code_budget // 3) if code_budget > 300 else ""
        code_body = js_text(rng, code_budget - code_budget // 3) if code_budget > 300 else ""
        state = state_json(rng, t, state_budget) if state_budget > 500 else ""
        sprite = svg_sprite(rng, svg_budget) if svg_budget > 200 else ""
        filler_size = sum(len(x.encode()) for x in styles) + len(code_head) + len(code_body) + len(state) + len(sprite)
        content_budget = max(0, target - size - filler_size)
        content, got = [], 0
        while got < content_budget:
            c = chunk()
            content.append(c)
            got += self.nbytes(c)
        # Links not used by the content: a tag cloud / "more" list, so that every page has its count.
        rest = self.links.rest()
        more = (f'<section class="more"><h2>{esc(t.title(1, 3))}</h2><ul class="tags">' + "".join(f"<li>{a}</li>" for a in rest)
                + "</ul></section>") if rest else ""
        main_html = main_html.replace("{FILL}", "".join(content), 1)
        doc = ["<!DOCTYPE html>\n" if rng.random() < 0.95 else '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">\n',
               tag_html, "\n<head>\n", "\n".join(head[:1]), "\n"]
        doc += ["\n".join(head[1:]), "\n"] + styles
        if code_head:
            doc.append(f"<script>{code_head}</script>\n")
        doc.append("</head>\n")
        doc.append(f'<body class="{self.kind} {self.kind}-template {" ".join(rng.sample(CLASSES, 3))}">\n')
        if sprite:
            doc.append(sprite)
        doc.append('<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-XXXX" height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>\n')
        doc.append(f'<a class="skip-link" href="#main">Skip to content</a>\n{nav}\n')
        doc.append(f"<!-- {esc(t.sentence(3, 6))} -->\n")
        doc.append(f'<main id="main" class="container">{crumbs_html}\n{main_html}\n{more}\n</main>\n{related}\n{footer}\n')
        if state:
            if rng.random() < 0.6:
                doc.append(f"<script>window.__INITIAL_STATE__ = {state};</script>\n")
            else:
                doc.append(f'<script id="__NEXT_DATA__" type="application/json">{state}</script>\n')
        if code_body:
            doc.append(f'<script type="text/javascript">\n{code_body}\n</script>\n')
        doc.append(f'<script src="/assets/app.{rng.randrange(16**8):08x}.js" defer></script>{analytics}\n')
        if self.sloppy and rng.random() < 0.3:
            doc.append("</div>\n")  # a stray end tag before </body>
        doc.append("</body>\n</html>\n")
        text = "".join(doc)
        data = text.encode(self.charset, errors="xmlcharrefreplace")
        short = self.target - len(data)
        if short > 0:  # the estimate of the fixed parts was high: more of the same content, up to the target
            extra, got = [], 0
            while got < short:
                c = chunk()
                extra.append(c)
                got += self.nbytes(c)
            text = text.replace("\n</main>", "".join(extra) + "\n</main>", 1)
            data = text.encode(self.charset, errors="xmlcharrefreplace")
        if self.charset == "utf-8" and self.bom:
            data = b"\xef\xbb\xbf" + data
        return data


A_HREF = re.compile(rb"<a\s[^>]*?href=", re.I)


def charsets_for(count, rng):
    """Most pages UTF-8; 4% windows-1252, 3% Shift_JIS (at least 2 and 2), placed by the seed."""
    n1252 = max(2, round(count * 0.04))
    nsjis = max(2, round(count * 0.03))
    slots = list(range(count))
    rng.shuffle(slots)
    out = ["utf-8"] * count
    for i in slots[:n1252]:
        out[i] = "windows-1252"
    for i in slots[n1252:n1252 + nsjis]:
        out[i] = "shift_jis"
    return out


def cmd_set(args):
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    n = args.count
    lo, hi = math.log(args.min_bytes), math.log(args.max_bytes)
    sizes = [int(math.exp(lo + (i + rng.random()) / n * (hi - lo))) for i in range(n)]
    kinds = []
    for kind, share in zip(KINDS, KIND_SHARE):
        kinds += [kind] * round(n * share / 100)
    while len(kinds) < n:
        kinds.append("news")
    kinds = kinds[:n]
    rng.shuffle(kinds)
    # The largest four pages are e-commerce product pages (swap kinds with product pages elsewhere).
    for i in range(n - 4, n):
        if kinds[i] != "product":
            j = next((j for j in range(n - 4) if kinds[j] == "product"), None)
            if j is None:
                kinds[i] = "product"
            else:
                kinds[i], kinds[j] = kinds[j], kinds[i]
    charsets = charsets_for(n, rng)
    order = list(range(n))
    rng.shuffle(order)  # file numbers do not follow size
    bom_page = rng.randrange(n)
    manifest = {"seed": args.seed, "count": n, "min_bytes": args.min_bytes, "max_bytes": args.max_bytes, "pages": []}
    for number, i in enumerate(order):
        cs = charsets[i]
        page = Page(random.Random(rng.randrange(2**63)), number, kinds[i], sizes[i], cs)
        page.bom = (i == bom_page and cs == "utf-8")
        data = page.build()
        name = f"{number:03d}-{kinds[i]}.html"
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        manifest["pages"].append({
            "file": name, "kind": kinds[i], "bytes": len(data), "target_bytes": sizes[i], "charset": cs,
            "charset_declared": page.charset_form, "bom": page.bom, "lang": page.lang, "links": page.link_count,
            "syntaxes": page.syntaxes, "quirks": sorted(set(page.quirks)), "smart_app_banner": page.banner,
            "app_links": page.applinks, "twitter": page.twitter, "script_share": round(page.script_share, 3),
            "a_href": len(A_HREF.findall(data)),
        })
    manifest["pages"].sort(key=lambda p: p["file"])
    total = sum(p["bytes"] for p in manifest["pages"])
    manifest["total_bytes"] = total
    with open(os.path.join(args.out, "MANIFEST.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
    by_kind = {}
    for p in manifest["pages"]:
        by_kind[p["kind"]] = by_kind.get(p["kind"], 0) + 1
    sizes_sorted = sorted(p["bytes"] for p in manifest["pages"])
    print(json.dumps({"pages": n, "total_bytes": total, "min_bytes": sizes_sorted[0], "median_bytes": sizes_sorted[n // 2],
                      "max_bytes": sizes_sorted[-1], "kinds": by_kind,
                      "charsets": {c: charsets.count(c) for c in ("utf-8", "windows-1252", "shift_jis")},
                      "links": sum(p["links"] for p in manifest["pages"]),
                      "quirky_pages": sum(1 for p in manifest["pages"] if p["quirks"])}))


# ---------------------------------------------------------------------------------------------
# The linearity page
# ---------------------------------------------------------------------------------------------

def linear_section(rng, t, n, site):
    """One listing card of a long marketplace category page."""
    url = f"https://{site}/p/{t.slug()}-{rng.randrange(10**7)}"
    price = f"{rng.uniform(1, 500):.2f}"
    name = esc(t.title(3, 8))
    links = []
    for _ in range(rng.randint(0, 2)):  # with the name link 1–3 a card: ~7,000 links in 7 MB (searchlight reads up to 10,000)
        r = rng.random()
        href = (f"/c/{t.slug(1, 3)}?page={rng.randint(1, 50)}&amp;sort=price" if r < 0.3 else
                f"{url}#reviews" if r < 0.45 else f"//cdn.{site.split('.', 1)[-1]}/doc/{rng.randrange(10**5)}.pdf" if r < 0.55 else
                f"https://{rng.choice(OTHER_HOSTS)}/{t.slug(1, 2)}" if r < 0.7 else f"/seller/{t.slug(1, 2)}/{rng.randrange(10**4)}")
        links.append(f'<a href="{href}" class="{" ".join(rng.sample(CLASSES, 2))}">{esc(t.title(1, 3))}</a>')
    # Every fourth card RDFa, every fourth plain, the rest microdata: ~6 microdata values a card, so that
    # the full page stays under searchlight's per-page limits (20,000 microdata values, 10,000 links) and
    # every size gets the same work per byte.
    if n % 4 == 1:
        opener = '<article class="card">'
        name_html = f'<h3><a href="{url}">{name}</a></h3>'
        offer = f'<div class="price">{price} €</div>'
    elif n % 4 == 3:
        opener = f'<article class="card" vocab="https://schema.org/" typeof="Product" resource="{url}">'
        name_html = f'<h3 property="name"><a href="{url}">{name}</a></h3>'
        offer = f'<div property="offers" typeof="Offer"><span property="price" content="{price}">{price}</span><meta property="priceCurrency" content="EUR"></div>'
    else:
        opener = f'<article class="card" itemscope itemtype="https://schema.org/Product" itemid="{url}">'
        name_html = f'<h3 itemprop="name"><a itemprop="url" href="{url}">{name}</a></h3>'
        offer = (f'<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="{price}">{price}</span>'
                 f'<meta itemprop="priceCurrency" content="EUR"><link itemprop="availability" href="https://schema.org/InStock"></div>')
        if rng.random() < 0.5:
            offer += (f'<div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating"><meta itemprop="ratingValue" content="{rng.uniform(1, 5):.1f}">'
                      f'<meta itemprop="reviewCount" content="{rng.randint(1, 999)}"></div>')
    data = json.dumps({"id": rng.randrange(10**9), "variants": [{"sku": rng.randrange(10**6), "stock": rng.randrange(50)} for _ in range(rng.randint(1, 6))]},
                      separators=(",", ":"))
    other = Text(rng, rng.choice(["fr", "ja", "de", "zh", "es"]))
    return (f'{opener}{img(rng, t, "img." + site.split(".", 1)[-1], 320, 320)}{name_html}{offer}'
            f'<p class="desc">{t.paragraph(1, 3)} {other.paragraph(1, 1)}</p><ul class="card__links">'
            + "".join(f"<li>{a}</li>" for a in links) + f'</ul>{svg_icon(rng)}<script>window.__cards=window.__cards||[];window.__cards.push({data});</script></article>\n'), (url, name)


def cmd_linear(args):
    rng = random.Random(args.seed * 1000 + 7)
    os.makedirs(args.out, exist_ok=True)
    site = "www.marketplace.example"
    t = Text(rng, "en")
    head = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>All products – page 1 | Marketplace</title>\n'
            '<meta name="description" content="Every product in one long list.">\n'
            f'<link rel="canonical" href="https://{site}/c/all">\n'
            '<meta name="apple-itunes-app" content="app-id=1234567890, app-argument=marketplace://c/all">\n'
            '<meta property="og:type" content="website"><meta property="og:title" content="All products">'
            f'<meta property="og:url" content="https://{site}/c/all"><meta property="og:image" content="https://img.marketplace.example/og.jpg">\n'
            '<meta property="al:ios:url" content="marketplace://c/all"><meta property="al:ios:app_store_id" content="1234567890">'
            '<meta property="al:ios:app_name" content="Marketplace">\n'
            f'<style>{css_text(rng, 20000)}</style>\n</head>\n<body>\n<header><nav><ul>'
            + "".join(f'<li><a href="/c/{t.slug(1, 2)}">{esc(t.title(1, 2))}</a></li>' for _ in range(40))
            + '</ul></nav></header>\n<main><h1>All products</h1><section class="grid">\n')
    sections, names, size = [], [], len(head.encode())
    while size < args.bytes - 4000:
        s, nm = linear_section(rng, t, len(sections), site)
        sections.append(s)
        names.append(nm)
        size += len(s.encode()) + 130  # + its ItemList entry
    footer = ('</section></main>\n<footer><ul>' + "".join(f'<li><a href="/help/{t.slug(1, 2)}">{esc(t.title(1, 2))}</a></li>' for _ in range(30))
              + '</ul></footer>\n<script src="/assets/app.js" defer></script>\n</body>\n</html>\n')

    def page(k):
        item_list = {"@context": "https://schema.org", "@type": "ItemList", "numberOfItems": k, "itemListElement": [
            {"@type": "ListItem", "position": i + 1, "url": u, "name": html.unescape(nm)} for i, (u, nm) in enumerate(names[:k])]}
        ld = f'<script type="application/ld+json">{json.dumps(item_list, ensure_ascii=False)}</script>\n'
        return (head + "".join(sections[:k]) + "</section>\n" + ld + footer[len("</section>"):]).encode()

    full = page(len(sections))
    cumulative, acc = [], len(head.encode())
    for s in sections:
        acc += len(s.encode()) + 130
        cumulative.append(acc)

    def count_for(fraction):
        want = len(full) * fraction
        return next(i + 1 for i, c in enumerate(cumulative) if c >= want)

    out = {}
    for name, data in (("eighth", page(count_for(1 / 8))), ("half", page(count_for(1 / 2))), ("full", full)):
        with open(os.path.join(args.out, f"{name}.html"), "wb") as f:
            f.write(data)
        out[name] = {"file": f"{name}.html", "bytes": len(data), "sections": data.count(b'<article class="card"')}
    with open(os.path.join(args.out, "MANIFEST.json"), "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("set", help="the page set")
    s.add_argument("--out", required=True)
    s.add_argument("--seed", type=int, default=15)
    s.add_argument("--count", type=int, default=120)
    s.add_argument("--min-bytes", type=int, default=10240)
    s.add_argument("--max-bytes", type=int, default=2000000)
    lin = sub.add_parser("linear", help="one long page at 1/8, 1/2 and full size")
    lin.add_argument("--out", required=True)
    lin.add_argument("--seed", type=int, default=15)
    lin.add_argument("--bytes", type=int, default=7000000)
    args = parser.parse_args()
    if args.cmd == "set":
        if args.count < 1 or not 1000 <= args.min_bytes < args.max_bytes:
            sys.exit("extract_pages.py: need --count >= 1 and 1000 <= --min-bytes < --max-bytes")
        cmd_set(args)
    else:
        cmd_linear(args)


if __name__ == "__main__":
    main()
