#!/usr/bin/env bash
# Installs what bfsbench's build and tests need on Debian/Ubuntu, where it
# is missing: Open MPI (mpicc, mpirun, mpi.h) and, for compile checks of
# the CUDA kernels, nvcc from Debian's nvidia-cuda-toolkit (in the non-free
# component, enabled here). As root it installs; otherwise it prints the
# command to run.
set -euo pipefail

need=()
command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 || need+=(libopenmpi-dev openmpi-bin)
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  need+=(nvidia-cuda-toolkit)
fi
[ ${#need[@]} -eq 0 ] && exit 0

enable_nonfree='
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed -i -E "/^Components:/{/non-free( |$)/!s/$/ contrib non-free/}" /etc/apt/sources.list.d/debian.sources
  elif [ -f /etc/apt/sources.list ]; then
    sed -i -E "/^deb /{/non-free( |$)/!s/$/ contrib non-free/}" /etc/apt/sources.list
  fi'
install="$enable_nonfree
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ${need[*]}"

if [ "$(id -u)" -ne 0 ]; then
  echo "bfsbench needs: ${need[*]}. Install them as root with:" >&2
  echo "sudo bash -c '$install'" >&2
  exit 1
fi
echo "installing ${need[*]} (apt)..." >&2
bash -c "$install"
