package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
)

// synthCase builds a case of nbfs valid searches whose TEPS spread ±10%
// around gteps, each with levels levels of three phases, from rng.
func synthCase(rng *rand.Rand, variant, backend string, params map[string]any, scale int, gteps float64, nbfs, levels int) *results.Case {
	c := &results.Case{
		Variant: variant, Plugin: variant, Backend: backend, Params: params, Ranks: 1,
		Launcher: "embedded", Status: results.StatusOK,
		Graph: results.Graph{Scale: scale, EdgeFactor: 16, Seed: [2]uint64{2, 3},
			NVertices: 1 << scale, NEdges: 16 << scale},
	}
	if backend == "cuda" {
		c.GPUs = 1
	}
	nedge := int64(16 << scale)
	for i := 0; i < nbfs; i++ {
		teps := gteps * 1e9 * (0.9 + 0.2*rng.Float64())
		s := results.Search{Root: int64(i), NEdge: nedge, TEPS: teps, TimeS: float64(nedge) / teps, Valid: true, Levels: levels}
		// Phase times shaped like a BFS: small, large in the middle, small.
		depth := levels - i%2 // some searches are one level shallower
		for l := 0; l < depth; l++ {
			w := math.Exp(-math.Pow((float64(l)-float64(depth)/2)/math.Max(1, float64(depth)/6), 2)) * s.TimeS / 2
			s.Phases = append(s.Phases, results.LevelPhase{Level: l, Frontier: int64(10 * (l + 1)), Times: map[string]float64{
				"expand exchange": 0.3 * w, "expansion": 0.5 * w, "fold exchange": 0.15 * w, "update": 0.05 * w}})
		}
		c.BFS = append(c.BFS, s)
	}
	c.Stats = graph500.ComputeStats(c.BFS)
	return c
}

// synthRun is two variants (atomic2d on cuda with edges_per_thread 1 and 4,
// edgescan on cpu) at scales 10 and 12, plus a case with an invalid search
// and a failed case, which must not be plotted.
func synthRun() *results.Run {
	rng := rand.New(rand.NewSource(1))
	r := &results.Run{
		ConfigPath: "configs/synth.toml", CommandLine: "bfsbench run configs/synth.toml", Started: "2026-11-01T10:00:00Z",
		Env: results.Env{Host: "h1", OS: "linux", CPUModel: "Test CPU", CPUs: 16, GPUModels: []string{"NVIDIA H200"}},
	}
	for _, scale := range []int{10, 12} {
		for _, ept := range []float64{1, 4} {
			r.Cases = append(r.Cases, synthCase(rng, "atomic2d", "cuda", map[string]any{"edges_per_thread": ept, "bitmap": true},
				scale, 2*ept*float64(scale-8), 8, 6))
		}
		r.Cases = append(r.Cases, synthCase(rng, "edgescan", "cpu", map[string]any{"permute": true}, scale, 0.5, 8, 7))
	}
	bad := synthCase(rng, "diropt", "cuda", map[string]any{}, 10, 3, 4, 5)
	bad.Status = results.StatusInvalid
	bad.BFS[1].Valid, bad.BFS[1].TEPS, bad.BFS[1].Error = false, 0, "parent of 7 is not adjacent"
	bad.Stats = graph500.ComputeStats(bad.BFS)
	failed := &results.Case{Variant: "ueno", Backend: "cuda", Params: map[string]any{"alpha": 0.0625}, Ranks: 1,
		Status: results.StatusFailed, Error: "plugin exited", Graph: results.Graph{Scale: 10, EdgeFactor: 16, Seed: [2]uint64{2, 3}}}
	r.Cases = append(r.Cases, bad, failed)
	return r
}

// copyRun deep-copies r through JSON, as a run read back from disk.
func copyRun(t *testing.T, r *results.Run) *results.Run {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var c results.Run
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// TestWriteAllPrunesStalePlots: a plot drawn after the first case of a run
// (one workload: levels_time) is gone once the run's later cases split it
// per workload; files bfsbench did not write stay.
func TestWriteAllPrunesStalePlots(t *testing.T) {
	run := synthRun()
	dir := t.TempDir()
	partial := *run
	partial.Cases = run.Cases[:1]
	if _, err := WriteAll(&partial, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "levels_time.png")); err != nil {
		t.Fatalf("partial run: %v", err)
	}
	mine := filepath.Join(dir, "notes.png")
	if err := os.WriteFile(mine, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteAll(run, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "levels_time.png")); !os.IsNotExist(err) {
		t.Errorf("stale levels_time.png kept (%v)", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file bfsbench did not write was removed: %v", err)
	}
}

func TestWriteAll(t *testing.T) {
	run := synthRun()
	dir := t.TempDir()
	// Expected from the run's design: the 6 ok cases (indices 0..5) have
	// phases; scale and edges_per_thread are swept; two workloads.
	want := []string{"summary.txt", "bench.txt", "bench-median.txt"}
	for _, f := range []string{"teps_cases", "teps_vs_scale", "teps_vs_edges_per_thread",
		"levels_time_scale_10_ef_16_seed_2_3", "levels_time_scale_12_ef_16_seed_2_3", "phases_by_case",
		"phases_c01_atomic2d_cuda", "phases_c02_atomic2d_cuda", "phases_c03_edgescan_cpu",
		"phases_c04_atomic2d_cuda", "phases_c05_atomic2d_cuda", "phases_c06_edgescan_cpu"} {
		want = append(want, f+".png", f+".svg")
	}
	sort.Strings(want)
	for pass := 0; pass < 2; pass++ { // a second call rewrites the same files
		paths, err := WriteAll(run, dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range paths {
			got = append(got, filepath.Base(p))
		}
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("pass %d: wrote\n%v\nwant\n%v", pass, got, want)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want)+1 { // + the plot manifest
		t.Errorf("dir holds %d files, want %d and %s (temporary files left?)", len(entries), len(want), plotManifest)
	}
	for _, name := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Errorf("%s is empty", name)
		}
		switch filepath.Ext(name) {
		case ".png":
			cfg, err := png.DecodeConfig(bytes.NewReader(b))
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if cfg.Width < 400 || cfg.Height < 300 {
				t.Errorf("%s: %dx%d is too small", name, cfg.Width, cfg.Height)
			}
		case ".svg":
			if !bytes.Contains(b, []byte("<svg")) || !bytes.HasSuffix(bytes.TrimSpace(b), []byte("</svg>")) {
				t.Errorf("%s is not a complete SVG", name)
			}
			if err := wellFormedXML(b); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// wellFormedXML reads every token of b.
func wellFormedXML(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func TestPlotNothingToShow(t *testing.T) {
	run := synthRun()
	run.Cases = run.Cases[6:] // only the invalid and the failed case
	paths, err := Plot([]*results.Run{run}, t.TempDir())
	if err != nil || len(paths) != 0 {
		t.Fatalf("Plot of no ok case = %v, %v; want no files", paths, err)
	}
}

func TestBenchParses(t *testing.T) {
	run := synthRun()
	b, err := benchText(run)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct{ sec, teps float64 }
	var got []rec
	names := map[string]int{}
	r := benchfmt.NewReader(bytes.NewReader(b), "bench.txt")
	for r.Scan() {
		switch x := r.Result().(type) {
		case *benchfmt.Result:
			if x.Iters != 1 {
				t.Errorf("%s: iters %d", x.Name, x.Iters)
			}
			sec, _ := x.Value("sec/op")
			teps, ok := x.Value("TEPS")
			if !ok {
				t.Errorf("%s: no TEPS value", x.Name)
			}
			got = append(got, rec{sec, teps})
			names[string(x.Name.Full())]++
			if cpu := x.GetConfig("cpu"); cpu != "Test CPU" {
				t.Errorf("cpu config %q", cpu)
			}
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", x)
		case *benchfmt.UnitMetadata:
			if x.Unit != "TEPS" || x.Key != "better" || x.Value != "higher" {
				t.Errorf("unit metadata %+v", x)
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	var want []rec
	for _, c := range run.Cases {
		for _, s := range c.BFS {
			if s.Valid {
				want = append(want, rec{s.TimeS, s.TEPS})
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d results, want one per valid search: %d", len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i].sec-want[i].sec) > 1e-9 || math.Abs(got[i].teps-want[i].teps) > 1 {
			t.Errorf("result %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// 6 ok cases × 8 and the invalid case's 3 valid searches, 7 names.
	wantName := "BFS/plugin=atomic2d/backend=cuda/scale=10/ef=16/bitmap=true/edges_per_thread=4"
	if names[wantName] != 8 || len(names) != 7 {
		t.Errorf("names %v; want %s ×8 among 7", names, wantName)
	}
}

func TestBenchName(t *testing.T) {
	diropt := map[string]any{"preset": "paper", "alpha": 0.0, "beta": 0.0, "mode": "hybrid", "order": "preset", "td_big": int64(-1),
		"bu_serial": int64(-1), "threads_per_block": int64(256), "workers": int64(0), "exchange": "auto", "writepred": "level"}
	for _, tc := range []struct {
		c    *results.Case
		want string
	}{
		// Recorded without NameParams: every parameter names it.
		{&results.Case{Variant: "my variant", Plugin: "p", Backend: "cpu", Ranks: 4, Params: map[string]any{"mode": "a/b=c", "alpha": -1.0},
			Graph: results.Graph{Scale: 20, EdgeFactor: 16, Seed: [2]uint64{2, 3}}},
			"BFS/plugin=p/backend=cpu/scale=20/ef=16/alpha=-1/mode=a_b_c/ranks=4"},
		{&results.Case{Variant: "v", Backend: "cuda", Ranks: 4, Grid: [2]int{2, 2},
			Graph: results.Graph{File: "/data/road usa.mtx", Seed: [2]uint64{5, 6}}},
			"BFS/variant=v/backend=cuda/graph=road_usa.mtx/seed=5,6/grid=2x2"},
		// Named by the parameters that differ from the preset.
		{&results.Case{Variant: "diropt-cpu-2x2", Plugin: "diropt", Backend: "cpu", Ranks: 4, Grid: [2]int{2, 2}, Params: diropt,
			NameParams: []string{"preset", "writepred"}, Graph: results.Graph{Scale: 14, EdgeFactor: 16, Seed: [2]uint64{2, 3}}},
			"BFS/plugin=diropt/backend=cpu/scale=14/ef=16/grid=2x2/preset=paper/writepred=level"},
		{&results.Case{Variant: "diropt", Plugin: "diropt", Backend: "cuda", Ranks: 1, Params: diropt,
			NameParams: []string{}, Graph: results.Graph{Scale: 22, EdgeFactor: 16, Seed: [2]uint64{2, 3}}},
			"BFS/plugin=diropt/backend=cuda/scale=22/ef=16"},
		// Never a GOMAXPROCS suffix.
		{&results.Case{Variant: "diropt", Plugin: "diropt", Backend: "cpu", Ranks: 1, Params: diropt,
			NameParams: []string{"td_big"}, Graph: results.Graph{Scale: 14, EdgeFactor: 16, Seed: [2]uint64{2, 3}}},
			"BFS/plugin=diropt/backend=cpu/scale=14/ef=16/td_big=-1/ranks=1"},
	} {
		if got := benchName(tc.c); got != tc.want {
			t.Errorf("benchName = %s\nwant        %s", got, tc.want)
		}
	}
}

// scaleCase makes case i of r slower by factor f (TEPS / f, time × f).
func scaleCase(r *results.Run, i int, f float64) {
	for j := range r.Cases[i].BFS {
		r.Cases[i].BFS[j].TEPS /= f
		r.Cases[i].BFS[j].TimeS *= f
	}
}

func TestCompare(t *testing.T) {
	base := synthRun()
	name := func(i int) string { return benchName(base.Cases[i]) }
	for _, tc := range []struct {
		desc      string
		edit      func(r *results.Run)
		threshold float64
		failed    bool
		mention   []string // must appear on one line together
	}{
		{"self", func(r *results.Run) {}, 0.05, false, []string{"PASS"}},
		{"halved", func(r *results.Run) { scaleCase(r, 3, 2) }, 0.05, true, []string{name(3), "-50", "FAIL: slower"}},
		{"3% slower within 5%", func(r *results.Run) { scaleCase(r, 3, 1.03) }, 0.05, false, []string{name(3)}},
		{"halved beyond 60%", func(r *results.Run) { scaleCase(r, 3, 2) }, 0.6, false, []string{name(3), "slower, within threshold"}},
		{"doubled", func(r *results.Run) { scaleCase(r, 3, 0.5) }, 0.05, false, []string{name(3), "faster"}},
		{"missing", func(r *results.Run) { r.Cases = append(r.Cases[:2], r.Cases[3:]...) }, 0.05, true, []string{name(2), "missing in new"}},
		{"failed in new", func(r *results.Run) { r.Cases[1].Status = results.StatusTimeout }, 0.05, true, []string{name(1), "new status timeout"}},
		{"parameters changed", func(r *results.Run) {
			p := map[string]any{"new_knob": int64(7)}
			for k, v := range r.Cases[3].Params {
				p[k] = v
			}
			r.Cases[3].Params = p
		}, 0.05, true, []string{name(3), "FAIL: parameters changed (+new_knob=7): refresh the baseline"}},
		{"new case", func(r *results.Run) {
			c := *r.Cases[0]
			c.Params = map[string]any{"edges_per_thread": 16.0, "bitmap": true}
			r.Cases = append(r.Cases, &c)
		}, 0.05, false, []string{"edges_per_thread=16", "new (status ok)"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			// The base's invalid and failed cases stay failed in new: drop them
			// from both so only the edit decides.
			b := copyRun(t, base)
			b.Cases = b.Cases[:6]
			n := copyRun(t, b)
			tc.edit(n)
			var out bytes.Buffer
			failed, err := Compare(&out, b, n, tc.threshold)
			if err != nil {
				t.Fatal(err)
			}
			if failed != tc.failed {
				t.Errorf("failed = %v, want %v\n%s", failed, tc.failed, out.String())
			}
			if !hasLineWith(out.String(), tc.mention) {
				t.Errorf("no line with %q in\n%s", tc.mention, out.String())
			}
		})
	}
}

func hasLineWith(s string, parts []string) bool {
	for _, line := range strings.Split(s, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}

func TestCompareFailedBaseCases(t *testing.T) {
	// The invalid and failed cases of the base are not ok in new either:
	// a failure, and each is named.
	r := synthRun()
	var out bytes.Buffer
	failed, err := Compare(&out, r, copyRun(t, r), 0.05)
	if err != nil || !failed {
		t.Fatalf("failed=%v err=%v, want failed\n%s", failed, err, out.String())
	}
	for _, i := range []int{6, 7} {
		if !strings.Contains(out.String(), benchName(r.Cases[i])) {
			t.Errorf("case %d not named", i)
		}
	}
}

func TestCompareBadThreshold(t *testing.T) {
	r := synthRun()
	for _, thr := range []float64{-0.1, 1, math.NaN()} {
		if _, err := Compare(&bytes.Buffer{}, r, r, thr); err == nil {
			t.Errorf("threshold %v accepted", thr)
		}
	}
}

func TestSummary(t *testing.T) {
	searches := []results.Search{
		{NEdge: 1e9, TEPS: 1e9, TimeS: 1, Valid: true}, {NEdge: 6e9, TEPS: 2e9, TimeS: 3, Valid: true}, {TimeS: 2, Validated: true, Valid: false, Error: "cycle"},
	}
	r := &results.Run{Cases: []*results.Case{{
		Variant: "v", Backend: "cpu", Params: map[string]any{"k": 2.0}, Ranks: 1, Status: results.StatusOK,
		Graph: results.Graph{Scale: 5, EdgeFactor: 16},
		BFS:   searches, Stats: graph500.ComputeStats(searches),
	}, {
		Variant: "w", Backend: "cpu", Ranks: 1, Status: results.StatusFailed, Error: "plugin exited",
		Graph: results.Graph{Scale: 5, EdgeFactor: 16},
	}}}
	b, err := summaryText(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range [][]string{
		{"variant=v", "backend=cpu", "params={k=2}", "ranks=1", `workload="scale 5 ef 16"`, "status=ok"},
		{"invalid search", "cycle"},
		// The Graph500 block, and its line for a case without valid searches.
		{"bfs  harmonic_mean_TEPS:", "!", "1.33333e+09"},
		{"NBFS:", "3"},
		{"No results printed for invalid run."},
		{"variant=w", "status=failed", `error="plugin exited"`},
		{"w", "cpu", "-", "failed", "-", "-", "0/0"},
		// harmonic mean of 1 and 2 GTEPS is 4/3; median time of 1 s and 3 s is 2000 ms.
		{"v", "cpu", "k=2", "scale 5 ef 16", "ok", "1.3333", "2000", "2/3"},
	} {
		if !hasLineWith(s, want) {
			t.Errorf("no line with %q in\n%s", want, s)
		}
	}
}

func TestLabels(t *testing.T) {
	run := synthRun()
	other := copyRun(t, run)
	other.Env.Host, other.Env.GPUModels = "h2", []string{"NVIDIA H100"}
	for _, tc := range []struct {
		desc string
		runs []*results.Run
		want string // label of the first case
	}{
		// scale varies; edges_per_thread varies within atomic2d; bitmap does not.
		{"one run", []*results.Run{run}, "atomic2d/cuda edges_per_thread=1 scale=10"},
		{"two machines", []*results.Run{run, other}, "atomic2d/cuda edges_per_thread=1 scale=10 @h1 (NVIDIA H200)"},
		{"same machine twice", []*results.Run{run, run}, "atomic2d/cuda edges_per_thread=1 scale=10 run 1 (2026-11-01T10:00:00Z)"},
	} {
		pts := collect(tc.runs)
		l := newLabeller(pts)
		if got := l.label(pts[0]); got != tc.want {
			t.Errorf("%s: label %q, want %q", tc.desc, got, tc.want)
		}
	}
}

func TestPlotMerged(t *testing.T) {
	run := synthRun()
	other := copyRun(t, run)
	other.Env.Host = "h2"
	paths, err := Plot([]*results.Run{run, other}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Per-case phase plots are named by run when runs are merged.
	var r2 int
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), "phases_r2_") {
			r2++
		}
	}
	if r2 != 12 {
		t.Errorf("%d phase files of run 2, want 12 (6 cases × 2 formats): %v", r2, paths)
	}
}

func TestProfile(t *testing.T) {
	c := &results.Case{BFS: []results.Search{
		{Valid: true, Phases: []results.LevelPhase{{Level: 0, Times: map[string]float64{"a": 1, "b": 2}}, {Level: 1, Times: map[string]float64{"a": 3}}}},
		{Valid: true, Phases: []results.LevelPhase{{Level: 0, Times: map[string]float64{"a": 3, "b": 4}}}},
		{Valid: false, Phases: []results.LevelPhase{{Level: 0, Times: map[string]float64{"a": 100}}}},
	}}
	pr := profile(c)
	got := fmt.Sprint(pr.searches, pr.levels, pr.phases, pr.atLevel["a"], pr.atLevel["b"], pr.total, pr.reached, pr.perBFS["a"], pr.perBFS["b"])
	// level 0: a mean 2, b mean 3; level 1 reached by one search: a 3.
	// Per BFS: a (1+3 + 3)/2 = 3.5, b (2+4)/2 = 3.
	want := "2 [0 1] [a b] [2 3] [3 0] [5 3] [2 1] 3.5 3"
	if got != want {
		t.Errorf("profile = %s, want %s", got, want)
	}
}

func TestLevelTables(t *testing.T) {
	ms := func(x float64) float64 { return x / 1e3 }
	c := &results.Case{Variant: "v", Backend: "cuda", Status: results.StatusOK, Graph: results.Graph{Scale: 10, EdgeFactor: 16},
		BFS: []results.Search{
			{Valid: true, TimeS: ms(5), Phases: []results.LevelPhase{{Level: 0, Times: map[string]float64{"scan": ms(1)}}, {Level: 1, Times: map[string]float64{"dense": ms(2)}}}},
			{Valid: false, TimeS: ms(7), Phases: []results.LevelPhase{{Level: 0, Times: map[string]float64{"scan": ms(3)}}, {Level: 1, Times: map[string]float64{"scan": ms(2)}}}},
		}}
	run := &results.Run{Cases: []*results.Case{c, {Variant: "no phases", Status: results.StatusOK}}}
	for _, tc := range []struct {
		all  bool
		want []string
	}{
		// The valid search: 1 + 2 ms of phases in 5 ms.
		{false, []string{"1 valid searches", "0         1     0.000    1.000     1.000", "1         1     2.000    0.000     2.000",
			"search 5.000 ms, phases 3.000 ms, outside phases 2.000 ms (means); median search 5.000 ms"}},
		// Both: level 0 scan (1+3)/2; level 1 dense 2/2, scan 2/2; search (5+7)/2, phases (3+5)/2.
		{true, []string{"2 timed searches", "0         2     0.000    2.000     2.000", "1         2     1.000    1.000     2.000",
			"search 6.000 ms, phases 4.000 ms, outside phases 2.000 ms (means); median search 6.000 ms"}},
	} {
		var b strings.Builder
		if err := LevelTables(&b, run, tc.all); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("all=%v: output lacks %q:\n%s", tc.all, w, b.String())
			}
		}
		if strings.Contains(b.String(), "no phases") {
			t.Errorf("all=%v: a case without phases is listed:\n%s", tc.all, b.String())
		}
	}
}

// stressRun is a sweep with many cases and long names: ueno over alpha
// (numeric), sv_method (nominal) and ranks, on a CPU backend with tiny TEPS,
// one case with a single search and one 40 levels deep.
func stressRun() *results.Run {
	rng := rand.New(rand.NewSource(2))
	r := &results.Run{Env: results.Env{Host: "ci", CPUModel: "Test CPU"}}
	for _, ranks := range []int{1, 2, 4, 8} {
		for _, method := range []string{"test-and-set", "test-and-test-and-set"} {
			for _, alpha := range []float64{1.0 / 64, 1.0 / 16, 0.25} {
				c := synthCase(rng, "ueno", "cpu", map[string]any{"alpha": alpha, "sv_method": method, "compress_threshold_bytes": 4096.0},
					8, 2e-4*float64(ranks)*(1+alpha), 4, 5)
				c.Ranks, c.Grid = ranks, [2]int{ranks, 1}
				r.Cases = append(r.Cases, c)
			}
		}
	}
	r.Cases[0].BFS = r.Cases[0].BFS[:1]
	deep := synthCase(rng, "edgescan", "cpu", map[string]any{}, 8, 1e-3, 2, 40)
	r.Cases = append(r.Cases, deep)
	return r
}

func TestPlotStress(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("REPORT_STRESS_DIR"); d != "" {
		dir = d // to look at the plots
	}
	paths, err := Plot([]*results.Run{stressRun()}, dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range paths {
		got[filepath.Base(p)] = true
	}
	for _, name := range []string{"teps_cases", "teps_vs_ranks", "teps_vs_alpha", "teps_vs_sv_method", "phases_by_case", "phases_c25_edgescan_cpu"} {
		if !got[name+".png"] || !got[name+".svg"] {
			t.Errorf("no %s plot among %v", name, paths)
		}
	}
}

func TestTicks125(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     string
	}{
		{0.3, 30, "[0.5 1 2 5 10 20]"},
		// Five decades: still 1, 2 and 5 of each.
		{1e-4, 10, "[0.0001 0.0002 0.0005 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10]"},
		// Past six decades the 2s and 5s are ticked but not labelled.
		{1, 1e7, "[1 10 100 1000 10000 100000 1e+06 1e+07]"},
		// A huge range: every ninth power of ten.
		{1e-170, 1, "[1e-170 1e-161 1e-152 1e-143 1e-134 1e-125 1e-116 1e-107 1e-98 1e-89 1e-80 1e-71 1e-62 1e-53 1e-44 1e-35 1e-26 1e-17 1e-08]"},
	} {
		var got []string
		for _, tk := range labelled(ticks125(tc.min, tc.max)) {
			got = append(got, tk.Label)
		}
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("ticks125(%g, %g) = %s, want %s", tc.min, tc.max, s, tc.want)
		}
	}
}

// TestBenchMedian: bench-median.txt has one line per case with valid
// searches, named as in bench.txt, its median time and search count.
func TestBenchMedian(t *testing.T) {
	run := synthRun()
	b, err := benchMedianText(run)
	if err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(bytes.NewReader(b), "bench-median.txt")
	got := map[string]*benchfmt.Result{}
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("%v", r.Result())
		}
		got[res.Name.String()] = res.Clone()
	}
	// The 6 ok cases and the invalid one's valid searches; not the failed case.
	if len(got) != 7 {
		t.Fatalf("%d lines, want 7:\n%s", len(got), b)
	}
	c := run.Cases[0]
	res := got[benchName(c)]
	var times []float64
	for _, s := range c.BFS {
		times = append(times, s.TimeS)
	}
	if v, ok := res.Value("sec/op"); res == nil || !ok || res.Iters != len(c.BFS) || math.Abs(v-median(times)) > 1e-9 {
		t.Errorf("%s: %+v, want %d searches, median %v s", benchName(c), res, len(c.BFS), median(times))
	}
}

// TestLevelPlotsNameCasesWithoutPhases: a case whose variant reports no
// per-level phases is not drawn in levels_time and phases_by_case, and
// their captions say so.
func TestLevelPlotsNameCasesWithoutPhases(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	r := &results.Run{}
	for _, v := range []string{"atomic2d", "edgescan", "mine"} {
		c := synthCase(rng, v, "cpu", map[string]any{}, 10, 1, 4, 5)
		if v == "mine" {
			for i := range c.BFS {
				c.BFS[i].Phases = nil
			}
		}
		r.Cases = append(r.Cases, c)
	}
	pts := collect([]*results.Run{r})
	figs, err := phaseFigures(pts, newLabeller(pts))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range figs {
		if f.name != "levels_time" && f.name != "phases_by_case" {
			continue
		}
		seen++
		if !strings.Contains(f.caption, "not shown, no per-level phases reported: mine") {
			t.Errorf("%s: caption %q does not name the case without phases", f.name, f.caption)
		}
	}
	if seen != 2 {
		t.Errorf("%d of levels_time and phases_by_case drawn, want 2", seen)
	}
}

// TestLabelsTellGraphsOfOneNameApart: plotted together, two different
// graphs that are both graph.txt get different labels naming the graph,
// never one series.
func TestLabelsTellGraphsOfOneNameApart(t *testing.T) {
	a := synthRun()
	a.Cases = a.Cases[:1]
	b := copyRun(t, a)
	a.Cases[0].Graph = results.Graph{File: "x/graph.txt", NVertices: 1 << 10, NEdges: 16 << 10, Fingerprint: "aaaa1111"}
	b.Cases[0].Graph = results.Graph{File: "y/graph.txt", NVertices: 1 << 13, NEdges: 16 << 13, Fingerprint: "bbbb2222"}
	pts := collect([]*results.Run{a, b})
	l := newLabeller(pts)
	la, lb := l.label(pts[0]), l.label(pts[1])
	if la == lb || !l.vary["graph"] || !strings.Contains(la, "graph.txt") || !strings.Contains(lb, "graph.txt") {
		t.Errorf("labels %q and %q: want the two graphs named apart", la, lb)
	}
}

// TestSummaryErrorLinesReadable: a failed case's header carries the first
// line of its error, and the whole error (a panic's stack) follows it one
// line a line, not as one escaped string.
func TestSummaryErrorLinesReadable(t *testing.T) {
	c := &results.Case{Variant: "mine", Backend: "cpu", Status: results.StatusFailed,
		Error: "plugin panicked in bfs: boom\nexample.com/mine.(*v).BFS\n\t/src/mine/bfs.go:42\n"}
	h := caseHeader(c)
	if !strings.Contains(h, `error="plugin panicked in bfs: boom"`) || strings.Contains(h, `\n`) {
		t.Errorf("header %q", h)
	}
	var b strings.Builder
	writeError(&b, c)
	if want := "  | plugin panicked in bfs: boom\n  | example.com/mine.(*v).BFS\n  | \t/src/mine/bfs.go:42\n"; b.String() != want {
		t.Errorf("error block %q, want %q", b.String(), want)
	}
}

// TestLogRange: a log axis always shows at least two labelled ticks, and
// the values it was asked for.
func TestLogRange(t *testing.T) {
	for _, tc := range [][2]float64{{6, 9}, {0.31, 0.33}, {1, 1}, {4.2, 7.3}, {150, 160}, {1, 1000}} {
		lo, hi := logRange(tc[0], tc[1])
		if lo > tc[0] || hi < tc[1] {
			t.Errorf("logRange(%g, %g) = [%g, %g] does not hold the values", tc[0], tc[1], lo, hi)
		}
		if n := len(labelled(ticks125(lo, hi))); n < 2 {
			t.Errorf("logRange(%g, %g) = [%g, %g]: %d labelled ticks", tc[0], tc[1], lo, hi, n)
		}
	}
}
