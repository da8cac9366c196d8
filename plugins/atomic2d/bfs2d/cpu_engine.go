package bfs2d

// cpu_engine.go is the CPU backend: the engine of engine.go over host
// arrays, running the Go kernels of kernels_cpu.go.

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
)

// cpuEngine is one rank's CPU backend.
type cpuEngine struct {
	l       Layout
	g       *LocalCSC
	k       int // edges per thread
	workers int
	s       *searchState

	nfront   int      // own frontier size (dst_verts[j] holds it)
	allFront []uint32 // all_front, local columns
	cumul    []uint32
	offs     []uint32 // scratch for encoding
	recv     []uint32 // fold-received offsets
	segs     []int    // recv[segs[m]:segs[m+1]] came from grid column m
	parents  []int64  // own block, filled by Finalize
}

func newCPUEngine(l Layout, g *LocalCSC, edgesPerThread, workers int) (*cpuEngine, error) {
	if int64(len(g.ColOff)) != l.LocalCols()+1 {
		return nil, fmt.Errorf("local CSC has %d column offsets, want %d", len(g.ColOff), l.LocalCols()+1)
	}
	return &cpuEngine{
		l:        l,
		g:        g,
		k:        edgesPerThread,
		workers:  workers,
		s:        newSearchState(l),
		allFront: make([]uint32, 0, l.LocalCols()),
		cumul:    make([]uint32, l.LocalCols()+1),
		segs:     make([]int, l.C+1),
		parents:  make([]int64, l.BlockLen(l.Block())),
	}, nil
}

func (e *cpuEngine) Reset(rootRow int64) (int, error) {
	e.s.reset()
	e.nfront = 0
	if rootRow < 0 {
		return 0, nil
	}
	v := uint32(rootRow)
	if e.l.RowOwnerCol(v) != e.l.J {
		return 0, fmt.Errorf("root row %d is not an own row", rootRow)
	}
	e.s.Level[v] = 0
	e.s.Pred[v] = e.l.RowToCol(v) // the root is its own predecessor
	e.s.Bmap[v>>5] |= 1 << (v & 31)
	e.s.Out[int64(e.l.J)*e.l.BlockN] = e.l.RowToCol(v)
	e.s.Cnt[e.l.J] = 1
	e.nfront = 1
	return 1, nil
}

func (e *cpuEngine) ownFront() []uint32 { return e.s.block(e.l, e.l.J)[:e.nfront] }

func (e *cpuEngine) FrontierMessage(mode string, buf []uint32) ([]uint32, error) {
	col0 := e.l.OwnCol0()
	e.offs = e.offs[:0]
	for _, u := range e.ownFront() {
		e.offs = append(e.offs, u-col0)
	}
	return Encode(buf, e.offs, int(e.l.BlockN), mode)
}

func (e *cpuEngine) LoadFrontier(msgs [][]uint32) error {
	e.allFront = append(e.allFront[:0], e.ownFront()...)
	for r, msg := range msgs {
		if r == e.l.I || msg == nil {
			continue
		}
		start := len(e.allFront)
		var err error
		if e.allFront, err = Decode(e.allFront, msg, int(e.l.BlockN)); err != nil {
			return fmt.Errorf("expand message from grid row %d: %w", r, err)
		}
		col0 := uint32(int64(r) * e.l.BlockN)
		for x := start; x < len(e.allFront); x++ {
			e.allFront[x] += col0
		}
	}
	return nil
}

func (e *cpuEngine) Expand(lvl int32) ([]uint32, int64, error) {
	clear(e.s.Cnt) // dst_cnt[] = 0
	a := &expandArgs{G: e.g, Front: e.allFront, Cumul: e.cumul, Level: lvl, K: e.k, Workers: e.workers, Layout: e.l}
	edges := expandFrontier(a, e.s)
	e.nfront = int(e.s.Cnt[e.l.J])
	return append([]uint32(nil), e.s.Cnt...), edges, nil
}

func (e *cpuEngine) FoldMessage(m int, mode string, buf []uint32) ([]uint32, error) {
	row0 := uint32(int64(m) * e.l.BlockN)
	e.offs = e.offs[:0]
	for _, v := range e.s.block(e.l, m) {
		e.offs = append(e.offs, v-row0)
	}
	return Encode(buf, e.offs, int(e.l.BlockN), mode)
}

func (e *cpuEngine) LoadFold(msgs [][]uint32) error {
	e.recv = e.recv[:0]
	for m := 0; m < e.l.C; m++ {
		e.segs[m] = len(e.recv)
		if m == e.l.J || m >= len(msgs) || msgs[m] == nil {
			continue
		}
		var err error
		if e.recv, err = Decode(e.recv, msgs[m], int(e.l.BlockN)); err != nil {
			return fmt.Errorf("fold message from grid column %d: %w", m, err)
		}
	}
	e.segs[e.l.C] = len(e.recv)
	return nil
}

func (e *cpuEngine) Update(lvl int32) (int, error) {
	updateFrontier(e.recv, e.segs, lvl, e.workers, e.l, e.s)
	e.nfront = int(e.s.Cnt[e.l.J])
	return e.nfront, nil
}

func (e *cpuEngine) ownRows() (lo, hi uint32) {
	lo = e.l.OwnRow0()
	return lo, lo + uint32(e.l.BlockLen(e.l.Block()))
}

func (e *cpuEngine) RemoteQueries() ([]uint32, []int, error) {
	counts := make([]int, e.l.C)
	lo, hi := e.ownRows()
	remote := func(v uint32) (int, bool) {
		p := e.s.Pred[v]
		return int(p &^ predRemote), p != predNone && p&predRemote != 0
	}
	for v := lo; v < hi; v++ {
		if m, ok := remote(v); ok {
			counts[m]++
		}
	}
	next, total := comm.Displs(counts)
	rows := make([]uint32, total)
	for v := lo; v < hi; v++ {
		if m, ok := remote(v); ok {
			rows[next[m]] = v
			next[m]++
		}
	}
	return rows, counts, nil
}

func (e *cpuEngine) LookupPreds(rows []uint32) ([]uint32, error) {
	out := make([]uint32, len(rows))
	for k, v := range rows {
		if int64(v) >= e.l.LocalRows() {
			return nil, fmt.Errorf("predecessor query for local row %d of %d", v, e.l.LocalRows())
		}
		p := e.s.Pred[v]
		if p == predNone || p&predRemote != 0 {
			return nil, fmt.Errorf("predecessor query for local row %d, which this rank did not discover (entry %#x)", v, p)
		}
		out[k] = p
	}
	return out, nil
}

func (e *cpuEngine) Finalize(queries []uint32, counts []int, answers []uint32) error {
	lo, hi := e.ownRows()
	for v := lo; v < hi; v++ {
		p := e.s.Pred[v]
		switch {
		case p == predNone:
			e.parents[v-lo] = -1
		case p&predRemote != 0:
			e.parents[v-lo] = -2 // must be answered below
		default:
			e.parents[v-lo] = e.l.GlobalOfCol(p)
		}
	}
	if len(answers) != len(queries) {
		return fmt.Errorf("%d predecessor answers for %d queries", len(answers), len(queries))
	}
	off := 0
	for m, c := range counts {
		for k := off; k < off+c; k++ {
			e.parents[queries[k]-lo] = e.l.GlobalOfColIn(m, answers[k])
		}
		off += c
	}
	for o, p := range e.parents {
		if p == -2 {
			return fmt.Errorf("own vertex %d has a remote predecessor nobody resolved", e.l.BlockStart(e.l.Block())+int64(o))
		}
	}
	return nil
}

func (e *cpuEngine) Parents(dst []int64) error {
	if len(dst) != len(e.parents) {
		return fmt.Errorf("parents buffer of %d for a block of %d", len(dst), len(e.parents))
	}
	copy(dst, e.parents)
	return nil
}

func (e *cpuEngine) Levels(dst []int32) error {
	lo, hi := e.ownRows()
	if len(dst) != int(hi-lo) {
		return fmt.Errorf("levels buffer of %d for a block of %d", len(dst), hi-lo)
	}
	copy(dst, e.s.Level[lo:hi])
	return nil
}

func (e *cpuEngine) Close() error { return nil }
