#!/usr/bin/env bash
# Index benchmark (issue 6): one million donated records and 100,000 crawled pages' items through
# `searchlight import` and `searchlight publish` (full, then incremental after a 1% change), and
# search latency over a fixed query mix at about one million published items, the FTS5 path next
# to a plain LIKE scan of the same store in the same run.
#
#   bash Benchmarks/index.sh               # 1,000,000 records
#   bash Benchmarks/index.sh 10000         # a smoke run: the size argument is the number of records
#
# Reports, per run and step: wall seconds, CPU seconds (user+sys), peak RSS, and what searchlight's
# `--json` summary says (records, published items, clusters rewritten); then search latency p50 /
# p99 / max per kind of query. Prints Markdown and writes it to Benchmarks/out/index-<date>.md.
# Targets (SPEC §8): import + full publish of one million records under one minute; search p99
# under 10 ms at one million items. Exits 1 when a step failed (STRICT=1: also when a target is
# missed).
#
# Settings (environment):
#   RECORDS=1000000     donation records (the first argument overrides it)
#   PAGES=100000        pages of the crawled site (crawl_site.py --small; plus PAGES/400 sitemap-only)
#   RUNS=2              measured runs at THRESHOLD (each on a fresh copy of the template store)
#   CJK_SHARE=0         share of titles, descriptions, keywords written without spaces (index_data.py Text)
#   THRESHOLD=1         --engagement-threshold of the measured runs (1: nearly every record publishes)
#   EXTRA_THRESHOLDS=3  one more run at each of these thresholds (import and publish only; "" for none)
#   SEARCH_REPEAT=5     passes over the query mix per FTS search measurement (after one warm-up pass)
#   LIKE_REPEAT=1       passes over the mix for the LIKE scan (each query is a full table scan)
#   SEED=11 SITE_SEED=4 generator seeds
#   CACHE=Benchmarks/.work  the crawled template store and generated donations (reused by reruns)
#   SCRATCH=.build-release  swift build --scratch-path;  SEARCHLIGHT=path  use this binary, no build
#   STEP_TIMEOUT=1800   seconds allowed for one import or publish;  CRAWL_TIMEOUT=3600  for the crawl
#   STRICT=1            exit 1 when a target is missed;  KEEP_TMP=1  keep the stores of the runs
#
# How things are measured (see Docs/benchmarks.md, "Index"):
# - The pages: Benchmarks/crawl_site.py generates a PAGES-page site (2–6 KB pages, the crawl
#   benchmark's markup mix), nginx serves it on 127.0.0.1 and `searchlight crawl` crawls it once into
#   a template store, cached under CACHE (keyed by PAGES and SITE_SEED). Every run copies it.
# - The donations: `index_data.py donations` (seeded) reads the template's pages and writes RECORDS
#   JSON Lines records, a 1% change file and the query mix; cached under CACHE.
# - Each step runs under Benchmarks/fetch_helper.py `measure` (GNU time + wait4(2): user+sys CPU of
#   every thread, peak RSS of the tool alone, wall time around it), one after the other on one store:
#   import, publish (full), import of the change file, publish (incremental).
# - Search: `searchlight search --queries` (timed inside the process, one JSON line per query) when
#   the binary has it; always also the same FTS5 SQL and the LIKE scan through Python's sqlite3
#   (the same system libsqlite3), read-only on the published store.
set -euo pipefail

RECORDS=${1:-${RECORDS:-1000000}}
PAGES=${PAGES:-100000}
RUNS=${RUNS:-2}
CJK_SHARE=${CJK_SHARE:-0}
THRESHOLD=${THRESHOLD:-1}
EXTRA_THRESHOLDS=${EXTRA_THRESHOLDS-3}
SEARCH_REPEAT=${SEARCH_REPEAT:-5}
LIKE_REPEAT=${LIKE_REPEAT:-1}
SEED=${SEED:-11}
SITE_SEED=${SITE_SEED:-4}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
CRAWL_TIMEOUT=${CRAWL_TIMEOUT:-3600}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-3000}
STRICT=${STRICT:-0}
KEEP_TMP=${KEEP_TMP:-0}

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
MEASURE="$HERE/fetch_helper.py"
DATA="$HERE/index_data.py"
SITE_GEN="$HERE/crawl_site.py"
SCRATCH=${SCRATCH:-.build-release}
case "$SCRATCH" in /*) ;; *) SCRATCH="$REPO/$SCRATCH" ;; esac
CACHE=${CACHE:-$HERE/.work}
case "$CACHE" in /*) ;; *) CACHE="$REPO/$CACHE" ;; esac

log() { printf '[index.sh] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export no_proxy='*' NO_PROXY='*'
export LC_ALL=C.UTF-8
umask 022
[[ "$RECORDS" =~ ^[0-9]+$ ]] && [ "$RECORDS" -ge 1000 ] || die "the size (records) must be a number ≥ 1000, not '$RECORDS'"

# ---------------------------------------------------------------------------------------------
# 1. Tools: apt-get for what is missing.
# ---------------------------------------------------------------------------------------------
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
find_nginx() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }
missing=()
[ -n "$(find_nginx)" ] || missing+=(nginx)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v timeout >/dev/null 2>&1 || missing+=(coreutils)
{ [ -x /usr/bin/time ] && /usr/bin/time --version 2>&1 | grep -q GNU; } || missing+=(time)
if [ -z "${SEARCHLIGHT:-}" ]; then
    for pkg in pkg-config libcurl4-openssl-dev libxml2-dev libpsl-dev libsqlite3-dev; do
        have_pkg "$pkg" || missing+=("$pkg")
    done
fi
if [ ${#missing[@]} -gt 0 ]; then
    log "installing missing packages: ${missing[*]}"
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install ${missing[*]} by hand"
    SUDO=()
    [ "$(id -u)" -eq 0 ] || SUDO=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    timeout 900 "${SUDO[@]}" apt-get update -qq
    pkgs=()
    for pkg in "${missing[@]}"; do
        if [ "$pkg" = nginx ] && apt-cache show nginx-light 2>/dev/null | grep -q '^Version:'; then pkgs+=(nginx-light); else pkgs+=("$pkg"); fi
    done
    timeout 900 "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
fi
python3 -c 'import sqlite3; sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE t USING fts5(a)")' 2>/dev/null ||
    die "python3's sqlite3 has no FTS5"

# ---------------------------------------------------------------------------------------------
# 2. Build searchlight (release).
# ---------------------------------------------------------------------------------------------
if [ -n "${SEARCHLIGHT:-}" ]; then
    BIN=$SEARCHLIGHT
else
    command -v swift >/dev/null 2>&1 || die "swift not found (install a Swift toolchain, or set SEARCHLIGHT=path/to/searchlight)"
    log "building searchlight (release, scratch path $SCRATCH)"
    (cd "$REPO" && timeout "$BUILD_TIMEOUT" swift build -c release --scratch-path "$SCRATCH" --product searchlight >&2)
    BIN="$SCRATCH/release/searchlight"
fi
[ -x "$BIN" ] || die "no searchlight binary at $BIN"
for command in crawl import publish; do
    "$BIN" "$command" --help >/dev/null 2>&1 || die "$BIN has no '$command' command"
done
HAS_BATCH_SEARCH=0
"$BIN" search --help 2>/dev/null | grep -q -- '--queries' && HAS_BATCH_SEARCH=1

WORK=$(mktemp -d "${TMPDIR:-/tmp}/searchlight-index-bench.XXXXXX")
chmod 755 "$WORK" # nginx workers run as nobody when started by root
NGINX_PID=
stop_nginx() {
    if [ -s "$WORK/nginx/nginx.pid" ]; then kill -TERM "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null || true; fi
    if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2>/dev/null; then
        kill -TERM "$NGINX_PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
    fi
    NGINX_PID=
}
cleanup() {
    local status=$?
    stop_nginx
    if [ "$KEEP_TMP" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$CACHE"

# ---------------------------------------------------------------------------------------------
# 3. The template store: a crawl of a PAGES-page site (once; cached).
# ---------------------------------------------------------------------------------------------
TEMPLATE="$CACHE/template-p$PAGES-s$SITE_SEED.sqlite"
if [ ! -s "$TEMPLATE" ]; then
    NGINX=$(find_nginx)
    [ -n "$NGINX" ] || die "nginx not found"
    port=$(python3 "$MEASURE" port)
    log "generating a $PAGES-page site for 127.0.0.1:$port (crawl_site.py --small, seed $SITE_SEED)"
    timeout 3600 python3 "$SITE_GEN" "$WORK/site" --pages "$PAGES" --seed "$SITE_SEED" --small \
        --base "http://127.0.0.1:$port" >"$WORK/site.manifest.out"
    expected=$(wc -l <"$WORK/site/expected-paths.txt")
    mkdir -p "$WORK/nginx/temp"
    cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
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
    timeout --kill-after=5 "$((CRAWL_TIMEOUT + 300))" \
        "$NGINX" -p "$WORK/nginx/" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" \
        </dev/null >"$WORK/nginx/stdout.log" 2>&1 &
    NGINX_PID=$!
    ready=0
    for _ in $(seq 100); do
        if curl -q -s -o /dev/null --noproxy '*' --max-time 1 -f "http://127.0.0.1:$port/robots.txt"; then ready=1; break; fi
        sleep 0.1
    done
    [ "$ready" = 1 ] || { cat "$WORK/nginx/error.log" >&2 2>/dev/null || true; die "nginx did not start on 127.0.0.1:$port"; }
    log "crawling it into the template store ($expected pages; ~1 minute per 100,000 pages here)"
    rm -f "$WORK/template.sqlite"*
    timeout "$CRAWL_TIMEOUT" "$BIN" crawl "http://127.0.0.1:$port/" --store "$WORK/template.sqlite" \
        --allow-private-network --delay 0 --concurrency 16 --per-host 16 --json >"$WORK/crawl.json" ||
        die "the crawl failed (exit $?)"
    stop_nginx
    # One file: fold the WAL into the database before it is copied around.
    python3 - "$WORK/template.sqlite" "$expected" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
pages = db.execute("SELECT count(*) FROM page WHERE http_status BETWEEN 200 AND 299 AND is_indexable = 1").fetchone()[0]
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.close()
if pages < int(sys.argv[2]):
    sys.exit(f"the crawl stored {pages} indexable pages, expected {sys.argv[2]}")
print(f"template: {pages} indexable pages", file=sys.stderr)
EOF
    mv "$WORK/template.sqlite" "$TEMPLATE"
    rm -rf "$WORK/site" "$WORK/template.sqlite-wal" "$WORK/template.sqlite-shm"
else
    log "reusing the template store $TEMPLATE"
fi

# ---------------------------------------------------------------------------------------------
# 4. Donations (cached by size, seed, template and generator).
# ---------------------------------------------------------------------------------------------
data_key=$(cat "$DATA" <(stat -c '%s %Y' "$TEMPLATE") | sha256sum | cut -c1-12)
DONATIONS="$CACHE/donations-r$RECORDS-s$SEED-c$CJK_SHARE-$data_key"
if [ ! -s "$DONATIONS/manifest.json" ]; then
    log "generating $RECORDS donation records (seed $SEED) into ${DONATIONS#"$REPO"/}"
    rm -rf "$DONATIONS"
    python3 "$DATA" donations --store "$TEMPLATE" --records "$RECORDS" --seed "$SEED" --cjk-share "$CJK_SHARE" \
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
busy_percent() {
    local a b
    a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat 2>/dev/null) || return 0
    sleep 1
    b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat 2>/dev/null) || return 0
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[2] - x[2]; if (t > 0) printf "%.0f", 100 * (y[1] - x[1]) / t }'
}

failures=0
step() { # run_dir name -- command…
    local dir=$1 name=$2
    shift 3
    python3 "$MEASURE" measure --time-bin /usr/bin/time "$dir/$name.json" "$STEP_TIMEOUT" -- "$@" || true
    if ! python3 "$DATA" show-step "$dir/$name.json" "$name" >&2; then
        failures=$((failures + 1))
        tail -n 5 "$dir/$name.json.stderr" >&2 || true
    fi
}

run_dirs=()
extra_dirs=()
one_run() { # label threshold search(0|1)
    local label=$1 k=$2 search=$3 dir="$WORK/$1" store
    mkdir -p "$dir"
    store="$dir/store.sqlite"
    cp "$TEMPLATE" "$store"
    echo "$(busy_percent)" >"$dir/busy"
    cut -d' ' -f1-3 /proc/loadavg >"$dir/load"
    log "$label: threshold $k (machine $(cat "$dir/busy")% busy just before, load $(cat "$dir/load"))"
    step "$dir" import -- "$BIN" import "$DONATIONS/donations.jsonl" --store "$store" --engagement-threshold "$k" --json
    step "$dir" publish -- "$BIN" publish --store "$store" --json
    python3 "$DATA" stats --store "$store" --out "$dir/stats-full.json" >/dev/null
    step "$dir" import-change -- "$BIN" import "$DONATIONS/change.jsonl" --store "$store" --json
    step "$dir" publish-change -- "$BIN" publish --store "$store" --json
    python3 "$DATA" stats --store "$store" --out "$dir/stats.json" >/dev/null
    if [ "$search" = 1 ]; then
        if [ "$HAS_BATCH_SEARCH" = 1 ]; then
            # One warm-up pass over the mix, then SEARCH_REPEAT passes; elapsedMs is measured inside.
            timeout "$STEP_TIMEOUT" "$BIN" search --queries "$WORK/queries-repeated.txt" --store "$store" \
                >"$dir/search-cli.jsonl" 2>"$dir/search-cli.stderr" || true
            tail -n +"$((QUERY_COUNT + 1))" "$dir/search-cli.jsonl" >"$dir/search-cli-measured.jsonl"
            python3 "$DATA" clisearch --lines "$dir/search-cli-measured.jsonl" --queries "$DONATIONS/queries.jsonl" \
                --out "$dir/search-searchlight.json"
        fi
        python3 "$DATA" sqlsearch --store "$store" --queries "$DONATIONS/queries.jsonl" --mode fts \
            --repeat "$SEARCH_REPEAT" --out "$dir/search-fts.json"
        python3 "$DATA" sqlsearch --store "$store" --queries "$DONATIONS/queries.jsonl" --mode like \
            --repeat "$LIKE_REPEAT" --out "$dir/search-like.json"
        python3 "$DATA" show-search "$dir"/search-*.json >&2
    fi
    if [ "$KEEP_TMP" != 1 ]; then rm -f "$store" "$store-wal" "$store-shm"; fi
}

log "$(python3 "$DATA" describe --short "$DONATIONS/manifest.json")"
for i in $(seq "$RUNS"); do
    one_run "run$i-k$THRESHOLD" "$THRESHOLD" 1
    run_dirs+=("$WORK/run$i-k$THRESHOLD")
done
for k in $EXTRA_THRESHOLDS; do
    one_run "run-k$k" "$k" 0
    extra_dirs+=("$WORK/run-k$k")
done

# ---------------------------------------------------------------------------------------------
# 6. Report.
# ---------------------------------------------------------------------------------------------
cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$REPO" diff --quiet HEAD -- Sources Package.swift 2>/dev/null || commit="$commit with uncommitted changes"
if [ -n "${SEARCHLIGHT:-}" ]; then built="prebuilt binary $BIN; working tree at commit $commit"; else built="built from commit $commit"; fi
mkdir -p "$HERE/out"
OUT="$HERE/out/index-$(date +%Y-%m-%d-%H%M%S).md"
{
    echo "# Index benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    python3 "$DATA" describe "$DONATIONS/manifest.json"
    echo
    python3 "$DATA" report "${run_dirs[@]}" ${extra_dirs[@]+"${extra_dirs[@]}"}
    echo
    python3 "$DATA" notes "${run_dirs[@]}" ${extra_dirs[@]+"${extra_dirs[@]}"}
    echo "- searchlight: \`import donations.jsonl --engagement-threshold K --json\`, \`publish --json\`, \`import change.jsonl --json\`, \`publish --json\`$([ "$HAS_BATCH_SEARCH" = 1 ] && echo ", \`search --queries FILE\`") ($built)"
    echo "- search: $QUERY_COUNT queries, one warm-up pass then $SEARCH_REPEAT passes (LIKE: $LIKE_REPEAT pass after one warm-up query), limit 20; Python $(python3 -c 'import platform, sqlite3; print(platform.python_version(), "with SQLite", sqlite3.sqlite_version)')"
    echo "- machine: $(nproc) cores, ${cpu_model:-unknown CPU}, $(uname -sr)"
    echo "- $(swift --version 2>&1 | head -n 1 || true)"
} >"$OUT"
echo
cat "$OUT"
echo
log "written to ${OUT#"$REPO"/}"

[ "$failures" -eq 0 ] || die "$failures step(s) failed"
if [ "$STRICT" = 1 ]; then
    python3 "$DATA" verdict "${run_dirs[@]}" || die "a target was missed"
fi
