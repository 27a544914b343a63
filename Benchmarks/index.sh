#!/usr/bin/env bash
# Index benchmark, SQLite and PostgreSQL side by side: one million donated records and 100,000
# crawled pages' items through `searchlight import` and `searchlight publish` (full, then
# incremental after a 1% change), and search latency over a fixed query mix at about one million
# published items, on each store engine in the same run, from the same crawled site and the same
# donations file. On PostgreSQL also the search replica (SPEC §1: a PostgreSQL store is searched
# through a local SQLite copy of its public index): its first build after the full publish, its sync
# after the incremental one, and search from it. On SQLite also the FTS5 SQL and a plain LIKE scan of
# the same store through Python's sqlite3, for comparison.
#
#   bash Benchmarks/index.sh                           # 1,000,000 records, both engines
#   bash Benchmarks/index.sh 20000                     # a smoke run: the size argument is the number of records
#   PAGES=2000 bash Benchmarks/index.sh 20000          # a small one (its own cached template)
#   ENGINES=sqlite bash Benchmarks/index.sh            # one engine only
#
# Reports, per run, engine and step: wall seconds, searchlight's CPU seconds (user+sys), the
# PostgreSQL server's CPU seconds, searchlight's peak RSS, and what its `--json` summary says
# (records, published items, clusters rewritten, replica rows written and removed, the replica's
# size); then search p50 / p99 / max per kind of query, and the targets per engine. Prints Markdown
# and writes it to Benchmarks/out/index-<date>.md.
# Targets (SPEC §8, at one million records): SQLite import + full publish < 60 s, search p99 < 5 ms;
# PostgreSQL import + full publish < 120 s, incremental publish < 15 s, replica first build < 90 s,
# replica sync after the 1% publish < 5 s, search p99 from the synced replica ≤ 1.2× SQLite's in the
# same run (not checked when SQLite is not measured). Exits 1 when a step failed (STRICT=1: also when
# a target is missed).
#
# Settings (environment):
#   RECORDS=1000000     donation records (the first argument overrides it)
#   ENGINES="sqlite postgres"  the store engines measured, in this order within each run
#   PAGES=100000        pages of the crawled site (crawl_site.py --small; plus PAGES/400 sitemap-only)
#   RUNS=2              measured runs at THRESHOLD (each engine on a fresh copy of its template store)
#   CJK_SHARE=0         share of titles, descriptions, keywords written without spaces (index_data.py Text)
#   THRESHOLD=1         --engagement-threshold of the measured runs (1: nearly every record publishes)
#   EXTRA_THRESHOLDS=3  one more run at each of these thresholds (import and publish only; "" for none)
#   SEARCH_REPEAT=5     passes over the query mix per search measurement (after one warm-up pass)
#   LIKE_REPEAT=1       passes over the mix for the LIKE scan (each query is a full table scan)
#   SEED=11 SITE_SEED=4 generator seeds
#   PG_SETTINGS="-c synchronous_commit=off"  server settings of the PostgreSQL cluster (postgres -c …)
#   CACHE=Benchmarks/.work  the crawled template stores and generated donations (reused by reruns)
#   SCRATCH=.build-release  swift build --scratch-path;  SEARCHLIGHT=path  use this binary, no build
#   STEP_TIMEOUT=1800   seconds allowed for one import, publish or search pass;  CRAWL_TIMEOUT=3600  for a crawl
#   STRICT=1            exit 1 when a target is missed
#   KEEP_TMP=1          keep the run folder: the SQLite stores, the replicas (RUN/index-cache), and
#                       the PostgreSQL cluster (stopped) with its run databases
#
# How things are measured (see Docs/benchmarks.md, "Index"):
# - The pages: Benchmarks/crawl_site.py generates a PAGES-page site (2–6 KB pages, the crawl
#   benchmark's markup mix), nginx serves it on 127.0.0.1 and `searchlight crawl` crawls it once into
#   a SQLite template store and, from the same server, once into a PostgreSQL database, kept as a
#   pg_dump file; both cached under CACHE (keyed by PAGES and SITE_SEED; the dump also by the SQLite
#   template and PostgreSQL's major version). Every SQLite run copies the template file.
# - PostgreSQL: a throw-away cluster (initdb as the postgres user into the run folder, a free loopback
#   port, trust authentication, PG_SETTINGS) that lives for this run of the script and is stopped and
#   removed at exit, also on Ctrl-C or a failure. The dump is restored once into a template database
#   (then VACUUM (FREEZE, ANALYZE)); each measured run starts from `CREATE DATABASE … TEMPLATE`.
# - The donations: `index_data.py donations` (seeded) reads the SQLite template's pages and writes
#   RECORDS JSON Lines records, a 1% change file and the query mix; cached under CACHE. Both engines
#   import the same files.
# - Each step runs under Benchmarks/fetch_helper.py `measure` (GNU time + wait4(2): user+sys CPU of
#   every thread, peak RSS of the tool alone, wall time around it), one after the other on one store:
#   import, publish (full), import of the change file, publish (incremental). On PostgreSQL also
#   `sync --index-cache RUN/index-cache --json` right after the full publish (the replica's first
#   build, into the run's own empty folder) and again after the incremental publish (the sync of the
#   1% change). On PostgreSQL the server's CPU is read from /proc around each step: the postmaster's
#   own and its ended children's (cutime+cstime) plus its live children's, after the step's
#   connections have closed; background work (autovacuum, checkpoints) counts in the step it falls in.
# - Search: `searchlight search --queries` (timed inside the process, one JSON line per query): on
#   SQLite on the store, on PostgreSQL on the synced replica with `--index-cache RUN/index-cache
#   --no-sync` (the sync is the step before, not in the timed queries); on SQLite also the same FTS5
#   SQL and the LIKE scan through Python's sqlite3 (the same system libsqlite3), read-only on the
#   published store.
set -euo pipefail

RECORDS=${1:-${RECORDS:-1000000}}
ENGINES=${ENGINES:-sqlite postgres}
PAGES=${PAGES:-100000}
RUNS=${RUNS:-2}
CJK_SHARE=${CJK_SHARE:-0}
THRESHOLD=${THRESHOLD:-1}
EXTRA_THRESHOLDS=${EXTRA_THRESHOLDS-3}
SEARCH_REPEAT=${SEARCH_REPEAT:-5}
LIKE_REPEAT=${LIKE_REPEAT:-1}
SEED=${SEED:-11}
SITE_SEED=${SITE_SEED:-4}
PG_SETTINGS=${PG_SETTINGS-"-c synchronous_commit=off"}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
CRAWL_TIMEOUT=${CRAWL_TIMEOUT:-3600}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-3000}
STRICT=${STRICT:-0}
KEEP_TMP=${KEEP_TMP:-0}

# shellcheck source=Benchmarks/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HERE=$BENCH_DIR
MEASURE="$HERE/fetch_helper.py"
DATA="$HERE/index_data.py"
SITE_GEN="$HERE/crawl_site.py"
SCRATCH=$(repo_path "${SCRATCH:-.build-release}")
CACHE=$(repo_path "${CACHE:-$HERE/.work}")

loopback_only
export LC_ALL=C.UTF-8
umask 022
[[ "$RECORDS" =~ ^[0-9]+$ ]] && [ "$RECORDS" -ge 1000 ] || die "the size (records) must be a number ≥ 1000, not '$RECORDS'"
read -r -a ENGINE_LIST <<<"$ENGINES"
[ ${#ENGINE_LIST[@]} -gt 0 ] || die "ENGINES names no engine (sqlite, postgres)"
for engine in "${ENGINE_LIST[@]}"; do
    case "$engine" in sqlite | postgres) ;; *) die "unknown engine '$engine' in ENGINES (sqlite, postgres)" ;; esac
done
uses() { [[ " ${ENGINE_LIST[*]} " == *" $1 "* ]]; }

# ---------------------------------------------------------------------------------------------
# 1. Tools: apt-get for what is missing.
# ---------------------------------------------------------------------------------------------
need_nginx
need_command curl
need_command python3
need_command timeout coreutils
need_gnu_time
if uses postgres; then
    PG_BIN=$(find_pg_bin)
    [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_restore" ] || MISSING+=(postgresql)
fi
[ -n "${SEARCHLIGHT:-}" ] || need_packages pkg-config libcurl4-openssl-dev libxml2-dev libpsl-dev libsqlite3-dev
install_missing
python3 -c 'import sqlite3; sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE t USING fts5(a)")' 2>/dev/null ||
    die "python3's sqlite3 has no FTS5"
if uses postgres; then
    PG_BIN=$(find_pg_bin)
    [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] || die "PostgreSQL's programs not found under /usr/lib/postgresql"
    PG_VERSION=$("$PG_BIN/postgres" --version | awk '{ print $3 }')
    PG_MAJOR=${PG_VERSION%%.*}
    if [ "$(id -u)" -eq 0 ]; then id postgres >/dev/null 2>&1 || die "no 'postgres' user to run the cluster as"; fi
fi

# ---------------------------------------------------------------------------------------------
# 2. Build searchlight (release).
# ---------------------------------------------------------------------------------------------
build_searchlight -c -t "$BUILD_TIMEOUT"
for command in crawl import publish; do
    "$BIN" "$command" --help >/dev/null 2>&1 || die "$BIN has no '$command' command"
done
HAS_BATCH_SEARCH=0
[[ "$("$BIN" search --help 2>/dev/null)" == *--queries* ]] && HAS_BATCH_SEARCH=1
if uses postgres; then
    "$BIN" sync --help >/dev/null 2>&1 && [[ "$("$BIN" search --help 2>/dev/null)" == *--no-sync* ]] ||
        die "$BIN has no 'sync' command or no 'search --no-sync': PostgreSQL is searched through its replica since 6c5bd7c"
    [ "$HAS_BATCH_SEARCH" = 1 ] || die "$BIN has no 'search --queries'"
fi

make_work_dir searchlight-index-bench shared

# Long commands run in the background while the script waits for them: `wait` returns at once
# when a signal arrives, so Ctrl-C stops the run (and the cluster) now, not when the step ends.
CHILD=
wait_child() { # command…
    "$@" &
    CHILD=$!
    local status=0
    wait "$CHILD" || status=$?
    CHILD=
    return "$status"
}
stop_child() {
    [ -n "$CHILD" ] || return 0
    kill -TERM "$CHILD" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$CHILD" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$CHILD" 2>/dev/null || true
    wait "$CHILD" 2>/dev/null || true
    CHILD=
}

# PostgreSQL: a throw-away cluster in the run folder, as the tests and workers.sh start one.
PG_DATA=
PG_PORT=
PG_PID=
running() { # pid: alive and not a zombie (the postmaster is not our child: nobody here reaps it)
    local state
    state=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}
start_postgres() {
    PG_DATA="$WORK/pg"
    mkdir -p "$PG_DATA"
    [ "$(id -u)" -ne 0 ] || chown postgres "$PG_DATA"
    PG_PORT=$(free_port)
    as_postgres "$PG_BIN/initdb" -D "$PG_DATA" -U searchlight --auth=trust -E UTF8 >"$WORK/initdb.log" 2>&1 ||
        { cat "$WORK/initdb.log" >&2; die "initdb failed"; }
    # Durability as Debian configures it, but no wait for the disk at each commit (PG_SETTINGS'
    # default, synchronous_commit=off): SQLite's store (WAL, synchronous = NORMAL) does not wait either.
    as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -w -t 120 -l "$PG_DATA/server.log" \
        -o "-p $PG_PORT -k $PG_DATA -c listen_addresses=127.0.0.1 $PG_SETTINGS" start >/dev/null ||
        { tail -n 20 "$PG_DATA/server.log" >&2 2>/dev/null || true; die "the PostgreSQL cluster did not start"; }
    PG_PID=$(head -n 1 "$PG_DATA/postmaster.pid")
    log "PostgreSQL $PG_VERSION on 127.0.0.1:$PG_PORT (cluster in ${PG_DATA}, postmaster $PG_PID)"
}
stop_postgres() {
    [ -n "$PG_DATA" ] && [ -d "$PG_DATA" ] || return 0
    local mode=immediate
    [ "$KEEP_TMP" != 1 ] || mode=fast # a kept cluster starts again without recovery
    as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m "$mode" -t 60 stop >/dev/null 2>&1 || true
    if [ -n "$PG_PID" ]; then
        for _ in $(seq 100); do running "$PG_PID" || break; sleep 0.1; done
        if running "$PG_PID"; then
            log "the postmaster ($PG_PID) did not stop: killing it"
            kill -KILL "$PG_PID" 2>/dev/null || true
            sleep 1
        fi
    fi
    PG_PID=
}
pg_sql() { # sql [database]: one statement, unaligned output
    "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U searchlight -d "${2:-postgres}" -c "$1"
}
server_cpu() { # [database]: the cluster's CPU seconds so far, once the database's connections have closed
    python3 "$DATA" server-cpu --postmaster "$PG_PID" ${1:+--settle "$1"}
}

cleanup() {
    local status=$?
    trap '' INT TERM
    stop_child
    stop_nginx
    stop_postgres
    remove_work_dir
    if [ "$KEEP_TMP" = 1 ] && [ -n "$PG_DATA" ]; then
        log "start the kept cluster with: $(
            [ "$(id -u)" -ne 0 ] || printf 'runuser -u postgres -- ')$PG_BIN/pg_ctl -D $PG_DATA -o '-p $PG_PORT -k $PG_DATA -c listen_addresses=127.0.0.1' start"
    fi
    exit $status
}
exit_traps cleanup hup
mkdir -p "$CACHE"
if uses postgres; then start_postgres; fi

# ---------------------------------------------------------------------------------------------
# 3. The template stores: crawls of a PAGES-page site (once; cached): a SQLite file, and a
#    PostgreSQL database kept as a pg_dump file. Both crawl the same site at the same address, so
#    the donations (generated from the SQLite template's URLs) name the same pages on both.
# ---------------------------------------------------------------------------------------------
TEMPLATE="$CACHE/template-p$PAGES-s$SITE_SEED.sqlite"
pg_dump_path() { # the dump's name: keyed by the SQLite template it matches and PostgreSQL's major version
    echo "$CACHE/template-p$PAGES-s$SITE_SEED-$(stat -c '%s %Y' "$TEMPLATE" | sha256sum | cut -c1-12).pg$PG_MAJOR.dump"
}
template_port() { # the port in the SQLite template's page URLs
    python3 - "$TEMPLATE" <<'EOF'
import sqlite3, sys, urllib.parse
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
row = db.execute("SELECT url FROM page WHERE http_status BETWEEN 200 AND 299 LIMIT 1").fetchone()
print(urllib.parse.urlsplit(row[0]).port if row else "")
EOF
}
port_is_free() { python3 -c 'import socket, sys; socket.socket().bind(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null; }

need_sqlite=0
need_postgres=0
port=
[ -s "$TEMPLATE" ] || need_sqlite=1
if uses postgres && { [ "$need_sqlite" = 1 ] || [ ! -s "$(pg_dump_path)" ]; }; then
    need_postgres=1
    if [ "$need_sqlite" = 0 ]; then
        port=$(template_port)
        if [ -z "$port" ] || ! port_is_free "$port"; then
            log "the template's port ${port:-?} is not free: crawling the site again for both engines"
            need_sqlite=1
            port=
        fi
    fi
fi
if [ "$need_sqlite" = 1 ] || [ "$need_postgres" = 1 ]; then
    NGINX=$(find_nginx)
    [ -n "$NGINX" ] || die "nginx not found"
    [ -n "$port" ] || port=$(free_port)
    log "generating a $PAGES-page site for 127.0.0.1:$port (crawl_site.py --small, seed $SITE_SEED)"
    wait_child timeout 3600 python3 "$SITE_GEN" "$WORK/site" --pages "$PAGES" --seed "$SITE_SEED" --small \
        --base "http://127.0.0.1:$port" >"$WORK/site.manifest.out"
    expected=$(wc -l <"$WORK/site/expected-paths.txt")
    mkdir -p "$WORK/nginx/temp"
    {
        nginx_conf_head 1
        cat <<EOF
http {
    default_type application/octet-stream;
    types { text/html html; application/xml xml; text/plain txt; }
    charset utf-8;
    charset_types text/html text/plain application/xml;
    sendfile on;
    keepalive_requests 100000;
    access_log off;
    client_body_temp_path $WORK/nginx/temp/body;
    proxy_temp_path $WORK/nginx/temp/proxy;
    fastcgi_temp_path $WORK/nginx/temp/fastcgi;
    uwsgi_temp_path $WORK/nginx/temp/uwsgi;
    scgi_temp_path $WORK/nginx/temp/scgi;
    server { listen 127.0.0.1:$port; root $WORK/site/www; }
}
EOF
    } >"$WORK/nginx/nginx.conf"
    start_nginx "$((2 * CRAWL_TIMEOUT + 300))"
    wait_nginx "http://127.0.0.1:$port/robots.txt" "127.0.0.1:$port" error
    crawl_into() { # store
        wait_child timeout "$CRAWL_TIMEOUT" "$BIN" crawl "http://127.0.0.1:$port/" --store "$1" \
            --allow-private-network --delay 0 --concurrency 16 --per-host 16 --json
    }
    [ "$need_sqlite" = 1 ] || log "reusing the SQLite template store $TEMPLATE (crawled from this address)"
    if [ "$need_sqlite" = 1 ]; then
        log "crawling it into the SQLite template store ($expected pages; ~1 minute per 100,000 pages here)"
        rm -f "$WORK/template.sqlite"*
        crawl_into "$WORK/template.sqlite" >"$WORK/crawl.json" || die "the crawl into SQLite failed (exit $?)"
        # One file: fold the WAL into the database before it is copied around.
        python3 - "$WORK/template.sqlite" "$expected" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
pages = db.execute("SELECT count(*) FROM page WHERE http_status BETWEEN 200 AND 299 AND is_indexable = 1").fetchone()[0]
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.close()
if pages < int(sys.argv[2]):
    sys.exit(f"the crawl stored {pages} indexable pages, expected {sys.argv[2]}")
print(f"SQLite template: {pages} indexable pages", file=sys.stderr)
EOF
        mv "$WORK/template.sqlite" "$TEMPLATE"
        rm -f "$WORK/template.sqlite-wal" "$WORK/template.sqlite-shm"
    fi
    if [ "$need_postgres" = 1 ]; then
        log "crawling it into a PostgreSQL database ($expected pages; ~3 minutes per 100,000 pages here)"
        pg_sql "CREATE DATABASE crawl"
        crawl_into "$(pg_url crawl)" >"$WORK/crawl-postgres.json" || die "the crawl into PostgreSQL failed (exit $?)"
        pages=$(pg_sql "SELECT count(*) FROM page WHERE http_status BETWEEN 200 AND 299 AND is_indexable" crawl)
        [ "$pages" -ge "$expected" ] || die "the crawl into PostgreSQL stored $pages indexable pages, expected $expected"
        log "PostgreSQL template: $pages indexable pages"
        dump=$(pg_dump_path)
        rm -f "$CACHE/template-p$PAGES-s$SITE_SEED-"*".pg$PG_MAJOR.dump"
        wait_child "$PG_BIN/pg_dump" -h 127.0.0.1 -p "$PG_PORT" -U searchlight -Fc --no-owner -f "$dump.tmp" crawl ||
            die "pg_dump failed"
        mv "$dump.tmp" "$dump"
        pg_sql "DROP DATABASE crawl"
    fi
    stop_nginx
    rm -rf "$WORK/site"
else
    log "reusing the template store $TEMPLATE"
fi
if uses postgres; then
    PG_DUMP=$(pg_dump_path)
    log "restoring the PostgreSQL template database from ${PG_DUMP#"$REPO"/}"
    pg_sql "CREATE DATABASE tmpl"
    wait_child "$PG_BIN/pg_restore" -h 127.0.0.1 -p "$PG_PORT" -U searchlight --no-owner -d tmpl "$PG_DUMP" ||
        die "pg_restore failed"
    # A restored database has no planner statistics and unset hint bits: give every run the state
    # of a settled store, as the SQLite template (checkpointed, analyzed by nobody) is one.
    pg_sql "VACUUM (FREEZE, ANALYZE)" tmpl
    # FILE_COPY copies the template's files (fast); PostgreSQL 15's default writes it all to the WAL.
    COPY_STRATEGY=
    [ "$PG_MAJOR" -lt 15 ] || COPY_STRATEGY="STRATEGY FILE_COPY"
fi

# ---------------------------------------------------------------------------------------------
# 4. Donations (cached by size, seed, template and generator).
# ---------------------------------------------------------------------------------------------
data_key=$(cat "$DATA" <(stat -c '%s %Y' "$TEMPLATE") | sha256sum | cut -c1-12)
DONATIONS="$CACHE/donations-r$RECORDS-s$SEED-c$CJK_SHARE-$data_key"
if [ ! -s "$DONATIONS/manifest.json" ]; then
    log "generating $RECORDS donation records (seed $SEED) into ${DONATIONS#"$REPO"/}"
    rm -rf "$DONATIONS" "$DONATIONS.tmp"
    wait_child python3 "$DATA" donations --store "$TEMPLATE" --records "$RECORDS" --seed "$SEED" --cjk-share "$CJK_SHARE" \
        --out "$DONATIONS.tmp" >/dev/null
    mv "$DONATIONS.tmp" "$DONATIONS"
else
    log "reusing the donations in ${DONATIONS#"$REPO"/}"
fi
{ for _ in $(seq $((SEARCH_REPEAT + 1))); do cat "$DONATIONS/queries.txt"; done; } >"$WORK/queries-repeated.txt"
QUERY_COUNT=$(wc -l <"$DONATIONS/queries.txt")

# ---------------------------------------------------------------------------------------------
# 5. Runs.
# ---------------------------------------------------------------------------------------------
failures=0
step() { # run_dir name -- command…: measured; on PostgreSQL also the server's CPU seconds
    local dir=$1 name=$2 before=
    shift 3
    [ ! -s "$dir/database" ] || before=$(server_cpu)
    wait_child python3 "$MEASURE" measure --time-bin /usr/bin/time "$dir/$name.json" "$STEP_TIMEOUT" -- "$@" || true
    if [ -n "$before" ]; then
        awk -v a="$before" -v b="$(server_cpu "$(cat "$dir/database")")" 'BEGIN { printf "%.3f\n", b - a }' >"$dir/$name.server"
    fi
    if ! python3 "$DATA" show-step "$dir/$name.json" "$name" >&2; then
        failures=$((failures + 1))
        tail -n 5 "$dir/$name.json.stderr" >&2 || true
    fi
}

stats() { # run_dir store out
    if [ -s "$1/database" ]; then
        python3 "$DATA" stats --postgres "$2" --psql "$PG_BIN/psql" --out "$3" >/dev/null
    else
        python3 "$DATA" stats --store "$2" --out "$3" >/dev/null
    fi
}

replica_size() { # run_dir step: the replica file named by the step's sync summary, and its -wal, in bytes
    python3 - "$1/$2.json.stdout" >"$1/$2.size" <<'EOF' || true
import json, os, sys
lines = [l for l in open(sys.argv[1], encoding="utf-8", errors="replace") if l.startswith("{")]
path = json.loads(lines[-1])["path"]
size = lambda p: os.path.getsize(p) if os.path.exists(p) else 0
print(json.dumps({"path": path, "bytes": size(path), "wal_bytes": size(path + "-wal")}))
EOF
}

cli_search() { # run_dir store: `searchlight search --queries`, one warm-up pass then SEARCH_REPEAT passes
    local dir=$1 store=$2 status=0 before= replica=()
    # PostgreSQL: from the replica the sync step brought up to date, not synced again (no query to the store).
    [ ! -s "$dir/database" ] || replica=(--index-cache "$dir/index-cache" --no-sync)
    [ ! -s "$dir/database" ] || before=$(server_cpu)
    wait_child timeout "$STEP_TIMEOUT" "$BIN" search --queries "$WORK/queries-repeated.txt" --store "$store" \
        ${replica[@]+"${replica[@]}"} >"$dir/search-cli.jsonl" 2>"$dir/search-cli.stderr" || status=$?
    # Exit 1: some lines failed or matched nothing (clisearch counts the failures); anything else
    # (a usage error, the store, a timeout) is a failed step.
    if [ "$status" != 0 ] && [ "$status" != 1 ]; then
        log "  search: searchlight search --queries exited $status"
        tail -n 5 "$dir/search-cli.stderr" >&2 || true
        failures=$((failures + 1))
        return 0
    fi
    if [ -n "$before" ]; then
        awk -v a="$before" -v b="$(server_cpu "$(cat "$dir/database")")" 'BEGIN { printf "%.3f\n", b - a }' >"$dir/search.server"
    fi
    tail -n +"$((QUERY_COUNT + 1))" "$dir/search-cli.jsonl" >"$dir/search-cli-measured.jsonl"
    python3 "$DATA" clisearch --lines "$dir/search-cli-measured.jsonl" --queries "$DONATIONS/queries.jsonl" \
        --out "$dir/search-searchlight.json"
}

run_dirs=()
extra_dirs=()
one_run() { # label threshold search(0|1) engine
    local label=$1 k=$2 search=$3 engine=$4 dir="$WORK/$1-$4" store database=
    mkdir -p "$dir"
    echo "$engine" >"$dir/engine"
    echo "$label" >"$dir/label"
    if [ "$engine" = postgres ]; then
        database="${label//-/_}"
        pg_sql "CREATE DATABASE $database TEMPLATE tmpl $COPY_STRATEGY"
        echo "$database" >"$dir/database"
        store=$(pg_url "$database")
    else
        store="$dir/store.sqlite"
        cp "$TEMPLATE" "$store"
    fi
    echo "$(busy_percent)" >"$dir/busy"
    cut -d' ' -f1-3 /proc/loadavg >"$dir/load"
    log "$label on $engine: threshold $k (machine $(cat "$dir/busy")% busy just before, load $(cat "$dir/load"))"
    step "$dir" import -- "$BIN" import "$DONATIONS/donations.jsonl" --store "$store" --engagement-threshold "$k" --json
    step "$dir" publish -- "$BIN" publish --store "$store" --json
    stats "$dir" "$store" "$dir/stats-full.json"
    if [ "$engine" = postgres ]; then
        # The replica's first build, into the run's own empty folder.
        rm -rf "$dir/index-cache"
        step "$dir" replica-build -- "$BIN" sync --store "$store" --index-cache "$dir/index-cache" --json
        replica_size "$dir" replica-build
    fi
    step "$dir" import-change -- "$BIN" import "$DONATIONS/change.jsonl" --store "$store" --json
    step "$dir" publish-change -- "$BIN" publish --store "$store" --json
    stats "$dir" "$store" "$dir/stats.json"
    if [ "$engine" = postgres ]; then
        step "$dir" replica-sync -- "$BIN" sync --store "$store" --index-cache "$dir/index-cache" --json
        replica_size "$dir" replica-sync
    fi
    if [ "$search" = 1 ]; then
        [ "$HAS_BATCH_SEARCH" = 0 ] || cli_search "$dir" "$store"
        if [ "$engine" = sqlite ]; then
            wait_child python3 "$DATA" sqlsearch --store "$store" --queries "$DONATIONS/queries.jsonl" --mode fts \
                --repeat "$SEARCH_REPEAT" --out "$dir/search-fts.json"
            wait_child python3 "$DATA" sqlsearch --store "$store" --queries "$DONATIONS/queries.jsonl" --mode like \
                --repeat "$LIKE_REPEAT" --out "$dir/search-like.json"
        fi
        python3 "$DATA" show-search "$dir"/search-*.json >&2
    fi
    if [ "$KEEP_TMP" != 1 ]; then
        if [ -n "$database" ]; then
            pg_sql "DROP DATABASE $database"
            rm -rf "$dir/index-cache"
        else
            rm -f "$store" "$store-wal" "$store-shm"
        fi
    fi
}

log "$(python3 "$DATA" describe --short "$DONATIONS/manifest.json"); engines: ${ENGINE_LIST[*]}"
# The engines alternate within each run, so that a change in the machine's load falls on both.
for i in $(seq "$RUNS"); do
    for engine in "${ENGINE_LIST[@]}"; do
        one_run "run$i-k$THRESHOLD" "$THRESHOLD" 1 "$engine"
        run_dirs+=("$WORK/run$i-k$THRESHOLD-$engine")
    done
done
for k in $EXTRA_THRESHOLDS; do
    for engine in "${ENGINE_LIST[@]}"; do
        one_run "run-k$k" "$k" 0 "$engine"
        extra_dirs+=("$WORK/run-k$k-$engine")
    done
done

# ---------------------------------------------------------------------------------------------
# 6. Report.
# ---------------------------------------------------------------------------------------------
commit=$(source_commit)
if [ -n "${SEARCHLIGHT:-}" ]; then built="prebuilt binary $BIN; working tree at commit $commit"; else built="built from commit $commit"; fi
mkdir -p "$HERE/out"
OUT="$HERE/out/index-$(date +%Y-%m-%d-%H%M%S).md"
{
    echo "# Index benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'): ${ENGINE_LIST[*]}"
    echo
    python3 "$DATA" describe "$DONATIONS/manifest.json"
    echo
    python3 "$DATA" report "${run_dirs[@]}" ${extra_dirs[@]+"${extra_dirs[@]}"}
    echo
    python3 "$DATA" notes "${run_dirs[@]}" ${extra_dirs[@]+"${extra_dirs[@]}"}
    echo "- searchlight: \`import donations.jsonl --engagement-threshold K --json\`, \`publish --json\`, \`import change.jsonl --json\`, \`publish --json\`$([ "$HAS_BATCH_SEARCH" = 1 ] && echo ", \`search --queries FILE\`")$(uses postgres && echo "; on PostgreSQL also \`sync --index-cache RUN/index-cache --json\` after each publish, and \`search --queries FILE --index-cache RUN/index-cache --no-sync\`") ($built)"
    echo "- search: $QUERY_COUNT queries, one warm-up pass then $SEARCH_REPEAT passes (LIKE: $LIKE_REPEAT pass after one warm-up query), limit 20; Python $(python3 -c 'import platform, sqlite3; print(platform.python_version(), "with SQLite", sqlite3.sqlite_version)')"
    if uses postgres; then
        echo "- PostgreSQL $PG_VERSION: a throw-away cluster on this machine (127.0.0.1, default settings${PG_SETTINGS:+ and \`$PG_SETTINGS\`}); each run a \`CREATE DATABASE … TEMPLATE\` copy of the restored, vacuumed crawl; server CPU = its processes' user+sys over the step (/proc)"
    fi
    echo "- machine: $(machine_line)"
    echo "- $(swift_version)"
} >"$OUT"
echo
cat "$OUT"
echo
log "written to ${OUT#"$REPO"/}"

[ "$failures" -eq 0 ] || die "$failures step(s) failed"
if [ "$STRICT" = 1 ]; then
    python3 "$DATA" verdict "${run_dirs[@]}" || die "a target was missed"
fi
