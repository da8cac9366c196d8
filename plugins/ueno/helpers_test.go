package main

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/plugins/ueno/ubfs"
)

// searchAll runs sdktest.SearchAll on ueno.
func searchAll(t *testing.T, cfg sdk.Config, g *sdktest.Graph) []sdk.Search {
	t.Helper()
	return sdktest.SearchAll(t, plugin{}, cfg, g, nil)
}

// levelShape is a search's frontier size per level.
func levelShape(s sdk.Search) []int64 {
	var out []int64
	for _, ph := range s.Phases {
		out = append(out, ph.Frontier)
	}
	return out
}

// TestLevelReport checks the per-level report on a 2×2 grid: frontiers,
// and the bytes of the expand and the fold, which compression and SV
// sharing shrink (alpha 0 sends bitmaps at every level, like no compression).
func TestLevelReport(t *testing.T) {
	g := sdktest.NewGraph(t, 12, 16, 2)
	run := func(params map[string]any) (expand, fold int64) {
		full, err := plugin{}.Info().CheckParams(params)
		if err != nil {
			t.Fatal(err)
		}
		cfg := sdk.Config{Backend: sdk.BackendCPU, Params: full, Ranks: 4, Grid: [2]int{2, 2}}
		for _, s := range searchAll(t, cfg, g) {
			for _, ph := range s.Phases {
				if ph.Frontier <= 0 {
					t.Fatalf("level %d has frontier %d", ph.Level, ph.Frontier)
				}
				for _, k := range []string{ubfs.PhaseKernelExpand, ubfs.PhaseWaitExpand, ubfs.PhaseKernelGather, ubfs.PhaseWaitFold} {
					if _, ok := ph.Times[k]; !ok {
						t.Fatalf("level %d has no %s time: %v", ph.Level, k, ph.Times)
					}
				}
				expand += ph.Bytes[ubfs.BytesExpand]
				fold += ph.Bytes[ubfs.BytesFold]
			}
		}
		return
	}
	e0, f0 := run(map[string]any{pCompression: false})
	lists := map[string]any{pAlpha: 1.0 / 16} // the paper's threshold (the tuned preset's is 0)
	e1, f1 := run(lists)
	ea, _ := run(map[string]any{}) // the tuned preset: alpha 0, bitmaps at every level
	_, f2 := run(map[string]any{pAlpha: 1.0 / 16, pShareSV: false})
	if ea != e0 {
		t.Errorf("expand bytes with alpha 0 (tuned): %d, without compression %d", ea, e0)
	}
	if e1 >= e0 {
		t.Errorf("expand bytes %d with compression, %d without", e1, e0)
	}
	if f0 != f1 || f2 < f1 {
		t.Errorf("fold bytes: %d (bitmaps), %d (lists), %d without SV sharing", f0, f1, f2)
	}
	t.Logf("expand bytes %d → %d with compression; fold %d, %d without SV sharing", e0, e1, f1, f2)
}
