#!/usr/bin/env bash
# Three crawl workers on one store, then a publish and a search, all on loopback: a generated site of
# PAGES pages (Benchmarks/crawl_site.py) served by the fixture server, three `searchlight crawl`
# processes started together on the same store, each printing its JSON summary, then one `publish`.
# Each worker claims URLs under a lease, the per-host cap (--per-host 2) holds for all three together,
# and robots.txt is fetched once; the summaries show how the pages were shared.
#
#   STORE=PATH|postgres://USER@HOST:PORT/DB   the shared store (default: a new SQLite file in a
#             temporary folder)
#   PAGES=1000   WORKERS=3   KEEP_TMP=1 keeps the temporary folder
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/bootstrap.sh
swift build --product searchlight >&2
swift build --product searchlight-fixture-server >&2
bin=$(swift build --show-bin-path)

work=$(mktemp -d)
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    [[ "${KEEP_TMP:-0}" == 1 ]] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

# The site's links carry its base URL, so the port is chosen first and given to the server.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
python3 Benchmarks/crawl_site.py "$work/site" --pages "${PAGES:-1000}" --small --base "$base" >/dev/null

"$bin/searchlight-fixture-server" --root "$work/site/www" --port "$port" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 1 100); do
    [[ -s "$work/server.out" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 3; }
    sleep 0.1
done
[[ -s "$work/server.out" ]] || { echo "many-workers: the fixture server did not start" >&2; exit 3; }

store=${STORE:-$work/shared.sqlite}
workers=${WORKERS:-3}
echo "== $workers workers: searchlight crawl $base/ --store $store --per-host 2 --lease 30 --json"
pids=()
for n in $(seq 1 "$workers"); do
    "$bin/searchlight" crawl "$base/" --store "$store" --allow-private-network --delay 0 --per-host 2 \
        --lease 30 --json >"$work/worker-$n.json" 2>"$work/worker-$n.err" &
    pids+=($!)
done
status=0
for n in $(seq 1 "$workers"); do
    wait "${pids[$((n - 1))]}" || status=$?
    python3 - "$work/worker-$n.json" "$n" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
own = summary.get("workerCounters", {})
print(f"worker {sys.argv[2]}: fetched {own.get('pagesFetched')} pages itself; the pass: "
      f"{summary.get('counters', {}).get('pagesFetched')} pages by {summary.get('workers')} workers, run {summary.get('run')}")
PY
done
[[ $status == 0 ]] || { cat "$work"/worker-*.err >&2; exit "$status"; }

echo
echo "== searchlight publish --store $store"
"$bin/searchlight" publish --store "$store"
echo
echo "== searchlight search lemon --store $store --limit 3"
"$bin/searchlight" search lemon --store "$store" --limit 3 || true
