package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// runeWidth measures a string as one point per character, so that the
// widths in TestBreakLabel are counts of characters.
func runeWidth(s string) vg.Length { return vg.Length(utf8.RuneCountInString(s)) }

func TestBreakLabel(t *testing.T) {
	for _, tc := range []struct {
		label string
		width vg.Length
		want  []string
	}{
		// Fits: unchanged, lines and all.
		{"1x1\nbitmap_messages=off", 19, []string{"1x1", "bitmap_messages=off"}},
		{"2x2", 3, []string{"2x2"}},
		{"", 5, []string{""}},
		// Broken after '=', which stays on the first line; a fitting line stays.
		{"1x1\nbitmap_messages=off", 18, []string{"1x1", "bitmap_messages=", "off"}},
		{"1x1\nbitmap_messages=off", 16, []string{"1x1", "bitmap_messages=", "off"}},
		// Still too wide: within the word after '_'.
		{"1x1\nbitmap_messages=off", 15, []string{"1x1", "bitmap_", "messages=", "off"}},
		// Greedy: as many pieces on a line as fit.
		{"a=1,b=2,c=3", 8, []string{"a=1,b=2,", "c=3"}},
		{"a=1,b=2,c=3", 4, []string{"a=1,", "b=2,", "c=3"}},
		{"a=1,b=2,c=3", 2, []string{"a=", "1,", "b=", "2,", "c=", "3"}},
		// At spaces, which go.
		{"scale 21 ef 16", 9, []string{"scale 21", "ef 16"}},
		{"expand=scatter_parents", 15, []string{"expand=", "scatter_parents"}},
		{"expand=scatter_parents", 10, []string{"expand=", "scatter_", "parents"}},
		{"merrill-p1", 8, []string{"merrill-", "p1"}},
		{"a/b", 2, []string{"a/", "b"}},
		// No break: whole, however wide.
		{"abcdefghij", 3, []string{"abcdefghij"}},
		{"x=abcdefghij", 3, []string{"x=", "abcdefghij"}},
	} {
		got := breakLabel(tc.label, tc.width, runeWidth)
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
			t.Errorf("breakLabel(%q, %v) = %q, want %q", tc.label, tc.width, got, tc.want)
		}
	}
}

// TestFitXTicks: eight stacks labelled "1x1\nbitmap_messages=off" and the
// like on a plot 480 points wide (as drawStacked sizes it) get labels that
// fit between their ticks, broken, at the tick font's usual size.
func TestFitXTicks(t *testing.T) {
	f := newFigure("ticks", "title", "")
	f.w = 8 * vg.Points(60)
	var ticks []string
	for _, g := range []string{"1x1", "1x2", "2x1", "2x2"} {
		for _, b := range []string{"off", "auto"} {
			ticks = append(ticks, g+"\nbitmap_messages="+b)
		}
	}
	bars, err := plotter.NewBarChart(make(plotter.Values, len(ticks)), vg.Points(20))
	if err != nil {
		t.Fatal(err)
	}
	f.p.Add(bars)
	f.p.NominalX(ticks...)
	f.p.X.Min, f.p.X.Max = -0.5, float64(len(ticks))-0.5
	size := f.p.X.Tick.Label.Font.Size
	if _, err := f.render("png"); err != nil {
		t.Fatal(err)
	}
	got := f.p.X.Tick.Marker.Ticks(f.p.X.Min, f.p.X.Max)
	sty := f.p.X.Tick.Label
	if sty.Font.Size != size {
		t.Errorf("tick font %v, want %v unchanged", sty.Font.Size, size)
	}
	// About 50 points between ticks: "bitmap_messages=" is wider.
	if want := "1x1\nbitmap_\nmessages=\noff"; got[0].Label != want {
		t.Errorf("first label %q, want %q", got[0].Label, want)
	}
	for _, tk := range got {
		for _, l := range strings.Split(tk.Label, "\n") {
			if w := sty.Width(l); w > vg.Points(50) {
				t.Errorf("label line %q is %v wide", l, w)
			}
		}
	}
	// A second rendering (PNG, then SVG) changes nothing.
	if _, err := f.render("svg"); err != nil {
		t.Fatal(err)
	}
	if again := f.p.X.Tick.Marker.Ticks(f.p.X.Min, f.p.X.Max); again[0].Label != got[0].Label || f.p.X.Tick.Label.Font.Size != size {
		t.Errorf("second rendering: %q at %v", again[0].Label, f.p.X.Tick.Label.Font.Size)
	}
}

// TestFitXTicksShrinks: six labels with no break in them on a plot of the
// usual width: short ones keep the tick font, longer ones get a smaller one
// that fits, and far too long ones minTickFont.
func TestFitXTicksShrinks(t *testing.T) {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	for _, tc := range []struct {
		label  string
		shrink bool
		floor  bool
	}{
		{letters[:8], false, false},
		{letters[:16], true, false},
		{letters, true, true},
	} {
		f := newFigure("ticks", "title", "")
		ticks := make([]string, 6)
		for i := range ticks {
			ticks[i] = tc.label
		}
		f.p.NominalX(ticks...)
		f.p.X.Min, f.p.X.Max = -0.5, float64(len(ticks))-0.5
		size := f.p.X.Tick.Label.Font.Size
		f.fitXTicks()
		sty := f.p.X.Tick.Label
		got := sty.Font.Size
		switch {
		case !tc.shrink && got != size:
			t.Errorf("%q: tick font %v, want %v", tc.label, got, size)
		case tc.shrink && tc.floor && got != minTickFont:
			t.Errorf("%q: tick font %v, want %v", tc.label, got, minTickFont)
		case tc.shrink && !tc.floor && (got >= size || got <= minTickFont):
			t.Errorf("%q: tick font %v, want between %v and %v", tc.label, got, minTickFont, size)
		}
		if lbl := f.p.X.Tick.Marker.Ticks(0, 5)[0].Label; lbl != tc.label {
			t.Errorf("label %q, want %q unbroken", lbl, tc.label)
		}
		if want := sty.Width(tc.label) / 2; f.p.Y.Padding != want {
			t.Errorf("%q: y padding %v, want %v (half the label at the new size)", tc.label, f.p.Y.Padding, want)
		}
	}
}

// TestLegendWraps: a paper's long series label is wrapped onto lines no
// wider than legendTextWidth; a short one stays on one line, and each
// entry is as tall as its lines.
func TestLegendWraps(t *testing.T) {
	ref := &Reference{Paper: "Mitsuishi, Suzuki, Hayashi, Kan, Amano [Mitsuishi]",
		Hardware: "Merrill: Merrill et al.'s BFS as the paper quotes it; Gaming: 4× GeForce GTX 660, PCIe 3.0; Express: 4× Tesla K20 over ExpEther (10 GbE)"}
	f := newFigure("legend", "title", "")
	f.legend.Add("expand=scatter_parents")
	f.legend.Add(ref.label("expand=scatter_parents (Gaming)"))
	long := f.legend.lines(f.legend.entries[1].text)
	if len(long) < 3 {
		t.Errorf("long entry on %d lines: %q", len(long), long)
	}
	if got := strings.Join(long, " "); got != f.legend.entries[1].text {
		t.Errorf("wrapped entry %q, want the words of %q", got, f.legend.entries[1].text)
	}
	for _, l := range long {
		if w := f.legend.TextStyle.Width(l); w > legendTextWidth {
			t.Errorf("legend line %q is %v wide", l, w)
		}
	}
	if short := f.legend.lines(f.legend.entries[0].text); len(short) != 1 {
		t.Errorf("short entry wrapped: %q", short)
	}
	w, h := f.legend.size()
	lh, pitch := f.legend.lineHeight()
	if want := 2*lh + vg.Length(len(long)-1)*pitch + f.legend.Padding; h != want {
		t.Errorf("legend height %v, want %v", h, want)
	}
	if w > f.legend.ThumbnailWidth+f.legend.TextStyle.Width(" ")+legendTextWidth {
		t.Errorf("legend width %v", w)
	}
	if _, err := f.render("png"); err != nil {
		t.Fatal(err)
	}
}
