#!/usr/bin/env bash
# Search benchmark: p50/p99 latency of a fixed mix of free-text searches over ITEMS synthetic public
# items (default 1,000,000), timed in-process by `searchlight search --queries` (release build).
#
#   bash Benchmarks/search.sh
#
# The mix (Benchmarks/search_data.py --queries): per round 10 each of a common word (Zipf rank ~10–37),
# a mid-frequency word (~rank 400–730), a rare word (~rank 12,000–16,500), two words (a very common one
# and a mid one), a 2-letter prefix, a 3-letter prefix and a CSSearchQuery alone (`rating > 4`,
# `engagement >= 1000`, a title prefix with `cd`, …), and, in the gram index, a word of text written without
# spaces (a made-up Japanese/Chinese word inside runs of them, on 10% of the items: CJK_SHARE), one character
# of such text, and a very common Latin word with one; ROUNDS rounds (default 5: 500 searches).
# Item ids are assigned as the publisher assigns them (static rank order, Sources/Store/ItemRankOrder.swift).
# Prints searchlight's own summary line (p50, p99, max) and p50/p99 per kind. The data goes to a
# temporary folder and is removed (KEEP_TMP=1 keeps it; DATA=FOLDER reuses it). TEXT_ONLY=1 runs the
# text kinds alone (see below). OPTIMIZE=1 merges the FTS5 index into one
# segment first (INSERT INTO public_fts(public_fts) VALUES('optimize')).
#
# ENGINE=postgres runs the same mix on a PostgreSQL store instead: a throw-away cluster (initdb into a
# temporary folder, as the postgres user when root; a free loopback port; PG_SETTINGS adds server options,
# default shared_buffers=2GB), the same items copied from the SQLite store by
# Benchmarks/search_pg_data.py (COPY, VACUUM ANALYZE), then searched through `--store postgres://…
# --index-cache TMP/index-cache`: the first search builds the local replica every search of a PostgreSQL
# store answers from (the warm-up pass, not timed). The cluster is stopped and removed at the end (with
# KEEP_TMP=1 too).
set -euo pipefail
ENGINE=${ENGINE:-sqlite}
ITEMS=${ITEMS:-1000000}
SEARCH_OPTIONS=()
ROUNDS=${ROUNDS:-5}
SCRATCH=${SCRATCH:-.build-release}
# shellcheck source=Benchmarks/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO"
# SEARCHLIGHT=path runs that binary (e.g. another branch's build) instead of building this one.
build_searchlight -q -m ""
if [[ -n "${DATA:-}" ]]; then
    # DATA=FOLDER reuses a folder left by KEEP_TMP=1 (store.sqlite and mix.txt): generating takes minutes.
    TMP=$DATA
else
    TMP=$(mktemp -d)
    [[ "${KEEP_TMP:-0}" == 1 ]] || trap 'rm -rf "$TMP"' EXIT
    "$BIN" crawl --store "$TMP/store.sqlite" >/dev/null  # creates an empty store with the real schema
    python3 Benchmarks/search_data.py "$TMP/store.sqlite" --items "$ITEMS" --queries "$TMP/mix.txt" \
        --cjk-share "${CJK_SHARE:-0.1}"
fi
STORE="$TMP/store.sqlite"
if [[ "$ENGINE" == postgres ]]; then
    PG_BIN=$(find_pg_bin)
    [[ -x "$PG_BIN/initdb" ]] || { echo "search.sh: PostgreSQL is not installed" >&2; exit 1; }
    PG_DATA=$(mktemp -d "${TMPDIR:-/tmp}/searchlight-search-pg.XXXXXX")
    stop_pg() {
        as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast stop >/dev/null 2>&1 || true
        rm -rf "$PG_DATA"
        [[ -n "${DATA:-}" || "${KEEP_TMP:-0}" == 1 ]] || rm -rf "$TMP"
    }
    trap stop_pg EXIT
    PG_PORT=$(free_port)
    pg_init_start "$PG_DATA" "$PG_PORT" "-c fsync=off ${PG_SETTINGS:--c shared_buffers=2GB}" -E UTF8
    as_postgres "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U searchlight search
    STORE=$(pg_url search)
    "$BIN" crawl --store "$STORE" >/dev/null  # the real schema
    SEARCH_OPTIONS=(--index-cache "$TMP/index-cache")
    (cd Benchmarks && PATH="$PG_BIN:$PATH" python3 search_pg_data.py "$TMP/store.sqlite" \
        "host=127.0.0.1 port=$PG_PORT user=searchlight dbname=search")
fi
if [[ "${OPTIMIZE:-0}" == 1 ]]; then
    sqlite3 "$TMP/store.sqlite" "INSERT INTO public_fts(public_fts) VALUES('optimize')"
fi
# TEXT_ONLY=1 leaves the CSSearchQuery lines out: their table scans also evict pages the text
# searches that follow them need, so with them the text kinds measure that interference too.
if [[ "${TEXT_ONLY:-0}" == 1 ]]; then grep -v '^q:' "$TMP/mix.txt"; else cat "$TMP/mix.txt"; fi >"$TMP/round.txt"
for _ in $(seq "$ROUNDS"); do cat "$TMP/round.txt"; done >"$TMP/queries.txt"
"$BIN" search --queries "$TMP/round.txt" --store "$STORE" "${SEARCH_OPTIONS[@]}" >/dev/null 2>&1 || true  # warm-up
"$BIN" search --queries "$TMP/queries.txt" --store "$STORE" "${SEARCH_OPTIONS[@]}" >"$TMP/out.jsonl"
python3 - "$TMP/out.jsonl" "$TMP/mix.txt" <<'PY'
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "Benchmarks")
from bench_common import percentile
kinds = ["common", "mid", "rare", "two words", "2-letter prefix", "3-letter prefix", "query",
         "cjk word", "cjk char", "latin + cjk"]
rows = [json.loads(line) for line in open(sys.argv[1])]
# Each line of the mix is of kind (its index mod the number of kinds); a searched line maps back by its text.
kind_of = {}
for i, line in enumerate(l.strip() for l in open(sys.argv[2]) if l.strip()):
    kind_of.setdefault(line[2:].strip() if line.startswith("q:") else line, kinds[i % len(kinds)])
by = {}
for row in rows:
    by.setdefault(kind_of[row["query"]], []).append(row)
for kind in (k for k in kinds if k in by):
    times = sorted(r["elapsedMs"] for r in by[kind])
    p = lambda q: percentile(times, q)
    totals = sorted(r["total"] for r in by[kind])
    bound = sum(1 for r in by[kind] if r.get("totalIsLowerBound"))
    print(f"{kind:16} p50 {p(0.5):7.2f} ms  p99 {p(0.99):7.2f} ms  max {times[-1]:7.2f} ms  "
          f"matches {totals[0]}–{totals[-1]}  lower bounds {bound}/{len(times)}")
PY
