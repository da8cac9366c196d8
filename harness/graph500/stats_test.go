// Tests of the reference v3 statistics (stats.go) against hand-computed
// values.

package graph500

import (
	"math"
	"testing"

	"github.com/bfsbench/bfsbench/harness/results"
)

func stNear(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func stSummaryNear(a, b results.Summary) bool {
	return stNear(a.Min, b.Min) && stNear(a.FirstQuartile, b.FirstQuartile) && stNear(a.Median, b.Median) &&
		stNear(a.ThirdQuartile, b.ThirdQuartile) && stNear(a.Max, b.Max) && stNear(a.Mean, b.Mean) &&
		stNear(a.StdDev, b.StdDev)
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want results.Summary
	}{
		{"empty", nil, results.Summary{}},
		// One value: the reference's 0/0 deviation becomes 0.
		{"one", []float64{7}, results.Summary{Min: 7, FirstQuartile: 7, Median: 7, ThirdQuartile: 7, Max: 7, Mean: 7}},
		// n=4, sorted 1 2 3 4: Q1=(x[0]+x[1])/2=1.5, median=(x[1]+x[2])/2=2.5,
		// Q3=(x[3-0]+x[3-1])/2=3.5; mean 2.5; sum sq dev 5, /3.
		{"four unsorted", []float64{4, 1, 3, 2},
			results.Summary{Min: 1, FirstQuartile: 1.5, Median: 2.5, ThirdQuartile: 3.5, Max: 4, Mean: 2.5, StdDev: math.Sqrt(5.0 / 3)}},
		// n=5, sorted 1 2 4 8 16: Q1 = x[1] = 2, median x[2] = 4, Q3 = x[3] = 8;
		// mean 31/5 = 6.2; sum sq dev = 27.04+17.64+4.84+3.24+96.04 = 148.8, /4.
		{"five", []float64{16, 2, 8, 1, 4},
			results.Summary{Min: 1, FirstQuartile: 2, Median: 4, ThirdQuartile: 8, Max: 16, Mean: 6.2, StdDev: math.Sqrt(148.8 / 4)}},
		// n=6, sorted 0..5: Q1=(x[1]+x[1])/2=1, median=(x[2]+x[3])/2=2.5,
		// Q3=(x[5-1]+x[5-1])/2=4; mean 2.5; sum sq dev 17.5, /5.
		{"six", []float64{5, 0, 4, 1, 3, 2},
			results.Summary{Min: 0, FirstQuartile: 1, Median: 2.5, ThirdQuartile: 4, Max: 5, Mean: 2.5, StdDev: math.Sqrt(3.5)}},
		// n=7, sorted 10..70: Q1=(x[1]+x[1])/2=20, Q3=(x[5]+x[5])/2=60.
		{"seven", []float64{70, 60, 50, 40, 30, 20, 10},
			results.Summary{Min: 10, FirstQuartile: 20, Median: 40, ThirdQuartile: 60, Max: 70, Mean: 40, StdDev: math.Sqrt(2800.0 / 6)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			orig := append([]float64(nil), tc.xs...)
			got := Summarize(tc.xs)
			if !stSummaryNear(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range orig {
				if orig[i] != tc.xs[i] {
					t.Fatal("Summarize modified its input")
				}
			}
		})
	}
}

func TestHarmonicMean(t *testing.T) {
	// TEPS 1, 2, 4: inverses 1, .5, .25, mean 7/12, so harmonic mean 12/7.
	// Sum sq dev of inverses: (5/12)^2+(1/12)^2+(4/12)^2 = 42/144, /2 ->
	// sd = sqrt(21/144); harmonic sd = sd / ((7/12)^2 * sqrt(2)).
	m, sd := HarmonicMean([]float64{1, 2, 4})
	wantSD := math.Sqrt(21.0/144) / (49.0 / 144 * math.Sqrt2)
	if !stNear(m, 12.0/7) || !stNear(sd, wantSD) {
		t.Fatalf("got %v, %v, want %v, %v", m, sd, 12.0/7, wantSD)
	}
	if m, sd := HarmonicMean([]float64{5e9}); !stNear(m, 5e9) || sd != 0 {
		t.Fatalf("one value: got %v, %v, want 5e9, 0", m, sd)
	}
	if m, sd := HarmonicMean(nil); m != 0 || sd != 0 {
		t.Fatalf("no value: got %v, %v, want 0, 0", m, sd)
	}
}

func TestComputeStats(t *testing.T) {
	searches := []results.Search{
		{TimeS: 1, NEdge: 100, ValidateTimeS: 3, Valid: true},         // 100 TEPS
		{TimeS: 2, NEdge: 100, ValidateTimeS: 1, Valid: true},         // 50 TEPS
		{TimeS: 0.001, NEdge: 5, Valid: false, Error: "bad"},          // ignored
		{TimeS: 4, NEdge: 100, ValidateTimeS: 2, Valid: true},         // 25 TEPS
		{TimeS: 1, NEdge: 400, ValidateTimeS: 4, Valid: true},         // 400 TEPS
		{TimeS: 0, NEdge: 100, ValidateTimeS: 5, Valid: true},         // no finite TEPS
		{TimeS: 1e-9, NEdge: 1 << 40, ValidateTimeS: 1, Valid: false}, // ignored
	}
	st := ComputeStats(searches)
	if st == nil || st.N != 5 {
		t.Fatalf("got %+v, want N=5", st)
	}
	// Times 1 2 4 1 0 -> sorted 0 1 1 2 4.
	wantTime := results.Summary{Min: 0, FirstQuartile: 1, Median: 1, ThirdQuartile: 2, Max: 4, Mean: 1.6,
		StdDev: math.Sqrt((2.56 + 0.36 + 0.16 + 0.36 + 5.76) / 4)}
	if !stSummaryNear(st.Time, wantTime) {
		t.Errorf("Time = %+v, want %+v", st.Time, wantTime)
	}
	if st.NEdge.Min != 100 || st.NEdge.Max != 400 || st.NEdge.Median != 100 || !stNear(st.NEdge.Mean, 160) {
		t.Errorf("NEdge = %+v", st.NEdge)
	}
	if st.Validate.Min != 1 || st.Validate.Max != 5 || st.Validate.Median != 3 {
		t.Errorf("Validate = %+v", st.Validate)
	}
	// Seconds per edge over the four with TEPS: .01 .02 .04 .0025, sorted
	// .0025 .01 .02 .04: Q1 = .00625, median .015, Q3 = .03, mean .018125.
	// TEPS: min 1/.04 = 25, Q1 1/.03, median 1/.015, Q3 1/.00625 = 160,
	// max 400, harmonic mean 1/.018125.
	if !stNear(st.TEPS.Min, 25) || !stNear(st.TEPS.FirstQuartile, 1/0.03) || !stNear(st.TEPS.Median, 1/0.015) ||
		!stNear(st.TEPS.ThirdQuartile, 160) || !stNear(st.TEPS.Max, 400) {
		t.Errorf("TEPS = %+v", st.TEPS)
	}
	hm, hsd := HarmonicMean([]float64{100, 50, 25, 400})
	if !stNear(st.HarmonicMeanTEPS, 1/0.018125) || !stNear(hm, st.HarmonicMeanTEPS) ||
		!stNear(hsd, st.HarmonicStdDevTEPS) || st.TEPS.Mean != st.HarmonicMeanTEPS || st.TEPS.StdDev != st.HarmonicStdDevTEPS {
		t.Errorf("harmonic: stats %v %v, TEPS summary %v %v, HarmonicMean %v %v",
			st.HarmonicMeanTEPS, st.HarmonicStdDevTEPS, st.TEPS.Mean, st.TEPS.StdDev, hm, hsd)
	}
	if ComputeStats(searches[2:3]) != nil {
		t.Error("stats over no valid search, want nil")
	}
}
