// This file writes the verdict table of a figure's results folder: what
// the paper claims, in numbers, what our results give, and whether the
// claim holds, holds partly or differs, with its reason in one sentence.
// The claims are a folder's claims.toml; the numbers of ours are computed
// from its results (or a CSV beside them) every time, so that a re-run
// redraws the table, and a verdict the new numbers no longer support is
// flagged instead of kept.
//
//	# claims.toml
//	results = ["../../gpu-full-h200/results.json.gz"]  # optional; default results.json(.gz) here
//
//	[[claim]]
//	source = "Fig. 3"                 # the paper's figure, table or section
//	claim = "the expansion is fastest at 4 edges per thread"
//	paper = "4"                       # the paper's number, as the text gives it
//	ours = "argmin"                   # how ours is computed (below)
//	y = "phase:expansion"             # a figure's y quantity
//	x = "edges_per_thread"            # argmin, argmax: over this dimension (or "level")
//	at = "scale=21"                   # the cases: dimension=value pairs (level=N: that level)
//	over = "edges_per_thread=1"       # ratio, change: the denominator's cases
//	over_y = "phase:a+b"              # ratio, change: the denominator's y (default y)
//	percent = true                    # ratio: written as a percentage (a share)
//	each = ["grid=1x2", "grid=2x1"]   # one value per entry, added to at and over
//	                                  # where they do not name its dimension
//	holds = [4, 4]                    # ours in this range: holds
//	partly = [3, 6]                   # else in this one: partly; else differs
//	verdict = "holds"                 # the verdict the reason is written for
//	reason = "..."                    # one sentence
//
// ours is one of value (y at the cases of at), ratio (y(at) / y(over)),
// change (ratio − 1, in %), argmin and argmax (the x of the least or
// greatest y among the cases of at), spread ((max − min) / min of y among
// the cases of at, in %); or, with csv = "file.csv", column and optionally
// over_column, each (every row's column / over_column), max, min or
// median. argmin, argmax and spread with over take each case's y over
// over_y (default y) of the case over selects at the case's x: the x
// where a speedup over a baseline peaks, say.
//
// A folder not measured yet (no results file, or a claim's CSV missing)
// gets its table all the same: ours "–" and the verdict "not measured
// yet", the reason written for the verdict expected.

package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/results"
)

// ClaimsFile is a folder's claims file.
const ClaimsFile = "claims.toml"

// Markers around the generated table in a README.
const (
	VerdictsBegin = "<!-- verdicts: written by bfsbench verdicts from claims.toml and the results; do not edit by hand -->"
	VerdictsEnd   = "<!-- /verdicts -->"
)

// Claims is a folder's claims.toml.
type Claims struct {
	Results []string `toml:"results"`
	Claim   []Claim  `toml:"claim"`
}

// Claim is one [[claim]] table.
type Claim struct {
	Source     string    `toml:"source"`
	Claim      string    `toml:"claim"`
	Paper      string    `toml:"paper"`
	Ours       string    `toml:"ours"`
	Y          string    `toml:"y"`
	OverY      string    `toml:"over_y"`
	Percent    bool      `toml:"percent"`
	PerRank    bool      `toml:"per_rank"`
	X          string    `toml:"x"`
	At         string    `toml:"at"`
	Over       string    `toml:"over"`
	Each       []string  `toml:"each"`
	CSV        string    `toml:"csv"`
	Column     string    `toml:"column"`
	OverColumn string    `toml:"over_column"`
	Holds      []float64 `toml:"holds"`
	Partly     []float64 `toml:"partly"`
	Verdict    string    `toml:"verdict"`
	Reason     string    `toml:"reason"`
}

// Verdicts.
const (
	Holds   = "holds"
	Partly  = "partly"
	Differs = "differs"
	// Pending is the verdict of a claim whose results do not exist yet.
	Pending = "not measured yet"
)

// Verdict is a claim checked against our numbers.
type Verdict struct {
	Claim
	Values  []float64 // ours, one per each entry or CSV row
	OursTxt string    // ours, formatted
	Got     string    // the verdict our numbers give
}

// Mismatch reports whether our numbers give another verdict than the one
// the reason was written for (never for a claim not measured yet).
func (v Verdict) Mismatch() bool { return v.Got != Pending && v.Got != v.Verdict }

// LoadClaims reads dir/claims.toml, strictly: an unknown key is an error.
func LoadClaims(dir string) (*Claims, error) {
	path := filepath.Join(dir, ClaimsFile)
	var c Claims
	md, err := toml.DecodeFile(path, &c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s", path, u[0])
	}
	for i, cl := range c.Claim {
		if err := cl.check(); err != nil {
			return nil, fmt.Errorf("%s: claim %d (%s): %w", path, i+1, cl.Claim, err)
		}
	}
	return &c, nil
}

func (c Claim) check() error {
	switch {
	case c.Claim == "" || c.Paper == "" || c.Reason == "":
		return errors.New("claim, paper and reason are required")
	case c.Verdict != Holds && c.Verdict != Partly && c.Verdict != Differs:
		return fmt.Errorf("verdict %q: want holds, partly or differs", c.Verdict)
	case len(c.Holds) != 2 || len(c.Partly) != 2:
		return errors.New("holds and partly are [low, high] ranges")
	case c.CSV != "":
		if c.Column == "" || (c.Ours != "each" && c.Ours != "max" && c.Ours != "min" && c.Ours != "median") {
			return errors.New("a CSV claim names its column and ours = each, max, min or median")
		}
		return nil
	case c.Y == "":
		return errors.New("y is required (or csv)")
	}
	switch c.Ours {
	case "value", "spread":
	case "ratio", "change":
		if c.Over == "" && c.OverY == "" && len(c.Each) == 0 {
			return fmt.Errorf("ours = %s needs over, over_y or each", c.Ours)
		}
	case "argmin", "argmax":
		if c.X == "" {
			return fmt.Errorf("ours = %s needs x", c.Ours)
		}
		if c.Over != "" && c.X == config.XLevel {
			return fmt.Errorf("ours = %s with over divides by the case of each x: x = level has none", c.Ours)
		}
	default:
		return fmt.Errorf("ours %q: want value, ratio, change, argmin, argmax or spread", c.Ours)
	}
	return nil
}

// FolderResults is the results files a figure folder's numbers come from:
// claims.toml's results (relative to the folder), else results.json.gz or
// results.json in it; none for a folder without results.
func FolderResults(dir string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(dir, ClaimsFile)); err == nil {
		c, err := LoadClaims(dir)
		if err != nil {
			return nil, err
		}
		if len(c.Results) > 0 {
			var out []string
			for _, r := range c.Results {
				out = append(out, filepath.Join(dir, r))
			}
			return out, nil
		}
	}
	for _, name := range []string{"results.json.gz", "results.json"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return []string{p}, nil
		}
	}
	return nil, nil
}

// Verdicts checks the claims of folder dir against its results.
func Verdicts(dir string) ([]Verdict, error) {
	c, err := LoadClaims(dir)
	if err != nil {
		return nil, err
	}
	paths, err := FolderResults(dir)
	if err != nil {
		return nil, err
	}
	var runs []*results.Run
	for _, p := range paths {
		r, err := results.Load(p)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	var pts []point
	for _, p := range collect(runs) {
		if plottable(p.c) {
			pts = append(pts, p)
		}
	}
	var out []Verdict
	for i, cl := range c.Claim {
		v := Verdict{Claim: cl}
		if notMeasured(dir, cl, paths) {
			v.Got, v.OursTxt = Pending, "–"
			out = append(out, v)
			continue
		}
		if cl.CSV != "" {
			v.Values, err = csvValues(filepath.Join(dir, cl.CSV), cl)
		} else {
			v.Values, err = claimValues(cl, pts)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: claim %d (%s): %w", filepath.Join(dir, ClaimsFile), i+1, cl.Claim, err)
		}
		v.Got = judge(cl, v.Values)
		v.OursTxt = formatValues(cl, v.Values)
		out = append(out, v)
	}
	return out, nil
}

// notMeasured reports whether claim c has nothing to be computed from
// yet: its CSV is missing, or the folder has no results file.
func notMeasured(dir string, c Claim, results []string) bool {
	if c.CSV != "" {
		_, err := os.Stat(filepath.Join(dir, c.CSV))
		return errors.Is(err, os.ErrNotExist)
	}
	return len(results) == 0
}

// judge is the worst verdict of the values.
func judge(c Claim, vs []float64) string {
	got := Holds
	for _, v := range vs {
		switch {
		case v >= c.Holds[0] && v <= c.Holds[1]:
		case v >= c.Partly[0] && v <= c.Partly[1]:
			if got == Holds {
				got = Partly
			}
		default:
			got = Differs
		}
	}
	return got
}

// claimValues computes ours: one value per each entry (one if none).
func claimValues(c Claim, pts []point) ([]float64, error) {
	sels := c.Each
	if len(sels) == 0 {
		sels = []string{""}
	}
	q := newQuantity(c.Y, c.PerRank)
	qo := q
	if c.OverY != "" {
		qo = newQuantity(c.OverY, c.PerRank)
	}
	if q.multi() || qo.multi() {
		return nil, fmt.Errorf("y %q: one quantity (a sum with '+', not a list)", c.Y)
	}
	var out []float64
	for _, e := range sels {
		at, err := selection(c.At, e)
		if err != nil {
			return nil, err
		}
		var v float64
		switch c.Ours {
		case "value":
			v, err = selectedValue(q, at, pts)
		case "ratio", "change":
			var num, den float64
			if num, err = selectedValue(q, at, pts); err == nil {
				var over selector
				if over, err = selection(c.Over, e); err == nil {
					den, err = selectedValue(qo, over, pts)
				}
			}
			v = num / den
			if c.Ours == "change" {
				v = (v - 1) * 100
			}
		case "argmin", "argmax", "spread":
			v, err = extreme(c, q, at, pts)
		}
		if err != nil {
			return nil, fmt.Errorf("%q: %w", joinNonEmpty(",", c.At, e), err)
		}
		out = append(out, v)
	}
	return out, nil
}

// selector is a set of dimension=value pairs, and a level where one is
// named (-1: whole searches).
type selector struct {
	dims  map[string]string
	level int
}

// selection parses "a=1,b=2" and an each entry into one selector; a
// later part does not replace a dimension an earlier one names.
func selection(parts ...string) (selector, error) {
	s := selector{dims: map[string]string{}, level: -1}
	named := map[string]bool{}
	for _, part := range parts {
		here := map[string]bool{}
		for _, kv := range strings.Split(part, ",") {
			kv = strings.TrimSpace(kv)
			if kv == "" {
				continue
			}
			k, v, ok := strings.Cut(kv, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok || k == "" || v == "" {
				return s, fmt.Errorf("selection %q: want dimension=value pairs", part)
			}
			if named[k] {
				continue
			}
			here[k] = true
			if k == "level" {
				n, err := strconv.Atoi(v)
				if err != nil {
					return s, fmt.Errorf("level %q: want a number", v)
				}
				s.level = n
				continue
			}
			s.dims[k] = v
		}
		for k := range here {
			named[k] = true
		}
	}
	return s, nil
}

// cases is the points matching s.
func (s selector) cases(pts []point) []point {
	var out []point
	for _, p := range pts {
		if keep(p, []map[string]string{s.dims}) {
			out = append(out, p)
		}
	}
	return out
}

// caseValue is q for p: whole searches, or at level (>= 0).
func caseValue(q quantity, p point, level int) (float64, bool) {
	if level >= 0 {
		st, ok := q.perLevel(p.c)[level][""]
		return st.V, ok
	}
	st, ok := q.whole(p.c)[""]
	return st.V, ok
}

// selectedValue is q at the one case s selects.
func selectedValue(q quantity, s selector, pts []point) (float64, error) {
	cs := s.cases(pts)
	if len(cs) != 1 {
		return 0, fmt.Errorf("selects %d valid cases, want 1", len(cs))
	}
	v, ok := caseValue(q, cs[0], s.level)
	if !ok {
		return 0, errors.New("the case has no such value")
	}
	return v, nil
}

// extreme is argmin, argmax or spread over the cases s selects (over the
// levels of the one case for x = "level").
func extreme(c Claim, q quantity, s selector, pts []point) (float64, error) {
	cs := s.cases(pts)
	if len(cs) == 0 {
		return 0, errors.New("selects no valid case")
	}
	type xy struct{ x, y float64 }
	var vals []xy
	if c.X == config.XLevel {
		if len(cs) != 1 {
			return 0, fmt.Errorf("x = level wants one case, got %d", len(cs))
		}
		for lvl, m := range q.perLevel(cs[0].c) {
			if st, ok := m[""]; ok {
				vals = append(vals, xy{float64(lvl), st.V})
			}
		}
	} else {
		qo := q
		if c.OverY != "" {
			qo = newQuantity(c.OverY, c.PerRank)
		}
		for _, p := range cs {
			v, ok := caseValue(q, p, s.level)
			if !ok {
				continue
			}
			x := math.NaN()
			if c.X != "" {
				var err error
				if x, err = strconv.ParseFloat(dimValue(p, c.X), 64); err != nil {
					return 0, fmt.Errorf("x %q of a case is not a number", dimValue(p, c.X))
				}
			}
			if c.Over != "" {
				// The denominator: the case over selects at this case's x.
				over, err := selection(c.Over, c.X+"="+dimValue(p, c.X))
				if err != nil {
					return 0, err
				}
				d, err := selectedValue(qo, over, pts)
				if err != nil {
					return 0, fmt.Errorf("over %q at %s=%s: %w", c.Over, c.X, dimValue(p, c.X), err)
				}
				v /= d
			}
			vals = append(vals, xy{x, v})
		}
	}
	if len(vals) == 0 {
		return 0, errors.New("no case has the value")
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i].y < vals[j].y })
	switch c.Ours {
	case "argmin":
		return vals[0].x, nil
	case "argmax":
		return vals[len(vals)-1].x, nil
	}
	return (vals[len(vals)-1].y - vals[0].y) / vals[0].y * 100, nil
}

// csvValues reads a claim's column (over over_column) from a CSV file
// whose first row names the columns.
func csvValues(path string, c Claim) ([]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	col := func(name string) int {
		for i, h := range recs[0] {
			if strings.TrimSpace(h) == name {
				return i
			}
		}
		return -1
	}
	ci, oi := col(c.Column), -1
	if ci < 0 {
		return nil, fmt.Errorf("%s: no column %q", path, c.Column)
	}
	if c.OverColumn != "" {
		if oi = col(c.OverColumn); oi < 0 {
			return nil, fmt.Errorf("%s: no column %q", path, c.OverColumn)
		}
	}
	var vs []float64
	for _, rec := range recs[1:] {
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[ci]), 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", path, rec[ci])
		}
		if oi >= 0 {
			d, err := strconv.ParseFloat(strings.TrimSpace(rec[oi]), 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q is not a number", path, rec[oi])
			}
			v /= d
		}
		vs = append(vs, v)
	}
	sort.Float64s(vs)
	switch c.Ours {
	case "max":
		return vs[len(vs)-1:], nil
	case "min":
		return vs[:1], nil
	case "median":
		return []float64{median(vs)}, nil
	}
	return vs, nil
}

// formatValues writes ours: a value, two, or the range of more.
func formatValues(c Claim, vs []float64) string {
	f := func(v float64) string { return formatValue(c, v) }
	switch len(vs) {
	case 0:
		return "–"
	case 1:
		return f(vs[0])
	case 2, 3:
		var parts []string
		for _, v := range vs {
			parts = append(parts, f(v))
		}
		return strings.Join(parts, ", ")
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	return f(s[0]) + " to " + f(s[len(s)-1])
}

// formatValue writes one value of ours in the claim's unit.
func formatValue(c Claim, v float64) string {
	if c.Percent && c.Ours == "ratio" {
		return fmt.Sprintf("%.1f %%", v*100)
	}
	switch c.Ours {
	case "ratio", "each":
		if c.CSV != "" && c.OverColumn == "" {
			return sig(v)
		}
		return sig(v) + "×"
	case "change":
		return fmt.Sprintf("%+.1f %%", v)
	case "spread":
		return fmt.Sprintf("%.1f %%", v)
	case "argmin", "argmax":
		return strconv.FormatFloat(v, 'g', -1, 64)
	case "max", "min", "median":
		return sig(v)
	}
	q := newQuantity(c.Y, c.PerRank)
	switch {
	case q.kind == qGTEPS:
		div, unit := tepsUnit(v)
		return sig(v/div) + " " + unit
	case q.isTime():
		mul, unit := timeUnit(v)
		return sig(v*mul) + " " + unit
	}
	switch q.kind {
	case qLevels:
		return num3(v) + " levels"
	case qBytes:
		if q.items[0].Label == "edges_examined" {
			return sig(v) + " edges"
		}
		mul, unit := bytesUnit(v)
		return sig(v*mul) + " " + unit
	}
	return sig(v)
}

// sig writes v with three significant digits (no exponent under 1e6).
func sig(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	d := 3 - int(math.Floor(math.Log10(math.Abs(v)))) - 1
	if d < 0 {
		d = 0
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// VerdictTable is the markdown table of vs, between the markers.
func VerdictTable(vs []Verdict) string {
	var b strings.Builder
	b.WriteString(VerdictsBegin + "\n\n")
	b.WriteString("| the paper's claim | paper | ours | verdict | why |\n|---|---|---|---|---|\n")
	cell := func(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "|", "\\|") }
	for _, v := range vs {
		claim := v.Claim.Claim
		if v.Source != "" {
			claim = v.Source + ": " + claim
		}
		verdict := "**" + v.Got + "**"
		reason := v.Reason
		if v.Got == Pending {
			verdict = "*" + Pending + "*"
			reason = "(expected: " + v.Verdict + ") " + reason
		}
		if v.Mismatch() {
			reason = "(written for " + v.Verdict + "; the numbers now give " + v.Got + ": to be reviewed) " + reason
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell(claim), cell(v.Paper), cell(v.OursTxt), verdict, cell(reason))
	}
	b.WriteString("\n" + VerdictsEnd)
	return b.String()
}

// UpdateReadme puts table between the markers of readme (the table there
// replaced); it reports whether the text changed. A README without the
// markers is an error.
func UpdateReadme(readme []byte, table string) ([]byte, bool, error) {
	s := string(readme)
	i := strings.Index(s, VerdictsBegin)
	j := strings.Index(s, VerdictsEnd)
	if i < 0 || j < i {
		return nil, false, fmt.Errorf("no %q … %q markers for the verdict table", VerdictsBegin, VerdictsEnd)
	}
	out := s[:i] + table + s[j+len(VerdictsEnd):]
	return []byte(out), out != s, nil
}
