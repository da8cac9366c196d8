package bfs2d

// pred.go is the delayed predecessor exchange of [1] §3.5 (after ref
// [9], and Satish et al., ref [11]): the fold exchange carries destination
// vertices only (ref [12]), so a vertex that P(i,j) owns but P(i,m)
// discovered first stores m as a temporary predecessor, while P(i,m) keeps
// the real one (Algorithm 3 line 17 runs for remote vertices too). After the
// search, once, each owner asks P(i,m) for those predecessors: one
// all-to-all of local rows along the grid row and one of answers back. Local
// rows and columns name the same vertices on every processor of a grid row
// or column (§3.1), so queries and answers are 32-bit words.

import (
	"fmt"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
)

// resolvePredecessors completes the own parents array and returns the bytes
// this rank sent; it adds the seconds of each part (PredPhases) to times.
// Collective over the grid row.
func (rk *Rank) resolvePredecessors(times map[string]float64) (int64, error) {
	l := rk.l
	t := time.Now()
	lap := func(phase string) {
		now := time.Now()
		times[phase] += now.Sub(t).Seconds()
		t = now
	}
	if l.C == 1 {
		// No fold exchange: every predecessor was found locally.
		err := rk.eng.Finalize(nil, []int{0}, nil)
		lap(PhasePredFinalize)
		return 0, err
	}
	if rk.dx != nil {
		return rk.dx.preds(lap)
	}
	if rk.predQueries == nil {
		var err error
		if rk.predQueries, err = rk.alloc(int(maxPredQueries(l))); err != nil {
			return 0, fmt.Errorf("predecessor buffers: %w", err)
		}
		if rk.predAnswers, err = rk.alloc(int(l.BlockLen(l.Block()))); err != nil {
			return 0, fmt.Errorf("predecessor buffers: %w", err)
		}
	}
	queries, counts, err := rk.eng.RemoteQueries()
	if err != nil {
		return 0, fmt.Errorf("predecessor queries: %w", err)
	}
	lap(PhasePredQueries)
	recv, rcounts, err := comm.AlltoallvSliceInto(rk.grid.Row, queries, counts, rk.predQueries)
	if err != nil {
		return 0, fmt.Errorf("predecessor queries exchange: %w", err)
	}
	lap(PhasePredExchange)
	answers, err := rk.eng.LookupPreds(recv)
	if err != nil {
		return 0, err
	}
	lap(PhasePredLookup)
	back, bcounts, err := comm.AlltoallvSliceInto(rk.grid.Row, answers, rcounts, rk.predAnswers)
	if err != nil {
		return 0, fmt.Errorf("predecessor answers exchange: %w", err)
	}
	lap(PhasePredExchange)
	for m, c := range bcounts {
		if c != counts[m] {
			return 0, fmt.Errorf("predecessors: grid column %d answered %d of %d queries", m, c, counts[m])
		}
	}
	if err := rk.eng.Finalize(queries, counts, back); err != nil {
		return 0, fmt.Errorf("predecessors: %w", err)
	}
	lap(PhasePredFinalize)
	return 4 * int64(len(queries)+len(answers)), nil
}

// maxPredQueries bounds the predecessor queries a rank receives: at most
// every own vertex of each other processor of the grid row (block_n each).
func maxPredQueries(l Layout) int64 {
	return int64(max(l.C-1, 1)) * l.BlockN
}
