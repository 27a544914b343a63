#!/usr/bin/env bash
# Many-worker crawl benchmark: the generated 20,000-page site of Benchmarks/crawl.sh, served by nginx
# on loopback, crawled into one fresh store per run by 1, 2 and 4 `searchlight crawl` processes
# started together (they share the pass through the store's leases), on PostgreSQL (a throw-away
# cluster this script starts: initdb into a temporary folder, a free loopback port) and on SQLite.
# Measures, per run: wall time, the CPU seconds of all the workers together (user+sys, from GNU time),
# CPU milliseconds per page and its ratio to one worker's on the same engine (target: within 1.3×),
# the PostgreSQL server's CPU seconds (its processes' user+sys), the pages each worker fetched, and
# from nginx's access log the requests made, the pages requested more than once (target: none) and
# robots.txt requests (target: one per run).
#
#   bash Benchmarks/workers.sh
#
# Settings (environment):
#   PLAN="postgres:1 postgres:2 postgres:4 sqlite:1"   engine:workers runs, in this order, after a
#                       warm-up run of the first
#   RUNS=1              measured rounds of the plan
#   PAGES=20000         linked pages of the site (crawl_site.py; plus its sitemap-only pages)
#   CONCURRENCY=16      each worker's --concurrency, and --per-host (the cap across all workers)
#   SEED=4              site generator seed
#   SCRATCH=.build-bench  swift build --scratch-path;  SEARCHLIGHT=path  use this binary, no build
#   TARGET=1.3          CPU-per-page ratio target;  RUN_TIMEOUT=1800  seconds per run;  KEEP_TMP=1
#
# Prints a Markdown table and writes it to Benchmarks/out/workers-<date>.md. Exits 1 when a run did
# not fetch every page exactly once.
set -euo pipefail

PLAN=${PLAN:-postgres:1 postgres:2 postgres:4 sqlite:1}
RUNS=${RUNS:-1}
PAGES=${PAGES:-20000}
CONCURRENCY=${CONCURRENCY:-16}
SEED=${SEED:-4}
TARGET=${TARGET:-1.3}
RUN_TIMEOUT=${RUN_TIMEOUT:-1800}
KEEP_TMP=${KEEP_TMP:-0}

# shellcheck source=Benchmarks/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HERE=$BENCH_DIR
SCRATCH=$(repo_path "${SCRATCH:-.build-bench}")

loopback_only
export LC_ALL=C.UTF-8

need_nginx nginx-light
need_gnu_time
need_command curl
PG_BIN=$(find_pg_bin)
[[ "$PLAN" != *postgres* || -x "$PG_BIN/initdb" ]] || MISSING+=(postgresql)
install_missing -b -m installing
NGINX=$(find_nginx)
PG_BIN=$(find_pg_bin)

build_searchlight
[[ "$("$BIN" crawl --help 2>&1)" == *--lease* ]] || die "$BIN has no crawl --lease"

make_work_dir searchlight-workers-bench shared
PG_DATA=
cleanup() {
    local status=$?
    stop_nginx
    [ -n "$PG_DATA" ] && as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate stop >/dev/null 2>&1
    remove_work_dir
    exit $status
}
trap cleanup EXIT
mkdir -p "$WORK/nginx/temp" "$WORK/runs"

PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
log "generating the site: $PAGES pages for $BASE"
python3 "$HERE/crawl_site.py" "$WORK/site" --pages "$PAGES" --seed "$SEED" --base "$BASE" >/dev/null
EXPECTED=$(wc -l <"$WORK/site/expected-paths.txt")

{
    nginx_conf_head 1
    cat <<EOF
http {
    log_format bench '\$status \$request_uri';
    types { text/html html; application/xml xml; text/plain txt; }
    default_type application/octet-stream;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $WORK/nginx/temp/body;
    proxy_temp_path $WORK/nginx/temp/proxy;
    fastcgi_temp_path $WORK/nginx/temp/fastcgi;
    uwsgi_temp_path $WORK/nginx/temp/uwsgi;
    scgi_temp_path $WORK/nginx/temp/scgi;
    server {
        listen 127.0.0.1:$PORT;
        root $WORK/site/www;
        access_log $WORK/nginx/access.log bench;
    }
}
EOF
} >"$WORK/nginx/nginx.conf"
"$NGINX" -p "$WORK/nginx/" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" </dev/null >/dev/null 2>&1 &
NGINX_PID=$!
for _ in $(seq 100); do curl -s -o /dev/null -f "$BASE/robots.txt" && break; sleep 0.1; done
curl -s -o /dev/null -f "$BASE/robots.txt" || die "nginx did not start"
log_size() { stat -c %s "$WORK/nginx/access.log" 2>/dev/null || echo 0; }

# PostgreSQL: a throw-away cluster, as the tests start one (initdb as the postgres user when root).
PG_PORT=
if [[ "$PLAN" == *postgres* ]]; then
    PG_DATA="$WORK/pg"
    mkdir -p "$PG_DATA"
    PG_PORT=$(free_port)
    # Durability as Debian configures it, but no fsync wait per commit (synchronous_commit=off): the
    # benchmark measures the crawler and the queries, not this machine's disk flushes.
    pg_init_start "$PG_DATA" "$PG_PORT" "-c synchronous_commit=off -c max_connections=200"
    log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on port $PG_PORT"
fi
pg_cpu() { # user+sys seconds of the cluster's processes, live and ended (the postmaster's children)
    [ -n "$PG_DATA" ] || { echo 0; return; }
    python3 - "$HERE" "$(head -n 1 "$PG_DATA/postmaster.pid")" <<'PY'
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from bench_common import postgres_cpu_seconds
print(postgres_cpu_seconds(sys.argv[2]))
PY
}

ROWS=()
failures=0
run() { # label engine workers
    local label=$1 engine=$2 count=$3 store from to started ended i pg0 pg1
    if [ "$engine" = postgres ]; then
        as_postgres "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U searchlight "$label"
        store=$(pg_url "$label")
    else
        store="$WORK/runs/$label.sqlite"
    fi
    pg0=$(pg_cpu)
    from=$(log_size)
    started=$(date +%s.%N)
    local pids=()
    for i in $(seq "$count"); do
        /usr/bin/time -f '%U %S %M' -o "$WORK/runs/$label.$i.time" \
            timeout "$RUN_TIMEOUT" "$BIN" crawl "$BASE/" --store "$store" --allow-private-network --delay 0 \
            --concurrency "$CONCURRENCY" --per-host "$CONCURRENCY" --json \
            >"$WORK/runs/$label.$i.json" 2>"$WORK/runs/$label.$i.err" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || log "$label: a worker exited $?"; done
    ended=$(date +%s.%N)
    pg1=$(pg_cpu)
    sleep 0.3
    to=$(log_size)
    local row
    row=$(python3 - "$WORK" "$label" "$count" "$from" "$to" "$started" "$ended" "$EXPECTED" "$pg0" "$pg1" <<'PY'
import json, sys
work, label, count, start, end, t0, t1, expected, pg0, pg1 = sys.argv[1:]
count, start, end, expected = int(count), int(start), int(end), int(expected)
with open(f"{work}/nginx/access.log", "rb") as log:
    log.seek(start)
    lines = log.read(end - start).decode().splitlines()
uris = [line.split(" ", 1)[1] for line in lines if " " in line]
html = [u for u in uris if u.endswith(".html") or u == "/"]
seen = {}
for u in html:
    seen[u] = seen.get(u, 0) + 1
repeated = sum(1 for n in seen.values() if n > 1)
robots = uris.count("/robots.txt")
cpu, rss, own = 0.0, 0, []
for i in range(1, count + 1):
    user, system, peak = open(f"{work}/runs/{label}.{i}.time").read().split()[-3:]
    cpu += float(user) + float(system)
    rss = max(rss, int(peak))
    try:
        summary = json.load(open(f"{work}/runs/{label}.{i}.json"))
        own.append(summary["workerCounters"]["pagesFetched"])
    except Exception:
        own.append(-1)
pages = len(seen)
wall = float(t1) - float(t0)
ok = pages == expected and repeated == 0 and robots == 1
server = float(pg1) - float(pg0)
print(f"{count}\t{wall:.1f}\t{pages}\t{len(uris)}\t{repeated}\t{robots}\t{cpu:.1f}\t{1000 * cpu / max(pages, 1):.3f}\t{server:.1f}\t{rss // 1024}\t{'+'.join(map(str, own))}\t{'ok' if ok else 'FAILED'}")
PY
)
    log "$label: $row"
    [[ "$row" == *FAILED ]] && failures=$((failures + 1))
    [ "$KEEP_TMP" = 1 ] || [ "$engine" = postgres ] || rm -f "$store" "$store-wal" "$store-shm"
    ROWS+=("$label"$'\t'"$engine"$'\t'"$row")
}

read -r -a plan <<<"$PLAN"
log "warm-up: ${plan[0]}"
run "warmup" "${plan[0]%%:*}" "${plan[0]##*:}"
for r in $(seq "$RUNS"); do
    for step in "${plan[@]}"; do run "run${r}_${step%%:*}_w${step##*:}" "${step%%:*}" "${step##*:}"; done
done

mkdir -p "$HERE/out"
OUT="$HERE/out/workers-$(date -u +%Y%m%d-%H%M).md"
{
    echo "searchlight $(cd "$REPO" && git rev-parse --short HEAD 2>/dev/null || echo '?'), $EXPECTED pages, --concurrency and --per-host $CONCURRENCY, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "| run | store | workers | wall s | pages | requests | pages requested twice | robots.txt | CPU s (all workers) | CPU ms/page | × one worker | PostgreSQL CPU s | peak RSS MiB (largest worker) | pages per worker | checks |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    declare -A BASELINE=()
    for row in "${ROWS[@]}"; do
        IFS=$'\t' read -r label engine count wall pages requests repeated robots cpu perpage server rss own ok <<<"$row"
        [ "$label" = warmup ] && continue
        [ "$count" = 1 ] && [ -z "${BASELINE[$engine]:-}" ] && BASELINE[$engine]=$perpage
        ratio=$(python3 -c "print(f'{$perpage / ${BASELINE[$engine]:-$perpage}:.2f}')")
        [ "$engine" = postgres ] || server="–"
        echo "| $label | $engine | $count | $wall | $pages | $requests | $repeated | $robots | $cpu | $perpage | $ratio | $server | $rss | $own | $ok |"
    done
} | tee "$OUT"
log "written to $OUT"
[ "$failures" = 0 ] || exit 1
