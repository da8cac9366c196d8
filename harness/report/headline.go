package report

// headline.go writes the table of headline results in results/README.md
// from the committed results files that results/headline.toml names, so
// that no measured figure is typed by hand (`bfsbench results-table`; a
// test fails when the README's table differs from what the files give).

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/bfsbench/bfsbench/harness/results"
)

// HeadlineFile is the manifest of the headline results, in the results
// folder.
const HeadlineFile = "headline.toml"

// The markers around the generated table in the results folder's
// README.md.
const (
	HeadlineBegin = "<!-- headline results: written by `bfsbench results-table results` from headline.toml; do not edit -->"
	HeadlineEnd   = "<!-- end of headline results -->"
)

// HeadlineRow selects cases of one committed results file: those of the
// variant named Variant, at one of Scales (every scale when empty), whose
// parameters include Params.
type HeadlineRow struct {
	File    string         `toml:"file"` // relative to the results folder; .json or .json.gz
	Variant string         `toml:"variant"`
	Scales  []int          `toml:"scales"`
	Params  map[string]any `toml:"params"`
	Note    string         `toml:"note"` // a few words on what the row shows
}

// LoadHeadline reads the manifest at path, strictly: an unknown key or a
// row without a file or a variant is an error.
func LoadHeadline(path string) ([]HeadlineRow, error) {
	var m struct {
		Row []HeadlineRow `toml:"row"`
	}
	md, err := toml.DecodeFile(path, &m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s", path, und[0])
	}
	for i, r := range m.Row {
		if r.File == "" || r.Variant == "" {
			return nil, fmt.Errorf("%s: row %d needs a file and a variant", path, i+1)
		}
	}
	return m.Row, nil
}

// HeadlineTable is the markdown table of the cases rows select from the
// results files under dir, in the rows' order. A row that selects no case,
// or a case that is not ok with every search validated, is an error: a
// headline figure comes from a fully validated case.
func HeadlineTable(dir string, rows []HeadlineRow) (string, error) {
	var b strings.Builder
	b.WriteString("| variant | backend | GPUs | grid | scale | preset | harmonic GTEPS | valid/validated | % of bound | % of floor | machine | file | note |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	runs := map[string]*results.Run{}
	for i, row := range rows {
		r := runs[row.File]
		if r == nil {
			var err error
			if r, err = results.Load(filepath.Join(dir, row.File)); err != nil {
				return "", fmt.Errorf("headline row %d: %w", i+1, err)
			}
			runs[row.File] = r
		}
		n := 0
		for _, c := range r.Cases {
			if c == nil || c.Variant != row.Variant || len(row.Scales) > 0 && !slices.Contains(row.Scales, c.Graph.Scale) || !hasParams(c, row.Params) {
				continue
			}
			if c.Status != results.StatusOK || c.Stats == nil || c.Validated < len(c.BFS) {
				return "", fmt.Errorf("headline row %d: %s %s in %s is %s, %s validated: a headline figure needs an ok case with every search validated",
					i+1, c.Variant, c.Graph.Label(), row.File, c.Status, c.ValidLabel())
			}
			n++
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s | %.1f | %s | %s | %s | %s | [`%s`](%s) | %s |\n",
				c.Plugin, c.Backend, gpusLabel(c), gridLabel(c), c.Graph.Scale, paramOf(c, "preset"),
				c.Stats.HarmonicMeanTEPS/1e9, c.ValidLabel(), percent(c.PercentOfBound), percent(c.PercentOfFloor),
				machineLabel(r.Env, c), row.File, row.File, row.Note)
		}
		if n == 0 {
			return "", fmt.Errorf("headline row %d: no case of variant %q (scales %v, params %v) in %s", i+1, row.Variant, row.Scales, row.Params, row.File)
		}
	}
	return b.String(), nil
}

// ReplaceHeadline returns readme with the text between HeadlineBegin and
// HeadlineEnd replaced by table.
func ReplaceHeadline(readme []byte, table string) ([]byte, error) {
	begin := bytes.Index(readme, []byte(HeadlineBegin))
	end := bytes.Index(readme, []byte(HeadlineEnd))
	if begin < 0 || end < begin {
		return nil, fmt.Errorf("the README has no %q ... %q markers", HeadlineBegin, HeadlineEnd)
	}
	var out bytes.Buffer
	out.Write(readme[:begin+len(HeadlineBegin)])
	out.WriteString("\n\n")
	out.WriteString(table)
	out.WriteString("\n")
	out.Write(readme[end:])
	return out.Bytes(), nil
}

// UpdateHeadline rewrites the headline table of dir/README.md from
// dir/headline.toml. It returns whether the README changed; with check, it
// writes nothing.
func UpdateHeadline(dir string, check bool) (changed bool, err error) {
	rows, err := LoadHeadline(filepath.Join(dir, HeadlineFile))
	if err != nil {
		return false, err
	}
	table, err := HeadlineTable(dir, rows)
	if err != nil {
		return false, err
	}
	path := filepath.Join(dir, "README.md")
	old, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	updated, err := ReplaceHeadline(old, table)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(old, updated) {
		return false, nil
	}
	if check {
		return true, nil
	}
	return true, results.WriteFileAtomic(path, updated)
}

// hasParams reports whether c's parameters (as the config gave them, or as
// the case info records them resolved) include every one of want.
func hasParams(c *results.Case, want map[string]any) bool {
	for k, v := range want {
		if paramOf(c, k) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

// paramOf is c's parameter name as text: the config's value, else the
// resolved value the case info records; "-" when neither has it.
func paramOf(c *results.Case, name string) string {
	if v, ok := c.Params[name]; ok {
		return fmt.Sprint(v)
	}
	if list, ok := c.Info["resolved"].([]any); ok {
		for _, e := range list {
			if s, ok := e.(string); ok && strings.HasPrefix(s, name+"=") {
				return strings.TrimPrefix(s, name+"=")
			}
		}
	}
	return "-"
}

func gpusLabel(c *results.Case) string {
	if c.GPUs == 0 {
		return "-"
	}
	return fmt.Sprint(c.GPUs)
}

func gridLabel(c *results.Case) string {
	switch {
	case c.Grid != [2]int{}:
		return fmt.Sprintf("%d×%d", c.Grid[0], c.Grid[1])
	case c.Ranks > 1:
		return fmt.Sprintf("%d ranks", c.Ranks)
	}
	return "-"
}

func percent(p float64) string {
	if p <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", p)
}

// machineLabel is the GPU model of a GPU case, else the CPU model and its
// core count; "not recorded" for runs that predate the record.
func machineLabel(e results.Env, c *results.Case) string {
	if c.GPUs > 0 {
		if len(e.GPUModels) > 0 {
			return e.GPUModels[0]
		}
		return "not recorded"
	}
	if e.CPUModel == "" {
		return "not recorded"
	}
	return fmt.Sprintf("%s, %d CPUs", e.CPUModel, e.CPUs)
}
