// This file writes bench.txt in the Go benchmark format
// (golang.org/x/perf/benchfmt), one line per valid search, so that
// benchstat can compare two runs:
//
//	BenchmarkBFS/variant=V/backend=B/scale=S/ef=E/<param>=<v>.../ranks=R 1 <ns> ns/op <teps> TEPS
//
// The file-level configuration lines name only the hardware (cpu, gpu),
// since benchstat splits results whose configuration differs into separate
// tables: a commit or date line would stop two runs from being compared.

package report

import (
	"bytes"
	"fmt"
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

// benchName is "BFS/variant=V/backend=B/scale=S/ef=E/<param>=<v>.../ranks=R"
// (without the "Benchmark" prefix). A file workload gives graph=<base name>
// instead of scale and ef; grid and a non-default seed are added when set.
// ranks comes last, so the name never ends in "-<digits>", which benchfmt
// would read as a GOMAXPROCS suffix.
func benchName(c *results.Case) string {
	parts := []string{"BFS", kv("variant", c.Variant), kv("backend", c.Backend)}
	if c.Graph.File != "" {
		parts = append(parts, kv("graph", c.Graph.Label()))
	} else {
		parts = append(parts, kv("scale", fmt.Sprint(c.Graph.Scale)), kv("ef", fmt.Sprint(c.Graph.EdgeFactor)))
	}
	if c.Graph.Seed != [2]uint64{2, 3} && c.Graph.Seed != [2]uint64{} {
		parts = append(parts, kv("seed", fmt.Sprintf("%d,%d", c.Graph.Seed[0], c.Graph.Seed[1])))
	}
	for _, k := range paramNames(c) {
		parts = append(parts, kv(k, paramString(c.Params[k])))
	}
	if c.Grid != [2]int{} {
		parts = append(parts, kv("grid", fmt.Sprintf("%dx%d", c.Grid[0], c.Grid[1])))
	}
	parts = append(parts, kv("ranks", fmt.Sprint(c.Ranks)))
	return strings.Join(parts, "/")
}

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
