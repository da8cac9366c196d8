#!/usr/bin/env bash
# ncu-plugin.sh: profiles a plugin's CUDA kernels with Nsight Compute
# (ncu) while bfsbench runs a config, on a GPU machine whose runtime lets
# ncu read the hardware counters (device tool: KINDS.md).
#
# ncu follows a program's children through libc's exec, which Go's os/exec
# bypasses, so it cannot follow bfsbench into its plugin. This script
# puts a launcher in place of bin/PLUGIN for the run (bfsbench runs a
# plugin file only if it holds the handshake cookie: the launcher's
# comment names it), which starts the real plugin under ncu, and puts the
# plugin back afterwards. Per plugin process it writes OUTDIR/prof-PID:
# the report (.ncu-rep), its details page (-details.txt), its raw metrics
# (-raw.csv.gz) and its per-instruction page (-source.csv.gz: SASS with
# warp-stall samples, instructions executed and L2 sectors per
# instruction; scripts/ncu-source.py sums it by launch and by ranges of
# instructions), and ncu's log (ncu-PID.log).
#
# Usage: scripts/ncu-plugin.sh PLUGIN CONFIG OUTDIR [KERNEL_REGEX [COUNT]]
#   e.g. scripts/ncu-plugin.sh diropt configs/diropt-profile-25.toml "$OUT" BottomUpKernel 14
# profiles the first COUNT (default 10) launches of kernels whose name
# matches KERNEL_REGEX (default: every kernel). Profiled kernels are
# replayed about 35 times each, so keep the config small (a case or two,
# a few searches): its times are not benchmark results.
# NCU_SKIP=N skips the first N launches that match KERNEL_REGEX (ncu's
# --launch-skip), so that COUNT launches of a later search are profiled
# without replaying every launch before them.
# With NCU_METRICS set (e.g. gpu__time_duration.sum) ncu collects only
# those metrics, in one pass a launch, instead of the sections: each
# launch's own device time, for where a level's time goes between its
# kernels and their launches (the raw page; no source page).
# NCU_CACHE=none keeps the caches as the run left them before each
# profiled launch (ncu's --cache-control; default all: flushed). Only the
# first pass of a launch then finds what the launches before it left in
# L2; each later pass finds the pass before's lines. So use it with
# NCU_METRICS that ncu collects in one pass, and read its log
# (ncu-PID.log: "N passes" for each launch): gpu__time_duration.sum,
# lts__t_sector_hit_rate.pct, lts__t_sectors_op_read.sum and
# dram__bytes_read.sum together took 3 passes on an H200.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { sed -n '18,23p' "$0"; exit 2; }
plugin=$1 config=$2 out=$3 kernel=${4:-.} count=${5:-10}
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
[ -x "$ncu" ] || { echo "ncu-plugin: no ncu on this machine" >&2; exit 1; }
[ -x "bin/$plugin" ] || { echo "ncu-plugin: no bin/$plugin (make build)" >&2; exit 1; }
case ${NCU_SKIP:-0} in *[!0-9]*) echo "ncu-plugin: NCU_SKIP=$NCU_SKIP: want a count" >&2; exit 2 ;; esac
case ${NCU_CACHE:-all} in all | none) ;; *) echo "ncu-plugin: NCU_CACHE=$NCU_CACHE: want all or none" >&2; exit 2 ;; esac
[ "${NCU_CACHE:-all}" = all ] || [ -n "${NCU_METRICS:-}" ] || { echo "ncu-plugin: NCU_CACHE=none needs NCU_METRICS (of one pass a launch: above)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "${NCU_METRICS:-}" ]; then
  sections="--metrics $NCU_METRICS"
else
  sections="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
  --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --section WarpStateStats
  --section InstructionStats --section LaunchStats --section Occupancy --section SourceCounters"
fi
real="bin/$plugin.under-ncu"
# A run killed before its trap left the launcher in bin/PLUGIN and the
# plugin here: moving the launcher over it would lose the plugin.
[ ! -e "$real" ] || { echo "ncu-plugin: $real exists (an interrupted run?): move it back to bin/$plugin first" >&2; exit 1; }
# The run folder lies inside the checkout, in .session/ (which git ignores),
# so that run.txt and the run's command line read a relative --out.
mkdir -p .session
run=$(mktemp -d -p .session)
mv "bin/$plugin" "$real"
trap 'mv -f "$real" "bin/$plugin"; rm -rf "$run"' EXIT
cat >"bin/$plugin" <<EOF
#!/usr/bin/env bash
# launcher for the ncu profile of scripts/ncu-plugin.sh; cookie: breadth-first-search
exec "$ncu" --log-file "$out/ncu-\$\$.log" --clock-control none --cache-control ${NCU_CACHE:-all} -k "regex:$kernel" -s ${NCU_SKIP:-0} -c $count \\
  $(echo $sections) -o "$out/prof-\$\$" -f "$PWD/$real" "\$@"
EOF
chmod +x "bin/$plugin"
rc=0
bin/bfsbench run "$config" --out "$run/run" >"$out/run.txt" 2>&1 || rc=$?
tail -n 5 "$out/run.txt"
for r in "$out"/prof-*.ncu-rep; do
  [ -f "$r" ] || continue
  b=${r%.ncu-rep}
  "$ncu" -i "$r" --page details --print-units base >"$b-details.txt"
  "$ncu" -i "$r" --page raw --csv | gzip -9 >"$b-raw.csv.gz"
  [ -n "${NCU_METRICS:-}" ] || "$ncu" -i "$r" --page source --csv --print-source sass | gzip -9 >"$b-source.csv.gz"
  echo "ncu-plugin: $b ($(grep -c 'Context 1, Stream' "$b-details.txt" || true) kernels)"
done
exit $rc
