#!/usr/bin/env bash
# gpu-run.sh: atomic2d's benchmark on the GPU machine, in one call.
#
#   plugins/atomic2d/gpu-run.sh single|multi|all|floor [OUTDIR]
#
# There is no Go there (and no zstd): build the plugin binary here and carry
# it as .carry/atomic2d.tgz (holding atomic2d, built with CGO_ENABLED=0 and
# -buildvcs=true, so that the reports name the commit):
#   CGO_ENABLED=0 go build -buildvcs=true -o .carry/a2d/atomic2d ./plugins/atomic2d
#   tar -C .carry/a2d -czf .carry/atomic2d.tgz atomic2d
# or set A2D_BIN to a binary already there. ROOTS (default 64) is the
# number of searches per case of the timed runs.
# The script builds lib/libatomic2d.so with the machine's nvcc, then:
#   single: a correctness check at scale 16 on grids 1x1, 1x2, 2x1, 2x2
#           (ranks sharing the GPU; every search validated), stopping
#           there if it fails; then 1x1 at scales 21-25 with the
#           edges-per-thread sweep (1, 2, 4, 8) at 21 and 24, three
#           gridcheck processes constructing at once and taking turns for
#           the timed parts (-lock);
#   multi:  grids 1x2 and 2x1 (one rank per GPU) at scales 25 and 26,
#           bitmap messages auto and off, one scale after the other;
#   all:    both on a two-GPU machine in one call (the check, then four
#           gridcheck processes at once: 1x1 at 21-23 and at 24 with the
#           sweep, 1x1/1x2/2x1 at 25 and 1x2/2x1 at 26 with bitmap messages
#           auto and off);
#   floor:  1x1 at scales 22, 24 and 25 and 1x2 (both ranks on GPU 0) at
#           22, with the test floor (gridcheck -floor) after each case.
# floor and multi first run bfs2d's CUDA tests when their carried test
# binary is in .carry/tests.
# single and all run several gridcheck processes at once to fit a lease:
# -lock serializes the timed parts, but one process's construction (every
# core) still runs during another's searches, whose exchanges are host work.
# Their multi-rank figures can be low (2x1 at scale 25: 30 against 53.2
# GTEPS alone, 2026-11-22); take reported figures from floor or multi.
# Reports: OUTDIR/*.json (gpucheck.Report), OUTDIR/log.txt, OUTDIR/runs.txt
# (each gridcheck's full output).
set -uo pipefail
mode=${1:?single or multi}
out=${2:-${OUT:-results/atomic2d-gpu-$(date +%Y%m%d-%H%M%S)}}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

echo "== atomic2d gpu-run $mode $(date -u +%FT%TZ) on $(hostname), $(nproc) cores"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true
grep -m1 'model name' /proc/cpuinfo; free -g | head -2

bin=${A2D_BIN:-.carry/a2d/atomic2d}
roots=${ROOTS:-64}
if [ ! -x "$bin" ]; then
  mkdir -p .carry/a2d && tar -C .carry/a2d -xzf .carry/atomic2d.tgz || exit 1
fi
NVCC=${NVCC:-$(command -v /usr/local/cuda/bin/nvcc || command -v nvcc)}
mkdir -p lib
t0=$(date +%s)
"$NVCC" -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 -O3 -std=c++17 -lineinfo \
  -Xcompiler -fPIC -shared -Iharness/cuda/include -Iplugins/atomic2d/cuda -o lib/libatomic2d.so \
  plugins/atomic2d/cuda/*.cu harness/cuda/src/*.cu || { echo "gpu-run: nvcc failed"; exit 1; }
echo "nvcc $("$NVCC" --version | tail -n 1) took $(( $(date +%s) - t0 )) s"
export BFSBENCH_LIB_DIR=$PWD/lib

tmp=$(mktemp -d)
lock=$tmp/lock
trap 'for f in "$tmp"/*.txt; do [ -f "$f" ] && { echo "==== $f"; cat "$f"; }; done >"$out/runs.txt"' EXIT
sets=(-set k1:edges_per_thread=1 -set k2:edges_per_thread=2 -set k4:edges_per_thread=4
      -set k8:edges_per_thread=8 -set auto:bitmap_messages=auto -set off:bitmap_messages=off
      -set on:bitmap_messages=on -set k1off:edges_per_thread=1,bitmap_messages=off
      -set k8on:edges_per_thread=8,bitmap_messages=on)
run() { # label, then gridcheck flags
  local label=$1; shift
  echo "== $label: $bin gridcheck $*"
  "$bin" gridcheck -backend cuda "${sets[@]}" -lock "$lock" -json "$out/$label.json" "$@" >"$tmp/$label.txt" 2>&1
  local st=$?
  echo "== $label: exit $st"; tail -n 40 "$tmp/$label.txt"
  return $st
}

# gotests runs bfs2d's CUDA tests when their carried binary is there
# (CGO_ENABLED=0 go test -c -o .carry/tests/plugins_atomic2d_bfs2d.test ./plugins/atomic2d/bfs2d).
gotests() {
  local t=.carry/tests/plugins_atomic2d_bfs2d.test
  [ -x "$t" ] || return 0
  (cd plugins/atomic2d/bfs2d && "$OLDPWD/$t" -test.run CUDA -test.v -test.count=1) || echo "gpu-run: bfs2d CUDA tests failed"
}

case "$mode" in
single)
  run check -roots 8 -validate -1 -plan "16:1x1,1x2,2x1,2x2:k4,k1off,k8on" || { echo "gpu-run: check failed"; exit 1; }
  run s25 -roots "$roots" -validate 3 -plan "25:1x1:k4" &
  run s24 -roots "$roots" -validate 3 -plan "24:1x1:k4,k1,k2,k8" &
  run s21-23 -roots "$roots" -validate 3 -plan "21:1x1:k4,k1,k2,k8;22:1x1:k4;23:1x1:k4" &
  wait
  ;;
multi)
  gotests
  run m-check -roots 8 -validate -1 -plan "18:1x2,2x1:auto,on" || { echo "gpu-run: check failed"; exit 1; }
  # One after the other: with -lock, one process's construction (every
  # core, and the memory bus) ran during the other's timed searches, whose
  # exchanges and predecessor resolution are host work (2026-11-22: 2x1 at
  # scale 25 gave 30 GTEPS so, 51.5 alone).
  run m25 -roots "$roots" -validate 2 -parallel-construct -plan "25:1x2,2x1:auto,off"
  run m26 -roots "$roots" -validate 2 -parallel-construct -plan "26:1x2,2x1:auto,off"
  ;;
all)
  # Every case validates its own searches: go on after a failed check, so
  # that one lease still yields what works.
  run check -roots 8 -validate -1 -plan "16:1x1,1x2,2x1,2x2:k4,k1off,k8on" || echo "gpu-run: check failed"
  run p26 -roots "$roots" -validate 2 -parallel-construct -plan "26:1x2,2x1:auto,off" &
  run p25 -roots "$roots" -validate 2 -plan "25:1x1,1x2,2x1:auto,off" &
  run p24 -roots "$roots" -validate 2 -plan "24:1x1:k4,k1,k2,k8" &
  run p21 -roots "$roots" -validate 2 -plan "21:1x1:k4,k1,k2,k8;22:1x1:k4;23:1x1:k4" &
  wait
  ;;
floor)
  gotests
  run floor -roots "$roots" -validate 2 -floor 5 -plan "22:1x1:k4;24:1x1:k4;25:1x1:k4;22:1x2:k4"
  ;;
*) echo "unknown mode $mode"; exit 2 ;;
esac
echo "== done $(date -u +%FT%TZ)"
