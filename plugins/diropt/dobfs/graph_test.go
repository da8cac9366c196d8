package dobfs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/partition"
)

// TestTranspose checks transpose against a direct one, for shapes of one
// bucket and of many, with empty rows and columns and a hub row.
func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shape := range [][2]int64{{1, 1}, {7, 3}, {100, 5000}, {70000, 40000}} {
		ncols, nrows := shape[0], shape[1]
		lists := make([][]uint32, ncols)
		want := make([][]uint32, nrows)
		for u := range lists {
			for range rng.IntN(12) {
				v := uint32(rng.Int64N(nrows))
				if rng.IntN(4) == 0 {
					v = uint32(nrows / 2) // a hub
				}
				lists[u] = append(lists[u], v)
			}
			slices.Sort(lists[u])
			lists[u] = slices.Compact(lists[u])
			for _, v := range lists[u] {
				want[v] = append(want[v], uint32(u))
			}
		}
		a := Adj{Off: []uint32{0}}
		for _, l := range lists {
			a.Adj = append(a.Adj, l...)
			a.Off = append(a.Off, uint32(len(a.Adj)))
		}
		for _, workers := range []int{1, 3} {
			got := transpose(a, nrows, workers)
			if int64(len(got.Off)) != nrows+1 || len(got.Adj) != len(a.Adj) {
				t.Fatalf("%d×%d: %d offsets, %d entries", ncols, nrows, len(got.Off), len(got.Adj))
			}
			for v := range nrows {
				if l := got.List(uint32(v)); !slices.Equal(l, want[v]) && (len(l) > 0 || len(want[v]) > 0) {
					t.Fatalf("%d×%d, %d workers: row %d is %v, want %v", ncols, nrows, workers, v, l, want[v])
				}
			}
		}
	}
}

// BenchmarkTranspose transposes the one-rank block of a scale-20 graph (the
// CSC construction of 2D grids): go test -bench Transpose.
func BenchmarkTranspose(b *testing.B) {
	const scale = 20
	n := graph500.NVertices(scale)
	p := onePart(b, n, graph500.Generate(scale, 16, [2]uint64{2, 3}))
	td, err := dedup(p.ColPtr, p.RowIdx, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		transpose(td, n, 0)
	}
}

// TestBuildBlockOrders builds a 1×1 block in each order, with and without
// td_ids, and checks which arrays it shares (sharedMode, what dob_create
// uploads once) and each list's order: the same neighbours in the CSR and
// the CSC, the CSR in id order unless it is the degree-ordered CSC.
func TestBuildBlockOrders(t *testing.T) {
	const scale = 10
	n := graph500.NVertices(scale)
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	for _, tc := range []struct {
		order           string
		tdIDs           bool
		shared          int64
		tdByID, buByDeg bool
	}{
		{OrderID, false, 1, true, false},
		{OrderID, true, 1, true, false}, // td_ids needs two orders to differ
		{OrderDegree, false, 1, false, true},
		{OrderDegree, true, 2, true, true},
	} {
		b, err := BuildBlock(onePart(t, n, edges), tc.order, tc.tdIDs, 1)
		if err != nil {
			t.Fatalf("%s td_ids=%v: %v", tc.order, tc.tdIDs, err)
		}
		if len(b.TD.Adj) == 0 {
			t.Fatalf("%s td_ids=%v: no entries", tc.order, tc.tdIDs)
		}
		if got := sharedMode(b); got != tc.shared {
			t.Errorf("%s td_ids=%v: sharedMode %d, want %d", tc.order, tc.tdIDs, got, tc.shared)
		}
		degreeFirst := func(x, y uint32) int { // decreasing degree, then id
			if dx, dy := b.TD.Deg(x), b.TD.Deg(y); dx != dy {
				return int(dy) - int(dx)
			}
			return int(x) - int(y)
		}
		for v := range uint32(n) {
			td, bu := b.TD.List(v), b.BU.List(v)
			if tc.tdByID && !slices.IsSorted(td) {
				t.Fatalf("%s td_ids=%v: CSR list %d not in id order: %v", tc.order, tc.tdIDs, v, td)
			}
			if tc.buByDeg && !slices.IsSortedFunc(bu, degreeFirst) {
				t.Fatalf("%s td_ids=%v: CSC list %d not by degree: %v", tc.order, tc.tdIDs, v, bu)
			}
			if a, c := slices.Sorted(slices.Values(td)), slices.Sorted(slices.Values(bu)); !slices.Equal(a, c) {
				t.Fatalf("%s td_ids=%v: vertex %d: CSR %v, CSC %v", tc.order, tc.tdIDs, v, td, bu)
			}
		}
	}
}

// onePart is the one-rank (1×1) 2D partition of the n-vertex graph of edges.
func onePart(tb testing.TB, n int64, edges []graph500.Edge) *partition.Part2D {
	tb.Helper()
	comms, err := comm.NewLocal(1)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := comm.NewGrid(comms[0], 1, 1)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := partition.Build2D(g, n, edges)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
