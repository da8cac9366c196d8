package partition

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
)

// BenchmarkBuild2D builds the one-rank 2D partition of a scale-20 graph:
// the host construction of atomic2d (go test -bench Build2D -cpuprofile).
func BenchmarkBuild2D(b *testing.B) {
	const scale = 20
	n := graph500.NVertices(scale)
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	b.ResetTimer()
	for range b.N {
		err := comm.RunLocal(1, func(w comm.Comm) error {
			g, err := comm.NewGrid(w, 1, 1)
			if err != nil {
				return err
			}
			defer g.Close()
			_, err = Build2D(g, n, edges)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
