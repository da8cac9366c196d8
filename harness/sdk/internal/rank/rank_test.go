package rank

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// TestShareCoversTheList: the ranks' shares, in rank order, are the whole
// edge list, each no more than one edge longer than another, and each
// says where it starts.
func TestShareCoversTheList(t *testing.T) {
	for _, m := range []int{0, 1, 7, 100, 1 << 12} {
		w := &sdk.Workload{NVertices: 8, NEdges: int64(m), Edges: make([]graph500.Edge, m), EdgeOffset: 3}
		for p := range []int{1, 3, 4, 16} {
			p++
			next := int64(0)
			for r := range p {
				s := Share(w, r, p)
				if s.EdgeOffset != 3+next || int64(len(s.Edges)) > int64(m/p)+1 || s.NEdges != int64(m) {
					t.Fatalf("m=%d p=%d rank %d: offset %d, %d edges after %d", m, p, r, s.EdgeOffset, len(s.Edges), next)
				}
				next += int64(len(s.Edges))
			}
			if next != int64(m) {
				t.Fatalf("m=%d p=%d: shares hold %d edges", m, p, next)
			}
		}
	}
}
