#!/usr/bin/env bash
# Sets up gr-gpufec on a fresh Debian 12 (or Ubuntu 24.04) machine: installs the packages it
# needs, builds it (with CUDA when /usr/local/cuda or nvcc is present) and installs it to
# /usr/local, where GNU Radio's Python and GNU Radio Companion find it.
# Re-running is cheap: packages already there are skipped and the build is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
# gir1.2-gtk-3.0: GNU Radio Companion's window (the gnuradio package only recommends it)
pkgs="gnuradio gnuradio-dev pybind11-dev python3-numpy python3-matplotlib cmake g++ make
      pkg-config libgtest-dev gir1.2-gtk-3.0 libtbb-dev libcli11-dev nlohmann-json3-dev
      libopenmpi-dev openmpi-bin libfec-dev"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi
prefix=${GPUFEC_PREFIX:-/usr/local}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" ${GPUFEC_CMAKE_ARGS:-}
cmake --build build -j"$(nproc)"
$SUDO cmake --install build > build/install.log
$SUDO ldconfig
# let GNU Radio Companion see the blocks installed under the prefix
conf="$HOME/.gnuradio/config.conf"
blocks_dir="$prefix/share/gnuradio/grc/blocks"
if ! grep -qs "$blocks_dir" "$conf"; then
  mkdir -p "$(dirname "$conf")"
  if grep -qs '^\[grc\]' "$conf"; then
    echo "setup: add $blocks_dir to local_blocks_path in $conf for GNU Radio Companion"
  else
    printf '[grc]\nlocal_blocks_path = %s\n' "$blocks_dir" >> "$conf"
  fi
fi
echo "setup: gr-gpufec installed to $prefix"
