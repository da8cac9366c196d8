#!/usr/bin/env bash
# gpu-pack.sh: builds what the GPU machine cannot (it has no Go) into
# .carry/, which git ignores: the bfsbench binaries (make build, with the
# Open MPI binding when mpicc is present) as .carry/bin.tgz, and, with
# TESTS=1, the test binaries of the packages whose tests need a GPU as
# .carry/tests/<pkg path with / as _>.test. scripts/gpu-check.sh unpacks
# and runs them there. Binaries are stripped (-s -w) to keep the carried
# tree small.
set -euo pipefail
cd "$(dirname "$0")/.."
TESTS=${TESTS:-0}
TEST_PKGS=${TEST_PKGS:-"harness/cuda plugins/edgescan plugins/atomic2d plugins/atomic2d/bfs2d plugins/diropt"}

make --no-print-directory build GOBUILD="go build -buildvcs=auto -ldflags=-s\ -w"
mkdir -p .carry
tar czf .carry/bin.tgz bin
echo "gpu-pack: .carry/bin.tgz $(du -h .carry/bin.tgz | cut -f1)"
if [ "$TESTS" = 1 ]; then
  rm -rf .carry/tests && mkdir -p .carry/tests
  tags=$(command -v mpicc >/dev/null && echo "-tags mpi" || true)
  for p in $TEST_PKGS; do
    [ -d "$p" ] || continue
    go test $tags -c -ldflags="-s -w" -o ".carry/tests/${p//\//_}.test" "./$p"
  done
  du -sh .carry/tests
fi
