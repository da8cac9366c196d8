#!/usr/bin/env bash
# mutant.sh: shows that a GPU test can fail. It applies a sed expression to
# one plugin's CUDA sources in a copy of the tree (mk/, harness/cuda and the
# plugin's cuda/ folder), builds that mutant library with mk/cuda.mk (the
# same rule and flags as `make cuda`), and runs the plugin's carried test
# binary (.carry/tests/plugins_<plugin>.test, from TESTS=1
# scripts/gpu-pack.sh) against it, narrowed to TESTRUN (go test's -run).
# The same tests run first against the tree's own lib/ (the control), and
# must pass there; the mutant must then be killed: the tests must fail.
#
# Exit status: 0 the mutant was killed (its failures printed), 1 it
# survived, 2 the control failed, the expression changed nothing or the
# build failed.
# Usage: scripts/mutant.sh PLUGIN SED_EXPR TESTRUN
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# = 3 ] || { echo "usage: $0 PLUGIN SED_EXPR TESTRUN" >&2; exit 2; }
plugin=$1 expr=$2 run=$3
tb=$PWD/.carry/tests/plugins_$plugin.test
[ -x "$tb" ] || { echo "mutant: no test binary $tb (TESTS=1 scripts/gpu-pack.sh)" >&2; exit 2; }
m=$(mktemp -d)
mkdir -p "$m/plugins/$plugin" "$m/harness"
cp -r mk "$m/" && cp -r harness/cuda "$m/harness/" && cp -r "plugins/$plugin/cuda" "$m/plugins/$plugin/"
changed=0
for f in "$m/plugins/$plugin/cuda/"*.cu; do
  sed -i "$expr" "$f"
  cmp -s "$f" "plugins/$plugin/cuda/$(basename "$f")" || { changed=1; diff "plugins/$plugin/cuda/$(basename "$f")" "$f"; }
done
[ $changed = 1 ] || { echo "mutant: '$expr' changed nothing in plugins/$plugin/cuda" >&2; exit 2; }
(cd "$m" && make --no-print-directory -f mk/cuda.mk "lib/lib$plugin.so" >build.txt 2>&1) ||
  { tail -20 "$m/build.txt"; echo "mutant: the build failed" >&2; exit 2; }
cp -n lib/*.so "$m/lib/" 2>/dev/null # the other libraries a test may load
tests() { (cd "plugins/$plugin" && BFSBENCH_REQUIRE=cuda BFSBENCH_LIB_DIR="$1" "$tb" -test.run "$run" -test.count=1 -test.v); }
tests "$PWD/lib" >"$m/control.txt" 2>&1 ||
  { grep -E -- '--- FAIL|\.go:[0-9]+:' "$m/control.txt" | head -8; echo "mutant: the control (lib/) failed" >&2; exit 2; }
echo "control: $(grep -c -- '--- PASS' "$m/control.txt") passed against lib/"
tests "$m/lib" >"$m/tests.txt" 2>&1
rc=$?
grep -c -- '--- PASS' "$m/tests.txt" | sed 's/^/passed: /'
grep -c -- '--- FAIL' "$m/tests.txt" | sed 's/^/failed: /'
if [ $rc = 0 ]; then
  echo "mutant SURVIVED: $run passed against '$expr'"
  exit 1
fi
grep -E -- '--- FAIL|\.go:[0-9]+:' "$m/tests.txt" | head -8
echo "mutant killed (rc $rc)"
