package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const figBase = "[workload]\nscale = 10\n\n[[variant]]\nplugin = \"reference\"\n"

func TestFigureGood(t *testing.T) {
	text := figBase + `
[[figure]]
name = "weak"
x = "grid"
y = "gteps"
series = ["bitmap_messages", "variant"]
kind = "bar"
title = "Weak scaling"
reference = "paper.csv"
only = ["scale=21,gpus=1", "scale = 22, grid = 1x2", "variant=diropt,seed=2/3"]

[[figure]]
name = "levels"
x = "level"
y = "time"
logy = true
`
	c, err := Parse("dir/c.toml", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Figures) != 2 {
		t.Fatalf("%d figures", len(c.Figures))
	}
	f := c.Figures[0]
	if f.Name != "weak" || f.X != "grid" || f.Y != "gteps" || f.Kind != KindBar || f.Title != "Weak scaling" {
		t.Fatalf("figure 0 = %+v", f)
	}
	if !reflect.DeepEqual(f.Series, []string{"bitmap_messages", "variant"}) {
		t.Fatalf("series = %v", f.Series)
	}
	want := []map[string]string{{"scale": "21", "gpus": "1"}, {"scale": "22", "grid": "1x2"}, {"variant": "diropt", "seed": "2,3"}}
	if !reflect.DeepEqual(f.Only, want) {
		t.Fatalf("only = %v", f.Only)
	}
	if got := f.ReferencePath(); got != filepath.Join("dir", "paper.csv") {
		t.Fatalf("reference path %q, want it beside the config", got)
	}
	g := c.Figures[1]
	if g.Kind != KindLine || !g.LogY || g.LogX || !reflect.DeepEqual(g.Series, []string{"variant"}) || g.Reference != "" {
		t.Fatalf("figure 1 defaults = %+v", g)
	}
	// The same tables read back from a results file's copy of the config.
	figs, err := ParseFigures("results.json", text)
	if err != nil || len(figs) != 2 || figs[1].Name != "levels" {
		t.Fatalf("ParseFigures: %v, %d figures", err, len(figs))
	}
}

// TestFigureErrors: a misspelt or mistyped figure key is an error naming
// the file, the line and the key, like every other config error.
func TestFigureErrors(t *testing.T) {
	fig := "\n[[figure]]\nname = \"f\"\nx = \"scale\"\ny = \"gteps\"\n" // lines 6-10
	tests := []struct {
		name, extra string
		line        int
		key, msg    string
	}{
		{"misspelt key", "seires = \"variant\"\n", 11, "figure[0].seires", "unknown key"},
		{"misspelt logy", "log_y = true\n", 11, "figure[0].log_y", "unknown key"},
		{"wrong type logx", "logx = \"yes\"\n", 11, "figure[0].logx", "want true or false"},
		{"bad kind", "kind = \"pie\"\n", 11, "figure[0].kind", "want \"line\""},
		{"series number", "series = 3\n", 11, "figure[0].series", "dimension name"},
		{"series is x", "series = \"scale\"\n", 11, "figure[0].series", "already the x axis"},
		{"reference not csv", "reference = \"p.txt\"\n", 11, "figure[0].reference", ".csv"},
		{"only not pairs", "only = [\"scale21\"]\n", 11, "figure[0].only", "dimension=value"},
		{"stacked gteps", "kind = \"stacked\"\n", 10, "figure[0].y", "stacks every phase"},
		{"log x bar", "kind = \"bar\"\nlogx = true\n", 12, "figure[0].logx", "log x axis"},
		{"per rank gteps", "per_rank = true\n", 11, "figure[0].per_rank", "byte counters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.toml", figBase+fig+tt.extra)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *config.Error", err)
			}
			if ce.File != "c.toml" || ce.Line != tt.line || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) {
				t.Fatalf("got %v (line %d key %q); want line %d key %q msg containing %q", err, ce.Line, ce.Key, tt.line, tt.key, tt.msg)
			}
		})
	}
	for _, tt := range []struct {
		text, key, msg string
		line           int
	}{
		{"\n[[figure]]\nname = \"f\"\nx = \"scale\"\n", "figure[0]", "missing key \"y\"", 7},
		{"\n[[figure]]\nname = \"a b\"\nx = \"scale\"\ny = \"gteps\"\n", "figure[0].name", "want letters", 8},
		{"\n[[figure]]\nname = \"f\"\nx = \"level\"\ny = \"gteps\"\n", "figure[0].y", "whole search", 10},
		{"\n[[figure]]\nname = \"f\"\nx = \"level\"\ny = \"transfer\"\n", "figure[0].y", "whole search", 10},
		{"\n[[figure]]\nname = \"f\"\nx = \"scale\"\ny = \"phase:\"\n", "figure[0].y", "want gteps", 10},
		{"\n[[figure]]\nname = \"f\"\nx = \"scale\"\ny = \"bytes:a,,b\"\n", "figure[0].y", "want gteps", 10},
		{"\n[[figure]]\nname = \"f\"\nx = \"scale\"\ny = \"phases\"\nkind = \"stacked\"\nlogy = true\n", "figure[0].logy", "log axes", 12},
		{"\n[[figure]]\nname = \"f\"\nx = \"scale\"\ny = \"phase:=a+b\"\n", "figure[0].y", "want gteps", 10},
		{fig + "\n[[figure]]\nname = \"f\"\nx = \"ranks\"\ny = \"time\"\n", "figure[1].name", "duplicate", 13},
	} {
		_, err := Parse("c.toml", figBase+tt.text)
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != tt.key || ce.Line != tt.line || !strings.Contains(ce.Msg, tt.msg) {
			t.Errorf("%q: got %v; want %s at line %d containing %q", tt.text, err, tt.key, tt.line, tt.msg)
		}
	}
	_, err := Parse("c.toml", "figure = 3\n"+figBase)
	var ce *Error
	if !errors.As(err, &ce) || ce.Key != "figure" || ce.Line != 1 || !strings.Contains(ce.Msg, "array of tables") {
		t.Errorf("figure = 3: got %v", err)
	}
}

// TestYItems: y = "phase:..." and "bytes:..." name one quantity or a list
// of labelled sums.
func TestYItems(t *testing.T) {
	items, ok := YItems("compute=expansion+update,transfer=expand_exchange+fold_exchange,wait")
	want := []YItem{
		{"compute", []string{"expansion", "update"}},
		{"transfer", []string{"expand_exchange", "fold_exchange"}},
		{"wait", []string{"wait"}},
	}
	if !ok || !reflect.DeepEqual(items, want) {
		t.Fatalf("YItems = %v, %v", items, ok)
	}
	if items, ok := YItems("a+b"); !ok || items[0].Label != "a+b" {
		t.Errorf("unlabelled sum: %v, %v", items, ok)
	}
	for _, bad := range []string{"", "a,", "=a", "a=", "a b", "x=a+", "a=b=c"} {
		if _, ok := YItems(bad); ok {
			t.Errorf("YItems(%q) accepted", bad)
		}
	}
	text := figBase + "\n[[figure]]\nname = \"f\"\nx = \"ranks\"\ny = \"bytes:expand,fold\"\nkind = \"stacked\"\nper_rank = true\n"
	c, err := Parse("c.toml", text)
	if err != nil || !c.Figures[0].PerRank {
		t.Fatalf("stacked byte items per rank: %v", err)
	}
}

// TestFigureRatioAndTable: over (a ratio of two sets of cases) and the
// table kind parse into their fields, and their misuse is an error at the
// key.
func TestFigureRatioAndTable(t *testing.T) {
	text := figBase + `
[[figure]]
name = "speedup"
x = "scale"
y = "gteps"
over = "variant=cpu, threads=1"

[[figure]]
name = "tab"
kind = "table"
x = "scale"
columns = ["levels", "phase:kernel=scan+dense", "info:upload_s + transfer"]
headers = ["iterations", "kernels", "copies"]
`
	c, err := Parse("c.toml", text)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Figures[0].Over; !reflect.DeepEqual(got, map[string]string{"variant": "cpu", "threads": "1"}) {
		t.Errorf("over = %v", got)
	}
	tab := c.Figures[1]
	if tab.Kind != KindTable || tab.Y != "" || len(tab.Columns) != 3 || tab.Headers[2] != "copies" {
		t.Errorf("table = %+v", tab)
	}
	fig := "\n[[figure]]\nname = \"f\"\nx = \"scale\"\n" // lines 6-9
	for _, tt := range []struct {
		name, extra, key, msg string
	}{
		{"over not a pair", "y = \"gteps\"\nover = \"cpu\"\n", "figure[0].over", "dimension=value"},
		{"over of times", "y = \"time\"\nover = \"variant=cpu\"\n", "", ""},
		{"over on x", "y = \"gteps\"\nover = \"scale=14\"\n", "figure[0].over", "x axis"},
		{"over of speedup", "y = \"speedup\"\nover = \"variant=cpu\"\n", "figure[0].over", "divides one quantity"},
		{"over of a list", "y = \"phase:a,b\"\nover = \"variant=cpu\"\n", "figure[0].over", "divides one quantity"},
		{"over stacked", "y = \"phases\"\nkind = \"stacked\"\nover = \"variant=cpu\"\n", "figure[0].over", "takes no over"},
		{"table with y", "kind = \"table\"\ny = \"gteps\"\ncolumns = [\"levels\"]\n", "figure[0].y", "takes no y"},
		{"table without columns", "kind = \"table\"\n", "figure[0]", "missing key \"columns\""},
		{"table column list", "kind = \"table\"\ncolumns = [\"phase:a,b\"]\n", "figure[0].columns", "whole search"},
		{"table column stack", "kind = \"table\"\ncolumns = [\"phases\"]\n", "figure[0].columns", "whole search"},
		{"sum of a rate", "y = \"gteps + time\"\n", "figure[0].y", "want gteps"},
		{"headers count", "kind = \"table\"\ncolumns = [\"levels\", \"time\"]\nheaders = [\"a\"]\n", "figure[0].headers", "2 columns"},
		{"columns on a line", "y = \"time\"\ncolumns = [\"levels\"]\n", "figure[0].columns", "belong to kind"},
		{"info by scale", "y = \"info:upload_s\"\n", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.toml", figBase+fig+tt.extra)
			if tt.key == "" {
				if err != nil {
					t.Fatalf("want no error, got %v", err)
				}
				return
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) {
				t.Fatalf("got %v; want key %q, message containing %q", err, tt.key, tt.msg)
			}
		})
	}
	// x = level takes neither a ratio nor the per-case quantities.
	for _, y := range []string{"levels", "info:upload_s", "time + transfer"} {
		_, err := Parse("c.toml", figBase+"\n[[figure]]\nname = \"f\"\nx = \"level\"\ny = \""+y+"\"\n")
		if err == nil || !strings.Contains(err.Error(), "whole search") {
			t.Errorf("x = level, y = %q: %v", y, err)
		}
	}
}

// TestWholeY: the quantities of a whole search, and sums of times.
func TestWholeY(t *testing.T) {
	for y, want := range map[string]bool{
		"gteps": true, "levels": true, "info:upload_s": true, "phase:a+b": true, "phase:k=a+b": true,
		"bytes:expand": true, "time + transfer": true, "info:upload_s + transfer + phase:scan": true,
		"speedup": false, "phases": false, "phase:a,b": false, "info:": false, "info:a b": false,
		"gteps + time": false, "levels + time": false, "bytes:a + time": false, "time+transfer": false,
	} {
		if got := WholeY(y); got != want {
			t.Errorf("WholeY(%q) = %v, want %v", y, got, want)
		}
	}
	if got := SumTerms("info:upload_s + transfer"); !reflect.DeepEqual(got, []string{"info:upload_s", "transfer"}) {
		t.Errorf("SumTerms = %q", got)
	}
}
