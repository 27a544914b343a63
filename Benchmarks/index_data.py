#!/usr/bin/env python3
"""Data, search timing and the report of the index benchmark (Benchmarks/index.sh).

    python3 Benchmarks/index_data.py donations --store TEMPLATE.sqlite --records 1000000 --out DIR [--seed 11]
    python3 Benchmarks/index_data.py sqlsearch --store STORE --queries DIR/queries.jsonl --mode fts|like --out RUN.json
    python3 Benchmarks/index_data.py clisearch --lines OUT.jsonl --queries DIR/queries.jsonl --out RUN.json
    python3 Benchmarks/index_data.py stats --store STORE | --postgres URL [--psql PATH] --out STATS.json
    python3 Benchmarks/index_data.py server-cpu --postmaster PID [--settle DATABASE]
    python3 Benchmarks/index_data.py report RUN_DIR...
    python3 Benchmarks/index_data.py verdict RUN_DIR...

`donations` reads the crawled pages of a store (the benchmark's template, crawled from the
crawl_site.py site) and writes, from one seeded random.Random (same arguments, same bytes):

  DIR/donations.jsonl   RECORDS records in SPEC §6's shapes (see `plan` below for the mix)
  DIR/change.jsonl      RECORDS / 100 records that change 1% of it: new titles and descriptions for
                        existing activities, new donors, new activities, deletions
  DIR/queries.jsonl     the fixed query mix: {"kind", "text"|"query", "words"} per line
  DIR/queries.txt       the same mix in `searchlight search --queries` form (free text, or `q:` + a
                        CSSearchQuery string)
  DIR/manifest.json     what was generated, by kind

The words of titles, descriptions and keywords come from a made-up vocabulary of 20,000 words
drawn with Zipf weights (1/rank), so a search meets very common words (rank 1 is in most items),
mid-frequency and rare ones. About 2% of the words carry a diacritic (`remove_diacritics` matters).

`sqlsearch` times the query mix through Python's sqlite3 (the system libsqlite3, which the
searchlight binary links too) on a published store: `fts` runs the SQL of Sources/Index/
PublicSearch.swift (count probe up to the rank budget, exact count beyond, bm25 + boost ranking of
at most the budget's most recent matches, top 20); `like` runs the same words as
`(title LIKE '%w%' OR description LIKE '%w%' OR keywords LIKE '%w%')` AND-ed per word, best 20 by
boost, plus the count. `clisearch` reads `searchlight search --queries` output (elapsedMs measured
in that process), on either engine (on PostgreSQL from the store's synced replica). Both report
nearest-rank p50/p99/max per kind and overall.

A run folder (index.sh) holds its `engine` (sqlite or postgres) and `label`; `report` prints one
table of every run's steps (on PostgreSQL with the replica's first build and sync), both engines
side by side, the targets (IMPORT_PUBLISH_S and the rest) and the search latencies, with the
PostgreSQL replica's latencies as a ratio of SQLite's in the same run; `verdict` exits 1 when a
target is missed. `server-cpu` reads a PostgreSQL cluster's CPU seconds from /proc (see its doc
comment).
"""
import argparse
import bisect
import itertools
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time

# bench_common.py sits next to this file; importing it must not leave a __pycache__ in the repository.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import percentile, postgres_cpu_seconds, table_head  # noqa: E402

SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"] + ["qu" + v for v in "aei"] + ["ny", "sh", "th"]
ACCENTS = {"a": "á", "e": "é", "i": "í", "o": "ö", "u": "ü"}
VOCABULARY = 20_000
DONORS = 200_000  # devices; a repeated activity gets distinct donors from this pool
APPS = 300  # bundles of the donated (no-URL) activities
WEB_BUNDLE = "com.example.market"  # the app of the crawled site: activities with its webpageURLs
DOC_BUNDLE = "com.example.docs"  # searchable items and the activities that name them
RETIRED_BUNDLE = "com.example.retired"  # deleted with `"all": true` near the end of the file
FUTURE = "2030-01-01T00:00:00Z"
PAST = "2021-06-01T00:00:00Z"

# Share of the records, by kind (the rest are donated activities without a webpageURL).
SHARES = {
    "web": 0.05,  # userActivity whose webpageURL is a crawled page, maybe spelled differently
    "pending": 0.004,  # userActivity whose webpageURL was never crawled (queued, not published)
    "item": 0.02,  # searchableItem (on-device content, for linking only)
    "linked": 0.02,  # userActivity naming a searchable item as relatedUniqueIdentifier
    "retired": 0.002,  # activities of a bundle that a `delete all` removes
    "ineligible": 0.007,  # isEligibleForPublicIndexing false: counted, content never stored
    "expired": 0.005,  # expirationDate in the past
    "noidentity": 0.003,  # neither webpageURL, persistentIdentifier nor requiredUserInfoKeys
    "delete": 0.001,  # delete records (by identifiers, by domain, all), at the end of the file
}
REPEAT_SHARE = 0.06  # of the no-URL activities: another donor of an already popular activity


def make_vocabulary(rng):
    words, seen = [], set()
    while len(words) < VOCABULARY:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 2, 3, 3, 3, 4))))
        if rng.random() < 0.02:
            i = rng.randrange(len(word))
            word = word[:i] + ACCENTS.get(word[i], word[i]) + word[i + 1:]
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


class Text:
    """Zipf-distributed words (weight 1/rank) from the vocabulary.

    With `cjk_share`, that share of titles, descriptions and keyword lists is instead made of made-up
    Japanese/Chinese words run together (search_data.py's vocabulary), drawn from a second generator:
    the Latin text drawn is the same as without them, only replaced."""

    def __init__(self, rng, cjk_share=0.0, cjk_seed=0):
        self.rng = rng
        self.words = make_vocabulary(rng)
        self.cumulative = list(itertools.accumulate(1.0 / rank for rank in range(1, VOCABULARY + 1)))
        self.cjk_share = cjk_share
        if cjk_share:
            from search_data import PARTICLES, cjk_vocabulary
            self.cjk_rng = random.Random(cjk_seed)
            self.cjk_words = cjk_vocabulary(self.cjk_rng, 5_000)
            self.cjk_cumulative = list(itertools.accumulate(1.0 / rank for rank in range(1, 5_001)))
            self.particles = PARTICLES

    def sample(self, count):
        return self.rng.choices(self.words, cum_weights=self.cumulative, k=count)

    def cjk(self, count):
        """`count` words without spaces, run together with a particle between some, or None."""
        if not self.cjk_share or self.cjk_rng.random() >= self.cjk_share:
            return None
        words = self.cjk_rng.choices(self.cjk_words, cum_weights=self.cjk_cumulative, k=count)
        return "".join(w + (self.cjk_rng.choice(self.particles) if self.cjk_rng.random() < 0.3 else "") for w in words)

    def title(self):
        latin = " ".join(self.sample(self.rng.randint(2, 7))).capitalize()
        return self.cjk(len(latin.split()) or 1) or latin

    def description(self):
        latin = " ".join(self.sample(self.rng.randint(8, 30))).capitalize() + "."
        cjk = self.cjk(len(latin.split()))
        return cjk + "。" if cjk else latin

    def keywords(self):
        latin = self.sample(self.rng.randint(0, 5))
        cjk = self.cjk(1) if latin else None
        return [cjk] + latin[1:] if cjk else latin


def page_urls(store):
    """URLs of the store's public pages (2xx, indexable, with a title), in a stable order."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT url FROM page WHERE http_status BETWEEN 200 AND 299 AND is_indexable = 1 AND is_gone = 0 "
            "AND title IS NOT NULL ORDER BY url").fetchall()
    finally:
        db.close()
    return [row[0] for row in rows]


def spell(rng, url):
    """The page's URL as an app might donate it: exact, or differing only in what canonicalization
    removes or normalizes (tracking parameters, fragment, case, dot segments, percent-encoding)."""
    scheme, rest = url.split("://", 1)
    host, _, path = rest.partition("/")
    path = "/" + path
    roll = rng.random()
    if roll < 0.50:
        return url, "exact"
    if roll < 0.65:
        return f"{url}?utm_source=app&utm_medium=share&utm_campaign=c{rng.randrange(50)}", "utm"
    if roll < 0.75:
        return f"{url}#section-{rng.randrange(9)}", "fragment"
    if roll < 0.80:
        return f"{url}?gclid=G{rng.randrange(10**6)}&fbclid=F{rng.randrange(10**6)}", "gclid"
    if roll < 0.88:
        return f"{scheme.upper()}://{host.upper()}{path}", "case"
    if roll < 0.94:
        head, _, tail = path.rpartition("/")
        return f"{scheme}://{host}{head}/./{tail}", "dot-segment"
    # Percent-encode the first character of the file name (an unreserved character: decoded).
    head, _, tail = path.rpartition("/")
    return f"{scheme}://{host}{head}/%{ord(tail[0]):02X}{tail[1:]}", "percent"


class Generator:
    def __init__(self, args, urls):
        self.rng = random.Random(args.seed)
        self.text = Text(self.rng, args.cjk_share, args.seed + 2)
        self.urls = urls
        self.records = args.records
        origin = urls[0].split("://", 1)[1].split("/", 1)[0]
        self.origin = urls[0].split("://", 1)[0] + "://" + origin
        # Page popularity: Zipf over a shuffled order, so popular pages get several donors.
        order = list(range(len(urls)))
        self.rng.shuffle(order)
        self.page_order = order
        self.page_cumulative = list(itertools.accumulate(1.0 / (r + 1) ** 0.8 for r in range(len(urls))))
        self.counts = {kind: int(round(self.records * share)) for kind, share in SHARES.items()}
        self.counts["activity"] = self.records - sum(self.counts.values())
        self.popular = max(10, self.records // 200)  # the popular activities a repeat picks from
        self.popular_cumulative = list(itertools.accumulate(1.0 / (r + 1) for r in range(self.popular)))
        self.items = self.counts["item"]
        self.domains = [f"docs.s{s}.t{t}" for s in range(20) for t in range(10)]
        self.manifest = {"records": self.records, "by_kind": dict(self.counts), "url_spellings": {},
                         "pages": len(urls), "seed": args.seed}
        self.fresh = 0  # unique no-URL activities made so far
        self.retired = 0

    def donor(self):
        return f"device-{self.rng.randrange(DONORS):06x}"

    def page(self):
        rank = bisect.bisect(self.page_cumulative, self.rng.random() * self.page_cumulative[-1])
        return self.urls[self.page_order[min(rank, len(self.urls) - 1)]]

    def activity(self, n, donor, bundle=None, **extra):
        """A no-URL activity, identity n: a persistentIdentifier for two thirds, required user info
        (`id`) for the rest; the content is a function of n and the rng's state (a repeat donor of
        a popular activity may describe it a little differently, as real donations do)."""
        bundle = bundle or f"com.example.app{n % APPS}"
        title = self.text.title()
        record = {
            "type": "userActivity", "bundleIdentifier": bundle, "donor": donor,
            "activityType": f"{bundle}.view", "title": title,
            "userInfo": {"id": str(n), "session": f"s{self.rng.randrange(10**6)}"},
            "requiredUserInfoKeys": ["id"],
            "keywords": self.text.keywords(),
        }
        if n % 3 != 2:
            record["persistentIdentifier"] = f"a-{n}"
        record.update({
            "expirationDate": FUTURE, "isEligibleForSearch": True, "isEligibleForPublicIndexing": True,
            "isEligibleForHandoff": False, "isEligibleForPrediction": True,
            "contentAttributeSet": {"title": title, "contentDescription": self.text.description(),
                                    "domainIdentifier": f"{bundle}.d{n % 7}"},
        })
        if n % 5 == 0:
            record["contentAttributeSet"]["rating"] = round(1 + 4 * self.rng.random(), 1)
            record["contentAttributeSet"]["ratingCount"] = self.rng.randrange(1, 5000)
        record.update(extra)
        return record

    def web(self):
        url, how = spell(self.rng, self.page())
        self.manifest["url_spellings"][how] = self.manifest["url_spellings"].get(how, 0) + 1
        title = self.text.title()
        return {
            "type": "userActivity", "bundleIdentifier": WEB_BUNDLE, "donor": self.donor(),
            "activityType": f"{WEB_BUNDLE}.browse", "title": title, "webpageURL": url,
            "keywords": self.text.keywords(), "expirationDate": FUTURE, "isEligibleForSearch": True,
            "isEligibleForPublicIndexing": True, "isEligibleForHandoff": True, "isEligibleForPrediction": False,
            "contentAttributeSet": {"title": title, "contentDescription": self.text.description()},
        }

    def pending(self):
        # A page of the same site that was never crawled; parameters in either order (the same key).
        n = self.rng.randrange(max(1, self.counts["pending"] // 3))
        query = f"lang=en&ref=app{n % 4}" if self.rng.random() < 0.5 else f"ref=app{n % 4}&lang=en"
        record = self.web()
        record["webpageURL"] = f"{self.origin}/new/{n}.html?{query}"
        return record

    def item(self, j):
        return {
            "type": "searchableItem", "bundleIdentifier": DOC_BUNDLE, "uniqueIdentifier": f"doc-{j}",
            "domainIdentifier": self.domains[j % len(self.domains)], "expirationDate": FUTURE,
            "attributeSet": {"title": self.text.title(), "contentDescription": self.text.description(),
                             "keywords": self.text.keywords()},
        }

    def linked(self, j):
        # One activity per searchable item; one in twenty names an item that was never donated (withheld
        # at publish), one in twenty only a weakRelatedUniqueIdentifier (needs no item).
        record = self.activity(10_000_000 + j, self.donor(), bundle=DOC_BUNDLE)
        attributes = record["contentAttributeSet"]
        attributes["domainIdentifier"] = self.domains[j % len(self.domains)]
        if j % 20 == 7:
            attributes["relatedUniqueIdentifier"] = f"doc-missing-{j}"
        elif j % 20 == 11:
            attributes["weakRelatedUniqueIdentifier"] = f"doc-missing-{j}"
        else:
            attributes["relatedUniqueIdentifier"] = f"doc-{j % max(1, self.items)}"
        return record

    def plain(self):
        """A no-URL activity: a new one, or (REPEAT_SHARE) another donor of a popular one."""
        if self.rng.random() < REPEAT_SHARE:
            rank = bisect.bisect(self.popular_cumulative, self.rng.random() * self.popular_cumulative[-1])
            return self.activity(min(rank, self.popular - 1), self.donor()), False
        self.fresh += 1
        return self.activity(self.popular + self.fresh, self.donor()), True

    def make(self, kind, index):
        if kind == "activity":
            return self.plain()[0]
        if kind == "web":
            return self.web()
        if kind == "pending":
            return self.pending()
        if kind == "item":
            return self.item(index)
        if kind == "linked":
            return self.linked(index)
        if kind == "retired":
            self.retired += 1
            return self.activity(20_000_000 + self.retired, self.donor(), bundle=RETIRED_BUNDLE)
        if kind == "ineligible":
            return self.activity(30_000_000 + index, self.donor(), isEligibleForPublicIndexing=False)
        if kind == "expired":
            return self.activity(40_000_000 + index, self.donor(), expirationDate=PAST)
        if kind == "noidentity":
            record = self.activity(50_000_000 + index, self.donor())
            for key in ("persistentIdentifier", "requiredUserInfoKeys", "userInfo"):
                record.pop(key, None)
            return record
        if kind == "delete":
            return self.deletion(index)
        raise ValueError(kind)

    def deletion(self, index):
        if index == 0:
            return {"type": "delete", "bundleIdentifier": RETIRED_BUNDLE, "all": True}
        if index % 20 == 1:
            domain = self.domains[self.rng.randrange(len(self.domains))]
            return {"type": "delete", "bundleIdentifier": DOC_BUNDLE, "domainIdentifiers": [domain.rsplit(".", 1)[0]
                                                                                          if index % 40 == 1 else domain]}
        ids = [f"doc-{self.rng.randrange(max(1, self.items))}" for _ in range(self.rng.randint(1, 3))]
        return {"type": "delete", "bundleIdentifier": DOC_BUNDLE, "uniqueIdentifiers": ids}


def dump(record):
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def cmd_donations(args):
    started = time.perf_counter()
    urls = page_urls(args.store)
    if not urls:
        sys.exit(f"{args.store}: no public pages")
    gen = Generator(args, urls)
    rng = gen.rng
    # The order of kinds: everything shuffled, deletions at the end (a deletion applies to what is
    # already in the store, as on a device).
    kinds = [kind for kind, count in gen.counts.items() if kind != "delete" for _ in range(count)]
    rng.shuffle(kinds)
    kinds += ["delete"] * gen.counts["delete"]
    index = {kind: 0 for kind in gen.counts}
    change_count = max(1, args.records // 100)
    # Records whose content the change file rewrites: a sample of the unique no-URL activities.
    retitle_target = int(change_count * 0.7)
    retitle_every = max(1, int(gen.counts["activity"] * (1 - REPEAT_SHARE)) // max(1, retitle_target))
    retitle = []
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "donations.jsonl"), "w", encoding="utf-8") as out:
        buffer = []
        for kind in kinds:
            if kind == "activity":
                record, fresh = gen.plain()
                if fresh and gen.fresh % retitle_every == 0 and len(retitle) < retitle_target:
                    retitle.append(record)
            else:
                record = gen.make(kind, index[kind])
            index[kind] += 1
            buffer.append(dump(record))
            if len(buffer) >= 10_000:
                out.write("".join(buffer))
                buffer = []
        out.write("".join(buffer))
    # The 1% change: new content for existing activities (same identity and donor), new donors of
    # web activities, new activities, and deletions of searchable items (and their activities).
    change = []
    for record in retitle:
        record = dict(record)
        title = gen.text.title()
        record["title"] = title
        record["contentAttributeSet"] = dict(record["contentAttributeSet"], title=title,
                                             contentDescription=gen.text.description())
        change.append(record)
    rest = change_count - len(change)
    for _ in range(rest // 3):
        change.append(gen.web())
    for _ in range(rest // 3):
        gen.fresh += 1
        change.append(gen.activity(60_000_000 + gen.fresh, gen.donor()))
    while len(change) < change_count:
        ids = [f"doc-{rng.randrange(max(1, gen.items))}" for _ in range(rng.randint(1, 3))]
        change.append({"type": "delete", "bundleIdentifier": DOC_BUNDLE, "uniqueIdentifiers": ids})
    with open(os.path.join(args.out, "change.jsonl"), "w", encoding="utf-8") as out:
        out.write("".join(dump(r) for r in change))
    queries = query_mix(gen.text.words, random.Random(args.seed + 1))
    with open(os.path.join(args.out, "queries.jsonl"), "w", encoding="utf-8") as out:
        out.write("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in queries))
    with open(os.path.join(args.out, "queries.txt"), "w", encoding="utf-8") as out:
        out.write("".join(("q:" + q["query"] if "query" in q else q["text"]) + "\n" for q in queries))
    manifest = gen.manifest
    manifest.update({
        "unique_plain_activities": gen.fresh, "popular_activities": gen.popular,
        "change_records": len(change), "change_retitled": len(retitle), "queries": len(queries),
        "bytes": os.path.getsize(os.path.join(args.out, "donations.jsonl")),
        "generate_s": round(time.perf_counter() - started, 1),
    })
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(json.dumps(manifest))


def query_mix(words, rng):
    """The fixed mix: 10 queries of each kind, words picked by frequency rank."""
    mix = []
    for i in range(10):
        common = words[1 + i * 3]  # ranks 2..29: in a large share of items
        mid = words[300 + i * 70]
        rare = words[10_000 + i * 900]
        mix.append({"kind": "common word", "text": common, "words": [common]})
        mix.append({"kind": "rare word", "text": rare, "words": [rare]})
        mix.append({"kind": "mid word", "text": mid, "words": [mid]})
        pair = [words[5 + i * 2], words[150 + i * 40]]
        mix.append({"kind": "two words", "text": " ".join(pair), "words": pair})
        two = words[40 + i * 11][:2]
        three = words[700 + i * 53][:3]
        mix.append({"kind": "2-letter prefix", "text": two, "words": [two], "prefix": True})
        mix.append({"kind": "3-letter prefix", "text": three, "words": [three], "prefix": True})
        # A CSSearchQuery: case- and diacritic-insensitive title prefix on a mid word, within a bundle
        # range of ratings.
        word = words[200 + i * 97]
        mix.append({"kind": "CSSearchQuery", "query": f'title == "{word}*"cd && rating >= 2', "words": [word]})
    return mix


# --- search timing ---------------------------------------------------------------------------------

RANK_BUDGET = 5000  # PublicSearch.rankBudget
WEIGHTS = (10.0, 1.0, 5.0)  # PublicSearch.columnWeights
HIT_COLUMNS = "item.unique_identifier, item.title, item.description, item.webpage_url, item.sources"


def fts_match(words):
    return " AND ".join('"' + w.replace('"', '""') + '"' + ("*" if len(w) > 1 else "") for w in words)


def fts_search(db, words, limit=20):
    """PublicSearch.Plan.run (free text, no CSSearchQuery), statement for statement."""
    match = fts_match(words)
    frm = "public_fts JOIN public_item AS item ON item.id = public_fts.rowid WHERE public_fts MATCH ?"
    probe = db.execute(f"SELECT count(*) FROM (SELECT 1 FROM {frm} LIMIT ?)", (match, RANK_BUDGET + 1)).fetchone()[0]
    if probe == 0:
        return 0, []
    total = probe if probe <= RANK_BUDGET else db.execute(f"SELECT count(*) FROM {frm}", (match,)).fetchone()[0]
    score = f"item.boost - bm25(public_fts, {WEIGHTS[0]}, {WEIGHTS[1]}, {WEIGHTS[2]})"
    candidates = frm if probe <= RANK_BUDGET else f"{frm} ORDER BY public_fts.rowid DESC LIMIT {RANK_BUDGET}"
    sql = (f"SELECT * FROM (SELECT {HIT_COLUMNS}, {score} AS score, item.id AS id FROM {candidates}) "
           "ORDER BY score DESC, id LIMIT ?")
    return total, db.execute(sql, (match, limit)).fetchall()


def like_search(db, words, limit=20):
    """The same words as substring scans of the three columns, AND-ed per word."""
    condition = " AND ".join("(item.title LIKE ? OR item.description LIKE ? OR item.keywords LIKE ?)" for _ in words)
    arguments = [f"%{w}%" for w in words for _ in range(3)]
    total = db.execute(f"SELECT count(*) FROM public_item AS item WHERE {condition}", arguments).fetchone()[0]
    rows = db.execute(f"SELECT {HIT_COLUMNS}, item.boost AS score FROM public_item AS item WHERE {condition} "
                      "ORDER BY score DESC, item.id LIMIT ?", arguments + [limit]).fetchall()
    return total, rows


def summarize(samples):
    """{kind: {n, p50, p99, max}} and "all", nearest-rank, in milliseconds."""
    by_kind = {}
    for kind, ms in samples:
        by_kind.setdefault(kind, []).append(ms)
    out = {}
    for kind, values in list(by_kind.items()) + [("all", [ms for _, ms in samples])]:
        if values:
            out[kind] = {"n": len(values), "p50": percentile(values, 0.5), "p99": percentile(values, 0.99),
                         "max": max(values), "mean": statistics.fmean(values)}
    return out


def load_queries(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def cmd_sqlsearch(args):
    queries = [q for q in load_queries(args.queries) if "text" in q]
    db = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
    search = fts_search if args.mode == "fts" else like_search
    samples, totals = [], {}
    # Warm-up, not counted: every FTS query once (page cache, statement preparation); one LIKE query
    # (each is a full scan, which reads the whole table anyway).
    for q in queries if args.mode == "fts" else queries[:1]:
        search(db, q["words"])
    for _ in range(args.repeat):
        for q in queries:
            started = time.perf_counter()
            total, _rows = search(db, q["words"])
            samples.append((q["kind"], (time.perf_counter() - started) * 1000))
            totals[q["text"]] = total
    db.close()
    result = {"mode": args.mode, "repeat": args.repeat, "summary": summarize(samples),
              "totals": {q["text"]: totals.get(q["text"]) for q in queries}}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1, ensure_ascii=False)


def cmd_clisearch(args):
    queries = load_queries(args.queries)
    kinds = [q["kind"] for q in queries]
    samples, errors, totals = [], [], {}
    with open(args.lines, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            kind = kinds[(row["line"] - 1) % len(kinds)]
            if "error" in row:
                errors.append(row)
                continue
            samples.append((kind, row["elapsedMs"]))
            totals[row["query"]] = row.get("total")
    result = {"mode": "searchlight", "summary": summarize(samples), "errors": errors[:5], "error_count": len(errors),
              "totals": totals}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1, ensure_ascii=False)
    if errors:
        print(f"clisearch: {len(errors)} queries failed, e.g. {errors[0]}", file=sys.stderr)


STATS_COUNTS = {
    "public_items": "SELECT count(*) FROM public_item",
    "clusters": "SELECT count(*) FROM cluster",
    "activities": "SELECT count(*) FROM activity",
    "donations": "SELECT count(*) FROM donation",
    "app_items": "SELECT count(*) FROM app_item",
    "withheld_records": "SELECT count(*) FROM withheld_record",
    "pending_urls": "SELECT count(*) FROM pending_url",
    "pages": "SELECT count(*) FROM page",
}
SOURCES_SQL = "SELECT sources, count(*) FROM public_item GROUP BY sources"


def postgres_rows(psql, url, sql):
    """The rows of one query, through psql (unaligned, tab-separated)."""
    out = subprocess.run([psql, "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def cmd_stats(args):
    if args.postgres:
        one = lambda sql: int(postgres_rows(args.psql, args.postgres, sql)[0][0])
        stats = {name: one(sql) for name, sql in STATS_COUNTS.items()}
        stats["sources"] = {k: int(v) for k, v in postgres_rows(args.psql, args.postgres, SOURCES_SQL)}
        stats["store_bytes"] = one("SELECT pg_database_size(current_database())")
    else:
        db = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
        one = lambda sql: db.execute(sql).fetchone()[0]
        stats = {name: one(sql) for name, sql in STATS_COUNTS.items()}
        stats["sources"] = dict(db.execute(SOURCES_SQL).fetchall())
        stats["store_bytes"] = os.path.getsize(args.store) + (os.path.getsize(args.store + "-wal")
                                                              if os.path.exists(args.store + "-wal") else 0)
        db.close()
    with open(args.out, "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps(stats))


def cmd_server_cpu(args):
    """User+sys seconds of a PostgreSQL cluster so far (bench_common.postgres_cpu_seconds): with --settle,
    once the backends of that database have ended (up to 10 s), so a step's connections count."""
    print(f"{postgres_cpu_seconds(args.postmaster, args.settle):.2f}")


# --- report ------------------------------------------------------------------------------------------

def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def summary_of(stdout_path):
    """The --json summary searchlight printed (the last line that parses)."""
    try:
        with open(stdout_path, encoding="utf-8", errors="replace") as f:
            lines = [line for line in f.read().splitlines() if line.startswith("{")]
        return json.loads(lines[-1]) if lines else {}
    except (OSError, ValueError):
        return {}


# Targets (SPEC §8, at one million records). Import + full publish wall seconds per engine; SQLite's
# search p99 in milliseconds; on PostgreSQL, steps' wall seconds and the replica's search p99 as a
# multiple of SQLite's in the same run.
IMPORT_PUBLISH_S = {"sqlite": 60, "postgres": 120}
SQLITE_SEARCH_P99_MS = 5
POSTGRES_STEP_TARGETS = (("publish-change", "incremental publish, wall s", 15),
                         ("replica-build", "replica first build (`sync`), wall s", 90),
                         ("replica-sync", "replica sync after the 1% publish, wall s", 5))
REPLICA_SEARCH_RATIO = 1.2
ENGINE_NAMES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}
SEARCH_KINDS = ["common word", "mid word", "rare word", "two words", "2-letter prefix", "3-letter prefix",
                "CSSearchQuery", "all"]
STEPS = (("import", "import (1M)"), ("publish", "publish, full"), ("replica-build", "replica first build (sync)"),
         ("import-change", "import of the 1% change"), ("publish-change", "publish, incremental"),
         ("replica-sync", "replica sync after the 1% publish"))


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return None


def run_info(run_dir):
    """(label, engine) of a run folder (index.sh writes both; older folders are SQLite runs)."""
    name = os.path.basename(run_dir.rstrip("/"))
    return read_text(os.path.join(run_dir, "label")) or name, read_text(os.path.join(run_dir, "engine")) or "sqlite"


def main_search(run_dir):
    """The search measurement a target is checked on: searchlight's own, else (SQLite) the FTS5 SQL."""
    for mode in ("searchlight", "fts"):
        r = read_json(os.path.join(run_dir, f"search-{mode}.json"))
        if r and r["summary"].get("all"):
            return mode, r
    return None, None


def step_wall(run_dir, *steps):
    """The steps' summed wall seconds, or None when one is missing or failed."""
    ms = [read_json(os.path.join(run_dir, step + ".json")) for step in steps]
    return sum(m["wall_s"] for m in ms) if all(m and m.get("exit") == 0 for m in ms) else None


def target_rows(runs):
    """Per run and target: (label, engine, target, measured, limit, ok: True, False or None = not checked)."""
    sqlite_p99 = {}
    for run_dir in runs:
        label, engine = run_info(run_dir)
        _, r = main_search(run_dir)
        if engine == "sqlite" and r:
            sqlite_p99[label] = r["summary"]["all"]["p99"]
    rows = []
    for run_dir in runs:
        label, engine = run_info(run_dir)
        name = ENGINE_NAMES[engine]

        def seconds(step_names, target, limit):
            wall = step_wall(run_dir, *step_names)
            rows.append((label, name, target, f"{wall:.1f}" if wall is not None else "failed", f"< {limit}",
                         wall is not None and wall < limit))

        seconds(("import", "publish"), "import + full publish, wall s", IMPORT_PUBLISH_S[engine])
        if engine == "postgres":
            for step, target, limit in POSTGRES_STEP_TARGETS:
                seconds((step,), target, limit)
        mode, r = main_search(run_dir)
        a = r["summary"]["all"] if r else None
        searched = os.path.exists(os.path.join(run_dir, "search-cli.jsonl")) or mode is not None
        if not searched:
            continue
        how = "" if mode in (None, "searchlight") else " (FTS5 SQL, Python)"
        measured = f"{a['p50']:.2f} / {a['p99']:.2f} / {a['max']:.2f}{how}" if a else "failed"
        if engine == "sqlite":
            rows.append((label, name, "search p50 / p99 / max, ms", measured, f"p99 < {SQLITE_SEARCH_P99_MS}",
                         a is not None and a["p99"] < SQLITE_SEARCH_P99_MS))
        else:
            base = sqlite_p99.get(label)
            if a and base:
                ratio = a["p99"] / base
                measured += f"; SQLite's p99 {base:.2f}: **{ratio:.2f}×**"
                limit, ok = f"p99 ≤ {REPLICA_SEARCH_RATIO}× SQLite's ({REPLICA_SEARCH_RATIO * base:.2f})", \
                    ratio <= REPLICA_SEARCH_RATIO
            else:
                limit, ok = f"p99 ≤ {REPLICA_SEARCH_RATIO}× SQLite's", (False if not a else None)
            rows.append((label, name, "search from the replica p50 / p99 / max, ms", measured, limit, ok))
    return rows


def step_result(run_dir, step, s):
    """The result column of a step: what its --json summary says."""
    if step.startswith("import"):
        return (f"{s.get('records', '?')} records, {s.get('rejected', '?')} rejected, "
                f"{s.get('storedActivities', '?')} activities stored")
    if step.startswith("replica"):
        how = f"rebuilt ({s['rebuilt']})" if s.get("rebuilt") else "synced"
        result = (f"{how}: generation {s.get('from') if s.get('from') is not None else 'none'} → "
                  f"{s.get('generation', '?')}, {s.get('written', '?')} written, {s.get('removed', '?')} removed, "
                  f"{s.get('seconds', '?')} s inside")
        size = read_json(os.path.join(run_dir, step + ".size"))
        if size:
            result += f"; replica {size['bytes'] / 2**20:.0f} MiB + {size['wal_bytes'] / 2**20:.0f} MiB -wal"
        return result
    return (f"{s.get('published', '?')} published of {s.get('clusters', '?')} clusters; "
            f"rewritten {s.get('changedClusters', '?')}, removed {s.get('removedClusters', '?')}")


def cmd_report(args):
    print("\n".join(table_head(["run", "engine", "step", "wall s", "searchlight CPU s (user+sys)", "user s", "sys s",
                                "PostgreSQL CPU s", "peak RSS MiB", "result"], "lllrrrrrrl")))
    for run_dir in args.runs:
        label, engine = run_info(run_dir)
        for step, name in STEPS:
            m = read_json(os.path.join(run_dir, step + ".json"))
            if not m:
                continue
            s = summary_of(os.path.join(run_dir, step + ".json.stdout"))
            result = step_result(run_dir, step, s)
            if m.get("exit") != 0:
                result += f" — exit {m.get('exit')}{' (timed out)' if m.get('timed_out') else ''}"
            name = name.replace("1M", f"{s.get('records', '?')}") if step == "import" else name
            server = read_text(os.path.join(run_dir, step + ".server"))
            server = f"{float(server):.2f}" if server else "–"
            rss = f"{m['max_rss_kib'] / 1024:.1f}" if m.get("max_rss_kib") else "?"
            print(f"| {label} | {ENGINE_NAMES[engine]} | {name} | {m['wall_s']:.2f} | {m['cpu_s']:.2f} "
                  f"| {m['user_s']:.2f} | {m['sys_s']:.2f} | {server} | {rss} | {result} |")
    print()
    print("\n".join(table_head(["run", "engine", "target", "measured", "limit", "verdict"], "lllrrl")))
    for label, engine, target, measured, limit, ok in target_rows(args.runs):
        verdict = {True: "met", False: "MISSED", None: "not checked (no SQLite search in this run)"}[ok]
        print(f"| {label} | {engine} | {target} | {measured} | {limit} | {verdict} |")
    searches = []
    for run_dir in args.runs:
        label, engine = run_info(run_dir)
        for mode in ("searchlight", "fts", "like"):
            r = read_json(os.path.join(run_dir, f"search-{mode}.json"))
            if r:
                searches.append((label, engine, mode, r))
    if searches:
        print()
        print("\n".join(table_head(["run", "engine", "path"] + [f"{k} p50 / p99" for k in SEARCH_KINDS] + ["all max", "n"],
                                    "lll" + "r" * (len(SEARCH_KINDS) + 2))))
        for label, engine, mode, r in searches:
            cells = []
            for k in SEARCH_KINDS:
                v = r["summary"].get(k)
                cells.append(f"{v['p50']:.2f} / {v['p99']:.2f}" if v else "–")
            a = r["summary"].get("all", {})
            path = {"searchlight": "searchlight search --queries", "fts": "FTS5 SQL, Python sqlite3",
                    "like": "LIKE scan, Python sqlite3"}[mode]
            if mode == "searchlight" and engine == "postgres":
                path += " (replica, --no-sync)"
            if mode == "searchlight" and r.get("error_count"):
                path += f" ({r['error_count']} failed)"
            print(f"| {label} | {ENGINE_NAMES[engine]} | {path} | " + " | ".join(cells)
                  + f" | {a.get('max', 0):.2f} | {a.get('n', 0)} |")
        # The replica against SQLite, same run, same path (searchlight search --queries): ratios per kind.
        cli = {(label, engine): r for label, engine, mode, r in searches if mode == "searchlight"}
        for (label, engine), r in cli.items():
            base = cli.get((label, "sqlite"))
            if engine != "postgres" or not base:
                continue
            cells = []
            for k in SEARCH_KINDS:
                v, b = r["summary"].get(k), base["summary"].get(k)
                cells.append(f"{v['p50'] / b['p50']:.2f}× / {v['p99'] / b['p99']:.2f}×"
                             if v and b and b["p50"] > 0 and b["p99"] > 0 else "–")
            a, b = r["summary"].get("all", {}), base["summary"].get("all", {})
            top = f"{a['max'] / b['max']:.2f}×" if a and b and b.get("max") else "–"
            print(f"| {label} | PostgreSQL / SQLite | searchlight search --queries | " + " | ".join(cells)
                  + f" | {top} | |")


def cmd_show_step(args):
    m = read_json(args.json) or {}
    server = read_text(args.json[:-len(".json")] + ".server") if args.json.endswith(".json") else None
    print(f"  {args.name:<15} wall {m.get('wall_s', 0):7.2f} s  CPU {m.get('cpu_s', 0):7.2f} s  "
          + (f"PostgreSQL CPU {float(server):7.2f} s  " if server else "")
          + f"peak RSS {(m.get('max_rss_kib') or 0) / 1024:7.1f} MiB  exit {m.get('exit')}")
    return 0 if m.get("exit") == 0 else 1


def cmd_show_search(args):
    for path in args.files:
        r = read_json(path)
        if not r:
            continue
        a = r["summary"].get("all")
        if a:
            print(f"  search {r['mode']:<11} p50 {a['p50']:8.2f} ms  p99 {a['p99']:8.2f} ms  max {a['max']:8.2f} ms"
                  f"  ({a['n']} searches)")


def cmd_describe(args):
    m = read_json(args.manifest)
    k = m["by_kind"]
    if args.short:
        print(f"{m['records']:,} records ({m['bytes']:,} bytes), {m['pages']:,} crawled pages, {m['queries']} queries")
        return
    spellings = ", ".join(f"{v:,} {n}" for n, v in sorted(m["url_spellings"].items()))
    print(f"Donations: {m['records']:,} records ({m['bytes'] / 1e6:.0f} MB of JSON Lines, seed {m['seed']}): "
          f"{k['activity']:,} activities without webpageURL ({m['unique_plain_activities']:,} distinct, the rest "
          f"more donors of {m['popular_activities']:,} popular ones), {k['web']:,} with a crawled page as webpageURL "
          f"({spellings}), {k['pending']:,} with an uncrawled one, {k['item']:,} searchable items and "
          f"{k['linked']:,} activities linked to them, {k['retired']:,} of a bundle deleted with `all`, "
          f"{k['ineligible']:,} not eligible, {k['expired']:,} expired, {k['noidentity']:,} with no identity, "
          f"{k['delete']:,} deletions; change file {m['change_records']:,} records ({m['change_retitled']:,} new "
          f"titles). Pages: {m['pages']:,} crawled.")


def cmd_notes(args):
    for d in args.runs:
        s, f = read_json(os.path.join(d, "stats.json")), read_json(os.path.join(d, "stats-full.json"))
        if not s or not f:
            continue
        label, engine = run_info(d)
        busy, load = read_text(os.path.join(d, "busy")), read_text(os.path.join(d, "load"))
        store = "database" if engine == "postgres" else "store"
        server = read_text(os.path.join(d, "search.server"))
        searched = f"; PostgreSQL CPU during the search passes {float(server):.2f} s" if server else ""
        print(f"- {label}, {ENGINE_NAMES[engine]}: {f['public_items']:,} public items after the full publish "
              f"({s['public_items']:,} after the change; by sources {s['sources']}), {s['activities']:,} activities, "
              f"{s['donations']:,} donor hashes, {s['withheld_records']:,} withheld records, {s['pending_urls']:,} "
              f"pending URLs; {store} {s['store_bytes'] / 2**20:.0f} MiB{searched}; machine {busy}% busy just "
              f"before, load {load}")


def cmd_verdict(args):
    """Exit 1 when a target is missed (a step that failed misses it); the replica's search ratio is not
    checked when the run has no SQLite search."""
    missed = False
    for label, engine, target, measured, limit, ok in target_rows(args.runs):
        if ok is False:
            print(f"verdict: {label} on {engine}: {target} {measured}, target {limit}: MISSED", file=sys.stderr)
        elif ok is None:
            print(f"verdict: {label} on {engine}: {target}: not checked", file=sys.stderr)
        missed |= ok is False
    return 1 if missed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("donations")
    d.add_argument("--store", required=True, help="a store with crawled pages (the template)")
    d.add_argument("--records", type=int, default=1_000_000)
    d.add_argument("--seed", type=int, default=11)
    d.add_argument("--out", required=True)
    d.add_argument("--cjk-share", type=float, default=0.0,
                   help="share of titles, descriptions and keywords written without spaces (see Text)")
    s = sub.add_parser("sqlsearch")
    s.add_argument("--store", required=True)
    s.add_argument("--queries", required=True)
    s.add_argument("--mode", choices=("fts", "like"), required=True)
    s.add_argument("--repeat", type=int, default=5)
    s.add_argument("--out", required=True)
    c = sub.add_parser("clisearch")
    c.add_argument("--lines", required=True)
    c.add_argument("--queries", required=True)
    c.add_argument("--out", required=True)
    t = sub.add_parser("stats")
    where = t.add_mutually_exclusive_group(required=True)
    where.add_argument("--store", help="a SQLite store")
    where.add_argument("--postgres", help="a PostgreSQL store's URL (read with psql)")
    t.add_argument("--psql", default="psql")
    t.add_argument("--out", required=True)
    u = sub.add_parser("server-cpu")
    u.add_argument("--postmaster", type=int, required=True)
    u.add_argument("--settle", help="a database whose connections must end first")
    r = sub.add_parser("report")
    r.add_argument("runs", nargs="+")
    x = sub.add_parser("show-step")
    x.add_argument("json")
    x.add_argument("name")
    x = sub.add_parser("show-search")
    x.add_argument("files", nargs="*")
    x = sub.add_parser("describe")
    x.add_argument("manifest")
    x.add_argument("--short", action="store_true")
    x = sub.add_parser("notes")
    x.add_argument("runs", nargs="+")
    x = sub.add_parser("verdict")
    x.add_argument("runs", nargs="+")
    args = parser.parse_args()
    sys.exit({"donations": cmd_donations, "sqlsearch": cmd_sqlsearch, "clisearch": cmd_clisearch, "stats": cmd_stats,
              "server-cpu": cmd_server_cpu, "report": cmd_report, "show-step": cmd_show_step, "show-search": cmd_show_search,
              "describe": cmd_describe, "notes": cmd_notes, "verdict": cmd_verdict}[args.command](args) or 0)


if __name__ == "__main__":
    main()
