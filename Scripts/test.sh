#!/usr/bin/env bash
# The whole test suite: system packages, build, every test, and the format lint.
# Usage: Scripts/test.sh [extra `swift test` arguments, e.g. --filter FetchingTests]
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's start says how long the run has taken so far, so a log shows where the time goes.
phase() { echo "== $1 (at ${SECONDS} s)" >&2; }

phase "Scripts/bootstrap.sh --test"
Scripts/bootstrap.sh --test

phase "swift format lint"
swift format lint --strict --recursive --parallel Package.swift Sources Tests

phase "swift build --build-tests"
swift build --build-tests

# Every `searchlight` the tests start keeps its PostgreSQL search replicas here, not in the user's
# ~/.cache: one folder per run, removed at the end.
XDG_CACHE_HOME="$(mktemp -d -t searchlight-test-cache.XXXXXX)"
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"; phase "end"' EXIT

# With arguments (a --filter, say), one run does what they ask.
if [[ $# -gt 0 ]]; then
    phase "swift test $*"
    swift test --skip-build "$@"
    exit
fi

# The suites that kill crawl processes at chosen moments of a crawl and wait for them to reach the next
# one run on their own, after the rest: alongside the other ~700 tests a two-core machine runs at a load
# of 15-20, and a crawl process then takes longer than the minute a test waits for it to reach a moment.
# So does the many-workers matrix, which times how long a worker holds a slot or URLs it cannot use.
# Both runs always run; the script fails if either does.
alone='SearchlightTests\.(CrawlResumeTests|CrawlWorkersTests)|CrawlerTests\.CrawlWorkerMatrixTests'
status=0
phase "swift test (all but the crawl-kill suites)"
swift test --skip-build --skip "$alone" || status=1
phase "swift test (the crawl-kill suites, alone)"
swift test --skip-build --filter "$alone" || status=1
exit "$status"
