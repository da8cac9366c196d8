package sdktest

import "testing"

func TestGraphTruncated(t *testing.T) {
	g := NewGraph(t, 10, 8, 4)
	h := g.Truncated(t, 7)
	if h.N != g.N-7 || len(h.Keys) != len(g.Keys) || len(h.Edges) >= len(g.Edges) {
		t.Fatalf("truncated: %d vertices, %d keys, %d edges (from %d, %d, %d)", h.N, len(h.Keys), len(h.Edges), g.N, len(g.Keys), len(g.Edges))
	}
	for _, e := range h.Edges {
		if e.V0 >= h.N || e.V1 >= h.N {
			t.Fatalf("edge %v outside %d vertices", e, h.N)
		}
	}
	for _, k := range h.Keys {
		if k >= h.N {
			t.Fatalf("key %d outside %d vertices", k, h.N)
		}
	}
	if w := h.Workload(); w.NVertices != h.N || w.NEdges != int64(len(h.Edges)) || w.Graph.Scale != 10 {
		t.Errorf("workload %+v", w.Graph)
	}
}
