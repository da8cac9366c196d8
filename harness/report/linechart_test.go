package report

import (
	"os"
	"strings"
	"testing"
)

func TestLineChartSave(t *testing.T) {
	pts := []Point{{1, 10}, {16, 100}, {256, 50}}
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
		{"zero on a log axis", LineChart{Name: "c", LogY: true, Series: []LineSeries{{Name: "s", Points: []Point{{1, 0}}}}},
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
