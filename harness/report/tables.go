// This file writes the [[figure]] tables of kind = "table": a paper's
// table of numbers, made from a run's cases, never typed. One row per case
// (its x value, then the series' dimensions where they differ), one column
// per quantity of the figure's columns (a whole search's, as y takes them),
// each cell the value and, in brackets, its quartiles over the searches.
// It is written twice: table-<name>.md (a title, the markdown table and a
// one-line caption, for a README) and table-<name>.csv (the values in
// seconds, TEPS or bytes, with their quartiles, for a program).
//
// The drawing rules hold as far as they apply: a title of one line, a
// caption saying what the rows share, every header naming its unit, the
// spread beside every value, a case that failed or did not validate kept
// as a row with its status, and no table without a value.

package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/results"
)

// tableColumn is one column of a table: its quantity, header and unit.
type tableColumn struct {
	q      quantity
	header string  // as the config names it
	unit   string  // "ms", "GTEPS", ...; "" for counts
	mul    float64 // value × mul is in unit
	key    string  // the CSV's column name
}

// tableRow is one case of a table.
type tableRow struct {
	x, series string
	p         point
	cells     []stat // per column; N = 0 where the case has no value
	status    string // "" for a case with values
}

// writeDeclaredTable writes the table f declares over pts into dir and returns
// the paths written (table-<name>.md and .csv).
func writeDeclaredTable(f *config.Figure, pts []point, dir string) ([]string, error) {
	var cols []tableColumn
	for i, c := range f.Columns {
		h := c
		if i < len(f.Headers) {
			h = f.Headers[i]
		}
		cols = append(cols, tableColumn{q: newQuantity(c, false), header: h})
	}
	var rows []tableRow
	var used []point
	values := 0
	for _, p := range pts {
		if !keep(p, f.Only) {
			continue
		}
		x := dimValue(p, f.X)
		if x == "" {
			continue
		}
		r := tableRow{x: x, series: tableSeries(f, p), p: p, cells: make([]stat, len(cols))}
		if !plottable(p.c) {
			r.status = p.c.Status
			if r.status == results.StatusOK {
				r.status = "no valid search"
			}
			rows = append(rows, r)
			continue
		}
		for i, c := range cols {
			if st, ok := c.q.whole(p.c)[""]; ok && !math.IsNaN(st.V) {
				r.cells[i] = st
				values++
			}
		}
		used = append(used, p)
		rows = append(rows, r)
	}
	if values == 0 {
		return nil, fmt.Errorf("no data: no valid case has a value of the columns %q (%d rows)", f.Columns, len(rows))
	}
	sortRows(rows)
	for i := range cols {
		hi := 0.0
		for _, r := range rows {
			hi = math.Max(hi, r.cells[i].V)
		}
		cols[i].unit, cols[i].mul = columnUnit(cols[i].q, hi)
		cols[i].key = columnKey(cols[i].header, cols[i].q)
	}
	showSeries := false
	for _, r := range rows {
		showSeries = showSeries || r.series != rows[0].series
	}
	title := f.Title
	if title == "" {
		title = "Table: " + strings.Join(f.Columns, ", ") + " by " + axisName(f.X)
	}
	caption := tableCaption(f, cols, used, rows, showSeries)

	var md strings.Builder
	fmt.Fprintf(&md, "**%s**\n\n", cell(title))
	head := []string{axisName(f.X)}
	align := []string{"---"}
	if showSeries {
		head, align = append(head, strings.Join(f.Series, ", ")), append(align, "---")
	}
	for _, c := range cols {
		h := c.header
		if c.unit != "" {
			h += " (" + c.unit + ")"
		}
		head, align = append(head, h), append(align, "---:")
	}
	fmt.Fprintf(&md, "| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(align, "|"))
	for _, r := range rows {
		line := []string{r.x}
		if showSeries {
			line = append(line, r.series)
		}
		for i, c := range cols {
			switch {
			case r.status != "":
				line = append(line, "✗ "+r.status)
			case r.cells[i].N == 0:
				line = append(line, "–")
			default:
				line = append(line, cellText(r.cells[i], c.mul))
			}
		}
		fmt.Fprintf(&md, "| %s |\n", strings.Join(line, " | "))
	}
	fmt.Fprintf(&md, "\n%s\n", caption)

	var cb bytes.Buffer
	w := csv.NewWriter(&cb)
	rec := []string{f.X}
	if showSeries {
		rec = append(rec, "series")
	}
	for _, c := range cols {
		rec = append(rec, c.key, c.key+"_q1", c.key+"_q3")
	}
	rec = append(rec, "status")
	w.Write(rec)
	for _, r := range rows {
		rec = []string{r.x}
		if showSeries {
			rec = append(rec, r.series)
		}
		for i := range cols {
			if r.status != "" || r.cells[i].N == 0 {
				rec = append(rec, "", "", "")
				continue
			}
			st := r.cells[i]
			rec = append(rec, num(st.V), num(st.Lo), num(st.Hi))
		}
		st := r.status
		if st == "" {
			st = results.StatusOK
		}
		rec = append(rec, st)
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, err
	}
	var written []string
	for name, data := range map[string][]byte{"table-" + f.Name + ".md": []byte(md.String()), "table-" + f.Name + ".csv": cb.Bytes()} {
		p := filepath.Join(dir, name)
		if err := writeFile(p, data); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	sort.Strings(written)
	return written, nil
}

// tableSeries is the row's series: the values of the figure's series
// dimensions, the variant by its name.
func tableSeries(f *config.Figure, p point) string {
	var vs []string
	for _, d := range f.Series {
		if v := dimValue(p, d); v != "" {
			vs = append(vs, v)
		}
	}
	return strings.Join(vs, ", ")
}

// sortRows orders rows by x (numerically where every x is a number),
// then by series.
func sortRows(rows []tableRow) {
	numeric := true
	for _, r := range rows {
		if _, err := strconv.ParseFloat(r.x, 64); err != nil {
			numeric = false
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.x != b.x {
			if numeric {
				x, _ := strconv.ParseFloat(a.x, 64)
				y, _ := strconv.ParseFloat(b.x, 64)
				return x < y
			}
			return a.x < b.x
		}
		return a.series < b.series
	})
}

// columnUnit is the unit a column's values (up to hi) are written in, and
// the factor to it.
func columnUnit(q quantity, hi float64) (string, float64) {
	switch {
	case q.isTime():
		mul, unit := timeUnit(hi)
		return unit, mul
	case q.kind == qGTEPS:
		div, unit := tepsUnit(hi)
		return unit, 1 / div
	case q.kind == qLevels:
		return "", 1
	case q.kind == qBytes && len(q.items) == 1 && q.items[0].Label == "edges_examined":
		return "edges", 1
	case q.kind == qBytes, q.kind == qInfo && strings.HasSuffix(q.key, "_bytes"):
		mul, unit := bytesUnit(hi)
		return unit, mul
	}
	return "", 1
}

// columnKey names a column in the CSV: its header in lower case, runs of
// other characters as one '_', with _s for a time (the CSV's times are
// in seconds).
func columnKey(header string, q quantity) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(header) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	k := strings.TrimSuffix(b.String(), "_")
	if q.isTime() && !strings.HasSuffix(k, "_s") {
		k += "_s"
	}
	if k == "" {
		k = "value"
	}
	return k
}

// cellText writes a value and its quartiles, where they differ at the
// digits written.
func cellText(st stat, mul float64) string {
	s := num3(st.V * mul)
	if math.IsNaN(st.Lo) || math.IsNaN(st.Hi) {
		return s
	}
	if lo, hi := num3(st.Lo*mul), num3(st.Hi*mul); lo != hi {
		s += " (" + lo + "–" + hi + ")"
	}
	return s
}

// num3 writes v with three significant digits, without trailing zeros
// ("7", "4.51", "0.0123").
func num3(v float64) string {
	s := sig(v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// num writes a CSV value in full.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// cell escapes a markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// tableCaption is the table's line under it: the variants (unless a
// column names them), what the cases share, and what a cell is.
func tableCaption(f *config.Figure, cols []tableColumn, used []point, rows []tableRow, showSeries bool) string {
	var parts []string
	if !showSeries || !contains(f.Series, "variant") {
		var vs []string
		for _, r := range rows {
			name := r.p.c.Plugin
			if name == "" {
				name = r.p.c.Variant
			}
			if v := name + " (" + strings.ToUpper(r.p.c.Backend) + ")"; !contains(vs, v) {
				vs = append(vs, v)
			}
		}
		parts = append(parts, strings.Join(vs, ", "))
	}
	parts = append(parts, newLabeller(used).common(used))
	var stats []string
	for _, c := range cols {
		stats = append(stats, c.header+": "+c.q.statName(false))
	}
	parts = append(parts, "cells over the valid searches ("+strings.Join(stats, "; ")+"), in brackets their quartiles")
	var failed int
	for _, r := range rows {
		if r.status != "" {
			failed++
		}
	}
	if failed > 0 {
		parts = append(parts, fmt.Sprintf("✗: %d case(s) without a valid search", failed))
	}
	return joinNonEmpty("; ", parts...)
}
