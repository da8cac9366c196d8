package bfs2d

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

var testGrids = [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}}

// checkRun validates a search with the Graph500 validator and compares its
// level structure with a serial BFS: every vertex's level (hence the
// maximum level and the per-level counts), the reported level count, and
// the frontier sizes reported per level.
func checkRun(t *testing.T, edges []graph500.Edge, n, root int64, got gridRun) {
	t.Helper()
	v := graph500.NewValidator(edges, n)
	if _, err := v.Validate(root, got.parents); err != nil {
		t.Fatalf("root %d: invalid tree: %v", root, err)
	}
	want := serialLevels(edges, n, root)
	if len(got.levels) != len(want) {
		t.Fatalf("root %d: %d levels for %d vertices", root, len(got.levels), len(want))
	}
	maxLevel := int32(0)
	counts := map[int32]int64{}
	for x := range want {
		if got.levels[x] != want[x] {
			t.Fatalf("root %d: vertex %d at level %d, serial BFS says %d", root, x, got.levels[x], want[x])
		}
		if want[x] >= 0 {
			maxLevel = max(maxLevel, want[x])
			counts[want[x]]++
		}
	}
	if got.res.Levels != int(maxLevel)+1 {
		t.Errorf("root %d: reported %d levels, serial BFS has %d", root, got.res.Levels, maxLevel+1)
	}
	// Phase k describes the search step that found level k+1 from the
	// frontier of level k; the last entry is the predecessor exchange.
	if len(got.res.Phases) != got.res.Levels+1 {
		t.Fatalf("root %d: %d phase entries for %d levels", root, len(got.res.Phases), got.res.Levels)
	}
	for k, ph := range got.res.Phases[:got.res.Levels] {
		if ph.Frontier != counts[int32(k)] {
			t.Errorf("root %d: step %d reports a frontier of %d, level %d has %d vertices", root, ph.Level, ph.Frontier, k, counts[int32(k)])
		}
		for _, key := range []string{PhaseExpandExchange, PhaseExpansion, PhaseFoldExchange, PhaseUpdate} {
			if _, ok := ph.Times[key]; !ok {
				t.Errorf("root %d: step %d has no %q time", root, ph.Level, key)
			}
		}
	}
}

func TestSearchMatchesSerialOnGrids(t *testing.T) {
	for _, grid := range testGrids {
		for scale := 8; scale <= 12; scale++ {
			t.Run(fmt.Sprintf("%dx%d/scale%d", grid[0], grid[1], scale), func(t *testing.T) {
				edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
				n := graph500.NVertices(scale)
				roots, err := graph500.SearchKeys(edges, n, 3, [2]uint64{2, 3})
				if err != nil {
					t.Fatal(err)
				}
				opt := Options{EdgesPerThread: 4, BitmapMessages: BitmapAuto, Workers: 3}
				runs := runGrid(t, grid[0], grid[1], n, edges, roots, opt)
				for k, root := range roots {
					checkRun(t, edges, n, root, runs[k])
				}
			})
		}
	}
}

func TestEdgesPerThreadAllValid(t *testing.T) {
	edges := graph500.Generate(10, 16, [2]uint64{5, 7})
	n := graph500.NVertices(10)
	roots, err := graph500.SearchKeys(edges, n, 2, [2]uint64{5, 7})
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 8; k++ {
		for _, grid := range [][2]int{{1, 1}, {2, 2}} {
			t.Run(fmt.Sprintf("k%d/%dx%d", k, grid[0], grid[1]), func(t *testing.T) {
				opt := Options{EdgesPerThread: k, BitmapMessages: BitmapAuto, Workers: 4}
				runs := runGrid(t, grid[0], grid[1], n, edges, roots, opt)
				for x, root := range roots {
					checkRun(t, edges, n, root, runs[x])
				}
			})
		}
	}
}

// TestBitmapMessagesModes: every mode gives a valid search with the same
// levels; "on" and "auto" never send more bytes than "off" at a level where
// the lists are long, and "auto" never sends more than either at any level.
func TestBitmapMessagesModes(t *testing.T) {
	edges := graph500.Generate(11, 16, [2]uint64{2, 3})
	n := graph500.NVertices(11)
	roots, err := graph500.SearchKeys(edges, n, 2, [2]uint64{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	byMode := map[string][]gridRun{}
	for _, mode := range []string{BitmapOff, BitmapOn, BitmapAuto} {
		opt := Options{EdgesPerThread: 2, BitmapMessages: mode, Workers: 2}
		byMode[mode] = runGrid(t, 2, 2, n, edges, roots, opt)
		for k, root := range roots {
			checkRun(t, edges, n, root, byMode[mode][k])
		}
	}
	for k := range roots {
		off, on, auto := byMode[BitmapOff][k].res, byMode[BitmapOn][k].res, byMode[BitmapAuto][k].res
		var sumOff, sumOn, sumAuto int64
		for lv := 0; lv < off.Levels; lv++ {
			for _, key := range []string{BytesExpand, BytesFold} {
				a, b, c := off.Phases[lv].Bytes[key], on.Phases[lv].Bytes[key], auto.Phases[lv].Bytes[key]
				if c > a || c > b {
					t.Errorf("root %d step %d %s: auto sent %d bytes, off %d, on %d", roots[k], lv+1, key, c, a, b)
				}
				sumOff, sumOn, sumAuto = sumOff+a, sumOn+b, sumAuto+c
			}
		}
		if sumAuto >= sumOff {
			t.Errorf("root %d: bitmaps saved nothing: auto %d bytes, off %d", roots[k], sumAuto, sumOff)
		}
		t.Logf("root %d: bytes off %d, on %d, auto %d", roots[k], sumOff, sumOn, sumAuto)
	}
}

// TestOptionsCheckModes: each string option of the CUDA kernels takes its
// values and the zero value (the plugin's default); anything else fails
// with an error naming the option and the value.
func TestOptionsCheckModes(t *testing.T) {
	appendMode := func(m string) Options { return Options{Append: m} }
	for _, tc := range []struct {
		opt  Options
		get  func(Options) bool // what the option selects, when it passes
		on   bool
		want string // "" to pass, else a substring of the error
	}{
		{opt: appendMode(AppendThread), get: Options.appendBlock, on: false},
		{opt: appendMode(AppendBlock), get: Options.appendBlock, on: true},
		{opt: appendMode(""), get: Options.appendBlock, on: true},
		{opt: appendMode("warp"), want: `append "warp": want thread or block`},
	} {
		o := tc.opt
		o.EdgesPerThread, o.BitmapMessages = 1, BitmapAuto
		err := o.check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.opt, err)
		case tc.want == "" && tc.get(o) != tc.on:
			t.Errorf("%+v: selects %v, want %v", tc.opt, tc.get(o), tc.on)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want one saying %q", tc.opt, err, tc.want)
		}
	}
}

// TestIsolatedRoot: an isolated root (no edges) gives a one-vertex tree
// on every grid, including when the isolated vertex's block is remote.
func TestIsolatedRoot(t *testing.T) {
	edges := []graph500.Edge{{V0: 0, V1: 1}, {V0: 1, V1: 2}, {V0: 5, V1: 6}}
	const n = 8
	for _, grid := range testGrids {
		t.Run(fmt.Sprintf("%dx%d", grid[0], grid[1]), func(t *testing.T) {
			opt := Options{EdgesPerThread: 3, BitmapMessages: BitmapAuto, Workers: 1}
			roots := []int64{7, 0, 6}
			runs := runGrid(t, grid[0], grid[1], n, edges, roots, opt)
			for k, root := range roots {
				checkRun(t, edges, n, root, runs[k])
			}
			if got := runs[0].parents; got[7] != 7 || got[0] != -1 {
				t.Errorf("isolated root 7: parents %v", got)
			}
		})
	}
}

// TestOddVertexCount: N not divisible by R·C (short last block).
func TestOddVertexCount(t *testing.T) {
	edges := graph500.Generate(9, 8, [2]uint64{1, 2})
	const n = 509 // drop the top vertices: keep edges inside [0, n)
	var kept []graph500.Edge
	for _, e := range edges {
		if e.V0 < n && e.V1 < n {
			kept = append(kept, e)
		}
	}
	roots, err := graph500.SearchKeys(kept, n, 2, [2]uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, grid := range [][2]int{{1, 3}, {3, 1}, {2, 2}, {2, 3}} {
		t.Run(fmt.Sprintf("%dx%d", grid[0], grid[1]), func(t *testing.T) {
			opt := Options{EdgesPerThread: 4, BitmapMessages: BitmapAuto, Workers: 2}
			runs := runGrid(t, grid[0], grid[1], n, kept, roots, opt)
			for k, root := range roots {
				checkRun(t, kept, n, root, runs[k])
			}
		})
	}
}
