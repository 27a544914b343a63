#!/usr/bin/env bash
# `searchlight serve` under load: ITEMS published items (default 1,000,000), CONNECTIONS concurrent
# clients (default 64, wrk with 2 threads) over a fixed mix of API requests for DURATION seconds
# (default 30), while a donation stream is posted over HTTP and published by the server in the same run.
#
#   bash Benchmarks/serve.sh                    # SQLite store
#   ENGINE=postgres bash Benchmarks/serve.sh    # a throw-away PostgreSQL cluster (as search.sh makes it),
#                                               # searched through the server's replica (--index-cache)
#   ENGINE=both bash Benchmarks/serve.sh        # SQLite, then PostgreSQL: same data, load and mix; a ratio row
#
# Steps, per engine: build a release searchlight (SEARCHLIGHT=path skips it); generate the donations and
# the mix once (Benchmarks/serve_data.py: seeded, public activities without web pages, so K = 1 publishes
# them all without a crawl); `import --engagement-threshold 1` and `publish` (timed); `token create`;
# `serve --port 0 --publish-interval PUBLISH_INTERVAL` (default 10; on PostgreSQL also `--index-cache
# TMP/postgres/index-cache`, an empty folder: the server builds its replica before its `listening` line,
# READY_TIMEOUT seconds allowed, default 900; the time to that line is reported); a 5 s warm-up with wrk;
# then the measured run: wrk `--latency` on the mix (Benchmarks/serve_mix.lua cycles through it) and, at
# the same time, STREAM_BATCH donations (default 200) posted every STREAM_PAUSE seconds (default 1) with
# curl. After it: the stream's last record must be searchable (polled, at most 2 publish intervals + 60 s;
# on PostgreSQL that is the server's publish and then its replica's sync); then `GET /api/report` twice
# (the first writes the report file of the last publish, the second streams it), timed, with the server's
# anonymous memory before and after; then the server is stopped before the next engine starts.
# Reports throughput, latency p50/p90/p99/max, wrk's errors (socket errors, non-2xx/3xx answers), the
# donation posts and their failures, the server's publishes during the run, and the server's CPU; with
# ENGINE=both also a PostgreSQL/SQLite row (throughput and latency ratios); as a Markdown table on
# standard output and in Benchmarks/out/serve-ENGINE-DATE.md. Exits 1 when a request failed, the streamed
# donations never became searchable or the report was not served; STRICT=1 also when p99 ≥ 20 ms, and
# with ENGINE=both when PostgreSQL's throughput or p99 is not within 1.2× of SQLite's.
#
# Targets (SPEC §8): search p99 under 20 ms at one million items, 64 clients, no failed request; on both
# engines, PostgreSQL (through its replica) within 1.2× of SQLite.
set -euo pipefail
# shellcheck source=Benchmarks/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO"
ENGINE=${ENGINE:-sqlite}
ITEMS=${ITEMS:-1000000}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-30}
PUBLISH_INTERVAL=${PUBLISH_INTERVAL:-10}
STREAM_BATCH=${STREAM_BATCH:-200}
STREAM_PAUSE=${STREAM_PAUSE:-1}
READY_TIMEOUT=${READY_TIMEOUT:-900}
SCRATCH=${SCRATCH:-.build-release}
case "$ENGINE" in
sqlite | postgres) ENGINES=("$ENGINE") ;;
both) ENGINES=(sqlite postgres) ;;
*) log "ENGINE must be sqlite, postgres or both, not '$ENGINE'"; exit 2 ;;
esac

need_command wrk
need_command curl
install_missing -b -n -q -m installing
build_searchlight -q -m "building searchlight (release)"
if [[ " ${ENGINES[*]} " == *" postgres "* ]] && [[ "$("$BIN" serve --help 2>/dev/null)" != *--index-cache* ]]; then
    log "$BIN has no 'serve --index-cache': PostgreSQL is served through a replica since 6c5bd7c"
    exit 1
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/searchlight-serve.XXXXXX")
serve_pid=""
stream_pid=""
PG_DATA=""
stop_server() {
    if [[ -n "$stream_pid" ]]; then kill "$stream_pid" 2>/dev/null || true; fi
    stream_pid=""
    if [[ -n "$serve_pid" ]]; then
        kill -TERM "$serve_pid" 2>/dev/null || true
        # A clean stop lets a started publish finish; a server that does not stop in 120 s is killed.
        for _ in $(seq 1200); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$serve_pid" 2>/dev/null; then
            log "the server ($serve_pid) did not stop within 120 s of SIGTERM: killing it"
            kill -KILL "$serve_pid" 2>/dev/null || true
        fi
        wait "$serve_pid" 2>/dev/null || true
    fi
    serve_pid=""
}
cleanup() {
    stop_server
    if [[ -n "$PG_DATA" ]]; then
        as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast stop >/dev/null 2>&1 || true
        rm -rf "$PG_DATA"
    fi
    [[ "${KEEP_TMP:-0}" == 1 ]] && log "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT

log "generating $ITEMS donations and the mix"
python3 Benchmarks/serve_data.py "$TMP" --items "$ITEMS" --stream $((STREAM_BATCH * (DURATION / STREAM_PAUSE + 5)))
export MIX="$TMP/mix.txt"

start_postgres() { # sets STORE to a new database of a throw-away cluster
    PG_BIN=$(find_pg_bin)
    [[ -x "$PG_BIN/initdb" ]] || { log "PostgreSQL is not installed (apt-get install postgresql)"; exit 1; }
    PG_DATA=$(mktemp -d "${TMPDIR:-/tmp}/searchlight-serve-pg.XXXXXX")
    PG_PORT=$(free_port)
    pg_init_start "$PG_DATA" "$PG_PORT" "-c synchronous_commit=off ${PG_SETTINGS:--c shared_buffers=2GB}" -E UTF8
    as_postgres "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U searchlight serve
    STORE=$(pg_url serve)
}

timed() { # label command…: runs the command, appends "label seconds" to $RUN/steps
    local label=$1 start end
    shift
    start=$(date +%s.%N)
    "$@" >"$RUN/$label.out" 2>"$RUN/$label.err" || { log "$label failed:"; cat "$RUN/$label.err" >&2; exit 1; }
    end=$(date +%s.%N)
    python3 -c 'import sys; print(sys.argv[1], float(sys.argv[3]) - float(sys.argv[2]))' "$label" "$start" "$end" >>"$RUN/steps"
}
server_cpu() { awk '{ print ($14 + $15) / 100 }' "/proc/$serve_pid/stat"; }  # utime + stime, in ticks of 1/100 s
stream() { # posts the stream in batches until killed; one line per post: HTTP status
    local offset=0 total
    total=$(wc -l <"$TMP/stream.jsonl")
    while ((offset < total)); do
        sed -n "$((offset + 1)),$((offset + STREAM_BATCH))p" "$TMP/stream.jsonl" >"$RUN/batch.jsonl"
        curl --silent --noproxy '*' --output /dev/null --write-out '%{http_code}\n' \
            -H "Authorization: Bearer $token" --data-binary @"$RUN/batch.jsonl" "$url/api/donations" || echo 000
        offset=$((offset + STREAM_BATCH))
        sleep "$STREAM_PAUSE"
    done
}
publishes() { curl --silent --noproxy '*' "$url/metrics" | awk '/^searchlight_publishes_total / { print int($2) }'; }
anon_kb() { awk '/^RssAnon/ { print $2 }' "/proc/$serve_pid/status"; }
report_get() { curl --silent --noproxy '*' --output /dev/null --write-out '%{http_code} %{time_total} %{size_download}' "$url/api/report"; }

run_engine() { # engine: the whole measurement on one store; results in $TMP/ENGINE
    local engine=$1 cache=()
    RUN="$TMP/$engine"
    mkdir -p "$RUN"
    if [[ "$engine" == postgres ]]; then
        start_postgres
        cache=(--index-cache "$RUN/index-cache")
    else
        STORE="$RUN/store.sqlite"
    fi
    log "$engine: import and publish"
    timed import "$BIN" import "$TMP/donations.jsonl" --store "$STORE" --engagement-threshold 1
    timed publish "$BIN" publish --store "$STORE" --json
    published=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["published"])' "$RUN/publish.out")
    log "$engine: $published items published"
    token=$("$BIN" token create --bundle com.bench.stream --store "$STORE" | tail -n 1)

    # On PostgreSQL the server builds its replica (an empty cache folder) before it prints `listening`.
    local started=$SECONDS start_ns
    start_ns=$(date +%s.%N)
    "$BIN" serve --store "$STORE" --port 0 --publish-interval "$PUBLISH_INTERVAL" ${cache[@]+"${cache[@]}"} \
        >"$RUN/serve.out" 2>"$RUN/serve.err" &
    serve_pid=$!
    url=""
    while ((SECONDS - started < READY_TIMEOUT)); do
        url=$(sed -n 's/^listening on //p' "$RUN/serve.out" | head -n 1)
        [[ -n "$url" ]] && break
        kill -0 "$serve_pid" 2>/dev/null || { cat "$RUN/serve.err" >&2; exit 1; }
        sleep 0.1
    done
    [[ -n "$url" ]] || { log "serve did not start within ${READY_TIMEOUT}s"; exit 1; }
    python3 -c 'import sys, time; print(f"{time.time() - float(sys.argv[1]):.1f}")' "$start_ns" >"$RUN/ready"
    generation=$(curl --silent --noproxy '*' --head "$url/healthz" | tr -d '\r' |
        awk -F': ' 'tolower($1) == "searchlight-index-generation" { print $2 }')
    log "$engine: serving at $url after $(cat "$RUN/ready") s${generation:+ (replica at generation $generation)}"

    wrk -t2 -c"$CONNECTIONS" -d5s -s Benchmarks/serve_mix.lua "$url" >/dev/null  # warm-up

    publishes_before=$(publishes)
    cpu_before=$(server_cpu)
    stream >"$RUN/posts.txt" &
    stream_pid=$!
    log "$engine: measuring: $CONNECTIONS connections for ${DURATION}s, donations streaming"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency -s Benchmarks/serve_mix.lua "$url" >"$RUN/wrk.txt"
    cat "$RUN/wrk.txt" >&2
    kill "$stream_pid" 2>/dev/null || true
    wait "$stream_pid" 2>/dev/null || true
    stream_pid=""
    cpu_after=$(server_cpu)
    publishes=$(($(publishes) - publishes_before))
    posted=$(wc -l <"$RUN/posts.txt")
    post_failures=$(grep -vc '^200$' "$RUN/posts.txt" || true)
    last=$(sed -n "$((posted * STREAM_BATCH))p" "$TMP/stream.jsonl")
    last_title=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["title"])' "$last")
    last_id=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["persistentIdentifier"])' "$last")
    log "$engine: waiting for the last streamed donation to be searchable: $last_title"
    searchable=0
    deadline=$((SECONDS + 2 * PUBLISH_INTERVAL + 60))
    query=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$last_title")
    while ((SECONDS < deadline)); do
        if curl --silent --noproxy '*' "$url/api/search?q=$query&limit=50" | grep -q ":$last_id\""; then
            searchable=1
            break
        fi
        sleep 1
    done

    # The report of the last publish: the first GET writes its file, the next one streams that file.
    anon_before=$(anon_kb)
    report_first=$(report_get)
    report_again=$(report_get)
    anon_after=$(anon_kb)
    log "$engine: report: first $report_first, again $report_again; anonymous memory $anon_before -> $anon_after kB"
    stop_server
    python3 - "$RUN/result.json" <<PY
import json, sys
json.dump({"engine": "$engine", "published": $published, "posted": $posted, "post_failures": $post_failures,
           "publishes": $publishes, "cpu_before": $cpu_before, "cpu_after": $cpu_after, "searchable": $searchable,
           "ready": float(open("$RUN/ready").read()), "generation": "$generation",
           "report_first": "$report_first", "report_again": "$report_again",
           "anon_before": int("${anon_before:-0}"), "anon_after": int("${anon_after:-0}")}, open(sys.argv[1], "w"))
PY
}

for engine in "${ENGINES[@]}"; do run_engine "$engine"; done

python3 - "$TMP" "$CONNECTIONS" "$DURATION" "$STREAM_BATCH" "$commit" "$PUBLISH_INTERVAL" "${ENGINES[@]}" <<'PY' | tee "$TMP/report.md"
import json, re, sys
tmp, connections, duration, batch, commit, interval, *engines = sys.argv[1:]
NAMES = {"sqlite": "SQLite", "postgres": "PostgreSQL (replica)"}
def unit(value):
    number, suffix = re.fullmatch(r"([\d.]+)(us|ms|s|m)", value).groups()
    return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60_000}[suffix]
rows, failed = {}, False
for engine in engines:
    r = json.load(open(f"{tmp}/{engine}/result.json"))
    wrk = open(f"{tmp}/{engine}/wrk.txt").read()
    r["p"] = {p: unit(v) for p, v in re.findall(r"^\s*(50|90|99)%\s+(\S+)\s*$", wrk, re.M)}
    r["max"] = unit(re.search(r"Latency\s+\S+\s+\S+\s+(\S+)", wrk).group(1))
    r["requests"] = int(re.search(r"(\d+) requests in", wrk).group(1))
    r["rate"] = float(re.search(r"Requests/sec:\s+([\d.]+)", wrk).group(1))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", wrk)
    r["socket_errors"] = sum(int(n) for n in errors.groups()) if errors else 0
    r["non2xx"] = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", wrk)) else 0
    r["steps"] = {k: float(v) for k, v in (line.split() for line in open(f"{tmp}/{engine}/steps"))}
    r["first"], r["again"] = r["report_first"].split(), r["report_again"].split()
    failed |= (r["socket_errors"] + r["non2xx"] + r["post_failures"] > 0 or r["searchable"] != 1
               or r["first"][0] != "200" or r["again"][0] != "200")
    rows[engine] = r
print(f"| engine | items | import s | publish s | serve ready s | clients | requests | req/s | p50 ms | p90 ms "
      f"| p99 ms | max ms | failed (socket, non-2xx) | donations posted (failed) | server publishes | server CPU s "
      f"| streamed donations searchable |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---|")
for engine, r in rows.items():
    print(f"| {NAMES[engine]} | {r['published']:,} | {r['steps']['import']:.1f} | {r['steps']['publish']:.1f} "
          f"| {r['ready']:.1f} | {connections} | {r['requests']:,} | {r['rate']:,.0f} | {r['p']['50']:.2f} "
          f"| {r['p']['90']:.2f} | **{r['p']['99']:.2f}** | {r['max']:.1f} "
          f"| {r['socket_errors'] + r['non2xx']} ({r['socket_errors']}, {r['non2xx']}) "
          f"| {r['posted'] * int(batch):,} in {r['posted']} posts ({r['post_failures']}) | {r['publishes']} "
          f"| {r['cpu_after'] - r['cpu_before']:.1f} | {'yes' if r['searchable'] == 1 else 'NO'} |")
ratio_ok = True
if "sqlite" in rows and "postgres" in rows:
    s, p = rows["sqlite"], rows["postgres"]
    q = lambda a, b: f"{a / b:.2f}×" if b else "–"
    print(f"| PostgreSQL / SQLite | | {q(p['steps']['import'], s['steps']['import'])} "
          f"| {q(p['steps']['publish'], s['steps']['publish'])} | | | | **{q(p['rate'], s['rate'])}** "
          f"| {q(p['p']['50'], s['p']['50'])} | {q(p['p']['90'], s['p']['90'])} | **{q(p['p']['99'], s['p']['99'])}** "
          f"| {q(p['max'], s['max'])} | | | | {q(p['cpu_after'] - p['cpu_before'], s['cpu_after'] - s['cpu_before'])} | |")
    ratio_ok = p["rate"] * 1.2 >= s["rate"] and p["p"]["99"] <= 1.2 * s["p"]["99"]
print()
print(f"searchlight {commit}; {duration} s with wrk -t2 -c{connections} --latency over the 100-request mix; "
      f"--publish-interval {interval}"
      + ("; PostgreSQL served from the server's replica (--index-cache, an empty folder: built before `listening`, "
         "the \"serve ready\" column)" if "postgres" in rows else "")
      + "; targets: p99 < 20 ms, no failed request"
      + ("; PostgreSQL throughput and p99 within 1.2× of SQLite's" if len(rows) == 2 else ""))
for engine, r in rows.items():
    first, again = r["first"], r["again"]
    print()
    print(f"{NAMES[engine]}: GET /api/report after the run: first {float(first[1]):.2f} s (writes the file for the "
          f"last publish), again {float(again[1]):.2f} s (streams it); {int(again[2]) / 1e6:,.1f} MB; status "
          f"{first[0]}, {again[0]}; the server's anonymous memory {r['anon_before'] / 1024:,.0f} -> "
          f"{r['anon_after'] / 1024:,.0f} MB")
worst = max(r["p"]["99"] for r in rows.values())
open(f"{tmp}/verdict", "w").write(("fail" if failed else "ok") + f" {worst} {'ok' if ratio_ok else 'missed'}\n")
PY
mkdir -p Benchmarks/out
cp "$TMP/report.md" "Benchmarks/out/serve-$ENGINE-$(date -u +%Y%m%d-%H%M%S).md"
read -r verdict p99 ratio <"$TMP/verdict"
[[ "$verdict" == ok ]] || { log "a request failed or the stream was not published"; exit 1; }
if [[ "${STRICT:-0}" == 1 ]]; then
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 20 else 1)" "$p99" || { log "p99 $p99 ms is not under 20 ms"; exit 1; }
    [[ "$ratio" == ok ]] || { log "PostgreSQL's throughput or p99 is not within 1.2× of SQLite's"; exit 1; }
fi
