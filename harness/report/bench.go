// This file writes bench.txt in the Go benchmark format
// (golang.org/x/perf/benchfmt), one line per valid search, so that
// benchstat can compare two runs:
//
//	BenchmarkBFS/plugin=P/backend=B/scale=S/ef=E[/grid=RxC][/<param>=<v>...] 1 <ns> ns/op <teps> TEPS
//
// The file-level configuration lines name only the hardware (cpu, gpu),
// since benchstat splits results whose configuration differs into separate
// tables: a commit or date line would stop two runs from being compared.

package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/bfsbench/bfsbench/harness/results"
)

// benchText renders bench.txt.
func benchText(run *results.Run) ([]byte, error) {
	var b bytes.Buffer
	if m := run.Env.CPUModel; m != "" {
		fmt.Fprintf(&b, "cpu: %s\n", m)
	}
	if len(run.Env.GPUModels) > 0 {
		fmt.Fprintf(&b, "gpu: %s\n", strings.Join(run.Env.GPUModels, ", "))
	}
	// Tell benchstat that more TEPS is better (it knows ns/op already).
	b.WriteString("Unit TEPS better=higher\n")
	for _, c := range run.Cases {
		if c == nil {
			continue
		}
		name := benchName(c)
		for _, s := range c.BFS {
			if !s.Valid || s.TEPS <= 0 {
				continue
			}
			fmt.Fprintf(&b, "Benchmark%s 1 %.1f ns/op %.0f TEPS\n", name, s.TimeS*1e9, s.TEPS)
		}
	}
	return b.Bytes(), nil
}

// benchMedianText renders bench-median.txt: one line per case with valid
// searches, the median of their times,
//
//	BenchmarkBFS/... <valid searches> <median ns> ns/op
//
// for trackers that keep one value per benchmark name and commit, such as
// github-action-benchmark (whose "go" tool would keep the first of
// bench.txt's lines of a case, one search, and reads every unit as lower
// is better, so TEPS is left out).
func benchMedianText(run *results.Run) ([]byte, error) {
	var b bytes.Buffer
	if m := run.Env.CPUModel; m != "" {
		fmt.Fprintf(&b, "cpu: %s\n", m)
	}
	if len(run.Env.GPUModels) > 0 {
		fmt.Fprintf(&b, "gpu: %s\n", strings.Join(run.Env.GPUModels, ", "))
	}
	for _, c := range run.Cases {
		if c == nil {
			continue
		}
		var times []float64
		for _, s := range validSearches(c) {
			times = append(times, s.TimeS)
		}
		if len(times) > 0 {
			fmt.Fprintf(&b, "Benchmark%s %d %.1f ns/op\n", benchName(c), len(times), median(times)*1e9)
		}
	}
	return b.Bytes(), nil
}

// benchName is "BFS/plugin=P/backend=B/scale=S/ef=E/grid=RxC/<param>=<v>..."
// (without the "Benchmark" prefix): the plugin, the backend, the workload,
// the grid and the parameters that name the case (swept, or not its
// preset's: Case.NamedParams), so a case that runs its plugin's preset is
// named by its plugin, backend and workload alone. A file workload gives
// graph=<base name> instead of scale and ef; a non-default seed is added,
// and ranks where they are not a grid's. A case recorded without a plugin
// name is named by its variant. A name never ends in "-<digits>", which
// benchfmt would read as a GOMAXPROCS suffix: ranks are added after it.
func benchName(c *results.Case) string {
	parts := []string{"BFS"}
	if c.Plugin != "" {
		parts = append(parts, kv("plugin", c.Plugin))
	} else {
		parts = append(parts, kv("variant", c.Variant))
	}
	parts = append(parts, kv("backend", c.Backend))
	if c.Graph.File != "" {
		parts = append(parts, kv("graph", c.Graph.Label()))
	} else {
		parts = append(parts, kv("scale", fmt.Sprint(c.Graph.Scale)), kv("ef", fmt.Sprint(c.Graph.EdgeFactor)))
	}
	if c.Graph.Seed != [2]uint64{2, 3} && c.Graph.Seed != [2]uint64{} {
		parts = append(parts, kv("seed", fmt.Sprintf("%d,%d", c.Graph.Seed[0], c.Graph.Seed[1])))
	}
	ranks := c.Ranks > 1
	if c.Grid != [2]int{} {
		parts = append(parts, kv("grid", fmt.Sprintf("%dx%d", c.Grid[0], c.Grid[1])))
		ranks = false
	}
	for _, k := range c.NamedParams() {
		parts = append(parts, kv(k, paramString(c.Params[k])))
	}
	if ranks || procsSuffix.MatchString(parts[len(parts)-1]) {
		parts = append(parts, kv("ranks", fmt.Sprint(c.Ranks)))
	}
	return strings.Join(parts, "/")
}

// procsSuffix is what benchfmt reads as a GOMAXPROCS suffix.
var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

// kv is one "key=value" part of a benchmark name, sanitized.
func kv(k, v string) string {
	return sanitize(k) + "=" + sanitize(v)
}

// sanitize makes s safe inside a benchmark name part: no space (it ends the
// name), no '/' (it separates parts), no '=' (it separates key and value).
func sanitize(s string) string {
	if s == "" {
		return "none"
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '/' || r == '=' || !unicode.IsPrint(r) {
			return '_'
		}
		return r
	}, s)
}
