#!/usr/bin/env python3
"""Copies the public items of a SQLite store filled by search_data.py into a PostgreSQL store.

    python3 Benchmarks/search_pg_data.py STORE.sqlite PSQL_CONNINFO

The PostgreSQL store must already exist with its real schema (created by `searchlight`). Its `cluster` and
`public_item` rows are written with `COPY` through `psql`, with the full-text vectors the publisher writes
(`search_vector`, `search_grams`: Sources/Store/Search/FullTextVector.swift, mirrored in `vector` below for the
benchmark's text, ASCII words and runs of an unspaced script), in id order; the public index's secondary
indexes are dropped first and made again after with their own definitions (faster than growing them row by
row), then `VACUUM ANALYZE`.
"""
import sqlite3
import subprocess
import sys

from search_data import gram_text, is_token, is_unspaced

MAX_POSITION = 16_383
MAX_POSITIONS = 255


def fold(token):
    """FullTextVector.fold for the benchmark's text: unspaced tokens as they are, others lower case."""
    if any(is_unspaced(ch) for ch in token):
        return token
    return token.lower()


def lexeme(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def vector(fields):
    """FullTextVector.vector: tokens folded, at their positions, weighted by field; fields one apart."""
    positions, order, position = {}, [], 0
    for text, weight in fields:
        if text is None:
            continue
        position += 1
        current = []

        def flush():
            nonlocal position
            if not current:
                return
            token = fold("".join(current))
            current.clear()
            if not token or len(token.encode()) > 2046:
                return
            position += 1
            if token not in positions:
                positions[token] = []
                order.append(token)
            if len(positions[token]) < MAX_POSITIONS:
                positions[token].append(f"{min(position, MAX_POSITION)}{weight}")

        for ch in text:
            if is_token(ch):
                current.append(ch)
            else:
                flush()
        flush()
    return " ".join(lexeme(token) + ":" + ",".join(positions[token]) for token in order)


def copy_text(value):
    if value is None:
        return "\\N"
    return (str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r"))


def main():
    store, conninfo = sys.argv[1], sys.argv[2]
    psql = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", conninfo]
    indexes = subprocess.run(
        psql + ["-At", "-c", "SELECT indexname || chr(9) || indexdef FROM pg_indexes WHERE tablename = 'public_item' "
                "AND indexname LIKE 'public_item_%' AND indexname NOT LIKE '%_key' AND indexname <> 'public_item_pkey'"],
        check=True, capture_output=True, text=True).stdout.splitlines()
    drops = "".join(f"DROP INDEX {line.split(chr(9))[0]};" for line in indexes)
    subprocess.run(psql + ["-c", drops], check=True)
    db = sqlite3.connect(store)
    columns = ("id, cluster_id, unique_identifier, webpage_url, bundle, title, description, keywords, domain_identifier, "
               "rating, rating_count, engagement, boost, sources, expires_at, last_seen, published_at, item_json, "
               "title_fold, search_vector, search_grams")
    copy = subprocess.Popen(
        psql + ["-c", "COPY cluster (id, key, fingerprint, published, reason, matched_by, members) FROM STDIN;",
                "-c", f"COPY public_item ({columns}) FROM STDIN;"],
        stdin=subprocess.PIPE, text=True)
    # Two COPY commands read from the same standard input, each ended by a line `\.`.
    for (cluster_id,) in db.execute("SELECT cluster_id FROM public_item ORDER BY cluster_id"):
        copy.stdin.write(f"{cluster_id}\tbench-{cluster_id}\t\\\\x00\tt\tpublished\t[]\t[]\n")
    copy.stdin.write("\\.\n")
    rows = db.execute(
        "SELECT id, cluster_id, unique_identifier, webpage_url, bundle, title, description, keywords, "
        "domain_identifier, rating, rating_count, engagement, boost, sources, expires_at, last_seen, published_at, "
        "item_json, title_fold FROM public_item ORDER BY id")
    for row in rows:
        title, description, keywords = row[5], row[6], row[7]
        words = vector([(title, "A"), (description, "B"), (keywords, "C")])
        grams = None
        if any(text is not None and any(is_unspaced(ch) for ch in text) for text in (title, description, keywords)):
            grams = vector([(gram_text(title), "A"), (gram_text(description), "B"), (gram_text(keywords), "C")])
        copy.stdin.write("\t".join(copy_text(value) for value in (*row, words, grams)) + "\n")
    copy.stdin.write("\\.\n")
    copy.stdin.close()
    if copy.wait() != 0:
        sys.exit("COPY failed")
    creates = "SET maintenance_work_mem = '1GB';" + "".join(line.split("\t", 1)[1] + ";" for line in indexes)
    subprocess.run(psql + ["-c", creates], check=True)
    subprocess.run(psql + ["-c", "VACUUM ANALYZE cluster", "-c", "VACUUM ANALYZE public_item"], check=True)


if __name__ == "__main__":
    main()
