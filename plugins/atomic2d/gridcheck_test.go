package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/cuda/gpucheck"
	"github.com/bfsbench/bfsbench/plugins/atomic2d/bfs2d"
)

// TestGridcheckCPU runs gridcheck on CPU grids with every search validated:
// each case is ok, the predecessor exchange is reported in its parts (on a
// 1×2 grid the queries cross ranks, so all four take time), and -floor,
// which needs the CUDA backend, is recorded as an error without failing
// the case.
func TestGridcheckCPU(t *testing.T) {
	js := filepath.Join(t.TempDir(), "r.json")
	var out, log bytes.Buffer
	st := gridcheckMain([]string{"-backend", "cpu", "-grids", "1x1,1x2", "-scales", "10", "-roots", "4",
		"-validate", "-1", "-floor", "2", "-json", js}, &out, &log)
	if st != 0 {
		t.Fatalf("status %d\n%s\n%s", st, out.String(), log.String())
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var rep gpucheck.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Cases) != 2 {
		t.Fatalf("%d cases, want 2", len(rep.Cases))
	}
	for _, c := range rep.Cases {
		if c.Status != "ok" || len(c.BFS) != 4 {
			t.Errorf("%s: status %s, %d searches", c.Variant, c.Status, len(c.BFS))
		}
		for _, s := range c.BFS {
			if !s.Valid {
				t.Errorf("%s: search from %d invalid", c.Variant, s.Root)
			}
		}
		if e, _ := c.Info["test_floor_error"].(string); !strings.Contains(e, "has none") {
			t.Errorf("%s: test_floor_error %q", c.Variant, e)
		}
		last := c.BFS[0].Phases[len(c.BFS[0].Phases)-1].Times
		parts := bfs2d.PredPhases
		if c.Grid[1] == 1 {
			parts = []string{bfs2d.PhasePredFinalize}
		}
		if len(last) != len(parts) {
			t.Errorf("%s: last phase times %v, want the parts %v", c.Variant, last, parts)
		}
		for _, p := range parts {
			if last[p] <= 0 {
				t.Errorf("%s: predecessor part %s took %v", c.Variant, p, last[p])
			}
		}
	}
}
