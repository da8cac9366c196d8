package partition

// Property tests of the 1D and 2D partitions, built over the in-process
// communicator from random edge lists (self-loops and duplicates
// included), for grids where R·C divides N and where it does not (short
// and empty blocks):
//   - every directed entry of the undirected graph lands in exactly one
//     block, and nothing else does;
//   - the index maps are inverse to each other;
//   - the properties of [Bisson] §2.2: (i) a vertex's
//     edge list lies on the processors of its owner's grid column; (ii)
//     each edge's destination is owned by a processor in the edge owner's
//     grid row;
//   - the result does not depend on how the edge list was shared out.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
)

// randomEdges returns m random edges over n vertices, with some
// self-loops and repeated edges mixed in.
func randomEdges(seed uint64, n int64, m int) []graph500.Edge {
	rng := rand.New(rand.NewPCG(seed, 99))
	out := make([]graph500.Edge, m)
	for k := range out {
		switch {
		case k > 0 && k%7 == 0:
			out[k] = out[rng.IntN(k)] // duplicate
		case k%11 == 0:
			v := rng.Int64N(n)
			out[k] = graph500.Edge{V0: v, V1: v} // self-loop
		default:
			out[k] = graph500.Edge{V0: rng.Int64N(n), V1: rng.Int64N(n)}
		}
	}
	return out
}

// share is rank r's part of the edges: either a contiguous range or every
// p-th edge (a different split, which must not change the result).
func share(edges []graph500.Edge, r, p int, strided bool) []graph500.Edge {
	if !strided {
		m := len(edges)
		return edges[r*m/p : (r+1)*m/p]
	}
	var out []graph500.Edge
	for k := r; k < len(edges); k += p {
		out = append(out, edges[k])
	}
	return out
}

// directed is the multiset of directed entries the partition must hold.
func directed(edges []graph500.Edge) map[[2]int64]int {
	want := map[[2]int64]int{}
	for _, e := range edges {
		if e.V0 != e.V1 {
			want[[2]int64{e.V0, e.V1}]++
			want[[2]int64{e.V1, e.V0}]++
		}
	}
	return want
}

var grids = []struct {
	r, c int
	n    int64
}{
	{1, 1, 50},
	{2, 2, 64},  // R·C divides N
	{2, 2, 37},  // short last block
	{2, 3, 50},  // R ≠ C
	{3, 2, 50},  // R ≠ C the other way
	{1, 4, 33},  // a single grid row
	{4, 1, 33},  // a single grid column
	{4, 4, 10},  // fewer vertices than processors: empty blocks
	{4, 4, 256}, // 16 ranks
}

func build2DAll(t *testing.T, r, c int, n int64, edges []graph500.Edge, strided bool) []*Part2D {
	t.Helper()
	parts := make([]*Part2D, r*c)
	var mu sync.Mutex
	err := comm.RunLocal(r*c, func(w comm.Comm) error {
		g, err := comm.NewGrid(w, r, c)
		if err != nil {
			return err
		}
		defer g.Close()
		p, err := Build2D(g, n, share(edges, w.Rank(), w.Size(), strided))
		if err != nil {
			return err
		}
		if p.I != g.I || p.J != g.J {
			return fmt.Errorf("part at P(%d,%d) for grid P(%d,%d)", p.I, p.J, g.I, g.J)
		}
		mu.Lock()
		parts[w.Rank()] = p
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return parts
}

func TestBuild2DProperties(t *testing.T) {
	for _, gr := range grids {
		t.Run(fmt.Sprintf("%dx%d/n=%d", gr.r, gr.c, gr.n), func(t *testing.T) {
			edges := randomEdges(uint64(gr.n)*31+uint64(gr.r), gr.n, 400)
			parts := build2DAll(t, gr.r, gr.c, gr.n, edges, false)
			l := parts[0].Layout
			got := map[[2]int64]int{}
			for rank, p := range parts {
				i, j := comm.GridCoords(rank, l.R)
				if p.I != i || p.J != j {
					t.Fatalf("rank %d holds P(%d,%d), want P(%d,%d)", rank, p.I, p.J, i, j)
				}
				if int64(len(p.ColPtr)) != l.LocalCols()+1 || p.ColPtr[len(p.ColPtr)-1] != int64(len(p.RowIdx)) {
					t.Fatalf("P(%d,%d): malformed CSC", i, j)
				}
				for lc := uint32(0); int64(lc) < l.LocalCols(); lc++ {
					u := l.ColGlobal(j, lc)
					rows := p.Column(lc)
					if !slices.IsSorted(rows) {
						t.Errorf("P(%d,%d) column %d not sorted", i, j, lc)
					}
					for _, lr := range rows {
						if int64(lr) >= l.LocalRows() {
							t.Fatalf("P(%d,%d): local row %d out of range", i, j, lr)
						}
						v := l.RowGlobal(i, lr)
						if u >= gr.n || v >= gr.n {
							t.Fatalf("P(%d,%d): entry %d→%d in the padding", i, j, u, v)
						}
						got[[2]int64{u, v}]++
						// The edge is stored by the processor EdgeOwner names.
						if ei, ej := l.EdgeOwner(u, v); ei != i || ej != j {
							t.Errorf("%d→%d stored on P(%d,%d), EdgeOwner says P(%d,%d)", u, v, i, j, ei, ej)
						}
						// (i) u's edge list is on u's owner's grid column.
						if _, oj := l.Owner(u); oj != j {
							t.Errorf("property (i): %d→%d on P(%d,%d) but %d is owned in grid column %d", u, v, i, j, u, oj)
						}
						// (ii) v's owner is in the edge owner's grid row,
						// and the local row names its grid column.
						oi, oj := l.Owner(v)
						if oi != i {
							t.Errorf("property (ii): %d→%d on P(%d,%d) but %d is owned in grid row %d", u, v, i, j, v, oi)
						}
						if l.RowOwnerCol(lr) != oj {
							t.Errorf("RowOwnerCol(%d) = %d, owner of %d is in column %d", lr, l.RowOwnerCol(lr), v, oj)
						}
					}
				}
			}
			if want := directed(edges); !mapsEqual(got, want) {
				t.Fatalf("entries differ from the edge list: %d distinct stored, %d expected", len(got), len(want))
			}
			// Another split of the edge list gives the same partition.
			again := build2DAll(t, gr.r, gr.c, gr.n, edges, true)
			for rank := range parts {
				if !slices.Equal(parts[rank].ColPtr, again[rank].ColPtr) || !slices.Equal(parts[rank].RowIdx, again[rank].RowIdx) {
					t.Errorf("rank %d: partition depends on how the edges were shared", rank)
				}
			}
		})
	}
}

func mapsEqual(a, b map[[2]int64]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		if b[k] != x {
			return false
		}
	}
	return true
}

func TestLayout2DIndexMapsAreInverse(t *testing.T) {
	for _, gr := range grids {
		l, err := NewLayout2D(gr.n, gr.r, gr.c)
		if err != nil {
			t.Fatal(err)
		}
		owned := make([]int, gr.n)
		for i := range gr.r {
			for j := range gr.c {
				// Local columns ↔ global, over the whole local range.
				for lc := uint32(0); int64(lc) < l.LocalCols(); lc++ {
					u := l.ColGlobal(j, lc)
					if l.ColBlock(u) != j || l.ColLocal(j, u) != lc {
						t.Fatalf("%v P(%d,%d): column %d → %d → %d", gr, i, j, lc, u, l.ColLocal(j, u))
					}
				}
				for lr := uint32(0); int64(lr) < l.LocalRows(); lr++ {
					v := l.RowGlobal(i, lr)
					if !l.HasRow(i, v) || l.RowLocal(i, v) != lr {
						t.Fatalf("%v P(%d,%d): row %d → %d → %d", gr, i, j, lr, v, l.RowLocal(i, v))
					}
				}
				// Own vertices: rows j·B+o and columns i·B+o.
				lo, hi := l.BlockRange(comm.GridRank(i, j, l.R))
				for v := lo; v < hi; v++ {
					owned[v]++
					if oi, oj := l.Owner(v); oi != i || oj != j || l.OwnerRank(v) != comm.GridRank(i, j, l.R) {
						t.Fatalf("%v: vertex %d in P(%d,%d)'s block, Owner says P(%d,%d)", gr, v, i, j, oi, oj)
					}
					o := uint32(v - lo)
					if l.RowLocal(i, v) != l.OwnRow0(j)+o || l.ColLocal(j, v) != l.OwnCol0(i)+o {
						t.Fatalf("%v: own vertex %d at row %d col %d", gr, v, l.RowLocal(i, v), l.ColLocal(j, v))
					}
				}
			}
		}
		for v, k := range owned {
			if k != 1 {
				t.Fatalf("%v: vertex %d owned %d times", gr, v, k)
			}
		}
	}
}

func TestLayout2DRejectsOversizedLocalIndices(t *testing.T) {
	if _, err := NewLayout2D(1<<34, 2, 2); err == nil {
		t.Fatal("2^34 vertices on a 2×2 grid accepted with 32-bit local indices")
	}
	if _, err := NewLayout2D(1<<34, 8, 8); err != nil {
		t.Fatal(err)
	}
	if _, err := NewLayout2D(10, 0, 2); err == nil {
		t.Fatal("0 grid rows accepted")
	}
}

func TestBuild1DProperties(t *testing.T) {
	for _, tc := range []struct {
		p int
		n int64
	}{{1, 20}, {4, 64}, {4, 37}, {6, 50}, {16, 10}, {16, 300}} {
		t.Run(fmt.Sprintf("p=%d/n=%d", tc.p, tc.n), func(t *testing.T) {
			edges := randomEdges(uint64(tc.n)+uint64(tc.p), tc.n, 500)
			build := func(strided bool) []*Part1D {
				parts := make([]*Part1D, tc.p)
				err := comm.RunLocal(tc.p, func(c comm.Comm) error {
					p, err := Build1D(c, tc.n, share(edges, c.Rank(), c.Size(), strided))
					parts[c.Rank()] = p
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return parts
			}
			parts := build(false)
			got := map[[2]int64]int{}
			next := int64(0)
			for r, p := range parts {
				if p.Lo != next || p.Hi < p.Lo || p.Hi > tc.n {
					t.Fatalf("rank %d owns [%d,%d), want to start at %d", r, p.Lo, p.Hi, next)
				}
				next = p.Hi
				for u := p.Lo; u < p.Hi; u++ {
					if p.Layout.Owner(u) != r {
						t.Fatalf("Owner(%d) = %d, rank %d holds it", u, p.Layout.Owner(u), r)
					}
					nb := p.Neighbors(u)
					if !slices.IsSorted(nb) {
						t.Errorf("neighbours of %d not sorted", u)
					}
					for _, v := range nb {
						got[[2]int64{u, v}]++
					}
				}
			}
			if next != tc.n {
				t.Fatalf("owned ranges end at %d, want %d", next, tc.n)
			}
			if !mapsEqual(got, directed(edges)) {
				t.Fatal("entries differ from the edge list")
			}
			again := build(true)
			for r := range parts {
				if !slices.Equal(parts[r].Offsets, again[r].Offsets) || !slices.Equal(parts[r].Adj, again[r].Adj) {
					t.Errorf("rank %d: partition depends on how the edges were shared", r)
				}
			}
		})
	}
}

// An edge outside the vertex range fails on every rank (none hangs), and
// the rank holding it names it.
func TestBuildRejectsBadEdgesOnEveryRank(t *testing.T) {
	comms, err := comm.NewLocal(4)
	if err != nil {
		t.Fatal(err)
	}
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			edges := []graph500.Edge{{V0: 1, V1: 2}}
			if r == 2 {
				edges = append(edges, graph500.Edge{V0: 3, V1: 10})
			}
			g, err := comm.NewGrid(c, 2, 2)
			if err != nil {
				errs[r] = err
				return
			}
			_, errs[r] = Build2D(g, 10, edges)
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err == nil {
			t.Errorf("rank %d: no error", r)
		}
	}
	if errs[2] == nil || !strings.Contains(errs[2].Error(), "(3, 10)") {
		t.Fatalf("rank 2's error does not name the bad edge: %v", errs[2])
	}
}
