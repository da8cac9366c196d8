// This file draws the figures a config declares ([[figure]] tables,
// config.Figure) from a run's cases: figure-<name>.png and .svg, with a
// paper's own values beside ours when the figure names a reference CSV.
//
// What a y quantity is for one case (valid searches only, cases with
// status ok only, as every plot here):
//   - gteps: the harmonic mean of the searches' TEPS (Graph500's mean);
//   - speedup: gteps over the series' gteps at its first x;
//   - time: the median search time; per level, the mean over the searches
//     reaching the level of the sum of the level's phase times;
//   - phase:<name>: the phase's time summed over the levels, averaged over
//     the searches (Bisson et al.'s Fig. 7 way); per level, its mean;
//   - bytes:<name>, edges_examined: the counter summed over the levels,
//     averaged over the searches; per level, its mean;
//   - phases, bytes (kind stacked): every phase, or every byte counter,
//     stacked.
//
// A paper's series is drawn dashed in the colour of our series of the same
// name, labelled with the paper and its hardware.

package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/results"
)

// Figures draws each of figs over the merged cases of runs into dir
// (created if missing) and returns the paths written. A figure's reference
// CSV is read from its path relative to its config file, else from the
// folders refDirs (by file name); it is copied into dir, so that a results
// folder redraws on its own. A figure that cannot be drawn does not stop
// the others: the errors are joined.
func Figures(runs []*results.Run, figs []*config.Figure, dir string, refDirs []string) ([]string, error) {
	return FiguresContext(context.Background(), runs, figs, dir, refDirs)
}

// FiguresContext is Figures that stops between two figures once ctx
// ends, returning its error.
func FiguresContext(ctx context.Context, runs []*results.Run, figs []*config.Figure, dir string, refDirs []string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(figs) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var pts []point
	for _, p := range collect(runs) {
		if plottable(p.c) {
			pts = append(pts, p)
		}
	}
	var written []string
	var errs []error
	for _, cf := range figs {
		if err := ctx.Err(); err != nil {
			return written, err
		}
		var ref *Reference
		if cf.Reference != "" {
			var path string
			var err error
			ref, path, err = FindReference(cf, refDirs)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			dst := filepath.Join(dir, filepath.Base(path))
			if !sameFile(path, dst) {
				if err := writeFile(dst, ref.raw); err != nil {
					errs = append(errs, fmt.Errorf("report: %w", err))
				} else {
					written = append(written, dst)
				}
			}
		}
		f, err := declaredFigure(cf, pts, ref)
		if err != nil {
			errs = append(errs, fmt.Errorf("report: figure %s: %w", cf.Name, err))
			continue
		}
		paths, err := f.save(dir)
		written = append(written, paths...)
		if err != nil {
			errs = append(errs, fmt.Errorf("report: figure %s: %w", cf.Name, err))
		}
	}
	return written, errors.Join(errs...)
}

// FindReference reads f's reference CSV: at its path relative to the
// config file, else by its file name in one of dirs. It returns the path
// read; errors name the config's file, line and key.
func FindReference(f *config.Figure, dirs []string) (*Reference, string, error) {
	cands := []string{f.ReferencePath()}
	for _, d := range dirs {
		cands = append(cands, filepath.Join(d, filepath.Base(f.Reference)))
	}
	var firstErr error
	for _, c := range cands {
		r, err := LoadReference(c)
		if err == nil {
			return r, c, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, "", f.Errorf("reference", "%v", err)
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, "", f.Errorf("reference", "%v", firstErr)
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// dimValue is the value of dimension d for p ("" where it does not apply):
// variant, backend, plugin, scale, ef (edgefactor), ranks, gpus (CPU cases
// have none), grid, nbfs, seed, or a parameter.
func dimValue(p point, d string) string {
	c := p.c
	switch d {
	case "variant":
		return c.Variant
	case "backend":
		return c.Backend
	case "plugin":
		return c.Plugin
	case "scale":
		if c.Graph.File != "" {
			return ""
		}
		return strconv.Itoa(c.Graph.Scale)
	case "ef", "edgefactor":
		if c.Graph.File != "" {
			return ""
		}
		return strconv.Itoa(c.Graph.EdgeFactor)
	case "graph":
		return p.graph
	case "ranks":
		return strconv.Itoa(c.Ranks)
	case "gpus":
		if c.GPUs == 0 {
			return ""
		}
		return strconv.Itoa(c.GPUs)
	case "grid":
		if c.Grid == [2]int{} {
			if c.Ranks == 1 {
				return "1x1"
			}
			return ""
		}
		return fmt.Sprintf("%dx%d", c.Grid[0], c.Grid[1])
	case "nbfs":
		return strconv.Itoa(len(c.BFS))
	case "seed":
		return fmt.Sprintf("%d,%d", c.Graph.Seed[0], c.Graph.Seed[1])
	}
	v, ok := c.Params[d]
	if !ok {
		return ""
	}
	return paramString(v)
}

// sameValue compares a case's value with a config's, numerically where
// both are numbers (4 and 4.0 are one value).
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}

// keep reports whether p passes the figure's only list.
func keep(p point, only []map[string]string) bool {
	if len(only) == 0 {
		return true
	}
	for _, m := range only {
		ok := true
		for d, v := range m {
			ok = ok && sameValue(dimValue(p, d), v)
		}
		if ok {
			return true
		}
	}
	return false
}

// sample is one value of a figure: a case's y at one x, per component
// ("" for a single quantity; phase or counter names when stacked).
type sample struct {
	series string
	x      string
	y      map[string]float64
	p      point
}

// samples computes the samples of the cases in pts for f.
func samples(f *config.Figure, pts []point) ([]sample, error) {
	var out []sample
	for _, p := range pts {
		ss, err := caseSamples(f, p)
		if err != nil {
			return nil, err
		}
		out = append(out, ss...)
	}
	return out, nil
}

// caseSamples is p's samples: one per level for x = level, else one (none
// where p has no value of x or of y).
func caseSamples(f *config.Figure, p point) ([]sample, error) {
	phase, isPhase := f.PhaseY()
	counter, isBytes := f.BytesY()
	if f.Y == "edges_examined" {
		counter, isBytes = "edges_examined", true
	}
	valid := validSearches(p.c)
	if f.X == config.XLevel {
		pr := profileOf(valid)
		if pr.searches == 0 {
			return nil, nil
		}
		byLevel := levelCounters(valid)
		var out []sample
		for i, lvl := range pr.levels {
			y := map[string]float64{}
			switch {
			case f.Y == "time":
				y[""] = pr.total[i]
			case isPhase:
				if !contains(pr.phases, phase) {
					return nil, nil
				}
				y[""] = pr.atLevel[phase][i]
			case f.Y == "phases":
				for _, ph := range pr.phases {
					y[ph] = pr.atLevel[ph][i]
				}
			case isBytes:
				v, ok := byLevel[lvl][counter]
				if !ok {
					continue
				}
				y[""] = v
			case f.Y == "bytes":
				for k, v := range byLevel[lvl] {
					y[k] = v
				}
			}
			out = append(out, sample{x: strconv.Itoa(lvl), y: y, p: p})
		}
		return out, nil
	}
	x := dimValue(p, f.X)
	if x == "" {
		return nil, nil
	}
	y := map[string]float64{}
	switch {
	case f.Y == "gteps" || f.Y == "speedup":
		y[""] = harmonicMean(validTEPS(p.c))
	case f.Y == "time":
		var ts []float64
		for _, s := range valid {
			ts = append(ts, s.TimeS)
		}
		y[""] = median(ts)
	case f.Y == "transfer":
		var ts []float64
		for _, s := range valid {
			ts = append(ts, s.TransferTimeS)
		}
		y[""] = median(ts)
	case isPhase || f.Y == "phases":
		pr := profileOf(valid)
		if pr.searches == 0 {
			return nil, nil
		}
		if isPhase {
			v, ok := pr.perBFS[phase]
			if !ok {
				return nil, nil
			}
			y[""] = v
		} else {
			for k, v := range pr.perBFS {
				y[k] = v
			}
		}
	case isBytes || f.Y == "bytes":
		sums, n := searchCounters(valid)
		if n == 0 {
			return nil, nil
		}
		if isBytes {
			v, ok := sums[counter]
			if !ok {
				return nil, nil
			}
			y[""] = v
		} else {
			for k, v := range sums {
				y[k] = v
			}
		}
	}
	return []sample{{x: x, y: y, p: p}}, nil
}

// levelCounters is the mean of each byte counter at each level over the
// searches reporting it at that level.
func levelCounters(searches []results.Search) map[int]map[string]float64 {
	sum := map[int]map[string]float64{}
	cnt := map[int]map[string]int{}
	for _, s := range searches {
		for _, lp := range s.Phases {
			if sum[lp.Level] == nil {
				sum[lp.Level], cnt[lp.Level] = map[string]float64{}, map[string]int{}
			}
			for k, v := range lp.Bytes {
				sum[lp.Level][k] += float64(v)
				cnt[lp.Level][k]++
			}
		}
	}
	for lvl, m := range sum {
		for k := range m {
			m[k] /= float64(cnt[lvl][k])
		}
	}
	return sum
}

// searchCounters is each byte counter summed over the levels, averaged
// over the searches that report counters, and how many did.
func searchCounters(searches []results.Search) (map[string]float64, int) {
	sum := map[string]float64{}
	n := 0
	for _, s := range searches {
		has := false
		for _, lp := range s.Phases {
			for k, v := range lp.Bytes {
				sum[k] += float64(v)
				has = true
			}
		}
		if has {
			n++
		}
	}
	for k := range sum {
		sum[k] /= float64(max(n, 1))
	}
	return sum, n
}

// nameSeries sets each sample's series from f.Series: "d=v" for each
// dimension, the variant as variant/backend. Where two samples of one
// series fall on one x, the labeller's full label tells them apart.
func nameSeries(f *config.Figure, ss []sample, pts []point) {
	backends := map[string]bool{}
	for _, s := range ss {
		backends[s.p.c.Backend] = true
	}
	withVariant := contains(f.Series, "variant")
	name := func(p point) string {
		var parts []string
		for _, d := range f.Series {
			switch v := dimValue(p, d); {
			case d == "variant":
				parts = append(parts, p.c.Variant+"/"+p.c.Backend)
			case v != "":
				parts = append(parts, d+"="+v)
			}
		}
		if len(parts) == 0 {
			return p.c.Variant + "/" + p.c.Backend
		}
		s := strings.Join(parts, " ")
		if !withVariant && len(backends) > 1 {
			s = p.c.Backend + " " + s // a plot never mixes backends silently
		}
		return s
	}
	for i := range ss {
		ss[i].series = name(ss[i].p)
	}
	seen := map[string]point{}
	clash := false
	for _, s := range ss {
		k := s.series + "\x00" + s.x
		if q, ok := seen[k]; ok && q.c != s.p.c {
			clash = true
			break
		}
		seen[k] = s.p
	}
	if !clash {
		return
	}
	l := newLabeller(pts)
	except := append([]string{f.X}, f.Series...)
	if f.X == "ef" || f.X == "edgefactor" {
		except = append(except, "ef")
	}
	for i := range ss {
		ss[i].series = l.label(ss[i].p, except...)
	}
}

// declaredFigure builds the figure f declares from pts.
func declaredFigure(f *config.Figure, all []point, ref *Reference) (*figure, error) {
	var pts []point
	for _, p := range all {
		if keep(p, f.Only) {
			pts = append(pts, p)
		}
	}
	ss, err := samples(f, pts)
	if err != nil {
		return nil, err
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("no valid case has a value of x = %q and y = %q (%d cases with status ok after the figure's only list)", f.X, f.Y, len(pts))
	}
	if ref != nil {
		if err := checkReference(f, ref); err != nil {
			return nil, err
		}
	}
	nameSeries(f, ss, pts)
	var order []string // series in the order they first appear
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s.series] {
			seen[s.series] = true
			order = append(order, s.series)
		}
	}
	xs := xAxis(f, ss, ref)
	if f.Y == "speedup" {
		speedups(ss, xs)
	}
	var used []point
	for _, s := range ss {
		used = append(used, s.p)
	}
	l := newLabeller(used)
	title := f.Title
	if title == "" {
		title = yName(f) + " against " + xName(f)
		if f.X == config.XLevel {
			title = yName(f)
		}
	}
	sub := []string{l.common(used), "valid searches only"}
	if !contains(f.Series, "variant") {
		// The variants are not in the legend: name them and their backends.
		var vs []string
		for _, p := range used {
			if v := p.c.Variant + "/" + p.c.Backend; !contains(vs, v) {
				vs = append(vs, v)
			}
		}
		sub = append([]string{strings.Join(vs, ", ")}, sub...)
	}
	if ref != nil {
		sub = append(sub, "dashed: "+ref.Paper+" ("+ref.Source+")")
		sub = append(sub, ref.Notes...)
	}
	fig := newFigure("figure-"+f.Name, title, joinNonEmpty("; ", sub...))
	fig.p.X.Label.Text = xName(f)
	switch f.Kind {
	case config.KindStacked:
		err = drawStacked(fig, f, ss, order, xs)
	case config.KindBar:
		err = drawBars(fig, f, ss, order, xs, ref)
	default:
		err = drawLines(fig, f, ss, order, xs, ref)
	}
	if err != nil {
		return nil, err
	}
	return fig, nil
}

// checkReference checks that ref's columns are the figure's x and y.
func checkReference(f *config.Figure, ref *Reference) error {
	want := "gteps"
	switch _, isPhase := f.PhaseY(); {
	case f.Y == "speedup":
		want = "speedup"
	case f.Y == "time" || f.Y == "transfer" || isPhase:
		want = "time"
	case f.Y == "edges_examined":
		want = "edges"
	case strings.HasPrefix(f.Y, "bytes:"):
		want = "bytes"
	}
	switch {
	case ref.Quantity != want:
		return f.Errorf("reference", "the CSV's y column is %s; figure y %q wants %s", ref.Quantity, f.Y, want)
	case ref.XName != f.X:
		return f.Errorf("reference", "the CSV's x column is %q; the figure's x is %q", ref.XName, f.X)
	}
	return nil
}

// axis is the x axis: numeric (values at themselves) or nominal
// (categories in order of first appearance, at 0, 1, ...).
type axis struct {
	numeric bool
	cats    []string
	pos     map[string]float64
}

func (a axis) at(x string) float64 { return a.pos[x] }

// xAxis places the x values of ss and of ref's rows.
func xAxis(f *config.Figure, ss []sample, ref *Reference) axis {
	var vals []string
	for _, s := range ss {
		vals = append(vals, s.x)
	}
	if ref != nil {
		for _, r := range ref.Rows {
			vals = append(vals, r.X)
		}
	}
	a := axis{numeric: true, pos: map[string]float64{}}
	for _, v := range vals {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			a.numeric = false
		}
		if _, ok := a.pos[v]; !ok {
			a.pos[v] = x
			a.cats = append(a.cats, v)
		}
	}
	if a.numeric {
		sort.SliceStable(a.cats, func(i, j int) bool { return a.pos[a.cats[i]] < a.pos[a.cats[j]] })
		if f.Kind == config.KindLine {
			return a
		}
	}
	// Bars, and names, sit at 0, 1, ... in order.
	for i, v := range a.cats {
		a.pos[v] = float64(i)
	}
	a.numeric = false
	return a
}

// speedups divides each series' values by its value at its first x.
func speedups(ss []sample, a axis) {
	base := map[string]float64{}
	first := map[string]float64{}
	for _, s := range ss {
		x := a.at(s.x)
		if b, ok := first[s.series]; !ok || x < b {
			first[s.series], base[s.series] = x, s.y[""]
		}
	}
	for i := range ss {
		if b := base[ss[i].series]; b > 0 {
			ss[i].y[""] /= b
		}
	}
}

// yScale is the factor and unit for y values up to maxY.
func yScale(f *config.Figure, maxY float64) (mul float64, label string) {
	ph, isPhase := f.PhaseY()
	switch {
	case f.Y == "gteps":
		div, unit := tepsUnit(maxY)
		if f.X == config.XLevel {
			return 1 / div, unit
		}
		return 1 / div, "harmonic-mean " + unit
	case f.Y == "speedup":
		return 1, "speedup over the first " + xName(f)
	case f.Y == "time" || f.Y == "transfer" || isPhase || f.Y == "phases":
		mul, unit := timeUnit(maxY)
		what := "median search time"
		if f.Y == "transfer" {
			what = "median transfer time of the parents to the host"
		}
		switch {
		case f.X == config.XLevel && isPhase:
			what = ph + " time per level"
		case f.X == config.XLevel:
			what = "time per level"
		case isPhase:
			what = ph + " time per search"
		case f.Y == "phases":
			what = "time per search, phases stacked"
		}
		return mul, what + " (" + unit + ")"
	case f.Y == "edges_examined":
		mul, unit := countUnit(maxY)
		return mul, "edges examined" + unit
	}
	c, _ := f.BytesY()
	if f.Y == "bytes" {
		c = "bytes, counters stacked"
	}
	mul, unit := bytesUnit(maxY)
	return mul, c + " (" + unit + ")"
}

func countUnit(max float64) (float64, string) {
	switch {
	case max >= 1e9:
		return 1e-9, " (billions)"
	case max >= 1e6:
		return 1e-6, " (millions)"
	case max >= 1e3:
		return 1e-3, " (thousands)"
	}
	return 1, ""
}

func bytesUnit(max float64) (float64, string) {
	switch {
	case max >= 1e9:
		return 1e-9, "GB"
	case max >= 1e6:
		return 1e-6, "MB"
	case max >= 1e3:
		return 1e-3, "kB"
	}
	return 1, "B"
}

// yName names the figure's y in a default title.
func yName(f *config.Figure) string {
	switch f.Y {
	case "gteps":
		return "Harmonic-mean GTEPS"
	case "speedup":
		return "Speedup"
	case "time":
		if f.X == config.XLevel {
			return "Time per BFS level"
		}
		return "Median search time"
	case "transfer":
		return "Median transfer time of the parents"
	case "phases":
		return "Phase times"
	case "bytes":
		return "Byte counters"
	case "edges_examined":
		return "Edges examined"
	}
	if ph, ok := f.PhaseY(); ok {
		return "Time of phase " + ph
	}
	b, _ := f.BytesY()
	return "Bytes of " + b
}

// xName names the figure's x on the axis.
func xName(f *config.Figure) string {
	if f.X == config.XLevel {
		return "BFS level"
	}
	return axisName(f.X)
}

// maxY is the largest value of the samples (of their stacks, when
// stacked) and of ref's rows.
func maxY(ss []sample, ref *Reference, stacked bool) float64 {
	m := 0.0
	for _, s := range ss {
		t := 0.0
		for _, v := range s.y {
			if stacked {
				t += v
			} else {
				t = math.Max(t, v)
			}
		}
		m = math.Max(m, t)
	}
	if ref != nil {
		for _, r := range ref.Rows {
			m = math.Max(m, r.Y)
		}
	}
	return m
}

// refSeries groups ref's rows by series, in file order.
func refSeries(ref *Reference) ([]string, map[string][]RefRow) {
	if ref == nil {
		return nil, nil
	}
	var order []string
	rows := map[string][]RefRow{}
	for _, r := range ref.Rows {
		if _, ok := rows[r.Series]; !ok {
			order = append(order, r.Series)
		}
		rows[r.Series] = append(rows[r.Series], r)
	}
	return order, rows
}

// styleIndex is the style of a series: ours in order, a paper's series
// takes the style of ours of the same name, else the next free one.
func styleIndex(order []string, name string, extra *int) int {
	for i, s := range order {
		if s == name {
			return i
		}
	}
	i := len(order) + *extra
	*extra++
	return i
}

func drawLines(fig *figure, f *config.Figure, ss []sample, order []string, a axis, ref *Reference) error {
	mul, label := yScale(f, maxY(ss, ref, false))
	fig.p.Y.Label.Text = label
	fig.p.Add(plotter.NewGrid())
	lo, hi := math.Inf(1), 0.0
	add := func(xy plotter.XYs, style int, name string, dashed bool) error {
		if f.LogY || f.LogX {
			var pos plotter.XYs
			for _, q := range xy {
				if (!f.LogY || q.Y > 0) && (!f.LogX || q.X > 0) {
					pos = append(pos, q)
				}
			}
			xy = pos
		}
		if len(xy) == 0 {
			return nil
		}
		sort.SliceStable(xy, func(i, j int) bool { return xy[i].X < xy[j].X })
		for _, q := range xy {
			lo, hi = math.Min(lo, q.Y), math.Max(hi, q.Y)
		}
		lp, sp, err := plotter.NewLinePoints(xy)
		if err != nil {
			return fmt.Errorf("series %s: %w", name, err)
		}
		c, g, dash := seriesStyle(style)
		if dashed {
			dash = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		lp.Color, lp.Dashes, sp.Color, sp.Shape = c, dash, c, g
		lp.Width = vg.Points(1.5)
		fig.p.Add(lp, sp)
		fig.legend.Add(name, lp, sp)
		return nil
	}
	for i, name := range order {
		var xy plotter.XYs
		for _, s := range ss {
			if s.series == name {
				xy = append(xy, plotter.XY{X: a.at(s.x), Y: s.y[""] * mul})
			}
		}
		if err := add(xy, i, name, false); err != nil {
			return err
		}
	}
	extra := 0
	rorder, rrows := refSeries(ref)
	for _, name := range rorder {
		var xy plotter.XYs
		for _, r := range rrows[name] {
			xy = append(xy, plotter.XY{X: a.at(r.X), Y: r.Y * mul})
		}
		if err := add(xy, styleIndex(order, name, &extra), ref.label(name), true); err != nil {
			return err
		}
	}
	if a.numeric {
		var vals []float64
		for _, c := range a.cats {
			vals = append(vals, a.pos[c])
		}
		lo, hi := vals[0], vals[len(vals)-1]
		switch {
		case f.LogX:
			if lo <= 0 {
				return f.Errorf("logx", "a log axis needs positive x values, got %g", lo)
			}
			logAxis(&fig.p.X, lo, hi)
		case hi > lo:
			fig.p.X.Min, fig.p.X.Max = lo-(hi-lo)*0.05, hi+(hi-lo)*0.05
		}
		if len(vals) <= 16 {
			fig.p.X.Tick.Marker = valueTicks(vals)
		}
	} else {
		if f.LogX {
			return f.Errorf("logx", "x %q has names, not numbers: no log axis", f.X)
		}
		fig.p.NominalX(a.cats...)
		fig.p.X.Min, fig.p.X.Max = -0.5, float64(len(a.cats))-0.5
	}
	switch {
	case f.LogY && hi > 0:
		logAxis(&fig.p.Y, lo, hi)
	case lo >= 0 && hi > 0:
		fig.p.Y.Min, fig.p.Y.Max = 0, hi*1.08
	}
	return nil
}

// logAxis puts a on a log scale over [lo, hi] with 1-2-5 ticks.
func logAxis(a *plot.Axis, lo, hi float64) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = plot.TickerFunc(ticks125)
	a.Min, a.Max = lo/1.3, hi*1.3
}

func drawBars(fig *figure, f *config.Figure, ss []sample, order []string, a axis, ref *Reference) error {
	mul, label := yScale(f, maxY(ss, ref, false))
	fig.p.Y.Label.Text = label
	fig.p.Add(plotter.NewGrid())
	rorder, rrows := refSeries(ref)
	nBars := len(order) + len(rorder)
	w := barWidth(len(a.cats)*nBars, fig.w)
	bar := 0
	add := func(vals plotter.Values, style int, name string, paper bool) error {
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return fmt.Errorf("series %s: %w", name, err)
		}
		c, _, _ := seriesStyle(style)
		b.Color = c
		b.LineStyle.Width = vg.Points(0.5)
		if paper {
			b.Color = rgb(0xffffff)
			b.LineStyle.Color = c
			b.LineStyle.Width = vg.Points(1.5)
			b.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		b.Offset = (vg.Length(bar) - vg.Length(nBars-1)/2) * w
		bar++
		fig.p.Add(b)
		fig.legend.Add(name, b)
		return nil
	}
	for i, name := range order {
		vals := make(plotter.Values, len(a.cats))
		for _, s := range ss {
			if s.series == name {
				vals[int(a.at(s.x))] = s.y[""] * mul
			}
		}
		if err := add(vals, i, name, false); err != nil {
			return err
		}
	}
	extra := 0
	for _, name := range rorder {
		vals := make(plotter.Values, len(a.cats))
		for _, r := range rrows[name] {
			vals[int(a.at(r.X))] = r.Y * mul
		}
		if err := add(vals, styleIndex(order, name, &extra), ref.label(name), true); err != nil {
			return err
		}
	}
	fig.p.NominalX(a.cats...)
	fig.p.X.Min, fig.p.X.Max = -0.5, float64(len(a.cats))-0.5
	fig.p.Y.Min = 0
	return nil
}

// drawStacked draws one stack per (x, series), the components (phases or
// counters) coloured alike in every stack.
func drawStacked(fig *figure, f *config.Figure, ss []sample, order []string, a axis) error {
	mul, label := yScale(f, maxY(ss, nil, true))
	fig.p.Y.Label.Text = label
	fig.p.Add(plotter.NewGrid())
	type slot struct{ x, series string }
	var slots []slot
	index := map[slot]int{}
	for _, x := range a.cats {
		for _, s := range order {
			for _, q := range ss {
				if q.x == x && q.series == s {
					k := slot{x, s}
					if _, ok := index[k]; !ok {
						index[k] = len(slots)
						slots = append(slots, k)
					}
				}
			}
		}
	}
	names := map[string]bool{}
	for _, s := range ss {
		for k := range s.y {
			names[k] = true
		}
	}
	var comps []string
	for k := range names {
		comps = append(comps, k)
	}
	sort.Strings(comps)
	colour := map[string]int{}
	for i, c := range comps {
		colour[c] = i
	}
	bars, err := addStack(fig, comps, colour, barWidth(len(slots), fig.w), false, func(comp string) plotter.Values {
		vals := make(plotter.Values, len(slots))
		for _, s := range ss {
			vals[index[slot{s.x, s.series}]] += s.y[comp] * mul
		}
		return vals
	})
	if err != nil {
		return err
	}
	for i := len(bars) - 1; i >= 0; i-- {
		fig.legend.Add(comps[i], bars[i])
	}
	if len(order) == 1 {
		fig.subtitle = joinNonEmpty("; ", order[0], fig.subtitle) // the one series, named nowhere else
	}
	ticks := make([]string, len(slots))
	for i, s := range slots {
		ticks[i] = s.x
		if len(order) > 1 {
			ticks[i] += "\n" + s.series
		}
	}
	fig.p.NominalX(ticks...)
	fig.p.X.Min, fig.p.X.Max = -0.5, float64(len(slots))-0.5
	fig.p.Y.Min = 0
	if len(slots) > 6 {
		fig.w = vg.Length(len(slots)) * vg.Points(60)
	}
	return nil
}
