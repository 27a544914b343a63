#!/usr/bin/env bash
# Fuzzes page extraction (issue 3): libFuzzer drives `PageExtraction(bytes:url:headers:)` (charset
# sniffing and iconv decoding, the libxml2 parse and walk, microdata, RDFa, the JSON-LD parser and its
# repairs, the item mapping and checks) and the serialized JSON report, under AddressSanitizer.
#
#   Scripts/fuzz-extractor.sh [SECONDS] [extra libFuzzer flags]   fuzz for SECONDS (default 600)
#   Scripts/fuzz-extractor.sh --minimize CRASH_FILE [SECONDS]       minimize a finding (default 120 s)
#   Scripts/fuzz-extractor.sh --run FILE...                         run the fuzzer binary on inputs once
#
# Exits 0 when the run ended with no finding, 1 on a finding (crash, trap, per-input hang over 10 s,
# memory over 2 GiB, leak) or a build failure. Findings are written to Fuzz/findings/ (not committed);
# a finding worth keeping is minimized and copied to Fixtures/fuzz/, where
# Tests/ItemsTests/FuzzRegressionTests.swift replays it on every `swift test`.
#
# What it does:
# - builds Fuzz/ (its own package; `Markup`, `Items`, `CLibXML2`, `CZlib` there are links to Sources/) in release
#   mode with ASan and libFuzzer's coverage instrumentation into .build-fuzz/, linking
#   libclang_rt.fuzzer_no_main from the Swift toolchain's clang resource folder;
# - makes the seed corpus in .build-fuzz/seeds/ from Fixtures/pages/, Fixtures/sites/, every HTML file
#   under Fixtures/conformance/ (and each html5lib encoding test case on its own), and Fixtures/fuzz/,
#   each page prefixed with the selector byte (Fuzz/Sources/ExtractorFuzzer/FuzzInput.swift);
# - fuzzes in one process (the machine has 2 cores) with -max_len=65536 -timeout=10
#   -rss_limit_mb=2048 and the dictionary Fuzz/extractor.dict; new coverage goes to
#   .build-fuzz/corpus/, which later runs start from; the log goes to .build-fuzz/logs/.
#
# Settings (environment): SCRATCH=.build-fuzz (build folder, relative to the repository),
# CONFIG=release (or debug: slower, but the configuration `swift test` runs), SKIP_BUILD=1,
# SOURCE_REV=<commit> (fuzz that commit's Sources/ instead of the work tree).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SCRATCH="$REPO/${SCRATCH:-.build-fuzz}"
CONFIG=${CONFIG:-release}
FINDINGS="$REPO/Fuzz/findings"
SEEDS="$SCRATCH/seeds"
CORPUS="$SCRATCH/corpus"
LOGS="$SCRATCH/logs"
PACKAGE="$REPO/Fuzz"
BUILD="$SCRATCH/build"
if [[ -n "${SOURCE_REV:-}" ]]; then
    # Fuzz the sources of a commit instead of the work tree (which others may be editing): a copy of
    # Fuzz/ beside that commit's Sources/, so Fuzz/'s relative links resolve into the copy.
    PACKAGE="$SCRATCH/snapshot/Fuzz"
    BUILD="$SCRATCH/snapshot-build"
fi
BINARY="$BUILD/$CONFIG/ExtractorFuzzer"

# Swift's own crash backtracer would race libFuzzer's handler for a trap (and take seconds to
# symbolicate); libFuzzer's report and ASan's stack trace are enough.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

log() { echo "fuzz-extractor: $*" >&2; }

# The libFuzzer runtime without its `main`, from the clang resource folder of the toolchain that
# builds the fuzzer (/opt/swift/usr/lib/clang/<version>/lib/linux here).
fuzzer_runtime() {
    local swiftc toolchain arch candidate
    swiftc=$(command -v swiftc) || { log "swiftc is not on PATH"; return 1; }
    toolchain=$(dirname "$(dirname "$(readlink -f "$swiftc")")")
    arch=$(uname -m)
    if [[ -x "$toolchain/bin/clang" ]]; then
        candidate="$("$toolchain/bin/clang" --print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer_no_main-$arch.a"
        [[ -f "$candidate" ]] || candidate="$("$toolchain/bin/clang" --print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer_no_main.a"
        if [[ -f "$candidate" ]]; then echo "$candidate"; return 0; fi
    fi
    candidate=$(ls -1d "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$arch".a 2>/dev/null |
        sort -V | tail -n 1)
    [[ -n "$candidate" ]] || candidate="$toolchain/lib/swift/clang/lib/linux/libclang_rt.fuzzer_no_main-$arch.a"
    if [[ -n "$candidate" && -f "$candidate" ]]; then echo "$candidate"; return 0; fi
    log "no libclang_rt.fuzzer_no_main for $arch under $toolchain/lib/clang"
    return 1
}

snapshot() {
    local rev
    rev=$(git -C "$REPO" rev-parse --verify "$SOURCE_REV^{commit}")
    rm -rf "$SCRATCH/snapshot"
    mkdir -p "$SCRATCH/snapshot"
    (cd "$REPO" && tar -c --exclude=Fuzz/findings --exclude=Fuzz/.build Fuzz) | tar -x -C "$SCRATCH/snapshot"
    git -C "$REPO" archive "$rev" Sources/Markup Sources/Items Sources/CLibXML2 Sources/CZlib | tar -x -C "$SCRATCH/snapshot"
    log "fuzzing the sources of $rev"
}

build() {
    local runtime
    runtime=$(fuzzer_runtime)
    [[ -z "${SOURCE_REV:-}" ]] || snapshot
    log "building ${PACKAGE#"$REPO"/} ($CONFIG, ASan + libFuzzer coverage) into ${BUILD#"$REPO"/}; runtime $runtime"
    swift build --package-path "$PACKAGE" --scratch-path "$BUILD" -c "$CONFIG" \
        -Xswiftc -sanitize=address \
        -Xswiftc -sanitize-coverage=edge,trace-cmp,pc-table,inline-8bit-counters \
        -Xswiftc -parse-as-library \
        -Xlinker "$runtime" -Xlinker -lstdc++ >&2
    [[ -x "$BINARY" ]] || { log "the build did not produce $BINARY"; return 1; }
}

# One seed: the selector byte $1 (two hex digits), then the file $2.
seed() {
    local name
    name=$(printf '%s' "$2" | sed "s|^$REPO/||; s|[^A-Za-z0-9._-]|_|g")
    { printf "\\x$1"; cat "$2"; } >"$SEEDS/$1-$name"
}

make_seeds() {
    rm -rf "$SEEDS"
    mkdir -p "$SEEDS"
    local file
    # Pages as served: no headers (00); the charset pages also with a conflicting header charset
    # (windows-1251, 03) and with UTF-16LE (06), and the sites with X-Robots-Tag noindex (10).
    while IFS= read -r -d '' file; do
        seed 00 "$file"
        case "$file" in
        */pages/charset/*) seed 03 "$file"; seed 06 "$file" ;;
        */sites/*) seed 10 "$file" ;;
        esac
    done < <(find "$REPO/Fixtures/pages" "$REPO/Fixtures/sites" -type f \
        ! -name README.md ! -name '*.py' -print0 2>/dev/null)
    while IFS= read -r -d '' file; do
        seed 00 "$file"
    done < <(find "$REPO/Fixtures/conformance" -type f \( -name '*.html' -o -name '*.htm' \) -print0 2>/dev/null)
    # Each html5lib encoding test case (the text between `#data` and `#encoding`) as a page of its own.
    local cases="$SCRATCH/html5lib-cases"
    rm -rf "$cases"
    mkdir -p "$cases"
    while IFS= read -r -d '' file; do
        awk -v out="$cases/html5lib-$(basename "$(dirname "$file")")-$(basename "$file" .dat)" '
            /^#data$/ { n++; keep = 1; first = 1; printf "" > (out "-" n); next }
            /^#encoding$/ { keep = 0; close(out "-" n); next }
            keep { if (!first) printf "\n" >> (out "-" n); printf "%s", $0 >> (out "-" n); first = 0 }
        ' "$file"
    done < <(find "$REPO/Fixtures/conformance/html5lib-encoding" -type f -name '*.dat' -print0 2>/dev/null)
    for file in "$cases"/*; do
        if [[ -f "$file" ]]; then { printf '\x00'; cat "$file"; } >"$SEEDS/00-$(basename "$file")"; fi
    done
    # Kept findings and hostile inputs are already fuzz inputs (selector byte included).
    if [[ -d "$REPO/Fixtures/fuzz" ]]; then
        find "$REPO/Fixtures/fuzz" -type f ! -name README.md -exec cp {} "$SEEDS/" \;
    fi
    log "$(find "$SEEDS" -type f | wc -l) seed inputs in ${SEEDS#"$REPO"/}"
}

case "${1:-}" in
--minimize)
    crash=${2:?usage: fuzz-extractor.sh --minimize CRASH_FILE [SECONDS]}
    [[ "${SKIP_BUILD:-0}" == 1 ]] || build
    mkdir -p "$FINDINGS"
    out="$FINDINGS/minimized-$(basename "$crash")"
    set +e
    "$BINARY" -minimize_crash=1 -max_total_time="${3:-120}" -timeout=10 -rss_limit_mb=2048 \
        -exact_artifact_path="$out" "$crash"
    set -e
    [[ -f "$out" ]] || { log "no minimized input was written"; exit 1; }
    log "minimized input ($(wc -c <"$out") bytes): $out"
    exit 0
    ;;
--run)
    shift
    [[ "${SKIP_BUILD:-0}" == 1 ]] || build
    exec "$BINARY" -timeout=10 -rss_limit_mb=2048 "$@"
    ;;
esac

SECONDS_TO_RUN=${1:-600}
[[ $# -gt 0 ]] && shift
[[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]] || { log "SECONDS must be a whole number, not '$SECONDS_TO_RUN'"; exit 2; }

[[ "${SKIP_BUILD:-0}" == 1 ]] || build
make_seeds
mkdir -p "$CORPUS" "$LOGS" "$FINDINGS"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
log_file="$LOGS/run-$stamp.log"
marker="$LOGS/.started-$stamp"
touch "$marker"

log "fuzzing for $SECONDS_TO_RUN s; log: ${log_file#"$REPO"/}"
set +e
"$BINARY" \
    -max_total_time="$SECONDS_TO_RUN" \
    -max_len=65536 \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -dict="$REPO/Fuzz/extractor.dict" \
    -artifact_prefix="$FINDINGS/" \
    -print_final_stats=1 \
    "$@" \
    "$CORPUS" "$SEEDS" 2>&1 | tee "$log_file"
status=${PIPESTATUS[0]}
set -e

new_findings=$(find "$FINDINGS" -type f -newer "$marker" | sort)
rm -f "$marker"
final=$(grep -E '^#[0-9]+' "$log_file" | tail -n 1 || true)
log "last status line: ${final:-none}"
if [[ $status -ne 0 || -n "$new_findings" ]]; then
    log "FINDING (libFuzzer exit $status):"
    for file in $new_findings; do log "  $file"; done
    log "minimize with: Scripts/fuzz-extractor.sh --minimize FILE; keep it under Fixtures/fuzz/"
    exit 1
fi
log "no findings in $SECONDS_TO_RUN s"
