package sdktest

// helpers.go: what a variant's own tests need beyond Run: a generated
// workload with its validator (Graph), a validated run of every key on one
// construction (SearchAll), and the CUDA set-up of a test binary
// (UseRepoLib, NeedCUDA).

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// DefaultSeed is the generator seed of Graph and of Run's default (the Graph500
// reference driver's).
var DefaultSeed = [2]uint64{2, 3}

// Graph is a generated Graph500 workload with its search keys and the
// harness's validator.
type Graph struct {
	Scale, EdgeFactor int
	Edges             []graph500.Edge
	N                 int64
	Keys              []int64
	Val               *graph500.Validator
}

// NewGraph generates the Kronecker graph of scale and edge factor ef
// (seeds DefaultSeed) and its first roots search keys.
func NewGraph(t testing.TB, scale, ef, roots int) *Graph {
	t.Helper()
	edges := graph500.Generate(scale, ef, DefaultSeed)
	return newGraphOf(t, scale, ef, edges, graph500.NVertices(scale), roots)
}

// GraphOf is the workload of an edge list over n vertices, with its first
// roots search keys; Scale and EdgeFactor are 0 (not a Kronecker graph).
// It gives tests the shapes Kronecker graphs lack, e.g. the thousands of
// levels of a long path.
func GraphOf(t testing.TB, edges []graph500.Edge, n int64, roots int) *Graph {
	t.Helper()
	return newGraphOf(t, 0, 0, edges, n, roots)
}

func newGraphOf(t testing.TB, scale, ef int, edges []graph500.Edge, n int64, roots int) *Graph {
	t.Helper()
	keys, err := graph500.SearchKeys(edges, n, roots, DefaultSeed)
	if err != nil {
		t.Fatalf("scale %d ef %d: search keys: %v", scale, ef, err)
	}
	return &Graph{Scale: scale, EdgeFactor: ef, Edges: edges, N: n, Keys: keys, Val: graph500.NewValidator(edges, n)}
}

// Truncated is g restricted to its first N-drop vertices (the edges with
// both ends there, keys chosen again): an odd vertex count gives blocks
// whose lengths are not multiples of 32, the unaligned cases of bitmap
// code.
func (g *Graph) Truncated(t testing.TB, drop int64) *Graph {
	t.Helper()
	n := g.N - drop
	var edges []graph500.Edge
	for _, e := range g.Edges {
		if e.V0 < n && e.V1 < n {
			edges = append(edges, e)
		}
	}
	return newGraphOf(t, g.Scale, g.EdgeFactor, edges, n, len(g.Keys))
}

// Workload is g as the harness hands it to Construct.
func (g *Graph) Workload() *sdk.Workload {
	return &sdk.Workload{NVertices: g.N, NEdges: int64(len(g.Edges)), Edges: g.Edges,
		Graph: results.Graph{Scale: g.Scale, EdgeFactor: g.EdgeFactor, NVertices: g.N, NEdges: int64(len(g.Edges))}}
}

// SearchAll builds a variant of p with cfg, constructs g once and searches
// from every key and then the first key again (state left by earlier
// searches), the parent buffer poisoned before each Parents call; every
// search is validated, its reported levels checked against the tree's,
// and check (when not nil) called on it. It returns the searches, in that
// order (len(g.Keys)+1 of them).
func SearchAll(t testing.TB, p sdk.Plugin, cfg sdk.Config, g *Graph, check func(sdk.Search)) []sdk.Search {
	t.Helper()
	v, err := sdk.New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Construct(g.Workload()); err != nil {
		t.Fatal(err)
	}
	parents := make([]int64, g.N)
	var out []sdk.Search
	for i, root := range append(slices.Clone(g.Keys), g.Keys[0]) {
		s, err := v.BFS(root)
		if err != nil {
			t.Fatalf("search %d from %d: %v", i, root, err)
		}
		for k := range parents {
			parents[k] = -2 // poison: a vertex left unwritten fails validation
		}
		if err := v.Parents(parents); err != nil {
			t.Fatalf("parents of search %d: %v", i, err)
		}
		res, err := g.Val.Validate(root, parents)
		if err != nil {
			t.Fatalf("search %d from %d (params %v): %v", i, root, cfg.Params, err)
		}
		if s.Levels != res.Levels {
			t.Errorf("root %d: %d levels reported, the tree has %d", root, s.Levels, res.Levels)
		}
		if check != nil {
			check(s)
		}
		out = append(out, s)
	}
	return out
}

// UseRepoLib points the CUDA loader at the repository's lib/ (where `make
// cuda` puts the libraries), two folders above a plugin's package, unless
// BFSBENCH_LIB_DIR says otherwise: call it from TestMain, since a test
// binary runs from a temporary directory.
func UseRepoLib() {
	if os.Getenv(cuda.LibDirEnv) == "" {
		if dir, err := filepath.Abs(filepath.Join("..", "..", "lib")); err == nil {
			os.Setenv(cuda.LibDirEnv, dir)
		}
	}
}

// NeedCUDA skips t where deviceCount (a variant's, through its library)
// finds no usable device, naming why; where BFSBENCH_REQUIRE names cuda,
// it fails t instead.
func NeedCUDA(t testing.TB, deviceCount func() (int, error)) {
	t.Helper()
	n, err := deviceCount()
	if err == nil && n < 1 {
		err = fmt.Errorf("the runtime found no device")
	}
	if err != nil {
		if cuda.Required(sdk.BackendCUDA) {
			t.Fatalf("CUDA backend required (%s): %v", RequireEnv, err)
		}
		t.Skip("no CUDA device or no library (make cuda): ", err)
	}
}

// Construct builds a variant of p with cfg and constructs g on it; the
// variant is closed when t ends.
func Construct(t testing.TB, p sdk.Plugin, cfg sdk.Config, g *Graph) sdk.Variant {
	t.Helper()
	v, err := sdk.New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	if err := v.Construct(g.Workload()); err != nil {
		t.Fatal(err)
	}
	return v
}

// CheckCUDACaseInfo constructs a scale-16 graph on one CUDA rank of p with
// the given parameters and checks the case info the harness turns into
// "% of bound" and "% of floor": a positive copy bandwidth
// (sdk.InfoCopyBandwidthGBs) and a positive measured floor
// (sdk.InfoFloorTimeS), in a map that gob encodes (it crosses the plugin's
// RPC). It returns the info.
func CheckCUDACaseInfo(t testing.TB, p sdk.Plugin, params map[string]any) map[string]any {
	t.Helper()
	full, err := p.Info().CheckParams(params)
	if err != nil {
		t.Fatal(err)
	}
	v := Construct(t, p, sdk.Config{Backend: sdk.BackendCUDA, Params: full, Ranks: 1}, NewGraph(t, 16, 16, 1))
	inf, ok := v.(sdk.Informer)
	if !ok {
		t.Fatalf("%s does not implement sdk.Informer", p.Info().Name)
	}
	info := inf.CaseInfo()
	bw, _ := info[sdk.InfoCopyBandwidthGBs].(float64)
	fl, _ := info[sdk.InfoFloorTimeS].(float64)
	if bw <= 0 || fl <= 0 {
		t.Fatalf("copy bandwidth %v GB/s, floor %v s: %v", bw, fl, info)
	}
	if err := gob.NewEncoder(&bytes.Buffer{}).Encode(&info); err != nil {
		t.Fatalf("case info %v does not cross RPC: %v", info, err)
	}
	t.Logf("copy %.0f GB/s, floor %.3g ms", bw, fl*1e3)
	return info
}
