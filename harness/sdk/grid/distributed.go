// Package grid turns a per-rank algorithm (an sdk.RankVariant) into the
// sdk.Variant a plugin serves, over one of two launchers:
//
//   - "embedded" (the default): cfg.Ranks goroutines of this process,
//     exchanging through the in-process communicator (comm.NewLocal);
//   - "mpirun": this process is world rank 0 of an MPI job; every Variant
//     call is first sent as a small command to the follower ranks, which
//     run the same RankVariant method (package mpirun).
//
// For variants over an R×C processor grid it also holds what each of them
// would otherwise repeat: the grid's shape (GridShape), the rank's state
// and delegating methods (RankBase), the rank's GPU and exchange path
// (RankBase.Setup, SelectExchange) and the New that builds each rank's
// comm.Grid (NewGridVariant). A variant that imports this package can run
// under mpirun; a one-rank variant imports package sdk alone.
package grid

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/internal/rank"
	"github.com/bfsbench/bfsbench/harness/sdk/mpirun"
)

// NewRankFunc creates one rank's RankVariant over its communicator.
// Collective: it may communicate (e.g. comm.NewGrid).
type NewRankFunc = rank.New

// NewDistributed returns a Variant that runs newRank's RankVariant on
// cfg.Ranks ranks, as cfg.Launcher says. A plugin's New calls it for
// multi-rank configs:
//
//	func (myPlugin) New(cfg sdk.Config) (sdk.Variant, error) {
//		return grid.NewDistributed(cfg, newMyRank)
//	}
//
// Under mpirun the follower ranks call the plugin's New too (with the same
// cfg); there NewDistributed creates the follower's sdk.RankVariant.
func NewDistributed(cfg sdk.Config, newRank NewRankFunc) (sdk.Variant, error) {
	if newRank == nil {
		return nil, errors.New("sdk: NewDistributed without a rank constructor")
	}
	switch cfg.Launcher {
	case "", sdk.LauncherEmbedded:
		return newEmbedded(cfg, newRank)
	case sdk.LauncherMPIRun:
		return mpirun.NewVariant(cfg, newRank)
	}
	return nil, fmt.Errorf("sdk: unknown launcher %q (want %q or %q)", cfg.Launcher, sdk.LauncherEmbedded, sdk.LauncherMPIRun)
}

// GridShape is the R×C processor grid of cfg: cfg.Grid when set, else the
// R×C with R ≤ C closest to square for cfg.Ranks ([Bisson] Table 1: 2
// ranks 1×2, 8 ranks 2×4).
func GridShape(cfg sdk.Config) (r, c int, err error) {
	ranks := max(cfg.Ranks, 1)
	if cfg.Grid != [2]int{0, 0} {
		r, c = cfg.Grid[0], cfg.Grid[1]
		if r < 1 || c < 1 || r*c != ranks {
			return 0, 0, fmt.Errorf("grid %d×%d does not match %d ranks", r, c, ranks)
		}
		return r, c, nil
	}
	r = int(math.Sqrt(float64(ranks)))
	for ranks%r != 0 {
		r--
	}
	return r, ranks / r, nil
}

// embedded runs every rank as a goroutine of this process.
type embedded struct {
	comms  []comm.Comm
	ranks  []sdk.RankVariant
	broken error // set once a call failed: the world is aborted
}

func newEmbedded(cfg sdk.Config, newRank rank.New) (*embedded, error) {
	n := max(cfg.Ranks, 1)
	comms, err := comm.NewLocal(n)
	if err != nil {
		return nil, err
	}
	e := &embedded{comms: comms, ranks: make([]sdk.RankVariant, n)}
	err = comm.RunRanks(comms, func(c comm.Comm) error {
		rv, err := newRank(c, cfg)
		e.ranks[c.Rank()] = rv
		return err
	})
	if err != nil {
		e.closeCreated()
		return nil, err
	}
	return e, nil
}

// all runs f on every rank in parallel; the first failure aborts the
// others and is returned with its rank number.
func (e *embedded) all(f func(r int, rv sdk.RankVariant) error) error {
	if e.broken != nil {
		return fmt.Errorf("the distributed variant failed earlier: %w", e.broken)
	}
	err := comm.RunRanks(e.comms, func(c comm.Comm) error { return f(c.Rank(), e.ranks[c.Rank()]) })
	if err != nil {
		e.broken = err
	}
	return err
}

func (e *embedded) Construct(w *sdk.Workload) error {
	return e.all(func(r int, rv sdk.RankVariant) error { return rv.Construct(rank.Share(w, r, len(e.ranks))) })
}

func (e *embedded) BFS(root int64) (sdk.Search, error) {
	var s sdk.Search
	err := e.all(func(r int, rv sdk.RankVariant) error {
		res, err := rank.TimedBFS(e.comms[r], rv, root)
		if r == 0 {
			s = res
		}
		return err
	})
	return s, err
}

func (e *embedded) Parents(dst []int64) error {
	return e.all(func(r int, rv sdk.RankVariant) error {
		if r == 0 {
			return rv.Parents(dst)
		}
		return rv.Parents(nil)
	})
}

// Close closes every rank; after a failure (the world is aborted) each
// rank is closed on its own, so that it still releases what it holds.
func (e *embedded) Close() error {
	if e.broken == nil {
		err := e.all(func(_ int, rv sdk.RankVariant) error { return rv.Close() })
		e.ranks = nil
		return err
	}
	err := e.closeCreated()
	e.ranks = nil
	return err
}

// closeCreated closes the ranks that exist, in parallel, ignoring errors
// caused by the aborted world.
func (e *embedded) closeCreated() error {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for r, rv := range e.ranks {
		if rv == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { _ = recover() }()
			if err := rv.Close(); err != nil && !errors.Is(err, comm.ErrAborted) {
				mu.Lock()
				errs = append(errs, fmt.Errorf("rank %d: close: %w", r, err))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Devices is the union of the ranks' devices (for ranks that report any).
func (e *embedded) Devices() []string {
	var out []string
	for _, rv := range e.ranks {
		if d, ok := rv.(sdk.Devicer); ok {
			out = rank.Union(out, d.Devices()...)
		}
	}
	return out
}

// CaseInfo is rank 0's.
func (e *embedded) CaseInfo() map[string]any {
	if len(e.ranks) > 0 {
		if inf, ok := e.ranks[0].(sdk.Informer); ok {
			return inf.CaseInfo()
		}
	}
	return nil
}
