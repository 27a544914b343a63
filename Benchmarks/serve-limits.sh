#!/usr/bin/env bash
# `searchlight serve` under the loads its limits are for: large donations while searching, clients that
# never read a large report, a burst of 10 MiB donation bodies, and a SIGTERM while a body trickles in
# (Benchmarks/serve_limits.py says what each measures).
#
#   bash Benchmarks/serve-limits.sh                 # ITEMS published items (default 30,000: an 8-9 MB report)
#   SEARCHLIGHT=path bash Benchmarks/serve-limits.sh  # a searchlight already built (release)
#   SCENARIOS="imports readers burst" …             # only these (also: burst-without-trim, trickle)
#   COMMIT=label …                                   # what the figures are labelled with (default: HEAD)
#
# Steps: build a release searchlight; generate ITEMS donations (Benchmarks/serve_data.py, seeded), import
# and publish them, create a token; start `serve --port 0` (SERVE_ARGS are added) and run the imports,
# readers and burst scenarios on it; then the burst again on a fresh server whose `malloc_trim` is a no-op
# (LD_PRELOAD of a two-line C library built here with cc), to show what the trim gives back; then the
# trickle on a server with the default --shutdown-timeout and on one with --shutdown-timeout 5.
# Prints the figures as JSON and writes them to Benchmarks/out/serve-limits-DATE.json.
set -euo pipefail
# shellcheck source=Benchmarks/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO"
ITEMS=${ITEMS:-30000}
SCRATCH=${SCRATCH:-.build-release}

build_searchlight -q -m "building searchlight (release)"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/searchlight-limits.XXXXXX")
serve_pid=""
cleanup() {
    if [[ -n "$serve_pid" ]]; then kill -TERM "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null || true; fi
    [[ "${KEEP_TMP:-0}" == 1 ]] && log "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT

log "generating and publishing $ITEMS items"
python3 Benchmarks/serve_data.py "$TMP" --items "$ITEMS" --stream 10 >/dev/null
STORE="$TMP/store.sqlite"
"$BIN" import "$TMP/donations.jsonl" --store "$STORE" --engagement-threshold 1 >/dev/null
"$BIN" publish --store "$STORE" >/dev/null
token=$("$BIN" token create --bundle com.bench.stream --store "$STORE" | tail -n 1)
printf 'int malloc_trim(unsigned long pad) { (void)pad; return 0; }\n' >"$TMP/notrim.c"
cc -shared -fPIC -o "$TMP/notrim.so" "$TMP/notrim.c"

start_server() { # [env assignments…] -- serve arguments…: starts serve, sets serve_pid and url
    local environment=()
    while [[ "$1" != "--" ]]; do environment+=("$1"); shift; done
    shift
    env "${environment[@]}" "$BIN" serve --store "$STORE" --port 0 "$@" >"$TMP/serve.out" 2>"$TMP/serve.err" &
    serve_pid=$!
    url=""
    for _ in $(seq 1 300); do
        url=$(sed -n 's/^listening on //p' "$TMP/serve.out" | head -n 1)
        [[ -n "$url" ]] && return 0
        sleep 0.1
    done
    log "serve did not start"; cat "$TMP/serve.err" >&2; exit 1
}
stop_server() {
    kill -TERM "$serve_pid" 2>/dev/null || true
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
}
measure() { # scenario name: runs serve_limits.py against the running server
    python3 Benchmarks/serve_limits.py "$1" --url "$url" --pid "$serve_pid" --token "$token" \
        --mix "$TMP/mix.txt" --json "$TMP/$2.json" >/dev/null
    log "$2: $(tr -d '\n ' <"$TMP/$2.json")"
}

SCENARIOS=${SCENARIOS:-imports readers burst burst-without-trim trickle}
want() { [[ " $SCENARIOS " == *" $1 "* ]]; }
start_server -- ${SERVE_ARGS:-}
want imports && measure imports imports
want readers && measure readers readers
want burst && measure burst burst
stop_server
if want burst-without-trim; then
    start_server LD_PRELOAD="$TMP/notrim.so" -- ${SERVE_ARGS:-}
    measure burst burst-without-trim
    stop_server
fi
if want trickle; then
    start_server -- ${SERVE_ARGS:-}
    measure trickle trickle-default
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
    start_server -- --shutdown-timeout 5 ${SERVE_ARGS:-}
    measure trickle trickle-shutdown-5
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
fi

mkdir -p Benchmarks/out
out="Benchmarks/out/serve-limits-$(date -u +%Y%m%dT%H%M%SZ).json"
python3 - "$TMP" "$out" "${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}" <<'EOF'
import json, os, sys
folder, out, commit = sys.argv[1:4]
names = ["imports", "readers", "burst", "burst-without-trim", "trickle-default", "trickle-shutdown-5"]
figures = {"commit": commit}
for name in names:
    path = os.path.join(folder, name + ".json")
    if os.path.exists(path):
        with open(path) as f:
            figures[name] = json.load(f)
text = json.dumps(figures, indent=1)
print(text)
with open(out, "w") as f:
    f.write(text + "\n")
EOF
