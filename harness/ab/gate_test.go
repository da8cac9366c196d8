package ab

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/report"
)

// The change TestGateFlagsSlowGridVariant commits: every rank of a
// diropt search waits a tenth of its own search's time before it returns,
// so each timed search takes 10% longer. The wait yields the processor
// (runtime.Gosched): a rank spinning on it would take a core from the
// ranks still searching, and four ranks on two cores would then slow the
// search by about 30%.
const (
	slowFile   = "plugins/diropt/dobfs/rank.go"
	slowAnchor = "func (rk *Rank) BFS(root int64) (Result, error) {\n"
	slowImport = "\t\"time\"\n"
	slowCode   = `	slowStart := time.Now()
	defer func() {
		for d := time.Since(slowStart); time.Since(slowStart) < d+d/10; {
			runtime.Gosched()
		}
	}()
`
)

// TestGateFlagsSlowGridVariant is the regression gate end to end for one
// grid variant: in a scratch clone it commits a 10% slow-down of diropt's
// search, then measures the commit before it against that commit as
// `make bench-ci` does (configs/bench-ci.toml's diropt grid variant, the
// Makefile's rounds and threshold), and the verdict must be "FAIL:
// slower".
func TestGateFlagsSlowGridVariant(t *testing.T) {
	ctx := context.Background()
	top := buildingTest(t, "builds two revisions of diropt and measures them")
	rounds, threshold := gateSettings(t, filepath.Join(top, "Makefile"))

	repo := filepath.Join(t.TempDir(), "repo")
	sh := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	sh(".", "git", "clone", "--quiet", top, repo)
	src, err := os.ReadFile(filepath.Join(repo, slowFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte(slowAnchor)) || !bytes.Contains(src, []byte(slowImport)) {
		t.Fatalf("%s has no %q importing time: point the test at diropt's search again", slowFile, strings.TrimSpace(slowAnchor))
	}
	src = bytes.Replace(src, []byte(slowAnchor), []byte(slowAnchor+slowCode), 1)
	src = bytes.Replace(src, []byte(slowImport), []byte("\t\"runtime\"\n"+slowImport), 1)
	if err := os.WriteFile(filepath.Join(repo, slowFile), src, 0o644); err != nil {
		t.Fatal(err)
	}
	sh(repo, "git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-am", "diropt: 10% slower searches")

	cfg, err := config.Load(filepath.Join(repo, "configs", "bench-ci.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var grid []*config.Variant
	for _, v := range cfg.Variants {
		if v.Plugin == "diropt" && v.Grid[0]*v.Grid[1] > 1 {
			grid = append(grid, v)
		}
	}
	if len(grid) == 0 {
		t.Fatal("configs/bench-ci.toml has no diropt grid variant")
	}
	cfg.Variants = grid

	dir := t.TempDir()
	var log bytes.Buffer
	var sides [2]*Build
	for i, s := range []struct{ label, rev string }{{BaseLabel, "HEAD~1"}, {NewLabel, "HEAD"}} {
		sides[i], err = BuildRevision(ctx, s.label, s.rev, BuildOptions{Repo: repo, Dir: filepath.Join(dir, s.label), Plugins: []string{"diropt"}, Log: &log})
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
	}
	res, err := Run(ctx, Options{Config: cfg, Base: sides[0], New: sides[1], Rounds: rounds, OutDir: filepath.Join(dir, "out"), Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	var table bytes.Buffer
	cr, err := report.ComparePairs(&table, res.Pairs, report.CompareOptions{Threshold: threshold, MinSearches: 16})
	t.Logf("diropt 10%% slower, %d rounds, threshold %.0f%%:\n%s", rounds, threshold*100, table.String())
	if err != nil || cr.Regressed != len(grid) || cr.Failed != len(grid) || strings.Count(table.String(), "FAIL: slower") != len(grid) {
		t.Errorf("the gate did not flag the slow-down: %+v %v", cr, err)
	}
}

// gateSettings reads make bench-ci's rounds and threshold from the
// Makefile (BENCH_CI_ROUNDS, BENCH_CI_THRESHOLD).
func gateSettings(t *testing.T, makefile string) (rounds int, threshold float64) {
	t.Helper()
	text, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) string {
		m := regexp.MustCompile(`(?m)^` + name + `\s*\?=\s*(\d+(?:\.\d+)?)%?\s*$`).FindSubmatch(text)
		if m == nil {
			t.Fatalf("%s sets no %s", makefile, name)
		}
		return string(m[1])
	}
	rounds, err = strconv.Atoi(get("BENCH_CI_ROUNDS"))
	if err != nil {
		t.Fatal(err)
	}
	pct, err := strconv.ParseFloat(get("BENCH_CI_THRESHOLD"), 64)
	if err != nil {
		t.Fatal(err)
	}
	return rounds, pct / 100
}

// TestGateConfigsCoverEveryPlugin: configs/bench-ci.toml runs every
// plugin's CPU backend, and configs/bench-ci-gpu.toml the CUDA backend of
// every plugin that has CUDA code (plugins/<name>/cuda), at scales 22-24.
func TestGateConfigsCoverEveryPlugin(t *testing.T) {
	mains, err := filepath.Glob("../../plugins/*/main.go")
	if err != nil || len(mains) == 0 {
		t.Fatalf("no plugins found: %v", err)
	}
	load := func(name string) map[string]bool {
		cfg, err := config.Load(filepath.Join("../../configs", name))
		if err != nil {
			t.Fatal(err)
		}
		runs := map[string]bool{}
		for _, v := range cfg.Variants {
			runs[v.Plugin+"/"+v.Backend] = true
		}
		if name == "bench-ci-gpu.toml" {
			var scales []int
			for _, w := range cfg.Workloads {
				scales = append(scales, w.Spec.Scale)
			}
			if fmt.Sprint(scales) != "[22 23 24]" {
				t.Errorf("%s runs scales %v, want 22 to 24", name, scales)
			}
		}
		return runs
	}
	cpu, gpu := load("bench-ci.toml"), load("bench-ci-gpu.toml")
	for _, m := range mains {
		p := filepath.Base(filepath.Dir(m))
		if !cpu[p+"/cpu"] {
			t.Errorf("configs/bench-ci.toml does not run %s's cpu backend", p)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(m), "cuda")); err == nil && !gpu[p+"/cuda"] {
			t.Errorf("configs/bench-ci-gpu.toml does not run %s's cuda backend", p)
		}
	}
}
