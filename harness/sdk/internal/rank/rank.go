// Package rank holds what both launchers of a distributed variant share
// (package grid's in-process ranks and package mpirun's MPI job): the rank
// constructor's type, how a rank's search is timed, and a rank's share of
// the edge list.
package rank

import (
	"fmt"
	"slices"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// New creates one rank's sdk.RankVariant over its communicator.
// Collective: it may communicate (e.g. comm.NewGrid).
type New func(c comm.Comm, cfg sdk.Config) (sdk.RankVariant, error)

// TimedBFS runs one rank's search and times it the same way for every
// distributed variant, as the Graph500 reference driver of version 2 does:
// the ranks meet at a barrier, each measures its own span from there to
// the return of its BFS (its device work complete), and the search takes
// the longest span. Without the barrier the time would include the skew
// with which the launcher dispatches the ranks (goroutines started one
// after another, or commands sent to MPI followers), which is the
// harness's, not the algorithm's. A variant that measures itself (rank 0's
// Search.TimeS > 0, e.g. CUDA events of a one-rank search) keeps its own
// measure. Collective; one rank alone needs no barrier and no reduction.
func TimedBFS(world comm.Comm, rv sdk.RankVariant, root int64) (sdk.Search, error) {
	if world.Size() == 1 {
		t0 := time.Now()
		s, err := rv.BFS(root)
		if err == nil && s.TimeS == 0 {
			s.TimeS = time.Since(t0).Seconds()
		}
		return s, err
	}
	if err := world.Barrier(); err != nil {
		return sdk.Search{}, fmt.Errorf("barrier before the search: %w", err)
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
		return sdk.Search{}, err
	case rerr != nil:
		return sdk.Search{}, fmt.Errorf("search time: %w", rerr)
	case v[1] != 0: // the failed rank reports the cause
		return sdk.Search{}, fmt.Errorf("%w: another rank failed", comm.ErrAborted)
	}
	if s.TimeS == 0 {
		s.TimeS = v[0]
	}
	return s, nil
}

// Share is rank r's Workload: a sub-slice of w's edges, no copy.
func Share(w *sdk.Workload, r, p int) *sdk.Workload {
	lo, hi := graph500.Share(int64(len(w.Edges)), p, r)
	return &sdk.Workload{
		NVertices:  w.NVertices,
		NEdges:     w.NEdges,
		Edges:      w.Edges[lo:hi],
		EdgeOffset: w.EdgeOffset + lo,
		Graph:      w.Graph,
	}
}

// Union appends to xs the strings of ys it does not hold yet (the devices
// of several ranks, each GPU once).
func Union(xs []string, ys ...string) []string {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}
