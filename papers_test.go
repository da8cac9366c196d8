package bfsbench_test

// The papers: cited once, in docs/papers.md, by key elsewhere; mapped to
// the code in the plugin READMEs, every name of a map present in the code.

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// citations are what a full reference writes out: the papers' titles and
// venues. They belong in docs/papers.md only; elsewhere a paper is cited
// by its key ([Bisson], [Krajecki], ...).
var citations = regexp.MustCompile(`(?i)Parallel Distributed Breadth First Search|Kepler Architecture|` +
	`BFS Traversal on Multi-GPU|Cost-efficient Multi-GPU|Scalable GPU Graph Traversal|` +
	`Direction-Optimizing Breadth-First Search|Breaking the Speed and Scalability|` +
	`\b(TPDS|HiPC|PPoPP|HEART|SIGARCH|IEEE CSE)\b|Transactions on Parallel|Computational Science and Engineering|` +
	`Scientific Programming|\bSC ?'?(20)?12\b|arXiv:1408`)

// TestPapersCitedByKey: titles and venues appear in docs/papers.md only.
func TestPapersCitedByKey(t *testing.T) {
	textFiles(t, func(path, text string) {
		if path == "docs/papers.md" || path == "papers_test.go" {
			return
		}
		for i, line := range strings.Split(text, "\n") {
			if m := citations.FindString(line); m != "" {
				t.Errorf("%s:%d: %q: cite the paper by its key (docs/papers.md)", path, i+1, m)
			}
		}
	})
}

// TestPaperMapsNameCode: every plugin README has a paper-to-code map (a
// table with a "where" column), docs/papers.md has none, and every name in
// a map's "where" column is a file of the repository or a word of its
// code.
func TestPaperMapsNameCode(t *testing.T) {
	var code strings.Builder
	textFiles(t, func(path, text string) {
		switch filepath.Ext(path) {
		case ".go", ".cu", ".cuh", ".h", ".cpp", ".toml":
			if strings.HasPrefix(path, "plugins/") || strings.HasPrefix(path, "harness/") || strings.HasPrefix(path, "configs/") {
				code.WriteString(text)
				code.WriteByte('\n')
			}
		}
	})
	words := map[string]bool{}
	for _, w := range regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`).FindAllString(code.String(), -1) {
		words[w] = true
	}
	if b, err := os.ReadFile("docs/papers.md"); err != nil {
		t.Fatal(err)
	} else if len(whereCells(string(b))) > 0 {
		t.Errorf("docs/papers.md has a paper-to-code map: the maps live in the plugin READMEs")
	}
	for _, p := range pluginFolders(t) {
		readme := filepath.Join("plugins", p, "README.md")
		b, err := os.ReadFile(readme)
		if err != nil {
			t.Errorf("plugins/%s has no README.md: %v", p, err)
			continue
		}
		cells := whereCells(string(b))
		if len(cells) == 0 {
			t.Errorf("%s has no paper-to-code map (a table with a \"where\" column)", readme)
		}
		for _, cell := range cells {
			for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cell.text, -1) {
				if missing := checkName(m[1], filepath.Join("plugins", p), words); missing != "" {
					t.Errorf("%s:%d: %q in the \"where\" column: %s", readme, cell.line, m[1], missing)
				}
			}
		}
	}
}

type cell struct {
	line int
	text string
}

// whereCells returns the cells of the "where" column of every markdown
// table in text.
func whereCells(text string) []cell {
	var out []cell
	col := -1
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			col = -1
			continue
		}
		cols := splitRow(line)
		if col < 0 {
			col = slices.Index(cols, "where")
			if col < 0 {
				col = -2 // a table without a "where" column
			}
			continue
		}
		if col >= 0 && col < len(cols) && !strings.HasPrefix(cols[col], "---") {
			out = append(out, cell{i + 1, cols[col]})
		}
	}
	return out
}

// splitRow splits a table row at the | not escaped as \|.
func splitRow(line string) []string {
	line = strings.ReplaceAll(strings.Trim(line, "|"), `\|`, "\x00")
	var cols []string
	for _, c := range strings.Split(line, "|") {
		cols = append(cols, strings.TrimSpace(strings.ReplaceAll(c, "\x00", "|")))
	}
	return cols
}

var (
	braces   = regexp.MustCompile(`\{([^}]*)\}`)
	template = regexp.MustCompile(`<[^>]*>`)
	ident    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// checkName returns why name (a backticked name of a map, in the README of
// plugin folder dir) is not in the repository, or "" when it is: a path
// (relative to dir or to the repository; {a,b} and * expanded) must exist,
// and every identifier of anything else (Type.Method, ns::Name,
// Kernel<A,B>, param = value) must be a word of the code.
func checkName(name, dir string, words map[string]bool) string {
	if strings.Contains(name, "/") || regexp.MustCompile(`\.(go|cu|cuh|h|toml|csv|md)$`).MatchString(name) {
		for _, p := range expandBraces(strings.TrimSuffix(name, "/")) {
			found := false
			for _, base := range []string{dir, "."} {
				if ms, _ := filepath.Glob(filepath.Join(base, p)); len(ms) > 0 {
					found = true
				}
			}
			if !found {
				return "no such file"
			}
		}
		return ""
	}
	for _, part := range strings.FieldsFunc(template.ReplaceAllString(name, ""), func(r rune) bool {
		return r == '.' || r == ':' || r == '=' || r == ' ' || r == '+' || r == ','
	}) {
		if ident.MatchString(part) && !words[part] {
			return part + " is not in the code"
		}
	}
	return ""
}

// expandBraces expands one level of {a,b,...} in p.
func expandBraces(p string) []string {
	m := braces.FindStringSubmatchIndex(p)
	if m == nil {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[m[2]:m[3]], ",") {
		out = append(out, expandBraces(p[:m[0]]+alt+p[m[1]:])...)
	}
	return out
}
