package bfs2d

// api.go: building a Rank from the shared 2D partition (harness/partition)
// on either backend.

import (
	"fmt"
	"math"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
)

// FromPartition converts P(i,j)'s share of partition.Build2D into the
// layout and the 32-bit CSC the kernels use (column offsets narrowed to 32
// bits: [1] §4 stores local partitions in 32-bit words, so a rank may
// hold fewer than 2^32 local edges).
func FromPartition(p *partition.Part2D) (Layout, *LocalCSC, error) {
	pl := p.Layout
	l, err := NewLayout(pl.R, pl.C, p.I, p.J, pl.N)
	if err != nil {
		return Layout{}, nil, err
	}
	if l.BlockN != pl.B {
		return Layout{}, nil, fmt.Errorf("partition block size %d, the kernels' layout says %d", pl.B, l.BlockN)
	}
	if int64(len(p.ColPtr)) != l.LocalCols()+1 {
		return Layout{}, nil, fmt.Errorf("partition has %d column offsets, want %d", len(p.ColPtr), l.LocalCols()+1)
	}
	if nnz := int64(len(p.RowIdx)); nnz > math.MaxUint32 {
		return Layout{}, nil, fmt.Errorf("P(%d,%d) holds %d local edges: more than 32-bit offsets allow; use a larger grid", p.I, p.J, nnz)
	}
	g := &LocalCSC{ColOff: make([]uint32, len(p.ColPtr)), RowIdx: p.RowIdx}
	for k, x := range p.ColPtr {
		g.ColOff[k] = uint32(x)
	}
	return l, g, nil
}

// NewCPURank builds a rank on the CPU backend. Collective over the grid.
func NewCPURank(g *comm.Grid, l Layout, csc *LocalCSC, opt Options) (*Rank, error) {
	eng, err := newCPUEngine(l, csc, opt.EdgesPerThread, opt.Workers)
	if err := comm.Agree(g.World, err); err != nil {
		return nil, err
	}
	return newRank(g, l, eng, opt)
}

// NewCUDARank builds a rank on the CUDA backend (device co.Device), with
// the device path of the exchanges when co.Exchange says so.
// Collective over the grid: when any rank fails to set up its GPU, every
// rank returns an error before the first exchange.
func NewCUDARank(g *comm.Grid, l Layout, csc *LocalCSC, opt Options, co CUDAOptions) (*Rank, string, error) {
	var desc string
	eng, err := newCUDAEngine(l, csc, opt.EdgesPerThread, opt.appendBlock(), co)
	if err == nil {
		d := eng.Device()
		desc = fmt.Sprintf("cuda:%d %s", d.Ordinal, d.Name)
	}
	if err := comm.Agree(g.World, err); err != nil {
		if eng != nil {
			eng.Close()
		}
		return nil, "", err
	}
	rk, err := newRank(g, l, eng, opt)
	if err != nil {
		eng.Close()
		return nil, "", err
	}
	if co.Exchange == comm.ExchangeDevice {
		if rk.dx, err = newDeviceExchange(g, l, eng, opt.BitmapMessages, co.Overlap); err != nil {
			rk.Close()
			return nil, "", err
		}
	}
	return rk, desc, nil
}
