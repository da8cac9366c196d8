package sdk

// distributed.go turns a per-rank algorithm (RankVariant) into a Variant
// that the harness drives like any other, over one of two launchers:
//
//   - "embedded" (the default): cfg.Ranks goroutines of this process,
//     exchanging through the in-process communicator (comm.NewLocal);
//   - "mpirun": this process is world rank 0 of an MPI job; every Variant
//     call is first sent as a small command to the follower ranks, which
//     run the same RankVariant method (see mpidriver.go and follower.go).

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
)

// RankVariant is one rank's part of a distributed BFS variant. Every
// method runs on all ranks collectively (each rank calls it at the same
// point), so it may communicate over the Comm it was created with.
//
// Errors: under the in-process communicator a rank that fails aborts the
// others' pending operations, so no rank hangs. Under MPI a rank cannot
// interrupt the others: a method that may fail on some ranks only should
// agree on failure before its next exchange (e.g. AllreduceInt64 of a
// flag); otherwise a rank blocked waiting for a failed one makes the SDK
// abort the whole job after FailureGrace.
type RankVariant interface {
	// Construct builds this rank's data from its share of the edge list:
	// w.Edges are the edges [w.EdgeOffset, w.EdgeOffset+len(w.Edges)) of
	// the whole list, w.NEdges long (the shares of all ranks, in rank
	// order, are the whole list).
	Construct(w *Workload) error
	// BFS searches from root. Rank 0's Search is what the harness sees.
	BFS(root int64) (Search, error)
	// Parents gathers the last search's parents into dst on rank 0 (length
	// NVertices); dst is nil on the other ranks.
	Parents(dst []int64) error
	// Close releases everything the rank holds.
	Close() error
}

// timedBFS runs one rank's search and times it the same way for every
// distributed variant, as the Graph500 reference driver of version 2 does:
// the ranks meet at a barrier, each measures its own span from there to
// the return of its BFS (its device work complete), and the search takes
// the longest span. Without the barrier the time would include the skew
// with which the launcher dispatches the ranks (goroutines started one
// after another, or commands sent to MPI followers), which is the
// harness's, not the algorithm's. A variant that measures itself (rank 0's
// Search.TimeS > 0, e.g. CUDA events of a one-rank search) keeps its own
// measure. Collective; one rank alone needs no barrier and no reduction.
func timedBFS(world comm.Comm, rv RankVariant, root int64) (Search, error) {
	if world.Size() == 1 {
		t0 := time.Now()
		s, err := rv.BFS(root)
		if err == nil && s.TimeS == 0 {
			s.TimeS = time.Since(t0).Seconds()
		}
		return s, err
	}
	if err := world.Barrier(); err != nil {
		return Search{}, fmt.Errorf("barrier before the search: %w", err)
	}
	t0 := time.Now()
	s, err := rv.BFS(root)
	span := time.Since(t0).Seconds()
	// One reduction gives the longest span and whether any rank failed. A
	// rank that failed takes part too, so that the ranks' collectives stay
	// matched under MPI.
	v := []float64{span, 0}
	if err != nil {
		v[1] = 1
	}
	rerr := comm.AllreduceSlice(world, v, comm.Max)
	switch {
	case err != nil:
		return Search{}, err
	case rerr != nil:
		return Search{}, fmt.Errorf("search time: %w", rerr)
	case v[1] != 0: // the failed rank reports the cause
		return Search{}, fmt.Errorf("%w: another rank failed", comm.ErrAborted)
	}
	if s.TimeS == 0 {
		s.TimeS = v[0]
	}
	return s, nil
}

// NewRankFunc creates one rank's RankVariant over its communicator.
// Collective: it may communicate (e.g. comm.NewGrid).
type NewRankFunc func(c comm.Comm, cfg Config) (RankVariant, error)

// Launchers (Config.Launcher).
const (
	LauncherEmbedded = "embedded"
	LauncherMPIRun   = "mpirun"
)

// NewDistributed returns a Variant that runs newRank's RankVariant on
// cfg.Ranks ranks, as cfg.Launcher says. A plugin's New calls it for
// multi-rank configs:
//
//	func (myPlugin) New(cfg sdk.Config) (sdk.Variant, error) {
//		return sdk.NewDistributed(cfg, newMyRank)
//	}
//
// Under mpirun the follower ranks call the plugin's New too (with the same
// cfg); there NewDistributed creates the follower's RankVariant.
func NewDistributed(cfg Config, newRank NewRankFunc) (Variant, error) {
	if newRank == nil {
		return nil, errors.New("sdk: NewDistributed without a rank constructor")
	}
	switch cfg.Launcher {
	case "", LauncherEmbedded:
		return newEmbedded(cfg, newRank)
	case LauncherMPIRun:
		return newMPIVariant(cfg, newRank)
	}
	return nil, fmt.Errorf("sdk: unknown launcher %q (want %q or %q)", cfg.Launcher, LauncherEmbedded, LauncherMPIRun)
}

// GridShape is the R×C processor grid of cfg: cfg.Grid when set, else the
// R×C with R ≤ C closest to square for cfg.Ranks (Bisson et al., TPDS
// 2016, Table 1: 2 ranks 1×2, 8 ranks 2×4).
func GridShape(cfg Config) (r, c int, err error) {
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

// EdgeShare is the range [lo, hi) of an m-edge list that rank r of p
// handles: consecutive, near-equal shares in rank order, split as the
// Graph500 reference's compute_edge_range splits them (the first m mod p
// ranks get one edge more).
func EdgeShare(m int64, r, p int) (lo, hi int64) { return graph500.Share(m, p, r) }

// shareOf is rank r's Workload: a sub-slice of w's edges, no copy.
func shareOf(w *Workload, r, p int) *Workload {
	lo, hi := EdgeShare(int64(len(w.Edges)), r, p)
	return &Workload{
		NVertices:  w.NVertices,
		NEdges:     w.NEdges,
		Edges:      w.Edges[lo:hi],
		EdgeOffset: w.EdgeOffset + lo,
		Graph:      w.Graph,
	}
}

// embedded runs every rank as a goroutine of this process.
type embedded struct {
	comms  []comm.Comm
	ranks  []RankVariant
	broken error // set once a call failed: the world is aborted
}

func newEmbedded(cfg Config, newRank NewRankFunc) (*embedded, error) {
	n := max(cfg.Ranks, 1)
	comms, err := comm.NewLocal(n)
	if err != nil {
		return nil, err
	}
	e := &embedded{comms: comms, ranks: make([]RankVariant, n)}
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
func (e *embedded) all(f func(r int, rv RankVariant) error) error {
	if e.broken != nil {
		return fmt.Errorf("the distributed variant failed earlier: %w", e.broken)
	}
	err := comm.RunRanks(e.comms, func(c comm.Comm) error { return f(c.Rank(), e.ranks[c.Rank()]) })
	if err != nil {
		e.broken = err
	}
	return err
}

func (e *embedded) Construct(w *Workload) error {
	return e.all(func(r int, rv RankVariant) error { return rv.Construct(shareOf(w, r, len(e.ranks))) })
}

func (e *embedded) BFS(root int64) (Search, error) {
	var s Search
	err := e.all(func(r int, rv RankVariant) error {
		res, err := timedBFS(e.comms[r], rv, root)
		if r == 0 {
			s = res
		}
		return err
	})
	return s, err
}

func (e *embedded) Parents(dst []int64) error {
	return e.all(func(r int, rv RankVariant) error {
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
		err := e.all(func(_ int, rv RankVariant) error { return rv.Close() })
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
		if d, ok := rv.(Devicer); ok {
			out = appendNew(out, d.Devices()...)
		}
	}
	return out
}

// CaseInfo is rank 0's.
func (e *embedded) CaseInfo() map[string]any {
	if len(e.ranks) > 0 {
		if inf, ok := e.ranks[0].(Informer); ok {
			return inf.CaseInfo()
		}
	}
	return nil
}

func appendNew(xs []string, ys ...string) []string {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}
