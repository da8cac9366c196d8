package sdk

import (
	"bytes"
	"encoding/gob"
	"maps"
	"path/filepath"
	"strings"
	"testing"
)

func TestParamNormalize(t *testing.T) {
	tests := []struct {
		p       Param
		in      any
		want    any
		wantErr string
	}{
		{Param{Type: TypeInt}, int64(3), int64(3), ""},
		{Param{Type: TypeInt}, 3, int64(3), ""},
		{Param{Type: TypeInt}, 3.0, int64(3), ""},
		{Param{Type: TypeInt}, 3.5, nil, "want an integer"},
		{Param{Type: TypeInt}, "3", nil, "want an integer"},
		{Param{Type: TypeInt, Min: Bound(1), Max: Bound(8)}, int64(9), nil, "above the maximum"},
		{Param{Type: TypeInt, Min: Bound(1), Max: Bound(8)}, int64(0), nil, "below the minimum"},
		{Param{Type: TypeFloat}, int64(2), 2.0, ""},
		{Param{Type: TypeFloat}, true, nil, "want a number"},
		{Param{Type: TypeBool}, true, true, ""},
		{Param{Type: TypeBool}, "true", nil, "want true or false"},
		{Param{Type: TypeString, Choices: []string{"auto", "on"}}, "on", "on", ""},
		{Param{Type: TypeString, Choices: []string{"auto", "on"}}, "off", nil, "want one of"},
		{Param{Type: "complex"}, 1, nil, "unknown type"},
	}
	for _, tt := range tests {
		got, err := tt.p.Normalize(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Normalize(%v) as %s: err %v, want %q", tt.in, tt.p.Type, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%v) as %s = %v (%T), %v; want %v", tt.in, tt.p.Type, got, got, err, tt.want)
		}
	}
}

func TestCheckParamsFillsDefaults(t *testing.T) {
	in := Info{Name: "x", Params: []Param{
		{Name: "a", Type: TypeInt, Default: int64(4)},
		{Name: "b", Type: TypeBool, Default: true},
	}}
	got, err := in.CheckParams(map[string]any{"a": int64(2)})
	if err != nil || got["a"] != int64(2) || got["b"] != true {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, err := in.CheckParams(map[string]any{"c": 1}); err == nil || !strings.Contains(err.Error(), `no parameter "c" (it has: a, b)`) {
		t.Fatalf("unknown parameter: %v", err)
	}
}

func TestParentsFileShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parents")
	w, err := CreateParentsFile(path, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r, err := OpenParentsFile(path, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range r.Slice() {
		r.Slice()[i] = int64(i*7 - 1)
	}
	for i, p := range w.Slice() {
		if p != int64(i*7-1) {
			t.Fatalf("parent %d = %d through the other mapping", i, p)
		}
	}
	if _, err := OpenParentsFile(path, 999); err == nil {
		t.Fatal("size mismatch not reported")
	}
}

// TestParamGobKeepsZeroBounds: a bound of 0 survives the RPC encoding
// (plain gob would drop it), and a missing bound stays missing.
func TestParamGobKeepsZeroBounds(t *testing.T) {
	in := Info{Name: "x", Params: []Param{
		{Name: "a", Type: TypeInt, Default: int64(0), Min: Bound(0), Max: Bound(1000), Help: "h"},
		{Name: "b", Type: TypeFloat, Default: 0.5, Help: "h"},
		{Name: "c", Type: TypeBool, Default: false, Help: "h"},
	}}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(in); err != nil {
		t.Fatal(err)
	}
	var out Info
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	a, b, c := out.Params[0], out.Params[1], out.Params[2]
	if a.Min == nil || *a.Min != 0 || a.Max == nil || *a.Max != 1000 || a.Default != int64(0) {
		t.Errorf("a: %+v", a)
	}
	if b.Min != nil || b.Max != nil || b.Default != 0.5 {
		t.Errorf("b: %+v", b)
	}
	if c.Default != false {
		t.Errorf("c: %+v", c)
	}
	if _, err := out.CheckParams(map[string]any{"a": int64(-1)}); err == nil {
		t.Error("a = -1 accepted after the round trip")
	}
}

// TestCheckParamsResolvesPresets: the one rule, for every kind of value:
// the config's value, else the preset's, else the default.
func TestCheckParamsResolvesPresets(t *testing.T) {
	in := Info{Name: "x", Params: []Param{
		{Name: PresetParam, Type: TypeString, Default: "tuned", Choices: []string{"tuned", "paper"}},
		{Name: "k", Type: TypeInt, Default: int64(4), Presets: map[string]any{"paper": 1}},
		{Name: "mode", Type: TypeString, Default: "fast", Presets: map[string]any{"paper": "as-printed"}, Choices: []string{"fast", "as-printed"}},
		{Name: "check", Type: TypeBool, Default: true, Presets: map[string]any{"paper": false}},
		{Name: "alpha", Type: TypeFloat, Default: 14.0},
	}}
	for _, tc := range []struct {
		given map[string]any
		want  map[string]any
	}{
		{nil, map[string]any{PresetParam: "tuned", "k": int64(4), "mode": "fast", "check": true, "alpha": 14.0}},
		{map[string]any{PresetParam: "paper"}, map[string]any{PresetParam: "paper", "k": int64(1), "mode": "as-printed", "check": false, "alpha": 14.0}},
		{map[string]any{PresetParam: "paper", "k": 8, "check": true}, map[string]any{PresetParam: "paper", "k": int64(8), "mode": "as-printed", "check": true, "alpha": 14.0}},
		{map[string]any{"mode": "as-printed", "alpha": 15}, map[string]any{PresetParam: "tuned", "k": int64(4), "mode": "as-printed", "check": true, "alpha": 15.0}},
	} {
		got, err := in.CheckParams(tc.given)
		if err != nil {
			t.Fatalf("%v: %v", tc.given, err)
		}
		if !maps.Equal(got, tc.want) {
			t.Errorf("%v: got %v, want %v", tc.given, got, tc.want)
		}
		if p := in.Preset(got); p != got[PresetParam] {
			t.Errorf("Preset(%v) = %q", got, p)
		}
	}
}

// TestCheckParamsRejectsBadPresetDeclarations: a preset value for an
// unknown preset, of the wrong type or out of bounds, or preset values
// without a preset parameter, are the plugin's errors, named.
func TestCheckParamsRejectsBadPresetDeclarations(t *testing.T) {
	preset := Param{Name: PresetParam, Type: TypeString, Default: "tuned", Choices: []string{"tuned", "paper"}}
	for _, tc := range []struct {
		p    Param
		with bool
		want string
	}{
		{Param{Name: "k", Type: TypeInt, Default: int64(4), Presets: map[string]any{"papr": 1}}, true, `unknown preset "papr"`},
		{Param{Name: "k", Type: TypeInt, Default: int64(4), Presets: map[string]any{"paper": "one"}}, true, `"k" under preset "paper": want an integer`},
		{Param{Name: "k", Type: TypeInt, Default: int64(4), Min: Bound(2), Presets: map[string]any{"paper": 1}}, true, "below the minimum"},
		{Param{Name: "k", Type: TypeInt, Default: int64(4), Presets: map[string]any{"paper": 1}}, false, `has no "preset" parameter`},
	} {
		in := Info{Name: "x", Params: []Param{tc.p}}
		if tc.with {
			in.Params = append(in.Params, preset)
		}
		if _, err := in.CheckParams(nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.p, err, tc.want)
		}
	}
}

// TestPresetsCrossTheWire: Param.Presets survives gob (the Describe reply).
func TestPresetsCrossTheWire(t *testing.T) {
	in := Param{Name: "k", Type: TypeInt, Default: int64(4), Presets: map[string]any{"paper": int64(1)}}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(in); err != nil {
		t.Fatal(err)
	}
	var out Param
	if err := gob.NewDecoder(&b).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(out.Presets, in.Presets) {
		t.Errorf("presets %v arrived as %v", in.Presets, out.Presets)
	}
}
