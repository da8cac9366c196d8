package report

import (
	"encoding/csv"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/results"
)

// tableRun is one variant at scales 19 and 22, each case reporting the
// upload of its arrays (info upload_s) and, per search, its levels, a
// "scan" phase per level and the parents' copy; and a failed case at 23.
func tableRun() *results.Run {
	rng := rand.New(rand.NewSource(9))
	r := &results.Run{Env: results.Env{Host: "h", GPUModels: []string{"NVIDIA H200"}}}
	for i, scale := range []int{22, 19} {
		c := gridCase(rng, "edgescan", 1, 1, 1, scale, 4, map[string]any{"preset": "paper"})
		c.Plugin, c.Grid = "edgescan", [2]int{}
		c.Info = map[string]any{"upload_s": 0.01 * float64(8-7*i)}
		for k := range c.BFS {
			c.BFS[k].Levels = 7 + (1 - i)
			c.BFS[k].TransferTimeS = 0.001 * float64(k+1)
			for l := range c.BFS[k].Phases {
				c.BFS[k].Phases[l].Times = map[string]float64{"scan": 0.0005}
			}
		}
		r.Cases = append(r.Cases, c)
	}
	failed := gridCase(rng, "edgescan", 1, 1, 1, 23, 4, nil)
	failed.Plugin, failed.Grid, failed.Status, failed.BFS = "edgescan", [2]int{}, results.StatusTimeout, nil
	r.Cases = append(r.Cases, failed)
	return r
}

// TestTable: a table of kind "table" has a row per case in x order, a
// column per quantity with its unit, quartiles beside the values, the
// failed case kept with its status; the CSV holds the same values in
// seconds; a table without a value is an error.
func TestTable(t *testing.T) {
	figs, err := config.ParseFigures("t.toml", `[[figure]]
name = "tab"
kind = "table"
title = "The article's summary table"
x = "scale"
columns = ["levels", "phase:scan", "info:upload_s + transfer", "transfer"]
headers = ["iterations", "total kernel time", "array copy", "parents copy"]
`)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths, err := writeDeclaredTable(figs[0], collect([]*results.Run{tableRun()}), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 || filepath.Base(paths[0]) != "table-tab.csv" || filepath.Base(paths[1]) != "table-tab.md" {
		t.Fatalf("wrote %v", paths)
	}
	md, _ := os.ReadFile(paths[1])
	lines := strings.Split(strings.TrimSpace(string(md)), "\n")
	wantLines := []string{
		"**The article's summary table**",
		"",
		"| scale (log2 of vertices) | iterations | total kernel time (ms) | array copy (ms) | parents copy (ms) |",
		"|---|---:|---:|---:|---:|",
		"| 19 | 7 | 2.5 | 14.5 (12.8–16.2) | 4.5 (2.75–6.25) |",
		"| 22 | 8 | 2.5 | 84.5 (82.8–86.3) | 4.5 (2.75–6.25) |",
		"| 23 | ✗ timeout | ✗ timeout | ✗ timeout | ✗ timeout |",
		"",
	}
	for i, w := range wantLines {
		if i >= len(lines) || lines[i] != w {
			t.Fatalf("line %d of the markdown:\n%s\nwant %q", i, md, w)
		}
	}
	caption := lines[len(lines)-1]
	for _, w := range []string{"edgescan (CUDA)", "8 searches", "iterations: median", "array copy: sum of the terms' values", "quartiles", "✗: 1 case"} {
		if !strings.Contains(caption, w) {
			t.Errorf("caption %q lacks %q", caption, w)
		}
	}
	f, _ := os.Open(paths[0])
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != "scale,iterations,iterations_q1,iterations_q3,total_kernel_time_s,total_kernel_time_s_q1,total_kernel_time_s_q3,array_copy_s,array_copy_s_q1,array_copy_s_q3,parents_copy_s,parents_copy_s_q1,parents_copy_s_q3,status" {
		t.Errorf("CSV header %q", got)
	}
	if v, _ := strconv.ParseFloat(recs[1][7], 64); recs[1][0] != "19" || v != 0.0145 {
		t.Errorf("CSV row %q: array copy %v s, want 0.0145", recs[1], v)
	}
	if recs[3][0] != "23" || recs[3][1] != "" || recs[3][len(recs[3])-1] != "timeout" {
		t.Errorf("CSV failed row %q", recs[3])
	}
	// No value at all: an error, no file.
	figs[0].Columns = []string{"info:absent"}
	if _, err := writeDeclaredTable(figs[0], collect([]*results.Run{tableRun()}), t.TempDir()); err == nil || !strings.Contains(err.Error(), "no data") {
		t.Errorf("a table without values: %v", err)
	}
}

// TestFiguresWritesTables: Figures writes a config's tables beside its
// figures.
func TestFiguresWritesTables(t *testing.T) {
	figs, err := config.ParseFigures("t.toml", "[[figure]]\nname = \"tab\"\nkind = \"table\"\nx = \"scale\"\ncolumns = [\"levels\"]\n\n[[figure]]\nname = \"g\"\nx = \"scale\"\ny = \"gteps\"\n")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths, err := Figures([]*results.Run{tableRun()}, figs, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	if strings.Join(names, " ") != "table-tab.csv table-tab.md figure-g.png figure-g.svg" {
		t.Errorf("wrote %q", names)
	}
}
