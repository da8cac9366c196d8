package report

import (
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/bfsbench/bfsbench/harness/results"
)

// speedupRun is a GPU variant and a one-core CPU baseline at scales 14 to
// 20, the GPU's GTEPS rising with the scale and the CPU's falling, so
// that the speedup peaks at scale 20; with extra, the GPU also at scale 22
// where the CPU has no case.
func speedupRun(extra bool) *results.Run {
	rng := rand.New(rand.NewSource(3))
	r := &results.Run{Env: results.Env{Host: "h", GPUModels: []string{"NVIDIA H200"}}, Started: "2026-01-01T00:00:00Z"}
	for i, scale := range []int{14, 16, 18, 20} {
		gpu := gridCase(rng, "edgescan", 1, 1, 1, scale, 2+float64(i), map[string]any{"preset": "paper"})
		gpu.Plugin, gpu.Grid = "edgescan", [2]int{}
		cpu := gridCase(rng, "cpu", 1, 1, 0, scale, 0.2-0.03*float64(i), map[string]any{"threads": 1.0})
		cpu.Plugin, cpu.Grid = "reference", [2]int{}
		r.Cases = append(r.Cases, gpu, cpu)
	}
	if extra {
		gpu := gridCase(rng, "edgescan", 1, 1, 1, 22, 6, map[string]any{"preset": "paper"})
		gpu.Plugin, gpu.Grid = "edgescan", [2]int{}
		r.Cases = append(r.Cases, gpu)
	}
	return r
}

// TestFigureRatio: over draws each case's y over the denominator case's
// at its x, with the spread of both; the denominators are no series; an x
// without a denominator is marked; two denominators at one x are an
// error.
func TestFigureRatio(t *testing.T) {
	run := speedupRun(true)
	fig := drawFigure(t, run, "x = \"scale\"\ny = \"gteps\"\nover = \"variant=cpu\"\n", nil)
	checkRules(t, fig)
	if want := "speedup over cpu, TEPS ratio (×)"; fig.p.Y.Label.Text != want {
		t.Errorf("y label %q, want %q", fig.p.Y.Label.Text, want)
	}
	want := map[float64]float64{}
	for _, scale := range []int{14, 16, 18, 20} {
		var g, c float64
		for _, cs := range run.Cases {
			if cs.Graph.Scale == scale {
				hm := harmonicMean(validTEPS(cs))
				if cs.Variant == "cpu" {
					c = hm
				} else {
					g = hm
				}
			}
		}
		want[float64(scale)] = g / c
	}
	var got plotter.XYs
	for _, p := range fig.drawn {
		if l, ok := p.(*plotter.Line); ok {
			got = append(got, l.XYs...)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("drew %v, want the ratios at the 4 scales with a denominator %v", got, want)
	}
	for _, q := range got {
		y := q.Y
		if fig.yLog {
			y = math.Pow(10, y)
		}
		if w := want[q.X]; math.Abs(y-w) > 1e-9*w {
			t.Errorf("scale %g: ratio %g, want %g", q.X, y, w)
		}
	}
	for _, e := range errorBarsOf(fig) {
		for i := range e.xs {
			if !(e.lo[i] < e.hi[i]) {
				t.Errorf("bar %d: [%g, %g] is empty", i, e.lo[i], e.hi[i])
			}
		}
	}
	if len(errorBarsOf(fig)) == 0 {
		t.Errorf("no error bars")
	}
	for _, l := range legendTexts(fig) {
		if strings.Contains(l, "cpu") {
			t.Errorf("the denominator is a series of the legend: %q", legendTexts(fig))
		}
	}
	marked := false
	for _, p := range fig.drawn {
		if g, ok := p.(*glyphs); ok && contains(g.texts, "no cpu") {
			marked = true
		}
	}
	if !marked {
		t.Errorf("scale 22, with no CPU case, is not marked")
	}
	if !strings.Contains(fig.caption, "ratio of the harmonic means to cpu's") {
		t.Errorf("caption %q does not say what the ratio is", fig.caption)
	}
	// Two denominators at one x, and none at all, are errors.
	pts := collect([]*results.Run{run})
	for text, msg := range map[string]string{
		"x = \"scale\"\ny = \"gteps\"\nover = \"plugin=reference\"\nonly = [\"scale=14\", \"variant=cpu\"]\n": "",
		"x = \"scale\"\ny = \"gteps\"\nover = \"backend=cpu\"\nseries = \"preset\"\n":                         "",
		"x = \"scale\"\ny = \"gteps\"\nover = \"variant=gpu\"\n":                                              "selects no valid case",
		"x = \"ef\"\ny = \"gteps\"\nover = \"variant=cpu\"\n":                                                 "selects 4 cases at ef = 16",
	} {
		_, err := declaredFigure(parseFigure(t, text), pts, nil)
		if msg == "" {
			if err != nil {
				t.Errorf("%q: %v", text, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: got %v, want an error containing %q", text, err, msg)
		}
	}
}

// TestFigureStackedApart: a stacked figure on a scaling axis sets the
// ranks that share a GPU apart, after a dotted line, labelled so.
func TestFigureStackedApart(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	run := &results.Run{Env: results.Env{Host: "h", GPUModels: []string{"NVIDIA H200"}}}
	for _, g := range [][2]int{{1, 1}, {1, 2}, {2, 1}} {
		c := gridCase(rng, "ueno", g[0], g[1], 1, 23, 10, map[string]any{"preset": "paper"})
		c.Plugin = "ueno"
		run.Cases = append(run.Cases, c)
	}
	fig := drawFigure(t, run, "x = \"gpus\"\ny = \"phase:kernels=expansion+update,wait=expand_exchange+fold_exchange\"\nkind = \"stacked\"\nseries = \"plugin\"\n", nil)
	checkRules(t, fig)
	var labels []string
	for _, tk := range fig.p.X.Tick.Marker.Ticks(fig.p.X.Min, fig.p.X.Max) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"1", "2 ranks\non 1 GPU\n1×2", "2 ranks\non 1 GPU\n2×1"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("x ticks %q, want %q", labels, want)
	}
	seps := 0
	for _, p := range fig.drawn {
		if v, ok := p.(vline); ok {
			seps++
			if v.x != 0.5 {
				t.Errorf("separator at %g, want 0.5 (between 1 GPU and the shared GPU)", v.x)
			}
		}
	}
	if seps != 1 {
		t.Errorf("%d separators, want 1", seps)
	}
	if n := strings.Count(fig.caption, "ueno"); n != 1 {
		t.Errorf("caption %q names the one series %d times, want once", fig.caption, n)
	}
	if l := legendTexts(fig); !contains(l, "kernels") || !contains(l, "wait") {
		t.Errorf("legend %q does not name the stack's parts", l)
	}
}

// TestQuantityKinds: levels, info:<key> and sums of times, for one case.
func TestQuantityKinds(t *testing.T) {
	c := gridCase(rand.New(rand.NewSource(1)), "v", 1, 1, 1, 10, 1, nil)
	c.Info = map[string]any{"upload_s": 0.5, "copy_ms": 250.0, "name": "x", "n_bytes": int64(1 << 20)}
	for i := range c.BFS {
		c.BFS[i].Levels = 4 + i%3 // 4 5 6 4 5 6 4 5
		c.BFS[i].TransferTimeS = 0.01 * float64(i+1)
	}
	for _, tc := range []struct {
		y      string
		v, lo  float64
		absent bool
	}{
		{y: "levels", v: 5, lo: 4},
		{y: "info:upload_s", v: 0.5, lo: 0.5},
		{y: "info:copy_ms", v: 0.25, lo: 0.25},
		{y: "info:n_bytes", v: 1 << 20, lo: 1 << 20},
		{y: "info:name", absent: true},
		{y: "info:missing", absent: true},
		{y: "info:upload_s + transfer", v: 0.5 + 0.045, lo: 0.5 + 0.0275},
		{y: "info:upload_s + info:missing", absent: true},
	} {
		st, ok := newQuantity(tc.y, false).whole(c)[""]
		if tc.absent {
			if ok {
				t.Errorf("%s: %+v, want no value", tc.y, st)
			}
			continue
		}
		if !ok || math.Abs(st.V-tc.v) > 1e-12 || math.Abs(st.Lo-tc.lo) > 1e-12 {
			t.Errorf("%s: %+v, want %g (first quartile %g)", tc.y, st, tc.v, tc.lo)
		}
	}
	q := newQuantity("info:upload_s + transfer + phase:expansion", false)
	if !q.isTime() || q.title() != "upload_s + parents copy + expansion" {
		t.Errorf("sum: time %v, title %q", q.isTime(), q.title())
	}
	if newQuantity("info:n_bytes", false).isTime() || !newQuantity("info:copy_ms", false).isTime() {
		t.Errorf("info keys: _bytes is no time, _ms is")
	}
}

// TestVerdictsPending: a folder not measured yet gets its table, every
// claim "not measured yet" with the verdict it expects, and nothing to
// review; once its results are there, argmax with over finds the scale
// where the speedup peaks.
func TestVerdictsPending(t *testing.T) {
	dir := t.TempDir()
	claims := `
[[claim]]
claim = "the speedup grows with the scale"
paper = "grows"
ours = "argmax"
y = "gteps"
x = "scale"
at = "variant=edgescan"
over = "variant=cpu"
holds = [20, 20]
partly = [18, 18]
verdict = "holds"
reason = "it peaks at the largest scale."

[[claim]]
claim = "copies above 1.25 GB/s"
paper = "1.25 GB/s"
csv = "copybw.csv"
column = "d2h_pinned_gbs"
ours = "max"
holds = [1.25, 1000]
partly = [1, 1.25]
verdict = "holds"
reason = "a PCIe link."
`
	files := map[string]string{ClaimsFile: claims, "README.md": "# F\n\n" + VerdictsBegin + "\n" + VerdictsEnd + "\n"}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vs, err := Verdicts(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Got != Pending || v.Mismatch() || v.OursTxt != "–" {
			t.Errorf("%q: %+v, want pending", v.Claim.Claim, v)
		}
	}
	table := VerdictTable(vs)
	for _, want := range []string{"*not measured yet*", "(expected: holds) it peaks"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	// Measured: the run, and the CSV.
	b, err := json.Marshal(speedupRun(false))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "results.json"), b, 0o644)
	os.WriteFile(filepath.Join(dir, "copybw.csv"), []byte("# device 0\nbytes,d2h_pinned_gbs\n4096,0.5\n1073741824,52.5\n"), 0o644)
	if vs, err = Verdicts(dir); err != nil {
		t.Fatal(err)
	}
	if v := vs[0]; v.Got != Holds || v.Values[0] != 20 {
		t.Errorf("argmax over the CPU: %+v, want scale 20", v)
	}
	if v := vs[1]; v.Got != Holds || v.Values[0] != 52.5 {
		t.Errorf("csv max: %+v", v)
	}
	if got := formatValue(Claim{Ours: "value", Y: "levels"}, 7); got != "7 levels" {
		t.Errorf("7 levels written %q", got)
	}
	if got := formatValue(Claim{Ours: "value", Y: "info:upload_s + transfer"}, 0.0345); got != "34.5 ms" {
		t.Errorf("a sum of times written %q", got)
	}
	// A denominator missing at one x is an error naming it.
	b, _ = json.Marshal(speedupRun(true))
	os.WriteFile(filepath.Join(dir, "results.json"), b, 0o644)
	if _, err := Verdicts(dir); err == nil || !strings.Contains(err.Error(), "scale=22") {
		t.Errorf("no CPU case at scale 22: %v", err)
	}
}
