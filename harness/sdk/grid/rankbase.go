package grid

// rankbase.go: the plumbing every per-rank variant over a processor grid
// repeats (atomic2d, diropt, ueno): the grid, the rank's algorithm object,
// its GPU, its case info, and the sdk.RankVariant methods that only delegate.

import (
	"errors"
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// RankCore is what a grid variant's per-rank algorithm object provides to
// RankBase.
type RankCore interface {
	// Parents gathers the parents on world rank 0 (dst there, nil elsewhere).
	Parents(dst []int64) error
	// Close releases the rank (collective where it holds communicators).
	Close() error
}

// RankBase is embedded by a grid variant's sdk.RankVariant: it holds the
// case's config, the grid, the rank object once Construct has built it,
// this rank's GPU and the case info, and implements Parents, Close and
// Devices (sdk.Devicer) over them. The variant implements Construct, BFS and,
// where it adds to Info, CaseInfo.
type RankBase[R RankCore] struct {
	Cfg    sdk.Config
	Grid   *comm.Grid
	Rank   R              // the zero value until Construct sets it
	Device string         // "cuda:N name" of this rank's GPU; "" on the CPU backend
	DevOrd int            // its CUDA device ordinal
	Info   map[string]any // the case info (sdk.Informer)
}

// Built reports whether Construct has set Rank.
func (b *RankBase[R]) Built() bool {
	var zero R
	return any(b.Rank) != any(zero)
}

// Parents implements sdk.RankVariant.
func (b *RankBase[R]) Parents(dst []int64) error {
	if !b.Built() {
		return fmt.Errorf("parents before construct")
	}
	return b.Rank.Parents(dst)
}

// Close implements sdk.RankVariant: the rank, then the grid's communicators.
func (b *RankBase[R]) Close() error {
	var err error
	if b.Built() {
		err = b.Rank.Close()
		var zero R
		b.Rank = zero
	}
	if b.Grid != nil {
		err = errors.Join(err, b.Grid.Close())
		b.Grid = nil
	}
	return err
}

// Devices implements sdk.Devicer: this rank's GPU; ranks sharing a GPU report
// the same string, so the union over ranks counts distinct GPUs.
func (b *RankBase[R]) Devices() []string {
	if b.Device == "" {
		return nil
	}
	return []string{b.Device}
}

// NoteCopyBandwidth records in Info, once per case and only for the CUDA
// backend, the copy bandwidth of this rank's GPU (sdk.InfoCopyBandwidthGBs) as
// measure(DevOrd) gives it in GB/s, or its failure (device_copy_error).
// Call it from CaseInfo: after the timed construction.
func (b *RankBase[R]) NoteCopyBandwidth(measure func(dev int) (float64, error)) {
	if b.Cfg.Backend != sdk.BackendCUDA || b.Info == nil || b.Info[sdk.InfoCopyBandwidthGBs] != nil {
		return
	}
	if gbs, err := measure(b.DevOrd); err == nil {
		b.Info[sdk.InfoCopyBandwidthGBs] = gbs
	} else {
		b.Info["device_copy_error"] = err.Error()
	}
}

// PlaceCUDA is the step of Construct that every grid variant's CUDA
// backend shares, once its block is built: it picks this rank's GPU
// (cuda.RankDevice over count), records it in DevOrd, and resolves the
// exchange path from param (SelectExchange; the host path where one rank
// exchanges nothing), noting the path and the reason in Info (made here if
// nil) as "exchange" and "exchange_reason". A failure on any rank fails
// every rank. Collective.
func (b *RankBase[R]) PlaceCUDA(count func() (int, error), param string) (dev int, exchange string, err error) {
	dev, err = cuda.RankDevice(b.Grid.World.Rank(), count)
	if err := comm.Agree(b.Grid.World, err); err != nil {
		return 0, "", err
	}
	b.DevOrd = dev
	xch, why := comm.ExchangeHost, "one rank exchanges nothing"
	if b.Grid.World.Size() > 1 {
		if xch, why, err = SelectExchange(b.Cfg, b.Grid.World, param); err != nil {
			return 0, "", err
		}
	}
	if b.Info == nil {
		b.Info = map[string]any{}
	}
	b.Info["exchange"], b.Info["exchange_reason"] = xch, why
	return dev, xch, nil
}

// SlowestRank runs measure on one rank at a time (ranks may share a GPU,
// and a measurement must not share it) and returns, element by element,
// the largest of the ranks' results: the slowest rank's times. Every rank
// returns the same error when one fails. Collective; every rank's measure
// returns as many values.
func (b *RankBase[R]) SlowestRank(measure func() ([]float64, error)) ([]float64, error) {
	w := b.Grid.World
	var out []float64
	for r := range w.Size() {
		var err error
		if r == w.Rank() {
			out, err = measure()
		}
		if err := comm.Agree(w, err); err != nil {
			return nil, err
		}
	}
	if err := comm.AllreduceSlice(w, out, comm.Max); err != nil {
		return nil, err
	}
	return out, nil
}

// NewGridVariant is the New of a variant over an R×C processor grid (the
// shape GridShape gives for cfg): it starts the ranks (NewDistributed:
// goroutines, or one per MPI process), builds each rank's comm.Grid, and
// has newRank make the rank's variant over it.
func NewGridVariant(cfg sdk.Config, newRank func(g *comm.Grid, cfg sdk.Config) sdk.RankVariant) (sdk.Variant, error) {
	if _, _, err := GridShape(cfg); err != nil {
		return nil, err
	}
	return NewDistributed(cfg, func(c comm.Comm, cfg sdk.Config) (sdk.RankVariant, error) {
		r, cc, err := GridShape(cfg)
		if err != nil {
			return nil, err
		}
		g, err := comm.NewGrid(c, r, cc)
		if err != nil {
			return nil, err
		}
		return newRank(g, cfg), nil
	})
}
