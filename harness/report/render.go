// This file renders figures to PNG and SVG: a gonum plot with its legend
// drawn to the right of the plot area (never over the data), written
// atomically; and the styling helpers the plots share (colours, axis ticks,
// units).

package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/bfsbench/bfsbench/harness/results"
)

// figure is one plot to be written as name.png and name.svg.
type figure struct {
	name            string // file name without extension
	p               *plot.Plot
	title, subtitle string      // the subtitle says what the cases share (workload, machine)
	legend          plot.Legend // drawn beside the plot, not inside it
	w, h            vg.Length   // size of the plot part (the legend adds width)
}

// newFigure returns a figure with a plot titled title and subtitle (the
// workload), and an empty legend.
func newFigure(name, title, subtitle string) *figure {
	p := plot.New()
	p.Title.Padding = vg.Points(6)
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.Y.Label.Padding = vg.Points(4)
	leg := plot.NewLegend()
	leg.Left = true // icons first, then text
	leg.Top = true
	leg.TextStyle.Font.Size = vg.Points(10)
	leg.Padding = vg.Points(2)
	return &figure{name: name, p: p, title: title, subtitle: subtitle, legend: leg, w: 6 * vg.Inch, h: 4.5 * vg.Inch}
}

// setTitle sets the plot's title from title and subtitle, each wrapped at
// spaces to the plot's width, so a long title never runs into the legend.
func (f *figure) setTitle() {
	sty := f.p.Title.TextStyle
	width := f.w - vg.Inch/2
	lines := wrap(sty, f.title, width)
	if f.subtitle != "" {
		lines = append(lines, wrap(sty, f.subtitle, width)...)
	}
	f.p.Title.Text = strings.Join(lines, "\n")
}

// wrap breaks s at spaces into lines no wider than width in style sty
// (a single word wider than width stays whole).
func wrap(sty text.Style, s string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case sty.Width(line+" "+word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// legendGap is the space between the plot and the legend, and around it.
const legendGap = 12

// size returns the whole image size and the legend's width.
func (f *figure) size() (w, h, lw vg.Length) {
	r := f.legend.Rectangle(draw.Canvas{})
	lw, lh := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	w, h = f.w+12, f.h+12 // the margins of draw
	if lw > 0 {
		w += lw + 2*legendGap
	}
	if lh+4*legendGap > h {
		h = lh + 4*legendGap
	}
	return w, h, lw
}

// draw draws the plot and its legend on c.
func (f *figure) draw(c vg.CanvasSizer) {
	w, h, lw := f.size()
	dc := draw.NewCanvas(c, w, h)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	// A margin on every side, so no label touches the image's edge.
	const m = vg.Length(6)
	plotArea := draw.Crop(dc, m, -m, m, -m)
	if lw > 0 {
		plotArea = draw.Crop(dc, m, -(lw + 2*legendGap), m, -m)
		// Align the legend's top with the top of the data area, below the title.
		top := f.p.Title.TextStyle.Rectangle(f.p.Title.Text).Max.Y + f.p.Title.Padding + legendGap + m
		f.legend.Draw(draw.Crop(dc, w-lw-legendGap, -legendGap, legendGap, -top))
	}
	f.p.Draw(plotArea)
}

// render returns the figure as a PNG or SVG file's bytes. gonum panics on
// some degenerate inputs; that is returned as an error.
func (f *figure) render(format string) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rendering %s: %v", format, r)
		}
	}()
	f.setTitle()
	w, h, _ := f.size()
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))}
	case "svg":
		c = vgsvg.New(w, h)
	default:
		return nil, fmt.Errorf("unknown image format %q", format)
	}
	f.draw(c)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// save writes dir/name.png and dir/name.svg and returns their paths.
func (f *figure) save(dir string) ([]string, error) {
	var paths []string
	for _, format := range []string{"png", "svg"} {
		b, err := f.render(format)
		if err != nil {
			return paths, err
		}
		path := filepath.Join(dir, f.name+"."+format)
		if err := writeFile(path, b); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// palette is Tableau 10: distinguishable colours, also in print.
var palette = []color.Color{
	rgb(0x4e79a7), rgb(0xf28e2b), rgb(0xe15759), rgb(0x76b7b2), rgb(0x59a14f),
	rgb(0xedc948), rgb(0xb07aa1), rgb(0xff9da7), rgb(0x9c755f), rgb(0xbab0ac),
}

func rgb(x uint32) color.Color {
	return color.RGBA{R: uint8(x >> 16), G: uint8(x >> 8), B: uint8(x), A: 0xff}
}

// seriesStyle is the colour, glyph and dash pattern of series i: colours
// cycle first, then the dash and glyph change, so up to 10×8 series differ.
func seriesStyle(i int) (color.Color, draw.GlyphDrawer, []vg.Length) {
	return palette[i%len(palette)], plotutil.Shape(i), plotutil.Dashes(i / len(palette))
}

// tepsUnit picks a TEPS unit for values up to max: GTEPS unless the values
// are tiny (CPU runs on small graphs), then MTEPS or KTEPS.
func tepsUnit(max float64) (div float64, name string) {
	switch {
	case max >= 1e8:
		return 1e9, "GTEPS"
	case max >= 1e5:
		return 1e6, "MTEPS"
	}
	return 1e3, "KTEPS"
}

// timeUnit picks a time unit for values (seconds) up to max.
func timeUnit(max float64) (mul float64, name string) {
	switch {
	case max >= 1:
		return 1, "s"
	case max >= 1e-3:
		return 1e3, "ms"
	}
	return 1e6, "µs"
}

// useLog puts axis a on a log scale with 1-2-5 ticks when its values span
// more than ratio (all must be positive); it reports whether it did.
func useLog(a *plot.Axis, min, max, ratio float64) bool {
	if min <= 0 || max <= 0 || max/min <= ratio || math.IsInf(max/min, 0) {
		return false
	}
	a.Scale = plot.LogScale{}
	a.Tick.Marker = plot.TickerFunc(ticks125)
	a.Min, a.Max = min/1.3, max*1.3
	return true
}

// ticks125 labels 1, 2 and 5 times each power of ten in [min, max], only
// the powers of ten over more than three decades, and every few of those
// over more than eight (the log scale's own ticker labels only powers of
// ten, often none of them on a short range, and all of them on a huge one).
func ticks125(min, max float64) []plot.Tick {
	mantissas := []float64{1, 2, 5}
	if max/min > 1e3 { // over three decades 1-2-5 is too dense
		mantissas = []float64{1}
	}
	// At most about 8 labelled decades: step over some on a huge range.
	step := math.Max(1, math.Ceil(math.Log10(max/min)/8))
	var ts []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e += step {
		for _, m := range mantissas {
			v := m * math.Pow(10, e)
			if v >= min*(1-1e-9) && v <= max*(1+1e-9) { // math.Pow rounds
				ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 3, 64)})
			}
		}
	}
	return ts
}

// valueTicks labels exactly the given x values (few distinct sweep points,
// e.g. ranks 1 2 4 8), which reads better than generic ticks.
func valueTicks(vals []float64) plot.Ticker {
	var ts plot.ConstantTicks
	for _, v := range vals {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
	}
	return ts
}

// slug makes s usable in a file name: letters, digits, '.', '-' and '_'
// kept, runs of anything else become one '_'; at most 60 bytes.
func slug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range s {
		ok := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-')
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.Trim(b.String(), "_")
	if len(out) > 60 {
		out = strings.TrimRight(out[:60], "_")
	}
	return out
}

// writeFile replaces path by data atomically and makes it readable by all
// (results.WriteFileAtomic's temporary file is created with mode 0600).
func writeFile(path string, data []byte) error {
	if err := results.WriteFileAtomic(path, data); err != nil {
		return err
	}
	return os.Chmod(path, 0o644)
}
