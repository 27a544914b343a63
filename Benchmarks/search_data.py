#!/usr/bin/env python3
"""Fills an existing Searchlight store with synthetic public items for the search benchmark.

    python3 Benchmarks/search_data.py STORE [--items 1000000] [--seed 7] [--queries FILE]

The store must already exist (created by `searchlight`, so its schema is the real one). Writes
`cluster` and `public_item` rows (the FTS index follows through the store's triggers) with titles,
descriptions and keywords drawn from a Zipf-like (s = 1) vocabulary of 20,000 made-up words, and
engagement drawn from a heavy-tailed distribution with `boost = ln(1 + engagement)`. Item ids are
assigned the way the publisher assigns them (Sources/Index/RankOrder.swift: the boost bucket in the
high bits, a store-wide sequence below; each batch inserted in id order), and the `item_sequence`
setting is advanced, so a store filled here can still be published to. With --queries, also writes
the fixed query mix of the benchmark (common word, mid word, rare word, two words, 2- and 3-letter
prefixes, a CSSearchQuery), one per line, in the format of `searchlight search --queries`.

A share of the items (--cjk-share, default 0.1) gets text written without spaces: a title of made-up
Japanese/Chinese words (Han and kana, Zipf-distributed) run together, keywords of such words, and half of
them a description of such words, the other half keeping its Latin description (items mixing scripts).
Their text is drawn from a second random generator, so the Latin text of every item is what it would be
without them. When the store has the gram index (`public_grams`), their rows are written to it as the
publisher writes them (Sources/Store/GramText.swift, mirrored in `gram_text` below), in id order in one
statement. The query mix then has three more kinds: a word of such text, one character of it, and a
Latin word with one.
"""
import argparse
import bisect
import itertools
import json
import math
import random
import sqlite3
import unicodedata

BUCKETS = 64
SEQUENCE_BITS = 40
# The CSSearchQuery kind of the mix: common shapes (a title prefix, a number range, both).
QUERIES = [
    'q:rating > 4', 'q:engagement >= 1000', 'q:title == "ba*"cd', 'q:title == "ko*"c && engagement > 10',
    'q:InRange(engagement, 100, 200)', 'q:rating > 4', 'q:engagement >= 1000', 'q:title == "mu*"cd',
    'q:title == "ti*"c && engagement > 10', 'q:InRange(engagement, 100, 200)',
]
SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in "aeiou"] + ["qu" + v for v in "aei"]
HAN = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
KATAKANA = [chr(c) for c in range(0x30A1, 0x30F7)]
PARTICLES = ["の", "と", "で", "に", "を"]
# The blocks of GramText.unspacedRanges (Sources/Store/GramText.swift).
UNSPACED = [
    (0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x1950, 0x19DF), (0x1A20, 0x1AAF), (0x1B00, 0x1B7F),
    (0x3005, 0x3007), (0x3021, 0x3029), (0x3031, 0x3035), (0x3038, 0x303C), (0x3040, 0x30FF), (0x3100, 0x312F),
    (0x31A0, 0x31BF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA000, 0xA4CF), (0xA980, 0xA9FF),
    (0xAA60, 0xAADF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F), (0x1AFF0, 0x1B16F), (0x20000, 0x3FFFF),
]


def is_token(ch):
    category = unicodedata.category(ch)
    return category[0] in "LNM" or category == "Co"


def is_unspaced(ch):
    value = ord(ch)
    return value >= 0x0E00 and any(low <= value <= high for low, high in UNSPACED) and is_token(ch)


def is_variation_selector(ch):
    return 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF


def gram_text(text):
    """GramText.indexed: each run of unspaced letters (NFKC) as its pairs, then its last character."""
    if text is None or not any(is_unspaced(ch) for ch in text):
        return text
    out, i = [], 0
    while i < len(text):
        if not is_unspaced(text[i]):
            out.append(text[i])
            i += 1
            continue
        run = []
        while i < len(text) and (is_unspaced(text[i]) or is_variation_selector(text[i])):
            if not is_variation_selector(text[i]):
                run.append(text[i])
            i += 1
        run = [ch for ch in unicodedata.normalize("NFKC", "".join(run)) if is_token(ch)]
        if run:
            out.append(" " + "".join(run[k] + run[k + 1] + " " for k in range(len(run) - 1)) + run[-1] + " ")
    return "".join(out)


def cjk_vocabulary(rng, size):
    words, seen = [], set()
    while len(words) < size:
        if rng.random() < 0.6:
            word = "".join(rng.choice(HAN) for _ in range(rng.choice((1, 2, 2, 2, 3))))
        else:
            word = "".join(rng.choice(KATAKANA) for _ in range(rng.randint(2, 5)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def vocabulary(rng, size):
    words, seen = [], set()
    while len(words) < size:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((1, 2, 2, 3, 3, 4))))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("store")
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--vocabulary", type=int, default=20_000)
    parser.add_argument("--queries")
    parser.add_argument("--cjk-share", type=float, default=0.1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    words = vocabulary(rng, args.vocabulary)
    cjk_rng = random.Random(args.seed + 1)
    cjk_words = cjk_vocabulary(cjk_rng, 5_000)
    cjk_cumulative = list(itertools.accumulate(1.0 / rank for rank in range(1, len(cjk_words) + 1)))

    def cjk_sample(count):
        return [cjk_words[min(bisect.bisect(cjk_cumulative, cjk_rng.random() * cjk_cumulative[-1]), len(cjk_words) - 1)]
                for _ in range(count)]

    def cjk_text(count):
        # Words run together, a particle between some of them, as Japanese is written.
        return "".join(word + (cjk_rng.choice(PARTICLES) if cjk_rng.random() < 0.3 else "")
                       for word in cjk_sample(count))
    # Zipf weights 1/rank, sampled by bisecting the cumulative sum.
    cumulative = list(itertools.accumulate(1.0 / rank for rank in range(1, len(words) + 1)))
    total = cumulative[-1]

    def sample(count):
        return [words[min(bisect.bisect(cumulative, rng.random() * total), len(words) - 1)] for _ in range(count)]

    db = sqlite3.connect(args.store)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    has_grams = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'public_grams'").fetchone() is not None
    if has_grams:
        db.execute("CREATE TEMP TABLE grams (id INTEGER PRIMARY KEY, title, description, keywords)")
    start = (db.execute("SELECT coalesce(max(id), 0) FROM cluster").fetchone()[0]) + 1
    sequence = int(db.execute(
        "SELECT coalesce((SELECT value FROM setting WHERE name = 'item_sequence'), 1)").fetchone()[0])
    batch = []
    for n in range(start, start + args.items):
        title = " ".join(sample(rng.randint(3, 8))).capitalize()
        description = " ".join(sample(rng.randint(12, 40))).capitalize() + "."
        keywords = sample(rng.randint(1, 5))
        engagement = min(int(rng.paretovariate(1.2)), 100_000)
        rating = round(rng.uniform(1, 5), 1) if rng.random() < 0.3 else None
        is_cjk = cjk_rng.random() < args.cjk_share
        if is_cjk:
            title = cjk_text(cjk_rng.randint(2, 5))
            if cjk_rng.random() < 0.5:
                description = "。".join(cjk_text(cjk_rng.randint(4, 10)) for _ in range(3)) + "。"
            keywords = cjk_sample(cjk_rng.randint(1, 4))
        url = f"https://site{n % 5000}.example/page/{n}"
        item = {
            "uniqueIdentifier": url, "webpageURL": url, "sources": ["web"],
            "attributeSet": {"title": title, "contentDescription": description, "keywords": keywords},
            "engagement": engagement,
        }
        if rating is not None:
            item["attributeSet"]["rating"] = rating
        boost = math.log1p(engagement)
        # RankOrder.id: (bucketCount - 1 - bucket) << sequenceBits | sequence, bucket = min(63, Int(boost * 4)).
        item_id = ((BUCKETS - 1 - min(BUCKETS - 1, int(boost * 4))) << SEQUENCE_BITS) | sequence
        sequence += 1
        # title_fold as the publisher fills it (Store.foldedPrefix), see fold_prefix.
        batch.append((n, item_id, title, description, "\n".join(keywords), engagement, boost, url,
                      json.dumps(item, separators=(",", ":")), rating, fold_prefix(title)))
        if is_cjk and has_grams:
            db.execute("INSERT INTO temp.grams VALUES (?, ?, ?, ?)",
                       (item_id, gram_text(title), gram_text(description), gram_text("\n".join(keywords))))
        if len(batch) == 10_000:
            flush(db, batch)
            batch = []
    flush(db, batch)
    if has_grams:
        with db:  # in id order, in one statement, as the publisher writes the gram index
            db.execute("INSERT INTO public_grams (rowid, title, description, keywords) "
                       "SELECT id, title, description, keywords FROM temp.grams ORDER BY id")
    with db:
        db.execute("INSERT OR REPLACE INTO setting (name, value) VALUES ('item_sequence', ?)", (str(sequence),))
    db.execute("PRAGMA optimize")
    db.close()
    if args.queries:
        # Fixed mix: words by frequency rank (common ~ rank 20, mid ~ 500, rare ~ 15,000), pairs, prefixes.
        mix = []
        for i in range(10):
            mix.append(words[10 + i * 3])                          # common word
            mix.append(words[400 + i * 37])                        # mid-frequency word
            mix.append(words[12_000 + i * 500])                    # rare word
            mix.append(words[5 + i] + " " + words[300 + i * 11])  # two words
            mix.append(words[50 + i * 7][:2])                      # 2-letter prefix
            mix.append(words[2000 + i * 13][:3])                   # 3-letter prefix
            mix.append(QUERIES[i])                                 # a CSSearchQuery alone
            mix.append(next(w for w in cjk_words[10 + i * 40:] if len(w) > 1))  # a word of text without spaces
            mix.append(cjk_words[3 + i * 7][0])                    # one character of it
            mix.append(words[5 + i] + " " + cjk_words[20 + i * 30])  # a Latin word and one without spaces
        with open(args.queries, "w") as out:
            out.write("\n".join(mix) + "\n")


def fold_prefix(title):
    """Store.foldedPrefix for ASCII titles (lowercased, first 16 characters). A title without spaces may fold
    otherwise in Foundation (a voiced kana loses its mark); only ASCII title prefixes are queried here."""
    return title[:16].lower()


def flush(db, batch):
    # In id order, as the publisher writes: FTS5 flushes its pending terms whenever a rowid goes down.
    batch.sort(key=lambda row: row[1])
    with db:
        db.executemany(
            "INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members) "
            "VALUES (?, 'bench-' || ?, x'00', 1, 'published', '[]', '[]')", [(row[0], row[0]) for row in batch])
        db.executemany(
            "INSERT INTO public_item (cluster_id, id, title, description, keywords, engagement, boost, "
            "unique_identifier, webpage_url, sources, last_seen, published_at, item_json, rating, title_fold) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 'web', 1767225600, 1767225600, ?9, ?10, ?11)", batch)


if __name__ == "__main__":
    main()
