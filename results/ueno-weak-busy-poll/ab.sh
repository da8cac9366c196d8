#!/usr/bin/env bash
# ab.sh: the busy poll's A/B on one machine, one call. The "old" plugins
# (ueno, diropt, atomic2d) are built here first, from the same commit with b6ec693's
# change to harness/comm/cudart.go reversed, into .carry/oldpoll/ (see
# README.md); the "new" ones are bin/'s. Run from the repository root after
# scripts/gpu-session.sh has unpacked bin/ and built lib/.
set -u
export NCCL_NVLS_ENABLE=0 BFSBENCH_LIB_DIR=$PWD/lib
d=results/ueno-weak-busy-poll
out=${OUT:-$(mktemp -d)}
# RUNS: "plugin old|new" pairs, ;-separated (the atomic2d call: RUNS="atomic2d old;atomic2d new").
IFS=';' read -ra runs <<<"${RUNS:-ueno old;ueno new;diropt new;diropt old}"
for run in "${runs[@]}"; do
  set -- $run
  dir=bin; [ "$2" = old ] && dir=.carry/oldpoll
  w=$(mktemp -d)
  bin/bfsbench run "$d/ab-$1.toml" --plugins "$dir" --out "$w" >"$w.txt" 2>&1 &&
    cp "$w/results.json" "$out/ab-$1-$2.json"
  echo "$1 $2 done at $SECONDS s"; tail -2 "$w.txt"
done
bin/bfsbench table "$out"/ab-*.json
