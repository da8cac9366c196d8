// This file reads a paper's own values for a figure: a small CSV file
// beside the config that declares the figure (config.Figure.Reference).
//
//	# paper: Bisson et al. [Bisson]
//	# hardware: one NVIDIA Tesla K20X (Kepler)
//	# source: Table 2, p. 8 (scale 21, edge factor 16)
//	# note: any further line of the subtitle (optional, may repeat)
//	series,grid,gteps
//	bitmap_messages=off,1x1,1.13
//
// The header row names the series column, the x dimension (as the figure's
// x) and the y quantity with its unit: gteps, speedup, time_s, time_ms,
// time_us, bytes or edges. Other # lines are free comments.

package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// Reference is a paper's values for one figure.
type Reference struct {
	Paper, Hardware, Source string
	Notes                   []string
	XName                   string // the header's x column
	Quantity                string // gteps, speedup, time, bytes or edges
	Rows                    []RefRow
	raw                     []byte // the file, copied beside the figures
}

// RefRow is one value of a paper's: Y in base units (TEPS, seconds,
// bytes, edges or a ratio).
type RefRow struct {
	Series, X string
	Y         float64
}

// refUnits maps a header's y column to its quantity and its factor to
// base units.
var refUnits = map[string]struct {
	quantity string
	factor   float64
}{
	"gteps":   {"gteps", 1e9},
	"speedup": {"speedup", 1},
	"time_s":  {"time", 1},
	"time_ms": {"time", 1e-3},
	"time_us": {"time", 1e-6},
	"bytes":   {"bytes", 1},
	"edges":   {"edges", 1},
}

// LoadReference reads and checks a reference CSV.
func LoadReference(path string) (*Reference, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r, err := parseReference(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func parseReference(b []byte) (*Reference, error) {
	r := &Reference{raw: b}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		key, val, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "paper":
			r.Paper = val
		case "hardware":
			r.Hardware = val
		case "source":
			r.Source = val
		case "note":
			r.Notes = append(r.Notes, val)
		default:
			continue
		}
		if val == "" {
			return nil, fmt.Errorf("line %d: empty %q", i+1, strings.TrimSpace(key))
		}
	}
	switch {
	case r.Paper == "":
		return nil, fmt.Errorf("no \"# paper:\" line (the paper the values are from)")
	case r.Hardware == "":
		return nil, fmt.Errorf("no \"# hardware:\" line (what the paper ran on)")
	case r.Source == "":
		return nil, fmt.Errorf("no \"# source:\" line (the page, figure or table the values were read from)")
	}
	cr := csv.NewReader(bytes.NewReader(b))
	cr.Comment = '#'
	cr.FieldsPerRecord = 3
	cr.TrimLeadingSpace = true
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("want a header row (series,<x>,<y unit>) and at least one value")
	}
	head := recs[0]
	if strings.TrimSpace(head[0]) != "series" {
		return nil, fmt.Errorf("header: the first column is \"series\", got %q", head[0])
	}
	r.XName = strings.TrimSpace(head[1])
	u, ok := refUnits[strings.TrimSpace(head[2])]
	if !ok {
		return nil, fmt.Errorf("header: the y column is one of gteps, speedup, time_s, time_ms, time_us, bytes, edges; got %q", head[2])
	}
	r.Quantity = u.quantity
	for i, rec := range recs[1:] {
		y, err := strconv.ParseFloat(strings.TrimSpace(rec[2]), 64)
		if err != nil || math.IsNaN(y) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("value row %d: y %q is not a number", i+1, rec[2])
		}
		r.Rows = append(r.Rows, RefRow{Series: strings.TrimSpace(rec[0]), X: strings.TrimSpace(rec[1]), Y: y * u.factor})
	}
	return r, nil
}

// label names a series of the paper's in a legend.
func (r *Reference) label(series string) string {
	s := r.Paper + ", " + r.Hardware
	if series != "" {
		s = series + ": " + s
	}
	return s
}
