// This file renders figures to PNG and SVG: a gonum plot with its legend
// drawn to the right of the plot area (never over the data), written
// atomically; and the styling helpers the plots share (colours, axis ticks,
// units).

package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sort"
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
//
// Every figure is drawn to the same rules (see rules.go): a title of at
// most two lines (the paper and the figure, or what is plotted), a caption
// of one line under the plot (the setup the cases share), a legend beside
// the plot with short entries, log axes labelled at 1, 2 and 5 of every
// decade.
type figure struct {
	name    string // file name without extension
	p       *plot.Plot
	title   string    // wrapped to at most two lines
	caption string    // one line under the plot: what the cases share (workload, machine)
	legend  legend    // drawn beside the plot, not inside it
	w, h    vg.Length // size of the plot part (the legend adds width)
	// strict makes a title longer than two lines an error (a declared
	// figure's config is to be fixed); otherwise it is cut with "…".
	strict bool
	// captionStyle is the caption's font, set by fitCaption.
	captionStyle text.Style
	// yLog: the y axis is a linear axis over log10 of the values, its
	// ticks labelled by value (declared figures; see yMap).
	yLog bool
	// drawn is what add added to the plot, in order (gonum keeps it
	// private; the tests read it).
	drawn []plot.Plotter
}

// add adds plotters to the plot.
func (f *figure) add(ps ...plot.Plotter) {
	f.p.Add(ps...)
	f.drawn = append(f.drawn, ps...)
}

// maxTitleLines is the most lines a figure's title takes.
const maxTitleLines = 2

// newFigure returns a figure with a plot titled title, caption under it
// (the workload), and an empty legend.
func newFigure(name, title, caption string) *figure {
	p := plot.New()
	p.Title.Padding = vg.Points(6)
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.Y.Label.Padding = vg.Points(4)
	leg := legend{TextStyle: plot.NewLegend().TextStyle, Padding: vg.Points(2), ThumbnailWidth: vg.Points(20)}
	leg.TextStyle.Font.Size = vg.Points(10)
	cs := p.Title.TextStyle
	cs.Font.Size = captionFont
	cs.XAlign, cs.YAlign = draw.XLeft, draw.YBottom
	return &figure{name: name, p: p, title: title, caption: caption, legend: leg, w: 6 * vg.Inch, h: 4.5 * vg.Inch, captionStyle: cs}
}

// setTitle sets the plot's title, wrapped at spaces to the plot's width
// so that it never runs into the legend, on at most maxTitleLines lines:
// a longer title is an error for a strict figure and cut with "…" for
// the others.
func (f *figure) setTitle() error {
	sty := f.p.Title.TextStyle
	width := f.w - vg.Inch/2
	lines := wrap(sty, f.title, width)
	if len(lines) > maxTitleLines {
		if f.strict {
			return fmt.Errorf("the title %q takes %d lines, at most %d: keep the paper and the figure in it, the setup in the caption or the README", f.title, len(lines), maxTitleLines)
		}
		lines = lines[:maxTitleLines]
		lines[maxTitleLines-1] = fitText(sty, lines[maxTitleLines-1]+" …", width)
	}
	f.p.Title.Text = strings.Join(lines, "\n")
	return nil
}

// fitText cuts s at its end, marked "…", until it is no wider than width.
func fitText(sty text.Style, s string, width vg.Length) string {
	if sty.Width(s) <= width {
		return s
	}
	r := []rune(strings.TrimSuffix(s, " …"))
	for len(r) > 0 && sty.Width(string(r)+" …") > width {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ;,") + " …"
}

// Caption fonts: the caption shrinks from captionFont down to
// minCaptionFont to fit on one line, and is cut with "…" past that.
const (
	captionFont    = vg.Length(9)
	minCaptionFont = vg.Length(7.5)
)

// fitCaption makes the caption one line as wide as the image at most.
func (f *figure) fitCaption(width vg.Length) {
	if f.caption == "" {
		return
	}
	f.caption = strings.Join(strings.Fields(f.caption), " ")
	sty := f.captionStyle
	for sty.Width(f.caption) > width && sty.Font.Size > minCaptionFont {
		sty.Font.Size -= vg.Points(0.5)
	}
	f.captionStyle = sty
	f.caption = fitText(sty, f.caption, width)
}

// captionHeight is the height the caption takes under the plot.
func (f *figure) captionHeight() vg.Length {
	if f.caption == "" {
		return 0
	}
	return f.captionStyle.FontExtents().Height + vg.Points(4)
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

// breakLabel breaks each line of label that is wider than width (as
// measure measures it) into lines no wider than width where it can:
// first after '=', ',', ';' or '/' (which stay on the first line) or at a
// space (which goes), then, for a piece still too wide, within the word
// after '_' or '-'. A piece with no break in it stays whole, even if it
// is wider than width. Lines that fit are left as they are.
func breakLabel(label string, width vg.Length, measure func(string) vg.Length) []string {
	var out []string
	for _, line := range strings.Split(label, "\n") {
		if measure(line) <= width {
			out = append(out, line)
			continue
		}
		for _, l := range packPieces(line, " =,;/", width, measure) {
			if measure(l) <= width {
				out = append(out, l)
				continue
			}
			out = append(out, packPieces(l, "_-", width, measure)...)
		}
	}
	return out
}

// packPieces cuts s after each of the characters in breaks, and at each
// space (dropped), and joins the pieces back greedily into lines no wider
// than width.
func packPieces(s, breaks string, width vg.Length, measure func(string) vg.Length) []string {
	type piece struct {
		text  string
		space bool // a space was cut after it
	}
	var pieces []piece
	start := 0
	for i, r := range s {
		switch {
		case r == ' ':
			pieces = append(pieces, piece{s[start:i], true})
			start = i + 1
		case strings.ContainsRune(breaks, r):
			pieces = append(pieces, piece{s[start : i+1], false})
			start = i + 1
		}
	}
	pieces = append(pieces, piece{s[start:], false})
	var lines []string
	line := pieces[0].text
	for i, p := range pieces[1:] {
		joined := line + p.text
		if pieces[i].space {
			joined = line + " " + p.text
		}
		if line == "" || measure(joined) <= width {
			line = joined
			continue
		}
		lines = append(lines, line)
		line = p.text
	}
	return append(lines, line)
}

// Tick labels on a categorical x axis (NominalX: a stack's "1x1" and
// "bitmap_messages=off", say) are centred on ticks that may be narrower
// apart than the labels are wide, and run into each other. fitXTicks does
// the simple thing, in this order:
//  1. a label line wider than the space between two ticks (less
//     tickLabelGap) is broken (breakLabel: after '=' or ',' and the like,
//     else within a word after '_' or '-');
//  2. if a piece is still too wide, the tick font shrinks by half points,
//     breaking again at each size, down to minTickFont; a label that does
//     not fit even then (one long word) is left as it is at minTickFont,
//     as smaller text is no longer readable.
//
// The space is the smallest between neighbouring labelled ticks, so every
// label breaks at one width and all get the same font. Exact value ticks
// (valueTicks) are plot.ConstantTicks too and get the same treatment; their
// short numbers fit, so nothing changes there.
func (f *figure) fitXTicks() {
	ticks, ok := f.p.X.Tick.Marker.(plot.ConstantTicks)
	if !ok || len(ticks) == 0 {
		return
	}
	// NominalX pads the y axis by half the first label's width, so that it
	// does not run into the y axis: by the broken label's, below.
	nominalPad := f.p.Y.Padding == f.p.X.Tick.Label.Width(ticks[0].Label)/2
	w, h, lw := f.size()
	da := f.p.DataCanvas(f.plotArea(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}}, lw))
	var xs []float64
	for _, t := range ticks {
		if t.Label == "" {
			continue
		}
		if x := float64(da.X(f.p.X.Norm(t.Value))); !math.IsNaN(x) && !math.IsInf(x, 0) {
			xs = append(xs, x)
		}
	}
	if len(xs) < 2 {
		return
	}
	sort.Float64s(xs)
	space := math.Inf(1)
	for i := 1; i < len(xs); i++ {
		space = math.Min(space, xs[i]-xs[i-1])
	}
	avail := vg.Length(space) - tickLabelGap
	if avail <= 0 {
		return
	}
	sty := f.p.X.Tick.Label
	var labels [][]string
	for size := sty.Font.Size; ; size -= vg.Points(0.5) {
		size = max(size, minTickFont)
		sty.Font.Size = size
		labels = labels[:0]
		fits := true
		for _, t := range ticks {
			lines := breakLabel(t.Label, avail, sty.Width)
			for _, l := range lines {
				fits = fits && sty.Width(l) <= avail
			}
			labels = append(labels, lines)
		}
		if fits || size <= minTickFont {
			break
		}
	}
	out := make(plot.ConstantTicks, len(ticks))
	for i, t := range ticks {
		out[i] = plot.Tick{Value: t.Value, Label: strings.Join(labels[i], "\n")}
	}
	f.p.X.Tick.Marker = out
	f.p.X.Tick.Label = sty
	if nominalPad {
		f.p.Y.Padding = sty.Width(out[0].Label) / 2
	}
}

const (
	tickLabelGap = vg.Length(4) // the least space between two tick labels
	minTickFont  = vg.Length(7) // the smallest tick font fitXTicks uses
)

// legendGap is the space between the plot and the legend, and around it.
const legendGap = 12

// legendTextWidth is the widest a legend entry's text gets: about 60
// characters in the legend's 10-point font. A longer entry (a paper's
// series, labelled with the paper, its hardware and the source) is wrapped
// at spaces onto more lines.
const legendTextWidth = vg.Length(300)

// legend is a figure's legend: a swatch and a text per entry, top to
// bottom, after plot.Legend (icons left, entries from the top), but an
// entry longer than legendTextWidth is wrapped onto several lines, each
// entry is as tall as its own lines and its swatch sits beside its first
// line.
type legend struct {
	TextStyle      text.Style
	Padding        vg.Length // between entries
	ThumbnailWidth vg.Length
	entries        []legendEntry
}

type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
}

// Add adds an entry: its text and the swatches drawn beside it, one over
// the other.
func (l *legend) Add(name string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{text: name, thumbs: thumbs})
}

// lines is s wrapped to legendTextWidth.
func (l *legend) lines(s string) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, wrap(l.TextStyle, para, legendTextWidth)...)
	}
	return out
}

// lineHeight is the height of an entry of one line (the swatch's height),
// and pitch the distance between the baselines of two lines.
func (l *legend) lineHeight() (lineHeight, pitch vg.Length) {
	return l.TextStyle.Rectangle("X").Max.Y, l.TextStyle.FontExtents().Height
}

// size is the legend's width and height (0 when it has no entry).
func (l *legend) size() (w, h vg.Length) {
	lh, pitch := l.lineHeight()
	for i, e := range l.entries {
		lines := l.lines(e.text)
		for _, s := range lines {
			w = max(w, l.ThumbnailWidth+l.TextStyle.Width(" "+s))
		}
		h += lh + vg.Length(len(lines)-1)*pitch
		if i > 0 {
			h += l.Padding
		}
	}
	return w, h
}

// Draw draws the legend at the top left of c.
func (l *legend) Draw(c draw.Canvas) {
	sty := l.TextStyle
	lh, pitch := l.lineHeight()
	descent := sty.FontExtents().Descent
	textX := c.Min.X + l.ThumbnailWidth + sty.Width(" ")
	top := c.Max.Y - descent // where plot.Legend starts its first entry
	for _, e := range l.entries {
		icon := &draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Min.X, Y: top - lh},
			Max: vg.Point{X: c.Min.X + l.ThumbnailWidth, Y: top},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(icon)
		}
		// The first baseline where plot.Legend puts a one-line entry's.
		y := top - lh + descent/2
		lines := l.lines(e.text)
		for _, s := range lines {
			c.FillText(sty, vg.Point{X: textX, Y: y}, s)
			y -= pitch
		}
		top -= lh + vg.Length(len(lines)-1)*pitch + l.Padding
	}
}

// size returns the whole image size and the legend's width.
func (f *figure) size() (w, h, lw vg.Length) {
	lw, lh := f.legend.size()
	w, h = f.w+12, f.h+12 // the margins of draw
	if lw > 0 {
		w += lw + 2*legendGap
	}
	if lh+4*legendGap > h {
		h = lh + 4*legendGap
	}
	return w, h + f.captionHeight(), lw
}

// draw draws the plot, its legend and its caption on c.
func (f *figure) draw(c vg.CanvasSizer) {
	w, h, lw := f.size()
	dc := draw.NewCanvas(c, w, h)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	if lw > 0 {
		// Align the legend's top with the top of the data area, below the title.
		top := f.p.Title.TextStyle.Rectangle(f.p.Title.Text).Max.Y + f.p.Title.Padding + legendGap + plotMargin
		f.legend.Draw(draw.Crop(dc, w-lw-legendGap, -legendGap, legendGap+f.captionHeight(), -top))
	}
	if f.caption != "" {
		d := f.captionStyle.FontExtents().Descent
		dc.FillText(f.captionStyle, vg.Point{X: dc.Min.X + plotMargin, Y: dc.Min.Y + plotMargin + d}, f.caption)
	}
	f.p.Draw(f.plotArea(dc, lw))
}

// plotMargin is the margin on every side, so no label touches the image's
// edge.
const plotMargin = vg.Length(6)

// plotArea is the part of the image dc the plot is drawn in, left of a
// legend lw wide and above the caption.
func (f *figure) plotArea(dc draw.Canvas, lw vg.Length) draw.Canvas {
	const m = plotMargin
	bottom := m + f.captionHeight()
	if lw > 0 {
		return draw.Crop(dc, m, -(lw + 2*legendGap), bottom, -m)
	}
	return draw.Crop(dc, m, -m, bottom, -m)
}

// render returns the figure as a PNG or SVG file's bytes. gonum panics on
// some degenerate inputs; that is returned as an error.
func (f *figure) render(format string) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rendering %s: %v", format, r)
		}
	}()
	if err := f.setTitle(); err != nil {
		return nil, err
	}
	lw, _ := f.legend.size()
	f.fitCaption(f.w + lw + 2*legendGap - 2*plotMargin)
	f.fitXTicks()
	w, h, _ := f.size()
	switch format {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))
		f.draw(c)
		return compactPNG(c.Image())
	case "svg":
		c := vgsvg.New(w, h)
		f.draw(c)
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	return nil, fmt.Errorf("unknown image format %q", format)
}

// compactPNG encodes img as a PNG of at most 256 colours: the 256 most
// frequent ones, every other pixel (an anti-aliased edge) taking the
// nearest of them, at the best compression. A figure has a dozen colours
// and their blends, so this looks the same at a third of the size.
func compactPNG(img image.Image) ([]byte, error) {
	b := img.Bounds()
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	cols := make([]color.RGBA, 0, len(count))
	for c := range count {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool {
		if count[cols[i]] != count[cols[j]] {
			return count[cols[i]] > count[cols[j]]
		}
		return rgbaKey(cols[i]) < rgbaKey(cols[j])
	})
	if len(cols) > 256 {
		cols = cols[:256]
	}
	pal := make(color.Palette, len(cols))
	index := map[color.RGBA]uint8{}
	for i, c := range cols {
		pal[i] = c
		index[c] = uint8(i)
	}
	out := image.NewPaletted(b, pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func rgbaKey(c color.RGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
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
	a.Min, a.Max = logRange(min, max)
	return true
}

// maxLabelledDecades is the widest log axis whose ticks are labelled at 1,
// 2 and 5 of every decade; a wider one is labelled at the powers of ten,
// the 2 and 5 ticks left unlabelled.
const maxLabelledDecades = 6

// logRange is the range of a log axis showing [lo, hi]: from the largest
// 1, 2 or 5 of a decade under lo/1.05 to the smallest over hi*1.05, so
// that both ends are labelled ticks and at least two lie in it.
func logRange(lo, hi float64) (min, max float64) {
	min, max = floor125(lo/1.05), ceil125(hi*1.05)
	if max <= min {
		max = step125(min, +1)
	}
	return min, max
}

// floor125 is the largest 1, 2 or 5 of a decade not above v; ceil125 the
// smallest not below it.
func floor125(v float64) float64 {
	if is125(v) {
		return v
	}
	return step125(v, -1)
}

func ceil125(v float64) float64 {
	if is125(v) {
		return v
	}
	return step125(v, +1)
}

// is125 reports whether v is 1, 2 or 5 times a power of ten.
func is125(v float64) bool {
	e := math.Floor(math.Log10(v))
	for _, m := range []float64{1, 2, 5, 10} {
		if math.Abs(v-m*math.Pow(10, e)) <= 1e-9*v {
			return true
		}
	}
	return false
}

// step125 is the next 1, 2 or 5 of a decade below (dir -1) or above
// (dir +1) v.
func step125(v float64, dir int) float64 {
	e := math.Floor(math.Log10(v))
	var cands []float64
	for d := e - 1; d <= e+1; d++ {
		for _, m := range []float64{1, 2, 5} {
			cands = append(cands, m*math.Pow(10, d))
		}
	}
	best := v
	for _, c := range cands {
		switch {
		case dir < 0 && c < v*(1-1e-9) && (best == v || c > best):
			best = c
		case dir > 0 && c > v*(1+1e-9) && (best == v || c < best):
			best = c
		}
	}
	return best
}

// labelled is the ticks of ts that carry a label.
func labelled(ts []plot.Tick) []plot.Tick {
	var out []plot.Tick
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t)
		}
	}
	return out
}

// ticks125 puts ticks at 1, 2 and 5 times each power of ten in [min, max],
// all labelled (the log scale's own ticker labels only powers of ten, often
// none of them on a short range). Over more than maxLabelledDecades only
// the powers of ten are labelled, and over more than 20 decades only every
// few of them are ticked.
func ticks125(min, max float64) []plot.Tick {
	decades := math.Log10(max / min)
	step := math.Max(1, math.Ceil(decades/20))
	var ts []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e += step {
		for _, m := range []float64{1, 2, 5} {
			if step > 1 && m != 1 {
				continue
			}
			v := m * math.Pow(10, e)
			if v < min*(1-1e-9) || v > max*(1+1e-9) { // math.Pow rounds
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || decades <= maxLabelledDecades {
				t.Label = tickLabel(v)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// tickLabel writes a tick's value as a reader writes it: 0.05, 200,
// 5000, and with an exponent only past a million or under 1e-4.
func tickLabel(v float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64) // math.Pow's rounding off
	if a := math.Abs(r); a != 0 && (a >= 1e6 || a < 1e-4) {
		return strconv.FormatFloat(r, 'g', 3, 64)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
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
