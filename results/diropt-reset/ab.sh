#!/usr/bin/env bash
# ab.sh: the fused reset's A/B on one GPU, in one call: libdiropt.so built
# from OLD_CU (the commit before the change's plugins/diropt/cuda/diropt.cu,
# e.g. `git show ResetKernel-commit^:plugins/diropt/cuda/diropt.cu`) and from
# the tree, then d1x1.toml old, new, old, new. Run from the repository root
# on the GPU machine after the carried binaries are unpacked into bin/.
set -u
: "${OLD_CU:?the old diropt.cu}"
out=${OUT:-$(mktemp -d)}
d=results/diropt-reset
tmp=$(mktemp -d) # the tree's diropt.cu and the old library, meanwhile
cp plugins/diropt/cuda/diropt.cu "$tmp/new.cu" && cp "$OLD_CU" plugins/diropt/cuda/diropt.cu
make -f mk/cuda.mk lib/libdiropt.so NVCC_OPT=-O3 >/dev/null && mkdir -p "$tmp/oldlib" && mv lib/libdiropt.so "$tmp/oldlib/"
cp "$tmp/new.cu" plugins/diropt/cuda/diropt.cu && make -f mk/cuda.mk lib/libdiropt.so NVCC_OPT=-O3 >/dev/null
k=0
for run in old new old new; do
  lib=$PWD/lib; [ "$run" = old ] && lib=$tmp/oldlib
  w=$(mktemp -d)
  BFSBENCH_LIB_DIR=$lib bin/bfsbench run "$d/d1x1.toml" --out "$w" >"$w.txt" 2>&1 &&
    cp "$w/results.json" "$out/ab-d1x1-$run-$((k / 2)).json"
  k=$((k + 1))
  echo "$run: $(tail -1 "$w.txt")"
done
