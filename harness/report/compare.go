// This file implements Compare, the regression check between a baseline run
// and a new run: cases are matched by Case.Key, their harmonic-mean TEPS
// compared, and the difference tested for significance over the per-search
// TEPS samples with the Mann-Whitney U test at alpha 0.05, as benchstat does
// (golang.org/x/perf/benchmath.AssumeNothing).

package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"

	"github.com/bfsbench/bfsbench/harness/results"
)

// compareAlpha is the significance level of the U test (benchstat's).
const compareAlpha = 0.05

// Compare writes a table comparing every case of base with the case of new
// that has the same Key, and reports failed=true when the check fails:
//   - a matched case whose harmonic-mean TEPS dropped by more than threshold
//     (a fraction: 0.05 is 5%) with a significant U test (p <= 0.05);
//   - a case of base missing in new (named "parameters changed", with the
//     change, when new has one unmatched case of the same variant, backend,
//     ranks, grid and graph);
//   - a case of new whose status is not ok (and that base has).
//
// A case only in new is reported as new and is no failure; a case whose
// base status is not ok has no baseline to regress from.
func Compare(w io.Writer, base, new *results.Run, threshold float64) (failed bool, err error) {
	switch {
	case base == nil || new == nil:
		return false, fmt.Errorf("compare: nil run")
	case math.IsNaN(threshold) || threshold < 0 || threshold >= 1:
		return false, fmt.Errorf("compare: threshold %v is not a fraction in [0, 1)", threshold)
	}
	baseKeys := map[string]bool{}
	for _, b := range base.Cases {
		if b != nil {
			baseKeys[b.Key()] = true
		}
	}
	newByKey := map[string]*results.Case{}
	unmatchedBySlot := map[string][]*results.Case{} // new cases no base case has, for "parameters changed"
	for _, c := range new.Cases {
		if c != nil && newByKey[c.Key()] == nil {
			newByKey[c.Key()] = c
			if !baseKeys[c.Key()] {
				unmatchedBySlot[c.SlotKey()] = append(unmatchedBySlot[c.SlotKey()], c)
			}
		}
	}
	fmt.Fprintf(w, "base: %s\nnew:  %s\n", runName(base), runName(new))
	fmt.Fprintf(w, "a regression: harmonic-mean TEPS down by more than %.4g%% with p <= %.2f (Mann-Whitney U over per-search TEPS)\n\n",
		threshold*100, compareAlpha)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tBASE GTEPS\tNEW GTEPS\tCHANGE\tTEST\tVERDICT")
	seen := map[string]bool{}
	var nFail int
	for _, b := range base.Cases {
		if b == nil || seen[b.Key()] {
			continue
		}
		seen[b.Key()] = true
		row := compareCase(b, newByKey[b.Key()], threshold)
		if newByKey[b.Key()] == nil {
			if same := unmatchedBySlot[b.SlotKey()]; len(same) == 1 {
				row.verdict = "FAIL: parameters changed (" + paramDiff(b.Params, same[0].Params) + "): refresh the baseline"
			}
		}
		if row.fail {
			nFail++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", benchName(b), row.base, row.new, row.change, row.test, row.verdict)
	}
	for _, c := range new.Cases {
		if c == nil || seen[c.Key()] {
			continue
		}
		seen[c.Key()] = true
		fmt.Fprintf(tw, "%s\t-\t%s\t-\t-\tnew (status %s)\n", benchName(c), gteps(validTEPS(c)), c.Status)
	}
	if err := tw.Flush(); err != nil {
		return false, err
	}
	if nFail > 0 {
		fmt.Fprintf(w, "\nFAIL: %d case(s) regressed, are missing or did not succeed\n", nFail)
	} else {
		fmt.Fprintf(w, "\nPASS\n")
	}
	return nFail > 0, nil
}

// compareRow is one line of Compare's table.
type compareRow struct {
	base, new, change, test, verdict string
	fail                             bool
}

// compareCase compares one base case with its match in new (nil if none).
func compareCase(b, n *results.Case, threshold float64) compareRow {
	bt := validTEPS(b)
	row := compareRow{base: gteps(bt), new: "-", change: "-", test: "-"}
	switch {
	case n == nil:
		row.verdict, row.fail = "FAIL: missing in new", true
		return row
	case n.Status != results.StatusOK:
		row.new = gteps(validTEPS(n))
		row.verdict, row.fail = "FAIL: new status "+n.Status, true
		return row
	case b.Status != results.StatusOK || len(bt) == 0:
		row.new = gteps(validTEPS(n))
		row.verdict = "no baseline (base status " + b.Status + ")"
		return row
	}
	nt := validTEPS(n)
	row.new = gteps(nt)
	if len(nt) == 0 { // status ok with no valid TEPS: nothing was measured
		row.verdict, row.fail = "FAIL: no valid searches in new", true
		return row
	}
	hb, hn := harmonicMean(bt), harmonicMean(nt)
	delta := hn/hb - 1
	row.change = fmt.Sprintf("%+.2f%%", delta*100)

	thr := benchmath.DefaultThresholds
	thr.CompareAlpha = compareAlpha
	// NewSample sorts its slice: bt and nt are fresh copies.
	cmp := benchmath.AssumeNothing.Compare(benchmath.NewSample(bt, &thr), benchmath.NewSample(nt, &thr))
	row.test = cmp.String()
	significant := cmp.P <= cmp.Alpha
	switch {
	case significant && delta < -threshold:
		row.verdict, row.fail = "FAIL: slower", true
	case significant && delta < 0:
		row.verdict = "slower, within threshold"
	case significant && delta > 0:
		row.verdict = "faster"
	default:
		row.verdict = "~ (no significant change)"
		if len(cmp.Warnings) > 0 {
			row.verdict += ": " + cmp.Warnings[0].Error()
		}
	}
	return row
}

// gteps formats the harmonic mean of TEPS values in GTEPS, "-" for none.
func gteps(t []float64) string {
	if len(t) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.4f", harmonicMean(t)/1e9)
}

// runName identifies a run in Compare's header.
func runName(r *results.Run) string {
	s := r.ConfigPath
	if r.GitCommit != "" {
		s += " commit " + r.GitCommit
	}
	if r.Started != "" {
		s += " started " + r.Started
	}
	if m := machineName(r.Env); m != "" {
		s += " on " + m
	}
	return s
}

// paramDiff describes how the parameters changed from old to new: "k: a -> b"
// for a changed value, "+k=v" for a new one, "-k" for a dropped one, in key
// order.
func paramDiff(old, new map[string]any) string {
	keys := map[string]bool{}
	for k := range old {
		keys[k] = true
	}
	for k := range new {
		keys[k] = true
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		o, inOld := old[k]
		n, inNew := new[k]
		switch {
		case !inOld:
			parts = append(parts, fmt.Sprintf("+%s=%v", k, n))
		case !inNew:
			parts = append(parts, "-"+k)
		case fmt.Sprint(o) != fmt.Sprint(n):
			parts = append(parts, fmt.Sprintf("%s: %v -> %v", k, o, n))
		}
	}
	return strings.Join(parts, ", ")
}
