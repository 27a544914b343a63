#!/usr/bin/env bash
# Installs the system packages Searchlight builds against, only those that are missing.
# Debian's chromium too: `crawl --render auto` (the default) renders pages whose markup scripts write,
# and it is not in the machine's base image. With --test, also the tools the test suite drives (nginx
# for the HTTP/2 + TLS tests, openssl for their throwaway certificates; Debian's postgresql for the
# throw-away PostgreSQL clusters of the store tests, found by its initdb, which is not on PATH).
# Debian/Ubuntu with Swift already installed; runs apt-get as root or through sudo.
set -euo pipefail

packages=(libcurl4-openssl-dev libxml2-dev zlib1g-dev libpsl-dev libsqlite3-dev pkg-config)
missing=()
command -v curl >/dev/null 2>&1 || missing+=(curl)  # the main job asks the server one search
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [[ "${1:-}" == "--test" ]]; then
    [[ -x /usr/sbin/nginx ]] || command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
    command -v openssl >/dev/null 2>&1 || missing+=(openssl)
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
fi

if ((${#missing[@]} > 0)); then
    echo "bootstrap: installing ${missing[*]}" >&2
    if [[ $(id -u) -eq 0 ]]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
    export DEBIAN_FRONTEND=noninteractive
    "${apt_get[@]}" update -qq
    "${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "bootstrap: 'swift' is not on PATH; install Swift 6.1 or newer from swift.org first" >&2
    exit 3
fi
