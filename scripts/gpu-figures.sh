#!/usr/bin/env bash
# gpu-figures.sh: the GPU machine's figure run, in one call. It unpacks the
# carried binaries (build them here first: scripts/gpu-pack.sh; the GPU
# machine has no Go), builds the CUDA libraries (make -f mk/cuda.mk cuda),
# runs scripts/figures.sh (every figure config that fits the machine's
# GPUs) and packs what each figure needs into one tar, so that two files
# come back: OUTDIR/figures.tar (per config: <name>/results.json,
# <name>/figure-*.png and .svg, <name>/*.csv, <name>/summary.txt and
# <name>.txt, bfsbench's output) and OUTDIR/log.txt.
# Usage: scripts/gpu-figures.sh [OUTDIR]   (default: $OUT, else a temporary folder)
# Environment: CONFIGS (default: every configs/figures/*.toml), BIN, WORK.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-$(mktemp -d)}}
BIN=${BIN:-bin}
# The run folders: inside the checkout by default, in .session/ (which git
# ignores), so that each result's command line reads a relative --out.
WORK=${WORK:-$(mkdir -p .session && mktemp -d -p .session)}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
status=0

echo "== gpu-figures $(date -u +%FT%TZ), out $out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
if [ ! -x "$BIN/bfsbench" ] && [ -f .carry/bin.tar.xz ]; then
  echo "== unpacking .carry/bin.tar.xz"
  python3 -c 'import tarfile; tarfile.open(".carry/bin.tar.xz").extractall()' || status=1
fi
echo "== build: make -f mk/cuda.mk cuda"
make --no-print-directory -k -f mk/cuda.mk -j"$(nproc)" cuda NVCC_OPT=-O3 || status=1

t0=$(date +%s)
BIN="$BIN" scripts/figures.sh "$WORK/figures" || status=1
echo "== figures took $(( $(date +%s) - t0 )) s"

# Only what the figures need comes back: no plugin logs, no other plots.
( cd "$WORK/figures" && find . -maxdepth 2 \( -name results.json -o -name 'figure-*' -o -name '*.csv' \
    -o -name summary.txt -o -name '*.txt' \) -type f -print0 | tar -cf "$out/figures.tar" --null -T - ) || status=1
echo "== gpu-figures done, status $status: $(tar -tf "$out/figures.tar" 2>/dev/null | wc -l) files in figures.tar"
jsons=$(ls "$WORK"/figures/*/results.json 2>/dev/null)
[ -n "$jsons" ] && "$BIN/bfsbench" table $jsons
exit $status
