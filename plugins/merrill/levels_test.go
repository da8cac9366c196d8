package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/plugins/merrill/mgbfs"
)

// serialShape is, per level of a serial BFS from root, the number of
// vertices at that level and the sum of their degrees (self-loops
// excluded, duplicates counted): the frontier and the edges examined that
// every level of Algorithm 2 must report.
func serialShape(g *sdktest.Graph, root int64) (frontier, edges []int64) {
	_, levels := graph500.SerialBFS(g.Edges, g.N, root)
	deg := make([]int64, g.N)
	for _, e := range g.Edges {
		if e.V0 != e.V1 {
			deg[e.V0]++
			deg[e.V1]++
		}
	}
	for v, l := range levels {
		if l < 0 {
			continue
		}
		for int64(len(frontier)) <= l {
			frontier, edges = append(frontier, 0), append(edges, 0)
		}
		frontier[l]++
		edges[l] += deg[v]
	}
	return frontier, edges
}

// searchAll runs sdktest.SearchAll on merrill: every key and the first
// again, each search validated.
func searchAll(t *testing.T, cfg sdk.Config, g *sdktest.Graph) []sdk.Search {
	t.Helper()
	return sdktest.SearchAll(t, plugin{}, cfg, g, nil)
}

// TestLevelsMatchSerial checks that the CPU backend's level structure
// (frontier per level, edges examined per level) is a serial BFS's, at
// several scales and partition counts, with both expansions.
func TestLevelsMatchSerial(t *testing.T) {
	for _, sc := range [][2]int{{10, 16}, {13, 8}, {15, 16}} {
		g := sdktest.NewGraph(t, sc[0], sc[1], 3)
		for _, gpus := range []int64{1, 2, 3} {
			for _, expand := range []string{mgbfs.ExpandScatter, mgbfs.ExpandContract} {
				name := fmt.Sprintf("scale%d-ef%d/gpus%d/%s", sc[0], sc[1], gpus, expand)
				t.Run(name, func(t *testing.T) {
					full, err := plugin{}.Info().CheckParams(map[string]any{pGPUs: gpus, pExpand: expand})
					if err != nil {
						t.Fatal(err)
					}
					ss := searchAll(t, sdk.Config{Backend: sdk.BackendCPU, Params: full, Ranks: 1}, g)
					roots := append(slices.Clone(g.Keys), g.Keys[0]) // SearchAll's order
					for k, s := range ss {
						wantF, wantE := serialShape(g, roots[k])
						if s.Levels != len(wantF) || len(s.Phases) != len(wantF) {
							t.Fatalf("root %d: %d levels (%d phases), serial BFS %d", roots[k], s.Levels, len(s.Phases), len(wantF))
						}
						for l, ph := range s.Phases {
							if ph.Frontier != wantF[l] || ph.Bytes[mgbfs.CountEdgesExamined] != wantE[l] {
								t.Errorf("root %d level %d: frontier %d, edges %d; serial %d, %d", roots[k], l,
									ph.Frontier, ph.Bytes[mgbfs.CountEdgesExamined], wantF[l], wantE[l])
							}
						}
						if s.BoundBytes <= 0 {
							t.Errorf("root %d: bound bytes %d", roots[k], s.BoundBytes)
						}
					}
				})
			}
		}
	}
}

// TestCircularOrder checks the circular left-right order of Fig. 4.
func TestCircularOrder(t *testing.T) {
	for _, c := range []struct {
		i, p int
		want string
	}{
		{0, 1, "[0]"}, {0, 2, "[0 1]"}, {1, 2, "[1 0]"}, {0, 3, "[0 1 2]"}, {2, 3, "[2 0 1]"},
		{0, 4, "[0 1 3 2]"}, {1, 4, "[1 2 0 3]"}, {3, 5, "[3 4 2 0 1]"},
	} {
		if got := fmt.Sprint(mgbfs.CircularOrder(c.i, c.p)); got != c.want {
			t.Errorf("CircularOrder(%d, %d) = %s, want %s", c.i, c.p, got, c.want)
		}
	}
}

// TestPartition checks the ranges, the owner function and that every
// non-loop edge is stored once in each direction, in its destination's part.
func TestPartition(t *testing.T) {
	g := sdktest.NewGraph(t, 9, 8, 1)
	for _, p := range []int{1, 2, 3, 7} {
		pt, err := mgbfs.Build(g.N, g.Edges, p, 4)
		if err != nil {
			t.Fatal(err)
		}
		var nnz, want int64
		for i := range pt.Parts {
			part := &pt.Parts[i]
			nnz += part.NNZ()
			for v := part.Lo; v < part.Hi; v++ {
				if pt.Owner(v) != i {
					t.Fatalf("p=%d: Owner(%d) = %d, want %d", p, v, pt.Owner(v), i)
				}
			}
			for _, c := range part.Col {
				if int64(c) >= part.Hi-part.Lo {
					t.Fatalf("p=%d part %d: local column %d past %d", p, i, c, part.Hi-part.Lo)
				}
			}
		}
		for _, e := range g.Edges {
			if e.V0 != e.V1 {
				want += 2
			}
		}
		if nnz != want {
			t.Errorf("p=%d: %d CSR entries, want %d", p, nnz, want)
		}
	}
}
