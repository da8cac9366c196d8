package report

import (
	"math"
	"os"
	"strings"
	"testing"
)

func TestLineChartSave(t *testing.T) {
	pts := []Point{{X: 1, Y: 10}, {X: 16, Y: 100}, {X: 256, Y: 50}}
	for _, tc := range []struct {
		name    string
		chart   LineChart
		want    []string // in the SVG
		wantErr string
	}{
		{"log axes, labelled x", LineChart{Name: "c", Title: "a chart", LogX: true, LogY: true,
			XLabels: map[float64]string{1: "2^0", 16: "2^4", 256: "2^8"},
			Series:  []LineSeries{{Name: "first", Points: pts}, {Name: "empty"}, {Name: "second", Points: pts[:2]}}},
			[]string{"first", "second", "2^4", "a chart"}, ""},
		{"linear", LineChart{Name: "c", Series: []LineSeries{{Name: "only", Points: pts}}}, []string{"only"}, ""},
		{"no points", LineChart{Name: "c", Series: []LineSeries{{Name: "empty"}}}, nil, "no series with points"},
		{"zero on a log axis", LineChart{Name: "c", LogY: true, Series: []LineSeries{{Name: "s", Points: []Point{{X: 1, Y: 0}}}}},
			nil, "on a log scale"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			paths, err := tc.chart.Save(dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) != 2 {
				t.Fatalf("wrote %v, want a PNG and an SVG", paths)
			}
			svg, err := os.ReadFile(dir + "/c.svg")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(svg), "empty") {
				t.Error("a series without points is in the legend")
			}
			for _, w := range tc.want {
				if !strings.Contains(string(svg), w) {
					t.Errorf("SVG does not contain %q", w)
				}
			}
		})
	}
}

// TestLineChartSpread: a point's quartiles are drawn as an error bar in
// its series' colour, the axis covers them, and a point without a spread
// has no bar.
func TestLineChartSpread(t *testing.T) {
	c := LineChart{Name: "c", Title: "spread", LogX: true, LogY: true, Series: []LineSeries{{Name: "s",
		Points: []Point{{X: 4096, Y: 2, Lo: 1, Hi: 40}, {X: 1 << 20, Y: 20}, {X: 1 << 30, Y: 50, Lo: 48, Hi: 51}}}}}
	dir := t.TempDir()
	if _, err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	fig, err := c.figure()
	if err != nil {
		t.Fatal(err)
	}
	bars := errorBarsOf(fig)
	if len(bars) != 1 || len(bars[0].xs) != 2 {
		t.Fatalf("error bars %v, want one set of two (the point without a spread has none)", bars)
	}
	if got, want := bars[0].hi[0], math.Log10(40); math.Abs(got-want) > 1e-12 {
		t.Errorf("first bar's top at %g, want log10(40) = %g", got, want)
	}
	if fig.p.Y.Max < math.Log10(40) {
		t.Errorf("the y axis ends at 10^%g, under the bar's top 40", fig.p.Y.Max)
	}
}
