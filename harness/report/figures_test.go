package report

import (
	"math"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
)

// gridCase is a case of nbfs valid searches on an R×C grid of ranks over
// gpus GPUs (0: the CPU backend), around gteps, each level reporting
// phase times and expand/fold byte counters.
func gridCase(rng *rand.Rand, variant string, r, c, gpus, scale int, gteps float64, params map[string]any) *results.Case {
	backend := "cuda"
	if gpus == 0 {
		backend = "cpu"
	}
	cs := &results.Case{
		Variant: variant, Plugin: "atomic2d", Backend: backend, Params: params, Ranks: r * c, Grid: [2]int{r, c}, GPUs: gpus,
		Launcher: "embedded", Status: results.StatusOK,
		Graph: results.Graph{Scale: scale, EdgeFactor: 16, Seed: [2]uint64{2, 3}, NVertices: 1 << scale, NEdges: 16 << scale},
	}
	nedge := int64(16 << scale)
	for i := 0; i < 8; i++ {
		teps := gteps * 1e9 * (0.8 + 0.4*rng.Float64())
		s := results.Search{Root: int64(i), NEdge: nedge, TEPS: teps, TimeS: float64(nedge) / teps, Valid: true, Validated: true, Levels: 5}
		for l := 0; l < 5; l++ {
			w := s.TimeS / 5 * (0.5 + rng.Float64())
			s.Phases = append(s.Phases, results.LevelPhase{Level: l,
				Times: map[string]float64{"expansion": 0.6 * w, "update": 0.1 * w, "expand_exchange": 0.2 * w, "fold_exchange": 0.1 * w},
				Bytes: map[string]int64{"expand": int64(1000 * (r * c) * (l + 1)), "fold": int64(500 * c * (l + 1) * (i + 1)), "edges_examined": 12345}})
		}
		cs.BFS = append(cs.BFS, s)
	}
	cs.Validated = len(cs.BFS)
	cs.Stats = graph500.ComputeStats(cs.BFS)
	return cs
}

// scalingRun is weak scaling on 1×1, 1×2, 2×1 and 2×2 (four ranks on two
// GPUs), with and without bitmaps, plus a failed 1×4 case and the CPU
// reference at one and two ranks.
func scalingRun() *results.Run {
	rng := rand.New(rand.NewSource(7))
	r := &results.Run{Env: results.Env{Host: "h", GPUModels: []string{"NVIDIA H200"}}, Started: "2026-01-01T00:00:00Z"}
	for _, bm := range []string{"off", "auto"} {
		for _, g := range []struct{ r, c, gpus, scale int }{{1, 1, 1, 21}, {1, 2, 2, 22}, {2, 1, 2, 22}, {2, 2, 2, 23}} {
			r.Cases = append(r.Cases, gridCase(rng, "atomic2d", g.r, g.c, g.gpus, g.scale, 20+float64(g.r+g.c), map[string]any{"bitmap_messages": bm}))
		}
	}
	failed := gridCase(rng, "atomic2d", 1, 4, 4, 23, 30, map[string]any{"bitmap_messages": "off"})
	failed.Status, failed.BFS, failed.Error = results.StatusFailed, nil, "plugin exited"
	r.Cases = append(r.Cases, failed)
	for _, ranks := range []int{1, 2} {
		c := gridCase(rng, "reference", 1, ranks, 0, 21+ranks-1, 0.3, map[string]any{})
		c.Plugin, c.Grid = "reference", [2]int{}
		r.Cases = append(r.Cases, c)
	}
	return r
}

// parseFigure reads one [[figure]] table.
func parseFigure(t *testing.T, text string) *config.Figure {
	t.Helper()
	figs, err := config.ParseFigures("t.toml", "[[figure]]\nname = \"f\"\n"+text)
	if err != nil || len(figs) != 1 {
		t.Fatalf("figure: %v", err)
	}
	return figs[0]
}

// draw builds and renders the figure text declares over run.
func drawFigure(t *testing.T, run *results.Run, text string, ref *Reference) *figure {
	t.Helper()
	f := parseFigure(t, text)
	fig, err := declaredFigure(f, collect([]*results.Run{run}), ref)
	if err != nil {
		t.Fatalf("declaredFigure(%s): %v", text, err)
	}
	if _, err := fig.render("png"); err != nil {
		t.Fatalf("render: %v", err)
	}
	return fig
}

var unitRE = regexp.MustCompile(`\((GTEPS|MTEPS|KTEPS|×|s|ms|µs|B|kB|MB|GB|edges|thousands|millions|billions)\)$`)

// checkRules checks what a program can check of the drawing rules on a
// rendered figure: a title of at most two lines, a caption of one, a y
// label naming its unit, a log axis labelled at 1, 2 and 5 of each decade,
// and data drawn.
func checkRules(t *testing.T, fig *figure) {
	t.Helper()
	if n := len(strings.Split(fig.p.Title.Text, "\n")); n > maxTitleLines {
		t.Errorf("%s: title of %d lines: %q", fig.name, n, fig.p.Title.Text)
	}
	if fig.caption == "" || strings.Contains(fig.caption, "\n") {
		t.Errorf("%s: caption %q is not one line", fig.name, fig.caption)
	}
	if !unitRE.MatchString(fig.p.Y.Label.Text) {
		t.Errorf("%s: y label %q names no unit", fig.name, fig.p.Y.Label.Text)
	}
	if fig.yLog {
		checkLogTicks(t, fig.name, fig.p.Y, true)
	}
	if _, isLog := fig.p.Y.Scale.(plot.LogScale); isLog {
		checkLogTicks(t, fig.name, fig.p.Y, false)
	}
	if n := dataDrawn(fig); n == 0 {
		t.Errorf("%s: no data drawn", fig.name)
	}
}

// checkLogTicks checks that every 1, 2 and 5 of a decade within the axis
// is a labelled tick (the axis' values are log10 of the data when mapped).
func checkLogTicks(t *testing.T, name string, a plot.Axis, mapped bool) {
	t.Helper()
	min, max := a.Min, a.Max
	if mapped {
		min, max = math.Pow(10, min), math.Pow(10, max)
	}
	got := map[string]bool{}
	for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tk.Label != "" {
			got[tk.Label] = true
		}
	}
	n := 0
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			n++
			if l := tickLabel(v); !got[l] {
				t.Errorf("%s: log axis [%g, %g]: no labelled tick at %s (labels %v)", name, min, max, l, got)
			}
		}
	}
	if n < 2 {
		t.Errorf("%s: log axis [%g, %g] holds %d labelled ticks", name, min, max, n)
	}
}

// dataDrawn counts the points and bars drawn.
func dataDrawn(fig *figure) int {
	n := 0
	for _, p := range fig.drawn {
		switch d := p.(type) {
		case *plotter.Line:
			n += len(d.XYs)
		case *plotter.Scatter:
			n += len(d.XYs)
		case *plotter.BarChart:
			for _, v := range d.Values {
				if v != 0 {
					n++
				}
			}
		case *bars:
			for _, y := range d.ys {
				if !math.IsNaN(y) && !math.IsInf(y, 0) {
					n++
				}
			}
		}
	}
	return n
}

// errorBarsOf returns the figure's error bars.
func errorBarsOf(fig *figure) []*errorBars {
	var out []*errorBars
	for _, p := range fig.drawn {
		if e, ok := p.(*errorBars); ok {
			out = append(out, e)
		}
	}
	return out
}

func legendTexts(fig *figure) []string {
	var out []string
	for _, e := range fig.legend.entries {
		out = append(out, e.text)
	}
	return out
}

// TestFigureRules draws figures of every kind and checks the rules.
func TestFigureRules(t *testing.T) {
	run := scalingRun()
	ref, err := parseReference([]byte("# paper: P\n# hardware: K20X\n# source: Table 2\nseries,gpus,gteps\nbitmap_messages=off,1,1.13\nbitmap_messages=off (Tagged),4,2.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		ref  *Reference
	}{
		{"title = \"Paper, Fig. 4: weak scaling\"\nx = \"gpus\"\ny = \"gteps\"\nseries = \"bitmap_messages\"\nonly = [\"plugin=atomic2d\"]\n", ref},
		{"x = \"gpus\"\ny = \"gteps\"\nseries = \"bitmap_messages\"\nkind = \"bar\"\n", nil},
		{"x = \"gpus\"\ny = \"speedup\"\nseries = \"bitmap_messages\"\nkind = \"bar\"\nonly = [\"plugin=atomic2d\"]\n", nil},
		{"x = \"gpus\"\ny = \"phase:compute=expansion+update,transfer=expand_exchange+fold_exchange\"\nseries = \"bitmap_messages\"\nkind = \"bar\"\nonly = [\"plugin=atomic2d\"]\n", nil},
		{"x = \"gpus\"\ny = \"phase:expand_exchange,expansion,fold_exchange,update\"\nseries = \"bitmap_messages\"\nkind = \"stacked\"\nonly = [\"plugin=atomic2d\"]\n", nil},
		{"x = \"ranks\"\ny = \"bytes:expand,fold\"\nper_rank = true\nseries = \"bitmap_messages\"\nonly = [\"plugin=atomic2d\"]\n", nil},
		{"x = \"level\"\ny = \"time\"\nseries = \"grid\"\nlogy = true\nonly = [\"bitmap_messages=off\"]\n", nil},
		{"x = \"level\"\ny = \"bytes:expand,fold\"\nkind = \"stacked\"\nseries = \"grid\"\nonly = [\"bitmap_messages=auto\"]\n", nil},
		{"x = \"scale\"\ny = \"edges_examined\"\nseries = \"backend\"\n", nil},
	} {
		fig := drawFigure(t, run, tc.text, tc.ref)
		checkRules(t, fig)
		if len(errorBarsOf(fig)) == 0 {
			t.Errorf("%q: no error bars: the spread over the searches is not drawn", tc.text)
		}
	}
}

// TestFigurePaperOnce: the paper's values are drawn in the colour of the
// series they match, named "paper" once in the legend however many series
// of the paper's there are; a tagged value carries its tag.
func TestFigurePaperOnce(t *testing.T) {
	ref, err := parseReference([]byte("# paper: P\n# hardware: H\n# source: S\nseries,gpus,gteps\nbitmap_messages=off (A),1,1.13\nbitmap_messages=off (B),2,1.5\nbitmap_messages=auto,1,2\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"line", "bar"} {
		fig := drawFigure(t, scalingRun(), "x = \"gpus\"\ny = \"gteps\"\nseries = \"bitmap_messages\"\nkind = \""+kind+"\"\nonly = [\"plugin=atomic2d\"]\n", ref)
		n := 0
		for _, s := range legendTexts(fig) {
			if strings.Contains(s, "paper") {
				n++
			}
			if len(s) > 40 {
				t.Errorf("%s: legend entry %q is long", kind, s)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d legend entries name the paper, want 1: %q", kind, n, legendTexts(fig))
		}
		var tags []string
		for _, p := range fig.drawn {
			if g, ok := p.(*glyphs); ok {
				tags = append(tags, g.texts...)
			}
		}
		if !contains(tags, "A") || !contains(tags, "B") {
			t.Errorf("%s: the paper's tags are not drawn: %q", kind, tags)
		}
	}
}

// TestFigureScalingAxis: GPUs on x, one place per grid where grids share
// a count, four ranks on two GPUs apart, after a separator, and a CPU
// series at its ranks beside the GPUs.
func TestFigureScalingAxis(t *testing.T) {
	fig := drawFigure(t, scalingRun(), "x = \"gpus\"\ny = \"gteps\"\nseries = \"backend\"\nonly = [\"bitmap_messages=off\", \"plugin=reference\"]\n", nil)
	var labels []string
	for _, tk := range fig.p.X.Tick.Marker.Ticks(fig.p.X.Min, fig.p.X.Max) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"1", "2\n1×2", "2\n2×1", "4\n1×4", "4 ranks\non 2 GPUs\n2×2"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("x ticks %q, want %q", labels, want)
	}
	if !strings.HasPrefix(fig.p.X.Label.Text, "GPUs (CPU series: ranks)") {
		t.Errorf("x label %q", fig.p.X.Label.Text)
	}
	sep := false
	for _, p := range fig.drawn {
		if v, ok := p.(vline); ok && v.x == 3.5 {
			sep = true
		}
		// No line joins the place apart to the others.
		if l, ok := p.(*plotter.Line); ok {
			for _, q := range l.XYs {
				if q.X > 3.5 {
					t.Errorf("a line reaches x = %g, past the places that scale", q.X)
				}
			}
		}
	}
	if !sep {
		t.Errorf("no separator before the place apart")
	}
	// Merrill's partitions on fewer GPUs stand apart too.
	c := &results.Case{Plugin: "merrill", Backend: "cuda", Ranks: 1, GPUs: 2, Params: map[string]any{"gpus": 4.0}}
	if pl := placeOf(c); !pl.apart || pl.String() != "4 partitions on 2 GPUs" {
		t.Errorf("merrill p4 on 2 GPUs: %+v %q", pl, pl.String())
	}
}

// TestFigureFailedMarked: a case that failed stands where it would have,
// marked with its status, and the legend says so.
func TestFigureFailedMarked(t *testing.T) {
	fig := drawFigure(t, scalingRun(), "x = \"gpus\"\ny = \"gteps\"\nseries = \"bitmap_messages\"\nonly = [\"plugin=atomic2d\"]\n", nil)
	found := false
	for _, p := range fig.drawn {
		if g, ok := p.(*glyphs); ok && contains(g.texts, "failed") {
			found = true
		}
	}
	if !found {
		t.Errorf("the failed 1×4 case is not marked")
	}
	if !contains(legendTexts(fig), "no value (case failed or invalid)") {
		t.Errorf("legend %q says nothing of the failed case", legendTexts(fig))
	}
}

// TestFigureAutoLog: series of very different size get a log axis.
func TestFigureAutoLog(t *testing.T) {
	fig := drawFigure(t, scalingRun(), "x = \"gpus\"\ny = \"gteps\"\nseries = \"backend\"\nonly = [\"bitmap_messages=off\", \"plugin=reference\"]\n", nil)
	if !fig.yLog {
		t.Errorf("CUDA around 20 GTEPS and CPU around 0.3 share a linear axis")
	}
	checkRules(t, fig)
	fig = drawFigure(t, scalingRun(), "x = \"gpus\"\ny = \"gteps\"\nseries = \"bitmap_messages\"\nonly = [\"plugin=atomic2d\"]\n", nil)
	if fig.yLog {
		t.Errorf("series of one size got a log axis")
	}
}

// TestFigureNoData: a figure with nothing to draw is an error, never an
// empty plot; so is a title too long for two lines.
func TestFigureNoData(t *testing.T) {
	run := scalingRun()
	for _, c := range run.Cases {
		for i := range c.BFS {
			for j := range c.BFS[i].Phases {
				c.BFS[i].Phases[j].Bytes["h2d"] = 0
			}
		}
	}
	pts := collect([]*results.Run{run})
	for text, want := range map[string]string{
		"x = \"gpus\"\ny = \"bytes:h2d\"\nkind = \"bar\"\n":                              "every value",
		"x = \"gpus\"\ny = \"bytes:d2h\"\nkind = \"bar\"\n":                              "no data",
		"x = \"gpus\"\ny = \"gteps\"\nonly = [\"scale=40\"]\n":                           "no data",
		"x = \"nosuchparam\"\ny = \"gteps\"\n":                                           "no data",
		"x = \"gpus\"\ny = \"gteps\"\ntitle = \"" + strings.Repeat("word ", 60) + "\"\n": "title",
	} {
		fig, err := declaredFigure(parseFigure(t, text), pts, nil)
		if err == nil {
			_, err = fig.render("png")
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error containing %q", text, err, want)
		}
	}
}

// TestCaptionOneLine: a caption too long for the image shrinks, then is
// cut, on one line.
func TestCaptionOneLine(t *testing.T) {
	f := newFigure("c", "t", strings.Repeat("a long caption ", 40))
	f.p.Add(plotter.NewGrid())
	if _, err := f.render("png"); err != nil {
		t.Fatal(err)
	}
	w, _, _ := f.size()
	if strings.Contains(f.caption, "\n") || f.captionStyle.Width(f.caption) > w || !strings.HasSuffix(f.caption, "…") {
		t.Errorf("caption %q (%v wide in an image %v wide)", f.caption, f.captionStyle.Width(f.caption), w)
	}
}

// TestNameSeriesLabels: a legend names a parameter's value where it
// stands beside the variant (no header names it), and gives the values
// alone under a header where the series are named dimensions only.
func TestNameSeriesLabels(t *testing.T) {
	mk := func(v any) point {
		return point{c: &results.Case{Variant: "diropt", Backend: "cuda", Params: map[string]any{"bu_serial": v}}}
	}
	for _, tc := range []struct {
		series     []string
		wantLabels []string
		wantHeader string
	}{
		{[]string{"variant", "bu_serial"}, []string{"diropt, bu_serial=4", "diropt, bu_serial=8"}, ""},
		{[]string{"bu_serial"}, []string{"4", "8"}, "bu_serial"},
	} {
		pts := []point{mk(4.0), mk(8.0)}
		ss := []sample{{x: "1", p: pts[0]}, {x: "1", p: pts[1]}}
		header := nameSeries(&config.Figure{X: "scale", Series: tc.series}, ss, pts)
		var got []string
		for _, s := range ss {
			got = append(got, s.label)
		}
		if tc.wantHeader != header || strings.Join(got, "|") != strings.Join(tc.wantLabels, "|") {
			t.Errorf("series %v: labels %q, header %q; want %q, %q", tc.series, got, header, tc.wantLabels, tc.wantHeader)
		}
	}
}
