// This file draws the per-level plots, from the phase times the variants
// report for each BFS level (results.LevelPhase):
//   - phases_<case>: per case, stacked bars of phase times at each level,
//     after the breakdown of [Bisson] Fig. 7, drawn per level;
//   - phases_by_case: per case, stacked phase times summed over the levels
//     and averaged over the searches, exactly as [Bisson] Fig. 7;
//   - levels_time[_<workload>]: the time of each level, one line per case,
//     after [Krajecki] Fig. 2 (time per BFS iteration).
//
// Papers are cited by their keys in docs/papers.md.
//
// Choices where the papers do not say:
//   - a level's time is the sum of the phase times the variant reports for
//     it; a variant that overlaps phases makes this more than wall time;
//   - searches differ in depth, so the value at level ℓ is the mean over the
//     valid searches that reach ℓ (the typical cost of level ℓ), while
//     phases_by_case averages whole-search sums over all valid searches;
//   - phases are stacked and coloured in name order, the same in every plot;
//   - a case whose variant reports no phases (sdk.Search.Phases) has no
//     line or bar; the caption of levels_time and phases_by_case names it.

package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/bfsbench/bfsbench/harness/results"
)

// levelProfile is the phase times of one case, averaged over its valid
// searches that report phases.
type levelProfile struct {
	searches int                  // valid searches with phases
	levels   []int                // level numbers present, ascending
	phases   []string             // phase names, sorted
	atLevel  map[string][]float64 // phase → mean time per level index
	total    []float64            // mean sum of phase times per level index
	reached  []int                // searches reaching each level index
	perBFS   map[string]float64   // phase → mean over searches of its sum over levels
}

// profile computes c's level profile over its valid searches; searches ==
// 0 when they have no phases.
func profile(c *results.Case) levelProfile { return profileOf(validSearches(c)) }

// profileOf computes the level profile of the searches that report phases.
func profileOf(searches []results.Search) levelProfile {
	pr := levelProfile{atLevel: map[string][]float64{}, perBFS: map[string]float64{}}
	sum := map[int]map[string]float64{} // level → phase → summed time
	tot := map[int]float64{}
	cnt := map[int]int{}
	names := map[string]bool{}
	for _, s := range searches {
		if len(s.Phases) == 0 {
			continue
		}
		pr.searches++
		for _, lp := range s.Phases {
			if sum[lp.Level] == nil {
				sum[lp.Level] = map[string]float64{}
			}
			cnt[lp.Level]++
			for name, t := range lp.Times {
				names[name] = true
				sum[lp.Level][name] += t
				tot[lp.Level] += t
				pr.perBFS[name] += t
			}
		}
	}
	if pr.searches == 0 {
		return pr
	}
	for name := range names {
		pr.phases = append(pr.phases, name)
		pr.perBFS[name] /= float64(pr.searches)
	}
	sort.Strings(pr.phases)
	for lvl := range cnt {
		pr.levels = append(pr.levels, lvl)
	}
	sort.Ints(pr.levels)
	for _, lvl := range pr.levels {
		n := float64(cnt[lvl])
		pr.reached = append(pr.reached, cnt[lvl])
		pr.total = append(pr.total, tot[lvl]/n)
		for _, name := range pr.phases {
			pr.atLevel[name] = append(pr.atLevel[name], sum[lvl][name]/n)
		}
	}
	return pr
}

// phaseFigures returns the phase and level plots for the cases that report
// phases (none when no case does).
func phaseFigures(pts []point, l labeller) ([]*figure, error) {
	var withPh, without []point
	profiles := map[*results.Case]levelProfile{}
	for _, p := range pts {
		if pr := profile(p.c); pr.searches > 0 {
			withPh = append(withPh, p)
			profiles[p.c] = pr
		} else if len(validSearches(p.c)) > 0 {
			without = append(without, p)
		}
	}
	if len(withPh) == 0 {
		return nil, nil
	}
	colour := phaseColours(withPh, profiles)
	var figs []*figure
	lt, err := levelTimeFigures(withPh, without, profiles)
	if err != nil {
		return nil, err
	}
	figs = append(figs, lt...)
	if len(withPh) > 1 {
		f, err := phasesByCaseFigure(withPh, profiles, colour)
		if err != nil {
			return nil, err
		}
		f.caption = joinNonEmpty("; ", f.caption, leftOut(without))
		figs = append(figs, f)
	}
	multiRun := false
	for _, p := range pts {
		multiRun = multiRun || p.run > 0
	}
	for _, p := range withPh {
		f, err := caseLevelsFigure(p, l, profiles[p.c], colour, multiRun)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// phaseColours gives every phase name one colour across all plots.
func phaseColours(pts []point, profiles map[*results.Case]levelProfile) map[string]int {
	names := map[string]bool{}
	for _, p := range pts {
		for _, n := range profiles[p.c].phases {
			names[n] = true
		}
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	colour := map[string]int{}
	for i, n := range sorted {
		colour[n] = i
	}
	return colour
}

// allPhases is the sorted union of the phase names of pts.
func allPhases(colour map[string]int) []string {
	names := make([]string, len(colour))
	for n, i := range colour {
		names[i] = n
	}
	return names
}

// addStack adds one bar chart per phase to f, each stacked on the one
// before, coloured by colour, with the values vals returns for the phase;
// horizontal bars grow left to right. It returns the charts in phase order.
func addStack(f *figure, phases []string, colour map[string]int, width vg.Length, horizontal bool,
	vals func(phase string) plotter.Values) ([]*plotter.BarChart, error) {
	var bars []*plotter.BarChart
	for _, ph := range phases {
		b, err := plotter.NewBarChart(vals(ph), width)
		if err != nil {
			return nil, fmt.Errorf("phase %s: %w", ph, err)
		}
		b.Horizontal = horizontal
		b.Color = palette[colour[ph]%len(palette)]
		b.LineStyle.Width = vg.Points(0.5)
		if len(bars) > 0 {
			b.StackOn(bars[len(bars)-1])
		}
		bars = append(bars, b)
		f.add(b)
	}
	return bars, nil
}

// caseLevelsFigure draws one case's phase times per level as stacked bars.
func caseLevelsFigure(p point, l labeller, pr levelProfile, colour map[string]int, multiRun bool) (*figure, error) {
	name := fmt.Sprintf("phases_c%02d_%s", p.idx+1, slug(p.c.Variant+"_"+p.c.Backend))
	if multiRun {
		name = fmt.Sprintf("phases_r%d_c%02d_%s", p.run+1, p.idx+1, slug(p.c.Variant+"_"+p.c.Backend))
	}
	mul, unit := timeUnit(maxFloat(pr.total))
	f := newFigure(name, "Phase times per BFS level: "+l.label(p),
		fmt.Sprintf("%s, mean over the %d valid searches reaching each level", p.c.Graph.Label(), pr.searches))
	f.p.X.Label.Text = "BFS level"
	f.p.Y.Label.Text = fmt.Sprintf("time (%s), phases stacked", unit)
	f.p.Add(plotter.NewGrid())
	bars, err := addStack(f, pr.phases, colour, barWidth(len(pr.levels), f.w), false, func(ph string) plotter.Values {
		vals := make(plotter.Values, len(pr.levels))
		for i, t := range pr.atLevel[ph] {
			vals[i] = t * mul
		}
		return vals
	})
	if err != nil {
		return nil, err
	}
	// Legend top to bottom as the stack reads top to bottom.
	for i := len(bars) - 1; i >= 0; i-- {
		f.legend.Add(pr.phases[i], bars[i])
	}
	if len(pr.levels) <= maxNamedLevels {
		var ticks []string
		for i, lvl := range pr.levels {
			ticks = append(ticks, fmt.Sprintf("%d", lvl))
			if pr.reached[i] < pr.searches {
				ticks[i] += fmt.Sprintf("\n(%d)", pr.reached[i])
			}
		}
		f.p.NominalX(ticks...)
		if hasPartialLevels(pr) {
			f.p.X.Label.Text = "BFS level (searches reaching it, where not all)"
		}
	} else {
		// Deep searches (a high-diameter graph): numeric ticks, bars at
		// their level numbers (levels are numbered from the first one on).
		for _, b := range bars {
			b.XMin = float64(pr.levels[0])
		}
	}
	f.p.Y.Min = 0
	return f, nil
}

func hasPartialLevels(pr levelProfile) bool {
	for _, n := range pr.reached {
		if n < pr.searches {
			return true
		}
	}
	return false
}

// maxNamedLevels is the most levels labelled one by one; deeper searches
// get ordinary numeric ticks.
const maxNamedLevels = 24

// barWidth fits n bars (or stacks) in a plot w wide.
func barWidth(n int, w vg.Length) vg.Length {
	return min(vg.Points(40), (w-vg.Inch)/vg.Length(n+1)*0.7)
}

// phasesByCaseFigure draws [Bisson] Fig. 7: per case, the phase times
// summed over the levels and averaged over searches, stacked; one
// horizontal bar per case so long case names stay readable.
func phasesByCaseFigure(pts []point, profiles map[*results.Case]levelProfile, colour map[string]int) (*figure, error) {
	l := newLabeller(pts)
	names := caseNames(pts, l)
	n := len(pts)
	phases := allPhases(colour)
	var maxTotal float64
	for _, p := range pts {
		var t float64
		for _, v := range profiles[p.c].perBFS {
			t += v
		}
		maxTotal = math.Max(maxTotal, t)
	}
	mul, unit := timeUnit(maxTotal)
	f := newFigure("phases_by_case", "Phase times per BFS, summed over levels", joinNonEmpty("; ", l.common(pts), "mean over valid searches"))
	f.p.X.Label.Text = fmt.Sprintf("time per BFS (%s), phases stacked", unit)
	f.p.Add(plotter.NewGrid())
	bars, err := addStack(f, phases, colour, vg.Points(14), true, func(ph string) plotter.Values {
		vals := make(plotter.Values, n)
		for i, p := range pts {
			vals[n-1-i] = profiles[p.c].perBFS[ph] * mul // first case on top
		}
		return vals
	})
	if err != nil {
		return nil, err
	}
	// Stacks grow left to right: list the phases in that order.
	for i, b := range bars {
		f.legend.Add(phases[i], b)
	}
	rev := make([]string, n)
	for i, s := range names {
		rev[n-1-i] = s
	}
	f.p.NominalY(rev...)
	f.p.X.Min = 0
	f.sizeForCases(names)
	return f, nil
}

// leftOut is the caption's note naming the variants of pts, the cases of
// a figure's workloads that report no per-level phases; "" when none.
func leftOut(pts []point) string {
	var names []string
	for _, p := range pts {
		if !slices.Contains(names, p.c.Variant) {
			names = append(names, p.c.Variant)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "not shown, no per-level phases reported: " + strings.Join(names, ", ")
}

// workloadKey names the workload of c: levels of different graphs do not
// compare.
func workloadKey(p point) string {
	name := p.c.Graph.Label()
	if p.graph != "" {
		name = p.graph // two graph files of one name apart
	}
	return fmt.Sprintf("%s seed %d,%d", name, p.c.Graph.Seed[0], p.c.Graph.Seed[1])
}

// levelTimeFigures draws [Krajecki] Fig. 2: the time of each BFS level, one
// line per case, one figure per workload (levels of different graphs do
// not compare); the caption names the cases of the workload in without
// (no phases reported).
func levelTimeFigures(pts, without []point, profiles map[*results.Case]levelProfile) ([]*figure, error) {
	groups, order := map[string][]point{}, []string(nil)
	for _, p := range pts {
		k := workloadKey(p)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	missing := map[string][]point{}
	for _, p := range without {
		k := workloadKey(p)
		missing[k] = append(missing[k], p)
	}
	var figs []*figure
	for _, k := range order {
		name := "levels_time"
		if len(order) > 1 {
			name += "_" + slug(k)
		}
		f, err := levelTimeFigure(name, groups[k], profiles)
		if err != nil {
			return nil, err
		}
		f.caption = joinNonEmpty("; ", f.caption, leftOut(missing[k]))
		figs = append(figs, f)
	}
	return figs, nil
}

func levelTimeFigure(name string, pts []point, profiles map[*results.Case]levelProfile) (*figure, error) {
	l := newLabeller(pts)
	names := caseNames(pts, l)
	lo, hi := math.Inf(1), 0.0
	maxLevel := 0
	for _, p := range pts {
		pr := profiles[p.c]
		for i, t := range pr.total {
			if t > 0 {
				lo, hi = math.Min(lo, t), math.Max(hi, t)
			}
			maxLevel = max(maxLevel, pr.levels[i])
		}
	}
	mul, unit := timeUnit(hi)
	f := newFigure(name, "Time per BFS level (sum of phase times)",
		joinNonEmpty("; ", l.common(pts), "mean over valid searches reaching the level"))
	f.p.X.Label.Text = "BFS level"
	f.p.Y.Label.Text = "time (" + unit + ")"
	f.p.Add(plotter.NewGrid())
	logY := useLog(&f.p.Y, lo*mul, hi*mul, 20)
	for i, p := range pts {
		pr := profiles[p.c]
		var xy plotter.XYs
		for j, t := range pr.total {
			if t > 0 || !logY { // a log axis cannot show 0
				xy = append(xy, plotter.XY{X: float64(pr.levels[j]), Y: t * mul})
			}
		}
		if len(xy) == 0 {
			continue
		}
		lp, sp, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
		c, g, dash := seriesStyle(i)
		lp.Color, lp.Dashes, sp.Color, sp.Shape = c, dash, c, g
		lp.Width = vg.Points(1.5)
		f.p.Add(lp, sp)
		f.legend.Add(names[i], lp, sp)
	}
	if maxLevel < maxNamedLevels {
		var levels []float64
		for lvl := 0; lvl <= maxLevel; lvl++ {
			levels = append(levels, float64(lvl))
		}
		f.p.X.Tick.Marker = valueTicks(levels)
	}
	f.p.X.Min, f.p.X.Max = -0.3, float64(maxLevel)+0.3
	if !logY {
		f.p.Y.Min = 0
	}
	return f, nil
}

func maxFloat(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}
