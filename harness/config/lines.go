package config

// lines.go maps key paths ("workload.scale", "variant[1].params.alpha") to
// the line that defines them, so errors can name a line. The TOML decoder
// reports positions only for syntax errors; this small scanner covers the
// subset of TOML a bfsbench config uses (tables, arrays of tables, dotted
// and bare keys).

import (
	"sort"
	"strconv"
	"strings"
)

type lineIndex struct {
	at map[string]int
}

func indexLines(text string) *lineIndex {
	idx := &lineIndex{at: map[string]int{}}
	arrays := map[string]int{} // array-of-tables name -> current index
	prefix := ""
	depth := 0 // open brackets of a multi-line array value
	for i, raw := range strings.Split(text, "\n") {
		ln := i + 1
		line := strings.TrimSpace(stripComment(raw))
		if line == "" {
			continue
		}
		if depth > 0 {
			depth += strings.Count(line, "[") - strings.Count(line, "]")
			continue
		}
		switch {
		case strings.HasPrefix(line, "[["):
			name := strings.TrimSpace(strings.Trim(line, "[]"))
			if _, ok := arrays[name]; ok {
				arrays[name]++
			} else {
				arrays[name] = 0
			}
			prefix = resolve(name, arrays)
			idx.set(prefix, ln)
			idx.set(strings.TrimSuffix(name, "]"), ln) // the array itself
		case strings.HasPrefix(line, "["):
			name := strings.TrimSpace(strings.Trim(line, "[]"))
			prefix = resolve(name, arrays)
			idx.set(prefix, ln)
		default:
			eq := strings.Index(line, "=")
			if eq < 0 {
				continue
			}
			key := strings.TrimSpace(line[:eq])
			key = strings.Trim(key, "\"'")
			full := key
			if prefix != "" {
				full = prefix + "." + key
			}
			idx.set(full, ln)
			val := line[eq+1:]
			depth = strings.Count(val, "[") - strings.Count(val, "]")
			if depth < 0 {
				depth = 0
			}
		}
	}
	return idx
}

// resolve rewrites a table name so that components naming an array of
// tables get the array's current index: "variant.params" after the second
// [[variant]] becomes "variant[1].params".
func resolve(name string, arrays map[string]int) string {
	parts := strings.Split(name, ".")
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		whole := strings.Join(parts[:i+1], ".")
		if n, ok := arrays[whole]; ok {
			p += "[" + strconv.Itoa(n) + "]"
		}
		out = append(out, p)
	}
	return strings.Join(out, ".")
}

func (x *lineIndex) set(key string, ln int) {
	if _, ok := x.at[key]; !ok {
		x.at[key] = ln
	}
}

// line returns the line of key, or of its nearest enclosing table, or 0.
func (x *lineIndex) line(key string) int {
	for key != "" {
		if ln, ok := x.at[key]; ok {
			return ln
		}
		i := strings.LastIndex(key, ".")
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return 0
}

// order sorts keys (children of prefix) by the line defining them; keys the
// index does not know keep their relative order at the end.
func (x *lineIndex) order(prefix string, keys []string) []string {
	out := append([]string(nil), keys...)
	pos := func(k string) int {
		if ln, ok := x.at[prefix+k]; ok {
			return ln
		}
		return 1 << 30
	}
	// A stable sort: O(n log n), where an insertion sort took 8 s for
	// 20,000 keys.
	sort.SliceStable(out, func(i, j int) bool { return pos(out[i]) < pos(out[j]) })
	return out
}

// stripComment drops a '#' comment that is not inside a quoted string.
func stripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return s[:i]
		}
	}
	return s
}
