package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/report"
)

// TestFigureConfigs: every config under configs/figures loads, and every
// reference CSV it names reads.
func TestFigureConfigs(t *testing.T) {
	paths, err := filepath.Glob("../../../configs/figures/*.toml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no figure configs: %v", err)
	}
	for _, p := range paths {
		c, err := config.Load(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(c.Figures) == 0 {
			t.Errorf("%s declares no [[figure]]", p)
		}
		for _, f := range c.Figures {
			if f.Reference == "" {
				continue
			}
			if _, _, err := report.FindReference(f, nil); err != nil {
				t.Errorf("%v", err)
			}
		}
	}
}

// TestRunDrawsFigures: bfsbench run draws the config's figures, with the
// paper's values beside ours, and bfsbench plot redraws them from
// results.json alone (the reference CSV travels with the results).
func TestRunDrawsFigures(t *testing.T) {
	dir := plugins(t)
	work := t.TempDir()
	cfg := filepath.Join(work, "fig.toml")
	text := `[workload]
scale = [8, 9]
nbfs = 2

[[variant]]
name = "ref"
plugin = "reference"
[variant.params]
direction_optimizing = [true, false]

[[figure]]
name = "gteps"
x = "scale"
y = "gteps"
series = "direction_optimizing"
reference = "paper.csv"

[[figure]]
name = "levels"
x = "level"
y = "time"
series = ["scale", "direction_optimizing"]
logy = true

[[figure]]
name = "transfer"
x = "scale"
y = "transfer"
`
	csv := "# paper: A Paper, 2016\n# hardware: a GPU\n# source: Table 1, p. 2\nseries,scale,gteps\ndirection_optimizing=true,8,0.01\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "paper.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(work, "out")
	var stdout, stderr bytes.Buffer
	if err := dispatch(context.Background(), []string{"run", cfg, "--plugins", dir, "--out", out}, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if strings.Contains(stderr.String(), "figure") {
		t.Errorf("run warned about figures:\n%s", stderr.String())
	}
	for _, name := range []string{"figure-gteps.png", "figure-gteps.svg", "figure-levels.png", "figure-levels.svg", "figure-transfer.svg", "paper.csv"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("run wrote no %s", name)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(out, "figure-gteps.svg"))
	if strings.Count(string(svg), ">paper<") != 1 {
		t.Errorf("the paper's values are not named \"paper\" once in the legend")
	}
	// Redraw from the results alone, the config and its CSV gone.
	os.Remove(cfg)
	os.Remove(filepath.Join(work, "paper.csv"))
	redraw := filepath.Join(work, "redraw")
	stdout.Reset()
	if err := dispatch(context.Background(), []string{"plot", "--out", redraw, filepath.Join(out, "results.json")}, &stdout, &stderr); err != nil {
		t.Fatalf("plot: %v\n%s", err, stdout.String())
	}
	for _, name := range []string{"figure-gteps.png", "figure-levels.svg"} {
		if !strings.Contains(stdout.String(), filepath.Join(redraw, name)) {
			t.Errorf("plot did not redraw %s:\n%s", name, stdout.String())
		}
	}
	// A missing reference is refused before anything runs, naming the key.
	os.WriteFile(cfg, []byte(text), 0o644)
	err := dispatch(context.Background(), []string{"run", cfg, "--plugins", dir, "--out", filepath.Join(work, "out2")}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "fig.toml:16") || !strings.Contains(err.Error(), "figure[0].reference") {
		t.Errorf("missing reference: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "out2")); err == nil {
		t.Errorf("the run started despite the missing reference")
	}
}
