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
	comms, err := comm.NewLocal(1)
	if err != nil {
		b.Fatal(err)
	}
	g, err := comm.NewGrid(comms[0], 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	p, err := partition.Build2D(g, n, graph500.Generate(scale, 16, [2]uint64{2, 3}))
	if err != nil {
		b.Fatal(err)
	}
	td, err := dedup(p.ColPtr, p.RowIdx, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		transpose(td, n, 0)
	}
}
