#!/usr/bin/env bash
# Renders an HTML report (searchlight validate --html, later searchlight report --format html)
# in headless Chromium and checks that a real picture came out.
# Usage: Scripts/render-check.sh REPORT.html [OUT.png]
# Needs Debian's chromium (installed here when missing). Exit 0 when the screenshot exists
# and is not blank (more than 8 KB of PNG).
set -euo pipefail
report=$(realpath "$1")
out=${2:-${report%.html}.png}
if ! command -v chromium >/dev/null 2>&1; then
    if [[ $(id -u) -eq 0 ]]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
    DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -qq chromium >/dev/null
fi
# As root Chromium needs --no-sandbox; a D-Bus complaint on stderr is harmless.
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --screenshot="$out" --window-size=800,900 "file://$report" >/dev/null 2>&1 || true
size=$(stat -c %s "$out" 2>/dev/null || echo 0)
if ((size < 8192)); then
    echo "render-check: $out is missing or blank ($size bytes)" >&2
    exit 1
fi
echo "render-check: $report rendered to $out ($size bytes)"
