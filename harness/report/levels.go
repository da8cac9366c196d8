package report

// levels.go: `bfsbench levels`, the per-level phase times of each case as
// a table, and how much of a search lies outside its phases (for a GPU
// variant, the host's part between kernels).

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
)

// LevelTables writes, for each case of run that reports phases, the mean
// time of each phase per BFS level (in ms, over the searches reaching the
// level: a phase some searches skip at a level counts 0 for them), then the
// mean search time, the mean sum of its phases, the difference, and the
// median search time (graph500.Summarize's). With
// all, the searches are every one of a case whose status is ok, validated
// or not (a config with validate = N validates only the first N); else the
// validated, valid ones.
func LevelTables(w io.Writer, run *results.Run, all bool) error {
	for i := range run.Cases {
		c := run.Cases[i]
		if c == nil {
			continue
		}
		searches := validSearches(c)
		which := "valid"
		if all && c.Status == results.StatusOK {
			searches, which = c.BFS, "timed"
		}
		pr := profileOf(searches)
		if pr.searches == 0 {
			continue
		}
		fmt.Fprintf(w, "case %d: %s (%s), %s: %d %s searches with phases\n", i+1, c.Variant, c.Backend, c.Graph.Label(), pr.searches, which)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "level\tsearches\t%s\ttotal ms\t\n", strings.Join(withUnit(pr.phases, " ms"), "\t"))
		for k, lvl := range pr.levels {
			fmt.Fprintf(tw, "%d\t%d\t", lvl, pr.reached[k])
			for _, ph := range pr.phases {
				fmt.Fprintf(tw, "%.3f\t", pr.atLevel[ph][k]*1e3)
			}
			fmt.Fprintf(tw, "%.3f\t\n", pr.total[k]*1e3)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		var search, phases float64
		var times []float64
		for _, s := range searches {
			if len(s.Phases) == 0 {
				continue
			}
			search += s.TimeS
			times = append(times, s.TimeS)
			for _, lp := range s.Phases {
				for _, t := range lp.Times {
					phases += t
				}
			}
		}
		n := float64(pr.searches)
		fmt.Fprintf(w, "search %.3f ms, phases %.3f ms, outside phases %.3f ms (means); median search %.3f ms\n\n",
			search/n*1e3, phases/n*1e3, (search-phases)/n*1e3, graph500.Summarize(times).Median*1e3)
	}
	return nil
}

func withUnit(names []string, unit string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + unit
	}
	return out
}
