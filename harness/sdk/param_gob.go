package sdk

// param_gob.go: Param's form on the wire. gob leaves out zero values, a
// pointer to 0 included, so a bound of 0 (Min: Bound(0)) would arrive as no
// bound at all and the harness would accept values the plugin declared
// out of range. Bounds travel with explicit flags instead.

import (
	"bytes"
	"encoding/gob"
)

// paramWire is Param with its bounds as flagged values.
type paramWire struct {
	Name, Type, Help string
	Default          any
	Choices          []string
	HasMin, HasMax   bool
	Min, Max         float64
	Multiple         int64
}

// GobEncode implements gob.GobEncoder.
func (p Param) GobEncode() ([]byte, error) {
	w := paramWire{Name: p.Name, Type: p.Type, Help: p.Help, Default: p.Default, Choices: p.Choices, Multiple: p.Multiple}
	if p.Min != nil {
		w.HasMin, w.Min = true, *p.Min
	}
	if p.Max != nil {
		w.HasMax, w.Max = true, *p.Max
	}
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(w)
	return b.Bytes(), err
}

// GobDecode implements gob.GobDecoder.
func (p *Param) GobDecode(data []byte) error {
	var w paramWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return err
	}
	*p = Param{Name: w.Name, Type: w.Type, Help: w.Help, Default: w.Default, Choices: w.Choices, Multiple: w.Multiple}
	if w.HasMin {
		p.Min = Bound(w.Min)
	}
	if w.HasMax {
		p.Max = Bound(w.Max)
	}
	return nil
}
