// This file draws the figures a config declares ([[figure]] tables,
// config.Figure) from a run's cases: figure-<name>.png and .svg, with a
// paper's own values beside ours when the figure names a reference CSV.
// What a y quantity is for one case is in quantity.go; the x axis of
// scaling figures (x = "gpus" or "ranks") in scaling.go.
//
// The drawing rules every declared figure follows:
//   - the title is the paper and the figure, at most two lines; what the
//     cases share (variants, workload, searches, machine, the statistic) is
//     a one-line caption under the plot; notes go in the results' README;
//   - the paper's values are drawn dashed in the colour of the series they
//     match, named "paper" once in the legend (a value the text tags, say
//     "Gaming", carries its tag beside it); legend entries are short, the
//     dimension they vary named once above them;
//   - log axes are labelled at 1, 2 and 5 of every decade, and every y
//     label names its unit; series of very different size (more than
//     autoLogRatio apart) get a log y axis;
//   - every point carries its spread over the searches: error bars from the
//     first to the third quartile;
//   - a case that failed or did not validate is marked where it would
//     stand (a cross at the bottom, its status beside it), never dropped;
//   - a figure with no data, or whose every value is zero, is an error,
//     never an empty plot.

package report

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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
	pts := collect(runs) // every case: those that failed are marked
	var written []string
	var errs []error
	for _, cf := range figs {
		if err := ctx.Err(); err != nil {
			return written, err
		}
		if cf.Kind == config.KindTable {
			paths, err := writeDeclaredTable(cf, pts, dir)
			written = append(written, paths...)
			if err != nil {
				errs = append(errs, fmt.Errorf("report: table %s: %w", cf.Name, err))
			}
			continue
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
// ("" for a single quantity; item, phase or counter names otherwise).
type sample struct {
	series string // the series' key: what a paper's series matches
	label  string // the series' legend entry
	x      string // the x value (a place's key on a scaling axis)
	y      map[string]stat
	p      point
}

// isScaling reports whether f's x is a scaling axis (GPUs or ranks).
func isScaling(f *config.Figure) bool { return f.X == "gpus" || f.X == "ranks" }

// xValue is p's x value for f ("" where p has none); per level, the
// levels come from the samples.
func xValue(f *config.Figure, p point) string {
	if isScaling(f) {
		return placeOf(p.c).key()
	}
	return dimValue(p, f.X)
}

// samples computes the samples of the cases in pts for f.
func samples(f *config.Figure, q quantity, pts []point) []sample {
	var out []sample
	for _, p := range pts {
		if f.X == config.XLevel {
			byLevel := q.perLevel(p.c)
			var lvls []int
			for l := range byLevel {
				lvls = append(lvls, l)
			}
			sort.Ints(lvls)
			for _, l := range lvls {
				out = append(out, sample{x: strconv.Itoa(l), y: byLevel[l], p: p})
			}
			continue
		}
		x := xValue(f, p)
		if x == "" {
			continue
		}
		if y := q.whole(p.c); y != nil {
			out = append(out, sample{x: x, y: y, p: p})
		}
	}
	return out
}

// nameSeries sets each sample's series key and legend label from
// f.Series: the key is "d=v" for each dimension (the variant as
// variant/backend), which a paper's series names; the label is the values
// alone when the series vary in named dimensions only (named once above
// the legend: header), each value with its name ("bu_serial=4") beside the
// variant or the place (no header), else the variant, its backend added
// where backends differ. Where two samples of one series fall on one x,
// the labeller's full label tells them apart.
func nameSeries(f *config.Figure, ss []sample, pts []point) (header string) {
	backends := map[string]bool{}
	for _, s := range ss {
		backends[s.p.c.Backend] = true
	}
	var named []string // the series' dimensions a header can name
	for _, d := range f.Series {
		if d != "variant" && d != "gpus" && d != "ranks" {
			named = append(named, d)
		}
	}
	bare := len(named) == len(f.Series) // values alone, under a header
	withVariant := contains(f.Series, "variant")
	name := func(p point) (key, label string) {
		var keys, labels []string
		for _, d := range f.Series {
			v := dimValue(p, d)
			switch {
			case d == "variant":
				keys = append(keys, p.c.Variant+"/"+p.c.Backend)
				l := p.c.Variant
				if len(backends) > 1 {
					l += " (" + strings.ToUpper(p.c.Backend) + ")"
				}
				labels = append(labels, l)
			case d == "gpus" || d == "ranks":
				keys = append(keys, d+"="+placeOf(p.c).String())
				labels = append(labels, placeOf(p.c).String())
			case d == "backend":
				keys = append(keys, d+"="+v)
				labels = append(labels, strings.ToUpper(v))
			case v != "" && bare:
				keys = append(keys, d+"="+v)
				labels = append(labels, v)
			case v != "":
				keys = append(keys, d+"="+v)
				labels = append(labels, d+"="+v)
			}
		}
		if len(keys) == 0 {
			l := p.c.Variant
			if len(backends) > 1 {
				l += " (" + strings.ToUpper(p.c.Backend) + ")"
			}
			return p.c.Variant + "/" + p.c.Backend, l
		}
		key, label = strings.Join(keys, " "), strings.Join(labels, ", ")
		if !withVariant && !contains(f.Series, "backend") && len(backends) > 1 {
			key = p.c.Backend + " " + key // a plot never mixes backends silently
			label = strings.ToUpper(p.c.Backend) + ", " + label
		}
		return key, label
	}
	for i := range ss {
		ss[i].series, ss[i].label = name(ss[i].p)
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
	if clash {
		l := newLabeller(pts)
		except := append([]string{f.X}, f.Series...)
		if f.X == "ef" || f.X == "edgefactor" {
			except = append(except, "ef")
		}
		if isScaling(f) {
			except = append(except, "gpus", "ranks", "grid")
		}
		for i := range ss {
			ss[i].series = l.label(ss[i].p, except...)
			ss[i].label = ss[i].series
		}
		return ""
	}
	if bare {
		header = strings.Join(named, ", ")
		if len(backends) > 1 && !contains(f.Series, "backend") {
			header = "backend, " + header
		}
	}
	return header
}

// explode turns samples of several components into one sample per
// component, the component named first in the series (lines and bars
// draw each component as a series; stacks keep them together).
func explode(ss []sample, header, what string) ([]sample, string) {
	var out []sample
	comps := map[string]bool{}
	series := map[string]bool{}
	for _, s := range ss {
		series[s.series] = true
		for k := range s.y {
			comps[k] = true
		}
	}
	if len(comps) <= 1 {
		return ss, header
	}
	keys := make([]string, 0, len(comps))
	for k := range comps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, s := range ss {
		for _, k := range keys {
			st, ok := s.y[k]
			if !ok {
				continue
			}
			t := s
			t.y = map[string]stat{"": st}
			t.series = k + " | " + s.series
			t.label = k
			if len(series) > 1 {
				t.label = k + ", " + s.label
			}
			out = append(out, t)
		}
	}
	switch {
	case len(series) == 1:
		header = "" // the components alone name the series
	case header != "":
		header = what + ", " + header
	}
	return out, header
}

// mark is a case with no value where it would stand: failed, timed out,
// invalid, or skipped.
type mark struct {
	x, status string
	pl        *place // on a scaling axis
}

// marks lists the cases of bad with an x value of f's, and their status.
func marks(f *config.Figure, bad []point) []mark {
	var out []mark
	for _, p := range bad {
		x := ""
		if f.X != config.XLevel {
			if x = xValue(f, p); x == "" {
				continue
			}
		}
		st := p.c.Status
		if st == results.StatusOK {
			st = "no valid search"
		}
		m := mark{x: x, status: st}
		if isScaling(f) {
			pl := placeOf(p.c)
			m.pl = &pl
		}
		out = append(out, m)
	}
	return out
}

// declaredFigure builds the figure f declares from pts.
func declaredFigure(f *config.Figure, all []point, ref *Reference) (*figure, error) {
	q := newQuantity(f.Y, f.PerRank)
	var good, bad []point
	for _, p := range all {
		switch {
		case !keep(p, f.Only):
		case plottable(p.c):
			good = append(good, p)
		default:
			bad = append(bad, p)
		}
	}
	var den []point
	if f.Over != nil {
		var num []point
		for _, p := range good {
			if keep(p, []map[string]string{f.Over}) {
				den = append(den, p)
			} else {
				num = append(num, p)
			}
		}
		if len(den) == 0 {
			return nil, fmt.Errorf("no data: over %q selects no valid case", overName(f))
		}
		good = num
	}
	ss := samples(f, q, good)
	var noDen []mark
	if f.Over != nil {
		var err error
		if ss, noDen, err = ratios(f, q, ss, den); err != nil {
			return nil, err
		}
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("no data: no valid case has a value of x = %q and y = %q (%d cases with status ok after the figure's only list, %d failed or invalid)", f.X, f.Y, len(good), len(bad))
	}
	if allZero(ss) {
		return nil, fmt.Errorf("no data: every value of y = %q is 0 over %d cases (a figure with nothing to show is not drawn)", f.Y, len(ss))
	}
	if ref != nil {
		if err := checkReference(f, ref); err != nil {
			return nil, err
		}
	}
	header := nameSeries(f, ss, good)
	if f.Kind != config.KindStacked {
		what := "phase"
		if q.kind == qBytes || q.kind == qCounters {
			what = "counter"
		}
		ss, header = explode(ss, header, what)
	}
	ms := append(marks(f, bad), noDen...)
	var order []string // series in the order they first appear
	labels := map[string]string{}
	for _, s := range ss {
		if _, ok := labels[s.series]; !ok {
			order = append(order, s.series)
			labels[s.series] = s.label
		}
	}
	a := xAxis(f, ss, ms, ref)
	if f.Y == "speedup" {
		speedups(ss, a)
	}
	var used []point
	for _, s := range ss {
		used = append(used, s.p)
	}
	title := f.Title
	if title == "" {
		title = yName(f) + " against " + xName(f, a)
		if f.X == config.XLevel {
			title = yName(f)
		}
	}
	fig := newFigure("figure-"+f.Name, title, caption(f, q, used))
	fig.strict = true
	fig.p.X.Label.Text = xName(f, a)
	if header != "" && f.Kind != config.KindStacked { // a stack's legend names its components
		fig.legend.Add(header + ":")
	}
	var err error
	switch f.Kind {
	case config.KindStacked:
		err = drawStacked(fig, f, q, ss, order, a, ms)
	case config.KindBar:
		err = drawBars(fig, f, q, ss, order, labels, a, ref, ms)
	default:
		err = drawLines(fig, f, q, ss, order, labels, a, ref, ms)
	}
	if err != nil {
		return nil, err
	}
	return fig, nil
}

// allZero reports whether every value of ss is 0.
func allZero(ss []sample) bool {
	for _, s := range ss {
		for _, st := range s.y {
			if st.V != 0 && !math.IsNaN(st.V) {
				return false
			}
		}
	}
	return true
}

// caption is a figure's one line under the plot: the variants (unless the
// legend names them), what the cases share, the statistic and its spread.
func caption(f *config.Figure, q quantity, used []point) string {
	l := newLabeller(used)
	var parts []string
	if !contains(f.Series, "variant") {
		var vs []string
		for _, p := range used {
			name := p.c.Plugin
			if name == "" {
				name = p.c.Variant
			}
			if v := name + " (" + strings.ToUpper(p.c.Backend) + ")"; !contains(vs, v) {
				vs = append(vs, v)
			}
		}
		parts = append(parts, strings.Join(vs, ", "))
	}
	parts = append(parts, l.common(used))
	stat := q.statName(f.X == config.XLevel)
	switch {
	case f.Y == "speedup":
		stat = "ratio of harmonic means"
	case f.Over != nil:
		stat = "ratio of the " + stat + "s to " + overName(f) + "'s at each x"
	}
	switch {
	case f.Kind == config.KindStacked:
		stat = "stacks: " + stat + ", bars: quartiles of the total"
	case f.Over != nil:
		stat += ", bars: our quartiles over its opposite ones"
	default:
		stat += ", bars: quartiles of the searches"
	}
	parts = append(parts, stat)
	return joinNonEmpty("; ", parts...)
}

// checkReference checks that ref's columns are the figure's x and y.
func checkReference(f *config.Figure, ref *Reference) error {
	want := "gteps"
	switch _, isPhase := f.PhaseY(); {
	case f.Y == "speedup" || f.Over != nil:
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
// (categories in order, at 0, 1, ...; a scaling axis is nominal).
type axis struct {
	numeric   bool
	cats      []string           // category keys in order
	labels    map[string]string  // tick label of a category key ("" for the key itself)
	pos       map[string]float64 // x value → position
	alias     map[string]string  // a paper's x value → the category key it stands at
	apart     []string           // x values standing apart (not joined by lines)
	sep       float64            // where a dotted line sets the apart places off; -1 for none
	scaling   bool
	places    map[string]place
	gridShown bool // a tick label shows a grid under the count
}

// add appends a category.
func (a *axis) add(key, label string) {
	if _, ok := a.pos[key]; ok {
		return
	}
	a.pos[key] = float64(len(a.cats))
	a.cats = append(a.cats, key)
	if a.labels == nil {
		a.labels = map[string]string{}
	}
	a.labels[key] = label
}

// at is the position of x value x (or of a paper's x value).
func (a axis) at(x string) float64 {
	if k, ok := a.alias[x]; ok {
		return a.pos[k]
	}
	if p, ok := a.pos[x]; ok {
		return p
	}
	return math.NaN()
}

// isApart reports whether x stands apart.
func (a axis) isApart(x string) bool { return contains(a.apart, x) }

// ticks is the nominal axis' tick labels in order.
func (a axis) ticks() []string {
	out := make([]string, len(a.cats))
	for i, k := range a.cats {
		out[i] = k
		if l, ok := a.labels[k]; ok && l != "" {
			out[i] = l
		}
	}
	return out
}

// xAxis places the x values of ss, of the marks and of ref's rows.
func xAxis(f *config.Figure, ss []sample, ms []mark, ref *Reference) axis {
	if isScaling(f) {
		places := map[string]place{}
		for _, s := range ss {
			places[s.x] = placeOf(s.p.c)
		}
		for _, m := range ms {
			if m.pl != nil {
				places[m.x] = *m.pl
			}
		}
		var refXs []string
		if ref != nil {
			for _, r := range ref.Rows {
				refXs = append(refXs, r.X)
			}
		}
		a := scalingAxis(places, refXs)
		for _, m := range ms {
			if _, ok := a.pos[m.x]; !ok {
				a.add(m.x, "?")
			}
		}
		a.scaling, a.places = true, places
		return a
	}
	var vals []string
	for _, s := range ss {
		vals = append(vals, s.x)
	}
	for _, m := range ms {
		if m.x != "" {
			vals = append(vals, m.x)
		}
	}
	if ref != nil {
		for _, r := range ref.Rows {
			vals = append(vals, r.X)
		}
	}
	a := axis{numeric: true, pos: map[string]float64{}, labels: map[string]string{}, sep: -1}
	num := map[string]float64{}
	for _, v := range vals {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			a.numeric = false
		}
		if _, ok := num[v]; !ok {
			num[v] = x
			a.cats = append(a.cats, v)
		}
	}
	if a.numeric {
		sort.SliceStable(a.cats, func(i, j int) bool { return num[a.cats[i]] < num[a.cats[j]] })
		if f.Kind == config.KindLine {
			for k, x := range num {
				a.pos[k] = x
			}
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

// overName names the denominator of a ratio figure: the values its over
// selects, in the order of their dimensions' names ("cpu-seq").
func overName(f *config.Figure) string {
	var vs []string
	for _, d := range slices.Sorted(maps.Keys(f.Over)) {
		vs = append(vs, f.Over[d])
	}
	return strings.Join(vs, ", ")
}

// ratioLabel is the y label of a ratio figure: a TEPS ratio is a
// speedup; any other quantity is named over its denominator's.
func ratioLabel(f *config.Figure, q quantity) string {
	if q.kind == qGTEPS {
		return "speedup over " + overName(f) + ", TEPS ratio (×)"
	}
	return q.title() + " over " + overName(f) + "'s (×)"
}

// ratios divides each sample's value by the value of the denominator
// case (a point of den) at its x: the ratio of the values, its spread
// from our first quartile over the denominator's third to our third over
// its first (the widest the two spreads allow). A sample whose x has no
// denominator is dropped and marked; two denominators at one x are an
// error (over must select one case an x).
func ratios(f *config.Figure, q quantity, ss []sample, den []point) ([]sample, []mark, error) {
	byX := map[string]stat{}
	seen := map[string]int{}
	for _, p := range den {
		x := xValue(f, p)
		st, ok := q.whole(p.c)[""]
		if x == "" || !ok {
			continue
		}
		seen[x]++
		byX[x] = st
	}
	for _, x := range slices.Sorted(maps.Keys(seen)) {
		if seen[x] > 1 {
			return nil, nil, fmt.Errorf("over %q selects %d cases at %s = %s, want one an x (name more dimensions)", overName(f), seen[x], f.X, x)
		}
	}
	var out []sample
	var ms []mark
	for _, s := range ss {
		d, ok := byX[s.x]
		if !ok || !(d.V > 0) {
			ms = append(ms, mark{x: s.x, status: "no " + overName(f)})
			continue
		}
		st := s.y[""]
		lo, hi := math.NaN(), math.NaN()
		if d.Hi > 0 && d.Lo > 0 {
			lo, hi = st.Lo/d.Hi, st.Hi/d.Lo
		}
		s.y = map[string]stat{"": {V: st.V / d.V, Lo: lo, Hi: hi, N: min(st.N, d.N)}}
		out = append(out, s)
	}
	return out, ms, nil
}

// speedups divides each series' values by its value at its first x
// (not counting places apart).
func speedups(ss []sample, a axis) {
	base := map[string]float64{}
	first := map[string]float64{}
	for _, s := range ss {
		x := a.at(s.x)
		if a.isApart(s.x) {
			continue
		}
		if b, ok := first[s.series]; !ok || x < b {
			first[s.series], base[s.series] = x, s.y[""].V
		}
	}
	for i := range ss {
		if b := base[ss[i].series]; b > 0 {
			st := ss[i].y[""]
			ss[i].y = map[string]stat{"": {V: st.V / b, Lo: st.Lo / b, Hi: st.Hi / b, N: st.N}}
		}
	}
}

// yScale is the factor and the axis label, unit included, for y values up
// to maxY.
func yScale(f *config.Figure, q quantity, a axis, maxY float64) (mul float64, label string) {
	perLevel := f.X == config.XLevel
	if f.Over != nil {
		return 1, ratioLabel(f, q)
	}
	switch q.kind {
	case qLevels:
		return 1, "BFS levels per search (levels)"
	case qSum:
		mul, unit := timeUnit(maxY)
		return mul, q.title() + " (" + unit + ")"
	case qInfo:
		switch {
		case q.isTime():
			mul, unit := timeUnit(maxY)
			return mul, q.key + " (" + unit + ")"
		case strings.HasSuffix(q.key, "_bytes"):
			mul, unit := bytesUnit(maxY)
			return mul, q.key + " (" + unit + ")"
		}
		return 1, q.key + " (as the plugin reports it)"
	case qGTEPS:
		div, unit := tepsUnit(maxY)
		return 1 / div, "harmonic-mean TEPS (" + unit + ")"
	case qSpeedup:
		first := "first " + xName(f, a)
		if len(a.cats) > 0 {
			first = strings.ReplaceAll(a.ticks()[0], "\n", " ")
			if a.scaling {
				first = placeOf(firstPlace(a)).String()
			}
		}
		return 1, "speedup over " + first + " (×)"
	case qTime, qTransfer, qPhase, qPhases:
		mul, unit := timeUnit(maxY)
		what := "median search time"
		switch {
		case q.kind == qTransfer:
			what = "median copy of the parents to the host"
		case q.kind == qTime && perLevel:
			what = "time per level"
		case q.kind == qPhases:
			what = "time per search, phases stacked"
		case q.kind == qPhase && !q.multi():
			what = q.items[0].Label + " time per search"
		case q.kind == qPhase:
			what = "time per search"
		}
		if perLevel && q.kind != qTime {
			what = strings.Replace(what, "per search", "per level", 1)
		}
		return mul, what + " (" + unit + ")"
	}
	// Counters.
	if len(q.items) == 1 && q.items[0].Label == "edges_examined" {
		mul, unit := countUnit(maxY)
		what := "edges examined per search"
		switch {
		case q.perRank && perLevel:
			what = "edges examined per rank and level"
		case q.perRank:
			what = "edges examined per rank and search"
		case perLevel:
			what = "edges examined per level"
		}
		return mul, what + " (" + unit + ")"
	}
	mul, unit := bytesUnit(maxY)
	what := "bytes"
	if !q.multi() {
		what = q.items[0].Label + " bytes"
	}
	switch {
	case q.perRank && perLevel:
		what += " per rank and level"
	case q.perRank:
		what += " per rank and search"
	case perLevel:
		what += " per level"
	default:
		what += " per search"
	}
	if q.kind == qCounters {
		what += ", counters stacked"
	}
	return mul, what + " (" + unit + ")"
}

// firstPlace is the place at the first position of a scaling axis.
func firstPlace(a axis) *results.Case {
	for k, pl := range a.places {
		if a.pos[k] == 0 {
			c := &results.Case{Backend: "cuda", Ranks: pl.workers, GPUs: pl.devices}
			if pl.cpu {
				c.Backend, c.GPUs = "cpu", 0
			}
			return c
		}
	}
	return &results.Case{Ranks: 1}
}

func countUnit(max float64) (float64, string) {
	switch {
	case max >= 1e9:
		return 1e-9, "billions"
	case max >= 1e6:
		return 1e-6, "millions"
	case max >= 1e3:
		return 1e-3, "thousands"
	}
	return 1, "edges"
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
		return "Harmonic-mean TEPS"
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
		return "Time of " + ph
	}
	b, _ := f.BytesY()
	return "Bytes of " + b
}

// xName names the figure's x on the axis.
func xName(f *config.Figure, a axis) string {
	switch {
	case f.X == config.XLevel:
		return "BFS level"
	case a.scaling:
		return scalingName(a)
	}
	return axisName(f.X)
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

// refMatch is the series of ours a paper's series matches, and the tag
// it carries: "expand=scatter_parents (Gaming)" matches
// expand=scatter_parents, tagged Gaming.
func refMatch(order []string, name string) (match, tag string) {
	if contains(order, name) {
		return name, ""
	}
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		return name[:i], name[i+2 : len(name)-1]
	}
	return name, ""
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

// autoLogRatio: values further apart than this (the largest over the
// smallest, ours and the paper's) get a log y axis, where a linear one
// would flatten the smaller on zero.
const autoLogRatio = 20

// wantLog reports whether the y axis is logarithmic: asked for, or values
// of very different size, every one positive.
func wantLog(f *config.Figure, lo, hi float64) bool {
	if f.LogY {
		return true
	}
	return lo > 0 && hi/lo > autoLogRatio
}

// paperStyle is the legend swatch of the paper's values: a dashed grey
// line.
func paperStyle() draw.LineStyle {
	return draw.LineStyle{Color: rgb(0x555555), Width: vg.Points(1.5), Dashes: paperDashes()}
}

func paperDashes() []vg.Length { return []vg.Length{vg.Points(5), vg.Points(3)} }

// failedGlyph is how a case with no value is marked.
func failedGlyph() draw.GlyphStyle {
	return draw.GlyphStyle{Color: rgb(0xd62728), Radius: vg.Points(4), Shape: draw.CrossGlyph{}}
}

// separator is the dotted line that sets the places apart off.
func separator(x float64) vline {
	return vline{x: x, line: draw.LineStyle{Color: rgb(0x999999), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1), vg.Points(3)}}}
}

// setNominalX puts a's categories on the x axis, with the separator of
// the places apart.
func setNominalX(fig *figure, a axis) {
	fig.p.NominalX(a.ticks()...)
	fig.p.X.Min, fig.p.X.Max = -0.5, float64(len(a.cats))-0.5
	if a.sep >= 0 {
		fig.add(separator(a.sep))
	}
}

// yMap places scaled y values on the plot: at themselves on a linear
// axis; at their logarithm on a log one, a linear axis over log10 of the
// values labelled by value (gonum's LogScale pads the plot as if its axis
// label sat at the arithmetic middle of the range, leaving a wide empty
// band under the title).
type yMap struct{ log bool }

// at is where value v stands: -Inf for v <= 0 on a log axis (the bottom).
func (m yMap) at(v float64) float64 {
	if !m.log {
		return v
	}
	if v <= 0 {
		return math.Inf(-1)
	}
	return math.Log10(v)
}

// set sets the y axis over the values [lo, hi]: from 0 when linear, over
// logRange's 1-2-5 range when log.
func (m yMap) set(fig *figure, lo, hi float64) {
	if m.log {
		min, max := logRange(lo, hi)
		fig.p.Y.Min, fig.p.Y.Max = math.Log10(min), math.Log10(max)
		var ts plot.ConstantTicks
		for _, t := range ticks125(min, max) {
			ts = append(ts, plot.Tick{Value: math.Log10(t.Value), Label: t.Label})
		}
		fig.p.Y.Tick.Marker = ts
		fig.yLog = true
		return
	}
	fig.p.Y.Min = math.Min(0, lo)
	fig.p.Y.Max = hi * 1.08
	if hi <= 0 {
		fig.p.Y.Max = 1
	}
	fig.p.Y.Tick.Marker = plot.TickerFunc(linearTicks)
}

// linearTicks labels a linear axis at multiples of 1, 2 or 5 times a power
// of ten, four to ten of them, without trailing zeros (gonum's default
// labels as few as two, with two decimals).
func linearTicks(min, max float64) []plot.Tick {
	if !(max > min) {
		return nil
	}
	span := max - min
	var step float64
	for e := math.Floor(math.Log10(span)) - 2; ; e++ {
		done := false
		for _, m := range []float64{1, 2, 5} {
			step = m * math.Pow(10, e)
			if span/step <= 8 {
				done = true
				break
			}
		}
		if done {
			break
		}
	}
	var ts []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max*(1+1e-12); v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ts = append(ts, plot.Tick{Value: v, Label: tickLabel(v)})
		// Unlabelled ticks halfway.
		if h := v + step/2; h <= max {
			ts = append(ts, plot.Tick{Value: h})
		}
	}
	return ts
}

// addMarks draws the cases with no value at the bottom of their x, each
// with its status, and one legend entry for them.
func addMarks(fig *figure, a axis, ms []mark, offset vg.Length) {
	if len(ms) == 0 {
		return
	}
	g := newGlyphs(failedGlyph(), vg.Points(7))
	g.offset = offset
	for _, m := range ms {
		x := 0.0
		if m.x != "" {
			x = a.at(m.x)
		}
		g.xs = append(g.xs, x)
		g.ys = append(g.ys, math.NaN())
		g.texts = append(g.texts, m.status)
	}
	fig.add(g)
	fig.legend.Add("no value (case failed or invalid)", g)
}

// addZeros marks values a log axis cannot show (0 bytes on one rank, say)
// at the bottom of their x, with one legend entry for them.
func addZeros(fig *figure, a axis, zs []mark) {
	if len(zs) == 0 {
		return
	}
	g := newGlyphs(draw.GlyphStyle{Color: rgb(0x555555), Radius: vg.Points(3.5), Shape: draw.TriangleGlyph{}}, vg.Points(7))
	seen := map[float64]bool{}
	for _, m := range zs {
		x := a.at(m.x)
		if seen[x] {
			continue // one mark a place
		}
		seen[x] = true
		g.xs, g.ys, g.texts = append(g.xs, x), append(g.ys, math.NaN()), append(g.texts, "")
	}
	fig.add(g)
	fig.legend.Add("0 (under the log axis)", g)
}

// yAxis sets up the y axis of a line or bar figure of the samples ss and
// the paper's rows of ref: a log axis where wantLog says so over their
// range, the unit's scale and label, and the grid. It returns the paper's
// series, the axis's mapping and the scale the values are drawn at.
func yAxis(fig *figure, f *config.Figure, q quantity, ss []sample, ref *Reference, a axis) (rorder []string, rrows map[string][]RefRow, ym yMap, mul float64) {
	lo, hi := math.Inf(1), 0.0
	for _, s := range ss {
		v := s.y[""].V
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	rorder, rrows = refSeries(ref)
	for _, name := range rorder {
		for _, r := range rrows[name] {
			lo, hi = math.Min(lo, r.Y), math.Max(hi, r.Y)
		}
	}
	ym = yMap{log: wantLog(f, lo, hi)}
	mul, label := yScale(f, q, a, hi)
	fig.p.Y.Label.Text = label
	fig.add(plotter.NewGrid())
	return rorder, rrows, ym, mul
}

func drawLines(fig *figure, f *config.Figure, q quantity, ss []sample, order []string, labels map[string]string, a axis, ref *Reference, ms []mark) error {
	rorder, rrows, ym, mul := yAxis(fig, f, q, ss, ref, a)
	logY := ym.log
	ylo, yhi := math.Inf(1), 0.0
	var below []mark // values a log axis cannot show: marked like failed cases
	add := func(xy plotter.XYs, errs [][2]float64, style int, name string, paper bool, tags []string) error {
		var keepXY plotter.XYs
		var keepErr [][2]float64
		var keepTags []string
		for i, q := range xy {
			if math.IsNaN(q.X) || (logY && q.Y <= 0) || (f.LogX && q.X <= 0) {
				continue
			}
			keepXY = append(keepXY, q)
			if errs != nil {
				keepErr = append(keepErr, errs[i])
			}
			if tags != nil {
				keepTags = append(keepTags, tags[i])
			}
		}
		if len(keepXY) == 0 {
			return nil
		}
		idx := make([]int, len(keepXY))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return keepXY[idx[i]].X < keepXY[idx[j]].X })
		sorted := make(plotter.XYs, len(idx)) // at their place on the axis
		for i, j := range idx {
			sorted[i] = plotter.XY{X: keepXY[j].X, Y: ym.at(keepXY[j].Y)}
			ylo, yhi = math.Min(ylo, keepXY[j].Y), math.Max(yhi, keepXY[j].Y)
		}
		c, g, dash := seriesStyle(style)
		if paper {
			dash = paperDashes()
		}
		// Lines join the places that scale; those apart are points alone.
		var joined, alone plotter.XYs
		for _, q := range sorted {
			if a.scaling && a.sep >= 0 && q.X > a.sep {
				alone = append(alone, q)
			} else {
				joined = append(joined, q)
			}
		}
		var lp *plotter.Line
		var sp *plotter.Scatter
		var err error
		if len(joined) > 0 {
			if lp, sp, err = plotter.NewLinePoints(joined); err != nil {
				return fmt.Errorf("series %s: %w", name, err)
			}
			lp.Color, lp.Dashes, lp.Width = c, dash, vg.Points(1.5)
			sp.Color, sp.Shape = c, g
			fig.add(lp, sp)
		}
		if len(alone) > 0 {
			s2, err := plotter.NewScatter(alone)
			if err != nil {
				return fmt.Errorf("series %s: %w", name, err)
			}
			s2.Color, s2.Shape, s2.Radius = c, g, vg.Points(3.5)
			fig.add(s2)
			if sp == nil {
				sp = s2
			}
		}
		if keepErr != nil {
			e := &errorBars{line: draw.LineStyle{Color: c, Width: vg.Points(1)}, cap: vg.Points(5)}
			for i, j := range idx {
				e.xs = append(e.xs, sorted[i].X)
				e.lo = append(e.lo, ym.at(keepErr[j][0]))
				e.hi = append(e.hi, ym.at(keepErr[j][1]))
				if !logY || keepErr[j][0] > 0 {
					ylo = math.Min(ylo, keepErr[j][0])
				}
				yhi = math.Max(yhi, keepErr[j][1])
			}
			fig.add(e)
		}
		if keepTags != nil {
			t := newTags(vg.Points(7.5))
			for i, j := range idx {
				if keepTags[j] != "" {
					t.xs, t.ys, t.texts = append(t.xs, sorted[i].X), append(t.ys, sorted[i].Y), append(t.texts, keepTags[j])
				}
			}
			fig.add(t)
		}
		if !paper {
			if lp != nil {
				fig.legend.Add(name, lp, sp)
			} else {
				fig.legend.Add(name, sp)
			}
		}
		return nil
	}
	for i, name := range order {
		var xy plotter.XYs
		var errs [][2]float64
		for _, s := range ss {
			if s.series != name {
				continue
			}
			st := s.y[""]
			xy = append(xy, plotter.XY{X: a.at(s.x), Y: st.V * mul})
			errs = append(errs, [2]float64{st.Lo * mul, st.Hi * mul})
			if logY && st.V <= 0 {
				below = append(below, mark{x: s.x, status: "0"})
			}
		}
		if err := add(xy, errs, i, labels[name], false, nil); err != nil {
			return err
		}
	}
	extra := 0
	for _, name := range rorder {
		match, _ := refMatch(order, name)
		var xy plotter.XYs
		var tags []string
		for _, r := range rrows[name] {
			_, tag := refMatch(order, r.Series)
			xy = append(xy, plotter.XY{X: a.at(r.X), Y: r.Y * mul})
			tags = append(tags, tag)
		}
		if err := add(xy, nil, styleIndex(order, match, &extra), "paper", true, tags); err != nil {
			return err
		}
	}
	if ref != nil {
		fig.legend.Add("paper", legendLine{paperStyle()})
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
		default:
			fig.p.X.Min, fig.p.X.Max = lo-0.5, hi+0.5
		}
		if len(vals) <= 16 {
			fig.p.X.Tick.Marker = valueTicks(vals)
		}
	} else {
		if f.LogX {
			return f.Errorf("logx", "x %q has names, not numbers: no log axis", f.X)
		}
		setNominalX(fig, a)
	}
	if math.IsInf(ylo, 1) {
		return fmt.Errorf("no data: no value of y = %q can be drawn on a log axis (every one is 0 or less)", f.Y)
	}
	ym.set(fig, ylo, yhi)
	addMarks(fig, a, ms, 0)
	addZeros(fig, a, below)
	return nil
}

// logAxis puts a on a log scale over [lo, hi] with 1-2-5 ticks.
func logAxis(a *plot.Axis, lo, hi float64) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = plot.TickerFunc(ticks125)
	a.Min, a.Max = logRange(lo, hi)
}

func drawBars(fig *figure, f *config.Figure, q quantity, ss []sample, order []string, labels map[string]string, a axis, ref *Reference, ms []mark) error {
	rorder, rrows, ym, mul := yAxis(fig, f, q, ss, ref, a)
	logY := ym.log
	nBars := len(order) + len(rorder)
	w := barWidth(len(a.cats)*nBars, fig.w)
	bar := 0
	ylo, yhi := math.Inf(1), 0.0
	var below []mark
	addBars := func(xs, ys []float64, errs [][2]float64, style int, name string, paper bool, tags []string) {
		c, _, _ := seriesStyle(style)
		at := make([]float64, len(ys))
		for i, y := range ys {
			at[i] = ym.at(y)
		}
		b := &bars{xs: xs, ys: at, width: w, logScale: logY}
		b.offset = (vg.Length(bar) - vg.Length(nBars-1)/2) * w
		bar++
		b.fill = c
		b.line = draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}
		if paper {
			b.fill = color.White
			b.line = draw.LineStyle{Color: c, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
		}
		fig.add(b)
		for i, y := range ys {
			if !math.IsNaN(y) && (!logY || y > 0) {
				ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
			}
			if errs != nil && !math.IsNaN(errs[i][1]) {
				yhi = math.Max(yhi, errs[i][1])
				if !logY || errs[i][0] > 0 {
					ylo = math.Min(ylo, errs[i][0])
				}
			}
		}
		if errs != nil {
			e := &errorBars{offset: b.offset, line: draw.LineStyle{Color: color.Black, Width: vg.Points(1)}, cap: w / 2}
			for i, x := range xs {
				e.xs, e.lo, e.hi = append(e.xs, x), append(e.lo, ym.at(errs[i][0])), append(e.hi, ym.at(errs[i][1]))
			}
			fig.add(e)
		}
		if tags != nil {
			t := newTags(vg.Points(7.5))
			t.offset = b.offset
			for i, x := range xs {
				if tags[i] != "" && !math.IsNaN(ys[i]) {
					t.xs, t.ys, t.texts = append(t.xs, x), append(t.ys, at[i]), append(t.texts, tags[i])
				}
			}
			fig.add(t)
		}
		if !paper {
			fig.legend.Add(name, b)
		}
	}
	for i, name := range order {
		xs := make([]float64, len(a.cats))
		ys := make([]float64, len(a.cats))
		errs := make([][2]float64, len(a.cats))
		for k := range xs {
			xs[k], ys[k], errs[k] = float64(k), math.NaN(), [2]float64{math.NaN(), math.NaN()}
		}
		for _, s := range ss {
			if s.series != name {
				continue
			}
			k := int(a.at(s.x))
			st := s.y[""]
			ys[k] = st.V * mul
			errs[k] = [2]float64{st.Lo * mul, st.Hi * mul}
			if logY && st.V <= 0 {
				below = append(below, mark{x: s.x, status: "0"})
			}
		}
		addBars(xs, ys, errs, i, labels[name], false, nil)
	}
	extra := 0
	for _, name := range rorder {
		match, _ := refMatch(order, name)
		xs := make([]float64, len(a.cats))
		ys := make([]float64, len(a.cats))
		tags := make([]string, len(a.cats))
		for k := range xs {
			xs[k], ys[k] = float64(k), math.NaN()
		}
		for _, r := range rrows[name] {
			x := a.at(r.X)
			if math.IsNaN(x) {
				continue
			}
			k := int(x)
			ys[k] = r.Y * mul
			_, tags[k] = refMatch(order, r.Series)
		}
		addBars(xs, ys, nil, styleIndex(order, match, &extra), "paper", true, tags)
	}
	if ref != nil {
		fig.legend.Add("paper", &bars{fill: color.White, line: draw.LineStyle{Color: rgb(0x555555), Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}})
	}
	setNominalX(fig, a)
	if math.IsInf(ylo, 1) {
		return fmt.Errorf("no data: no value of y = %q can be drawn on a log axis", f.Y)
	}
	if !logY {
		ylo = math.Min(0, ylo)
	}
	ym.set(fig, ylo, yhi)
	addMarks(fig, a, ms, 0)
	addZeros(fig, a, below)
	return nil
}

// drawStacked draws one stack per (x, series), the components (phases,
// counters or items) coloured alike in every stack, with the quartiles
// of the searches' totals on each.
func drawStacked(fig *figure, f *config.Figure, q quantity, ss []sample, order []string, a axis, ms []mark) error {
	type slot struct{ x, series string }
	var slots []slot
	index := map[slot]int{}
	for _, x := range a.cats {
		for _, s := range order {
			for _, smp := range ss {
				if a.pos[smp.x] == a.pos[x] && smp.series == s {
					k := slot{x, s}
					if _, ok := index[k]; !ok {
						index[k] = len(slots)
						slots = append(slots, k)
					}
				}
			}
		}
	}
	slotOf := func(smp sample) int {
		for k, i := range index {
			if a.pos[k.x] == a.pos[smp.x] && k.series == smp.series {
				return i
			}
		}
		return -1
	}
	names := map[string]bool{}
	maxTotal := 0.0
	for _, s := range ss {
		t := 0.0
		for k, st := range s.y {
			names[k] = true
			t += st.V
		}
		maxTotal = math.Max(maxTotal, t)
	}
	mul, label := yScale(f, q, a, maxTotal)
	fig.p.Y.Label.Text = label
	fig.add(plotter.NewGrid())
	var comps []string
	if q.kind == qPhase || q.kind == qBytes {
		for _, it := range q.items { // in the config's order, bottom up
			if names[q.label(it)] {
				comps = append(comps, q.label(it))
			}
		}
	} else {
		for k := range names {
			comps = append(comps, k)
		}
		sort.Strings(comps)
	}
	colour := map[string]int{}
	for i, c := range comps {
		colour[c] = i
	}
	w := barWidth(len(slots), fig.w)
	stacks, err := addStack(fig, comps, colour, w, false, func(comp string) plotter.Values {
		vals := make(plotter.Values, len(slots))
		for _, s := range ss {
			if i := slotOf(s); i >= 0 {
				vals[i] += s.y[comp].V * mul
			}
		}
		return vals
	})
	if err != nil {
		return err
	}
	for i := len(stacks) - 1; i >= 0; i-- {
		fig.legend.Add(comps[i], stacks[i])
	}
	// The spread of the totals: the quartiles of the searches' totals, only
	// for whole searches (per level the searches differ in depth).
	e := &errorBars{line: draw.LineStyle{Color: color.Black, Width: vg.Points(1)}, cap: w / 2}
	hi := maxTotal * mul
	for _, s := range ss {
		i := slotOf(s)
		if i < 0 {
			continue
		}
		lo, up := totalQuartiles(f, q, s)
		if math.IsNaN(lo) {
			continue
		}
		e.xs, e.lo, e.hi = append(e.xs, float64(i)), append(e.lo, lo*mul), append(e.hi, up*mul)
		hi = math.Max(hi, up*mul)
	}
	fig.add(e)
	if l := strings.TrimSuffix(ss[0].label, "/"+ss[0].p.c.Backend); len(order) == 1 && !strings.Contains(fig.caption, l) {
		fig.caption = joinNonEmpty("; ", l, fig.caption) // the one series, named nowhere else
	}
	ticks := make([]string, len(slots))
	for i, s := range slots {
		ticks[i] = s.x
		if l, ok := a.labels[s.x]; ok && l != "" {
			ticks[i] = l
		}
		if len(order) > 1 {
			lab := s.series
			for _, smp := range ss {
				if smp.series == s.series {
					lab = smp.label
					break
				}
			}
			ticks[i] += "\n" + lab
		}
	}
	fig.p.NominalX(ticks...)
	fig.p.X.Min, fig.p.X.Max = -0.5, float64(len(slots))-0.5
	// The places apart (ranks sharing GPUs) stand after a dotted line, as
	// on the other kinds' scaling axes.
	if a.scaling && a.sep >= 0 {
		for i, s := range slots {
			if a.pos[s.x] > a.sep {
				if i > 0 {
					fig.add(separator(float64(i) - 0.5))
				}
				break
			}
		}
	}
	fig.p.Y.Min, fig.p.Y.Max = 0, hi*1.08
	fig.p.Y.Tick.Marker = plot.TickerFunc(linearTicks)
	if len(slots) > 6 {
		fig.w = vg.Length(len(slots)) * vg.Points(60)
	}
	// Marks stand at the first stack of their x.
	var placed []mark
	for _, m := range ms {
		for i, s := range slots {
			if m.x == "" || a.pos[s.x] == a.pos[m.x] {
				placed = append(placed, mark{x: strconv.Itoa(i), status: m.status})
				break
			}
		}
	}
	if len(placed) > 0 {
		pa := axis{pos: map[string]float64{}}
		for _, m := range placed {
			pa.pos[m.x], _ = strconv.ParseFloat(m.x, 64)
		}
		addMarks(fig, pa, placed, 0)
	}
	return nil
}

// totalQuartiles is the first and third quartile of the searches' totals
// of a stacked sample (NaN per level, where searches differ in depth).
func totalQuartiles(f *config.Figure, q quantity, s sample) (lo, hi float64) {
	if f.X == config.XLevel {
		return math.NaN(), math.NaN()
	}
	var totals []float64
	for _, srch := range validSearches(s.p.c) {
		t := 0.0
		for _, v := range q.searchSums(srch, s.p.c.Ranks) {
			t += v
		}
		totals = append(totals, t)
	}
	st := quartiles(totals)
	return st.Lo, st.Hi
}
