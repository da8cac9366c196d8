#!/usr/bin/env bash
# gpu-session.sh: one call on a GPU machine under a time budget. It
#   1. unpacks the carried binaries (.carry/bin.tar.xz from
#      scripts/gpu-pack.sh: the GPU machine has no Go);
#   2. builds the CUDA libraries (make -f mk/cuda.mk cuda);
#   3. runs each carried test binary (.carry/tests/<pkg>.test) in its
#      package folder with BFSBENCH_REQUIRE=cuda,nccl (cuda alone on a
#      one-GPU machine, where the two-GPU tests skip), so that no GPU or
#      NCCL test can skip (TESTRUN narrows them: go test's -run), each
#      binary for at most TEST_TIMEOUT seconds (default 180), through go
#      test's -test.timeout, so that a hung test prints its goroutines and
#      costs minutes, not the rest of the budget;
#   4. runs $COMMANDS (a ;-separated list of shell commands, e.g. a
#      microbenchmark binary) and each config of $CONFIGS through bfsbench;
#   5. measures each config of $AB_CONFIGS with `bfsbench ab --builds`
#      on the two sides that `bfsbench ab ... --build-only .carry/ab` built
#      here (carried as .carry/ab.tar.xz; docs/regression.md), with
#      $AB_FLAGS (e.g. "--rounds 2": each round constructs both sides);
#   6. prints one table of every finished config.
# Every step is bounded by what is left of BUDGET seconds (default 570),
# and every output is appended to OUTDIR/session.tar as soon as it exists
# (with log.txt beside it), so that what finished comes back even from a
# call cut short, in two files.
# Usage: scripts/gpu-session.sh [OUTDIR]   (default: $OUT, else a temporary folder)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-$(mktemp -d)}}
BUDGET=${BUDGET:-570}
TESTRUN=${TESTRUN:-.}
TEST_TIMEOUT=${TEST_TIMEOUT:-180}
CONFIGS=${CONFIGS:-}
AB_CONFIGS=${AB_CONFIGS:-}
AB_FLAGS=${AB_FLAGS:-}
COMMANDS=${COMMANDS:-}
# The run folders lie inside the checkout, in .session/ (which git
# ignores), so that the command line each result records reads a relative
# --out (.session/tmp.X/NAME), not a path of this machine.
mkdir -p .session
WORK=$(mktemp -d -p .session)
trap 'rm -rf "$WORK"' EXIT # its outputs are in $OUT/session.tar by then (keep)
start=$(date +%s)
export NCCL_NVLS_ENABLE=0 # never NVLink multicast
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
status=0
left() { echo $(( BUDGET - ($(date +%s) - start) )); }
keep() { (cd "$WORK" && tar -rf "$out/session.tar" "$@"); }

echo "== gpu-session $(date -u +%FT%TZ), budget ${BUDGET} s"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1 || true
# Unpacked on every call, warm or not: a warm machine keeps bin/ from the
# call before, which may be another pack's (another commit), and the carried
# .carry/ replaces the test binaries the last unpacking put there.
if [ -f .carry/bin.tar.xz ]; then
  python3 -c 'import tarfile; tarfile.open(".carry/bin.tar.xz").extractall()' || status=1
fi
make --no-print-directory -k -f mk/cuda.mk -j"$(nproc)" cuda NVCC_OPT=-O3 >"$WORK/build.txt" 2>&1 || { status=1; tail -20 "$WORK/build.txt"; }
keep build.txt
echo "build done at $(( $(date +%s) - start )) s"

require=cuda,nccl
[ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ] || require=cuda
if [ "$TESTRUN" != '^$' ] && ! compgen -G '.carry/tests/*.test' >/dev/null; then
  echo "== no test binaries in .carry/tests (pack with TESTS=1): no tests run"
fi
for tb in .carry/tests/*.test; do
  [ -x "$tb" ] || continue
  p=$(basename "$tb" .test)
  dir=${p//_//}
  t=$(( $(left) - 10 ))
  [ "$t" -gt 10 ] || { echo "== no time left for $p"; status=1; continue; }
  [ "$t" -le $(( TEST_TIMEOUT + 5 )) ] || t=$(( TEST_TIMEOUT + 5 ))
  (cd "$dir" && BFSBENCH_REQUIRE=$require BFSBENCH_LIB_DIR="$OLDPWD/lib" timeout "$t" "$OLDPWD/$tb" \
    -test.run "$TESTRUN" -test.count=1 -test.v -test.timeout "$(( t - 5 ))s") >"$WORK/$p-tests.txt" 2>&1
  rc=$?
  [ $rc = 0 ] || status=1
  echo "== $p tests: rc $rc at $(( $(date +%s) - start )) s"
  grep -E '^(--- FAIL|ok|FAIL|PASS|panic)|^    --- FAIL|SKIP' "$WORK/$p-tests.txt" | head -12
  keep "$p-tests.txt"
done

IFS=';' read -ra cmds <<<"$COMMANDS"
for i in "${!cmds[@]}"; do
  c=${cmds[$i]}
  [ -n "${c// }" ] || continue
  t=$(( $(left) - 10 ))
  [ "$t" -gt 10 ] || { echo "== no time left for: $c"; status=1; continue; }
  echo "== $c"
  timeout "$t" bash -c "$c" >"$WORK/command-$i.txt" 2>&1 || status=1
  tail -n 4 "$WORK/command-$i.txt"
  keep "command-$i.txt"
done

jsons=()
for c in $CONFIGS; do
  name=$(basename "$c" .toml)
  t=$(( $(left) - 10 ))
  [ "$t" -gt 20 ] || { echo "== no time left for $c"; status=1; continue; }
  echo "== bfsbench run $c (at most $t s)"
  timeout "$t" bin/bfsbench run "$c" --out "$WORK/$name" >"$WORK/$name.txt" 2>&1 || status=1
  echo "$c: done at $(( $(date +%s) - start )) s"
  tail -n 3 "$WORK/$name.txt"
  if [ -f "$WORK/$name/results.json" ]; then
    cp "$WORK/$name/results.json" "$WORK/$name.json"
    # The figures' names, listed inside $WORK: a glob here would expand in
    # the checkout and hand tar a pattern that matches nothing.
    figs=$(cd "$WORK" && ls "$name"/figure-* 2>/dev/null)
    # shellcheck disable=SC2086 # one figure a word (names have no spaces)
    [ -n "$figs" ] && keep $figs
    keep "$name.json"
    jsons+=("$WORK/$name.json")
  fi
  keep "$name.txt"
done
if [ -n "$AB_CONFIGS" ] && [ ! -d .carry/ab ] && [ -f .carry/ab.tar.xz ]; then
  python3 -c 'import tarfile; tarfile.open(".carry/ab.tar.xz").extractall(".carry")' || status=1
fi
for c in $AB_CONFIGS; do
  name=ab-$(basename "$c" .toml)
  t=$(( $(left) - 10 ))
  [ "$t" -gt 20 ] || { echo "== no time left for the A/B of $c"; status=1; continue; }
  echo "== bfsbench ab --builds .carry/ab $AB_FLAGS $c (at most $t s)"
  # shellcheck disable=SC2086 # AB_FLAGS is a list of flags
  timeout "$t" bin/bfsbench ab --builds .carry/ab $AB_FLAGS "$c" --out "$WORK/$name" >"$WORK/$name.txt" 2>&1
  rc=$?
  [ $rc = 0 ] || status=1
  echo "$c: A/B exit $rc at $(( $(date +%s) - start )) s"
  grep -E '^(base|new):|^BFS|^PASS|^FAIL' "$WORK/$name.txt" | head -8
  [ -f "$WORK/$name/results.json" ] && cp "$WORK/$name/results.json" "$WORK/$name.json" && keep "$name.json"
  [ -f "$WORK/$name/compare.txt" ] && cp "$WORK/$name/compare.txt" "$WORK/$name-compare.txt" && keep "$name-compare.txt"
  keep "$name.txt"
done
echo "== gpu-session done at $(( $(date +%s) - start )) s, status $status"
[ ${#jsons[@]} -gt 0 ] && bin/bfsbench table "${jsons[@]}"
exit $status
