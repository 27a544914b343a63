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
"""
import argparse
import bisect
import itertools
import json
import math
import random
import sqlite3

BUCKETS = 64
SEQUENCE_BITS = 40
# The CSSearchQuery kind of the mix: common shapes (a title prefix, a number range, both).
QUERIES = [
    'q:rating > 4', 'q:engagement >= 1000', 'q:title == "ba*"cd', 'q:title == "ko*"c && engagement > 10',
    'q:InRange(engagement, 100, 200)', 'q:rating > 4', 'q:engagement >= 1000', 'q:title == "mu*"cd',
    'q:title == "ti*"c && engagement > 10', 'q:InRange(engagement, 100, 200)',
]
SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in "aeiou"] + ["qu" + v for v in "aei"]


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
    args = parser.parse_args()
    rng = random.Random(args.seed)
    words = vocabulary(rng, args.vocabulary)
    # Zipf weights 1/rank, sampled by bisecting the cumulative sum.
    cumulative = list(itertools.accumulate(1.0 / rank for rank in range(1, len(words) + 1)))
    total = cumulative[-1]

    def sample(count):
        return [words[min(bisect.bisect(cumulative, rng.random() * total), len(words) - 1)] for _ in range(count)]

    db = sqlite3.connect(args.store)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
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
        # title_fold as the publisher fills it (Store.foldedPrefix): the titles are ASCII, so the folded
        # prefix is the lowercased first 16 characters.
        batch.append((n, item_id, title, description, "\n".join(keywords), engagement, boost, url,
                      json.dumps(item, separators=(",", ":")), rating, title[:16].lower()))
        if len(batch) == 10_000:
            flush(db, batch)
            batch = []
    flush(db, batch)
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
        with open(args.queries, "w") as out:
            out.write("\n".join(mix) + "\n")


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
