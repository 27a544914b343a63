#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, serve the bundled
# example site on loopback and fetch it the way the crawler does.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/bootstrap.sh

echo "== swift build" >&2
swift build --product searchlight
swift build --product searchlight-fixture-server
bin=$(swift build --show-bin-path)

work=$(mktemp -d)
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# The server prints its base URL once it listens; wait for that line (bounded), never sleep-and-hope.
"$bin/searchlight-fixture-server" --site example >"$work/server.out" 2>"$work/server.err" &
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

echo
echo "== searchlight fetch $base/ --allow-private-network"
"$bin/searchlight" fetch "$base/" --allow-private-network

echo
echo "== every page of the site, with the redirect chain followed"
printf '%s\n' / /about.html /contact.html /recipes/lemon-tart.html /robots.txt /sitemap.xml /missing.html \
    | sed "s|^|$base|" >"$work/urls.txt"
"$bin/searchlight" fetch --input "$work/urls.txt" --allow-private-network || true

echo
echo "== what a crawler makes of the recipe page: searchlight extract"
"$bin/searchlight" fetch "$base/recipes/lemon-tart.html" --allow-private-network --output "$work/lemon-tart.html" >/dev/null
"$bin/searchlight" extract "$work/lemon-tart.html" --url "$base/recipes/lemon-tart.html" || true

echo
echo "== the same, refused without --allow-private-network (the production default)"
"$bin/searchlight" fetch "$base/" || true
