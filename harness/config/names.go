package config

// names.go: which parameters name a case in benchmark names, progress
// lines and tables.

import (
	"fmt"
	"slices"

	"github.com/bfsbench/bfsbench/harness/sdk"
)

// NameParams returns, sorted, the parameters that name a case of v whose
// resolved parameters are params: the keys the config sweeps (given
// several values), and those whose value differs from the value the case's
// preset gives them. The preset's values are what info.CheckParams returns
// for the preset alone ({"preset": p}), or for nothing at all for a
// plugin without a preset parameter; the preset itself names the case
// when it is not the plugin's default. A case whose parameters are all its
// preset's is named by its plugin, backend, workload and grid alone.
//
// This is the one place that compares a case with its preset.
func (v *Variant) NameParams(info sdk.Info, params map[string]any) ([]string, error) {
	var given map[string]any
	if p := info.Preset(params); p != "" {
		given = map[string]any{sdk.PresetParam: p}
	}
	preset, err := info.CheckParams(given)
	if err != nil {
		return nil, fmt.Errorf("plugin %s: the preset's parameters: %w", info.Name, err)
	}
	out := []string{} // not nil: results.Case.NameParams tells "none" from "not recorded"
	for k, x := range params {
		swept := len(v.Params[k]) > 1
		ref, ok := preset[k]
		if k == sdk.PresetParam {
			ref, ok = info.Preset(nil), true // named when it is not the plugin's default
		}
		if swept || !ok || x != ref {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}
