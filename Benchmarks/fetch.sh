#!/usr/bin/env bash
# Fetch benchmark (issue 2): 10,000 small pages from a local nginx over loopback, 32 transfers in
# flight, `searchlight fetch` next to `curl --parallel` over the same URL list in the same run.
#
#   bash Benchmarks/fetch.sh
#
# Reports, per tool: pages fetched, wall seconds (median), pages/s, CPU seconds (median, user+sys),
# CPU ratio vs curl, peak RSS, and the TCP connections nginx accepted. Prints a Markdown table and
# writes it to Benchmarks/out/fetch-<date>.md. Exits 1 if a tool did not fetch every page (or with
# STRICT=1, if searchlight's CPU is over TARGET × curl's).
#
# Settings (environment):
#   RUNS=3            measured runs per tool (after one warm-up run each)
#   PAGES=10000       pages generated and fetched
#   PARALLEL=32       transfers in flight, for both tools
#   SCRATCH=.build-bench   swift build --scratch-path (relative to the repository)
#   SEARCHLIGHT=path  use this binary and skip the build
#   NGINX_WORKERS=1   nginx worker_processes (1 or auto)
#   CURL_IMMEDIATE=1  pass --parallel-immediate to curl (0 to leave it off)
#   TARGET=1.5        the CPU ratio target;  STRICT=1  exit 1 when it is missed
#   RUN_TIMEOUT=300   seconds allowed for one measured run;  BUILD_TIMEOUT=1800 for the build
#   KEEP_TMP=1        keep the temporary folder (pages, nginx config and logs, raw run output)
#
# How things are measured (see Docs/benchmarks.md, "Fetch"):
# - CPU comes from the kernel: Benchmarks/fetch_helper.py starts the tool under GNU time and collects
#   it with wait4(2), whose rusage gives user and system CPU time of every thread at microsecond
#   resolution (GNU time's own ~1 ms included, alike for both tools). Peak RSS is GNU time's %M for
#   the tool alone. Wall time is perf_counter() around start and wait. Only the client's CPU is
#   counted; nginx runs as a separate process tree.
# - Every run is checked: searchlight's summary line must say PAGES responses, 0 failed and the exact
#   total body bytes on disk; curl's `-w '%{http_code} %{size_download} %{num_connects}'` lines must
#   count PAGES × 200 and the same bytes; nginx's stub_status must count exactly PAGES requests.
# - All traffic goes to 127.0.0.1 only (proxies are disabled for both tools).
set -euo pipefail

RUNS=${RUNS:-3}
PAGES=${PAGES:-10000}
PARALLEL=${PARALLEL:-32}
NGINX_WORKERS=${NGINX_WORKERS:-1}
CURL_IMMEDIATE=${CURL_IMMEDIATE:-1}
TARGET=${TARGET:-1.5}
STRICT=${STRICT:-0}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-1800}
KEEP_TMP=${KEEP_TMP:-0}
SEED=${SEED:-2}

# shellcheck source=Benchmarks/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HERE=$BENCH_DIR
HELPER="$HERE/fetch_helper.py"
SCRATCH=$(repo_path "${SCRATCH:-.build-bench}")

loopback_only
export LC_ALL=C
umask 022

# ---------------------------------------------------------------------------------------------
# 1. Tools: install with apt-get only what is missing.
# ---------------------------------------------------------------------------------------------
need_nginx
need_command curl
need_command python3
need_command timeout coreutils
need_gnu_time
# What `swift build` needs for the CCurl and CLibXML2 system-library targets.
[ -n "${SEARCHLIGHT:-}" ] || need_packages pkg-config libcurl4-openssl-dev libxml2-dev
install_missing
NGINX=$(find_nginx)
[ -n "$NGINX" ] || die "nginx not found after install"

# ---------------------------------------------------------------------------------------------
# 2. Build searchlight (before nginx starts, so the server's lifetime bound covers only the runs).
# ---------------------------------------------------------------------------------------------
build_searchlight -c -t "$BUILD_TIMEOUT"

# ---------------------------------------------------------------------------------------------
# 3. Pages, nginx config, nginx.
# ---------------------------------------------------------------------------------------------
make_work_dir searchlight-fetch-bench shared
cleanup() {
    local status=$?
    stop_nginx
    remove_work_dir
    exit $status
}
exit_traps cleanup

log "generating $PAGES pages in $WORK/www"
mkdir -p "$WORK/www" "$WORK/nginx/temp" "$WORK/runs"
EXPECTED_BYTES=$(timeout 300 python3 "$HELPER" pages "$WORK/www" "$PAGES" "$SEED")
log "pages hold $EXPECTED_BYTES bytes (average $((EXPECTED_BYTES / PAGES)) per page)"

PORT=$(free_port)
HAS_STUB_STATUS=0
grep -q -- '--with-http_stub_status_module' <<<"$("$NGINX" -V 2>&1)" && HAS_STUB_STATUS=1
nginx_temp_paths
status_location=""
[ "$HAS_STUB_STATUS" = 1 ] && status_location="        location = /nginx_status { stub_status; access_log off; }"

# worker_processes 1: the machine this was written for has 2 cores; one nginx worker leaves the
# other core to the client being measured, and keeps the server side the same from run to run.
{
    nginx_conf_head "$NGINX_WORKERS"
    cat <<EOF
http {
    access_log off;
    default_type application/octet-stream;
    types { text/html html; }
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 100000;
    keepalive_timeout 120s;
    open_file_cache max=20000 inactive=120s;
    client_body_temp_path $WORK/nginx/temp/body;
$temp_paths
    server {
        listen 127.0.0.1:$PORT;
        root $WORK/www;
$status_location
    }
}
EOF
} >"$WORK/nginx/nginx.conf"

log "starting nginx ($(nginx_version)) on 127.0.0.1:$PORT, worker_processes $NGINX_WORKERS"
# `daemon off` in the background, bounded in lifetime; the EXIT trap stops it.
start_nginx $((RUN_TIMEOUT * (2 * RUNS + 2) + 600))

BASE="http://127.0.0.1:$PORT"
probe="$BASE/p/00000.html"
[ "$HAS_STUB_STATUS" = 1 ] && probe="$BASE/nginx_status"
wait_nginx "$probe" "127.0.0.1:$PORT"

# "accepted-connections requests" from stub_status, or nothing.
server_counters() {
    [ "$HAS_STUB_STATUS" = 1 ] || return 0
    curl -q -s --noproxy '*' --max-time 5 "$BASE/nginx_status" | awk 'NR == 3 { print $1, $3 }'
}

# URL list for searchlight, the same list as a curl config file.
seq -f "$BASE/p/%05g.html" 0 $((PAGES - 1)) >"$WORK/urls.txt"
awk '{ printf "url = \"%s\"\noutput = \"/dev/null\"\n", $0 }' "$WORK/urls.txt" >"$WORK/curl-urls.cfg"

# ---------------------------------------------------------------------------------------------
# 4. Runs.
# ---------------------------------------------------------------------------------------------
SEARCHLIGHT_CMD=("$BIN" fetch --input "$WORK/urls.txt" --concurrency "$PARALLEL" --per-host "$PARALLEL"
    --allow-private-network --quiet --max-redirects 0)
# --parallel-immediate: open new connections at once instead of first waiting to see whether one can
# be multiplexed (never, here: plain HTTP/1.1), as searchlight does with --per-host = --concurrency.
CURL_CMD=(curl -q --silent --show-error --no-progress-meter --parallel --parallel-max "$PARALLEL" --noproxy '*'
    --connect-timeout 5 --max-time 60 -w '%{http_code} %{size_download} %{num_connects}\n')
[ "$CURL_IMMEDIATE" = 1 ] && CURL_CMD+=(--parallel-immediate)
CURL_CMD+=(-K "$WORK/curl-urls.cfg")

failures=0
measured=()
run_tool() { # tool label
    local tool=$1 label=$2 json="$WORK/runs/$2.json" before after counters=()
    before=$(server_counters)
    if [ "$tool" = searchlight ]; then
        python3 "$HELPER" measure --time-bin /usr/bin/time "$json" "$RUN_TIMEOUT" -- "${SEARCHLIGHT_CMD[@]}" || true
    else
        python3 "$HELPER" measure --time-bin /usr/bin/time "$json" "$RUN_TIMEOUT" -- "${CURL_CMD[@]}" || true
    fi
    after=$(server_counters)
    if [ -n "$before" ] && [ -n "$after" ]; then
        read -r c0 r0 <<<"$before"
        read -r c1 r1 <<<"$after"
        # The second stub_status request is counted in `after`: one connection, one request.
        counters=(--server-connections $((c1 - c0 - 1)) --server-requests $((r1 - r0 - 1)))
    fi
    printf '%-16s' "$label" >&2
    if ! python3 "$HELPER" annotate "$json" --tool "$tool" --expected-pages "$PAGES" \
        --expected-bytes "$EXPECTED_BYTES" "${counters[@]}" >&2; then
        failures=$((failures + 1))
        tail -n 5 "$json.stderr" >&2 || true
    fi
}

BUSY_BEFORE=$(busy_percent)
warn_if_busy "$BUSY_BEFORE"
log "warm-up (not counted)"
run_tool searchlight warmup-searchlight
run_tool curl warmup-curl
log "$RUNS measured runs per tool, alternating"
for i in $(seq "$RUNS"); do
    if [ $((i % 2)) = 1 ]; then order=(searchlight curl); else order=(curl searchlight); fi
    for tool in "${order[@]}"; do
        run_tool "$tool" "run$i-$tool"
        measured+=("$WORK/runs/run$i-$tool.json")
    done
done

# ---------------------------------------------------------------------------------------------
# 5. Report.
# ---------------------------------------------------------------------------------------------
swift_version=$(swift_version)
commit=$(source_commit)
if [ -n "${SEARCHLIGHT:-}" ]; then built="prebuilt binary $BIN; working tree now at commit $commit"; else built="built from commit $commit"; fi
curl_flags="--parallel --parallel-max $PARALLEL"
[ "$CURL_IMMEDIATE" = 1 ] && curl_flags+=" --parallel-immediate"

table=$(python3 "$HELPER" report --baseline curl --subject searchlight --target "$TARGET" \
    --verdict-file "$WORK/verdict" "${measured[@]}")

mkdir -p "$HERE/out"
OUT="$HERE/out/fetch-$(date +%Y-%m-%d-%H%M%S).md"
{
    echo "# Fetch benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "$PAGES pages ($EXPECTED_BYTES bytes, $((EXPECTED_BYTES / PAGES)) B average) from nginx on 127.0.0.1, $PARALLEL transfers in flight."
    echo
    echo "$table"
    echo
    echo "- searchlight: \`searchlight fetch --input URLS --concurrency $PARALLEL --per-host $PARALLEL --allow-private-network --quiet --max-redirects 0\` ($built)"
    echo "- curl: \`curl $curl_flags -K URLS.cfg\` with \`output = /dev/null\` per URL and \`-w '%{http_code} %{size_download} %{num_connects}\\n'\`"
    echo "- machine: $(machine_line); CPU busy with other work just before the runs: ${BUSY_BEFORE:-?}%"
    echo "- $(curl --version | head -n 1)"
    echo "- nginx $(nginx_version short), worker_processes $NGINX_WORKERS, keepalive_requests 100000, access_log off"
    echo "- $swift_version"
} >"$OUT"
echo
cat "$OUT"
echo
log "written to ${OUT#"$REPO"/}"

if [ "$failures" -gt 0 ]; then
    die "$failures run(s) did not fetch every page"
fi
if [ "$STRICT" = 1 ] && [ "$(cat "$WORK/verdict" 2>/dev/null)" != met ]; then
    die "searchlight's CPU is over ${TARGET}× curl's"
fi
