package bfs2d

import (
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
)

// cudaTestEngine is a 1×1 CUDA engine over the scale-12 Graph500 graph, or
// a skip where there is no GPU or no library.
func cudaTestEngine(t *testing.T) (*cudaEngine, Layout, *LocalCSC, []graph500.Edge) {
	t.Helper()
	sdktest.NeedCUDA(t, DeviceCount)
	const scale = 12
	n := graph500.NVertices(scale)
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	l, err := NewLayout(1, 1, 0, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	g := naiveCSC(l, edges)
	e, err := newCUDAEngine(l, g, 4, true, CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, l, g, edges
}

// TestCUDALookupPredsChecks: a2d_lookup_preds answers a discovered row and
// names the first query for a row out of range or not discovered.
func TestCUDALookupPredsChecks(t *testing.T) {
	e, l, _, edges := cudaTestEngine(t)
	root, _ := l.LocalRowOf(edges[0].V0)
	if _, err := e.Reset(int64(root)); err != nil {
		t.Fatal(err)
	}
	got, err := e.LookupPreds([]uint32{root})
	if err != nil || len(got) != 1 || got[0] != l.RowToCol(root) {
		t.Fatalf("root's predecessor: %v, %v; want [%d]", got, err, l.RowToCol(root))
	}
	other := (root + 1) % uint32(l.LocalRows())
	for _, c := range []struct {
		rows []uint32
		want string
	}{
		{[]uint32{root, other}, "query 1 of 2"},
		{[]uint32{root, root, uint32(l.LocalRows())}, "no such row"},
	} {
		if _, err := e.LookupPreds(c.rows); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("queries %v: error %v, want one saying %q", c.rows, err, c.want)
		}
	}
}

// TestCUDATestFloor: every pass of the test floor visits each local edge
// exactly once. After a reset to one root, the tested rows with a clear
// visited bit are all edges but those into the root; the stream pass counts
// the odd row indices. Needs libatomic2d.so and a GPU; skips without them.
func TestCUDATestFloor(t *testing.T) {
	e, l, g, edges := cudaTestEngine(t)
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

// TestCUDAExpandInParts: expanding all_front in two ranges
// (a2d_expand_begin, two a2d_expand_range, a2d_expand_end), as the device
// path's overlap does, finds per level what one a2d_expand finds (the
// same counts and edges scanned) and the serial BFS's levels. Needs
// libatomic2d.so and a GPU; skips without them.
func TestCUDAExpandInParts(t *testing.T) {
	e, l, _, edges := cudaTestEngine(t)
	root, _ := l.LocalRowOf(edges[0].V0)
	type step struct {
		count uint32
		edges int64
	}
	search := func(parts bool) ([]step, []int32) {
		t.Helper()
		nf, err := e.Reset(int64(root))
		if err != nil {
			t.Fatal(err)
		}
		var steps []step
		for lvl := int32(1); nf > 0; lvl++ {
			if err := e.LoadFrontier(nil); err != nil {
				t.Fatal(err)
			}
			var counts []uint32
			var scanned int64
			if parts {
				nall, err := e.frontierAddDev(BitmapAuto, nil)
				if err != nil {
					t.Fatal(err)
				}
				mid := nall / 2
				if err := e.expandBegin(); err != nil {
					t.Fatal(err)
				}
				if err := e.expandRange(lvl, 0, mid); err != nil {
					t.Fatal(err)
				}
				if err := e.expandRange(lvl, mid, nall); err != nil {
					t.Fatal(err)
				}
				counts, scanned, err = e.expandEnd()
			} else {
				counts, scanned, err = e.Expand(lvl)
			}
			if err != nil {
				t.Fatalf("level %d: %v", lvl, err)
			}
			steps = append(steps, step{counts[0], scanned})
			if err := e.LoadFold(nil); err != nil {
				t.Fatal(err)
			}
			if nf, err = e.Update(lvl); err != nil {
				t.Fatal(err)
			}
		}
		lv := make([]int32, l.BlockLen(l.Block()))
		if err := e.Levels(lv); err != nil {
			t.Fatal(err)
		}
		return steps, lv
	}
	one, _ := search(false)
	two, lv := search(true)
	if !slices.Equal(one, two) {
		t.Errorf("per level (found, edges scanned): one pass %v, in two parts %v", one, two)
	}
	if want := serialLevels(edges, l.N, edges[0].V0); !slices.Equal(lv, want) {
		t.Error("levels found in two parts differ from the serial BFS's")
	}
	if err := e.expandRange(1, 0, 1<<40); err == nil {
		t.Error("a range past all_front accepted")
	}
}

// TestCUDABitmapCountCheck: a received bitmap whose set bits disagree with
// its count fails the level's a2d_expand_end, naming both numbers, though
// a2d_frontier_add no longer waits to check it; after a reset, a payload
// that agrees expands. P(0,0) of a 2×1 grid, the payload from grid row 1.
// Needs libatomic2d.so and a GPU; skips without them.
func TestCUDABitmapCountCheck(t *testing.T) {
	sdktest.NeedCUDA(t, DeviceCount)
	const scale = 12
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	l, err := NewLayout(2, 1, 0, 0, graph500.NVertices(scale))
	if err != nil {
		t.Fatal(err)
	}
	e, err := newCUDAEngine(l, naiveCSC(l, edges), 4, true, CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	bitmap := func(count uint32, bits ...int) []uint32 {
		msg := make([]uint32, 1+BitmapWords(int(l.BlockN)))
		msg[0] = bitmapFlag | count
		for _, b := range bits {
			msg[1+b/32] |= 1 << (b % 32)
		}
		return msg
	}
	for _, c := range []struct {
		msg  []uint32
		want string // "" for success
	}{
		{bitmap(5, 1, 7, 40), "held 3 vertices, its count says 5"},
		{bitmap(3, 1, 7, 40), ""},
	} {
		if _, err := e.Reset(-1); err != nil {
			t.Fatal(err)
		}
		if err := e.LoadFrontier([][]uint32{nil, c.msg}); err != nil {
			t.Fatalf("a2d_frontier_add returned %v; the check belongs to a2d_expand_end", err)
		}
		_, _, err := e.Expand(1)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("count %d: %v", c.msg[0]&^bitmapFlag, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("count %d: error %v, want one saying %q", c.msg[0]&^bitmapFlag, err, c.want)
		}
	}
}
