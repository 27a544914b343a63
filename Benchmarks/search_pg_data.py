#!/usr/bin/env python3
"""Copies the public items of a SQLite store filled by search_data.py into a PostgreSQL store.

    python3 Benchmarks/search_pg_data.py STORE.sqlite PSQL_CONNINFO

The PostgreSQL store must already exist with its real schema (created by `searchlight`). Its `cluster` and
`public_item` rows are written with `COPY` through `psql`, in id order, as rows written before index
generations existed (`generation` 0): PostgreSQL holds no search index of its own, and `searchlight search`
answers from the local replica it builds from these rows (Docs/postgres.md, "Where searches are answered").
The public index's secondary indexes are dropped first and made again after with their own definitions
(faster than growing them row by row), then `VACUUM ANALYZE`.
"""
import sqlite3
import subprocess
import sys


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
               "title_fold")
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
        copy.stdin.write("\t".join(copy_text(value) for value in row) + "\n")
    copy.stdin.write("\\.\n")
    copy.stdin.close()
    if copy.wait() != 0:
        sys.exit("COPY failed")
    creates = "SET maintenance_work_mem = '1GB';" + "".join(line.split("\t", 1)[1] + ";" for line in indexes)
    subprocess.run(psql + ["-c", creates], check=True)
    subprocess.run(psql + ["-c", "VACUUM ANALYZE cluster", "-c", "VACUUM ANALYZE public_item"], check=True)


if __name__ == "__main__":
    main()
