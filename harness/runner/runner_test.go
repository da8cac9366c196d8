package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/results"
)

var (
	buildOnce sync.Once
	builtDir  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// buildPlugins compiles the reference plugin and the faulty test plugin
// into a temporary directory once per test binary.
func buildPlugins(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds plugin binaries; skipped with -short")
	}
	buildOnce.Do(func() {
		builtDir, buildErr = os.MkdirTemp("", "bfsbench-plugins-")
		if buildErr != nil {
			return
		}
		for name, pkg := range map[string]string{"reference": "../../plugins/reference", "faulty": "./testdata/faulty"} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(builtDir, name), pkg)
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("building %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtDir
}

func runConfig(t *testing.T, dir, text string) (*results.Run, error) {
	t.Helper()
	cfg, err := config.Parse("test.toml", text)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	run, err := Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard})
	if run != nil {
		// results.json on disk must equal what Run returned.
		disk, lerr := results.Load(filepath.Join(out, "results.json"))
		if lerr != nil {
			t.Fatalf("results.json: %v", lerr)
		}
		if len(disk.Cases) != len(run.Cases) {
			t.Fatalf("results.json has %d cases, run has %d", len(disk.Cases), len(run.Cases))
		}
	}
	return run, err
}

func TestRunReferenceValidates(t *testing.T) {
	dir := buildPlugins(t)
	run, err := runConfig(t, dir, `
[workload]
scale = [8, 10]
nbfs = 4
[[variant]]
name = "ref"
plugin = "reference"
[[variant]]
name = "ref-td"
plugin = "reference"
[variant.params]
direction_optimizing = false
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Cases) != 4 {
		t.Fatalf("%d cases, want 4", len(run.Cases))
	}
	for _, c := range run.Cases {
		if c.Status != results.StatusOK || len(c.BFS) != 4 || c.Stats == nil || c.Stats.HarmonicMeanTEPS <= 0 {
			t.Fatalf("case %s %s: status %s, %d searches, error %q", c.Variant, c.Graph.Label(), c.Status, len(c.BFS), c.Error)
		}
		for _, s := range c.BFS {
			if !s.Valid || s.NEdge <= 0 || s.TEPS <= 0 || s.Levels <= 0 {
				t.Fatalf("search %+v", s)
			}
		}
		if c.Graph.Fingerprint == "" || c.Params["alpha"] != int64(15) {
			t.Fatalf("case record incomplete: %+v", c)
		}
		// The plugin binary that ran: its file, hash and build. It lies
		// outside the working directory, so its path is its name alone.
		b := c.Binary
		if b == nil || b.Path != "reference" || len(b.SHA256) != 64 ||
			b.Module != "github.com/bfsbench/bfsbench" || b.GoVersion == "" {
			t.Fatalf("plugin binary %+v", b)
		}
		if want, _ := results.ReadBinary(filepath.Join(dir, "reference")); want.SHA256 != b.SHA256 {
			t.Errorf("sha256 %s, the file hashes to %s", b.SHA256, want.SHA256)
		}
		// Named by the parameters that differ from the defaults only.
		if want := map[string]string{"ref": "[]", "ref-td": "[direction_optimizing]"}[c.Variant]; fmt.Sprint(c.NameParams) != want || c.NameParams == nil {
			t.Errorf("case %s named by %v, want %s", c.Variant, c.NameParams, want)
		}
	}
}

// TestFaultsCostOneCase: each misbehaving case is recorded with its status
// and the good case after it still runs.
func TestFaultsCostOneCase(t *testing.T) {
	dir := buildPlugins(t)
	cfgText := `
[workload]
scale = 8
nbfs = 3
`
	modes := []string{"crash", "hang", "panic", "error", "invalid", "crash-construct", "ok"}
	for _, m := range modes {
		cfgText += "[[variant]]\nname = \"" + m + "\"\nplugin = \"faulty\"\ntimeout = \"5s\"\n[variant.params]\nmode = \"" + m + "\"\n"
	}
	start := time.Now()
	run, err := runConfig(t, dir, cfgText)
	var fe *FailedError
	if !errors.As(err, &fe) || len(fe.Cases) != 6 {
		t.Fatalf("err = %v, want 6 failed cases", err)
	}
	want := map[string]string{
		"crash": results.StatusFailed, "hang": results.StatusTimeout, "panic": results.StatusFailed,
		"error": results.StatusFailed, "invalid": results.StatusInvalid, "crash-construct": results.StatusFailed,
		"ok": results.StatusOK,
	}
	msg := map[string]string{"crash": "exited", "hang": "timed out", "panic": "panicked", "error": "deliberate failure",
		"invalid": "invalid", "crash-construct": "exited"}
	for _, c := range run.Cases {
		if c.Status != want[c.Variant] {
			t.Errorf("%s: status %s, want %s (error %q)", c.Variant, c.Status, want[c.Variant], c.Error)
		}
		if !strings.Contains(c.Error, msg[c.Variant]) {
			t.Errorf("%s: error %q does not mention %q", c.Variant, c.Error, msg[c.Variant])
		}
		if c.Variant == "invalid" {
			if c.Stats == nil || c.Stats.N != 2 {
				t.Errorf("invalid case: stats over valid searches %+v, want 2", c.Stats)
			}
			for _, s := range c.BFS {
				if !s.Valid && s.TEPS != 0 {
					t.Errorf("invalid search got a TEPS figure: %+v", s)
				}
			}
		}
	}
	if el := time.Since(start); el > 2*time.Minute {
		t.Errorf("faults took %v; a crash must be noticed at once, a hang at its timeout", el)
	}
	// No plugin process may be left behind.
	out, _ := exec.Command("pgrep", "-f", dir).Output()
	if s := strings.TrimSpace(string(out)); s != "" {
		t.Errorf("stray plugin processes: %s", s)
	}
}

func TestExistingOutDirRefused(t *testing.T) {
	dir := buildPlugins(t)
	cfg, err := config.Parse("t.toml", "[workload]\nscale = 6\nnbfs = 1\n[[variant]]\nplugin = \"reference\"\n")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir() // exists
	if _, err := Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard}); err == nil || !strings.Contains(err.Error(), "never overwritten") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err == nil {
		t.Fatal("results.json written into an existing folder")
	}
}

func TestUnknownPluginParamFailsBeforeRunning(t *testing.T) {
	dir := buildPlugins(t)
	cfg, err := config.Parse("t.toml", "[workload]\nscale = 6\n[[variant]]\nplugin = \"reference\"\n[variant.params]\ngamma = 3\n")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "o")
	_, err = Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard})
	var ce *config.Error
	if !errors.As(err, &ce) || ce.Line != 6 || ce.Key != "variant[0].params.gamma" {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("results folder created for a config that failed its check")
	}
}

// TestInterruptKeepsResults: cancelling the run (Ctrl-C) during a hanging
// case stops its plugin, records it, marks the rest not run and keeps
// results.json.
func TestInterruptKeepsResults(t *testing.T) {
	dir := buildPlugins(t)
	cfg, err := config.Parse("t.toml", `
[workload]
scale = 7
nbfs = 3
[[variant]]
name = "first"
plugin = "faulty"
[[variant]]
name = "hangs"
plugin = "faulty"
[variant.params]
mode = "hang"
[[variant]]
name = "never"
plugin = "faulty"
`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := filepath.Join(t.TempDir(), "o")
	calls := 0
	go func() {
		// Interrupt once the hanging case is under way.
		for {
			time.Sleep(100 * time.Millisecond)
			if b, err := os.ReadDir(filepath.Join(out, "logs")); err == nil && len(b) >= 2 {
				time.Sleep(time.Second)
				cancel()
				return
			}
		}
	}()
	run, err := Run(ctx, Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard,
		Reports: func(*results.Run) error { calls++; return nil }})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v", err)
	}
	disk, lerr := results.Load(filepath.Join(out, "results.json"))
	if lerr != nil {
		t.Fatal(lerr)
	}
	want := []string{results.StatusOK, results.StatusFailed, results.StatusSkipped}
	for i, c := range disk.Cases {
		if c.Status != want[i] {
			t.Errorf("case %s: status %s, want %s (%s)", c.Variant, c.Status, want[i], c.Error)
		}
	}
	if !strings.Contains(disk.Cases[1].Error, "interrupted") || !strings.Contains(disk.Cases[2].Error, "interrupted") {
		t.Errorf("errors: %q / %q", disk.Cases[1].Error, disk.Cases[2].Error)
	}
	if run.Finished == "" || disk.Finished == "" || calls != 1 {
		t.Errorf("run not closed properly: finished %q, reports written %d times, want once", disk.Finished, calls)
	}
	out2, _ := exec.Command("pgrep", "-f", dir).Output()
	if s := strings.TrimSpace(string(out2)); s != "" {
		t.Errorf("stray plugin processes: %s", s)
	}
}

// TestValidatePolicy checks validate = N: only the first N searches of a
// case are validated and marked so, the others carry the harness's own
// TEPS edge count and are left out of the statistics, and a wrong search
// past N is not caught (that is what validating fewer costs) while one
// within N is.
func TestValidatePolicy(t *testing.T) {
	dir := buildPlugins(t)
	run, err := runConfig(t, dir, `
[workload]
scale = 9
nbfs = 6
validate = 2
[[variant]]
name = "ref"
plugin = "reference"
[[variant]]
name = "late-invalid"
plugin = "faulty"
[variant.params]
mode = "invalid"
`)
	var failed *FailedError
	if !errors.As(err, &failed) || len(failed.Cases) != 1 {
		t.Fatalf("want one failed case, got %v", err)
	}
	ref, late := run.Cases[0], run.Cases[1]
	if ref.Status != results.StatusOK || ref.Validated != 2 || ref.Validate != "first 2" || ref.Stats.N != 2 || ref.StatsAll == nil || ref.StatsAll.N != 6 {
		t.Fatalf("ref: status %s, validated %d (%q), stats over %v, stats_all %+v", ref.Status, ref.Validated, ref.Validate, ref.Stats.N, ref.StatsAll)
	}
	for i, s := range ref.BFS {
		if s.Validated != (i < 2) || s.Valid != (i < 2) || s.NEdge <= 0 || s.TEPS <= 0 {
			t.Errorf("ref search %d: validated %v valid %v nedge %d teps %g", i, s.Validated, s.Valid, s.NEdge, s.TEPS)
		}
	}
	// The edge count of an unvalidated search is the one validation gives.
	if ref.BFS[2].Root == ref.BFS[0].Root && ref.BFS[2].NEdge != ref.BFS[0].NEdge {
		t.Errorf("edge counts differ for one root")
	}
	if got := ref.ValidLabel(); got != "2/2 of 6" {
		t.Errorf("label %q", got)
	}
	// The faulty plugin's third search (after the warm-up: the second
	// timed one) is wrong: inside the validated two.
	if late.Status != results.StatusInvalid {
		t.Errorf("late-invalid: status %s, want invalid (%s)", late.Status, late.Error)
	}
}
