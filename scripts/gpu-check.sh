#!/usr/bin/env bash
# gpu-check.sh: the GPU machine's check, in one call. It
#   1. unpacks carried binaries (.carry/bin.tar.xz or .carry/bin.tgz) when
#      bin/ is missing: the GPU machine has no Go, so build bin/ (and, with
#      TESTS=1, the test binaries) here first: scripts/gpu-pack.sh;
#   2. builds the CUDA libraries there (make -f mk/cuda.mk cuda, with
#      /usr/local/cuda/bin/nvcc when present);
#   3. with TESTS=1, runs the carried Go test binaries ($TESTBIN/*.test) in
#      their package folders with BFSBENCH_REQUIRE=cuda, so the conformance
#      suite fails instead of skipping when the CUDA backend cannot run;
#   4. runs each config of $CONFIGS through bin/bfsbench run: the one search
#      loop, validating as the config says (configs/gpu-check.toml validates
#      every search);
#   5. prints one table of every case last (bfsbench table).
#
# Usage: scripts/gpu-check.sh [OUTDIR]   (default: $OUT, else a temporary folder)
# Environment: CONFIGS (default configs/gpu-check.toml; a space-separated
# list), BIN, TESTS, TESTBIN, and make's NVCC / CUDA_ARCH.
# OUTDIR gets log.txt and, per config, <name>.json (results.json) and
# <name>.txt (bfsbench's output); per-case plugin logs stay in the run
# folders under $WORK.
set -uo pipefail

out=${1:-${OUT:-$(mktemp -d)}}
BIN=${BIN:-bin}
CONFIGS=${CONFIGS:-configs/gpu-check.toml}
TESTS=${TESTS:-0}
TESTBIN=${TESTBIN:-.carry/tests}
# The run folders: inside the checkout by default, in .session/ (which git
# ignores), so that each result's command line reads a relative --out.
WORK=${WORK:-$(mkdir -p .session && mktemp -d -p .session)}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
status=0

echo "== gpu-check $(date -u +%FT%TZ), out $out"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true

# A carried pack is unpacked on every call: a warm machine keeps bin/ from
# the call before, which may be another pack's (another commit).
if [ -f .carry/bin.tar.xz ] || [ ! -x "$BIN/bfsbench" ]; then
  if [ -f .carry/bin.tar.xz ]; then
    echo "== unpacking .carry/bin.tar.xz"
    python3 -c 'import tarfile; tarfile.open(".carry/bin.tar.xz").extractall()' || status=1
  elif [ -f .carry/bin.tgz ]; then
    echo "== unpacking .carry/bin.tgz"
    tar xzf .carry/bin.tgz || status=1
  fi
fi

echo "== build: make -f mk/cuda.mk cuda"
t0=$(date +%s)
if ! make --no-print-directory -k -f mk/cuda.mk -j"$(nproc)" cuda NVCC_OPT=-O3; then
  echo "gpu-check: the CUDA build failed" >&2
  status=1
fi
echo "build took $(( $(date +%s) - t0 )) s"

if [ "$TESTS" = 1 ]; then
  if ! compgen -G "$TESTBIN/*.test" >/dev/null; then
    echo "gpu-check: TESTS=1 but no test binaries in $TESTBIN (pack with TESTS=1 scripts/gpu-pack.sh)" >&2
    status=1
  fi
  for t in "$TESTBIN"/*.test; do
    [ -x "$t" ] || continue
    pkg=$(basename "$t" .test) # the package folder with / written as _, e.g. plugins_edgescan.test
    dir=${pkg//_//}
    echo "== go test binary $t in $dir"
    tp=$(realpath "$t")
    (cd "$dir" && BFSBENCH_REQUIRE=cuda BFSBENCH_LIB_DIR="$OLDPWD/lib" "$tp" -test.count=1 -test.timeout=5m) || status=1
  done
fi

jsons=()
for c in $CONFIGS; do
  name=$(basename "$c" .toml)
  echo "== bfsbench run $c"
  rdir="$WORK/$name" # bfsbench never writes into an existing folder
  rm -rf "$rdir"
  t0=$(date +%s)
  "$BIN/bfsbench" run "$c" --out "$rdir" >"$out/$name.txt" 2>&1 || status=1
  echo "$c took $(( $(date +%s) - t0 )) s"
  if [ -f "$rdir/results.json" ]; then
    cp "$rdir/results.json" "$out/$name.json"
    jsons+=("$out/$name.json")
  else
    tail -n 20 "$out/$name.txt"
  fi
done

echo "== gpu-check done, status $status"
[ ${#jsons[@]} -gt 0 ] && "$BIN/bfsbench" table "${jsons[@]}"
exit $status
