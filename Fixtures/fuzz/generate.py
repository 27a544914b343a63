#!/usr/bin/env python3
"""Writes the hand-made hostile fuzz inputs in this folder (see README.md for what each is).

Run from this folder: python3 generate.py. The output is deterministic. Each file is a fuzz input as
Fuzz/Sources/ExtractorFuzzer/FuzzInput.swift reads it: one selector byte (bits 0-3 the Content-Type
header, bits 4-6 the X-Robots-Tag headers, bit 7 the page URL), then the page. Minimized fuzzer
findings are added here as they are (crash-*, timeout-*, oom-*), not by this script.
"""

# Selector bits 0-3: index into FuzzInput.contentTypes.
NONE, UTF8, SHIFT_JIS, WINDOWS_1251, BOGUS, NO_CHARSET, UTF16LE, UTF16BE, ISO2022JP, GB18030 = range(10)
EUC_KR, BIG5, ISO2022KR, X_USER_DEFINED, UNCLOSED_QUOTE, JUNK = range(10, 16)
# Selector bits 4-6: index into FuzzInput.robotsTags; bit 7: the second URL.
ROBOTS_NOINDEX, ROBOTS_EMPTY_PIECES, URL_ODD = 0x10, 0x60, 0x80

LD_OPEN = b'<script type="application/ld+json">'
LD_CLOSE = b"</script>"


def microdata_fan_out(levels=24):
    """Every item's itemref names two items, each of which names the next two: a DAG whose tree of
    property values doubles at every level (2^levels items if nothing bounds it)."""
    parts = [b'<!DOCTYPE html><title>fan-out</title><div itemscope itemtype="https://schema.org/Thing" itemref="a0 b0">']
    for level in range(levels):
        refs = f'a{level + 1} b{level + 1}' if level + 1 < levels else ""
        for side in "ab":
            parts.append(
                f'<div id="{side}{level}" itemprop="p{level}" itemscope itemref="{refs}">x</div>'.encode())
    parts.append(b"</div>")
    return bytes([NONE]) + b"".join(parts)


def visible_text_limit():
    """10,001 one-letter words, so that the snippet text reaches its 20,000-character limit with a
    space pending before the next word, then 5,000 more text nodes after the limit."""
    return bytes([NONE]) + b"<title>t</title><p>" + b"a " * 10001 + b"<b>x</b>" * 5000


def microdata_itemprop_names(levels=12):
    """A chain of nested microdata items, each under four names (itemprop="a b c d"): each name holds a
    copy of the item, so the values a report lists grow 4^levels with no itemref at all."""
    opening = b'<div itemprop="a b c d" itemscope itemtype="https://schema.org/Thing">' * levels
    return bytes([NONE]) + b'<div itemscope itemtype="https://schema.org/Thing">' + opening + b"x"


def rdfa_property_names(levels=12):
    """The RDFa form of the same: nested items (typeof) that are each the value of four properties."""
    opening = b'<div typeof="Thing" property="a b c d">' * levels
    return bytes([NONE]) + b'<div vocab="http://schema.org/" typeof="Thing">' + opening + b"x"


def rdfa_deep_chain(depth=1800):
    """Each element both starts an item (typeof) and is a property of its parent: one item nested
    `depth` levels deep, far past any JSON depth limit."""
    opening = b'<span typeof="Thing" property="p">' * depth
    return bytes([NONE]) + b'<!DOCTYPE html><body vocab="http://schema.org/">' + opening + b"leaf"


def jsonld_deep_and_numbers():
    """A block nested just under the parser's depth limit, one just over it, and a rating whose value
    is infinite, whose worst is NaN and whose count is the string "NaN"."""
    under = b"[" * 511 + b"1" + b"]" * 511
    over = b"[" * 600 + b"]" * 600
    rating = (b'{"@context":"https://schema.org","@type":"Product","name":"n","aggregateRating":'
              b'{"@type":"AggregateRating","ratingValue":"1e999","worstRating":"NaN",'
              b'"ratingCount":"NaN","reviewCount":-9223372036854775809}}')
    return bytes([UTF8]) + b"".join(LD_OPEN + block + LD_CLOSE for block in (under, over, rating))


def rating_count_out_of_range():
    """An AggregateRating whose ratingCount (1e30) does not fit in Int."""
    block = (b'{"@context":"https://schema.org","@type":"Product","name":"n","aggregateRating":'
             b'{"@type":"AggregateRating","ratingValue":4,"ratingCount":1e30}}')
    return bytes([NONE]) + LD_OPEN + block + LD_CLOSE


def interaction_count_overflow():
    """A VideoObject whose InteractionCounters say NaN and -infinity, then one whose two counts are each
    below Int.max but sum past it."""
    counter = b'{"@type":"InteractionCounter","userInteractionCount":%s}'
    blocks = [
        b'{"@context":"https://schema.org","@type":"VideoObject","name":"v","interactionStatistic":[%s,%s]}'
        % (counter % b'"NaN"', counter % b"-1e999"),
        b'{"@context":"https://schema.org","@type":"VideoObject","name":"w","interactionStatistic":[%s,%s]}'
        % (counter % b"9e18", counter % b'"9000000000000000000"'),
    ]
    return bytes([NONE]) + b"".join(LD_OPEN + block + LD_CLOSE for block in blocks)


def jsonld_wrapper_storm():
    """Wrappers the repairs remove, repeated far past their round limit, an unclosed /*, and an
    entity-escaped block full of invalid and out-of-range character references."""
    storm = b";-->" * 2000 + b"//]]>\n" * 200 + b"/*" + b"{" * 50
    entities = (b"{&quot;@type&quot;:&quot;Thing&quot;,&quot;name&quot;:&quot;&#0;&#xD800;&#x110000;"
                b"&#99999999999999999999;&#x;&amp&quot;&lt;&gt;&nbsp;&quot;,}")
    comments = b"<!--//<![CDATA[\n/* " + b"*" * 3000 + b"\n{\"a\":1}//]]>-->"
    return bytes([NONE]) + b"".join(LD_OPEN + block + LD_CLOSE for block in (storm, entities, comments))


def iso2022jp_escapes():
    """ISO-2022-JP (header) with escape sequences switching mid-character, invalid escapes, shift
    bytes, and a page that ends inside a two-byte character."""
    body = (b"<title>\x1b$B$3$s\x1b(B ok \x1b$@\x1b$(D\x1b(J\x1b(I\x0e\x0f\x1b$Bx</title>"
            b"<p>" + b"\x1b$B" * 500 + b"\x1b(B\x1b\x1b$" + b"\x1b$B%" )
    return bytes([ISO2022JP | ROBOTS_NOINDEX]) + body


def utf16_odd():
    """UTF-16LE by header with a UTF-16BE byte order mark, lone surrogates in both orders, a <meta>
    claiming UTF-8, and an odd number of bytes."""
    text = '<meta charset="utf-8"><title>ÿ\u00e9</title><a href="/x">'.encode("utf-16le")
    return bytes([UTF16LE]) + b"\xfe\xff" + text + b"\x00\xd8\x00\xdc\xff\xdf\x41\x00\x00\xd8" + b"<"


def prescan_torture():
    """The meta prescan at its edges: a comment closed the tokenizer's way (--!>) but not the
    prescan's, an unclosed one, attribute soup, a charset split across the
    1024-byte boundary, and a late declaration of the "replacement" encoding; bogus header charset."""
    head = b"<!DOCTYPE html><!-- <meta charset=utf-8> --!><!--" + b"<meta " + b"a=" * 600
    head = head[:1005] + b'<meta charset="shift_'  # the label crosses byte 1024
    late = b'jis"><p>' + b"\x82\xa0" * 20 + b'<meta charset="iso-2022-kr"><meta http-equiv=content-type content="charset=\'">'
    return bytes([BOGUS | ROBOTS_EMPTY_PIECES]) + head + late


def urls_and_meta():
    """Odd <base> and link targets (IPv6, bad ports, percent junk, schemes, tabs and newlines) with the
    odd page URL, meta tags with many properties, and a Smart App Banner without values."""
    hrefs = ["//[::1", "http://[::1]:99999/", "http://%zz/", "https://xn--/", "\t\n//a\tb\n/c", "?" * 3000,
             "javascript:alert(1)", "data:,x", "mailto:", "http:", "https://example.com:-1/", "\u00e9\u0000x"]
    links = "".join(f'<a href="{href}">l</a><link rel="canonical alternate icon" href="{href}">' for href in hrefs)
    meta = ('<base href="http://[fe80::1%25en0]/">'
            '<meta property="og:title og:description og:image og:url al:ios:url twitter:title" content="\u0000">'
            '<meta name="apple-itunes-app" content="app-id=, app-argument=, ,,==,">'
            '<meta name="robots" content=",,,none,">')
    return bytes([UTF8 | URL_ODD]) + (meta + links).encode("utf-8", "surrogatepass")


def control_and_invalid_utf8():
    """Control characters, NULs and invalid UTF-8 in the title, attribute values and JSON-LD strings
    (the report must escape them), with the page declared UTF-8."""
    return (bytes([UTF8])
            + b"<title>\x00\x01\x1f\x7f\"\\\xc0\x80\xed\xa0\x80\xf4\x90\x80\x80</title>"
            + b'<meta name="description" content="\x0b\x0c\x1b\x00">'
            + LD_OPEN + b'{"name":"\x01\x02\t\n\\u0000\\ud800\\udc00x","@type":"\x00"}' + LD_CLOSE)


def microdata_fanout_crawl_work(levels=24, subtree=3000):
    """The itemref fan-out again, but every item also names one shared 3,000-element subtree: each of
    the (value-budget-bounded) paths re-crawled that subtree, so the crawl, not the values, grew."""
    parts = [b'<div id="big">' + b"<i></i>" * subtree + b'</div><div itemscope itemref="a0 b0 big">']
    for level in range(levels):
        refs = f"a{level + 1} b{level + 1} big" if level + 1 < levels else "big"
        for side in "ab":
            parts.append(
                f'<div id="{side}{level}" itemprop="p{level}" itemscope itemref="{refs}">x</div>'.encode())
    parts.append(b"</div>")
    return bytes([NONE]) + b"".join(parts)


def base_href_amplification(length=30000, links=3300):
    """A 30,000-character <base href> and 3,300 relative links: each resolved link was as long as the
    base (100 MB of links from a 63 KB page)."""
    base = b'<base href="https://example.com/' + b"a" * length + b'/">'
    return bytes([NONE]) + base + b"<a href=x>" * links


INPUTS = {
    "microdata-itemref-fan-out": microdata_fan_out(),
    "microdata-itemprop-names": microdata_itemprop_names(),
    "visible-text-limit": visible_text_limit(),
    "rdfa-deep-chain": rdfa_deep_chain(),
    "rdfa-property-names": rdfa_property_names(),
    "jsonld-depth-and-numbers": jsonld_deep_and_numbers(),
    "rating-count-out-of-range": rating_count_out_of_range(),
    "interaction-count-overflow": interaction_count_overflow(),
    "jsonld-wrapper-storm": jsonld_wrapper_storm(),
    "iso-2022-jp-escapes": iso2022jp_escapes(),
    "utf-16-odd-bytes": utf16_odd(),
    "prescan-torture": prescan_torture(),
    "urls-and-meta": urls_and_meta(),
    "control-and-invalid-utf8": control_and_invalid_utf8(),
    "microdata-fanout-crawl-work": microdata_fanout_crawl_work(),
    "base-href-amplification": base_href_amplification(),
}

for name, data in INPUTS.items():
    with open(name, "wb") as out:
        out.write(data)
