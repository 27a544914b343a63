#!/usr/bin/env python3
"""Data for Benchmarks/serve.sh: donation files and the query mix, seeded (the same bytes on every machine).

  serve_data.py OUT_DIR --items N [--stream M] [--seed S]

Writes OUT_DIR/donations.jsonl: N public NSUserActivity donations (one donor each, no webpageURL: an
identity from requiredUserInfoKeys, so each is published at engagement threshold 1 without a crawl),
titles, descriptions and keywords drawn by Zipf's law from the vocabulary of search_data.py; 30% rated.
OUT_DIR/stream.jsonl: M more such donations (bundle com.bench.stream, titles starting with a word that
appears nowhere else, "streamed"), which serve.sh posts while the load runs. OUT_DIR/mix.txt: the
request paths of the query mix, one per line: per round a common, a mid-frequency and a rare word, two
words, a 2- and a 3-letter prefix, a CSSearchQuery alone, free text with a CSSearchQuery, an item by its
identifier, and a search with limit 5 (10 rounds: 100 paths).
"""
import argparse
import bisect
import itertools
import json
import os
import random
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_data import QUERIES, vocabulary  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--stream", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--vocabulary", type=int, default=20_000)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    words = vocabulary(rng, args.vocabulary)
    cumulative = list(itertools.accumulate(1.0 / rank for rank in range(1, len(words) + 1)))
    total = cumulative[-1]

    def sample(count):
        return [words[min(bisect.bisect(cumulative, rng.random() * total), len(words) - 1)] for _ in range(count)]

    def activity(n, bundle, title):
        attributes = {"contentDescription": " ".join(sample(rng.randint(12, 40))).capitalize() + "."}
        if rng.random() < 0.3:
            attributes["rating"] = round(rng.uniform(1, 5), 1)
            attributes["ratingCount"] = rng.randint(1, 5000)
        record = {
            "type": "userActivity", "bundleIdentifier": bundle, "donor": f"device-{n}",
            "activityType": f"{bundle}.view", "title": title, "keywords": sample(rng.randint(1, 5)),
            "userInfo": {"id": str(n)}, "requiredUserInfoKeys": ["id"], "persistentIdentifier": f"item-{n}",
            "expirationDate": "2030-01-01T00:00:00Z", "isEligibleForSearch": True,
            "isEligibleForPublicIndexing": True, "contentAttributeSet": attributes,
        }
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "donations.jsonl"), "w") as out:
        for n in range(args.items):
            title = " ".join(sample(rng.randint(3, 8))).capitalize()
            out.write(activity(n, f"com.bench.app{n % 100}", title) + "\n")
    with open(os.path.join(args.out, "stream.jsonl"), "w") as out:
        for n in range(args.items, args.items + args.stream):
            title = "Streamed " + " ".join(sample(rng.randint(2, 6)))
            out.write(activity(n, "com.bench.stream", title) + "\n")

    def search(text=None, query=None, limit=None):
        parameters = {}
        if text is not None:
            parameters["q"] = text
        if query is not None:
            parameters["query"] = query
        if limit is not None:
            parameters["limit"] = str(limit)
        return "/api/search?" + urllib.parse.urlencode(parameters, quote_via=urllib.parse.quote)

    mix = []
    for i in range(10):
        mix.append(search(words[10 + i * 3]))                             # common word
        mix.append(search(words[400 + i * 37]))                           # mid-frequency word
        mix.append(search(words[12_000 + i * 500]))                       # rare word
        mix.append(search(words[5 + i] + " " + words[300 + i * 11]))      # two words
        mix.append(search(words[50 + i * 7][:2]))                         # 2-letter prefix
        mix.append(search(words[2000 + i * 13][:3]))                      # 3-letter prefix
        mix.append(search(query=QUERIES[i].removeprefix("q:")))          # a CSSearchQuery alone
        mix.append(search(words[30 + i], query="rating >= 3"))            # text and a CSSearchQuery
        mix.append(search(words[100 + i * 5], limit=5))                   # a short page
        # An item by its identifier: the publisher's id of an activity without a web page.
        n = i * 99_991 % max(args.items, 1)
        identifier = f"app:com.bench.app{n % 100}:com.bench.app{n % 100}.view:item-{n}"
        mix.append("/api/items/" + urllib.parse.quote(identifier, safe=""))
    with open(os.path.join(args.out, "mix.txt"), "w") as out:
        out.write("\n".join(mix) + "\n")


if __name__ == "__main__":
    main()
