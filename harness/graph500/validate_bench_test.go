package graph500

import (
	"fmt"
	"testing"
)

// BenchmarkValidate times one validation of a valid BFS tree of the
// Kronecker graph (seed [2, 3], edgefactor 16) at scales 22 and 24: the
// harness validates every search, which at scale 26 takes longer than the
// search. Select one with -bench 'Validate/scale=24' (its setup, the graph
// and a serial BFS, takes about 100 s on 2 cores).
func BenchmarkValidate(b *testing.B) {
	for _, scale := range []int{22, 24} {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			edges := Generate(scale, 16, [2]uint64{2, 3})
			nv := NVertices(scale)
			root := edges[0].V0
			parents, _ := SerialBFS(edges, nv, root)
			v := NewValidator(edges, nv)
			if _, err := v.Validate(root, parents); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.Validate(root, parents); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(edges)), "ns/edge")
		})
	}
}
