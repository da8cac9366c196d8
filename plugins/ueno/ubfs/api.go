package ubfs

// api.go: building a Rank from the shared 2D partition on either backend.

import (
	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
)

// NewCPURank builds P(i,j)'s rank on the CPU backend from its share of
// partition.Build2D. Collective over the grid.
func NewCPURank(g *comm.Grid, p *partition.Part2D, opt Options) (*Rank, error) {
	var eng engine
	err := opt.check()
	if err == nil {
		eng = newCPUEngine(p, opt)
	}
	if err := comm.Agree(g.World, err); err != nil {
		return nil, err
	}
	return newRank(g, p.Layout, eng, opt)
}
