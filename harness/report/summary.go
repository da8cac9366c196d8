// This file writes summary.txt: the run's environment, then per case a
// header line and the Graph500 v3 statistics block, then one table of all
// cases.

package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/bfsbench/bfsbench/harness/results"
)

// graph500Block writes the Graph500 v3 text block of one case (the
// reference's output lines, from c.Stats). It is set in graph500block.go,
// which keeps this file free of the graph500 package; while nil,
// summary.txt says the block is unavailable.
var graph500Block func(w io.Writer, c *results.Case) error

// summaryText renders summary.txt.
func summaryText(run *results.Run) ([]byte, error) {
	var b bytes.Buffer
	writeEnv(&b, run)
	for i, c := range run.Cases {
		if c == nil {
			continue
		}
		fmt.Fprintf(&b, "\n=== case %d: %s\n", i+1, caseHeader(c))
		if err := writeCaseBlock(&b, c); err != nil {
			return nil, fmt.Errorf("case %d (%s): %w", i+1, c.Key(), err)
		}
	}
	b.WriteString("\n=== all cases\n")
	if err := writeTable(&b, run.Cases); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeEnv writes the run's provenance: command, config, commit, machine.
func writeEnv(w io.Writer, run *results.Run) {
	e := run.Env
	fmt.Fprintf(w, "bfsbench run\n")
	for _, kv := range [][2]string{
		{"command", run.CommandLine},
		{"config", run.ConfigPath},
		{"commit", run.GitCommit},
		{"started", run.Started},
		{"finished", run.Finished},
		{"host", e.Host},
		{"os", e.OS},
		{"cpu", fmt.Sprintf("%s (%d CPUs)", e.CPUModel, e.CPUs)},
		{"gpus", strings.Join(e.GPUModels, ", ")},
		{"driver", e.DriverVersion},
		{"cuda", e.CUDAVersion},
		{"go", e.GoVersion},
	} {
		if kv[1] != "" {
			fmt.Fprintf(w, "%-9s %s\n", kv[0]+":", kv[1])
		}
	}
}

// caseHeader is the one-line description of a case: variant, backend,
// parameters, ranks, workload, status and error.
func caseHeader(c *results.Case) string {
	var b strings.Builder
	fmt.Fprintf(&b, "variant=%s backend=%s params={%s} ranks=%d", c.Variant, c.Backend, paramList(c, paramNames(c), ","), c.Ranks)
	if c.Grid != [2]int{} {
		fmt.Fprintf(&b, " grid=%dx%d", c.Grid[0], c.Grid[1])
	}
	if c.GPUs > 0 {
		fmt.Fprintf(&b, " gpus=%d", c.GPUs)
	}
	if c.Launcher != "" {
		fmt.Fprintf(&b, " launcher=%s", c.Launcher)
	}
	fmt.Fprintf(&b, " workload=%q seed=%d,%d nvertices=%d nedges=%d status=%s",
		c.Graph.Label(), c.Graph.Seed[0], c.Graph.Seed[1], c.Graph.NVertices, c.Graph.NEdges, c.Status)
	if c.Error != "" {
		first, _, _ := strings.Cut(c.Error, "\n")
		fmt.Fprintf(&b, " error=%q", first)
	}
	return b.String()
}

// writeError writes a case's whole error, its stack included, one line of
// it a line, indented under the case's header (whose error= holds its
// first line only).
func writeError(w io.Writer, c *results.Case) {
	if !strings.Contains(c.Error, "\n") {
		return
	}
	for _, l := range strings.Split(strings.TrimRight(c.Error, "\n"), "\n") {
		fmt.Fprintf(w, "  | %s\n", l)
	}
}

// paramList formats parameters keys of c as "k=v" joined by sep.
func paramList(c *results.Case, keys []string, sep string) string {
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+paramString(c.Params[k]))
	}
	return strings.Join(parts, sep)
}

// writeCaseBlock writes the errors of c's invalid searches and its
// Graph500 block (which says "No results printed for invalid run." when no
// search was valid).
func writeCaseBlock(w io.Writer, c *results.Case) error {
	writeError(w, c)
	for _, s := range c.BFS {
		if s.Validated && !s.Valid {
			fmt.Fprintf(w, "invalid search from root %d: %s\n", s.Root, s.Error)
		}
	}
	if c.Validated < len(c.BFS) {
		fmt.Fprintf(w, "partly validated: the harness validated %d of %d searches (validate = %s); the figures below are over the validated ones only\n",
			c.Validated, len(c.BFS), c.Validate)
	}
	if graph500Block == nil {
		fmt.Fprintf(w, "(Graph500 block unavailable in this build)\n")
		return nil
	}
	return graph500Block(w, c)
}

// writeTable writes one aligned table of all cases.
func writeTable(w io.Writer, cases []*results.Case) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIANT\tBACKEND\tPARAMS\tRANKS\tWORKLOAD\tSTATUS\tHMEAN GTEPS\tMEDIAN TIME (ms)\tVALID/VALIDATED\t% OF BOUND\t% OF FLOOR")
	for _, c := range cases {
		if c == nil {
			continue
		}
		t := validTEPS(c)
		hm, med := "-", "-"
		if len(t) > 0 {
			hm = fmt.Sprintf("%.4f", harmonicMean(t)/1e9)
		}
		var times []float64
		for _, s := range validSearches(c) {
			times = append(times, s.TimeS)
		}
		if len(times) > 0 {
			med = fmt.Sprintf("%.4g", median(times)*1e3)
		}
		params := paramList(c, c.NamedParams(), " ")
		if params == "" {
			params = "-"
		}
		bound := "-"
		if c.PercentOfBound > 0 {
			bound = fmt.Sprintf("%.1f (of %.0f GB/s)", c.PercentOfBound, c.BandwidthGBs)
		}
		floor := "-"
		if c.PercentOfFloor > 0 {
			floor = fmt.Sprintf("%.1f (floor %.3g ms)", c.PercentOfFloor, c.FloorTimeS*1e3)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			c.Variant, c.Backend, params, c.Ranks, c.Graph.Label(), c.Status, hm, med, c.ValidLabel(), bound, floor)
	}
	return tw.Flush()
}

// Summary is run's summary.txt: the environment, then the Graph500
// statistics block of every case (what bfsbench run writes beside
// results.json), for results whose folder lacks it.
func Summary(run *results.Run) ([]byte, error) { return summaryText(run) }
