#!/usr/bin/env bash
# check-kernels.sh: every kernel a variant launches is in its library.
#
#   scripts/check-kernels.sh [LIBDIR]   (default: lib)
#
# For each plugins/<v>/cuda/kernels.txt ("Name count" a line: a kernel's
# name and how many instances of it lib<v>.so must hold, templates
# included), it lists the library's device code with cuobjdump and counts
# the mangled names. A kernel named only through a construct some nvcc
# does not instantiate compiles fine and fails at launch ("invalid device
# function"); `make cuda-check` runs this so that CI catches it. Exit 1 on
# a mismatch, naming the kernel, the count found and the count wanted.
set -uo pipefail
libdir=${1:-lib}
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)}
if [ ! -x "$cuobjdump" ]; then
  echo "check-kernels: no cuobjdump (install nvidia-cuda-toolkit: scripts/install-deps.sh)" >&2
  exit 1
fi
status=0
for list in plugins/*/cuda/kernels.txt; do
  [ -f "$list" ] || continue
  v=$(basename "$(dirname "$(dirname "$list")")")
  so="$libdir/lib$v.so"
  if [ ! -f "$so" ]; then
    echo "check-kernels: $so missing (make cuda)" >&2
    status=1
    continue
  fi
  text=$("$cuobjdump" --list-text "$so" 2>&1) || { echo "check-kernels: cuobjdump $so: $text" >&2; status=1; continue; }
  n=0
  while read -r name want; do
    case "$name" in ''|'#'*) continue ;; esac
    got=$(grep -c "[0-9]${name}[IE]" <<<"$text")
    if [ "$got" != "$want" ]; then
      echo "check-kernels: $so has $got instances of $name, want $want ($list)" >&2
      status=1
    fi
    n=$((n + 1))
  done <"$list"
  [ $status = 0 ] && echo "check-kernels: $so: $n kernels present"
done
exit $status
