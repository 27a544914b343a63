#!/usr/bin/env bash
# Crawl benchmark (issue 4): `searchlight crawl` next to Scrapy on one generated 20,000-page site
# served by nginx on loopback, same concurrency, robots.txt obeyed, no delay, in the same run; then
# (MEMORY=1, the default) searchlight's peak RSS crawling a 10,000-page and a 100,000-page site.
#
#   bash Benchmarks/crawl.sh
#   SITE=extract MEMORY=0 bash Benchmarks/crawl.sh
#
# SITE=extract: the comparison site is made of the extraction benchmark's pages (Benchmarks/extract.sh:
# `extract_pages.py set --seed XSEED --count XCOUNT` and the 11 real pages of
# Benchmarks/extract-pages/real/pages.txt) linked to each other by Benchmarks/crawl_extract_site.py:
# PAGES (default 2,000) copies at distinct URLs, only their <a href>s rewritten to point at the site's
# own pages (relative and absolute forms, fragments kept, query links to PATH?page=2 pages of their own;
# links to other hosts kept as they are), a robots.txt Disallow and sitemaps as on the generated site;
# nginx sends no charset (a few pages are windows-1252 or Shift_JIS and say so in a <meta>). Scrapy then
# runs extruct on every page (`-a extruct=1`: JSON-LD, microdata, Open Graph, uniform=False), one item
# a page, in the Python of VENV (extract.sh's venv; Scrapy is pip-installed there next to extruct when
# missing). The target becomes 8× (TARGET).
#
# Reports, per tool: wall seconds, pages/s, CPU seconds (user+sys), CPU seconds per 1,000 pages,
# pages per CPU-second, peak RSS, the requests nginx saw; the ratio of pages per CPU-second
# (target ≥ 5× Scrapy's) and the ratio of peak RSS at 100k vs 10k pages (target ≤ 1.5×). Prints
# Markdown and writes it to Benchmarks/out/crawl-<date>.md. Exits 1 if a run did not crawl the
# whole site or fetched anything robots.txt disallows (STRICT=1: also when a target is missed).
#
# Settings (environment):
#   SITE=generated      the comparison site: generated (Benchmarks/crawl_site.py) or extract (above)
#   RUNS=3              measured runs per tool (after one warm-up run each), alternating
#   PAGES=20000         linked pages of the comparison site (plus PAGES/400 sitemap-only pages);
#                       SITE=extract: 2000 (plus a PATH?page=2 page for one in ten, and the sitemap-only ones)
#   XSEED=15 XCOUNT=120 REAL=1   SITE=extract: the page set (extract.sh's SEED, COUNT and REAL)
#   VENV=Benchmarks/out/.venv-extract  SITE=extract: the Python with extruct (made as extract.sh makes it,
#                       with EXTRUCT=extruct==0.18.0) into which Scrapy is pip-installed (SCRAPY=scrapy)
#   CONCURRENCY=16      searchlight --concurrency and --per-host; Scrapy CONCURRENT_REQUESTS(_PER_DOMAIN)
#   MEMORY=1            run the memory part (0 to skip); MEMORY_SMALL=10000 MEMORY_LARGE=100000
#   TOOLS="searchlight scrapy"  which tools the comparison runs
#   SEED=4              site generator seed
#   SCRATCH=.build-bench   swift build --scratch-path (relative to the repository)
#   SEARCHLIGHT=path    use this binary and skip the build
#   NGINX_WORKERS=1     nginx worker_processes;  GZIP=0  1 to have nginx gzip pages and sitemaps
#   TARGET=5 (SITE=extract: 8)  MEMORY_TARGET=1.5  the targets;  STRICT=1  exit 1 when one is missed
#   RUN_TIMEOUT=1200    seconds allowed for one comparison run; MEMORY_TIMEOUT=3600 for one memory run
#   BUILD_TIMEOUT=1800  for the build;  KEEP_TMP=1  keep the temporary folder (sites, logs, stores)
#
# How things are measured (see Docs/benchmarks.md, "Crawl"):
# - Benchmarks/fetch_helper.py `measure` runs the tool under GNU time and collects it with wait4(2):
#   user+sys CPU of every thread and child, peak RSS of the tool alone (%M), wall time around it.
#   Only the crawler is measured; nginx is a separate process tree.
# - Benchmarks/crawl_helper.py `annotate` checks every run against nginx's access log: every page
#   of the site requested and answered 200, nothing under /private/, robots.txt fetched; and against
#   the tool's own count (searchlight: counters.pagesFetched of `--json`; Scrapy: its item feed).
# - Every run gets a fresh store (searchlight) or a fresh feed and log (Scrapy).
# - All traffic goes to 127.0.0.1 only (proxy variables cleared; searchlight needs
#   --allow-private-network to crawl a loopback address at all).
set -euo pipefail

SITE=${SITE:-generated}
case "$SITE" in generated | extract) ;; *) echo "[crawl.sh] error: SITE must be generated or extract" >&2; exit 1 ;; esac
RUNS=${RUNS:-3}
if [ "$SITE" = extract ]; then PAGES=${PAGES:-2000}; else PAGES=${PAGES:-20000}; fi
XSEED=${XSEED:-15}
XCOUNT=${XCOUNT:-120}
REAL=${REAL:-1}
EXTRUCT=${EXTRUCT:-extruct==0.18.0}
SCRAPY=${SCRAPY:-scrapy}
CONCURRENCY=${CONCURRENCY:-16}
MEMORY=${MEMORY:-1}
MEMORY_SMALL=${MEMORY_SMALL:-10000}
MEMORY_LARGE=${MEMORY_LARGE:-100000}
TOOLS=${TOOLS:-searchlight scrapy}
SEED=${SEED:-4}
NGINX_WORKERS=${NGINX_WORKERS:-1}
GZIP=${GZIP:-0}
if [ "$SITE" = extract ]; then TARGET=${TARGET:-8}; else TARGET=${TARGET:-5}; fi
MEMORY_TARGET=${MEMORY_TARGET:-1.5}
STRICT=${STRICT:-0}
RUN_TIMEOUT=${RUN_TIMEOUT:-1200}
MEMORY_TIMEOUT=${MEMORY_TIMEOUT:-3600}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-1800}
KEEP_TMP=${KEEP_TMP:-0}

# shellcheck source=Benchmarks/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HERE=$BENCH_DIR
MEASURE="$HERE/fetch_helper.py"
HELPER="$HERE/crawl_helper.py"
SITE_GEN="$HERE/crawl_site.py"
SPIDER="$HERE/crawl_scrapy_spider.py"
EXTRACT_SITE_GEN="$HERE/crawl_extract_site.py"
EXTRACT_PAGES="$HERE/extract_pages.py"
REAL_PAGES="$HERE/extract-pages/real"
VENV=${VENV:-$HERE/out/.venv-extract}
SCRATCH=$(repo_path "${SCRATCH:-.build-bench}")

loopback_only
export LC_ALL=C.UTF-8
umask 022

want_tool() { case " $TOOLS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# ---------------------------------------------------------------------------------------------
# 1. Tools: apt-get for what is missing; Scrapy with pip into the current Python.
# ---------------------------------------------------------------------------------------------
need_nginx
need_command curl
need_command python3
need_command timeout coreutils
need_gnu_time
if [ -z "${SEARCHLIGHT:-}" ] && want_tool searchlight; then
    need_packages pkg-config libcurl4-openssl-dev libxml2-dev libpsl-dev libsqlite3-dev
fi
install_missing
NGINX=$(find_nginx)
[ -n "$NGINX" ] || die "nginx not found after install"

SCRAPY_PY=python3
SPIDER_ARGS=()
if want_tool scrapy && [ "$SITE" = extract ]; then
    # Scrapy and extruct in one Python: extract.sh's virtual environment, Scrapy added to it.
    SCRAPY_PY="$VENV/bin/python"
    if [ -x "$SCRAPY_PY" ] && "$SCRAPY_PY" -c 'import extruct' 2>/dev/null; then
        log "reusing extruct's virtual environment $VENV"
    else
        log "creating a virtual environment in $VENV and installing $EXTRUCT with pip"
        rm -rf "$VENV"
        mkdir -p "$(dirname "$VENV")"
        python3 -m venv "$VENV" || die "'python3 -m venv $VENV' failed (Debian: apt-get install python3-venv)"
        timeout 900 "$SCRAPY_PY" -m pip install --quiet --disable-pip-version-check "$EXTRUCT" >&2 ||
            die "'pip install $EXTRUCT' into $VENV failed (PyPI reachable? a proxy in PIP_INDEX_URL?)"
    fi
    if ! "$SCRAPY_PY" -c 'import scrapy' 2>/dev/null; then
        log "installing $SCRAPY with pip into $VENV (next to extruct)"
        timeout 900 "$SCRAPY_PY" -m pip install --quiet --disable-pip-version-check "$SCRAPY" >&2 ||
            die "'pip install $SCRAPY' into $VENV failed"
    fi
    SPIDER_ARGS=(-a extruct=1)
elif want_tool scrapy; then
    if ! python3 -c 'import scrapy' 2>/dev/null; then
        log "installing Scrapy with pip into $(command -v python3)"
        if ! timeout 900 python3 -m pip install --quiet scrapy >&2; then
            die "'python3 -m pip install scrapy' failed: install Scrapy into this Python by hand (a virtual environment whose python3 comes first on PATH will do), or run with TOOLS=searchlight"
        fi
    fi
fi
if want_tool scrapy; then
    SCRAPY_VERSION=$("$SCRAPY_PY" -c 'import scrapy, twisted, lxml.etree as e; print("Scrapy %s, Twisted %s, lxml %s (libxml2 %s)" % (scrapy.__version__, twisted.__version__, e.__version__, ".".join(map(str, e.LIBXML_VERSION))))') ||
        die "Scrapy does not import in $SCRAPY_PY"
    if [ "$SITE" = extract ]; then
        SCRAPY_VERSION="$SCRAPY_VERSION, $("$SCRAPY_PY" -c 'import importlib.metadata as m; print("extruct %s" % m.version("extruct"))')" ||
            die "extruct does not import in $SCRAPY_PY"
    fi
    SCRAPY_PY_VERSION=$("$SCRAPY_PY" -c 'import platform; print(platform.python_version())')
fi

# ---------------------------------------------------------------------------------------------
# 2. Build searchlight (before nginx starts, so the server's lifetime bound covers only the runs).
# ---------------------------------------------------------------------------------------------
BIN=
if want_tool searchlight || [ "$MEMORY" = 1 ]; then
    build_searchlight -c -t "$BUILD_TIMEOUT"
    "$BIN" crawl --help >/dev/null 2>&1 || die "$BIN has no 'crawl' command"
fi

# ---------------------------------------------------------------------------------------------
# 3. Sites, nginx config, nginx.
# ---------------------------------------------------------------------------------------------
make_work_dir searchlight-crawl-bench shared
cleanup() {
    local status=$?
    stop_nginx
    remove_work_dir
    exit $status
}
exit_traps cleanup
mkdir -p "$WORK/nginx/temp" "$WORK/runs"

# Sites: name pages flags. Each gets its own nginx server on its own port and its own access log.
SITES=(main)
declare -A SITE_PAGES=([main]=$PAGES) SITE_FLAGS=([main]="") SITE_PORT=()
if [ "$MEMORY" = 1 ]; then
    SITES+=(small large)
    SITE_PAGES[small]=$MEMORY_SMALL SITE_PAGES[large]=$MEMORY_LARGE
    SITE_FLAGS[small]=--small SITE_FLAGS[large]=--small
fi
if [ "$SITE" = extract ]; then
    # The extraction benchmark's page set, made as Benchmarks/extract.sh makes it.
    SOURCES="$WORK/sources"
    log "generating the extraction page set ($XCOUNT pages, seed $XSEED$([ "$REAL" = 1 ] && echo ", and the real pages"))"
    python3 "$EXTRACT_PAGES" set --out "$SOURCES/gen" --seed "$XSEED" --count "$XCOUNT" >"$WORK/sources.json"
    rm -f "$SOURCES/gen/MANIFEST.json"
    if [ "$REAL" = 1 ]; then
        [ -d "$REAL_PAGES" ] || die "no $REAL_PAGES"
        while IFS= read -r f; do
            [ -n "$f" ] || continue
            src="$REPO/Fixtures/conformance/structured-data/$f"
            [ -f "$src" ] || src="$REAL_PAGES/$f"
            [ -f "$src" ] || die "real page $f is neither in Fixtures/conformance/structured-data nor in $REAL_PAGES"
            mkdir -p "$SOURCES/real/$(dirname "$f")"
            cp "$src" "$SOURCES/real/$f"
        done <"$REAL_PAGES/pages.txt"
    fi
fi
for site in "${SITES[@]}"; do
    port=$(free_port)
    while [[ " ${SITE_PORT[*]:-} " == *" $port "* ]]; do port=$(free_port); done
    SITE_PORT[$site]=$port
    if [ "$site" = main ] && [ "$SITE" = extract ]; then
        log "building the main site from the extraction pages: $PAGES linked pages for 127.0.0.1:$port"
        timeout 1800 python3 "$EXTRACT_SITE_GEN" "$SOURCES" "$WORK/$site" --pages "$PAGES" --seed "$SEED" \
            --base "http://127.0.0.1:$port" >"$WORK/$site.manifest.out"
        continue
    fi
    log "generating the $site site: ${SITE_PAGES[$site]} pages ${SITE_FLAGS[$site]:-(2–200 KB)} for 127.0.0.1:$port"
    # shellcheck disable=SC2086
    timeout 1800 python3 "$SITE_GEN" "$WORK/$site" --pages "${SITE_PAGES[$site]}" --seed "$SEED" \
        --base "http://127.0.0.1:$port" ${SITE_FLAGS[$site]} >"$WORK/$site.manifest.out"
done
manifest() { python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, m))" "$WORK/$1/manifest.json" "$2"; }

nginx_temp_paths
gzip_conf="gzip off;"
[ "$GZIP" = 1 ] && gzip_conf="gzip on; gzip_comp_level 1; gzip_types text/plain application/xml;"
servers=""
for site in "${SITES[@]}"; do
    charset_conf=""
    # The extraction pages declare their own charsets (a few are not UTF-8): no charset in the header.
    [ "$site" = main ] && [ "$SITE" = extract ] && charset_conf="charset off;"
    servers+="    server {
        listen 127.0.0.1:${SITE_PORT[$site]};
        root $WORK/$site/www;
        access_log $WORK/nginx/$site.access.log bench;
        $charset_conf
    }
"
done
{
    nginx_conf_head "$NGINX_WORKERS"
    echo "http {"
    nginx_conf_site_http
    cat <<EOF
    # Small: cached descriptors stay open, and three sites' worth would pass the open-files limit.
    open_file_cache max=1000 inactive=60s;
    $gzip_conf
    client_body_temp_path $WORK/nginx/temp/body;
$temp_paths
$servers
}
EOF
} >"$WORK/nginx/nginx.conf"
NGINX_LIFETIME=$((RUN_TIMEOUT * (2 * RUNS + 2) + 600))
[ "$MEMORY" = 1 ] && NGINX_LIFETIME=$((NGINX_LIFETIME + 2 * MEMORY_TIMEOUT))
log "starting nginx ($(nginx_version)), worker_processes $NGINX_WORKERS"
start_nginx "$NGINX_LIFETIME"
for site in "${SITES[@]}"; do
    wait_nginx "http://127.0.0.1:${SITE_PORT[$site]}/robots.txt" "127.0.0.1:${SITE_PORT[$site]}"
done

# ---------------------------------------------------------------------------------------------
# 4. Runs.
# ---------------------------------------------------------------------------------------------
log_size() { stat -c %s "$WORK/nginx/$1.access.log" 2>/dev/null || echo 0; }
# CPU clock ticks used so far by nginx's worker processes.
nginx_ticks() {
    local master total=0 pid
    master=$(cat "$WORK/nginx/nginx.pid" 2>/dev/null) || { echo 0; return; }
    for pid in $(pgrep -P "$master" 2>/dev/null); do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}

failures=0
run_tool() { # tool site label timeout
    local tool=$1 site=$2 label=$3 limit=$4
    local json="$WORK/runs/$label.json" base="http://127.0.0.1:${SITE_PORT[$site]}" store="" from to
    local cmd=()
    if [ "$tool" = searchlight ]; then
        store="$WORK/runs/$label.sqlite"
        cmd=("$BIN" crawl "$base/" --store "$store" --allow-private-network --delay 0
            --concurrency "$CONCURRENCY" --per-host "$CONCURRENCY" --json)
    else
        cmd=("$SCRAPY_PY" -m scrapy runspider "$SPIDER" -a "base=$base" "${SPIDER_ARGS[@]}"
            -s "CONCURRENT_REQUESTS=$CONCURRENCY" -s "CONCURRENT_REQUESTS_PER_DOMAIN=$CONCURRENCY"
            -s "LOG_FILE=$json.scrapy.log" -s LOG_LEVEL=INFO -o "$json.items.jsonl:jsonl")
    fi
    from=$(log_size "$site")
    local m0 m1 n0 n1
    m0=$(machine_ticks)
    n0=$(nginx_ticks)
    (cd "$WORK/runs" && python3 "$MEASURE" measure --time-bin /usr/bin/time "$json" "$limit" -- "${cmd[@]}") || true
    m1=$(machine_ticks)
    n1=$(nginx_ticks)
    sleep 0.2 # nginx writes each line as the request ends; the last ones land right after the client exits
    to=$(log_size "$site")
    printf '%-24s' "$label" >&2
    local store_args=()
    [ -n "$store" ] && store_args=(--store "$store")
    if ! python3 "$HELPER" annotate "$json" --tool "$tool" --site "$WORK/$site" --label "$site" \
        --log "$WORK/nginx/$site.access.log" --log-from "$from" --log-to "$to" "${store_args[@]}" \
        --machine-ticks "$m0" "$m1" --nginx-ticks "$((n1 - n0))" --clock-ticks "$(getconf CLK_TCK)" >&2; then
        failures=$((failures + 1))
        tail -n 5 "$json.stderr" >&2 || true
    fi
    # Stores of 20,000 pages take hundreds of MB: keep only what KEEP_TMP asks for.
    [ -n "$store" ] && [ "$KEEP_TMP" != 1 ] && rm -f "$store" "$store-wal" "$store-shm"
    rm -f "$json.items.jsonl.tmp" 2>/dev/null || true
}

read -r -a tools <<<"$TOOLS"
measured=()
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
STARTED=$(date +%s)
BUSY_BEFORE=$(busy_percent)
warn_if_busy "$BUSY_BEFORE"
log "comparison on the main site ($(manifest main html_pages) pages, $(manifest main html_bytes) bytes), concurrency $CONCURRENCY"
log "warm-up (not counted)"
for tool in "${tools[@]}"; do run_tool "$tool" main "warmup-$tool" "$RUN_TIMEOUT"; done
log "$RUNS measured runs per tool, alternating"
for i in $(seq "$RUNS"); do
    order=("${tools[@]}")
    if [ $((i % 2)) = 0 ] && [ ${#tools[@]} = 2 ]; then order=("${tools[1]}" "${tools[0]}"); fi
    for tool in "${order[@]}"; do
        run_tool "$tool" main "run$i-$tool" "$RUN_TIMEOUT"
        measured+=("$WORK/runs/run$i-$tool.json")
    done
done

ELAPSED=$(($(date +%s) - STARTED))
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
memory_runs=()
if [ "$MEMORY" = 1 ]; then
    BUSY_MEMORY=$(busy_percent)
    for site in small large; do
        log "memory: searchlight on the $site site ($(manifest $site html_pages) pages)"
        run_tool searchlight "$site" "memory-$site" "$MEMORY_TIMEOUT"
        memory_runs+=("$WORK/runs/memory-$site.json")
    done
fi

# ---------------------------------------------------------------------------------------------
# 5. Report.
# ---------------------------------------------------------------------------------------------
commit=$(source_commit)
if [ -n "${SEARCHLIGHT:-}" ]; then built="prebuilt binary $BIN; working tree at commit $commit"; else built="built from commit $commit"; fi

table=$(python3 "$HELPER" report --target "$TARGET" --verdict-file "$WORK/verdict" "${measured[@]}")
memory_table=""
if [ ${#memory_runs[@]} = 2 ]; then
    memory_table=$(python3 "$HELPER" memory --target "$MEMORY_TARGET" --verdict-file "$WORK/memory-verdict" "${memory_runs[@]}")
fi
sizes=$(manifest main '"min {min}, median {median}, mean {mean}, p90 {p90}, max {max} bytes".format(**size_bytes)')

mkdir -p "$HERE/out"
OUT="$HERE/out/crawl-$(date +%Y-%m-%d-%H%M%S).md"
{
    echo "# Crawl benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    if [ "$SITE" = extract ]; then
        echo "Site (SITE=extract): $(manifest main html_pages) pages made of the extraction benchmark's $(manifest main sources) pages (\`extract_pages.py set --seed $XSEED --count $XCOUNT\`$([ "$REAL" = 1 ] && echo " and the real pages of Benchmarks/extract-pages/real/"); each $(manifest main '"{min}–{max}".format(**copies_per_source)') times) by \`Benchmarks/crawl_extract_site.py --pages $PAGES --seed $SEED\`: $(manifest main linked_pages) reachable by links from /, $(manifest main query_pages) more at PATH?page=2, $(manifest main sitemap_only_pages) only in the sitemap; $(manifest main html_bytes) bytes of HTML (page sizes: $sizes); $(manifest main links_rewritten) <a href>s rewritten to the site's pages, $(manifest main links_kept) kept (other hosts, mailto:, #…); $(manifest main private_linked) linked pages under a robots.txt Disallow; nginx on 127.0.0.1 (no charset in Content-Type), concurrency $CONCURRENCY for both tools, robots.txt obeyed, no delay. Scrapy runs extruct (JSON-LD, microdata, Open Graph) on every page."
    else
        echo "Site: $(manifest main html_pages) pages ($(manifest main linked_pages) reachable by links from /, $(manifest main sitemap_only_pages) only in the sitemap), $(manifest main html_bytes) bytes of HTML (page sizes: $sizes), $(manifest main private_linked) linked pages under a robots.txt Disallow; nginx on 127.0.0.1, concurrency $CONCURRENCY for both tools, robots.txt obeyed, no delay."
    fi
    echo
    echo "$table"
    echo
    if [ -n "$memory_table" ]; then
        echo "Peak RSS as the crawl grows (searchlight alone, 2–6 KB pages, one run each; machine ${BUSY_MEMORY:-?}% busy before):"
        echo
        echo "$memory_table"
        echo
    fi
    if want_tool searchlight; then
        echo "- searchlight: \`searchlight crawl http://127.0.0.1:PORT/ --store FRESH.sqlite --allow-private-network --delay 0 --concurrency $CONCURRENCY --per-host $CONCURRENCY --json\` ($built)"
    fi
    if want_tool scrapy; then
        echo "- Scrapy: \`scrapy runspider Benchmarks/crawl_scrapy_spider.py -a base=http://127.0.0.1:PORT ${SPIDER_ARGS[*]:-}${SPIDER_ARGS[*]:+ }-s CONCURRENT_REQUESTS=$CONCURRENCY -s CONCURRENT_REQUESTS_PER_DOMAIN=$CONCURRENCY -o items.jsonl:jsonl\` (ROBOTSTXT_OBEY, DOWNLOAD_DELAY 0, AutoThrottle and HTTP cache off$([ "$SITE" = extract ] && echo "; extruct.extract(body, base_url, encoding=response.encoding, syntaxes=[json-ld, microdata, opengraph], uniform=False, errors=log) per page, the item counts per syntax"); $SCRAPY_VERSION, Python $SCRAPY_PY_VERSION ($SCRAPY_PY)"
    fi
    echo "- machine: $(machine_line); CPU busy with other work just before the runs: ${BUSY_BEFORE:-?}%; load average before $LOAD_BEFORE, after $LOAD_AFTER; the comparison runs took ${ELAPSED} s"
    echo "- nginx $(nginx_version short), worker_processes $NGINX_WORKERS, gzip $([ "$GZIP" = 1 ] && echo on || echo off)"
    echo "- $(swift_version)"
} >"$OUT"
echo
cat "$OUT"
echo
log "written to ${OUT#"$REPO"/}"

if [ "$failures" -gt 0 ]; then
    die "$failures run(s) did not crawl the whole site, or fetched what robots.txt disallows"
fi
if [ "$STRICT" = 1 ]; then
    [ "$(cat "$WORK/verdict" 2>/dev/null)" = met ] || die "searchlight's pages per CPU-second are under ${TARGET}× Scrapy's"
    [ "$MEMORY" != 1 ] || [ "$(cat "$WORK/memory-verdict" 2>/dev/null)" = met ] ||
        die "peak RSS at $MEMORY_LARGE pages is over ${MEMORY_TARGET}× that at $MEMORY_SMALL"
fi
