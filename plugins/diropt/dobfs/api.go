package dobfs

// api.go: building a Rank on either backend.

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
)

// NewCPURank builds a rank on the CPU backend (workers goroutines, ≤ 0:
// GOMAXPROCS). Collective over the grid.
func NewCPURank(g *comm.Grid, b *Block, opt Options, workers int) (*Rank, error) {
	if err := findLeaves(g, b, opt); err != nil {
		return nil, err
	}
	eng, err := newCPUEngine(b, workers, opt.Split)
	if err := comm.Agree(g.World, err); err != nil {
		return nil, err
	}
	return newRank(g, b, eng, opt)
}

// NewCUDARank builds a rank on the CUDA backend, with the device path of
// the exchanges (device_exchange.go) when co.Exchange is
// comm.ExchangeDevice on a 2D grid. Collective over the grid: when any
// rank fails to set up its GPU, every rank returns an error before the
// first exchange. It returns the device's description ("cuda:N name").
func NewCUDARank(g *comm.Grid, b *Block, opt Options, co CUDAOptions) (*Rank, string, error) {
	var desc string
	if err := findLeaves(g, b, opt); err != nil {
		return nil, "", err
	}
	eng, err := newCUDAEngine(b, co, opt.Split)
	if err == nil {
		d := eng.dev
		desc = fmt.Sprintf("cuda:%d %s", d.Ordinal, d.Name)
	}
	if err := comm.Agree(g.World, err); err != nil {
		if eng != nil {
			eng.Close()
		}
		return nil, "", err
	}
	rk, err := newRank(g, b, eng, opt)
	if err != nil {
		eng.Close()
		return nil, "", err
	}
	if eng.devX {
		if rk.dx, err = newDeviceExchange(g, b, eng, co.Device); err != nil {
			eng.Close()
			return nil, "", err
		}
	}
	if eng.single || eng.devX {
		rk.loop = eng
	}
	return rk, desc, nil
}

// findLeaves finds a 1×1 block's leaves where opt asks for them (leaves.go;
// a 2D grid ignores the option).
func findLeaves(g *comm.Grid, b *Block, opt Options) error {
	if !opt.Leaves || g.R*g.C != 1 {
		return nil
	}
	return b.FindLeaves()
}
