// This file is vlqbench's -plot mode: it reads a CSV that vlqbench wrote
// earlier and draws Figure 5 of Ueno and Suzumura (HiPC 2013), encode and
// decode throughput in million values per second against the value range
// N, both on log scales, for the CPU and, where measured, the GPU codec. It
// writes figure-ueno-fig5.svg and figure-ueno-fig5.png, with the legend to
// the right of the plot, never over the data.

package main

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

const (
	fig5Name  = "figure-ueno-fig5"
	fig5Title = "Ueno and Suzumura Fig. 5: SIMD VLQ throughput vs value range (16 Mi uniform values)"
)

// fig5Series are the plotted columns, in legend order. A CPU cell must hold
// a number; a GPU cell may be empty (no GPU was found), and a GPU series
// with no number at all is left out.
var fig5Series = []struct {
	col, name string
	optional  bool
	color     color.Color
	dashed    bool
}{
	{"cpu_encode_mvals", "CPU encode", false, color.RGBA{0x4e, 0x79, 0xa7, 0xff}, true},
	{"cpu_decode_mvals", "CPU decode", false, color.RGBA{0xf2, 0x8e, 0x2b, 0xff}, true},
	{"gpu_encode_mvals", "GPU encode", true, color.RGBA{0x4e, 0x79, 0xa7, 0xff}, false},
	{"gpu_decode_mvals", "GPU decode", true, color.RGBA{0xf2, 0x8e, 0x2b, 0xff}, false},
}

// plotFig5 reads the vlqbench CSV at csvPath and writes the figure as
// figure-ueno-fig5.svg and .png in outDir (csvPath's directory when outDir
// is empty). It returns the paths written.
func plotFig5(csvPath, outDir string) ([]string, error) {
	ns, series, err := readFig5CSV(csvPath)
	if err != nil {
		return nil, err
	}
	if outDir == "" {
		outDir = filepath.Dir(csvPath)
	}
	var paths []string
	for _, format := range []string{"svg", "png"} {
		b, err := renderFig5(ns, series, format)
		if err != nil {
			return paths, fmt.Errorf("%s: %w", csvPath, err)
		}
		path := filepath.Join(outDir, fig5Name+"."+format)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// readFig5CSV returns the N column and one set of points (N, value) per
// entry of fig5Series (nil for an optional series with no value). Values
// must be positive, as both axes are logarithmic.
func readFig5CSV(path string) (ns []float64, series []plotter.XYs, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("%s: empty file, want a vlqbench CSV", path)
	} else if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	col := func(name string) (int, error) {
		if i := slices.Index(header, name); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("%s: header has no column %q (is it a vlqbench CSV?)", path, name)
	}
	nCol, err := col("N")
	if err != nil {
		return nil, nil, err
	}
	cols := make([]int, len(fig5Series))
	for k, s := range fig5Series {
		if cols[k], err = col(s.col); err != nil {
			return nil, nil, err
		}
	}
	series = make([]plotter.XYs, len(fig5Series))
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil { // a csv.ParseError names the line
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		// number parses the cell of column name, which must be positive.
		number := func(cell, name string) (float64, error) {
			v, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
			switch {
			case err != nil:
				return 0, fmt.Errorf("%s:%d: column %s: %q is not a number", path, line, name, cell)
			case !(v > 0) || math.IsInf(v, 0):
				return 0, fmt.Errorf("%s:%d: column %s: %q must be positive (log scale)", path, line, name, cell)
			}
			return v, nil
		}
		n, err := number(rec[nCol], "N")
		if err != nil {
			return nil, nil, err
		}
		ns = append(ns, n)
		for k, s := range fig5Series {
			cell := rec[cols[k]]
			if s.optional && strings.TrimSpace(cell) == "" {
				continue
			}
			v, err := number(cell, s.col)
			if err != nil {
				return nil, nil, err
			}
			series[k] = append(series[k], plotter.XY{X: n, Y: v})
		}
	}
	if len(ns) == 0 {
		return nil, nil, fmt.Errorf("%s: no data rows after the header", path)
	}
	for _, xys := range series {
		slices.SortFunc(xys, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
	}
	return ns, series, nil
}

// renderFig5 draws the figure and returns it as an SVG or PNG file's
// bytes. gonum panics on some degenerate inputs; that is returned as an
// error.
func renderFig5(ns []float64, series []plotter.XYs, format string) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rendering %s: %v", format, r)
		}
	}()
	p := plot.New()
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = "value range N (values uniform in [0, N])"
	p.Y.Label.Text = "million values per second"
	// Both axes are logarithmic, but drawn as linear axes over log2 N and
	// log10 of the throughput, with ticks labelled 2^k and 10^k: gonum's
	// plot.LogScale pads the plot by the axis labels as if they sat at the
	// arithmetic middle of the range, which on a log scale is near its end.
	p.X.Tick.Marker = pow2Ticks(ns)
	p.X.Min, p.X.Max = math.Log2(slices.Min(ns))-0.6, math.Log2(slices.Max(ns))+0.6
	p.Add(plotter.NewGrid())

	leg := plot.NewLegend()
	leg.ThumbnailWidth = vg.Points(24)
	leg.TextStyle.Font.Size = vg.Points(10)
	leg.Padding = vg.Points(3)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for k, xys := range series {
		if len(xys) == 0 {
			continue
		}
		s := fig5Series[k]
		logs := make(plotter.XYs, len(xys))
		for i, xy := range xys {
			logs[i] = plotter.XY{X: math.Log2(xy.X), Y: math.Log10(xy.Y)}
		}
		l, pts, err := plotter.NewLinePoints(logs)
		if err != nil {
			return nil, fmt.Errorf("series %s: %w", s.name, err)
		}
		l.Color, pts.Color = s.color, s.color
		l.Width = vg.Points(1.5)
		pts.Shape = draw.CircleGlyph{}
		if s.dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			pts.Shape = draw.BoxGlyph{}
		}
		p.Add(l, pts)
		leg.Add(s.name, l, pts)
		for _, xy := range xys {
			ymin, ymax = min(ymin, xy.Y), max(ymax, xy.Y)
		}
	}
	// Whole decades on y, labelled 10^k.
	lo, hi := math.Floor(math.Log10(ymin)), math.Ceil(math.Log10(ymax))
	if hi == lo {
		hi++
	}
	p.Y.Min, p.Y.Max = lo, hi
	p.Y.Tick.Marker = pow10Ticks(int(lo), int(hi))

	// The plot on the left, the legend in a column to its right.
	const margin = vg.Length(6)
	plotW, h := 6*vg.Inch, 4.5*vg.Inch
	legW := leg.ThumbnailWidth
	for _, e := range fig5Series {
		legW = max(legW, leg.ThumbnailWidth+leg.TextStyle.Width(" "+e.name))
	}
	w := plotW + legW + 4*margin
	if sty := p.Title.TextStyle; sty.Width(fig5Title) > plotW-2*margin {
		p.Title.Text = strings.Replace(fig5Title, ": ", ":\n", 1)
	} else {
		p.Title.Text = fig5Title
	}

	var c vg.CanvasWriterTo
	switch format {
	case "svg":
		c = vgsvg.New(w, h)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))}
	default:
		return nil, fmt.Errorf("unknown image format %q", format)
	}
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	p.Draw(draw.Crop(dc, margin, -(legW + 3*margin), margin, -margin))
	// Top of the legend level with the top of the data area, below the title.
	titleH := p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding
	leg.Top, leg.Left = true, true
	leg.Draw(draw.Crop(dc, w-legW-margin, -margin, margin, -(margin + titleH)))

	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("writing %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// pow2Ticks puts a tick at log2 of each distinct N, labelled 2^k where N
// is a power of two (or one less: the largest N is 2^32-1), else N.
func pow2Ticks(ns []float64) plot.ConstantTicks {
	var ts plot.ConstantTicks
	seen := map[float64]bool{}
	for _, n := range ns {
		if seen[n] {
			continue
		}
		seen[n] = true
		label := strconv.FormatFloat(n, 'g', 6, 64)
		k := math.Round(math.Log2(n))
		if p := math.Pow(2, k); math.Abs(n-p) <= 1e-6*p {
			label = fmt.Sprintf("2^%d", int(k))
		}
		ts = append(ts, plot.Tick{Value: math.Log2(n), Label: label})
	}
	return ts
}

// pow10Ticks puts ticks on a log10 axis from lo to hi: labelled 10^k at
// each whole k, and at 2…9 times each power of ten, unlabelled but for 2
// and 5 on a range of at most two decades.
func pow10Ticks(lo, hi int) plot.ConstantTicks {
	var ts plot.ConstantTicks
	for e := lo; e <= hi; e++ {
		ts = append(ts, plot.Tick{Value: float64(e), Label: fmt.Sprintf("10^%d", e)})
		for m := 2; m <= 9 && e < hi; m++ {
			t := plot.Tick{Value: float64(e) + math.Log10(float64(m))}
			if hi-lo <= 2 && (m == 2 || m == 5) {
				t.Label = fmt.Sprintf("%d×10^%d", m, e)
			}
			ts = append(ts, t)
		}
	}
	return ts
}
