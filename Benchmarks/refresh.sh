#!/usr/bin/env bash
# Refresh benchmark (issue 14): what `searchlight crawl --refresh` costs next to a full re-crawl, in
# the same run, when 1% of a generated 20,000-page site changed (and the sitemap says so).
#
#   bash Benchmarks/refresh.sh
#
# The site is Benchmarks/crawl_site.py's, served by nginx on loopback (static files: an ETag and a
# Last-Modified on every response, so an unchanged page answers a conditional request with 304). Every
# sitemap <url> carries an old <lastmod> (OLD_LASTMOD). Steps:
#   1. an initial crawl into a fresh SQLite store (measured, reported apart, not compared);
#   2. CHANGED percent of the linked pages get a new title (seeded choice; new bytes, new mtime, so a
#      new ETag and Last-Modified), and their sitemap <lastmod> becomes the current UTC time, later
#      than the initial crawl;
#   3. from copies of the same store, measured: the refresh (`crawl --refresh`, no URL) and a full
#      re-crawl (`crawl http://127.0.0.1:PORT/`, a new pass with conditional requests).
# Reports, per phase: requests nginx saw (pages with their 200s and 304s; robots.txt and sitemaps),
# body bytes sent, CPU seconds (user+sys), wall seconds, peak RSS; and refresh ÷ full re-crawl for
# requests and CPU (target: under TARGET%, 5 by default). Prints Markdown and writes it to
# Benchmarks/out/refresh-<date>.md.
#
# Exits 1 if a run is wrong: the initial crawl did not fetch the whole site; the refresh missed a
# changed page (no 200), requested any unchanged page, or anything but robots.txt and sitemaps besides
# them; the full re-crawl did not request every page; anything under /private/ (robots.txt disallows
# it) was requested; a crawl failed; or a search for a changed page's new title (after `searchlight
# publish` on the refreshed store) finds nothing. STRICT=1: also when the target is missed.
#
# Settings (environment):
#   PAGES=20000         linked pages of the site (plus PAGES/400 sitemap-only pages)
#   CHANGED=1           percent of the linked pages changed before the measured runs
#   RUNS=1              measured runs of each phase (each from fresh copies of the initial store);
#                       the order alternates between runs
#   CONCURRENCY=16      searchlight --concurrency and --per-host
#   SEED=4              site generator seed (and the choice of changed pages)
#   SMALL=0             1 for 2–6 KB pages (crawl_site.py --small) instead of 2–200 KB
#   OLD_LASTMOD=2025-01-01T00:00:00Z   the <lastmod> of every sitemap <url> at first
#   REFRESH_ARGS=--refresh   what replaces the URL in the refresh's `crawl` command; `{base}` stands for
#                       http://127.0.0.1:PORT (e.g. REFRESH_ARGS='{base}/' runs a full crawl as phase A,
#                       to try the script without --refresh; its checks then fail, as they should)
#   SEARCH=1            the search check (0 to skip: it publishes the refreshed store, which takes a while)
#   SCRATCH=.build-bench   swift build --scratch-path (relative to the repository)
#   SEARCHLIGHT=path    use this binary and skip the build
#   NGINX_WORKERS=1     nginx worker_processes
#   TARGET=5            percent;  STRICT=1  exit 1 when the target is missed
#   RUN_TIMEOUT=1200    seconds allowed for one crawl; PUBLISH_TIMEOUT=1800 for the publish
#   BUILD_TIMEOUT=1800  for the build;  KEEP_TMP=1  keep the temporary folder (site, logs, stores)
#
# How things are measured: as in Benchmarks/crawl.sh (Docs/benchmarks.md, "Crawl"). fetch_helper.py
# `measure` runs the crawl under GNU time: CPU is user+sys of every thread from wait4(2), peak RSS
# GNU time's %M; only searchlight is measured, nginx is a separate process tree. Requests and bytes
# are counted from nginx's access log (`$status $request_method $request_uri $body_bytes_sent`, one
# line per request) between the byte offsets it had before and after each crawl. All traffic goes to
# 127.0.0.1 only (--allow-private-network lets searchlight crawl a loopback address at all).
set -euo pipefail

PAGES=${PAGES:-20000}
CHANGED=${CHANGED:-1}
RUNS=${RUNS:-1}
CONCURRENCY=${CONCURRENCY:-16}
SEED=${SEED:-4}
SMALL=${SMALL:-0}
OLD_LASTMOD=${OLD_LASTMOD:-2025-01-01T00:00:00Z}
REFRESH_ARGS=${REFRESH_ARGS:---refresh}
SEARCH=${SEARCH:-1}
NGINX_WORKERS=${NGINX_WORKERS:-1}
TARGET=${TARGET:-5}
STRICT=${STRICT:-0}
RUN_TIMEOUT=${RUN_TIMEOUT:-1200}
PUBLISH_TIMEOUT=${PUBLISH_TIMEOUT:-1800}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-1800}
KEEP_TMP=${KEEP_TMP:-0}

# shellcheck source=Benchmarks/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HERE=$BENCH_DIR
MEASURE="$HERE/fetch_helper.py"
CRAWL_HELPER="$HERE/crawl_helper.py"
HELPER="$HERE/refresh_helper.py"
SITE_GEN="$HERE/crawl_site.py"
SCRATCH=$(repo_path "${SCRATCH:-.build-bench}")

loopback_only
export LC_ALL=C.UTF-8
umask 022

# ---------------------------------------------------------------------------------------------
# 1. Tools: apt-get for what is missing (as Benchmarks/crawl.sh does).
# ---------------------------------------------------------------------------------------------
need_nginx
need_command curl
need_command python3
need_command timeout coreutils
need_gnu_time
[ -n "${SEARCHLIGHT:-}" ] || need_packages pkg-config libcurl4-openssl-dev libxml2-dev libpsl-dev libsqlite3-dev
install_missing
NGINX=$(find_nginx)
[ -n "$NGINX" ] || die "nginx not found after install"

# ---------------------------------------------------------------------------------------------
# 2. Build searchlight (before nginx starts, so the server's lifetime bound covers only the runs).
# ---------------------------------------------------------------------------------------------
build_searchlight -c -t "$BUILD_TIMEOUT"
"$BIN" crawl --help >/dev/null 2>&1 || die "$BIN has no 'crawl' command"
crawl_help=$("$BIN" crawl --help 2>&1 || true)
if [ "$REFRESH_ARGS" = --refresh ] && ! grep -q -- '--refresh' <<<"$crawl_help"; then
    # Not fatal: the initial crawl and the full re-crawl still run, and the report says what failed.
    log "warning: '$BIN crawl --help' does not mention --refresh: the refresh phase will most likely fail"
fi

# ---------------------------------------------------------------------------------------------
# 3. The site (every sitemap <url> with the old <lastmod>), nginx config, nginx.
# ---------------------------------------------------------------------------------------------
make_work_dir searchlight-refresh-bench shared
cleanup() {
    local status=$?
    stop_nginx
    remove_work_dir
    exit $status
}
exit_traps cleanup
mkdir -p "$WORK/nginx/temp" "$WORK/runs"

PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
SITE="$WORK/site"
site_flags=()
[ "$SMALL" = 1 ] && site_flags=(--small)
log "generating the site: $PAGES pages $([ "$SMALL" = 1 ] && echo "(2–6 KB)" || echo "(2–200 KB)"), sitemap <lastmod> $OLD_LASTMOD, for $BASE"
timeout 1800 python3 "$SITE_GEN" "$SITE" --pages "$PAGES" --seed "$SEED" --base "$BASE" \
    --lastmod "$OLD_LASTMOD" "${site_flags[@]}" >"$WORK/manifest.out"
manifest() { python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, m))" "$SITE/manifest.json" "$1"; }

nginx_temp_paths
ACCESS_LOG="$WORK/nginx/access.log"
{
    nginx_conf_head "$NGINX_WORKERS"
    echo "http {"
    nginx_conf_site_http
    cat <<EOF
    # The defaults, spelled out: conditional requests get 304 for unchanged files, from the ETag
    # (mtime and size) and Last-Modified (mtime) of each file.
    etag on;
    if_modified_since exact;
    # No open_file_cache (unlike crawl.sh): it would serve a changed page's old descriptor and
    # metadata for up to a minute after the change.
    gzip off;
    client_body_temp_path $WORK/nginx/temp/body;
$temp_paths
    server {
        listen 127.0.0.1:$PORT;
        root $SITE/www;
        access_log $ACCESS_LOG bench;
    }
}
EOF
} >"$WORK/nginx/nginx.conf"
NGINX_LIFETIME=$((RUN_TIMEOUT * (2 * RUNS + 1) + PUBLISH_TIMEOUT + 600))
log "starting nginx ($(nginx_version)), worker_processes $NGINX_WORKERS"
start_nginx "$NGINX_LIFETIME"
wait_nginx "$BASE/robots.txt" "127.0.0.1:$PORT"

# ---------------------------------------------------------------------------------------------
# 4. The crawls.
# ---------------------------------------------------------------------------------------------
log_size() { stat -c %s "$ACCESS_LOG" 2>/dev/null || echo 0; }
CRAWL_FLAGS=(--allow-private-network --delay 0 --concurrency "$CONCURRENCY" --per-host "$CONCURRENCY" --json)
read -r -a refresh_words <<<"${REFRESH_ARGS//\{base\}/$BASE}"

# Runs one crawl under measurement: label, store, then the arguments that come before --store.
# Leaves LOG_FROM and LOG_TO, the access log's byte offsets around it.
measure_crawl() {
    local label=$1 store=$2
    shift 2
    LOG_FROM=$(log_size)
    (cd "$WORK/runs" && python3 "$MEASURE" measure --time-bin /usr/bin/time "$WORK/runs/$label.json" "$RUN_TIMEOUT" \
        -- "$BIN" crawl "$@" --store "$store" "${CRAWL_FLAGS[@]}") || true
    sleep 0.2 # nginx writes each line as the request ends; the last ones land right after the client exits
    LOG_TO=$(log_size)
}

failures=0
# The refresh or the full re-crawl, from a fresh copy of the initial store: phase, run number.
run_phase() {
    local phase=$1 i=$2 label store
    label="run$i-$phase"
    store="$WORK/runs/$label.sqlite"
    python3 "$HELPER" copy-store "$INITIAL_STORE" "$store"
    if [ "$phase" = refresh ]; then
        measure_crawl "$label" "$store" "${refresh_words[@]}"
    else
        measure_crawl "$label" "$store" "$BASE/"
    fi
    if ! python3 "$HELPER" check "$WORK/runs/$label.json" --phase "$phase" --label "$label" --site "$SITE" \
        --log "$ACCESS_LOG" --log-from "$LOG_FROM" --log-to "$LOG_TO" >&2; then
        failures=$((failures + 1))
        tail -n 5 "$WORK/runs/$label.json.stderr" >&2 || true
        if [ "$phase" = refresh ] && grep -qi "unknown option" "$WORK/runs/$label.json.stderr" 2>/dev/null; then
            log "the refresh failed: this searchlight does not know '${refresh_words[*]}' (issue 14 not implemented in $BIN?)"
        fi
    fi
    measured+=("$WORK/runs/$label.json")
    # Stores of 20,000 pages take hundreds of MB: keep only the first refreshed store (for the
    # search check) and what KEEP_TMP asks for.
    if [ "$KEEP_TMP" != 1 ] && [ "$label" != run1-refresh ]; then rm -f "$store" "$store-wal" "$store-shm"; fi
}

BUSY_BEFORE=$(busy_percent)
warn_if_busy "$BUSY_BEFORE"

# The initial crawl: the whole site, every page 200 (crawl_helper.py annotate checks it as crawl.sh does).
INITIAL_STORE="$WORK/initial.sqlite"
log "initial crawl of $BASE/ ($(manifest html_pages) pages, $(manifest html_bytes) bytes), concurrency $CONCURRENCY"
measure_crawl initial "$INITIAL_STORE" "$BASE/"
printf '%-24s' initial >&2
python3 "$CRAWL_HELPER" annotate "$WORK/runs/initial.json" --tool searchlight --site "$SITE" --label initial \
    --log "$ACCESS_LOG" --log-from "$LOG_FROM" --log-to "$LOG_TO" --store "$INITIAL_STORE" >&2 || {
    tail -n 5 "$WORK/runs/initial.json.stderr" >&2 || true
    die "the initial crawl did not crawl the whole site: nothing to refresh"
}
python3 "$HELPER" check "$WORK/runs/initial.json" --phase initial --site "$SITE" \
    --log "$ACCESS_LOG" --log-from "$LOG_FROM" --log-to "$LOG_TO" >&2 || die "the initial crawl's log check failed"

# The change. Sitemap <lastmod> has whole seconds and the crawl's last fetches may share the second
# it ended in: two seconds later, the new <lastmod> and the files' mtimes are past every fetch.
sleep 2
STAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
CHANGED_PAGES=$(python3 "$HELPER" mutate "$SITE" --percent "$CHANGED" --seed "$SEED" --lastmod "$STAMP")
log "changed $CHANGED_PAGES of $(manifest linked_pages) linked pages (new title, new mtime), their sitemap <lastmod> now $STAMP"

measured=()
log "$RUNS measured run(s) of each phase, each from a copy of the initial store"
for i in $(seq "$RUNS"); do
    order=(refresh full)
    [ $((i % 2)) = 0 ] && order=(full refresh)
    for phase in "${order[@]}"; do run_phase "$phase" "$i"; done
done

# The search check: after a publish, the refreshed store finds a changed page by its new title.
SEARCH_RESULT="not run (SEARCH=0)"
if [ "$SEARCH" = 1 ]; then
    refreshed="$WORK/runs/run1-refresh.sqlite"
    IFS=$'\t' read -r PROBE_PATH PROBE_TITLE < <(python3 "$HELPER" probe "$SITE")
    if [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit"])' "$WORK/runs/run1-refresh.json")" != 0 ]; then
        SEARCH_RESULT="not run: the refresh failed"
        log "search check skipped: the refresh failed"
    else
        log "publishing the refreshed store, then searching for \"$PROBE_TITLE\" ($PROBE_PATH)"
        if ! timeout "$PUBLISH_TIMEOUT" "$BIN" publish --store "$refreshed" --json >"$WORK/runs/publish.json" 2>"$WORK/runs/publish.stderr"; then
            tail -n 5 "$WORK/runs/publish.stderr" >&2 || true
            SEARCH_RESULT="FAILED: searchlight publish failed"
            failures=$((failures + 1))
        else
            timeout 300 "$BIN" search "$PROBE_TITLE" --store "$refreshed" --json >"$WORK/runs/search.json" 2>"$WORK/runs/search.stderr" || true
            cat "$WORK/runs/search.json" >&2
            if found=$(python3 "$HELPER" found "$WORK/runs/search.json" --path "$PROBE_PATH"); then
                SEARCH_RESULT="\"$PROBE_TITLE\" ($PROBE_PATH): $found"
            else
                SEARCH_RESULT="FAILED: \"$PROBE_TITLE\" ($PROBE_PATH): $found"
                failures=$((failures + 1))
            fi
            log "search: $SEARCH_RESULT"
        fi
    fi
fi

# A refresh with nothing due: a second one on the refreshed store, right after (what a scheduler that
# runs often pays most of the time). Only the sitemaps should be asked, and answered 304.
IDLE_RESULT="not run (the first refresh's store is gone)"
if [ -f "$WORK/runs/run1-refresh.sqlite" ]; then
    measure_crawl idle-refresh "$WORK/runs/run1-refresh.sqlite" "${refresh_words[@]}"
    IDLE_RESULT=$(python3 - "$WORK/runs/idle-refresh.json" "$ACCESS_LOG" "$LOG_FROM" "$LOG_TO" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
with open(sys.argv[2], "rb") as log:
    log.seek(int(sys.argv[3]))
    lines = log.read(int(sys.argv[4]) - int(sys.argv[3])).decode(errors="replace").splitlines()
statuses = {}
for line in lines:
    status = line.split(" ", 1)[0]
    statuses[status] = statuses.get(status, 0) + 1
answers = ", ".join(f"{count} × {status}" for status, count in sorted(statuses.items()))
print(f"{run['cpu_s']:.2f} CPU s, {run['wall_s']:.2f} s wall, {len(lines)} requests ({answers or 'none'}), exit {run['exit']}")
PY
)
    log "refresh with nothing due: $IDLE_RESULT"
fi

# ---------------------------------------------------------------------------------------------
# 5. Report.
# ---------------------------------------------------------------------------------------------
commit=$(source_commit)
if [ -n "${SEARCHLIGHT:-}" ]; then built="prebuilt binary $BIN; working tree at commit $commit"; else built="built from commit $commit"; fi

table=$(python3 "$HELPER" report --target "$TARGET" --initial "$WORK/runs/initial.json" \
    --verdict-file "$WORK/verdict" "${measured[@]}")

mkdir -p "$HERE/out"
OUT="$HERE/out/refresh-$(date +%Y-%m-%d-%H%M%S).md"
{
    echo "# Refresh benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "Site: $(manifest html_pages) pages ($(manifest linked_pages) reachable by links from /, $(manifest sitemap_only_pages) only in the sitemap), $(manifest html_bytes) bytes of HTML, every sitemap \`<url>\` with \`<lastmod>$OLD_LASTMOD</lastmod>\`; nginx on 127.0.0.1, static files (ETag, Last-Modified), concurrency $CONCURRENCY, robots.txt obeyed, no delay. After the initial crawl, $CHANGED_PAGES linked pages ($CHANGED%) got a new title (new bytes and mtime) and \`<lastmod>$STAMP</lastmod>\`."
    echo
    echo "$table"
    echo
    echo "Search for a changed page's new title in the refreshed store, after \`searchlight publish\`: $SEARCH_RESULT."
    echo
    echo "A second refresh right after the first, nothing due (what a frequent scheduler pays most of the time): $IDLE_RESULT."
    echo
    echo "- initial crawl and full re-crawl: \`searchlight crawl http://127.0.0.1:PORT/ --store STORE ${CRAWL_FLAGS[*]}\` (the full re-crawl on a copy of the initial store: a new pass with conditional requests)"
    echo "- refresh: \`searchlight crawl ${REFRESH_ARGS//\{base\}/http://127.0.0.1:PORT} --store STORE ${CRAWL_FLAGS[*]}\` on another copy of the initial store"
    echo "- searchlight $built"
    echo "- machine: $(machine_line); CPU busy with other work just before the runs: ${BUSY_BEFORE:-?}%"
    echo "- nginx $(nginx_version short), worker_processes $NGINX_WORKERS, gzip off"
    echo "- $(swift_version)"
} >"$OUT"
echo
cat "$OUT"
echo
log "written to ${OUT#"$REPO"/}"

if [ "$failures" -gt 0 ]; then
    die "$failures check(s) failed (see above)"
fi
if [ "$STRICT" = 1 ]; then
    [ "$(cat "$WORK/verdict" 2>/dev/null)" = met ] ||
        die "the refresh costs ${TARGET}% or more of the full re-crawl's requests or CPU"
fi
