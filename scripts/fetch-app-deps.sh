#!/usr/bin/env bash
# Unpacks the header-only libraries the apps need (CLI11, nlohmann-json) from Debian's packages
# into .app-deps/, for a machine that cannot install them (the GPU machine has no network):
# carry .app-deps there and configure with -DGPUFEC_APP_DEPS=$PWD/.app-deps (gpu-check.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.app-deps
[ -f "$dest/usr/include/CLI/CLI.hpp" ] && [ -f "$dest/usr/include/nlohmann/json.hpp" ] && exit 0
tmp=$(mktemp -d)
(cd "$tmp" && apt-get download libcli11-dev nlohmann-json3-dev >/dev/null)
mkdir -p "$dest"
for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$dest"; done
rm -rf "$tmp"
echo "app deps in $dest: $(ls $dest/usr/include)"
