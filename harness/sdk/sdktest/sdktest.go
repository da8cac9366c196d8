// Package sdktest is the conformance suite every bfsbench variant's tests
// call. It drives a plugin the way the harness does, in process: for every
// backend, rank layout, parameter point, scale and edge factor it builds the
// variant, constructs the Graph500 graph once, runs the Graph500 search keys
// (and the first key again, to catch state left over from earlier
// searches), poisons the parent buffer before each Parents call, and checks
// every search with the harness's validator and against a serial BFS's
// level structure, and the search's reported level count (sdk.Search.Levels)
// against the validated tree's. It also checks the plugin's Info and that
// Close works.
//
//	func TestConformance(t *testing.T) {
//		sdktest.Run(t, plugin{}, sdktest.Options{Grids: [][2]int{{1, 1}, {2, 2}}})
//	}
//
// A backend other than cpu whose New or Construct fails is skipped with
// the error as the message (a machine without a GPU), unless the
// environment sets BFSBENCH_REQUIRE=<backend>[,<backend>...], as the GPU
// check script does: then it fails.
package sdktest

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// RequireEnv names the environment variable listing the backends that must
// run (a comma-separated list, e.g. "cuda"): their failures are not skipped.
const RequireEnv = cuda.RequireEnv

// Options choose what Run covers. Zero values take the defaults named.
type Options struct {
	Backends    []string         // default: every backend the plugin declares
	Scales      []int            // default: 8 and 11
	EdgeFactors []int            // default: 4 and 16
	Seed        [2]uint64        // default: 2, 3
	Roots       int              // search keys per graph; default 4
	Grids       [][2]int         // rank layouts R×C; default {1,1}; only {1,1} for a single-rank plugin
	Params      []map[string]any // parameter points (defaults filled in); default one point of all defaults
	// OneD, for a multi-rank plugin without a 2D grid, passes R*C ranks
	// and no grid.
	OneD bool
}

func (o Options) withDefaults(in sdk.Info) Options {
	if len(o.Backends) == 0 {
		o.Backends = in.Backends
	}
	if len(o.Scales) == 0 {
		o.Scales = []int{8, 11}
	}
	if len(o.EdgeFactors) == 0 {
		o.EdgeFactors = []int{4, 16}
	}
	if o.Seed == [2]uint64{} {
		o.Seed = DefaultSeed
	}
	if o.Roots <= 0 {
		o.Roots = 4
	}
	if len(o.Grids) == 0 {
		o.Grids = [][2]int{{1, 1}}
	}
	if len(o.Params) == 0 {
		o.Params = []map[string]any{{}}
	}
	return o
}

// graph is one generated workload with the serial BFS levels of each key.
type graph struct {
	*Graph
	levels map[int64][]int64
}

// Run runs the conformance suite on p as subtests of t.
func Run(t *testing.T, p sdk.Plugin, o Options) {
	t.Helper()
	in := p.Info()
	t.Run("Info", func(t *testing.T) { checkInfo(t, in) })
	o = o.withDefaults(in)
	var graphs []*graph
	for _, scale := range o.Scales {
		for _, ef := range o.EdgeFactors {
			graphs = append(graphs, newGraph(t, scale, ef, o))
		}
	}
	for _, backend := range o.Backends {
		for _, grid := range o.Grids {
			if grid != [2]int{1, 1} && !in.MultiRank {
				continue
			}
			for pi, given := range o.Params {
				params, err := in.CheckParams(given)
				if err != nil {
					t.Fatalf("params %v: %v", given, err)
				}
				cfg := sdk.Config{Backend: backend, Params: params, Ranks: grid[0] * grid[1], Launcher: sdk.LauncherEmbedded}
				if in.MultiRank && !o.OneD {
					cfg.Grid = grid
				}
				name := fmt.Sprintf("%s/%dx%d/params%d", backend, grid[0], grid[1], pi)
				t.Run(name, func(t *testing.T) {
					for _, g := range graphs {
						t.Run(fmt.Sprintf("scale%d-ef%d", g.Scale, g.EdgeFactor), func(t *testing.T) {
							checkCase(t, p, cfg, g, given)
						})
					}
				})
			}
		}
	}
}

func newGraph(t testing.TB, scale, ef int, o Options) *graph {
	t.Helper()
	edges := graph500.Generate(scale, ef, o.Seed)
	n := graph500.NVertices(scale)
	keys, err := graph500.SearchKeys(edges, n, o.Roots, o.Seed)
	if err != nil {
		t.Fatalf("scale %d ef %d: search keys: %v", scale, ef, err)
	}
	g := &graph{Graph: &Graph{Scale: scale, EdgeFactor: ef, Edges: edges, N: n, Keys: keys,
		Val: graph500.NewValidator(edges, n)}, levels: map[int64][]int64{}}
	for _, k := range keys {
		_, g.levels[k] = graph500.SerialBFS(edges, n, k)
	}
	return g
}

// checkInfo checks what `bfsbench plugins` shows and the config check uses.
func checkInfo(t *testing.T, in sdk.Info) {
	if in.Name == "" || in.Paper == "" || in.Summary == "" {
		t.Errorf("Info must name the plugin, its paper and a summary: %+v", in)
	}
	if len(in.Backends) == 0 {
		t.Errorf("Info declares no backend")
	}
	for _, b := range in.Backends {
		if b != sdk.BackendCPU && b != sdk.BackendCUDA {
			t.Errorf("unknown backend %q", b)
		}
	}
	seen := map[string]bool{}
	for _, p := range in.Params {
		if seen[p.Name] {
			t.Errorf("parameter %q declared twice", p.Name)
		}
		seen[p.Name] = true
		if p.Help == "" {
			t.Errorf("parameter %q has no help", p.Name)
		}
		if _, err := p.Normalize(p.Default); err != nil {
			t.Errorf("parameter %q: its default %v is not valid: %v", p.Name, p.Default, err)
		}
	}
	if _, err := in.CheckParams(map[string]any{"no_such_parameter_x": 1}); err == nil {
		t.Errorf("CheckParams accepted an undeclared parameter")
	}
}

// required reports whether backend's failures must not be skipped.
func required(backend string) bool {
	return backend == sdk.BackendCPU || slices.Contains(strings.Split(os.Getenv(RequireEnv), ","), backend)
}

// checkCase constructs g once and searches every key, then the first key
// again.
func checkCase(t testing.TB, p sdk.Plugin, cfg sdk.Config, g *graph, given map[string]any) {
	v, err := sdk.New(p, cfg)
	if err != nil {
		if !required(cfg.Backend) {
			t.Skipf("backend %s unavailable here (set %s=%s to fail instead): %v", cfg.Backend, RequireEnv, cfg.Backend, err)
		}
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	closed := false
	defer func() {
		if !closed {
			v.Close()
		}
	}()
	if err := v.Construct(g.Workload()); err != nil {
		if !required(cfg.Backend) {
			t.Skipf("backend %s unavailable here (set %s=%s to fail instead): construct: %v", cfg.Backend, RequireEnv, cfg.Backend, err)
		}
		t.Fatalf("Construct: %v", err)
	}
	parents := make([]int64, g.N)
	roots := append(slices.Clone(g.Keys), g.Keys[0])
	for i, root := range roots {
		s, err := v.BFS(root)
		if err != nil {
			t.Fatalf("search %d from %d: %v", i, root, err)
		}
		if s.TimeS < 0 {
			t.Errorf("search %d from %d: negative time %v", i, root, s.TimeS)
		}
		for j := range parents {
			parents[j] = -2 // poison, as the SDK does: a vertex left unwritten fails validation
		}
		if err := v.Parents(parents); err != nil {
			t.Fatalf("parents of search %d from %d: %v", i, root, err)
		}
		res, err := g.Val.Validate(root, parents)
		if err != nil {
			t.Fatalf("search %d from %d (params %v): %v", i, root, given, err)
		}
		if s.Levels != res.Levels {
			t.Errorf("search %d from %d: %d levels reported (sdk.Search.Levels), the validated tree has %d (1 + its largest depth)", i, root, s.Levels, res.Levels)
		}
		want, got := g.levels[root], graph500.LevelsOf(parents, root)
		for x := range want {
			if want[x] != got[x] {
				t.Fatalf("search %d from %d: vertex %d at level %d, a serial BFS says %d", i, root, x, got[x], want[x])
			}
		}
	}
	closed = true
	if err := v.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
