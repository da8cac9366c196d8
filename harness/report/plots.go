// This file chooses and draws the TEPS plots from what the cases vary:
//   - teps_cases: the per-search TEPS of every case as a box plot, cases
//     side by side (one row each, so long names stay readable);
//   - teps_vs_<dimension>: harmonic-mean TEPS against the scale, the ranks,
//     the GPUs or a variant parameter, when it is swept, one line per
//     series (variant/backend × the other settings that vary).
//
// Only cases with status ok are drawn, and only valid searches carry TEPS.
// The backend is in every series label, so no plot mixes backends silently.
// The phase plots are in phases.go.

package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// buildFigures returns every figure pts have something to show for.
func buildFigures(pts []point) ([]*figure, error) {
	var ok []point
	for _, p := range pts {
		if plottable(p.c) {
			ok = append(ok, p)
		}
	}
	if len(ok) == 0 {
		return nil, nil
	}
	l := newLabeller(ok)
	var figs []*figure
	f, err := tepsCasesFigure(ok, l)
	if err != nil {
		return nil, err
	}
	figs = append(figs, f)
	for _, d := range sweepDimensions(ok, l) {
		f, err := sweepFigure(ok, l, d)
		if err != nil {
			return nil, err
		}
		if f != nil {
			figs = append(figs, f)
		}
	}
	pf, err := phaseFigures(ok, l)
	if err != nil {
		return nil, err
	}
	return append(figs, pf...), nil
}

// tepsCasesFigure draws one horizontal box per case over the TEPS of its
// valid searches (box: quartiles; whiskers: the furthest values within 1.5
// IQR; dots: the values beyond), with the harmonic mean marked.
func tepsCasesFigure(pts []point, l labeller) (*figure, error) {
	names := caseNames(pts, l)
	lo, hi := math.Inf(1), 0.0
	for _, p := range pts {
		for _, t := range validTEPS(p.c) {
			lo, hi = math.Min(lo, t), math.Max(hi, t)
		}
	}
	div, unit := tepsUnit(hi)
	f := newFigure("teps_cases", "TEPS per case over its valid searches", l.common(pts))
	f.legend.Add("box: quartiles, median line")
	f.p.X.Label.Text = unit + " (per search)"
	f.p.Add(plotter.NewGrid())
	n := len(pts)
	var hm plotter.XYs
	for i, p := range pts {
		var vals plotter.Values
		for _, t := range validTEPS(p.c) {
			vals = append(vals, t/div)
		}
		// The first case is drawn at the top.
		y := float64(n - 1 - i)
		b, err := plotter.NewBoxPlot(vg.Points(14), y, vals)
		if err != nil {
			return nil, fmt.Errorf("box plot of %s: %w", names[i], err)
		}
		b.Horizontal = true
		b.FillColor = rgb(0xc6dbef) // light, so the median line and mean dot show
		b.BoxStyle.Width = vg.Points(0.8)
		b.MedianStyle.Width = vg.Points(1.5)
		f.p.Add(b)
		hm = append(hm, plotter.XY{X: harmonicMean(validTEPS(p.c)) / div, Y: y})
	}
	rev := make([]string, n)
	for i, s := range names {
		rev[n-1-i] = s
	}
	f.p.NominalY(rev...)
	s, err := plotter.NewScatter(hm)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle.Shape = draw.CircleGlyph{}
	s.GlyphStyle.Color = palette[2]
	s.GlyphStyle.Radius = vg.Points(3)
	f.p.Add(s)
	f.legend.Add("harmonic mean", s)
	f.legend.Add("whiskers: 1.5 IQR; dots: outliers")
	if !useLog(&f.p.X, lo/div, hi/div, 30) {
		f.p.X.Min, f.p.X.Max = 0, hi/div*1.05
	}
	f.sizeForCases(names)
	return f, nil
}

// sizeForCases sizes a figure with one row per case name on the Y axis:
// room for the longest name, and 22 points per case.
func (f *figure) sizeForCases(names []string) {
	var wName vg.Length
	for _, s := range names {
		wName = max(wName, f.p.Y.Tick.Label.Width(s))
	}
	f.w = 5*vg.Inch + wName
	f.h = max(3*vg.Inch, vg.Length(len(names))*vg.Points(22)+1.5*vg.Inch)
}

// caseNames labels pts by what varies, numbering duplicates.
func caseNames(pts []point, l labeller) []string {
	names := make([]string, len(pts))
	count := map[string]int{}
	for i, p := range pts {
		names[i] = l.label(p)
		count[names[i]]++
	}
	seen := map[string]int{}
	for i, s := range names {
		if count[s] > 1 {
			seen[s]++
			names[i] = fmt.Sprintf("%s #%d", s, seen[s])
		}
	}
	return names
}

// sweepDimensions lists the dimensions worth a TEPS-against plot: those that
// vary, in label order, scale and ranks first. The GPUs and the grid vary
// only where the ranks do not fix them (see newLabeller), otherwise the
// ranks plot shows them already. The seed, machine and run are not sweeps.
func sweepDimensions(pts []point, l labeller) []dimension {
	var first, params []dimension
	for _, d := range l.dims {
		switch {
		case !l.vary[d.name]:
		case d.name == "scale" || d.name == "ranks":
			first = append(first, d)
		case d.name == "gpus":
			first = append(first, d) // varies at equal ranks
		case d.name == "grid":
			first = append(first, d) // varies at equal ranks: 4×1 against 2×2
		case d.param, d.name == "ef":
			params = append(params, d)
		}
	}
	sort.SliceStable(first, func(i, j int) bool { return first[i].name == "scale" && first[j].name != "scale" })
	return append(first, params...)
}

// determines reports whether the value of d fixes the value of o among
// the pts where o applies (a 1D variant has no grid: it is told apart by
// its name already).
func determines(pts []point, d, o dimension) bool {
	seen := map[string]string{}
	for _, p := range pts {
		dv, ov := d.value(p), o.value(p)
		if ov == "" {
			continue
		}
		if prev, ok := seen[dv]; ok && prev != ov {
			return false
		}
		seen[dv] = ov
	}
	return true
}

// sweepFigure draws harmonic-mean TEPS against dimension d, one line per
// series; nil when no series has two points (nothing to show).
func sweepFigure(pts []point, l labeller, d dimension) (*figure, error) {
	// Points that have d (a parameter of another variant does not apply;
	// CPU cases have no GPUs).
	var on []point
	for _, p := range pts {
		if v := d.value(p); v != "" && !(d.name == "gpus" && p.c.GPUs == 0) {
			on = append(on, p)
		}
	}
	xs, numeric, ticks := xPositions(on, d)
	// Dimensions that follow from x (the grid from the ranks, say) would
	// split every series into single points: leave them out of the labels.
	except := []string{d.name}
	for _, o := range l.dims {
		if o.name != d.name && l.vary[o.name] && determines(on, d, o) {
			except = append(except, o.name)
		}
	}
	series, order := map[string]plotter.XYs{}, []string(nil)
	maxT, minT := 0.0, math.Inf(1)
	for _, p := range on {
		key := l.label(p, except...)
		if _, ok := series[key]; !ok {
			order = append(order, key)
		}
		t := harmonicMean(validTEPS(p.c))
		maxT, minT = math.Max(maxT, t), math.Min(minT, t)
		series[key] = append(series[key], plotter.XY{X: xs[d.value(p)], Y: t})
	}
	if !anyLonger(series, 1) {
		return nil, nil
	}
	div, unit := tepsUnit(maxT)
	f := newFigure("teps_vs_"+slug(d.name), "Harmonic-mean TEPS against "+axisName(d.name),
		joinNonEmpty("; ", l.common(on), "valid searches only"))
	f.p.Add(plotter.NewGrid())
	f.p.X.Label.Text = axisName(d.name)
	f.p.Y.Label.Text = "harmonic-mean " + unit
	for i, key := range order {
		xy := series[key]
		sort.SliceStable(xy, func(a, b int) bool { return xy[a].X < xy[b].X })
		for j := range xy {
			xy[j].Y /= div
		}
		lp, sp, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("series %s: %w", key, err)
		}
		c, g, dash := seriesStyle(i)
		lp.Color, lp.Dashes, sp.Color, sp.Shape = c, dash, c, g
		lp.Width = vg.Points(1.5)
		f.p.Add(lp, sp)
		f.legend.Add(key, lp, sp)
	}
	if numeric {
		// Powers of two (ranks 1..64, edges per thread 1..32) read best on
		// a log axis; a few sweep points are labelled exactly.
		vals := sortedValues(xs)
		lo, hi := vals[0], vals[len(vals)-1]
		if !useLog(&f.p.X, lo, hi, 7) {
			f.p.X.Min, f.p.X.Max = lo-(hi-lo)*0.05, hi+(hi-lo)*0.05
		}
		if len(vals) <= 12 {
			f.p.X.Tick.Marker = valueTicks(vals)
		}
	} else {
		f.p.NominalX(ticks...)
		f.p.X.Min, f.p.X.Max = -0.5, float64(len(ticks))-0.5
	}
	if !useLog(&f.p.Y, minT/div, maxT/div, 30) {
		f.p.Y.Min = 0
		f.p.Y.Max = maxT / div * 1.08
	}
	return f, nil
}

// xPositions maps each value of d among pts to an x coordinate: the number
// itself when every value is numeric, else the index of the value in sorted
// order (a nominal axis whose labels are returned).
func xPositions(pts []point, d dimension) (pos map[string]float64, numeric bool, labels []string) {
	pos = map[string]float64{}
	numeric = true
	for _, p := range pts {
		v := d.value(p)
		if _, ok := pos[v]; ok {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			numeric = false
		}
		pos[v] = x
	}
	if numeric {
		return pos, true, nil
	}
	for v := range pos {
		labels = append(labels, v)
	}
	sort.Strings(labels)
	for i, v := range labels {
		pos[v] = float64(i)
	}
	return pos, false, labels
}

func sortedValues(m map[string]float64) []float64 {
	var vs []float64
	for _, v := range m {
		vs = append(vs, v)
	}
	sort.Float64s(vs)
	return vs
}

func anyLonger(series map[string]plotter.XYs, n int) bool {
	for _, xy := range series {
		if len(xy) > n {
			return true
		}
	}
	return false
}

// axisName is how a dimension is named on an axis.
func axisName(d string) string {
	switch d {
	case "scale":
		return "scale (log2 of vertices)"
	case "ef":
		return "edge factor"
	case "ranks":
		return "ranks"
	case "gpus":
		return "GPUs"
	}
	return d
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, sep)
}

// indexOf returns the index of the dimension named name in dims.
func indexOf(dims []dimension, name string) int {
	for i, d := range dims {
		if d.name == name {
			return i
		}
	}
	panic("report: no dimension " + name) // dimensions() always has the fixed ones
}
