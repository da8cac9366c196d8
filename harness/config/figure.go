package config

// figure.go: the [[figure]] tables. A figure names what to plot from a
// run's cases: the x axis (a dimension of the cases or the BFS level), the
// y quantity, what tells the series apart, the kind of plot, and optionally
// a CSV of a paper's own values drawn beside ours. The report package draws
// them (report.Figures); this file only checks them, as strictly as the
// rest of the config.

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// Figure is one [[figure]] table:
//
//	[[figure]]
//	name = "fig3"                 # the files are figure-fig3.png and .svg
//	x = "edges_per_thread"        # scale, ef, ranks, gpus, grid, variant, backend, level, or a parameter
//	y = "phase:expansion"         # gteps, speedup, time, transfer, levels, info:<key>, phase:<items>, bytes:<items>,
//	                              # edges_examined, or a sum of times "a + b" (spaces around '+')
//	series = "variant"            # a dimension or a list of them (default "variant")
//	kind = "line"                 # line (default), bar, stacked (y = "phases", "bytes", or a list of items),
//	                              # or table (columns, no y)
//	over = "variant=cpu"          # line and bar: y of each case over y of the case over selects at its x
//	columns = ["levels", "transfer"]   # table: one column per quantity (y's forms), one row per x and series
//	headers = ["iterations", "parents copy"]  # table: the columns' names (default: the quantities)
//	logx = false
//	logy = false                  # line and bar figures
//	per_rank = false              # bytes:<items> divided by the case's ranks
//	title = "Frontier expansion time against edges per thread"
//	reference = "paper-fig3.csv"  # a paper's values, relative to the config file
//	only = ["scale=21,gpus=1", "scale=22,gpus=2"]  # keep the cases matching one entry
type Figure struct {
	Name   string
	X      string
	Y      string
	Series []string
	Kind   string
	LogX   bool
	LogY   bool
	// PerRank divides byte counters by the case's ranks (bytes per rank,
	// as papers that count "per GPU" draw them).
	PerRank bool
	Title   string
	// Reference is the CSV file of a paper's values as the config gives
	// it; ReferencePath resolves it.
	Reference string
	// Only keeps the cases that match one of its entries (every
	// dimension = value of the entry); nil keeps every case.
	Only []map[string]string
	// Over, where set, draws y as a ratio: each case's y over the y of
	// the one case Over selects (every dimension = value) at the same x;
	// the cases Over selects are the denominators, not series.
	Over map[string]string
	// Columns are a table's quantities (kind = "table"), each a y of a
	// whole search; Headers, where set, name them.
	Columns []string
	Headers []string

	file  string
	lines *lineIndex
	path  string // "figure[i]"
}

// Figure kinds.
const (
	KindLine    = "line"
	KindBar     = "bar"
	KindStacked = "stacked"
	KindTable   = "table"
)

// XLevel is the x dimension that plots per BFS level.
const XLevel = "level"

// figureKeys are the keys a [[figure]] table may hold.
const figureKeys = "name, x, y, series, kind, logx, logy, per_rank, title, reference, only, over, columns, headers"

// ParseFigures reads only the [[figure]] tables of config text (for
// example the config stored in a results.json, whose other tables need not
// pass today's checks); name is used in errors.
func ParseFigures(name, text string) ([]*Figure, error) {
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		if pe, ok := err.(toml.ParseError); ok {
			return nil, &Error{File: name, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	p := &parser{file: name, lines: indexLines(text)}
	return p.figures(raw)
}

// ReferencePath is the reference CSV's path: relative to the config
// file's folder unless absolute; "" when the figure has none.
func (f *Figure) ReferencePath() string {
	if f.Reference == "" || filepath.IsAbs(f.Reference) {
		return f.Reference
	}
	return filepath.Join(filepath.Dir(f.file), f.Reference)
}

// Errorf returns an error at the figure's key (e.g. "reference") in its
// config file, for problems found when the figure is drawn.
func (f *Figure) Errorf(key, format string, args ...any) error {
	k := f.path
	if key != "" {
		k += "." + key
	}
	return &Error{File: f.file, Line: f.lines.line(k), Key: k, Msg: fmt.Sprintf(format, args...)}
}

// PhaseY returns what y = "phase:<items>" names: one phase, or items
// "[label=]name[+name...]" separated by commas (see YItems).
func (f *Figure) PhaseY() (string, bool) { return strings.CutPrefix(f.Y, "phase:") }

// BytesY returns what y = "bytes:<items>" names: one byte counter, or
// items as PhaseY's.
func (f *Figure) BytesY() (string, bool) { return strings.CutPrefix(f.Y, "bytes:") }

// YItem is one quantity of a y = "phase:..." or "bytes:..." list: the sum
// of the phases or counters in Names, shown as Label.
type YItem struct {
	Label string
	Names []string
}

// YItems splits the list after "phase:" or "bytes:" into its items:
// "compute=expansion+update,transfer=fold_exchange" is two items, the
// first labelled compute, the sum of expansion and update; an item
// without a label is labelled by its names joined with '+'. ok is false
// for a malformed list.
func YItems(list string) (items []YItem, ok bool) {
	for _, part := range strings.Split(list, ",") {
		label, sum, named := strings.Cut(part, "=")
		if !named {
			sum = label
		}
		var it YItem
		for _, n := range strings.Split(sum, "+") {
			if n == "" || strings.ContainsAny(n, " \t=") {
				return nil, false
			}
			it.Names = append(it.Names, n)
		}
		it.Label = strings.Join(it.Names, "+")
		if named {
			if label == "" || strings.ContainsAny(label, " \t") {
				return nil, false
			}
			it.Label = label
		}
		items = append(items, it)
	}
	return items, len(items) > 0
}

func (p *parser) figures(raw map[string]any) ([]*Figure, error) {
	ft, ok := raw["figure"]
	if !ok {
		return nil, nil
	}
	fs, ok := ft.([]map[string]any)
	if !ok {
		return nil, p.errf("figure", "want an array of tables [[figure]]")
	}
	var out []*Figure
	names := map[string]bool{}
	for i, m := range fs {
		f, err := p.figure(i, m)
		if err != nil {
			return nil, err
		}
		if names[f.Name] {
			return nil, p.errf(f.path+".name", "duplicate figure name %q", f.Name)
		}
		names[f.Name] = true
		out = append(out, f)
	}
	return out, nil
}

func (p *parser) figure(i int, m map[string]any) (*Figure, error) {
	path := fmt.Sprintf("figure[%d]", i)
	f := &Figure{Kind: KindLine, Series: []string{"variant"}, file: p.file, lines: p.lines, path: path}
	str := func(key string, dst *string) error {
		s, ok := m[key].(string)
		if !ok {
			return p.errf(path+"."+key, "want a string, got %s", typeName(m[key]))
		}
		*dst = s
		return nil
	}
	boolean := func(key string, dst *bool) error {
		b, ok := m[key].(bool)
		if !ok {
			return p.errf(path+"."+key, "want true or false, got %s", typeName(m[key]))
		}
		*dst = b
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var err error
		switch k {
		case "name":
			if err = str(k, &f.Name); err == nil && !isFileName(f.Name) {
				err = p.errf(path+".name", "want letters, digits, '.', '-' or '_' (it names the files figure-<name>.png and .svg), got %q", f.Name)
			}
		case "x":
			if err = str(k, &f.X); err == nil && !isIdent(f.X) {
				err = p.errf(path+".x", "want a dimension (scale, ef, ranks, gpus, grid, variant, backend, level) or a parameter name, got %q", f.X)
			}
		case "y":
			if err = str(k, &f.Y); err == nil && !validY(f.Y) {
				err = p.errf(path+".y", "want gteps, speedup, time, transfer, levels, info:<key>, phase:<items>, bytes:<items> (items: [label=]name[+name], separated by commas), edges_examined, a sum of times (\"info:upload_s + transfer\"), or for kind = \"stacked\" phases or bytes; got %q", f.Y)
			}
		case "series":
			f.Series, err = p.nameList(m[k], path+".series")
		case "kind":
			if err = str(k, &f.Kind); err == nil && f.Kind != KindLine && f.Kind != KindBar && f.Kind != KindStacked && f.Kind != KindTable {
				err = p.errf(path+".kind", "want \"line\", \"bar\", \"stacked\" or \"table\", got %q", f.Kind)
			}
		case "logx":
			err = boolean(k, &f.LogX)
		case "logy":
			err = boolean(k, &f.LogY)
		case "per_rank":
			err = boolean(k, &f.PerRank)
		case "title":
			err = str(k, &f.Title)
		case "reference":
			if err = str(k, &f.Reference); err == nil && !strings.HasSuffix(strings.ToLower(f.Reference), ".csv") {
				err = p.errf(path+".reference", "want a .csv file (series,x,y rows under # paper:, # hardware: and # source: lines), got %q", f.Reference)
			}
		case "only":
			f.Only, err = p.only(m[k], path+".only")
		case "over":
			var o string
			if err = str(k, &o); err == nil {
				var l []map[string]string
				if l, err = p.only([]any{o}, path+".over"); err == nil {
					f.Over = l[0]
				}
			}
		case "columns":
			if f.Columns, err = p.strList(m[k], path+".columns"); err == nil {
				for _, c := range f.Columns {
					if !WholeY(c) {
						err = p.errf(path+".columns", "want quantities of a whole search (gteps, time, transfer, levels, info:<key>, phase:<item>, bytes:<item>, edges_examined, or a sum of times \"a + b\"), got %q", c)
						break
					}
				}
			}
		case "headers":
			f.Headers, err = p.strList(m[k], path+".headers")
		default:
			err = p.errf(path+"."+k, "unknown key (known: %s)", figureKeys)
		}
		if err != nil {
			return nil, err
		}
	}
	required := []string{"name", "x", "y"}
	if f.Kind == KindTable {
		required = []string{"name", "x", "columns"}
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			return nil, p.errf(path, "missing key %q", k)
		}
	}
	if err := p.checkTable(f, m, path); err != nil {
		return nil, err
	}
	stackY := f.Y == "phases" || f.Y == "bytes"
	_, isPhase := f.PhaseY()
	_, isBytes := f.BytesY()
	switch {
	case f.Kind == KindStacked && !stackY && !isPhase && !isBytes:
		return nil, p.errf(path+".y", "kind = \"stacked\" stacks every phase's time (y = \"phases\"), every byte counter (y = \"bytes\") or the items of y = \"phase:a,b\" or \"bytes:a,b\", got %q", f.Y)
	case f.Kind != KindStacked && stackY:
		return nil, p.errf(path+".y", "y = %q needs kind = \"stacked\"", f.Y)
	case f.X == XLevel && (f.Y == "gteps" || f.Y == "speedup" || f.Y == "transfer" || f.Y == "levels" || isInfo(f.Y) || isSum(f.Y)):
		return nil, p.errf(path+".y", "%s is a whole search's figure; per level, plot time, phase:<name>, bytes:<name> or edges_examined", f.Y)
	case f.Over != nil && (f.Kind == KindStacked || f.Kind == KindTable):
		return nil, p.errf(path+".over", "a ratio is drawn as a line or bars: kind = %q takes no over", f.Kind)
	case f.Over != nil && (f.X == XLevel || f.Y == "speedup" || !WholeY(f.Y)):
		return nil, p.errf(path+".over", "over divides one quantity of whole searches (gteps, time, transfer, phase:<item>, ...) at each x; not y = %q at x = %q", f.Y, f.X)
	case f.LogX && f.Kind != KindLine:
		return nil, p.errf(path+".logx", "a log x axis needs kind = \"line\"")
	case f.LogY && f.Kind == KindStacked:
		return nil, p.errf(path+".logy", "log axes need kind = \"line\" or \"bar\": stacks do not add up on a log axis")
	case f.PerRank && f.Y != "bytes" && !isBytes:
		return nil, p.errf(path+".per_rank", "per_rank divides byte counters: it needs y = \"bytes:<items>\" or \"bytes\"")
	case f.Kind == KindStacked && f.Reference != "":
		return nil, p.errf(path+".reference", "a reference is drawn as a line or bars: kind = \"stacked\" takes none")
	}
	for _, s := range f.Series {
		if s == f.X {
			return nil, p.errf(path+".series", "%q is already the x axis", s)
		}
	}
	if _, ok := f.Over[f.X]; ok {
		return nil, p.errf(path+".over", "%q is the x axis: the denominator is the case of the same x", f.X)
	}
	return f, nil
}

// checkTable checks the keys that belong to tables: columns and headers
// only with kind = "table", which takes no y, reference, log axes or
// per_rank.
func (p *parser) checkTable(f *Figure, m map[string]any, path string) error {
	if f.Kind != KindTable {
		for _, k := range []string{"columns", "headers"} {
			if _, ok := m[k]; ok {
				return p.errf(path+"."+k, "%s belong to kind = \"table\"", k)
			}
		}
		return nil
	}
	for _, k := range []string{"y", "reference", "logx", "logy", "per_rank"} {
		if _, ok := m[k]; ok {
			return p.errf(path+"."+k, "a table (kind = \"table\") takes no %s: its quantities are its columns", k)
		}
	}
	if len(f.Headers) > 0 && len(f.Headers) != len(f.Columns) {
		return p.errf(path+".headers", "%d headers for %d columns", len(f.Headers), len(f.Columns))
	}
	if f.X == XLevel {
		return p.errf(path+".x", "a table has a row per case: x = \"level\" is for figures")
	}
	return nil
}

// strList reads a non-empty list of strings.
func (p *parser) strList(v any, key string) ([]string, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, p.errf(key, "want a non-empty list of strings, got %s", typeName(v))
	}
	var out []string
	for _, e := range list {
		s, ok := e.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, p.errf(key, "want non-empty strings, got %s", typeName(e))
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out, nil
}

// nameList reads a dimension name or a list of them.
func (p *parser) nameList(v any, key string) ([]string, error) {
	var names []string
	switch x := v.(type) {
	case string:
		names = []string{x}
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, p.errf(key, "want dimension names, got %s", typeName(e))
			}
			names = append(names, s)
		}
	default:
		return nil, p.errf(key, "want a dimension name or a list of them, got %s", typeName(v))
	}
	if len(names) == 0 {
		return nil, p.errf(key, "empty list")
	}
	for _, n := range names {
		if !isIdent(n) {
			return nil, p.errf(key, "want a dimension (variant, backend, scale, ef, ranks, gpus, grid) or a parameter name, got %q", n)
		}
	}
	return names, nil
}

// only reads a list of "dim=value,dim=value" entries.
func (p *parser) only(v any, key string) ([]map[string]string, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, p.errf(key, "want a list of \"dimension=value,dimension=value\" strings, got %s", typeName(v))
	}
	var out []map[string]string
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, p.errf(key, "want strings like \"scale=21,gpus=1\", got %s", typeName(e))
		}
		match := map[string]string{}
		for _, part := range strings.Split(s, ",") {
			d, val, ok := strings.Cut(strings.TrimSpace(part), "=")
			d, val = strings.TrimSpace(d), strings.TrimSpace(val)
			if !ok || !isIdent(d) || val == "" {
				return nil, p.errf(key, "want \"dimension=value\" pairs separated by commas, got %q", s)
			}
			if d == "seed" {
				// A seed pair is "A,B" as a case reports it; the list's
				// commas separate pairs, so the config writes "A/B".
				val = strings.ReplaceAll(val, "/", ",")
			}
			match[d] = val
		}
		out = append(out, match)
	}
	return out, nil
}

func validY(y string) bool {
	switch y {
	case "gteps", "speedup", "time", "transfer", "edges_examined", "phases", "bytes", "levels":
		return true
	}
	if isInfo(y) || isSum(y) {
		return WholeY(y)
	}
	for _, pre := range []string{"phase:", "bytes:"} {
		if list, ok := strings.CutPrefix(y, pre); ok {
			_, ok := YItems(list)
			return ok
		}
	}
	return false
}

// InfoY returns the key that y = "info:<key>" names: a number of the
// case's info (what the plugin reported at construction), one a case.
func InfoY(y string) (string, bool) { return strings.CutPrefix(y, "info:") }

func isInfo(y string) bool { _, ok := InfoY(y); return ok }

// SumSep separates the terms of a sum of times: "info:upload_s + transfer".
const SumSep = " + "

func isSum(y string) bool { return strings.Contains(y, SumSep) }

// SumTerms splits y into the terms of a sum of times (one term where y
// is no sum).
func SumTerms(y string) []string {
	parts := strings.Split(y, SumSep)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// WholeY reports whether y is one quantity of a whole search: gteps,
// time, transfer, levels, edges_examined, info:<key>, phase:<item> or
// bytes:<item> (one item, a sum of names allowed), or a sum of times
// "a + b" whose terms are time, transfer, phase:<item> or info:<key>
// (times in seconds).
func WholeY(y string) bool {
	if isSum(y) {
		for _, t := range SumTerms(y) {
			if !timeTerm(t) {
				return false
			}
		}
		return true
	}
	switch y {
	case "gteps", "time", "transfer", "levels", "edges_examined":
		return true
	}
	if k, ok := InfoY(y); ok {
		return isIdent(k)
	}
	for _, pre := range []string{"phase:", "bytes:"} {
		if list, ok := strings.CutPrefix(y, pre); ok {
			items, ok := YItems(list)
			return ok && len(items) == 1
		}
	}
	return false
}

// timeTerm reports whether t is a time a sum may add: time, transfer,
// phase:<item> or info:<key>.
func timeTerm(t string) bool {
	if t == "time" || t == "transfer" {
		return true
	}
	if k, ok := InfoY(t); ok {
		return isIdent(k)
	}
	if list, ok := strings.CutPrefix(t, "phase:"); ok {
		items, ok := YItems(list)
		return ok && len(items) == 1
	}
	return false
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func isFileName(s string) bool {
	if s == "" || s[0] == '.' || len(s) > 80 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
