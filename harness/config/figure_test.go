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
only = ["scale=21,gpus=1", "scale = 22, grid = 1x2"]

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
	want := []map[string]string{{"scale": "21", "gpus": "1"}, {"scale": "22", "grid": "1x2"}}
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
