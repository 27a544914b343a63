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

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
HELPER="$HERE/fetch_helper.py"
SCRATCH=${SCRATCH:-.build-bench}
case "$SCRATCH" in /*) ;; *) SCRATCH="$REPO/$SCRATCH" ;; esac

log() { printf '[fetch.sh] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Only loopback: no proxy may redirect the traffic anywhere else.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export no_proxy='*' NO_PROXY='*'
export LC_ALL=C
umask 022

# ---------------------------------------------------------------------------------------------
# 1. Tools: install with apt-get only what is missing.
# ---------------------------------------------------------------------------------------------
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
find_nginx() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }

missing=()
[ -n "$(find_nginx)" ] || missing+=(nginx)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v timeout >/dev/null 2>&1 || missing+=(coreutils)
# GNU time reports the peak RSS of the tool alone (see fetch_helper.py).
{ [ -x /usr/bin/time ] && /usr/bin/time --version 2>&1 | grep -q GNU; } || missing+=(time)
if [ -z "${SEARCHLIGHT:-}" ]; then
    # What `swift build` needs for the CCurl and CLibXML2 system-library targets.
    for pkg in pkg-config libcurl4-openssl-dev libxml2-dev; do have_pkg "$pkg" || missing+=("$pkg"); done
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
        if [ "$pkg" = nginx ]; then
            # nginx-light where the release has it (the small build before bookworm, a transitional
            # package for nginx since), else nginx.
            if apt-cache show nginx-light 2>/dev/null | grep -q '^Version:'; then pkgs+=(nginx-light); else pkgs+=(nginx); fi
        else
            pkgs+=("$pkg")
        fi
    done
    timeout 900 "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
fi
NGINX=$(find_nginx)
[ -n "$NGINX" ] || die "nginx not found after install"
command -v swift >/dev/null 2>&1 || [ -n "${SEARCHLIGHT:-}" ] || die "swift not found (install a Swift toolchain, or set SEARCHLIGHT=path/to/searchlight)"

# ---------------------------------------------------------------------------------------------
# 2. Build searchlight (before nginx starts, so the server's lifetime bound covers only the runs).
# ---------------------------------------------------------------------------------------------
if [ -n "${SEARCHLIGHT:-}" ]; then
    BIN=$SEARCHLIGHT
else
    log "building searchlight (release, scratch path $SCRATCH)"
    (cd "$REPO" && timeout "$BUILD_TIMEOUT" swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product searchlight >&2)
    BIN="$SCRATCH/release/searchlight"
fi
[ -x "$BIN" ] || die "no searchlight binary at $BIN"

# ---------------------------------------------------------------------------------------------
# 3. Pages, nginx config, nginx.
# ---------------------------------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/searchlight-fetch-bench.XXXXXX")
chmod 755 "$WORK" # nginx workers run as nobody when started by root
NGINX_PID=

cleanup() {
    local status=$?
    # The master process we started, by its own pid file (fast shutdown), then its timeout wrapper.
    if [ -s "$WORK/nginx/nginx.pid" ]; then kill -TERM "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null || true; fi
    if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2>/dev/null; then
        kill -TERM "$NGINX_PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
    fi
    if [ "$KEEP_TMP" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

log "generating $PAGES pages in $WORK/www"
mkdir -p "$WORK/www" "$WORK/nginx/temp" "$WORK/runs"
EXPECTED_BYTES=$(timeout 300 python3 "$HELPER" pages "$WORK/www" "$PAGES" "$SEED")
log "pages hold $EXPECTED_BYTES bytes (average $((EXPECTED_BYTES / PAGES)) per page)"

PORT=$(python3 "$HELPER" port)
NGINX_V=$("$NGINX" -V 2>&1)
HAS_STUB_STATUS=0
grep -q -- '--with-http_stub_status_module' <<<"$NGINX_V" && HAS_STUB_STATUS=1
temp_paths=""
for module in fastcgi proxy scgi uwsgi; do
    grep -q -- "--without-http_${module}_module" <<<"$NGINX_V" ||
        temp_paths+="    ${module}_temp_path $WORK/nginx/temp/$module;"$'\n'
done
status_location=""
[ "$HAS_STUB_STATUS" = 1 ] && status_location="        location = /nginx_status { stub_status; access_log off; }"

# worker_processes 1: the machine this was written for has 2 cores; one nginx worker leaves the
# other core to the client being measured, and keeps the server side the same from run to run.
cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes $NGINX_WORKERS;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
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

log "starting nginx ($("$NGINX" -v 2>&1 | sed 's/^nginx version: //')) on 127.0.0.1:$PORT, worker_processes $NGINX_WORKERS"
# `daemon off` in the background, bounded in lifetime; the EXIT trap stops it.
timeout --kill-after=5 $((RUN_TIMEOUT * (2 * RUNS + 2) + 600)) \
    "$NGINX" -p "$WORK/nginx/" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" \
    </dev/null >"$WORK/nginx/stdout.log" 2>&1 &
NGINX_PID=$!

BASE="http://127.0.0.1:$PORT"
probe="$BASE/p/00000.html"
[ "$HAS_STUB_STATUS" = 1 ] && probe="$BASE/nginx_status"
ready=0
for _ in $(seq 100); do # up to ~10 s
    if curl -q -s -o /dev/null --noproxy '*' --max-time 1 -f "$probe"; then ready=1; break; fi
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.1
done
if [ "$ready" != 1 ]; then
    cat "$WORK/nginx/error.log" "$WORK/nginx/stdout.log" >&2 2>/dev/null || true
    die "nginx did not become ready on 127.0.0.1:$PORT"
fi

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

# How busy the machine is without us: CPU use over one second from /proc/stat, in % of all cores.
busy_percent() {
    local a b
    a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat 2>/dev/null) || return 0
    sleep 1
    b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat 2>/dev/null) || return 0
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[2] - x[2]; if (t > 0) printf "%.0f", 100 * (y[1] - x[1]) / t }'
}
BUSY_BEFORE=$(busy_percent)
if [ -n "$BUSY_BEFORE" ] && [ "$BUSY_BEFORE" -gt 10 ]; then
    log "warning: the machine was ${BUSY_BEFORE}% busy before the runs: other work skews CPU and wall times"
fi
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
cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
swift_version=$(swift --version 2>&1 | head -n 1 || true)
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$REPO" diff --quiet HEAD -- Sources Package.swift 2>/dev/null || commit="$commit with uncommitted changes"
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
    echo "- machine: $(nproc) cores, ${cpu_model:-unknown CPU}, $(uname -sr); CPU busy with other work just before the runs: ${BUSY_BEFORE:-?}%"
    echo "- $(curl --version | head -n 1)"
    echo "- nginx $("$NGINX" -v 2>&1 | sed 's/^nginx version: nginx\///'), worker_processes $NGINX_WORKERS, keepalive_requests 100000, access_log off"
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
