# shellcheck shell=bash
# The shared prologue of the benchmark scripts in Benchmarks/ (sourced, not run):
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# Sets BENCH_DIR (this folder), REPO (the repository) and BENCH_NAME (the script's file name, the
# prefix of its log lines), and defines:
#   log, die                          "[NAME] message" on stderr; die also exits 1
#   loopback_only                     clears the proxy variables (no_proxy='*'): traffic stays on 127.0.0.1
#   repo_path PATH                    PATH, relative ones taken from the repository
#   tools:  have_pkg, have_gnu_time, find_nginx, find_pg_bin, free_port
#           need_command, need_gnu_time, need_nginx, need_packages  (add what is missing to MISSING)
#           install_missing                                         (apt-get for MISSING)
#   build_searchlight                 swift build of the release binary, or $SEARCHLIGHT; sets BIN
#   make_work_dir, exit_traps, remove_work_dir   the temporary folder and its cleanup at exit
#   nginx:  nginx_conf_head, nginx_conf_site_http, nginx_temp_paths, start_nginx, wait_nginx, stop_nginx,
#           nginx_version
#   PostgreSQL: as_postgres, pg_init_start, pg_url
#   the report: machine_ticks, busy_percent, warn_if_busy, machine_line, source_commit, swift_version
# Each function says which variables it reads and sets.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BENCH_DIR/.." && pwd)
BENCH_NAME=$(basename "$0")

log() { printf '[%s] %s\n' "$BENCH_NAME" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Only loopback: no proxy may redirect the traffic anywhere else.
loopback_only() {
    unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
    export no_proxy='*' NO_PROXY='*'
}

# PATH as it is when absolute, else under the repository.
repo_path() { case "$1" in /*) echo "$1" ;; *) echo "$REPO/$1" ;; esac; }

# ---------------------------------------------------------------------------------------------
# Tools.
# ---------------------------------------------------------------------------------------------
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
# GNU time reports the peak RSS of the tool alone (see fetch_helper.py `measure`).
have_gnu_time() { [ -x /usr/bin/time ] && /usr/bin/time --version 2>&1 | grep -q GNU; }
find_nginx() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }
# The newest PostgreSQL's programs (Debian's layout), or nothing.
find_pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
free_port() { python3 "$BENCH_DIR/fetch_helper.py" port; }

# What install_missing installs: the need_* functions add to it, in the order they are called.
MISSING=()
need_command() { command -v "$1" >/dev/null 2>&1 || MISSING+=("${2:-$1}"); } # command [package]
need_gnu_time() { have_gnu_time || MISSING+=(time); }
need_nginx() { [ -n "$(find_nginx)" ] || MISSING+=("${1:-nginx}"); } # [package]
need_packages() { local pkg; for pkg in "$@"; do have_pkg "$pkg" || MISSING+=("$pkg"); done; }

# install_missing [-m MESSAGE] [-b] [-n] [-q]: installs MISSING with apt-get (as root, else with sudo);
# nothing when it is empty. "nginx" becomes nginx-light where the release has it (the small build
# before bookworm, a transitional package for nginx since).
#   -m MESSAGE  the log line before the package names (default: "installing missing packages:")
#   -b          bare: no check that apt-get exists, no `timeout 900` around apt-get
#   -n          no `apt-get update` first
#   -q          apt-get install's output to /dev/null (default: stderr)
install_missing() {
    local message="installing missing packages:" bare=0 update=1 quiet=0 opt OPTIND=1
    while getopts 'm:bnq' opt; do
        case "$opt" in
        m) message=$OPTARG ;; b) bare=1 ;; n) update=0 ;; q) quiet=1 ;; *) return 2 ;;
        esac
    done
    [ ${#MISSING[@]} -gt 0 ] || return 0
    log "$message ${MISSING[*]}"
    local run=() pkgs=() pkg
    [ "$bare" = 1 ] || command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install ${MISSING[*]} by hand"
    [ "$bare" = 1 ] || run=(timeout 900)
    [ "$(id -u)" -eq 0 ] || run+=(sudo)
    if [ "$update" = 1 ]; then DEBIAN_FRONTEND=noninteractive "${run[@]}" apt-get update -qq; fi
    for pkg in "${MISSING[@]}"; do
        if [ "$pkg" = nginx ] && apt-cache show nginx-light 2>/dev/null | grep -q '^Version:'; then pkgs+=(nginx-light); else pkgs+=("$pkg"); fi
    done
    if [ "$quiet" = 1 ]; then
        DEBIAN_FRONTEND=noninteractive "${run[@]}" apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
    else
        DEBIAN_FRONTEND=noninteractive "${run[@]}" apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
    fi
}

# ---------------------------------------------------------------------------------------------
# searchlight.
# ---------------------------------------------------------------------------------------------
# build_searchlight [-t SECONDS] [-m MESSAGE] [-c] [-q]: sets BIN to $SEARCHLIGHT when it is set,
# else builds the release binary in the repository with
#   swift build -c release --static-swift-stdlib --scratch-path SCRATCH --product searchlight
# (SCRATCH: relative to the repository) and sets BIN to SCRATCH/release/searchlight.
#   -t SECONDS  the build's time limit (default: none)
#   -m MESSAGE  logged before the build (default: "building searchlight (release, scratch path SCRATCH)";
#               empty: nothing)
#   -c          checked: die when swift is missing (before the build) or BIN is not executable (after)
#   -q          the build's output to /dev/null (default: stderr)
build_searchlight() {
    local limit= message="building searchlight (release, scratch path $(repo_path "$SCRATCH"))" checked=0 quiet=0
    local opt OPTIND=1 run=()
    while getopts 't:m:cq' opt; do
        case "$opt" in
        t) limit=$OPTARG ;; m) message=$OPTARG ;; c) checked=1 ;; q) quiet=1 ;; *) return 2 ;;
        esac
    done
    if [ -n "${SEARCHLIGHT:-}" ]; then
        BIN=$SEARCHLIGHT
    else
        local scratch
        scratch=$(repo_path "$SCRATCH")
        [ "$checked" = 0 ] || command -v swift >/dev/null 2>&1 ||
            die "swift not found (install a Swift toolchain, or set SEARCHLIGHT=path/to/searchlight)"
        [ -z "$message" ] || log "$message"
        [ -z "$limit" ] || run=(timeout "$limit")
        if [ "$quiet" = 1 ]; then
            (cd "$REPO" && "${run[@]}" swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product searchlight >/dev/null)
        else
            (cd "$REPO" && "${run[@]}" swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product searchlight >&2)
        fi
        BIN="$scratch/release/searchlight"
    fi
    [ "$checked" = 0 ] || [ -x "$BIN" ] || die "no searchlight binary at $BIN"
}

# ---------------------------------------------------------------------------------------------
# The temporary folder and the cleanup at exit.
# ---------------------------------------------------------------------------------------------
# make_work_dir NAME [shared]: WORK=a new folder ${TMPDIR:-/tmp}/NAME.XXXXXX; with "shared", mode 755
# (nginx workers run as nobody, and a PostgreSQL cluster as postgres, when started by root).
make_work_dir() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    [ "${2:-}" != shared ] || chmod 755 "$WORK"
}
# Keeps WORK when KEEP_TMP=1 (and says so), else removes it.
remove_work_dir() { if [ "${KEEP_TMP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi; }
# exit_traps FUNCTION [hup]: FUNCTION at exit; Ctrl-C and TERM (with "hup", HUP too) exit with
# 128 + the signal, so that FUNCTION runs then as well.
exit_traps() {
    # shellcheck disable=SC2064
    trap "$1" EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    [ "${2:-}" != hup ] || trap 'exit 129' HUP
}

# ---------------------------------------------------------------------------------------------
# nginx, in WORK/nginx: the config nginx.conf, pid file nginx.pid, error.log, stdout.log, temp/.
# ---------------------------------------------------------------------------------------------
NGINX_PID=
# Sets temp_paths: the *_temp_path lines (each ending in a newline) of the modules this nginx has (a
# build without a module rejects its directive), for the http block of WORK/nginx/nginx.conf.
nginx_temp_paths() {
    local nginx_v module
    nginx_v=$("$NGINX" -V 2>&1)
    temp_paths=""
    for module in fastcgi proxy scgi uwsgi; do
        grep -q -- "--without-http_${module}_module" <<<"$nginx_v" ||
            temp_paths+="    ${module}_temp_path $WORK/nginx/temp/$module;"$'\n'
    done
}
# The start of WORK/nginx/nginx.conf, before its http block: WORKERS worker processes, in the
# foreground (start_nginx bounds its lifetime), pid file and error log in WORK/nginx.
nginx_conf_head() {
    cat <<EOF
worker_processes $1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
EOF
}
# The first lines of the http block of crawl.sh's and refresh.sh's sites: the access log format
# `bench` (crawl_helper.py read_log_slice reads it), the types a generated site has, UTF-8, and
# kept-alive connections.
nginx_conf_site_http() {
    cat <<'EOF'
    # One line per request, unbuffered, so that a run's requests are all in the log when it ends.
    log_format bench '$status $request_method $request_uri $body_bytes_sent';
    default_type application/octet-stream;
    types { text/html html; application/xml xml; text/plain txt; image/jpeg jpg; }
    charset utf-8;
    charset_types text/html text/plain application/xml;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 100000;
    keepalive_timeout 120s;
EOF
}
# start_nginx SECONDS: NGINX on WORK/nginx/nginx.conf in the background (`daemon off`), its lifetime
# bounded by SECONDS; sets NGINX_PID (the timeout wrapper). stop_nginx ends it.
start_nginx() {
    timeout --kill-after=5 "$1" \
        "$NGINX" -p "$WORK/nginx/" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" \
        </dev/null >"$WORK/nginx/stdout.log" 2>&1 &
    NGINX_PID=$!
}
# wait_nginx URL WHERE [logs]: waits up to ~10 s for URL to answer; else shows nginx's logs ("logs":
# error.log and stdout.log, the default; "error": error.log alone) and dies "nginx did not become ready on WHERE".
wait_nginx() {
    local url=$1 where=$2 logs=${3:-logs} _
    for _ in $(seq 100); do
        if curl -q -s -o /dev/null --noproxy '*' --max-time 1 -f "$url"; then return 0; fi
        [ "$logs" = error ] || kill -0 "$NGINX_PID" 2>/dev/null || break
        sleep 0.1
    done
    if [ "$logs" = error ]; then
        cat "$WORK/nginx/error.log" >&2 2>/dev/null || true
        die "nginx did not start on $where"
    fi
    cat "$WORK/nginx/error.log" "$WORK/nginx/stdout.log" >&2 2>/dev/null || true
    die "nginx did not become ready on $where"
}
# The master we started, by its own pid file (fast shutdown), then its timeout wrapper.
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
# nginx_version [short]: "nginx/1.22.1" (what `nginx -v` says after "nginx version: "); short: "1.22.1".
nginx_version() {
    if [ "${1:-}" = short ]; then "$NGINX" -v 2>&1 | sed 's/^nginx version: nginx\///'; else "$NGINX" -v 2>&1 | sed 's/^nginx version: //'; fi
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL: a throw-away cluster, as the tests start one.
# ---------------------------------------------------------------------------------------------
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
# pg_init_start DATA PORT "SERVER OPTIONS" [INITDB OPTION…]: initdb (as postgres when root; user
# searchlight, trust authentication) into the folder DATA, then starts the cluster on 127.0.0.1:PORT
# (socket in DATA, log DATA/server.log) with the options, and waits for it. Uses PG_BIN.
pg_init_start() {
    local data=$1 port=$2 options=$3
    shift 3
    [ "$(id -u)" -ne 0 ] || chown postgres "$data"
    as_postgres "$PG_BIN/initdb" -D "$data" -U searchlight "$@" --auth=trust >/dev/null
    as_postgres "$PG_BIN/pg_ctl" -D "$data" -w -l "$data/server.log" \
        -o "-p $port -k $data -c listen_addresses=127.0.0.1 $options" start >/dev/null
}
# The store URL of database DB on the cluster at PG_PORT.
pg_url() { echo "postgres://searchlight@127.0.0.1:$PG_PORT/$1?sslmode=disable"; }

# ---------------------------------------------------------------------------------------------
# The machine, for the report.
# ---------------------------------------------------------------------------------------------
# Busy and total clock ticks of the whole machine, from /proc/stat.
machine_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }
# How busy the machine is without us: CPU use over one second from /proc/stat, in % of all cores.
busy_percent() {
    local a b
    a=$(machine_ticks 2>/dev/null) || return 0
    sleep 1
    b=$(machine_ticks 2>/dev/null) || return 0
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[2] - x[2]; if (t > 0) printf "%.0f", 100 * (y[1] - x[1]) / t }'
}
# warn_if_busy PERCENT [DETAIL]: a warning when the machine was over 10% busy before the runs.
warn_if_busy() {
    if [ -n "$1" ] && [ "$1" -gt 10 ]; then
        log "warning: the machine was ${1}% busy before the runs${2:+ ($2)}: other work skews CPU and wall times"
    fi
}
# "2 cores, CPU model, Linux 6.1.0": the report's machine line.
machine_line() {
    local cpu_model
    cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    echo "$(nproc) cores, ${cpu_model:-unknown CPU}, $(uname -sr)"
}
# The repository's commit, "… with uncommitted changes" when Sources or Package.swift differ from it.
source_commit() {
    local commit
    commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
    git -C "$REPO" diff --quiet HEAD -- Sources Package.swift 2>/dev/null || commit="$commit with uncommitted changes"
    echo "$commit"
}
swift_version() { swift --version 2>&1 | head -n 1 || true; }
