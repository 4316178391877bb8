#!/usr/bin/env bash
# Unpacks Debian's Open MPI (runtime, headers and the libraries it loads) into .openmpi/, with
# .openmpi/env.sh to source, for a machine without Open MPI (the GPU machines of the
# measurements in docs/performance.md): carry .openmpi there, `source .openmpi/env.sh`, configure
# with -DMPI_C_COMPILER=$OPAL_PREFIX/bin/mpicc.openmpi and start with mpiexec.openmpi.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.openmpi
[ -x "$dest/usr/bin/mpiexec.openmpi" ] && [ -f "$dest/env.sh" ] && exit 0
tmp=$(mktemp -d)
(cd "$tmp" && apt-get download openmpi-bin libopenmpi3 openmpi-common libopenmpi-dev libpmix2 libhwloc15 \
    libevent-2.1-7 libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-extra-2.1-7 libevent-openssl-2.1-7 \
    libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200 libnuma1 libpsm2-2 \
    libpsm-infinipath1 libmunge2 libxnvctrl0 libltdl7 libpciaccess0 >/dev/null)
mkdir -p "$dest"
for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$dest"; done
rm -rf "$tmp"
cat > "$dest/env.sh" <<'ENV'
# Open MPI unpacked under this folder, relocated (OPAL_PREFIX); one host, no ssh
R=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$R/usr PMIX_INSTALL_PREFIX=$R/usr
export PATH=$R/usr/bin:$PATH
export LD_LIBRARY_PATH=$R/usr/lib/x86_64-linux-gnu/openmpi/lib:$R/usr/lib/x86_64-linux-gnu:$R/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export PMIX_MCA_gds=hash
ENV
echo "Open MPI in $dest ($(du -sh $dest | cut -f1)); source $dest/env.sh"
