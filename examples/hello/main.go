// Command hello is a bfsbench variant written the way an author outside
// the repository writes one: a module of its own that imports the SDK
// (harness/sdk), a plain level-synchronous top-down BFS on the CPU, its
// tests calling the conformance suite (harness/sdk/sdktest). README.md is
// the guide that goes with it.
//
// The binary is the plugin: `go build -o bin/hello .`, then a config's
// `plugin = "hello"` (the binary's file name) runs it. It only serves: the
// harness starts it (`bfsbench run hello.toml`).
package main

import (
	"fmt"
	"time"

	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// main is all a plugin's main does: serve the plugin to the harness.
func main() { sdk.Serve(plugin{}) }

// plugin is the sdk.Plugin: what the variant is, and a constructor.
type plugin struct{}

// Info describes the variant: `bfsbench plugins` shows it, and the
// harness checks a config's [variant.params] against Params before
// anything runs.
func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:     "hello",
		Paper:    "none: the textbook level-synchronous top-down BFS (cite your paper here)",
		Summary:  "an example variant: one queue per level, top-down, on one CPU core",
		Backends: []string{sdk.BackendCPU},
		Params: []sdk.Param{
			{Name: "phases", Type: sdk.TypeBool, Default: true,
				Help: "report each level's time as a phase (sdk.Search.Phases): the per-level plots and `bfsbench levels` draw from them"},
		},
		// Memory is what the variant holds beyond the SDK's copy of the
		// edge list and the parents file: per vertex the CSR offsets (8),
		// the parents (8) and the two frontier queues (4 + 4), per input
		// edge both directions of the adjacency (4 + 4). The harness adds
		// it to its estimate of the case before generating anything, and
		// refuses a case the machine cannot hold; without it the run warns
		// that only the SDK's share was counted.
		Memory: map[string]sdk.Memory{
			sdk.BackendCPU: {HostPerVertex: 24, HostPerEdge: 8},
		},
	}
}

// New makes the variant of one case. The SDK has resolved every parameter
// (the config's value, else the preset's, else the default): read them
// with cfg.Bool, cfg.Int... A case this variant cannot run is an error, not
// a panic.
func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	if cfg.Backend != sdk.BackendCPU {
		return nil, fmt.Errorf("hello has no %q backend", cfg.Backend)
	}
	if cfg.Ranks > 1 {
		return nil, fmt.Errorf("hello runs on one rank, not %d", cfg.Ranks)
	}
	return &variant{phases: cfg.Bool("phases")}, nil
}

// variant is one case's sdk.Variant: the graph as CSR (both directions of
// each edge, self-loops dropped, 32-bit vertex ids) and the last search's
// parents.
type variant struct {
	phases  bool
	offsets []int64  // n+1: the neighbours of v are adj[offsets[v]:offsets[v+1]]
	adj     []uint32 // offsets[n] entries
	parents []int64
}

// Construct builds the CSR from the edge list (Graph500 kernel 1; the SDK
// times it).
func (v *variant) Construct(w *sdk.Workload) error {
	n := w.NVertices
	if n > 1<<32 {
		return fmt.Errorf("hello: %d vertices do not fit 32-bit ids", n)
	}
	v.offsets = make([]int64, n+1)
	for _, e := range w.Edges {
		if e.V0 != e.V1 {
			v.offsets[e.V0+1]++
			v.offsets[e.V1+1]++
		}
	}
	for i := int64(1); i <= n; i++ {
		v.offsets[i] += v.offsets[i-1]
	}
	v.adj = make([]uint32, v.offsets[n])
	next := make([]int64, n)
	copy(next, v.offsets[:n])
	for _, e := range w.Edges {
		if e.V0 != e.V1 {
			v.adj[next[e.V0]] = uint32(e.V1)
			next[e.V0]++
			v.adj[next[e.V1]] = uint32(e.V0)
			next[e.V1]++
		}
	}
	v.parents = make([]int64, n)
	return nil
}

// BFS searches from root, one level at a time: every vertex of the
// frontier claims its unvisited neighbours, which form the next frontier.
// It reports the number of levels of the tree (sdk.Search.Levels: the
// root's level counts, so a search that reaches the root's neighbours and
// nothing beyond has 2) and, with phases on, each level's time. TimeS is
// left 0: the SDK times the call.
func (v *variant) BFS(root int64) (sdk.Search, error) {
	if v.parents == nil {
		return sdk.Search{}, fmt.Errorf("hello: bfs before construct")
	}
	for i := range v.parents {
		v.parents[i] = -1
	}
	v.parents[root] = root
	var s sdk.Search
	frontier, next := []uint32{uint32(root)}, []uint32(nil)
	for len(frontier) > 0 {
		t0 := time.Now()
		next = next[:0]
		for _, u := range frontier {
			for _, w := range v.adj[v.offsets[u]:v.offsets[u+1]] {
				if v.parents[w] < 0 {
					v.parents[w] = int64(u)
					next = append(next, w)
				}
			}
		}
		if v.phases {
			s.Phases = append(s.Phases, results.LevelPhase{Level: s.Levels, Frontier: int64(len(frontier)),
				Times: map[string]float64{"top_down": time.Since(t0).Seconds()}})
		}
		s.Levels++ // the level of this frontier: it holds vertices of the tree
		frontier, next = next, frontier
	}
	return s, nil
}

// Parents copies the last search's parents into dst: parents[root] ==
// root, -1 for a vertex the search did not reach.
func (v *variant) Parents(dst []int64) error {
	copy(dst, v.parents)
	return nil
}

// Close releases the graph.
func (v *variant) Close() error {
	v.offsets, v.adj, v.parents = nil, nil, nil
	return nil
}
