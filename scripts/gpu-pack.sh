#!/usr/bin/env bash
# gpu-pack.sh: builds what the GPU machine cannot (it has no Go) into
# .carry/, which git ignores: the bfsbench binaries (make build, with the
# Open MPI binding when mpicc is present) and, with TESTS=1, the test
# binaries of the packages whose tests need a GPU
# (.carry/tests/<pkg path with / as _>.test), in one xz tarball,
# .carry/bin.tar.xz. scripts/gpu-check.sh unpacks and runs them there.
# Binaries are stripped (-s -w) to keep the carried tree small.
set -euo pipefail
cd "$(dirname "$0")/.."
# A binary built in a tree with any change, an untracked file included
# (go's vcs.modified), records its commit as -dirty, and results/ takes no
# run of such a binary: refuse rather than find out after the GPU call.
# ALLOW_DIRTY=1 packs anyway (a trial whose numbers are not recorded).
if [ -n "$(git status --porcelain)" ] && [ "${ALLOW_DIRTY:-0}" != 1 ]; then
  echo "gpu-pack: the tree has changes (git status below); commit or remove them, or set ALLOW_DIRTY=1:" >&2
  git status --short >&2
  exit 1
fi
TESTS=${TESTS:-0}
TEST_PKGS=${TEST_PKGS:-"harness/cuda plugins/edgescan plugins/atomic2d plugins/atomic2d/bfs2d plugins/diropt plugins/merrill plugins/ueno"}

make --no-print-directory build GOBUILD="go build -buildvcs=auto -ldflags=-s\ -w"
go build -ldflags="-s -w" -o bin/vlqbench ./plugins/ueno/cmd/vlqbench # ueno's Fig. 5 microbenchmark
mkdir -p .carry
rm -rf .carry/tests .carry/bin.tgz .carry/bin.tar.zst .carry/bin.tar.xz
if [ "$TESTS" = 1 ]; then
  mkdir -p .carry/tests
  tags=
  if command -v mpicc >/dev/null; then
    tags="-tags mpi"
    export CGO_CFLAGS="$(mpicc --showme:compile)" CGO_LDFLAGS="$(mpicc --showme:link)"
  fi
  for p in $TEST_PKGS; do
    [ -d "$p" ] || continue
    go test $tags -c -ldflags="-s -w" -o ".carry/tests/${p//\//_}.test" "./$p"
  done
fi
# One xz tarball (bin/ and .carry/tests/): the carried tree must stay
# under 64 MiB, and the GPU machine unpacks xz with Python's lzma even
# without an xz binary.
tar -cf - bin $( [ -d .carry/tests ] && echo .carry/tests ) | xz -9 -T0 >.carry/bin.tar.xz
rm -rf .carry/tests
echo "gpu-pack: .carry/bin.tar.xz $(du -h .carry/bin.tar.xz | cut -f1)"
