// This file holds the small plotters the declared figures draw with,
// beside gonum's: bars that start at the bottom of a log axis, error bars
// and markers placed beside a bar (offset in points from their category),
// and text beside a point.

package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// bars is a series of bars at positions xs (data units), each moved by
// offset and width wide (points), from the bottom of the data area on a
// log axis or from 0 on a linear one, up to ys (NaN: no bar).
type bars struct {
	xs, ys   []float64
	offset   vg.Length
	width    vg.Length
	fill     color.Color // nil: not filled
	line     draw.LineStyle
	logScale bool
}

func (b *bars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, x := range b.xs {
		y := b.ys[i]
		if math.IsNaN(y) || math.IsInf(y, 0) {
			continue
		}
		x0 := trX(x) + b.offset - b.width/2
		bottom := c.Min.Y
		if !b.logScale && plt.Y.Min <= 0 {
			bottom = trY(0)
		}
		top := trY(y)
		pts := []vg.Point{{X: x0, Y: bottom}, {X: x0, Y: top}, {X: x0 + b.width, Y: top}, {X: x0 + b.width, Y: bottom}}
		if b.fill != nil {
			c.FillPolygon(b.fill, c.ClipPolygonY(pts))
		}
		c.StrokeLines(b.line, c.ClipLinesY(append(pts, pts[0]))...)
	}
}

// DataRange covers the bars' positions and heights.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, x := range b.xs {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		if y := b.ys[i]; !math.IsNaN(y) && !math.IsInf(y, 0) {
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
	}
	if !b.logScale {
		ymin = math.Min(ymin, 0)
	}
	return
}

// Thumbnail draws the legend swatch: a filled or outlined box.
func (b *bars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	if b.fill != nil {
		c.FillPolygon(b.fill, pts)
	}
	c.StrokeLines(b.line, append(pts, pts[0]))
}

// errorBars draws vertical bars from lo to hi at xs (data units) moved by
// offset points, with caps; NaN ends are skipped, and ends beyond the axis
// are clipped to it.
type errorBars struct {
	xs, lo, hi []float64
	offset     vg.Length
	line       draw.LineStyle
	cap        vg.Length
}

func (e *errorBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, x := range e.xs {
		lo, hi := e.lo[i], e.hi[i]
		if math.IsNaN(lo) || math.IsNaN(hi) || hi <= lo {
			continue
		}
		lo, hi = math.Max(lo, plt.Y.Min), math.Min(hi, plt.Y.Max) // -Inf: 0 on a log axis
		if hi <= lo {
			continue
		}
		xc := trX(x) + e.offset
		y0, y1 := trY(lo), trY(hi)
		c.StrokeLine2(e.line, xc, y0, xc, y1)
		c.StrokeLine2(e.line, xc-e.cap/2, y0, xc+e.cap/2, y0)
		c.StrokeLine2(e.line, xc-e.cap/2, y1, xc+e.cap/2, y1)
	}
}

// DataRange covers the bars' ends.
func (e *errorBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, x := range e.xs {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		if !math.IsNaN(e.lo[i]) && !math.IsNaN(e.hi[i]) {
			ymin, ymax = math.Min(ymin, e.lo[i]), math.Max(ymax, e.hi[i])
		}
	}
	return
}

// glyphs draws a glyph at each (x moved by offset points, y), and a text
// beside it where one is given; ys of NaN stand at the bottom of the data
// area (a case with no value: failed, invalid, or not drawable on a log
// axis).
type glyphs struct {
	xs, ys []float64
	texts  []string
	offset vg.Length
	style  draw.GlyphStyle
	font   text.Style
}

func (g *glyphs) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, x := range g.xs {
		pt := vg.Point{X: trX(x) + g.offset, Y: c.Min.Y + g.style.Radius + vg.Points(1)}
		if y := g.ys[i]; !math.IsNaN(y) && !math.IsInf(y, 0) {
			pt.Y = trY(y)
		}
		if !c.Contains(pt) {
			continue
		}
		c.DrawGlyph(g.style, pt)
		if i < len(g.texts) && g.texts[i] != "" {
			c.FillText(g.font, vg.Point{X: pt.X, Y: pt.Y + g.style.Radius + vg.Points(2)}, g.texts[i])
		}
	}
}

// Thumbnail draws the glyph, for the legend.
func (g *glyphs) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(g.style, c.Center())
}

// newGlyphs returns a glyphs plotter whose texts are small and centred
// above each glyph.
func newGlyphs(style draw.GlyphStyle, fontSize vg.Length) *glyphs {
	f := plot.NewLegend().TextStyle
	f.Font.Size = fontSize
	f.XAlign, f.YAlign = draw.XCenter, draw.YBottom
	f.Color = color.Gray{Y: 0x40}
	return &glyphs{style: style, font: f}
}

// newTags returns a glyphs plotter of texts alone, written upwards from
// each point (tags over narrow bars do not run into each other).
func newTags(fontSize vg.Length) *glyphs {
	g := newGlyphs(draw.GlyphStyle{Radius: 0, Shape: draw.CircleGlyph{}}, fontSize)
	g.font.Rotation = math.Pi / 2
	g.font.XAlign, g.font.YAlign = draw.XLeft, draw.YCenter
	return g
}

// vline draws a vertical dotted line at x across the data area.
type vline struct {
	x    float64
	line draw.LineStyle
}

func (v vline) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	x := trX(v.x)
	c.StrokeLine2(v.line, x, c.Min.Y, x, c.Max.Y)
}

// legendLine is a legend swatch of a line alone.
type legendLine struct{ line draw.LineStyle }

func (l legendLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.line, c.Min.X, y, c.Max.X, y)
}
