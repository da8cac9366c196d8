package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/results"
)

func TestCaseFileName(t *testing.T) {
	short := &results.Case{Variant: "edgescan", Backend: "cuda", Graph: results.Graph{Scale: 20, EdgeFactor: 16},
		Params: map[string]any{"b": int64(2), "a": "x y"}}
	if got, want := caseFileName(short), "edgescan_cuda_scale20ef16_a=x%20y_b=2"; got != want {
		t.Errorf("short name %q, want %q", got, want)
	}
	// Many parameters: the name must still be a valid file name, and two
	// cases differing only in the last parameter must not share it.
	long := func(last int64) *results.Case {
		p := map[string]any{"zz_last": last}
		for _, k := range []string{"block_vertices", "dense_frontier", "dense_growing", "edges_per_thread", "frontier_summary",
			"lazy_source", "orient", "pack16", "permute", "restrict", "threads_per_block", "tile_bits", "tile_chunk_edges"} {
			p[k] = int64(123456)
		}
		return &results.Case{Variant: "edgescan", Backend: "cuda", Graph: results.Graph{Scale: 24, EdgeFactor: 16}, Params: p}
	}
	a, b := caseFileName(long(1)), caseFileName(long(2))
	if len(a) > maxCaseFileName || len(b) > maxCaseFileName || a == b || !strings.HasPrefix(a, "edgescan_cuda_scale24ef16_block_vertices=123456") {
		t.Errorf("long names %q (%d bytes) and %q", a, len(a), b)
	}
	if err := os.WriteFile(filepath.Join(t.TempDir(), a+".log"), nil, 0o644); err != nil {
		t.Errorf("the long name is not a usable file name: %v", err)
	}
}

// TestCaseFileNamesDistinct: two cases whose names differ only in
// characters a file name cannot hold (/ and :, say) get log files of
// their own.
func TestCaseFileNamesDistinct(t *testing.T) {
	mk := func(variant string, params map[string]any) *results.Case {
		return &results.Case{Variant: variant, Backend: "cpu", Graph: results.Graph{Scale: 10, EdgeFactor: 16}, Params: params}
	}
	for _, pair := range [][2]*results.Case{
		{mk("a/b", nil), mk("a:b", nil)},
		{mk("a b", nil), mk("a-b", nil)},
		{mk("v", map[string]any{"x": "1/2"}), mk("v", map[string]any{"x": "1:2"})},
		{mk("a%2Fb", nil), mk("a/b", nil)},
	} {
		a, b := caseFileName(pair[0]), caseFileName(pair[1])
		if a == b || strings.ContainsAny(a, "/: ") {
			t.Errorf("%q and %q: file names %q and %q", pair[0].Variant, pair[1].Variant, a, b)
		}
	}
}
