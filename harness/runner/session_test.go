package runner

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/results"
)

// TestSessionsInterleave drives two cases on one prepared workload as
// bfsbench ab does, their searches alternating: the good one is recorded
// in full and validated, the one whose plugin crashes on its second timed
// search is failed there, says why on every later call, and costs the
// other nothing.
func TestSessionsInterleave(t *testing.T) {
	dir := buildPlugins(t)
	cfg, err := config.Parse("test.toml", `
[workload]
scale = 8
nbfs = 4
[[variant]]
name = "ref"
plugin = "reference"
[[variant]]
name = "crashes"
plugin = "faulty"
[variant.params]
mode = "crash"
`)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	plan, _, err := Plan(ctx, cfg, []string{dir})
	if err != nil || len(plan) != 2 {
		t.Fatalf("plan: %d cases, %v", len(plan), err)
	}
	wl, err := Prepare(ctx, cfg.Workloads[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wl.Release()
	o := Options{Log: io.Discard, Machine: &Machine{}}
	out := t.TempDir()
	var sess [2]*Session
	for i, p := range plan {
		s, err := StartCase(ctx, o, p, wl, out)
		if err != nil {
			t.Fatalf("%s: %v", p.Variant().Name, err)
		}
		defer s.Close()
		if err := s.WarmUp(); err != nil {
			t.Fatalf("%s warm-up: %v", p.Variant().Name, err)
		}
		sess[i] = s
	}
	var crashErr error
	for i := range wl.Keys() {
		for _, si := range [][2]int{{0, 1}, {1, 0}}[i%2] {
			_, err := sess[si].Search(i)
			switch {
			case si == 0 && err != nil:
				t.Fatalf("reference search %d: %v", i, err)
			case si == 1 && i == 1 && err == nil:
				t.Fatalf("the crashing plugin's second search succeeded")
			case si == 1 && i == 1:
				crashErr = err
			case si == 1 && i > 1 && err != crashErr:
				t.Errorf("search %d after the crash: %v, want %v", i, err, crashErr)
			}
		}
	}
	good, bad := sess[0].Finish(), sess[1].Finish()
	if good.Status != results.StatusOK || len(good.BFS) != 4 || good.Validated != 4 || good.Stats.N != 4 || good.Validate != "all" {
		t.Errorf("good case: %s, %d searches, %d validated, error %q", good.Status, len(good.BFS), good.Validated, good.Error)
	}
	if bad.Status != results.StatusFailed || len(bad.BFS) != 1 || !strings.Contains(bad.Error, "search 2") || !strings.Contains(bad.Error, "exited") {
		t.Errorf("crashed case: %s, %d searches, error %q", bad.Status, len(bad.BFS), bad.Error)
	}
	if _, err := sess[0].Search(len(wl.Keys())); err == nil {
		t.Errorf("a key beyond the workload's was searched")
	}
}
