#!/usr/bin/env bash
# gpu-check.sh: the GPU machine's check, in one call. It
#   1. builds the CUDA libraries there (make -f mk/cuda.mk cuda, with
#      /usr/local/cuda/bin/nvcc when present);
#   2. for every variant with a cuda/ folder and a binary in $BIN, runs
#      `$BIN/<variant> gpucheck` (harness/cuda/gpucheck): device query, the
#      shared primitives' self-test, the device's copy bandwidth, then every
#      scale of $SCALES with full Graph500 validation of $ROOTS searches,
#      and prints the table (variant, scale, harmonic-mean GTEPS, % of the
#      variant's bandwidth bound, valid);
#   3. with SWEEP=1, runs the variant's benchmark sweep
#      (plugins/<variant>/gpu-sweep.args: one parameter set a line) at
#      $SWEEP_SCALES, validating the first $SWEEP_VALIDATE searches of each
#      case;
#   4. with TESTS=1, runs carried Go test binaries ($TESTBIN/*.test, built
#      with `go test -c`) in their package folders, for the tests that need
#      a GPU;
#   5. runs configs/gpu-check.toml through bin/bfsbench (the full plugin
#      path) when bin/bfsbench is there.
# There is no Go on the GPU machine: build bin/ here (make build) and carry
# it, e.g. as .carry/bin.tgz (unpacked here when bin/ is missing).
#
# Usage: scripts/gpu-check.sh [OUTDIR]   (default: $OUT, else results/gpu-check-<date>)
# Environment: VARIANTS (default: every plugins/*/cuda), BIN, SCALES, ROOTS,
# SWEEP, SWEEP_SCALES, SWEEP_ROOTS, SWEEP_VALIDATE, TESTS, TESTBIN, and
# make's NVCC / CUDA_ARCH.
# Everything it prints also goes to OUTDIR/log.txt; JSON reports to
# OUTDIR/<variant>-check.json and OUTDIR/<variant>-sweep.json.
set -uo pipefail

out=${1:-${OUT:-results/gpu-check-$(date +%Y%m%d-%H%M%S)}}
BIN=${BIN:-bin}
SCALES=${SCALES:-16,20,24}
ROOTS=${ROOTS:-64}
SWEEP=${SWEEP:-0}
SWEEP_SCALES=${SWEEP_SCALES:-22,23,24,25}
SWEEP_ROOTS=${SWEEP_ROOTS:-64}
SWEEP_VALIDATE=${SWEEP_VALIDATE:-2}
TESTS=${TESTS:-0}
TESTBIN=${TESTBIN:-.carry/tests}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
status=0

echo "== gpu-check $(date -u +%FT%TZ) on $(hostname), out $out"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true

if [ ! -x "$BIN/bfsbench" ] && [ -f .carry/bin.tgz ]; then
  echo "== unpacking .carry/bin.tgz"
  tar xzf .carry/bin.tgz || status=1
fi

echo "== build: make -f mk/cuda.mk cuda"
t0=$(date +%s)
if ! make --no-print-directory -f mk/cuda.mk -j"$(nproc)" cuda NVCC_OPT=-O3; then
  echo "gpu-check: the CUDA build failed" >&2
  status=1
fi
echo "build took $(( $(date +%s) - t0 )) s"

variants=${VARIANTS:-$(for d in plugins/*/cuda; do [ -d "$d" ] && basename "$(dirname "$d")"; done)}
for v in $variants; do
  if [ ! -x "$BIN/$v" ]; then
    echo "gpu-check: $v: no $BIN/$v (run make build and carry bin/)" >&2
    status=1
    continue
  fi
  echo "== $v: check at scales $SCALES, $ROOTS searches, all validated"
  "$BIN/$v" gpucheck -backend cuda -scales "$SCALES" -roots "$ROOTS" -validate -1 \
    -json "$out/$v-check.json" || status=1
  if [ "$SWEEP" = 1 ] && [ -f "plugins/$v/gpu-sweep.args" ]; then
    sets=()
    while IFS= read -r line; do
      case "$line" in ''|'#'*) continue ;; esac
      sets+=(-set "$line")
    done <"plugins/$v/gpu-sweep.args"
    echo "== $v: sweep at scales $SWEEP_SCALES, $SWEEP_ROOTS searches, first $SWEEP_VALIDATE validated"
    "$BIN/$v" gpucheck -backend cuda -scales "$SWEEP_SCALES" -roots "$SWEEP_ROOTS" \
      -validate "$SWEEP_VALIDATE" "${sets[@]}" -json "$out/$v-sweep.json" || status=1
  fi
done

if [ "$TESTS" = 1 ]; then
  for t in "$TESTBIN"/*.test; do
    [ -x "$t" ] || continue
    pkg=$(basename "$t" .test) # the package folder with / written as _, e.g. plugins_edgescan.test
    dir=${pkg//_//}
    echo "== go test binary $t in $dir"
    tp=$(realpath "$t")
    (cd "$dir" && BFSBENCH_LIB_DIR="$OLDPWD/lib" "$tp" -test.count=1 -test.timeout=5m) || status=1
  done
fi

if [ -x "$BIN/bfsbench" ] && [ -f configs/gpu-check.toml ]; then
  echo "== bfsbench run configs/gpu-check.toml"
  bdir=$(mktemp -d)/run # bfsbench never writes into an existing folder
  "$BIN/bfsbench" run configs/gpu-check.toml --out "$bdir" >"$out/bfsbench.txt" 2>&1 || status=1
  cp "$bdir/results.json" "$out/bfsbench-results.json" 2>/dev/null
  tail -n 8 "$out/bfsbench.txt"
fi

echo "== gpu-check done, status $status"
exit $status
