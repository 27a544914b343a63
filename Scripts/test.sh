#!/usr/bin/env bash
# The whole test suite: system packages, build, every test, and the format lint.
# Usage: Scripts/test.sh [extra `swift test` arguments, e.g. --filter FetchingTests]
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/bootstrap.sh --test

echo "== swift format lint" >&2
swift format lint --strict --recursive --parallel Package.swift Sources Tests

echo "== swift build --build-tests" >&2
swift build --build-tests

echo "== swift test" >&2
swift test --skip-build "$@"
