#!/usr/bin/env bash
# figures.sh: runs the figure configs (configs/figures/*.toml, or $CONFIGS)
# that fit this machine, each into OUTDIR/<name>/ (results.json, the
# figures figure-<name>.png and .svg, the paper's CSV) with bfsbench's
# output in OUTDIR/<name>.txt:
#   - configs without a CUDA variant run everywhere;
#   - CUDA configs run only where nvidia-smi lists a GPU, and a config
#     marked "# gpus: N" only where it lists at least N (those grids would
#     otherwise share one GPU).
# A run that replaces a committed folder of results/figures keeps that
# folder's claims.toml and README: copy in results.json (gzipped),
# summary.txt and the figure PNGs, then `bin/bfsbench verdicts
# results/figures/<name>` rewrites the verdict table (and says which
# verdicts the new numbers no longer support) and `bin/bfsbench stale`
# lists what is still older than its plugins.
# Usage: scripts/figures.sh [OUTDIR]   (default results/figures-<time>)
# Environment: BIN (default bin), CONFIGS (a space-separated list).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
CONFIGS=${CONFIGS:-$(ls configs/figures/*.toml)}
out=${1:-results/figures-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
echo "figures: $ngpu GPU(s) here; output in $out"
status=0
for c in $CONFIGS; do
  name=$(basename "$c" .toml)
  need=$(sed -n 's/^# gpus: *\([0-9][0-9]*\).*/\1/p' "$c" | head -n 1)
  if grep -q '^backend *= *"cuda"' "$c"; then
    need=${need:-1}
  fi
  need=${need:-0}
  if [ "$need" -gt "$ngpu" ]; then
    echo "figures: skipping $c (needs $need GPU(s))"
    continue
  fi
  t0=$(date +%s)
  if "$BIN/bfsbench" run "$c" --out "$out/$name" >"$out/$name.txt" 2>&1; then
    echo "figures: $c took $(( $(date +%s) - t0 )) s: $(ls "$out/$name"/figure-*.png 2>/dev/null | tr '\n' ' ')"
  else
    status=1
    echo "figures: $c failed after $(( $(date +%s) - t0 )) s:"
    tail -n 15 "$out/$name.txt"
  fi
done
exit $status
