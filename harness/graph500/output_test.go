// Tests of the reference v3 report (output.go). The golden files in
// testdata were printed by the reference's own get_statistics and printf
// lines (src/main.c of graph500 3.0.1, compiled with gcc) from the same
// inputs as below, so this checks statistics and formatting together.

package graph500

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/bfsbench/bfsbench/harness/results"
)

// otSearches are the inputs of the golden files: time, edge count and
// validation time of each search.
var otSearches = [][3]float64{
	{0.0123, 16777214, 0.51},
	{0.0098765, 16777100, 0.49},
	{0.0151, 16770000, 0.5},
	{0.000012345, 2, 0.012},
	{0.0111, 16777214, 0.53},
	{0.0130001, 16000000, 0.47},
	{0.0099, 123456789012, 0.5},
	{0.0102, 16777000, 1.25e-5},
	{0.0333, 9999999, 0.6},
}

func TestWriteReportGolden(t *testing.T) {
	tests := []struct {
		golden string
		header ReportHeader
		n      int
	}{
		{"testdata/report_v3_n9.golden", ReportHeader{Scale: 20, EdgeFactor: 16, NBFS: 9, NumProcesses: 4,
			GenerationTimeS: 12.3456789, ConstructionTimeS: 0.0421875}, 9},
		{"testdata/report_v3_n8.golden", ReportHeader{Scale: 26, EdgeFactor: 16, NBFS: 8, NumProcesses: 16,
			GenerationTimeS: 0.5, ConstructionTimeS: 1234567.5}, 8},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			want, err := os.ReadFile(tc.golden)
			if err != nil {
				t.Fatal(err)
			}
			var ss []results.Search
			for _, s := range otSearches[:tc.n] {
				ss = append(ss, results.Search{TimeS: s[0], NEdge: int64(s[1]), ValidateTimeS: s[2], Valid: true})
			}
			// An invalid search must not change the figures.
			ss = append(ss, results.Search{TimeS: 1e-12, NEdge: 1, ValidateTimeS: 99, Valid: false})
			var buf bytes.Buffer
			if err := WriteReport(&buf, tc.header, ComputeStats(ss)); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != string(want) {
				t.Fatalf("report differs from the reference's\n got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestWriteReportInvalidRun(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteReport(&buf, ReportHeader{Scale: 10}, nil); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "No results printed for invalid run.\n" {
		t.Fatalf("got %q", got)
	}
}

func TestCFormatG(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		prec int
		want string
	}{
		{100000, 6, "100000"}, {1e6, 6, "1e+06"}, {0.0001, 6, "0.0001"}, {0.00001, 6, "1e-05"},
		{123456789012, 11, "1.2345678901e+11"}, {16777214, 11, "16777214"},
	} {
		if got := cFormatG(tc.x, tc.prec); got != tc.want {
			t.Errorf("cFormatG(%v, %d) = %q, want %q", tc.x, tc.prec, got, tc.want)
		}
	}
	for x, want := range map[float64]string{math.Inf(1): "inf", math.Inf(-1): "-inf", math.NaN(): "nan"} {
		if got := cFormatG(x, 6); got != want {
			t.Errorf("cFormatG(%v) = %q, want %q", x, got, want)
		}
	}
}
