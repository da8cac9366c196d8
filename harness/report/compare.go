// This file implements the regression check between a base and a new
// measurement. CompareRuns matches the cases of two results files by
// Case.Key; ComparePairs takes pairs already matched (bfsbench ab, which
// measures both revisions in one run). As benchstat does, a pair's change
// is the ratio of the medians of its per-search TEPS, tested for
// significance with the Mann-Whitney U test
// (golang.org/x/perf/benchmath.AssumeNothing); a percentile bootstrap gives
// a confidence interval of that ratio. Medians, not the Graph500 harmonic
// means (which the table shows too), decide: one search stalled by the
// machine moves a harmonic mean by several percent and a median hardly.
// The verdicts use benchstat's vocabulary: "~" for no significant change,
// "+x%"/"-x%" with (p=… n=…).

package report

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"

	"github.com/bfsbench/bfsbench/harness/results"
)

// DefaultAlpha is the significance level of the U test (benchstat's).
const DefaultAlpha = 0.05

// bootstrapResamples is the number of resamples behind a confidence
// interval of the ratio.
const bootstrapResamples = 2000

// CompareOptions set how a comparison judges a change.
type CompareOptions struct {
	// Threshold is the slow-down of median TEPS, as a fraction (0.05 is
	// 5%), beyond which a significant change fails.
	Threshold float64
	// Alpha is the significance level of the U test; 0 means DefaultAlpha.
	// The confidence interval's level is 1 - Alpha.
	Alpha float64
	// MinSearches is the fewest valid searches each side of a pair needs
	// for a verdict; a pair with fewer fails. Whatever it is, a pair fails
	// when it has too few valid searches for any outcome of the U test to
	// reach p <= Alpha (at 0.05: 4 a side, or 8 against 3), since "no
	// significant change" would then be a pass the data cannot support.
	MinSearches int
	// Strict refuses to compare runs from different machines (CPU model,
	// GPU models, driver); otherwise the first line of the output warns.
	Strict bool
}

func (o CompareOptions) check() (CompareOptions, error) {
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	switch {
	case math.IsNaN(o.Threshold) || o.Threshold < 0 || o.Threshold >= 1:
		return o, fmt.Errorf("compare: threshold %v is not a fraction in [0, 1)", o.Threshold)
	case math.IsNaN(o.Alpha) || o.Alpha <= 0 || o.Alpha >= 1:
		return o, fmt.Errorf("compare: alpha %v is not in (0, 1)", o.Alpha)
	case o.MinSearches < 0:
		return o, fmt.Errorf("compare: min searches %d is negative", o.MinSearches)
	}
	return o, nil
}

// Pair is a case of the base and the case of the new measurement it is
// compared with. New is nil when the new measurement has no such case.
type Pair struct {
	Base, New *results.Case
	// Name labels the row; empty means the base case's benchmark name.
	Name string
	// Note is added to the verdict (e.g. how the parameters differ).
	Note string
	// Rounds, when set, splits an interleaved measurement into its rounds:
	// how many searches of Base.BFS and of New.BFS each round holds, in
	// order. The bootstrap then resamples whole rounds, so a round that a
	// burst of load slowed as a whole widens the interval instead of
	// passing for a change.
	Rounds [][2]int
}

// CompareResult counts the outcome of a comparison.
type CompareResult struct {
	Compared  int // pairs whose TEPS were tested
	Regressed int // significant slow-downs beyond the threshold
	Failed    int // pairs that fail the check: Regressed, plus missing, not ok, too few searches
}

// ErrNothingCompared is wrapped by the error of a comparison in which no
// pair had valid searches on both sides: a gate that compared nothing must
// not pass.
var ErrNothingCompared = errors.New("no comparable cases")

// Compare is CompareRuns with only a threshold set.
func Compare(w io.Writer, base, new *results.Run, threshold float64) (failed bool, err error) {
	res, err := CompareRuns(w, base, new, CompareOptions{Threshold: threshold})
	return res.Failed > 0, err
}

// CompareRuns writes a table comparing every case of base with the case
// of new that has the same Key. A pair fails when:
//   - its median TEPS dropped by more than the threshold, with a
//     significant U test (p <= alpha) and a confidence interval of the
//     ratio wholly below 1;
//   - the case of base is missing in new (named "parameters changed", with
//     the change, when new has one unmatched case of the same variant,
//     backend, ranks, grid and graph);
//   - the case of new is not ok (and that of base is), or either side has
//     fewer valid searches than MinSearches.
//
// A case only in new is reported as new and is no failure; a case whose
// base status is not ok has no baseline to regress from. The error is
// non-nil (wrapping ErrNothingCompared) when no pair could be compared,
// e.g. for an empty or null base, and when Strict refuses runs from
// different machines.
func CompareRuns(w io.Writer, base, new *results.Run, opts CompareOptions) (CompareResult, error) {
	if base == nil || new == nil {
		return CompareResult{}, fmt.Errorf("compare: nil run")
	}
	opts, err := opts.check()
	if err != nil {
		return CompareResult{}, err
	}
	if d := MachineDiff(base.Env, new.Env); d != "" {
		if opts.Strict {
			return CompareResult{}, fmt.Errorf("compare: the runs are from different machines (%s); --strict refuses: measure both revisions on one machine with `bfsbench ab`", d)
		}
		fmt.Fprintf(w, "WARNING: the runs are from different machines (%s): a difference may be the machine's, not the code's; `bfsbench ab` measures both revisions on one machine\n", d)
	}
	baseKeys := map[string]bool{}
	for _, b := range base.Cases {
		if b != nil {
			baseKeys[b.Key()] = true
		}
	}
	newByKey := map[string]*results.Case{}
	unmatchedBySlot := map[string][]*results.Case{} // new cases no base case has, for "parameters changed"
	unmatchedByName := map[string][]*results.Case{} // and for "a different graph of the same name"
	for _, c := range new.Cases {
		if c != nil && newByKey[c.Key()] == nil {
			newByKey[c.Key()] = c
			if !baseKeys[c.Key()] {
				unmatchedBySlot[c.SlotKey()] = append(unmatchedBySlot[c.SlotKey()], c)
				unmatchedByName[c.NameKey()] = append(unmatchedByName[c.NameKey()], c)
			}
		}
	}
	fmt.Fprintf(w, "base: %s\nnew:  %s\n", runName(base), runName(new))
	var pairs []Pair
	seen := map[string]bool{}
	for _, b := range base.Cases {
		if b == nil || seen[b.Key()] {
			continue
		}
		seen[b.Key()] = true
		p := Pair{Base: b, New: newByKey[b.Key()]}
		if p.New == nil {
			if same := unmatchedBySlot[b.SlotKey()]; len(same) == 1 {
				p.Note = "parameters changed (" + ParamDiff(b.Params, same[0].Params) + "): refresh the baseline"
			} else if same := unmatchedByName[b.NameKey()]; len(same) == 1 {
				p.Note = fmt.Sprintf("new ran on a different graph of the same name %s (%s): not comparable", b.Graph.Label(), graphDiff(b.Graph, same[0].Graph))
			}
		}
		pairs = append(pairs, p)
	}
	var extra []*results.Case
	for _, c := range new.Cases {
		if c != nil && !seen[c.Key()] {
			seen[c.Key()] = true
			extra = append(extra, c)
		}
	}
	return comparePairs(w, pairs, extra, opts)
}

// ComparePairs writes the rule, a table with one row per pair and the
// verdict, judging each pair as CompareRuns does. The caller writes what
// the two sides are. The error wraps ErrNothingCompared when no pair
// could be compared.
func ComparePairs(w io.Writer, pairs []Pair, opts CompareOptions) (CompareResult, error) {
	opts, err := opts.check()
	if err != nil {
		return CompareResult{}, err
	}
	return comparePairs(w, pairs, nil, opts)
}

func comparePairs(w io.Writer, pairs []Pair, extra []*results.Case, opts CompareOptions) (CompareResult, error) {
	level := 100 * (1 - opts.Alpha)
	fmt.Fprintf(w, "a regression: median per-search TEPS down by more than %.4g%%, p <= %.3g (Mann-Whitney U) and the %.4g%% bootstrap interval (CI) of the ratio below 0", opts.Threshold*100, opts.Alpha, level)
	if opts.MinSearches > 0 {
		fmt.Fprintf(w, "; at least %d valid searches a side", opts.MinSearches)
	}
	fmt.Fprintf(w, "\nGTEPS columns: Graph500 harmonic means\n\n")

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "CASE\tBASE GTEPS\tNEW GTEPS\tVS BASE\t%.4g%% CI\tVERDICT\n", level)
	var res CompareResult
	var logRatios []float64
	for _, p := range pairs {
		row := compareCase(p, opts)
		if p.Note != "" {
			if row.fail && p.New == nil {
				row.verdict = "FAIL: " + p.Note
			} else {
				row.verdict += " (" + p.Note + ")"
			}
		}
		if row.compared {
			res.Compared++
			logRatios = append(logRatios, math.Log(row.ratio))
		}
		if row.fail {
			res.Failed++
		}
		if row.regressed {
			res.Regressed++
		}
		name := p.Name
		if name == "" {
			name = benchName(p.Base)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", name, row.base, row.new, row.change, row.ci, row.verdict)
	}
	for _, c := range extra {
		fmt.Fprintf(tw, "%s\t-\t%s\t-\t-\tnew (status %s)\n", benchName(c), gteps(validTEPS(c)), c.Status)
	}
	if err := tw.Flush(); err != nil {
		return res, err
	}
	if len(logRatios) > 1 {
		var s float64
		for _, l := range logRatios {
			s += l
		}
		fmt.Fprintf(w, "geomean of the median ratios over %d cases: %+.2f%%\n", len(logRatios), (math.Exp(s/float64(len(logRatios)))-1)*100)
	}
	switch {
	case res.Compared == 0:
		fmt.Fprintf(w, "\nERROR: no comparable cases\n")
		return res, fmt.Errorf("compare: %w: no case has valid searches in both base and new (%d pairs, %d failing)", ErrNothingCompared, len(pairs), res.Failed)
	case res.Failed > 0:
		fmt.Fprintf(w, "\nFAIL: %d of %d case(s) regressed, are missing or did not succeed\n", res.Failed, len(pairs))
	default:
		fmt.Fprintf(w, "\nPASS: %d case(s) compared, no significant slow-down beyond %.4g%%\n", res.Compared, opts.Threshold*100)
	}
	return res, nil
}

// compareRow is one line of the comparison table.
type compareRow struct {
	base, new, change, ci, verdict string
	fail, regressed, compared      bool
	ratio                          float64 // new / base median TEPS, when compared
}

// compareCase compares one base case with its match in new (nil if none).
func compareCase(p Pair, opts CompareOptions) compareRow {
	b, n := p.Base, p.New
	bt := validTEPS(b)
	row := compareRow{base: gteps(bt), new: "-", change: "-", ci: "-"}
	switch {
	case n == nil:
		row.verdict, row.fail = "FAIL: missing in new", true
		return row
	case n.Status != results.StatusOK:
		row.new = gteps(validTEPS(n))
		row.verdict, row.fail = "FAIL: new status "+n.Status, true
		return row
	case b.Graph.Differs(n.Graph) != "":
		row.new = gteps(validTEPS(n))
		row.verdict, row.fail = "FAIL: a different graph ("+b.Graph.Differs(n.Graph)+"): not comparable", true
		return row
	case b.Status != results.StatusOK || len(bt) == 0:
		row.new = gteps(validTEPS(n))
		row.verdict = "no baseline (base status " + b.Status + ")"
		return row
	}
	nt := validTEPS(n)
	row.new = gteps(nt)
	switch {
	case len(nt) == 0: // status ok with no valid TEPS: nothing was measured
		row.verdict, row.fail = "FAIL: no valid searches in new", true
		return row
	case len(bt) < opts.MinSearches || len(nt) < opts.MinSearches:
		row.verdict, row.fail = fmt.Sprintf("FAIL: too few valid searches (n=%d+%d, at least %d a side wanted)", len(bt), len(nt), opts.MinSearches), true
		return row
	case minUPValue(len(bt), len(nt)) > opts.Alpha:
		// No outcome of the test could be significant: "no significant
		// change" would be a pass the data cannot support.
		row.change = fmt.Sprintf("%+.2f%% (n=%d+%d)", (median(nt)/median(bt)-1)*100, len(bt), len(nt))
		row.verdict, row.fail = fmt.Sprintf("FAIL: too few valid searches to tell (n=%d+%d: no outcome of the U test reaches p <= %.3g; %d a side would)%s",
			len(bt), len(nt), opts.Alpha, minSearchesFor(opts.Alpha), validatedNote(b, n)), true
		return row
	}
	mb, mn := median(bt), median(nt)
	row.ratio = mn / mb
	row.compared = true
	delta := row.ratio - 1
	lo, hi := bootstrapRatio(roundsOf(b, n, p.Rounds), 1-opts.Alpha)
	row.ci = fmt.Sprintf("[%+.1f%%, %+.1f%%]", (lo-1)*100, (hi-1)*100)

	thr := benchmath.DefaultThresholds
	thr.CompareAlpha = opts.Alpha
	// NewSample sorts its slice: give it copies, bt and nt feed the
	// bootstrap above in search order.
	cmp := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(bt), &thr), benchmath.NewSample(slices.Clone(nt), &thr))
	row.change = fmt.Sprintf("%s (%s)", cmp.FormatDelta(mb, mn), cmp)
	significant := cmp.P <= cmp.Alpha
	switch {
	case significant && delta < -opts.Threshold && hi < 1:
		row.verdict, row.fail, row.regressed = "FAIL: slower", true, true
	case significant && delta < -opts.Threshold:
		row.verdict = "slower, but the interval holds no change (a disturbed round?)"
	case significant && delta < 0:
		row.verdict = "slower, within threshold"
	case significant && delta > 0:
		row.verdict = "faster"
	default:
		row.verdict = "~ no significant change"
		if len(cmp.Warnings) > 0 {
			row.verdict += ": " + cmp.Warnings[0].Error()
		}
	}
	return row
}

// graphDiff says how two graphs of one name differ: Graph.Differs, or
// their IDs when it finds nothing (a field one of them did not record).
func graphDiff(a, b results.Graph) string {
	if d := a.Differs(b); d != "" {
		return d
	}
	return a.ID() + " vs " + b.ID()
}

// minUPValue is the smallest two-sided p-value the Mann-Whitney U test
// can give for samples of n and m values: 2 / C(n+m, n), reached when
// they do not overlap (ties only raise it).
func minUPValue(n, m int) float64 {
	if n == 0 || m == 0 {
		return 1
	}
	p := 2.0
	for i := 1; i <= min(n, m) && p > 1e-300; i++ {
		p *= float64(i) / float64(max(n, m)+i) // 1 / C(n+m, min(n, m)), a factor at a time
	}
	return min(1, p)
}

// minSearchesFor is the fewest valid searches a side with which the U test
// can reach p <= alpha.
func minSearchesFor(alpha float64) int {
	n := 1
	for minUPValue(n, n) > alpha && n < 1<<20 {
		n++
	}
	return n
}

// validatedNote says which side of a pair validated only some of its
// searches (config validate = N), "" when both validated all.
func validatedNote(b, n *results.Case) string {
	var parts []string
	for _, x := range []struct {
		side string
		c    *results.Case
	}{{"base", b}, {"new", n}} {
		v := 0
		for _, s := range x.c.BFS {
			if s.Validated {
				v++
			}
		}
		if v < len(x.c.BFS) {
			parts = append(parts, fmt.Sprintf("%s: %d of %d searches validated", x.side, v, len(x.c.BFS)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}

// sampleRounds are the valid TEPS of a pair, by round: [round][0] of the
// base, [round][1] of the new case. A pair measured without rounds is one
// round.
type sampleRounds [][2][]float64

// roundsOf splits the valid TEPS of b and n into the pair's rounds; it
// falls back to one round when the sizes do not add up to the searches,
// or when a round has no valid search on a side.
func roundsOf(b, n *results.Case, rounds [][2]int) sampleRounds {
	var out sampleRounds
	var ib, in int
	for _, r := range rounds {
		if r[0] < 0 || r[1] < 0 || ib+r[0] > len(b.BFS) || in+r[1] > len(n.BFS) {
			break
		}
		rb := &results.Case{BFS: b.BFS[ib : ib+r[0]]}
		rn := &results.Case{BFS: n.BFS[in : in+r[1]]}
		ib, in = ib+r[0], in+r[1]
		out = append(out, [2][]float64{validTEPS(rb), validTEPS(rn)})
	}
	ok := len(out) > 0 && ib == len(b.BFS) && in == len(n.BFS)
	for _, r := range out {
		ok = ok && len(r[0]) > 0 && len(r[1]) > 0
	}
	if !ok {
		return sampleRounds{{validTEPS(b), validTEPS(n)}}
	}
	return out
}

// bootstrapRatio is the percentile bootstrap interval, at the given level,
// of the ratio of medians new/base. With one round, each side's searches
// are resampled with replacement, independently; with several, whole
// rounds are (both sides of a round together, as they ran side by side).
// The generator has a fixed seed, so a report is reproducible.
func bootstrapRatio(rounds sampleRounds, level float64) (lo, hi float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	ratios := make([]float64, bootstrapResamples)
	var b, n []float64
	for i := range ratios {
		b, n = b[:0], n[:0]
		if len(rounds) == 1 {
			b = resample(rng, rounds[0][0], b)
			n = resample(rng, rounds[0][1], n)
		} else {
			for range rounds {
				r := rounds[rng.IntN(len(rounds))]
				b, n = append(b, r[0]...), append(n, r[1]...)
			}
		}
		ratios[i] = sortedMedian(n) / sortedMedian(b)
	}
	slices.Sort(ratios)
	at := func(q float64) float64 {
		return ratios[min(len(ratios)-1, max(0, int(math.Round(q*float64(len(ratios)-1)))))]
	}
	return at((1 - level) / 2), at((1 + level) / 2)
}

// resample appends len(xs) values drawn from xs with replacement to dst.
func resample(rng *rand.Rand, xs, dst []float64) []float64 {
	for range xs {
		dst = append(dst, xs[rng.IntN(len(xs))])
	}
	return dst
}

// sortedMedian sorts xs in place and returns its median.
func sortedMedian(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// MachineDiff says how the machines of two runs differ in what decides
// their speed (CPU model, GPU models, driver version), "" when they do
// not. Host names are not compared: CI runners of one class differ in
// name only. A run that recorded no machine differs from one that did.
func MachineDiff(a, b results.Env) string {
	recorded := func(e results.Env) bool { return e.CPUModel != "" || len(e.GPUModels) > 0 }
	switch {
	case !recorded(a) && !recorded(b):
		return ""
	case !recorded(a):
		return "base machine not recorded, new on " + b.Describe()
	case !recorded(b):
		return "new machine not recorded, base on " + a.Describe()
	}
	var d []string
	if a.CPUModel != b.CPUModel {
		d = append(d, fmt.Sprintf("CPU %q vs %q", a.CPUModel, b.CPUModel))
	}
	if ga, gb := strings.Join(a.GPUModels, ", "), strings.Join(b.GPUModels, ", "); ga != gb {
		d = append(d, fmt.Sprintf("GPU %q vs %q", ga, gb))
	}
	if a.DriverVersion != b.DriverVersion {
		d = append(d, fmt.Sprintf("driver %q vs %q", a.DriverVersion, b.DriverVersion))
	}
	return strings.Join(d, ", ")
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

// ParamDiff describes how the parameters changed from old to new: "k: a -> b"
// for a changed value, "+k=v" for a new one, "-k" for a dropped one, in key
// order.
func ParamDiff(old, new map[string]any) string {
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
