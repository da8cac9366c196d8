// Package report turns results.json runs into what people read: a text
// summary (summary.txt) with the Graph500 v3 statistics block of every case,
// a Go benchmark file (bench.txt) that benchstat can compare, PNG and SVG
// plots chosen from what the run varies, and a regression check between two
// runs (Compare).
//
// This file holds the entry points (WriteAll, Plot) and the helpers every
// output shares: which searches count (valid ones only), the harmonic-mean
// TEPS, and the labels that name a case by what differs between cases.
package report

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bfsbench/bfsbench/harness/results"
)

// WriteAll writes summary.txt, bench.txt, bench-median.txt and every plot that run has
// something to show for into dir (created if missing), and returns the
// paths written. Each file is replaced atomically, so WriteAll can be called
// after every case of a run that is still going.
func WriteAll(run *results.Run, dir string) ([]string, error) {
	if run == nil {
		return nil, fmt.Errorf("report: nil run")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var written []string
	for _, f := range []struct {
		name  string
		write func(*results.Run) ([]byte, error)
	}{
		{"summary.txt", summaryText},
		{"bench.txt", benchText},
		{"bench-median.txt", benchMedianText},
	} {
		b, err := f.write(run)
		if err != nil {
			return written, fmt.Errorf("report: %s: %w", f.name, err)
		}
		path := filepath.Join(dir, f.name)
		if err := writeFile(path, b); err != nil {
			return written, fmt.Errorf("report: %w", err)
		}
		written = append(written, path)
	}
	plots, err := Plot([]*results.Run{run}, dir)
	if err == nil {
		err = pruneStalePlots(dir, plots)
	}
	return append(written, plots...), err
}

// plotManifest lists, in a run folder, the plots WriteAll wrote last time.
const plotManifest = ".plots"

// pruneStalePlots removes the plots an earlier WriteAll of this folder
// wrote that the current run no longer draws (e.g. levels_time.png once a
// second workload splits it into one plot per workload), so the folder
// never shows a figure of a partial run beside the final ones. Only files
// named in the manifest are removed.
func pruneStalePlots(dir string, current []string) error {
	keep := map[string]bool{}
	for _, p := range current {
		keep[filepath.Base(p)] = true
	}
	manifest := filepath.Join(dir, plotManifest)
	if old, err := os.ReadFile(manifest); err == nil {
		for _, name := range strings.Split(string(old), "\n") {
			if name != "" && !keep[name] && filepath.Base(name) == name {
				_ = os.Remove(filepath.Join(dir, name))
			}
		}
	}
	names := make([]string, 0, len(current))
	for _, p := range current {
		names = append(names, filepath.Base(p))
	}
	return writeFile(manifest, []byte(strings.Join(names, "\n")+"\n"))
}

// Plot draws every plot that the merged cases of runs have something to
// show for into dir (created if missing), PNG and SVG each, and returns the
// paths written. When runs come from different machines and the same case
// appears on more than one, series are labelled with the machine.
func Plot(runs []*results.Run, dir string) ([]string, error) {
	return PlotContext(context.Background(), runs, dir)
}

// PlotContext is Plot that stops between two figures once ctx ends,
// returning its error (a figure is written whole or not at all).
func PlotContext(ctx context.Context, runs []*results.Run, dir string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	figs, err := buildFigures(collect(runs))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var written []string
	for _, f := range figs {
		if err := ctx.Err(); err != nil {
			return written, err
		}
		paths, err := f.save(dir)
		written = append(written, paths...)
		if err != nil {
			return written, fmt.Errorf("report: plot %s: %w", f.name, err)
		}
	}
	return written, nil
}

// point is one case of one run, with what is needed to label it.
type point struct {
	c       *results.Case
	idx     int    // index of the case in its run
	run     int    // index of its run among those merged
	machine string // host and GPU (or CPU) model of its run
	started string // its run's start time
	// graph names a graph file: its base name, with the fingerprint's
	// start when another point's file of that name is a different graph;
	// "" for a Kronecker graph.
	graph string
}

// collect flattens the cases of runs into points.
func collect(runs []*results.Run) []point {
	var pts []point
	for i, r := range runs {
		if r == nil {
			continue
		}
		for j, c := range r.Cases {
			if c != nil {
				pts = append(pts, point{c: c, idx: j, run: i, machine: machineName(r.Env), started: r.Started})
			}
		}
	}
	// Graph files of one base name that are different graphs are told
	// apart by their contents.
	ids := map[string]map[string]bool{} // base name → graph IDs
	for _, p := range pts {
		if g := p.c.Graph; g.File != "" {
			if ids[g.Label()] == nil {
				ids[g.Label()] = map[string]bool{}
			}
			ids[g.Label()][g.ID()] = true
		}
	}
	for i := range pts {
		g := pts[i].c.Graph
		if g.File == "" {
			continue
		}
		pts[i].graph = g.Label()
		if len(ids[g.Label()]) > 1 {
			fp := g.Fingerprint
			if len(fp) > 8 {
				fp = fp[:8]
			}
			pts[i].graph += fmt.Sprintf(" [%d vertices, %d edges, %s]", g.NVertices, g.NEdges, fp)
		}
	}
	return pts
}

// machineName is "host (first GPU model)", or the CPU model on a machine
// without GPUs.
func machineName(e results.Env) string {
	hw := e.CPUModel
	if len(e.GPUModels) > 0 {
		hw = e.GPUModels[0]
	}
	switch {
	case e.Host == "":
		return hw
	case hw == "":
		return e.Host
	}
	return e.Host + " (" + hw + ")"
}

// validTEPS returns the TEPS of the valid searches of c: only they have a
// TEPS figure under the Graph500 rules.
func validTEPS(c *results.Case) []float64 {
	var t []float64
	for _, s := range c.BFS {
		if s.Valid && s.TEPS > 0 && !math.IsInf(s.TEPS, 0) {
			t = append(t, s.TEPS)
		}
	}
	return t
}

// validSearches returns the valid searches of c.
func validSearches(c *results.Case) []results.Search {
	var v []results.Search
	for _, s := range c.BFS {
		if s.Valid {
			v = append(v, s)
		}
	}
	return v
}

// harmonicMean is n / Σ 1/x, the Graph500 mean of TEPS; 0 for no values.
func harmonicMean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var inv float64
	for _, x := range xs {
		inv += 1 / x
	}
	return float64(len(xs)) / inv
}

// median of xs (not modified); NaN for no values.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// plottable reports whether c's TEPS may be plotted: only cases whose every
// search validated (status ok) are drawn, so that no figure shows the speed
// of a variant that produced a wrong answer.
func plottable(c *results.Case) bool {
	return c.Status == results.StatusOK && len(validTEPS(c)) > 0
}

// paramString formats one parameter value, e.g. 4 (from JSON's 4.0), true,
// 0.0625 or "tas".
func paramString(v any) string {
	switch x := v.(type) {
	case float64:
		return fmt.Sprint(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// paramNames returns the sorted parameter names of c.
func paramNames(c *results.Case) []string {
	names := make([]string, 0, len(c.Params))
	for k := range c.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// A dimension is one thing that can differ between cases (a parameter, the
// scale, the ranks, the machine, ...). Labels name a case by its variant and
// backend plus the dimensions that vary among the cases being drawn.
type dimension struct {
	name  string               // as shown in labels, e.g. "scale" or "edges_per_thread"
	param bool                 // a variant parameter: varies per variant
	value func(p point) string // "" where it does not apply
}

// dimensions lists the dimensions in label order.
func dimensions(pts []point) []dimension {
	seen := map[string]bool{}
	var params []string
	for _, p := range pts {
		for _, k := range paramNames(p.c) {
			if !seen[k] {
				seen[k] = true
				params = append(params, k)
			}
		}
	}
	sort.Strings(params)
	var dims []dimension
	for _, k := range params {
		dims = append(dims, dimension{name: k, param: true, value: func(p point) string {
			v, ok := p.c.Params[k]
			if !ok {
				return ""
			}
			return paramString(v)
		}})
	}
	itoa := func(f func(*results.Case) int) func(point) string {
		return func(p point) string { return fmt.Sprint(f(p.c)) }
	}
	dims = append(dims,
		dimension{name: "ranks", value: itoa(func(c *results.Case) int { return c.Ranks })},
		dimension{name: "grid", value: func(p point) string {
			if p.c.Grid == [2]int{} {
				return ""
			}
			return fmt.Sprintf("%dx%d", p.c.Grid[0], p.c.Grid[1])
		}},
		dimension{name: "gpus", value: func(p point) string {
			if p.c.GPUs == 0 { // a CPU backend: its label says so already
				return ""
			}
			return fmt.Sprint(p.c.GPUs)
		}},
		dimension{name: "scale", value: func(p point) string {
			if p.c.Graph.File != "" {
				return ""
			}
			return fmt.Sprint(p.c.Graph.Scale)
		}},
		dimension{name: "ef", value: func(p point) string {
			if p.c.Graph.File != "" {
				return ""
			}
			return fmt.Sprint(p.c.Graph.EdgeFactor)
		}},
		dimension{name: "graph", value: func(p point) string { return p.graph }},
		dimension{name: "seed", value: func(p point) string {
			return fmt.Sprintf("%d,%d", p.c.Graph.Seed[0], p.c.Graph.Seed[1])
		}},
		dimension{name: "on", value: func(p point) string { return p.machine }},
		dimension{name: "run", value: func(p point) string { return fmt.Sprintf("%d (%s)", p.run+1, p.started) }},
	)
	return dims
}

// labeller names points by variant/backend plus the dimensions that vary.
type labeller struct {
	dims []dimension
	vary map[string]bool // dimension name → varies
}

// newLabeller finds which dimensions vary among pts. A parameter varies when
// it takes two values within one variant (parameters of different variants
// are not comparable). The machine is shown only when the same case key
// appears on two machines, and the run only when it appears twice on one.
func newLabeller(pts []point) labeller {
	l := labeller{dims: dimensions(pts), vary: map[string]bool{}}
	for _, d := range l.dims {
		switch {
		case d.name == "on" || d.name == "run":
			continue
		case d.param:
			vals := map[string]map[string]bool{} // variant → values
			for _, p := range pts {
				v := d.value(p)
				if v == "" {
					continue
				}
				if vals[p.c.Variant] == nil {
					vals[p.c.Variant] = map[string]bool{}
				}
				vals[p.c.Variant][v] = true
				if len(vals[p.c.Variant]) > 1 {
					l.vary[d.name] = true
				}
			}
		default:
			vals := map[string]bool{}
			for _, p := range pts {
				if v := d.value(p); v != "" || d.name != "gpus" {
					vals[v] = true
				}
			}
			l.vary[d.name] = len(vals) > 1
		}
	}
	// The grid and the GPUs usually follow from the ranks: then they only
	// lengthen labels.
	ranks := l.dims[indexOf(l.dims, "ranks")]
	for _, name := range []string{"grid", "gpus"} {
		if l.vary[name] && determines(pts, ranks, l.dims[indexOf(l.dims, name)]) {
			l.vary[name] = false
		}
	}
	machines := map[string]map[string]bool{} // key → machines
	runs := map[string]map[int]bool{}        // key+machine → runs
	for _, p := range pts {
		k := p.c.Key()
		if machines[k] == nil {
			machines[k] = map[string]bool{}
		}
		machines[k][p.machine] = true
		if len(machines[k]) > 1 {
			l.vary["on"] = true
		}
		km := k + "\x00" + p.machine
		if runs[km] == nil {
			runs[km] = map[int]bool{}
		}
		runs[km][p.run] = true
		if len(runs[km]) > 1 {
			l.vary["run"] = true
		}
	}
	return l
}

// label names p: "variant/backend k=v ...", leaving out the dimensions in
// except (e.g. the one on the x axis).
func (l labeller) label(p point, except ...string) string {
	var b strings.Builder
	b.WriteString(p.c.Variant + "/" + p.c.Backend)
	for _, d := range l.dims {
		if !l.vary[d.name] || contains(except, d.name) {
			continue
		}
		v := d.value(p)
		if v == "" {
			continue
		}
		switch d.name {
		case "on":
			b.WriteString(" @" + v)
		case "run":
			b.WriteString(" run " + v)
		default:
			b.WriteString(" " + d.name + "=" + v)
		}
	}
	return b.String()
}

// common describes what all pts share (workload, machine), for a subtitle:
// e.g. "scale 20 ef 16, 64 searches, on h1 (NVIDIA H200)". Varying things
// are left out: they are in the labels or on an axis.
func (l labeller) common(pts []point) string {
	if len(pts) == 0 {
		return ""
	}
	p := pts[0]
	var parts []string
	switch {
	case p.c.Graph.File != "" && !l.vary["graph"]:
		parts = append(parts, "graph "+p.graph)
	case p.c.Graph.File == "" && !l.vary["scale"] && !l.vary["ef"]:
		parts = append(parts, fmt.Sprintf("scale %d ef %d", p.c.Graph.Scale, p.c.Graph.EdgeFactor))
	case p.c.Graph.File == "" && !l.vary["scale"]:
		parts = append(parts, fmt.Sprintf("scale %d", p.c.Graph.Scale))
	case p.c.Graph.File == "" && !l.vary["ef"]:
		parts = append(parts, fmt.Sprintf("ef %d", p.c.Graph.EdgeFactor))
	}
	nbfs := map[int]bool{}
	machines := map[string]bool{}
	for _, q := range pts {
		nbfs[len(q.c.BFS)] = true
		machines[q.machine] = true
	}
	if len(nbfs) == 1 {
		parts = append(parts, fmt.Sprintf("%d searches", len(p.c.BFS)))
	}
	if len(machines) == 1 && p.machine != "" {
		parts = append(parts, "on "+p.machine)
	}
	return strings.Join(parts, ", ")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
