package bfs2d

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

// TestCUDATestFloor: every pass of the test floor visits each local edge
// exactly once. After a reset to one root, the tested rows with a clear
// visited bit are all edges but those into the root; the stream pass counts
// the odd row indices. Needs libatomic2d.so and a GPU; skips without them.
func TestCUDATestFloor(t *testing.T) {
	if n, err := DeviceCount(); err != nil || n == 0 {
		t.Skipf("no CUDA device or no lib/libatomic2d.so (`make cuda`): devices %d, %v", n, err)
	}
	const scale = 12
	n := graph500.NVertices(scale)
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	l, err := NewLayout(1, 1, 0, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	g := naiveCSC(l, edges)
	e, err := newCUDAEngine(l, g, 4, false, true, CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	root, _ := l.LocalRowOf(edges[0].V0)
	if _, err := e.Reset(int64(root)); err != nil {
		t.Fatal(err)
	}
	var odd, intoRoot uint64
	for _, r := range g.RowIdx {
		odd += uint64(r & 1)
		if r == root {
			intoRoot++
		}
	}
	want := map[FloorMode]uint64{
		FloorStream: odd,
		FloorThread: uint64(len(g.RowIdx)) - intoRoot,
		FloorWarp:   uint64(len(g.RowIdx)) - intoRoot,
	}
	for mode, w := range want {
		ms, got, err := e.TestFloor(mode, 3)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if got != w || ms <= 0 {
			t.Errorf("%s: counted %d, want %d (%.3f ms)", mode, got, w, ms)
		}
	}
	if _, _, err := e.TestFloor(FloorMode(7), 3); err == nil {
		t.Error("mode 7 accepted")
	}
}
