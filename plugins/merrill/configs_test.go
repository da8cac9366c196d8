package main

import (
	"bytes"
	"encoding/gob"
	"path/filepath"
	"testing"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
)

// TestConfigs checks that every merrill config loads and that each value
// of each parameter it gives is one the plugin accepts.
func TestConfigs(t *testing.T) {
	paths, _ := filepath.Glob("../../configs/merrill-*.toml")
	figs, _ := filepath.Glob("../../configs/figures/mitsuishi-*.toml")
	paths = append(paths, figs...)
	if len(paths) < 7 {
		t.Fatalf("found %d merrill configs: %v", len(paths), paths)
	}
	in := plugin{}.Info()
	for _, p := range paths {
		c, err := config.Load(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, v := range c.Variants {
			if v.Plugin != "merrill" {
				continue
			}
			for name, vals := range v.Params {
				for _, x := range vals {
					if _, err := in.CheckParams(map[string]any{name: x}); err != nil {
						t.Errorf("%s variant %s: %v", p, v.Name, err)
					}
				}
			}
		}
	}
}

// TestCaseInfoGob checks that the case info crosses the plugin's RPC (gob
// registers only some types for interface values).
func TestCaseInfoGob(t *testing.T) {
	g := sdktest.NewGraph(t, 8, 8, 1)
	full, _ := plugin{}.Info().CheckParams(map[string]any{pGPUs: int64(3)})
	v := sdktest.Construct(t, plugin{}, sdk.Config{Backend: sdk.BackendCPU, Params: full, Ranks: 1}, g)
	info := v.(sdk.Informer).CaseInfo()
	if err := gob.NewEncoder(&bytes.Buffer{}).Encode(&info); err != nil {
		t.Fatalf("case info %v: %v", info, err)
	}
}

// TestPresets checks what each preset resolves to, and that an explicit
// parameter wins over the preset.
func TestPresets(t *testing.T) {
	for _, c := range []struct {
		given map[string]any
		check bool
		reset string
		huge  string
	}{
		{map[string]any{pPreset: presetPaper}, false, "memset", "block"},
		{map[string]any{pPreset: presetTuned}, true, "update", "grid"},
		{map[string]any{pPreset: presetPaper, pVisitedCheck: true}, true, "memset", "block"},
		{map[string]any{pPreset: presetTuned, pVectorReset: "memset"}, true, "memset", "grid"},
		{map[string]any{pPreset: presetTuned, pHugeLists: "block"}, true, "update", "block"},
		{map[string]any{pPreset: presetPaper, pHugeLists: "grid"}, false, "memset", "grid"},
	} {
		params, err := plugin{}.Info().CheckParams(c.given)
		if err != nil {
			t.Fatal(err)
		}
		o := parseOptions(sdk.Config{Params: params})
		if o.VisitedCheck != c.check || o.VectorReset != c.reset || o.HugeLists != c.huge {
			t.Errorf("%v: visited_check %v, vector_reset %s, huge_lists %s; want %v, %s, %s", c.given,
				o.VisitedCheck, o.VectorReset, o.HugeLists, c.check, c.reset, c.huge)
		}
	}
}
