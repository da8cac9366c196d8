// This file connects summary.txt to the Graph500 package's text block (the
// reference v3 driver's output lines, graph500.WriteReport).

package report

import (
	"io"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
)

func init() { graph500Block = writeGraph500Block }

// writeGraph500Block writes c's Graph500 v3 block. NBFS is the number of
// searches run (valid or not), as the reference counts them; the number of
// processes is the case's ranks; graph_generation is the harness's
// generation (or load) of the edge list.
func writeGraph500Block(w io.Writer, c *results.Case) error {
	h := graph500.ReportHeader{
		Scale:             c.Graph.Scale,
		EdgeFactor:        c.Graph.EdgeFactor,
		NBFS:              len(c.BFS),
		NumProcesses:      c.Ranks,
		GenerationTimeS:   c.GenerationTimeS,
		ConstructionTimeS: c.ConstructionTimeS,
	}
	return graph500.WriteReport(w, h, c.Stats)
}
