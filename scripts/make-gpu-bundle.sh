#!/usr/bin/env bash
# On the development machine: builds gr-gpufec with CUDA for Hopper into a separate prefix and
# packs it with GNU Radio's runtime (../shared/tools/gr-bundle.sh) into .gr-bundle, to carry to
# the GPU machine, which has no GNU Radio. oneTBB's libraries go in too when the build uses it.
# There: source .gr-bundle/gr-env.sh .gr-bundle; python3.11 examples/flowgraph_ceiling_bench.py
# Usage: scripts/make-gpu-bundle.sh [BUNDLE_DIR]   (BUILD_DIR, PREFIX, CUDA_ARCH override)
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-.gr-bundle}
build=${BUILD_DIR:-/tmp/gpufec-bundle-build}
prefix=${PREFIX:-/tmp/gpufec-prefix}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
      -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" -DGPUFEC_BUILD_TESTS=OFF > /dev/null
cmake --build "$build" -j"$(nproc)"
cmake --install "$build" > /dev/null
extra=()
for f in /usr/lib/x86_64-linux-gnu/libtbb.so.12* /usr/lib/x86_64-linux-gnu/libtbbmalloc.so.2*; do
  [ -e "$f" ] && extra+=("$f")
done
# GNU Radio's ZeroMQ blocks and the libraries they need (examples/zmq_soft_frames.py)
py=/usr/lib/python3/dist-packages
if [ -d "$py/gnuradio/zeromq" ]; then
  extra+=("$py/gnuradio/zeromq" "$py/zmq") # (its probe_manager imports pyzmq)
  zsos=("$py"/gnuradio/zeromq/*.so /usr/lib/x86_64-linux-gnu/libgnuradio-zeromq.so.3.10*
        $(find "$py/zmq" -name '*.so'))
  for f in /usr/lib/x86_64-linux-gnu/libgnuradio-zeromq.so*; do extra+=("$f"); done
  for d in $(ldd "${zsos[@]}" | awk '/=>/{print $3}' | sort -u |
             grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s)\.so'); do
    d=/usr${d#/usr}; extra+=("$d" "$(readlink -f "$d")")
  done
fi
rm -rf "$bundle"
"${GR_BUNDLE:-../shared/tools/gr-bundle.sh}" "$bundle" "$prefix" "${extra[@]}"
echo "bundle in $bundle (carry it; source $bundle/gr-env.sh $bundle on the GPU machine)"
