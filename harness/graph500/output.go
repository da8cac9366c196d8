// This file writes the final report of the Graph500 reference v3 driver
// (graph500/graph500 3.0.1, src/main.c, the printf lines after the
// searches): the same keys, in the same order, with the same number
// formats, so that a bfsbench result can be compared line for line with a
// published Graph500 result.

package graph500

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/bfsbench/bfsbench/harness/results"
)

// ReportHeader holds the run-level figures at the top of the report.
type ReportHeader struct {
	Scale, EdgeFactor, NBFS, NumProcesses int
	GenerationTimeS, ConstructionTimeS    float64
}

// WriteReport writes the reference v3 output lines for statistics s. With
// no statistics (s nil or s.N == 0: no valid search) it writes the
// reference's line for an invalid run instead.
//
// The reference prints floating-point figures with C's %g (6 significant
// digits) and edge counts with %.11g; Go's %.6g and %.11g give the same
// text for finite numbers, and cFormatG spells infinities and NaN as C does.
func WriteReport(w io.Writer, h ReportHeader, s *results.Stats) error {
	bw := bufio.NewWriter(w)
	if s == nil || s.N == 0 {
		fmt.Fprintf(bw, "No results printed for invalid run.\n")
		return bw.Flush()
	}
	line := func(key, value string) {
		fmt.Fprintf(bw, "%-32s%s\n", key, value)
	}
	g := func(x float64) string { return cFormatG(x, 6) }
	line("SCALE:", fmt.Sprint(h.Scale))
	line("edgefactor:", fmt.Sprint(h.EdgeFactor))
	line("NBFS:", fmt.Sprint(h.NBFS))
	line("graph_generation:", g(h.GenerationTimeS))
	line("num_mpi_processes:", fmt.Sprint(h.NumProcesses))
	line("construction_time:", g(h.ConstructionTimeS))
	writeSummaryLines(line, "bfs  ", "_time", s.Time, g)
	writeSummaryLines(line, "", "_nedge", s.NEdge, func(x float64) string { return cFormatG(x, 11) })
	t := s.TEPS
	line("bfs  min_TEPS:", g(t.Min))
	line("bfs  firstquartile_TEPS:", g(t.FirstQuartile))
	line("bfs  median_TEPS:", g(t.Median))
	line("bfs  thirdquartile_TEPS:", g(t.ThirdQuartile))
	line("bfs  max_TEPS:", g(t.Max))
	// The reference marks this line with "!  " inside the padding.
	line("bfs  harmonic_mean_TEPS:     !", g(s.HarmonicMeanTEPS))
	line("bfs  harmonic_stddev_TEPS:", g(s.HarmonicStdDevTEPS))
	writeSummaryLines(line, "bfs  ", "_validate", s.Validate, g)
	return bw.Flush()
}

// writeSummaryLines writes the seven lines of one get_statistics block, e.g.
// "bfs  min_time:", ..., "bfs  stddev_time:".
func writeSummaryLines(line func(key, value string), prefix, suffix string, s results.Summary, f func(float64) string) {
	line(prefix+"min"+suffix+":", f(s.Min))
	line(prefix+"firstquartile"+suffix+":", f(s.FirstQuartile))
	line(prefix+"median"+suffix+":", f(s.Median))
	line(prefix+"thirdquartile"+suffix+":", f(s.ThirdQuartile))
	line(prefix+"max"+suffix+":", f(s.Max))
	line(prefix+"mean"+suffix+":", f(s.Mean))
	line(prefix+"stddev"+suffix+":", f(s.StdDev))
}

// cFormatG formats x as C's printf %.<prec>g does (glibc spelling of
// infinities and NaN).
func cFormatG(x float64, prec int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.*g", prec, x)
}
