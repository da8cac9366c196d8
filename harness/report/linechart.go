// This file is the package's figure machinery for data that is not a
// bfsbench run (a microbenchmark's CSV, e.g. ueno's SIMD VLQ throughput):
// lines over numeric x, drawn and saved as every figure here is.

package report

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LineSeries is one line of a LineChart: its legend entry and its points.
type LineSeries struct {
	Name   string
	Points []Point
}

// Point is one (x, y) of a LineSeries, with its spread where it has one:
// Lo and Hi (the first and third quartile of the repetitions behind Y)
// are drawn as an error bar where Hi > Lo; both 0 draw none.
type Point struct{ X, Y, Lo, Hi float64 }

// LineChart is a figure of lines over a numeric x axis.
type LineChart struct {
	Name           string // file name without extension
	Title          string // at most two lines (an error otherwise)
	Caption        string // one line under the plot: the setup
	XLabel, YLabel string
	// LogX and LogY put an axis on a log scale (its values must be
	// positive).
	LogX, LogY bool
	// XLabels, when set, labels exactly these x values and no others.
	XLabels map[float64]string
	Series  []LineSeries
}

// maxGlyphs is the most points of a series drawn with a glyph each.
const maxGlyphs = 64

// Save writes dir/Name.png and dir/Name.svg and returns their paths. A
// series without points is left out; a chart with none is an error.
//
// A log axis is drawn as a linear axis over log10 of the values, with
// ticks labelled by the values (1-2-5, or XLabels): gonum's LogScale pads
// the plot for its tick labels as if they sat at the range's arithmetic
// middle, which leaves wide empty margins when both axes are logarithmic.
func (c LineChart) Save(dir string) ([]string, error) {
	f, err := c.figure()
	if err != nil {
		return nil, err
	}
	return f.save(dir)
}

// figure builds the chart's figure.
func (c LineChart) figure() (*figure, error) {
	f := newFigure(c.Name, c.Title, c.Caption)
	f.strict = true
	f.p.X.Label.Text, f.p.Y.Label.Text = c.XLabel, c.YLabel
	f.p.Add(plotter.NewGrid())
	fx, fy := axisMap(c.LogX), axisMap(c.LogY)
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	n := 0
	for _, s := range c.Series {
		if len(s.Points) == 0 {
			continue
		}
		xy := make(plotter.XYs, len(s.Points))
		col, g, dash := seriesStyle(n)
		bars := &errorBars{line: draw.LineStyle{Color: col, Width: vg.Points(1)}, cap: vg.Points(5)}
		for i, p := range s.Points {
			if (c.LogX && !(p.X > 0)) || (c.LogY && !(p.Y > 0)) {
				return nil, fmt.Errorf("%s: series %s: point (%g, %g) on a log scale", c.Name, s.Name, p.X, p.Y)
			}
			xy[i] = plotter.XY{X: fx(p.X), Y: fy(p.Y)}
			xmin, xmax = math.Min(xmin, p.X), math.Max(xmax, p.X)
			ymin, ymax = math.Min(ymin, p.Y), math.Max(ymax, p.Y)
			if p.Hi > p.Lo && (!c.LogY || p.Lo > 0) {
				bars.xs, bars.lo, bars.hi = append(bars.xs, fx(p.X)), append(bars.lo, fy(p.Lo)), append(bars.hi, fy(p.Hi))
				ymin, ymax = math.Min(ymin, p.Lo), math.Max(ymax, p.Hi)
			}
		}
		lp, sp, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("%s: series %s: %w", c.Name, s.Name, err)
		}
		lp.Color, lp.Dashes, sp.Color, sp.Shape = col, dash, col, g
		lp.Width = vg.Points(1.5)
		if len(xy) > maxGlyphs { // a dense series reads as a line; glyphs would blot it
			f.add(lp)
			f.legend.Add(s.Name, lp)
		} else {
			f.add(lp, sp)
			f.legend.Add(s.Name, lp, sp)
		}
		if len(bars.xs) > 0 {
			f.add(bars)
		}
		n++
	}
	if n == 0 {
		return nil, errors.New(c.Name + ": no series with points")
	}
	if c.LogX {
		log10Axis(&f.p.X, xmin, xmax)
	} else {
		f.p.X.Tick.Marker = plot.TickerFunc(linearTicks)
	}
	if c.LogY {
		log10Axis(&f.p.Y, ymin, ymax)
	} else {
		f.p.Y.Tick.Marker = plot.TickerFunc(linearTicks)
	}
	if len(c.XLabels) > 0 {
		var ts plot.ConstantTicks
		for _, v := range slices.Sorted(maps.Keys(c.XLabels)) {
			ts = append(ts, plot.Tick{Value: fx(v), Label: c.XLabels[v]})
		}
		f.p.X.Tick.Marker = ts
	}
	return f, nil
}

// axisMap is what a value is drawn at: log10 of it on a log axis.
func axisMap(log bool) func(float64) float64 {
	if log {
		return math.Log10
	}
	return func(v float64) float64 { return v }
}

// log10Axis sets a linear axis over log10 of [min, max] (with logRange's
// margin) and ticks125's ticks, labelled by value.
func log10Axis(a *plot.Axis, min, max float64) {
	lo, hi := logRange(min, max)
	a.Min, a.Max = math.Log10(lo), math.Log10(hi)
	var ts plot.ConstantTicks
	for _, t := range ticks125(lo, hi) {
		ts = append(ts, plot.Tick{Value: math.Log10(t.Value), Label: t.Label})
	}
	a.Tick.Marker = ts
}
