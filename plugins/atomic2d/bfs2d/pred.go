package bfs2d

// pred.go is the delayed predecessor exchange of seed 000 §3.5 (after ref
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

	"github.com/bfsbench/bfsbench/harness/comm"
)

// resolvePredecessors completes the own parents array and returns the bytes
// this rank sent. Collective over the grid row.
func (rk *Rank) resolvePredecessors() (int64, error) {
	l := rk.l
	if l.C == 1 {
		// No fold exchange: every predecessor was found locally.
		return 0, rk.eng.Finalize(make([][]uint32, 1), make([][]uint32, 1))
	}
	queries, err := rk.eng.RemoteQueries()
	if err != nil {
		return 0, fmt.Errorf("predecessor queries: %w", err)
	}
	send, counts := flatten(queries)
	recv, rcounts, err := comm.AlltoallvSlice(rk.grid.Row, send, counts)
	if err != nil {
		return 0, fmt.Errorf("predecessor queries exchange: %w", err)
	}
	answers, err := rk.eng.LookupPreds(recv)
	if err != nil {
		return 0, err
	}
	back, bcounts, err := comm.AlltoallvSlice(rk.grid.Row, answers, rcounts)
	if err != nil {
		return 0, fmt.Errorf("predecessor answers exchange: %w", err)
	}
	got := split(back, bcounts)
	if err := rk.eng.Finalize(queries, got); err != nil {
		return 0, fmt.Errorf("predecessors: %w", err)
	}
	return 4 * int64(len(send)+len(answers)), nil
}

// flatten concatenates per-destination lists and returns their counts.
func flatten(lists [][]uint32) ([]uint32, []int) {
	counts := make([]int, len(lists))
	total := 0
	for m, x := range lists {
		counts[m] = len(x)
		total += len(x)
	}
	out := make([]uint32, 0, total)
	for _, x := range lists {
		out = append(out, x...)
	}
	return out, counts
}

// split cuts a concatenation back into per-source lists.
func split(all []uint32, counts []int) [][]uint32 {
	out := make([][]uint32, len(counts))
	off := 0
	for m, n := range counts {
		out[m] = all[off : off+n]
		off += n
	}
	return out
}
