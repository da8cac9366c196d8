#!/usr/bin/env bash
# gpu-multi.sh: the multi-GPU check on a machine with several GPUs, in one
# call: the device communicator's tests (NCCL, in-process and under
# mpirun) and its bandwidth table (device path against host-staged) where
# harness/comm's test binary was carried, every other carried test binary
# with BFSBENCH_REQUIRE=cuda,nccl (so that a GPU or NCCL test cannot skip),
# then $CONFIGS through bfsbench, and the table last. Binaries come from
# `TESTS=1 TEST_PKGS="harness/comm plugins/atomic2d ..." scripts/gpu-pack.sh`,
# as for scripts/gpu-check.sh; set BANDWIDTH=0 to leave out the bandwidth
# table.
# Usage: scripts/gpu-multi.sh [OUTDIR]   (default: $OUT, else a temporary folder)
set -uo pipefail
out=${1:-${OUT:-$(mktemp -d)}}
CONFIGS=${CONFIGS:-configs/multi-gpu.toml}
STEP_TIMEOUT=${STEP_TIMEOUT:-180}
export NCCL_NVLS_ENABLE=0 # never NVLink multicast
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
root=$PWD
status=0
mkdir -p "$out"
if [ ! -x bin/bfsbench ] && [ -f .carry/bin.tar.xz ]; then
  python3 -c 'import tarfile; tarfile.open(".carry/bin.tar.xz").extractall()' || status=1
fi
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
nvidia-smi topo -m 2>/dev/null | head -5
make --no-print-directory -k -f mk/cuda.mk -j"$(nproc)" cuda NVCC_OPT=-O3 >"$out/build.txt" 2>&1 || { status=1; tail -20 "$out/build.txt"; }
t=.carry/tests
if [ -x $t/harness_comm.test ] && [ "${BANDWIDTH:-1}" = 1 ]; then
  echo "== device communicator tests"
  (cd harness/comm && BFSBENCH_REQUIRE=cuda,nccl timeout "$STEP_TIMEOUT" "$root/$t/harness_comm.test" \
    -test.run 'NCCL|SelectExchange|DeviceBuffer' -test.v -test.count=1) >"$out/nccl-tests.txt" 2>&1 || status=1
  grep -E '^(--- |ok|FAIL|PASS)|^    --- (FAIL|SKIP)' "$out/nccl-tests.txt" | head -30
  echo "== bandwidth, device against host-staged"
  (cd harness/comm && BFSBENCH_BANDWIDTH=1 BFSBENCH_BANDWIDTH_OUT="$out/nccl-bandwidth.tsv" timeout "$STEP_TIMEOUT" \
    "$root/$t/harness_comm.test" -test.run TestNCCLBandwidth -test.v) >"$out/nccl-bandwidth.txt" 2>&1 || status=1
  tail -3 "$out/nccl-bandwidth.txt"
fi
for tb in $t/*.test; do
  [ -x "$tb" ] || continue
  p=$(basename "$tb" .test)
  [ "$p" = harness_comm ] && continue
  dir=${p//_//}
  echo "== $p tests"
  (cd "$dir" && BFSBENCH_REQUIRE=cuda,nccl BFSBENCH_LIB_DIR="$root/lib" timeout "$STEP_TIMEOUT" "$root/$t/$p.test" -test.count=1) >"$out/$p-tests.txt" 2>&1 || status=1
  grep -E '^(--- FAIL|ok|FAIL|PASS|panic)|^    --- FAIL' "$out/$p-tests.txt" | head -20
done
jsons=()
for c in $CONFIGS; do
  name=$(basename "$c" .toml)
  # Inside the checkout, in .session/ (which git ignores), so that the
  # result's command line reads a relative --out.
  rdir=$(mkdir -p .session && mktemp -d -p .session)/run
  echo "== bfsbench run $c"
  bin/bfsbench run "$c" --out "$rdir" >"$out/$name.txt" 2>&1 || status=1
  [ -f "$rdir/results.json" ] && cp "$rdir/results.json" "$out/$name.json" && jsons+=("$out/$name.json")
done
echo "== gpu-multi done, status $status"
[ ${#jsons[@]} -gt 0 ] && bin/bfsbench table "${jsons[@]}"
exit $status
