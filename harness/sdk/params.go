package sdk

// params.go checks a config's parameters against a variant's declared
// ones and resolves presets, by the one rule Param states.

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// CheckParams validates user-given params against the declared ones and
// returns every declared parameter's value for the case: the given value,
// else the value under the case's preset (Param.Presets), else the
// default; values normalized to int64, float64, bool or string. Errors
// name the parameter. It also checks the declarations themselves (a preset
// value of the wrong type or for an unknown preset is the variant's error).
func (in Info) CheckParams(given map[string]any) (map[string]any, error) {
	if err := in.checkPresets(); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make(map[string]any, len(in.Params))
	for _, k := range names {
		p, ok := in.Param(k)
		if !ok {
			return nil, fmt.Errorf("plugin %s has no parameter %q (it has: %s)", in.Name, k, in.paramNames())
		}
		v, err := p.Normalize(given[k])
		if err != nil {
			return nil, fmt.Errorf("plugin %s parameter %q: %w", in.Name, k, err)
		}
		out[k] = v
	}
	preset, _ := out[PresetParam].(string)
	if p, ok := in.Param(PresetParam); ok && preset == "" {
		preset, _ = p.Default.(string)
	}
	for _, p := range in.Params {
		if _, set := out[p.Name]; set {
			continue
		}
		if v, ok := p.Presets[preset]; ok {
			out[p.Name], _ = p.Normalize(v) // checked by checkPresets
		} else {
			out[p.Name] = p.Default
		}
	}
	return out, nil
}

// Preset returns the preset a case with params runs under (its
// PresetParam value, or that parameter's default), or "" for a variant
// without presets.
func (in Info) Preset(params map[string]any) string {
	if s, ok := params[PresetParam].(string); ok {
		return s
	}
	if p, ok := in.Param(PresetParam); ok {
		s, _ := p.Default.(string)
		return s
	}
	return ""
}

// checkPresets checks the declared presets: each Param.Presets key is a
// choice of the preset parameter and each value has the parameter's type
// and bounds.
func (in Info) checkPresets() error {
	pp, hasPresets := in.Param(PresetParam)
	for _, p := range in.Params {
		if len(p.Presets) == 0 {
			continue
		}
		if !hasPresets {
			return fmt.Errorf("plugin %s parameter %q declares preset values, but the plugin has no %q parameter", in.Name, p.Name, PresetParam)
		}
		for name, v := range p.Presets {
			if !slices.Contains(pp.Choices, name) {
				return fmt.Errorf("plugin %s parameter %q: value for unknown preset %q (presets: %s)", in.Name, p.Name, name, strings.Join(pp.Choices, ", "))
			}
			if _, err := p.Normalize(v); err != nil {
				return fmt.Errorf("plugin %s parameter %q under preset %q: %w", in.Name, p.Name, name, err)
			}
		}
	}
	return nil
}

func (in Info) paramNames() string {
	names := make([]string, len(in.Params))
	for i, p := range in.Params {
		names[i] = p.Name
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Normalize converts v to the parameter's Go type and checks choices and
// bounds.
func (p Param) Normalize(v any) (any, error) {
	var out any
	switch p.Type {
	case TypeInt:
		switch x := v.(type) {
		case int:
			out = int64(x)
		case int64:
			out = x
		case float64:
			if x != float64(int64(x)) {
				return nil, fmt.Errorf("want an integer, got %v", x)
			}
			out = int64(x)
		default:
			return nil, fmt.Errorf("want an integer, got %T %v", v, v)
		}
	case TypeFloat:
		switch x := v.(type) {
		case int:
			out = float64(x)
		case int64:
			out = float64(x)
		case float64:
			out = x
		default:
			return nil, fmt.Errorf("want a number, got %T %v", v, v)
		}
		if f := out.(float64); math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("want a finite number, got %v", f)
		}
	case TypeBool:
		x, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want true or false, got %T %v", v, v)
		}
		out = x
	case TypeString:
		x, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T %v", v, v)
		}
		if len(p.Choices) > 0 {
			found := false
			for _, c := range p.Choices {
				found = found || c == x
			}
			if !found {
				return nil, fmt.Errorf("want one of %v, got %q", p.Choices, x)
			}
		}
		out = x
	default:
		return nil, fmt.Errorf("declared with unknown type %q", p.Type)
	}
	var f float64
	switch x := out.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		return out, nil
	}
	if p.Min != nil && f < *p.Min {
		return nil, fmt.Errorf("%v is below the minimum %v", out, *p.Min)
	}
	if p.Max != nil && f > *p.Max {
		return nil, fmt.Errorf("%v is above the maximum %v", out, *p.Max)
	}
	if n, ok := out.(int64); ok && p.Multiple > 0 && n%p.Multiple != 0 {
		return nil, fmt.Errorf("%d is not a multiple of %d", n, p.Multiple)
	}
	return out, nil
}
