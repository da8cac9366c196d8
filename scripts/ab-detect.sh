#!/usr/bin/env bash
# ab-detect.sh: measures what the A/B gate detects on this machine, as
# docs/regression.md reports it. In a temporary clone of HEAD it commits a
# throwaway change that makes the reference plugin busy-wait a fraction
# ABX_SLOWDOWN of each search's time after the search, then runs
#   bfsbench ab BASE SLOW configs/bench-ci.toml
# RUNS times for each fraction of SLOWDOWNS (0: HEAD against itself, the
# false-alarm rate) and prints, per fraction, how many runs failed (exit 1).
# ROUNDS (default 16, make bench-ci's) is ab's --rounds.
# Usage: RUNS=10 SLOWDOWNS="0 0.05 0.075 0.1" scripts/ab-detect.sh
set -euo pipefail
RUNS=${RUNS:-10}
ROUNDS=${ROUNDS:-16}
SLOWDOWNS=${SLOWDOWNS:-"0 0.05 0.075 0.1 0.15"}
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$repo" "$tmp/repo"
cd "$tmp/repo"
base=$(git rev-parse HEAD)
python3 - <<'PY'
p = 'plugins/reference/main.go'
s = open(p).read()
s = s.replace('\t"errors"\n', '\t"errors"\n\t"os"\n\t"strconv"\n', 1)
s = s.replace('''	v.s.bfs(root)
	return sdk.Search{''', '''	v.s.bfs(root)
	if f, err := strconv.ParseFloat(os.Getenv("ABX_SLOWDOWN"), 64); err == nil && f > 0 {
		d := time.Since(t0)
		for time.Since(t0) < d+time.Duration(f*float64(d)) {
		}
	}
	return sdk.Search{''', 1)
open(p, 'w').write(s)
PY
git -c user.name=ab -c user.email=ab@localhost commit -q -am "throwaway: ABX_SLOWDOWN busy-wait in the reference plugin"
slow=$(git rev-parse HEAD)
make --no-print-directory build >/dev/null
for f in $SLOWDOWNS; do
  failed=0
  for i in $(seq "$RUNS"); do
    if [ "$f" = 0 ]; then revs=("$slow" "$slow"); else revs=("$base" "$slow"); fi
    st=0
    ABX_SLOWDOWN=$f bin/bfsbench ab "${revs[@]}" configs/bench-ci.toml --rounds "$ROUNDS" --out "$tmp/ab-$f-$i" >"$tmp/ab-$f-$i.txt" 2>&1 || st=$?
    case $st in
      0) ;;
      1) failed=$((failed + 1)) ;;
      *) echo "ab-detect: slowdown $f run $i: exit $st"; tail -5 "$tmp/ab-$f-$i.txt"; exit 2 ;;
    esac
  done
  echo "slowdown $f: $failed of $RUNS runs failed the gate (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
done
