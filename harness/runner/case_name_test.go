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
	if got, want := caseFileName(short), "edgescan_cuda_scale20ef16_a=x-y_b=2"; got != want {
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
