package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/sdk"
)

const good = `# a comment
[workload]
scale = [10, 12]
edgefactor = 16
seed = [2, 3]
nbfs = 4

[[variant]]
name = "a"
plugin = "reference"

[[variant]]
name = "b"
plugin = "reference"
timeout = "90s"
grid = [2, 2]
[variant.params]
alpha = [10, 20]
direction_optimizing = false
`

func TestParseGood(t *testing.T) {
	c, err := Parse("good.toml", good)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Workloads) != 2 || c.Workloads[0].Spec.Scale != 10 || c.Workloads[1].Spec.Scale != 12 {
		t.Fatalf("workloads = %+v", c.Workloads)
	}
	if c.Workloads[0].NBFS != 4 || c.Workloads[0].Spec.Seed != [2]uint64{2, 3} {
		t.Fatalf("workload[0] = %+v", c.Workloads[0])
	}
	if len(c.Variants) != 2 {
		t.Fatalf("variants = %d", len(c.Variants))
	}
	b := c.Variants[1]
	if b.Ranks != 4 || b.Grid != [2]int{2, 2} || b.Timeout != 90*time.Second || b.Backend != "cpu" || b.Launcher != "embedded" {
		t.Fatalf("variant b = %+v", b)
	}
	if got := strings.Join(b.ParamOrder, ","); got != "alpha,direction_optimizing" {
		t.Fatalf("param order = %s (want file order)", got)
	}
	if c.Variants[0].Timeout != DefaultTimeout {
		t.Fatalf("default timeout = %v", c.Variants[0].Timeout)
	}
}

// TestVariantScales: a variant with scales runs at those workloads only,
// and the case count follows.
func TestVariantScales(t *testing.T) {
	c, err := ParseMax("w.toml", "[workload]\nscale = [24, 25, 26]\n[[variant]]\nname = \"one\"\nplugin = \"r\"\nscales = [24]\n"+
		"[[variant]]\nname = \"two\"\nplugin = \"r\"\nscales = [25, 26]\n[variant.params]\nx = [1, 2]\n", 5)
	if err != nil {
		t.Fatal(err) // 1 + 2×2 = 5 cases: within the limit
	}
	var got []string
	for _, v := range c.Variants {
		for _, w := range c.Workloads {
			if v.RunsAt(w) {
				got = append(got, fmt.Sprintf("%s@%d", v.Name, w.Spec.Scale))
			}
		}
	}
	if s := strings.Join(got, " "); s != "one@24 two@25 two@26" {
		t.Fatalf("runs at %s", s)
	}
	if _, err := ParseMax("w.toml", c.Text, 4); err == nil || !strings.Contains(err.Error(), "5 cases") {
		t.Fatalf("limit 4: err = %v, want 5 cases counted", err)
	}
}

func TestSeedList(t *testing.T) {
	c, err := Parse("s.toml", "[workload]\nscale = 8\nseed = [[1, 2], [3, 4]]\n[[variant]]\nplugin = \"x\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Workloads) != 2 || c.Workloads[1].Spec.Seed != [2]uint64{3, 4} {
		t.Fatalf("workloads = %+v", c.Workloads)
	}
	if c.Variants[0].Name != "x-cpu" {
		t.Fatalf("default name = %q", c.Variants[0].Name)
	}
}

// TestParseErrors: every error names the file, the line and the key.
func TestParseErrors(t *testing.T) {
	base := "[workload]\nscale = 10\n\n[[variant]]\nplugin = \"reference\"\n"
	tests := []struct {
		name, text string
		line       int
		key, msg   string
	}{
		{"unknown top key", "bogus = 1\n" + base, 1, "bogus", "unknown key"},
		{"unknown workload key", "[workload]\nscale = 10\nscael = 3\n[[variant]]\nplugin = \"r\"\n", 3, "workload.scael", "unknown key"},
		{"wrong type scale", "[workload]\nscale = \"ten\"\n[[variant]]\nplugin = \"r\"\n", 2, "workload.scale", "want an integer"},
		{"wrong element type", "[workload]\nscale = [10, \"x\"]\n[[variant]]\nplugin = \"r\"\n", 2, "workload.scale", "element 1"},
		{"unknown variant key", base + "colour = \"red\"\n", 6, "variant[0].colour", "unknown key"},
		{"second variant bad backend", base + "\n[[variant]]\nplugin = \"r\"\nbackend = \"opencl\"\n", 9, "variant[1].backend", "want \"cpu\" or \"cuda\""},
		{"bad timeout", base + "timeout = \"soon\"\n", 6, "variant[0].timeout", "duration"},
		{"grid and ranks disagree", base + "ranks = 3\ngrid = [2, 2]\n", 7, "variant[0].grid", "4 ranks"},
		{"param table value", base + "[variant.params]\nx = {a = 1}\n", 7, "variant[0].params.x", "want a number"},
		{"syntax", "[workload\nscale = 1\n", 2, "", "expected"}, // the TOML decoder places it where the line ends
		{"no variant", "[workload]\nscale = 10\n", 0, "", "no [[variant]]"},
		{"file and scale", "[workload]\nscale = 10\nfile = \"g.mtx\"\n[[variant]]\nplugin = \"r\"\n", 3, "workload.file", "not both"},
		{"hostfile without mpirun", base + "hostfile = \"h\"\n", 6, "variant[0].hostfile", "need launcher"},
		{"scale not in workload", base + "scales = [11]\n", 6, "variant[0].scales", "not one of the [workload] scales"},
		{"scales wrong type", base + "scales = \"24\"\n", 6, "variant[0].scales", "want an integer"},
		{"duplicate names", base + "name = \"a\"\n[[variant]]\nplugin = \"r\"\nname = \"a\"\n", 9, "variant[1].name", "duplicate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.toml", tt.text)
			if err == nil {
				t.Fatal("no error")
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %T %v is not a *config.Error", err, err)
			}
			if ce.File != "c.toml" || ce.Line != tt.line || (tt.key != "" && ce.Key != tt.key) || !strings.Contains(ce.Msg, tt.msg) {
				t.Fatalf("got file=%s line=%d key=%q msg=%q; want line %d key %q msg containing %q", ce.File, ce.Line, ce.Key, ce.Msg, tt.line, tt.key, tt.msg)
			}
		})
	}
}

var testInfo = sdk.Info{
	Name: "p", Backends: []string{"cpu"},
	Params: []sdk.Param{
		{Name: "k", Type: sdk.TypeInt, Default: int64(4), Min: sdk.Bound(1), Max: sdk.Bound(8)},
		{Name: "mode", Type: sdk.TypeString, Default: "auto", Choices: []string{"auto", "on", "off"}},
		{Name: "alpha", Type: sdk.TypeFloat, Default: 0.0625},
	},
}

func TestPoints(t *testing.T) {
	c, err := Parse("p.toml", "[workload]\nscale = 8\n[[variant]]\nplugin = \"p\"\n[variant.params]\nk = [1, 2, 4]\nmode = [\"on\", \"off\"]\nalpha = 1\n")
	if err != nil {
		t.Fatal(err)
	}
	pts, err := c.Variants[0].Points(testInfo)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 6 {
		t.Fatalf("%d points, want 6", len(pts))
	}
	seen := map[string]bool{}
	for _, p := range pts {
		if p["alpha"] != 1.0 {
			t.Fatalf("alpha normalized to %T %v, want float64 1", p["alpha"], p["alpha"])
		}
		seen[strings.Join([]string{string(rune('0' + p["k"].(int64))), p["mode"].(string)}, "/")] = true
	}
	if len(seen) != 6 {
		t.Fatalf("points not distinct: %v", seen)
	}
}

func TestPointsErrors(t *testing.T) {
	tests := []struct {
		params, key, msg string
		line             int
	}{
		{"kk = 1", "variant[0].params.kk", "no such parameter", 6},
		{"k = 9", "variant[0].params.k", "above the maximum", 6},
		{"k = 1.5", "variant[0].params.k", "want an integer", 6},
		{"mode = \"maybe\"", "variant[0].params.mode", "want one of", 6},
		{"k = [1, \"x\"]", "variant[0].params.k", "want an integer", 6},
	}
	for _, tt := range tests {
		c, err := Parse("p.toml", "[workload]\nscale = 8\n[[variant]]\nplugin = \"p\"\n[variant.params]\n"+tt.params+"\n")
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Variants[0].Points(testInfo)
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != tt.key || ce.Line != tt.line || !strings.Contains(ce.Msg, tt.msg) {
			t.Errorf("%s: got %v; want %s at line %d containing %q", tt.params, err, tt.key, tt.line, tt.msg)
		}
	}
	c, _ := Parse("p.toml", "[workload]\nscale = 8\n[[variant]]\nplugin = \"p\"\nbackend = \"cuda\"\n")
	if _, err := c.Variants[0].Points(testInfo); err == nil || !strings.Contains(err.Error(), "no \"cuda\" backend") {
		t.Errorf("backend check: %v", err)
	}
}

func TestValidateSetting(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int
		err   string // a substring of the error, "" for none
	}{
		{``, ValidateAll, ""},
		{`validate = "all"`, ValidateAll, ""},
		{`validate = 2`, 2, ""},
		{`validate = 0`, 0, ""},
		{`validate = -1`, 0, `key "workload.validate"`},
		{`validate = "some"`, 0, `want "all" or a number`},
		{`validate = 1.5`, 0, `workload.validate`},
	} {
		c, err := Parse("v.toml", "[workload]\nscale = 8\n"+tc.value+"\n[[variant]]\nname = \"a\"\nplugin = \"reference\"\n")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "v.toml:3") {
				t.Errorf("%s: error %v, want one at v.toml:3 holding %q", tc.value, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.value, err)
			continue
		}
		if got := c.Workloads[0].Validate; got != tc.want {
			t.Errorf("%s: validate %d, want %d", tc.value, got, tc.want)
		}
	}
}

// TestNameParams: a case is named by its swept keys and the keys whose
// value differs from its preset's; the preset names it when it is not the
// plugin's default.
func TestNameParams(t *testing.T) {
	info := sdk.Info{
		Name: "p", Backends: []string{"cpu"},
		Params: []sdk.Param{
			{Name: "preset", Type: sdk.TypeString, Default: "tuned", Choices: []string{"tuned", "paper"}},
			{Name: "k", Type: sdk.TypeInt, Default: int64(4)},
			{Name: "mode", Type: sdk.TypeString, Default: "auto", Choices: []string{"auto", "on", "off"}},
			{Name: "alpha", Type: sdk.TypeFloat, Default: 0.0625},
		},
	}
	for _, tc := range []struct {
		params string // [variant.params]
		want   []string
	}{
		{"", nil},
		{"alpha = 0.0625\n", nil}, // set to the preset's value
		{"alpha = 1\n", []string{"[alpha]"}},
		{"k = [4, 8]\n", []string{"[k]", "[k]"}}, // swept: named even at the default
		{"preset = [\"tuned\", \"paper\"]\n", []string{"[preset]", "[preset]"}},
		{"preset = \"paper\"\nmode = \"on\"\n", []string{"[mode preset]"}},
		{"preset = \"tuned\"\nk = 4\n", []string{"[]"}},
	} {
		c, err := Parse("p.toml", "[workload]\nscale = 8\n[[variant]]\nplugin = \"p\"\n[variant.params]\n"+tc.params)
		if err != nil {
			t.Fatal(err)
		}
		v := c.Variants[0]
		pts, err := v.Points(info)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, pt := range pts {
			names, err := v.NameParams(info, pt)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprint(names))
		}
		if len(tc.want) == 0 {
			tc.want = []string{"[]"}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: named by %v, want %v", tc.params, got, tc.want)
		}
	}
	// A plugin without presets: compared with its defaults.
	c, err := Parse("p.toml", "[workload]\nscale = 8\n[[variant]]\nplugin = \"p\"\n[variant.params]\nk = 2\nmode = \"auto\"\n")
	if err != nil {
		t.Fatal(err)
	}
	pts, err := c.Variants[0].Points(testInfo)
	if err != nil {
		t.Fatal(err)
	}
	if names, err := c.Variants[0].NameParams(testInfo, pts[0]); err != nil || !slices.Equal(names, []string{"k"}) {
		t.Errorf("without presets: %v %v, want [k]", names, err)
	}
}

// TestNBFSOneValue: an nbfs list of several values is an error naming the
// key and the line (its cases would share one key); one value in a list is
// the value.
func TestNBFSOneValue(t *testing.T) {
	v := "[[variant]]\nplugin = \"reference\"\n"
	_, err := Parse("t.toml", "[workload]\nscale = 10\nnbfs = [4, 8]\n"+v)
	var ce *Error
	if !errors.As(err, &ce) || ce.Key != "workload.nbfs" || ce.Line != 3 || !strings.Contains(err.Error(), "share one key") {
		t.Errorf("nbfs = [4, 8]: err %v, want an error at workload.nbfs, line 3, saying the cases would share one key", err)
	}
	cfg, err := Parse("t.toml", "[workload]\nscale = 10\nnbfs = [8]\n"+v)
	if err != nil || len(cfg.Workloads) != 1 || cfg.Workloads[0].NBFS != 8 {
		t.Errorf("nbfs = [8]: %v, %+v; want one workload of 8 searches", err, cfg)
	}
}

// TestWorkloadValueListedTwice: a value repeated in a [workload] list
// would run each of its cases twice into one record; it is an error naming
// the key and the line.
func TestWorkloadValueListedTwice(t *testing.T) {
	v := "[[variant]]\nplugin = \"reference\"\n"
	for _, tc := range []struct {
		text, key string
	}{
		{"[workload]\nscale = [10, 10]\n" + v, "workload.scale"},
		{"[workload]\nscale = [10, 11, 10]\n" + v, "workload.scale"},
		{"[workload]\nscale = 10\nedgefactor = [16, 8, 16]\n" + v, "workload.edgefactor"},
		{"[workload]\nscale = 10\nnbfs = [4, 4]\n" + v, "workload.nbfs"},
		{"[workload]\nscale = 10\nseed = [[1, 2], [1, 2]]\n" + v, "workload.seed"},
		{"[workload]\nfile = [\"g.txt\", \"./g.txt\"]\n" + v, "workload.file"},
		{"[workload]\nfile = \"g.txt\"\nformat = [\"snap\", \"snap\"]\n" + v, "workload.format"},
	} {
		_, err := Parse("t.toml", tc.text)
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != tc.key || ce.Line < 2 || !strings.Contains(err.Error(), "twice") {
			t.Errorf("%q: err %v, want an error at %s saying a value is listed twice", tc.text, err, tc.key)
		}
	}
	if _, err := Parse("t.toml", "[workload]\nscale = [10, 11]\nseed = [[1, 2], [2, 1]]\n"+v); err != nil {
		t.Errorf("distinct values refused: %v", err)
	}
}

// TestParamValueListedTwice: so is a value repeated in a variant's
// parameter list (numbers compared as numbers).
func TestParamValueListedTwice(t *testing.T) {
	w := "[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\n[variant.params]\n"
	for _, tc := range []struct {
		text, key string
	}{
		{w + "k = [64, 64]\n", "variant[0].params.k"},
		{w + "a = [1, 2]\nk = [14, 2.5, 14.0]\n", "variant[0].params.k"},
		{w + "k = [\"x\", \"y\", \"x\"]\n", "variant[0].params.k"},
		{w + "k = [true, true]\n", "variant[0].params.k"},
	} {
		_, err := Parse("t.toml", tc.text)
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != tc.key || ce.Line < 6 || !strings.Contains(err.Error(), "twice") {
			t.Errorf("%q: err %v, want an error at %s saying a value is listed twice", tc.text, err, tc.key)
		}
	}
	if _, err := Parse("t.toml", w+"k = [14, 14.5, true, \"14\", \"true\"]\nj = [1, 2]\n"); err != nil {
		t.Errorf("distinct values refused: %v", err)
	}
}
