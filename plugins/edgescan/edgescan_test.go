package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
)

// oracleKey identifies a search for the oracle's cache.
type oracleKey struct {
	edges *graph500.Edge
	n     int
	root  int64
}

var oracleCache = map[oracleKey][]uint8{}

// oracle returns refLevels, computed once per graph and root.
func oracle(edges []graph500.Edge, nv, root int64) []uint8 {
	k := oracleKey{&edges[0], len(edges), root}
	if lv, ok := oracleCache[k]; ok {
		return lv
	}
	lv := refLevels(edges, nv, root)
	oracleCache[k] = lv
	return lv
}

// refLevels is graph500.SerialBFS's levels as edgescan stores them
// (uint8, 255 = unvisited).
func refLevels(edges []graph500.Edge, nv, root int64) []uint8 {
	_, lv64 := graph500.SerialBFS(edges, nv, root)
	lv := make([]uint8, nv)
	for i, l := range lv64 {
		if l < 0 {
			lv[i] = unvisited
		} else {
			lv[i] = uint8(l)
		}
	}
	return lv
}

func path(n int64) []graph500.Edge {
	var es []graph500.Edge
	for i := int64(0); i+1 < n; i++ {
		es = append(es, graph500.Edge{V0: i + 1, V1: i}) // reversed, so both directions are exercised
	}
	return es
}

// handMade are small graphs with the features the kernel must handle.
var handMade = []struct {
	name  string
	nv    int64
	edges []graph500.Edge
	roots []int64
}{
	{"single edge", 2, []graph500.Edge{{V0: 0, V1: 1}}, []int64{0, 1}},
	{"path", 9, path(9), []int64{0, 4, 8}},
	{"star with self-loops and duplicates", 6,
		[]graph500.Edge{{V0: 0, V1: 1}, {V0: 2, V1: 0}, {V0: 0, V1: 3}, {V0: 3, V1: 0}, {V0: 0, V1: 0}, {V0: 4, V1: 4}, {V0: 0, V1: 4}, {V0: 1, V1: 2}}, []int64{0, 4}},
	{"two components and an isolated vertex", 8,
		[]graph500.Edge{{V0: 0, V1: 1}, {V0: 1, V1: 2}, {V0: 2, V1: 0}, {V0: 4, V1: 5}, {V0: 5, V1: 6}, {V0: 6, V1: 7}, {V0: 7, V1: 4}}, []int64{1, 6, 3}},
	{"cycle", 7, append(path(7), graph500.Edge{V0: 0, V1: 6}), []int64{3}},
}

// tileModes are the tile settings optionSets cycles through: no tiles;
// tiles of 4096 or 8192 vertices (several per side from scale 13 on) with
// the dense kernel in every iteration, with small chunks, without the
// growing rule; and the default tiles with the default switch.
var tileModes = []map[string]any{
	{pTileBits: int64(0)},
	{pTileBits: int64(12), pDenseFrontier: 0.0, pTileChunk: int64(1024)},
	{pTileBits: int64(18), pDenseFrontier: 0.01},
	{pTileBits: int64(13), pDenseFrontier: 0.0, pDenseGrowing: false},
	{pTileBits: int64(12), pDenseFrontier: 0.0},
}

// optionSets covers the knobs both backends share: permutation, the
// source-load mode (eager, lazy, summary), packing, the write check and
// tiles (the layout on both; the dense kernel is CUDA's), over both
// presets.
func optionSets() []map[string]any {
	var out []map[string]any
	for _, permute := range []bool{false, true} {
		for _, mode := range []string{sourceEager, sourceLazy, sourceSummary} {
			for _, pack := range []string{packOff, packAuto} {
				for _, wcheck := range []bool{false, true} {
					preset := []string{presetTuned, presetPaper}[len(out)/2%2]
					set := map[string]any{pPreset: preset, pPermute: permute, pBlockVertices: int64(1024), pSourceLoads: mode,
						pPack16: pack, pWriteCheck: wcheck}
					for k, x := range tileModes[len(out)%len(tileModes)] {
						set[k] = x
					}
					out = append(out, set)
				}
			}
		}
	}
	return out
}

func newVariant(t *testing.T, backend string, params map[string]any) sdk.Variant {
	t.Helper()
	v, err := sdk.New(plugin{}, sdk.Config{Backend: backend, Params: params, Ranks: 1})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// checkSearches runs every root on a constructed variant and checks levels
// against the oracle, parents with the Graph500 validator, and the
// reported level count.
func checkSearches(t *testing.T, v sdk.Variant, edges []graph500.Edge, nv int64, roots []int64, levels func() ([]uint8, error)) {
	t.Helper()
	val := graph500.NewValidator(edges, nv)
	parents := make([]int64, nv)
	for _, r := range roots {
		s, err := v.BFS(r)
		if err != nil {
			t.Fatalf("BFS(%d): %v", r, err)
		}
		for i := range parents {
			parents[i] = -7 // poison: every entry must be written
		}
		if err := v.Parents(parents); err != nil {
			t.Fatal(err)
		}
		res, err := val.Validate(r, parents)
		if err != nil {
			t.Fatalf("root %d: %v", r, err)
		}
		if s.Levels != res.Levels || len(s.Phases) != s.Levels {
			t.Errorf("root %d: reported %d levels and %d phases, validator counts %d levels", r, s.Levels, len(s.Phases), res.Levels)
		}
		got, err := levels()
		if err != nil {
			t.Fatal(err)
		}
		if want := oracle(edges, nv, r); !slices.Equal(got, want) {
			t.Fatalf("root %d: levels\n got %v\nwant %v", r, got, want)
		}
	}
}

func TestCPUHandMade(t *testing.T) {
	for _, g := range handMade {
		for _, params := range optionSets() {
			t.Run(fmt.Sprintf("%s/%v", g.name, params), func(t *testing.T) {
				v := newVariant(t, sdk.BackendCPU, params)
				defer v.Close()
				if err := v.Construct(&sdk.Workload{NVertices: g.nv, NEdges: int64(len(g.edges)), Edges: g.edges}); err != nil {
					t.Fatal(err)
				}
				cv := v.(*cpuVariant)
				checkSearches(t, v, g.edges, g.nv, g.roots, func() ([]uint8, error) { return cv.Levels(), nil })
			})
		}
	}
}

// TestConformance runs the shared conformance suite over every option set
// (both presets among them), on the CPU backend and, where a GPU and
// lib/libedgescan.so are present, on CUDA. Scale 17 has more than 65536
// vertices, so no packing.
func TestConformance(t *testing.T) {
	useRepoLib(t)
	scales := []int{10, 17}
	if testing.Short() {
		scales = scales[:1]
	}
	sdktest.Run(t, plugin{}, sdktest.Options{Scales: scales, EdgeFactors: []int{16}, Params: optionSets()})
}

// TestPackedWhenSmall checks that pack16 = auto packs exactly the graphs
// of at most 65536 vertices.
func TestPackedWhenSmall(t *testing.T) {
	for _, scale := range []int{10, 16, 17} {
		edges := graph500.Generate(scale, 4, [2]uint64{2, 3})
		nv := graph500.NVertices(scale)
		v := newVariant(t, sdk.BackendCPU, map[string]any{pPack16: packAuto})
		if err := v.Construct(&sdk.Workload{NVertices: nv, NEdges: int64(len(edges)), Edges: edges}); err != nil {
			t.Fatal(err)
		}
		if got, want := v.(*cpuVariant).arr.Packed != nil, scale <= 16; got != want {
			t.Errorf("scale %d: packed = %v, want %v", scale, got, want)
		}
		v.Close()
	}
}

// useRepoLib points the CUDA library search at the repository's lib/
// unless the environment names a folder.
func useRepoLib(t *testing.T) {
	if os.Getenv(cuda.LibDirEnv) == "" {
		lib, _ := filepath.Abs(filepath.Join("..", "..", "lib"))
		t.Setenv(cuda.LibDirEnv, lib)
	}
}

func TestDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		n       int64
		wantErr bool
	}{
		{255, false}, // depth 254: the deepest uint8 level
		{256, true},  // depth 255 would collide with the unvisited marker
	} {
		v := newVariant(t, sdk.BackendCPU, nil)
		es := path(tc.n)
		if err := v.Construct(&sdk.Workload{NVertices: tc.n, NEdges: int64(len(es)), Edges: es}); err != nil {
			t.Fatal(err)
		}
		s, err := v.BFS(0)
		if tc.wantErr {
			if err == nil || !strings.Contains(err.Error(), "deeper than 254 levels") {
				t.Errorf("path of %d: err = %v, want the depth error", tc.n, err)
			}
			continue
		}
		if err != nil || s.Levels != 255 {
			t.Errorf("path of %d: levels %d, err %v; want 255 levels", tc.n, s.Levels, err)
		}
	}
}

// scanOrder lists a's edges as (src, dst) in the order the kernels scan.
func scanOrder(a *edgeArrays) []graph500.Edge {
	var out []graph500.Edge
	for k := range a.M {
		s, d := a.edge(k)
		out = append(out, graph500.Edge{V0: int64(s), V1: int64(d)})
	}
	return out
}

func TestPrepare(t *testing.T) {
	edges := []graph500.Edge{{V0: 5, V1: 3500}, {V0: 1, V1: 1}, {V0: 7, V1: 2}, {V0: 2, V1: 2050}, {V0: 3500, V1: 4}, {V0: 9, V1: 1030}, {V0: 2, V1: 7}}
	const nv = 4000
	tests := []struct {
		name      string
		opt       prepOptions
		wantOrder []graph500.Edge // src, dst in scan order
		packed    bool
		blocks    int64
	}{
		{"generator order", prepOptions{Pack16: packOff, Workers: 2}, []graph500.Edge{{V0: 5, V1: 3500}, {V0: 7, V1: 2}, {V0: 2, V1: 2050}, {V0: 3500, V1: 4}, {V0: 9, V1: 1030}, {V0: 2, V1: 7}}, false, 1},
		{"by destination block, stable", prepOptions{Permute: true, BlockVertices: 1024, Pack16: packOff, Workers: 3},
			[]graph500.Edge{{V0: 7, V1: 2}, {V0: 3500, V1: 4}, {V0: 2, V1: 7}, {V0: 9, V1: 1030}, {V0: 2, V1: 2050}, {V0: 5, V1: 3500}}, false, 4},
		{"packed", prepOptions{Permute: true, BlockVertices: 2048, Pack16: packOn, Workers: 1},
			[]graph500.Edge{{V0: 7, V1: 2}, {V0: 3500, V1: 4}, {V0: 9, V1: 1030}, {V0: 2, V1: 7}, {V0: 5, V1: 3500}, {V0: 2, V1: 2050}}, true, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := prepare(edges, nv, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if a.M != 6 || a.SelfLoops != 1 || a.Blocks != tc.blocks || (a.Packed != nil) != tc.packed {
				t.Fatalf("M %d, self-loops %d, blocks %d, packed %v", a.M, a.SelfLoops, a.Blocks, a.Packed != nil)
			}
			got := scanOrder(a)
			if !slices.Equal(got, tc.wantOrder) {
				t.Errorf("order\n got %v\nwant %v", got, tc.wantOrder)
			}
			wantBytes := int64(8)
			if tc.packed {
				wantBytes = 4
			}
			if a.EdgeBytes() != 6*wantBytes {
				t.Errorf("EdgeBytes = %d", a.EdgeBytes())
			}
		})
	}
}

func TestPrepareTiles(t *testing.T) {
	edges := []graph500.Edge{{V0: 5, V1: 3500}, {V0: 1, V1: 1}, {V0: 7, V1: 2}, {V0: 2, V1: 2050}, {V0: 3500, V1: 4}, {V0: 9, V1: 1030}, {V0: 2, V1: 7}}
	p0, p1 := graph500.Edge{}, graph500.Edge{V0: 2048, V1: 2048} // padding of range rows 0 and 1
	tests := []struct {
		name   string
		opt    prepOptions
		want   []graph500.Edge
		blocks int64
	}{
		{"tiles in generator order", prepOptions{TileBits: 11, Pack16: packOff, Workers: 2},
			[]graph500.Edge{{V0: 7, V1: 2}, {V0: 9, V1: 1030}, {V0: 2, V1: 7}, p0, {V0: 5, V1: 3500}, {V0: 2, V1: 2050}, p0, p0, {V0: 3500, V1: 4}, p1, p1, p1}, 1},
		{"tiles, by destination block within", prepOptions{TileBits: 11, Permute: true, BlockVertices: 1024, Pack16: packOff, Workers: 3},
			[]graph500.Edge{{V0: 7, V1: 2}, {V0: 2, V1: 7}, {V0: 9, V1: 1030}, p0, {V0: 2, V1: 2050}, {V0: 5, V1: 3500}, p0, p0, {V0: 3500, V1: 4}, p1, p1, p1}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := prepare(edges, 4000, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if a.M != 12 || a.Padding != 6 || a.SelfLoops != 1 || a.Ranges != 2 || a.Blocks != tc.blocks || !slices.Equal(a.TileOff, []int64{0, 4, 8, 12, 12}) {
				t.Fatalf("M %d, padding %d, self-loops %d, ranges %d, blocks %d, tiles at %v", a.M, a.Padding, a.SelfLoops, a.Ranges, a.Blocks, a.TileOff)
			}
			got := scanOrder(a)
			if !slices.Equal(got, tc.want) {
				t.Errorf("order\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

// TestPrepareTilesGraph500 checks the tiled layout's invariants on a
// Kronecker graph: the kept edges are those of the input, each in its tile,
// tiles aligned to 4 entries, the rest padding self-loops.
func TestPrepareTilesGraph500(t *testing.T) {
	const scale = 10
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	for _, tb := range []int{5, 7, 10} {
		a, err := prepare(edges, 1<<scale, prepOptions{TileBits: tb, Permute: true, BlockVertices: 8, Pack16: packOff, Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		var want, got []graph500.Edge
		for _, e := range edges {
			if e.V0 != e.V1 {
				want = append(want, e)
			}
		}
		for tile := range int64(len(a.TileOff) - 1) {
			lo, hi := a.TileOff[tile], a.TileOff[tile+1]
			if lo%4 != 0 || hi%4 != 0 || hi < lo {
				t.Fatalf("tile_bits %d: tile %d at [%d, %d), not aligned", tb, tile, lo, hi)
			}
			si, ei := tile/a.Ranges, tile%a.Ranges
			for k := lo; k < hi; k++ {
				s, d := a.edge(k)
				if s == d {
					if s != uint32(si<<tb) {
						t.Fatalf("tile_bits %d: tile %d has padding (%d,%d)", tb, tile, s, d)
					}
					continue
				}
				if int64(s)>>tb != si || int64(d)>>tb != ei {
					t.Fatalf("tile_bits %d: edge (%d,%d) in tile (%d,%d)", tb, s, d, si, ei)
				}
				got = append(got, graph500.Edge{V0: int64(s), V1: int64(d)})
			}
		}
		cmp := func(x, y graph500.Edge) int {
			if x.V0 != y.V0 {
				return int(x.V0 - y.V0)
			}
			return int(x.V1 - y.V1)
		}
		slices.SortFunc(want, cmp)
		slices.SortFunc(got, cmp)
		if !slices.Equal(got, want) || a.M-a.Padding != int64(len(want)) {
			t.Errorf("tile_bits %d: %d edges kept (M %d, padding %d), want the %d of the input", tb, len(got), a.M, a.Padding, len(want))
		}
	}
}

func TestPrepareErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edges []graph500.Edge
		nv    int64
		opt   prepOptions
		want  string
	}{
		{"id out of range", []graph500.Edge{{V0: 0, V1: 1}, {V0: 2, V1: 9}}, 5, prepOptions{Pack16: packOff}, "edge 1 (2,9) has an end outside [0,5)"},
		{"negative id", []graph500.Edge{{V0: -1, V1: 1}}, 5, prepOptions{Pack16: packOff}, "outside"},
		{"pack16 on a big graph", nil, 70000, prepOptions{Pack16: packOn}, "pack16 = on needs at most 65536 vertices"},
		{"bad pack16", nil, 10, prepOptions{Pack16: "maybe"}, `pack16 = "maybe"`},
		{"too many vertices", nil, 1 << 33, prepOptions{Pack16: packOff}, "32 bits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := prepare(tc.edges, tc.nv, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  sdk.Config
		want string
	}{
		{sdk.Config{Backend: "tpu"}, `no backend "tpu"`},
		{sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{pThreads: int64(100)}}, "multiple of 32"},
		{sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{pEdgesPerThread: int64(3)}}, "want 1, 2 or 4"},
		{sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{pBlockVertices: int64(512)}}, "below the minimum 1024"},
		{sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{pTileBits: int64(5)}}, "0 (no tiles) or 12..18"},
		{sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{pPreset: "fast"}}, `want one of [tuned paper]`},
		{sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{"orient": true}}, `no parameter "orient"`},
		{sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{"bogus": true}}, `no parameter "bogus"`},
		{sdk.Config{Backend: sdk.BackendCPU, Ranks: 4}, "one process"},
	} {
		if _, err := sdk.New(plugin{}, tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func TestInfoBytes(t *testing.T) {
	edges := graph500.Generate(8, 16, [2]uint64{2, 3})
	v := newVariant(t, sdk.BackendCPU, nil)
	if err := v.Construct(&sdk.Workload{NVertices: 256, NEdges: int64(len(edges)), Edges: edges}); err != nil {
		t.Fatal(err)
	}
	info := v.(sdk.Informer).CaseInfo()
	m := info["edges_scanned"].(int64)
	if info["bytes_per_edge"].(int64) != 4 || info["bytes_per_iteration"].(int64) != 4*m+256 || info["bytes_fixed_per_bfs"].(int64) != 2560 {
		t.Errorf("info = %v", info)
	}
	s, err := v.BFS(edges[0].V0)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, b := range s.Phases[0].Bytes {
		sum += b
	}
	if sum != info["bytes_per_iteration"].(int64) {
		t.Errorf("phase bytes %d, want bytes_per_iteration %d", sum, info["bytes_per_iteration"])
	}
}

// gpuOrSkip returns a CUDA variant when lib/libedgescan.so and a GPU are
// present. Without a GPU it checks that the failure names the library and
// the device, then skips.
func gpuOrSkip(t *testing.T, params map[string]any) sdk.Variant {
	t.Helper()
	if os.Getenv(cuda.LibDirEnv) == "" {
		lib, _ := filepath.Abs(filepath.Join("..", "..", "lib"))
		t.Setenv(cuda.LibDirEnv, lib)
	}
	v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCUDA, Params: params, Ranks: 1})
	if err == nil {
		return v
	}
	msg := err.Error()
	if !strings.Contains(msg, "libedgescan.so") {
		t.Errorf("CUDA failure %q does not name the library", msg)
	}
	if !strings.Contains(msg, "not found") && !strings.Contains(msg, "device 0") {
		t.Errorf("CUDA failure %q names neither the missing file nor the device", msg)
	}
	if cuda.Required(sdk.BackendCUDA) {
		t.Fatalf("CUDA backend required (%s): %v", cuda.RequireEnv, err)
	}
	t.Skipf("no CUDA backend here: %v", err)
	return nil
}

// TestCUDA runs every kernel instance (restrict, packing, edges per
// thread, source loads, permutation) on the hand-made graphs against the
// oracle and the validator; it needs a GPU and `make cuda`.
func TestCUDA(t *testing.T) {
	gpuOrSkip(t, nil).Close()
	type graph struct {
		name  string
		nv    int64
		edges []graph500.Edge
		roots []int64
	}
	var graphs []graph
	for _, g := range handMade {
		graphs = append(graphs, graph{g.name, g.nv, g.edges, g.roots})
	}
	graphs = append(graphs, graph{"path 255", 255, path(255), []int64{0}})
	// Graph500 graphs: TestConformance, on every backend.
	for _, g := range graphs {
		for _, restrict := range []bool{false, true} {
			for _, ept := range []int64{1, 4} {
				for _, base := range optionSets() {
					params := map[string]any{pRestrict: restrict, pEdgesPerThread: ept, pThreads: int64(64)}
					for k, x := range base {
						params[k] = x
					}
					t.Run(fmt.Sprintf("%s/%v", g.name, params), func(t *testing.T) {
						v := gpuOrSkip(t, params)
						defer v.Close()
						if err := v.Construct(&sdk.Workload{NVertices: g.nv, NEdges: int64(len(g.edges)), Edges: g.edges}); err != nil {
							t.Fatal(err)
						}
						gv := v.(*gpuVariant)
						checkSearches(t, v, g.edges, g.nv, g.roots, gv.Levels)
						if d := v.(sdk.Devicer).Devices(); len(d) != 1 || !strings.HasPrefix(d[0], "cuda:0 ") {
							t.Errorf("Devices = %v", d)
						}
					})
				}
			}
		}
	}
}

func TestCUDADepthAndMemory(t *testing.T) {
	v := gpuOrSkip(t, map[string]any{pPack16: packOff})
	defer v.Close()
	es := path(256)
	if err := v.Construct(&sdk.Workload{NVertices: 256, NEdges: int64(len(es)), Edges: es}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.BFS(0); err == nil || !strings.Contains(err.Error(), "deeper than 254 levels") {
		t.Errorf("path of 256: err = %v, want the depth error", err)
	}
	// The need checked before allocating is what edgescan_create allocates.
	info := v.(sdk.Informer).CaseInfo()
	params, err := plugin{}.Info().CheckParams(map[string]any{pPack16: packOff})
	if err != nil {
		t.Fatal(err)
	}
	o, err := parseOptions(sdk.Config{Params: params})
	if err != nil {
		t.Fatal(err)
	}
	a, err := prepare(es, 256, o.prep())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := info["device_bytes_allocated"].(int64), deviceBytes(a, int64(len(tileChunks(a, o.TileChunk)))); got != want {
		t.Errorf("device_bytes_allocated = %d, want %d", got, want)
	}
}

// TestCUDACopyInfo: the case info records the upload of the edge arrays
// (packed or not: 4 or 8 bytes an edge, in a time above zero) and the
// size of the parents' copy back, whose time each search's transfer_time_s
// holds.
func TestCUDACopyInfo(t *testing.T) {
	for _, tc := range []struct {
		pack         string
		bytesPerEdge int64
		nv           int64
	}{
		{packOff, 8, 1000},
		{packOn, 4, 1000},
	} {
		v := gpuOrSkip(t, map[string]any{pPack16: tc.pack})
		es := path(tc.nv)
		if err := v.Construct(&sdk.Workload{NVertices: tc.nv, NEdges: int64(len(es)), Edges: es}); err != nil {
			t.Fatal(err)
		}
		info := v.(sdk.Informer).CaseInfo()
		if s, ok := info["upload_s"].(float64); !ok || !(s > 0) || s > 10 {
			t.Errorf("pack16 = %s: upload_s = %v, want a time above 0", tc.pack, info["upload_s"])
		}
		// Unpacked tiles are padded to a multiple of 4 entries with
		// self-loops, which are uploaded too: the arrays the variant
		// prepared, made again here, give the entries.
		gv, ok := v.(*gpuVariant)
		if !ok {
			t.Fatalf("sdk.New gave a %T, want *gpuVariant", v)
		}
		arr, err := prepare(es, tc.nv, gv.opt.prep())
		if err != nil {
			t.Fatal(err)
		}
		if arr.M < int64(len(es)) || (tc.pack == packOn && arr.M != int64(len(es))) {
			t.Fatalf("pack16 = %s: %d entries for %d edges", tc.pack, arr.M, len(es))
		}
		if got, want := info["upload_bytes"], tc.bytesPerEdge*arr.M; got != want {
			t.Errorf("pack16 = %s: upload_bytes = %v, want %d (%d entries of %d bytes for %d edges)", tc.pack, got, want, arr.M, tc.bytesPerEdge, len(es))
		}
		if got := info["parents_copy_bytes"]; got != 8*tc.nv {
			t.Errorf("parents_copy_bytes = %v, want %d", got, 8*tc.nv)
		}
		v.Close()
	}
}

func TestTileChunks(t *testing.T) {
	// 2 × 2 tiles of 8, 0, 20 and 4 entries, chunks of at most 8.
	a := &edgeArrays{Ranges: 2, TileOff: []int64{0, 8, 8, 28, 32}}
	got := tileChunks(a, 8)
	want := []esChunk{
		{Begin: 0, End: 8, Si: 0, Ei: 0}, {Begin: 8, End: 16, Si: 1, Ei: 0}, {Begin: 16, End: 24, Si: 1, Ei: 0},
		{Begin: 24, End: 28, Si: 1, Ei: 0}, {Begin: 28, End: 32, Si: 1, Ei: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("tileChunks\n got %+v\nwant %+v", got, want)
	}
}

func TestDenseMin(t *testing.T) {
	const l2 = 60 << 20 // bytes of L2
	for _, tc := range []struct {
		frac   float64
		nv, l2 int64
		want   int32
	}{
		{0.01, 1 << 24, l2, 167773},          // ceil(0.01 × 2^24)
		{0.01, 1 << 25, l2, 0},               // levels take more than half the L2: always dense
		{0.01, 30 << 20, l2, 314573},         // exactly half: the fraction still applies
		{0.01, 1 << 25, 0, 335545},           // L2 size unknown: the fraction
		{0, 1 << 20, l2, 0},                  // dense_frontier 0: every iteration
		{2, 1 << 31, 1 << 40, math.MaxInt32}, // capped
	} {
		if got := denseMin(tc.frac, tc.nv, tc.l2); got != tc.want {
			t.Errorf("denseMin(%v, %d, %d) = %d, want %d", tc.frac, tc.nv, tc.l2, got, tc.want)
		}
	}
}

// TestPresets: a preset gives the parameters the config leaves to it and
// an explicit value wins.
func TestPresets(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   options
	}{
		{"tuned by default", nil, options{BlockVertices: 1024, EdgesPerThread: 4, SourceLoads: sourceSummary, WriteCheck: true, TileBits: 18}},
		{"paper", map[string]any{pPreset: presetPaper}, options{BlockVertices: 1 << 20, EdgesPerThread: 1, SourceLoads: sourceEager, WriteCheck: false, TileBits: 0}},
		{"paper with an explicit override", map[string]any{pPreset: presetPaper, pEdgesPerThread: int64(4), pWriteCheck: true},
			options{BlockVertices: 1 << 20, EdgesPerThread: 4, SourceLoads: sourceEager, WriteCheck: true, TileBits: 0}},
		{"tuned without tiles", map[string]any{pTileBits: int64(0), pSourceLoads: sourceLazy},
			options{BlockVertices: 1024, EdgesPerThread: 4, SourceLoads: sourceLazy, WriteCheck: true, TileBits: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params, err := plugin{}.Info().CheckParams(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			o, err := parseOptions(sdk.Config{Params: params})
			if err != nil {
				t.Fatal(err)
			}
			got := options{BlockVertices: o.BlockVertices, EdgesPerThread: o.EdgesPerThread,
				SourceLoads: o.SourceLoads, WriteCheck: o.WriteCheck, TileBits: o.TileBits}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("resolved %+v, want %+v", got, tc.want)
			}
		})
	}
}
