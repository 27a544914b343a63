#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, serve the bundled
# example site on loopback, crawl it into the default store (./searchlight.sqlite), import the
# example app's donations, publish the public index, search it, write the dedup report as HTML,
# and show what the crawler made of the site.
#
#   PORT=48123   the example site's loopback port (fixed, so a second run re-crawls the same
#                URLs with conditional requests instead of adding a new host to the store)
#   STORE=./searchlight.sqlite
#   REPORT=./searchlight-report.html
#   SERVE_PORT=8080   where `searchlight serve` listens at the end (on a terminal it keeps serving until
#                Ctrl-C; otherwise it answers one search and stops). SERVE=0 skips it.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/bootstrap.sh

echo "== swift build" >&2
swift build --product searchlight
swift build --product searchlight-fixture-server
bin=$(swift build --show-bin-path)

work=$(mktemp -d)
server_pid=""
serve_pid=""
cleanup() {
    [[ -n "$serve_pid" ]] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# The server prints its base URL once it listens; wait for that line (bounded), never sleep-and-hope.
"$bin/searchlight-fixture-server" --site example --port "${PORT:-48123}" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
base=""
for _ in $(seq 1 100); do
    base=$(head -n 1 "$work/server.out" 2>/dev/null || true)
    [[ -n "$base" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 3; }
    sleep 0.1
done
[[ -n "$base" ]] || { echo "run-example: the fixture server did not start" >&2; exit 3; }
echo "== serving Fixtures/sites/example at $base" >&2

store=${STORE:-./searchlight.sqlite}

echo
echo "== searchlight crawl $base/ --store $store --allow-private-network --plain-http-app-site-association"
"$bin/searchlight" crawl "$base/" --store "$store" --allow-private-network --plain-http-app-site-association

echo
echo "== the same crawl again: a re-crawl with conditional requests, nothing re-extracted"
"$bin/searchlight" crawl "$base/" --store "$store" --allow-private-network --plain-http-app-site-association --json

echo
echo "== import what the recipe app donated (Fixtures/donations/example.jsonl; one bad line on purpose)"
sed "s#{{origin}}#$base#g" Fixtures/donations/example.jsonl >"$work/donations.jsonl"
"$bin/searchlight" import "$work/donations.jsonl" --store "$store" || true

echo
echo "== publish: deduplicate pages and donations, apply the eligibility gate, build the public index"
"$bin/searchlight" publish --store "$store"

echo
echo "== crawl the activity pages the import queued (never crawled before), then publish again"
"$bin/searchlight" crawl --store "$store" --allow-private-network --plain-http-app-site-association >/dev/null || true
"$bin/searchlight" publish --store "$store"

echo
echo "== search the public index"
"$bin/searchlight" search "lemon tart" --store "$store" || true
"$bin/searchlight" search --query 'title == "*rye*"c' --store "$store" || true

report=${REPORT:-./searchlight-report.html}
echo
echo "== the dedup report (also written as HTML to $report)"
"$bin/searchlight" report --store "$store"
"$bin/searchlight" report --store "$store" --format html --output "$report"

echo
echo "== robots.txt decisions for Applebot and for a bot the file shuts out"
"$bin/searchlight" robots --robots-file Fixtures/sites/example/robots.txt --user-agent Applebot "$base/drafts/x.html" || true
"$bin/searchlight" robots --robots-file Fixtures/sites/example/robots.txt --user-agent GreedyBot "$base/" || true

echo
echo "== validate the recipe page as the crawler sees it (robots, universal links, markup, preview)"
"$bin/searchlight" validate "$base/recipes/lemon-tart.html" --allow-private-network --plain-http-app-site-association || true

echo
echo "== what a crawler makes of the recipe page offline: searchlight extract"
"$bin/searchlight" fetch "$base/recipes/lemon-tart.html" --allow-private-network --output "$work/lemon-tart.html" >/dev/null
"$bin/searchlight" extract "$work/lemon-tart.html" --url "$base/recipes/lemon-tart.html" || true

echo
echo "== loopback is refused without --allow-private-network (the production default)"
"$bin/searchlight" fetch "$base/" || true

[[ "${SERVE:-1}" == 0 ]] && exit 0
echo
echo "== searchlight serve --store $store: the public index over HTTP (SPEC §6)"
"$bin/searchlight" serve --store "$store" --port "${SERVE_PORT:-8080}" >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
url=""
for _ in $(seq 1 100); do
    url=$(sed -n 's/^listening on //p' "$work/serve.out" 2>/dev/null | head -n 1)
    [[ -n "$url" ]] && break
    kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 3; }
    sleep 0.1
done
[[ -n "$url" ]] || { echo "run-example: serve did not start" >&2; exit 3; }
echo "GET $url/api/search?q=lemon+tart"
curl --silent --show-error --noproxy '*' "$url/api/search?q=lemon+tart"
echo
echo
echo "Open the search page: $url/?q=lemon+tart   (the report: $url/report, metrics: $url/metrics)"
if [[ -t 1 ]]; then
    echo "Serving until Ctrl-C."
    wait "$serve_pid" || true
    serve_pid=""
fi
