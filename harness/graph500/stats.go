// This file implements the statistics of the Graph500 reference v3 output
// (graph500/graph500 3.0.1, src/main.c, get_statistics and the printing code
// after the searches): mean, sample standard deviation, and order statistics
// whose quartiles average the two middle candidates; TEPS figures computed
// from seconds per edge, giving the harmonic mean and the harmonic standard
// deviation of Norris (1940).

package graph500

import (
	"math"
	"slices"

	"github.com/bfsbench/bfsbench/harness/results"
)

// Summarize returns the reference v3 get_statistics figures of xs:
//
//	mean     = sum(x) / n
//	stddev   = sqrt(sum((x - mean)^2) / (n - 1))
//	min, max = xs[0], xs[n-1] of the sorted values
//	Q1       = (xs[(n-1)/4] + xs[n/4]) / 2
//	median   = (xs[(n-1)/2] + xs[n/2]) / 2
//	Q3       = (xs[n-1-(n-1)/4] + xs[n-1-n/4]) / 2
//
// (integer division, 0-based indices). Where the reference divides by zero,
// this returns zeros instead, so that results stay valid JSON: all figures
// for n = 0, and the standard deviation for n = 1.
func Summarize(xs []float64) results.Summary {
	n := len(xs)
	if n == 0 {
		return results.Summary{}
	}
	mean, std := meanStdDev(xs)
	s := slices.Clone(xs)
	slices.Sort(s)
	return results.Summary{
		Min:           s[0],
		FirstQuartile: (s[(n-1)/4] + s[n/4]) * .5,
		Median:        (s[(n-1)/2] + s[n/2]) * .5,
		ThirdQuartile: (s[n-1-(n-1)/4] + s[n-1-n/4]) * .5,
		Max:           s[n-1],
		Mean:          mean,
		StdDev:        std,
	}
}

// meanStdDev computes the mean and the n-1 standard deviation the way the
// reference does (two passes, summing in the given order); the deviation is
// 0 for fewer than two values.
func meanStdDev(xs []float64) (mean, std float64) {
	n := len(xs)
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if n < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += float64((x - mean) * (x - mean)) // no fused multiply-add, as in C
	}
	return mean, math.Sqrt(ss / float64(n-1))
}

// HarmonicMean returns the harmonic mean of the TEPS values xs and its
// standard deviation, as the reference v3 prints them: with s_i = 1/x_i
// (seconds per edge), m and sd the mean and n-1 standard deviation of the
// s_i,
//
//	mean   = 1/m
//	stddev = sd / (m^2 * sqrt(n-1))
//
// For n < 2 the deviation is 0 (the reference divides by zero); for n = 0
// both are 0.
func HarmonicMean(xs []float64) (mean, stddev float64) {
	inv := make([]float64, len(xs))
	for i, x := range xs {
		inv[i] = 1 / x
	}
	return harmonicFromInverses(inv)
}

// harmonicFromInverses is HarmonicMean given the inverses 1/x_i.
func harmonicFromInverses(inv []float64) (mean, stddev float64) {
	n := len(inv)
	if n == 0 {
		return 0, 0
	}
	m, sd := meanStdDev(inv)
	if n < 2 {
		return 1 / m, 0
	}
	return 1 / m, sd / (m * m * math.Sqrt(float64(n-1)))
}

// ComputeStats returns the reference v3 statistics over the valid searches
// (Valid true) of searches, or nil if there is none:
//
//   - Time, NEdge and Validate summarize TimeS, NEdge and ValidateTimeS.
//   - TEPS is computed as the reference does, from the seconds per edge
//     s_i = TimeS/NEdge: its min is 1/max(s), its first quartile 1/Q3(s),
//     its median 1/median(s), its third quartile 1/Q1(s), its max 1/min(s);
//     its Mean and StdDev are the harmonic mean and harmonic standard
//     deviation (the only mean and deviation of TEPS the reference prints),
//     also given as HarmonicMeanTEPS and HarmonicStdDevTEPS.
//
// The reference never meets a search with no time or no edges; here such a
// search (TimeS <= 0 or NEdge <= 0) has no finite TEPS and is left out of
// the TEPS figures only, so that they stay finite.
func ComputeStats(searches []results.Search) *results.Stats {
	var times, nedges, vtimes, spe []float64
	for _, s := range searches {
		if !s.Valid {
			continue
		}
		times = append(times, s.TimeS)
		nedges = append(nedges, float64(s.NEdge))
		vtimes = append(vtimes, s.ValidateTimeS)
		if s.TimeS > 0 && s.NEdge > 0 {
			spe = append(spe, s.TimeS/float64(s.NEdge))
		}
	}
	if len(times) == 0 {
		return nil
	}
	st := &results.Stats{
		N:        len(times),
		Time:     Summarize(times),
		NEdge:    Summarize(nedges),
		Validate: Summarize(vtimes),
	}
	if len(spe) > 0 {
		sp := Summarize(spe)
		hm, hsd := harmonicFromInverses(spe)
		st.TEPS = results.Summary{
			Min:           1 / sp.Max,
			FirstQuartile: 1 / sp.ThirdQuartile,
			Median:        1 / sp.Median,
			ThirdQuartile: 1 / sp.FirstQuartile,
			Max:           1 / sp.Min,
			Mean:          hm,
			StdDev:        hsd,
		}
		st.HarmonicMeanTEPS, st.HarmonicStdDevTEPS = hm, hsd
	}
	return st
}
