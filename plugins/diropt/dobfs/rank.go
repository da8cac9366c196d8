package dobfs

// rank.go is the level loop, written once for every backend: Algorithm 2 of
// the seed (the parallel BFS of Checconi et al. on an R×C grid) with the
// direction switching of Beamer et al. deciding, level by level, whether
// ExploreFrontier runs top-down or bottom-up (§IV-C).
//
// One level on P(i,j), after Algorithm 2's line numbers:
//
//	 7  ExploreFrontier                       engine.Explore (td or bu)
//	12-20 row exchange: prefix_{i,j} from P(i,j-1), assigned ← Out \ prefix,
//	    prefix ∪ Out to P(i,j+1); the leftmost discoverer of a vertex is its
//	    parent's writer, so parents are unique    rowExchange, engine.Merge
//	21  Out ← ∪_k Out_{i,k}: a broadcast along the row from P(i,C-1),
//	    which holds the whole union at the end of the chain
//	22  WritePred (per level, or once after the search: writepred)
//	23  Vis ← Vis ∪ Out                       engine.Merge
//	24  In_{i,j} ← Out_{j,i}                  columnExchange
//	 8  done when every Out is empty          one allreduce of the counts
//
// Line 24 on an R×C grid: the seed (a square grid, 2^{2n} GPUs) sends the
// row union of P(j,i) to P(i,j). In harness/partition's layout, which
// bfsbench's 2D variants share, P(i,j)'s columns are the vertex blocks
// jR+r, r = 0..R-1, and block jR+r is P(r,j)'s own block, whose bits every
// rank of grid row r holds after line 21. So the same data movement (each
// rank receives the frontier of its column block, N/C bits) is an
// allgather of the own blocks along the grid column; on a square grid with
// the seed's layout it is the transpose.
//
// Line 8's test needs the counts of the whole level, so it is folded into
// the allreduce that also gives the switching rule its n_f and m_f.
//
// On a 1×1 grid no exchange is called: line 24 is a swap of the queues
// inside the engine. The CUDA engine runs the loop on the device instead
// (device_loop.go), on 1×1 and with device exchanges; hostLevels below is
// the CPU engine's and the 2D host path's.

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/results"
)

// Modes (the mode parameter).
const (
	ModeHybrid   = "hybrid"
	ModeTopDown  = "topdown"
	ModeBottomUp = "bottomup"
)

// WritePred placements (the writepred parameter).
const (
	WritePredEnd   = "end"
	WritePredLevel = "level"
)

// Phase names (results.LevelPhase.Times keys). The exploration's key names
// the level's direction: explore_td, explore_bu or explore_split.
const (
	PhaseExploreTD      = "explore_td"
	PhaseExploreBU      = "explore_bu"
	PhaseExploreSplit   = "explore_split" // the split level (split.go)
	PhaseRowExchange    = "row_exchange"
	PhaseColumnExchange = "column_exchange"
	PhaseWritePred      = "writepred"
	PhaseSwitch         = "switch"
	PhaseReset          = "reset" // 2D, level 0: lines 1-5 and the root degree's allreduce
	// PhaseGap (2D device loop) is the device time before a level since
	// the previous level's end; on level 0, since the search's start. A
	// 1×1 level's exploration includes it (one event a level, or with
	// dev_clock one stamp of the device's clock a level after level 0).
	PhaseGap = "gap"
	// PhaseEnd (1×1 device loop, last level) is the search's time after
	// its last level: with leaves their pass (in the last level's launch
	// after a top-down level, timed apart on the device; else in a launch
	// of its own), and the host's wait until it records the end (it polls
	// a flag that the search's last launch sets; gated, the end is
	// recorded on an idle stream, so the levels a batch enqueued past the
	// end are not in it).
	PhaseEnd = "end"
	// PhaseLeaves (1×1 host loop, last level, with leaves) is the pass
	// that gives the leaves their parents (leaves.go); the device loop
	// times it in PhaseEnd.
	PhaseLeaves = "leaves"
)

// Byte keys (results.LevelPhase.Bytes): exchanged bytes summed over the
// ranks, and two counts that are not bytes: the adjacency entries read and
// m_f, the frontier's edges.
const (
	BytesRowExchange    = "row_exchange"
	BytesColumnExchange = "column_exchange"
	BytesWritePred      = "writepred"
	CountEdgesExamined  = "edges_examined"
	CountFrontierEdges  = "frontier_edges"
)

// Message tag of the row exchange's prefix chain.
const tagPrefix = 7

// Options are the algorithm's parameters.
type Options struct {
	Mode      string  // hybrid | topdown | bottomup
	Alpha     float64 // top-down → bottom-up when m_f > m_u / Alpha
	Beta      float64 // bottom-up → top-down when n_f < n / Beta
	WritePred string  // end | level (2D grids)
	// Leaves (1×1): leave the vertices of degree 1 out of the levels and
	// give them their parents after the last one (leaves.go).
	Leaves bool
	// Split (1×1, lists by degree): the degree bound D of the split level
	// (split.go; 0: none), which runs level 2 where m_u / SplitFrom < m_f
	// ≤ m_u / SplitTo.
	Split              int64
	SplitFrom, SplitTo float64
}

func (o Options) check() error {
	switch o.Mode {
	case ModeHybrid, ModeTopDown, ModeBottomUp:
	default:
		return fmt.Errorf("mode %q: want hybrid, topdown or bottomup", o.Mode)
	}
	if o.Alpha <= 0 || o.Beta <= 0 {
		return fmt.Errorf("alpha %v and beta %v must be positive", o.Alpha, o.Beta)
	}
	if o.Split < 0 || o.Split > math.MaxUint32 {
		return fmt.Errorf("split %d: want 0 (none) or a degree bound", o.Split)
	}
	if o.Split > 0 && (o.SplitFrom <= 0 || o.SplitTo <= 0) {
		return fmt.Errorf("split_from %v and split_to %v must be positive", o.SplitFrom, o.SplitTo)
	}
	switch o.WritePred {
	case WritePredEnd, WritePredLevel:
	default:
		return fmt.Errorf("writepred %q: want end or level", o.WritePred)
	}
	return nil
}

// Result is what one rank reports about a search.
type Result struct {
	Levels  int
	Phases  []results.LevelPhase
	TimeS   float64 // device time (CUDA on a 1×1 grid), else 0
	Reached int64   // vertices reached, the root included
}

// Rank is one processor's share of the search.
type Rank struct {
	grid   *comm.Grid
	b      *Block
	eng    engine
	opt    Options
	edges  int64 // directed edges of the whole graph (after deduplication)
	muBase int64 // the edges m_u starts from: edges but the leaves' (leaves.go)
	single bool
	gather []uint32 // the column exchange's receive buffer
	pairs  [][]int64
	send   []int64
	recv   []int64
	dx     *deviceExchange // the device path of the exchanges, or nil
	loop   loopEngine      // the device loop (device_loop.go), or nil
	recs   []LevelRecord   // the device loop's records
	depth  int             // the most levels of a search so far
	armed  int             // levels of the next search that LoopArm queued (gated)
	// levelBytes: the device loop's row, column and WritePred bytes a
	// level, over the grid (the same every level)
	levelBytes [3]int64
}

// newRank builds a rank around an engine. Collective over the grid.
func newRank(g *comm.Grid, b *Block, eng engine, opt Options) (*Rank, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	if g.R != b.L.R || g.C != b.L.C || g.I != b.I || g.J != b.J {
		return nil, fmt.Errorf("block P(%d,%d) of %d×%d does not match grid P(%d,%d) of %d×%d", b.I, b.J, b.L.R, b.L.C, g.I, g.J, g.R, g.C)
	}
	edges, err := comm.AllreduceInt64(g.World, int64(len(b.TD.Adj)), comm.Sum)
	if err != nil {
		return nil, err
	}
	rk := &Rank{grid: g, b: b, eng: eng, opt: opt, edges: edges, muBase: edges - b.NumLeaves(), single: g.R*g.C == 1}
	if !rk.single {
		rk.gather = make([]uint32, int64(g.R)*words(b.L.B))
		rk.pairs = make([][]int64, g.C)
	}
	return rk, nil
}

// Edges is the number of directed edges the searches see (Σ of the CSR
// entries over the ranks, after deduplication).
func (rk *Rank) Edges() int64 { return rk.edges }

// decide is the switching rule of [Beamer] (§4) for level `level`, after
// a level that went cur: top-down
// turns bottom-up when the frontier's edges m_f exceed the unexplored edges
// m_u over alpha while the frontier grows; bottom-up turns top-down when
// the frontier's vertices n_f fall below n over beta while it shrinks. With
// the split (split.go) its window at level 2 comes first; a split level
// counts as bottom-up for the next level's rule.
func (rk *Rank) decide(level int, cur Dir, nf, prevNf, mf, mu int64) Dir {
	switch rk.opt.Mode {
	case ModeTopDown:
		return TopDown
	case ModeBottomUp:
		return BottomUp
	}
	if rk.splitLevel(level, cur, mf, mu) {
		return Split
	}
	if cur == TopDown {
		if float64(mf) > float64(mu)/rk.opt.Alpha && nf > prevNf {
			return BottomUp
		}
		return TopDown
	}
	if float64(nf) < float64(rk.b.L.N)/rk.opt.Beta && nf < prevNf {
		return TopDown
	}
	return BottomUp
}

// BFS runs one search from global vertex root. Collective over the grid.
func (rk *Rank) BFS(root int64) (Result, error) {
	l, g := rk.b.L, rk.grid
	if root < 0 || root >= l.N {
		return Result{}, fmt.Errorf("root %d out of range [0, %d)", root, l.N)
	}
	// On several ranks the SDK times the search: a barrier, then the
	// longest of the ranks' spans (harness/sdk timedBFS).
	start := time.Now()
	// Algorithm 2 lines 1-5.
	pos := RootPos{Global: root, Row: -1, Col: -1, Own: -1}
	if l.HasRow(g.I, root) {
		pos.Row = int64(l.RowLocal(g.I, root))
	}
	if l.ColBlock(root) == g.J {
		pos.Col = int64(l.ColLocal(g.J, root))
	}
	if l.OwnerRank(root) == g.World.Rank() {
		lo, _ := l.BlockRange(l.OwnerRank(root))
		pos.Own = root - lo
	}
	mf, err := rk.eng.Reset(pos)
	if err != nil {
		return Result{}, fmt.Errorf("reset: %w", err)
	}
	res := Result{Reached: 1}
	dir := rk.startDir()
	if rk.loop != nil {
		err = rk.deviceLevels(&res, dir, mf, time.Since(start).Seconds())
	} else {
		if !rk.single {
			if mf, err = comm.AllreduceInt64(g.World, mf, comm.Sum); err != nil {
				return Result{}, fmt.Errorf("root degree: %w", err)
			}
		}
		err = rk.hostLevels(&res, dir, mf, rk.muBase-mf, time.Since(start).Seconds())
	}
	if err != nil {
		return Result{}, err
	}
	if rk.b.NumLeaves() > 0 {
		t0 := time.Now()
		n, deep, err := rk.eng.LeafPass()
		if err != nil {
			return Result{}, fmt.Errorf("leaves: %w", err)
		}
		if rk.b.rootLeaf(pos.Row) { // counted once as the root
			n--
		}
		res.Reached += n
		if deep { // a level of leaves below the last level's frontier, which the loop never ran
			res.Levels++
		}
		if rk.loop == nil { // the device loop times the pass in the last level's end
			res.Phases[len(res.Phases)-1].Times[PhaseLeaves] = time.Since(t0).Seconds()
		}
	}
	if !rk.single && rk.opt.WritePred == WritePredEnd {
		ph := results.LevelPhase{Level: res.Levels, Times: map[string]float64{}, Bytes: map[string]int64{}}
		t0 := time.Now()
		b, err := rk.writePred(true)
		if err != nil {
			return Result{}, err
		}
		if rk.dx != nil { // a fixed-size all-to-all: every rank sends as many bytes
			b *= int64(g.World.Size())
		} else if b, err = comm.AllreduceInt64(g.World, b, comm.Sum); err != nil {
			return Result{}, err
		}
		ph.Times[PhaseWritePred] = time.Since(t0).Seconds()
		ph.Bytes[BytesWritePred] = b
		res.Phases = append(res.Phases, ph)
	}
	if rk.dx != nil {
		if err := rk.dx.sync(); err != nil {
			return Result{}, fmt.Errorf("device exchange: %w", err)
		}
	}
	if res.TimeS, err = rk.eng.Finish(); err != nil {
		return Result{}, fmt.Errorf("finish: %w", err)
	}
	if e, ok := rk.eng.(interface{ EndS() float64 }); ok && rk.single && rk.loop != nil && len(res.Phases) > 0 {
		res.Phases[len(res.Phases)-1].Times[PhaseEnd] = e.EndS()
	}
	return res, nil
}

// startDir is the direction before level 0's rule.
func (rk *Rank) startDir() Dir {
	if rk.opt.Mode == ModeBottomUp {
		return BottomUp
	}
	return TopDown
}

// hostLevels runs a search's levels from the host, one readback of the
// counts a level (the CPU engine, and the 2D host path): dir, mf and mu
// are the rule's inputs before level 0.
func (rk *Rank) hostLevels(res *Result, dir Dir, mf, mu int64, resetS float64) error {
	nf, prevNf := int64(1), int64(0)
	for level := 0; ; level++ {
		ph := results.LevelPhase{Level: level, Frontier: nf, Times: map[string]float64{}, Bytes: map[string]int64{}}
		t0 := time.Now()
		dir = rk.decide(level, dir, nf, prevNf, mf, mu)
		t1 := time.Now()
		ex, err := rk.eng.Explore(dir) // line 7
		if err != nil {
			return fmt.Errorf("level %d: ExploreFrontier (%s): %w", level, dir, err)
		}
		t2 := time.Now()
		ph.Times[PhaseSwitch] = t1.Sub(t0).Seconds()
		ph.Times["explore_"+dir.String()] = t2.Sub(t1).Seconds()
		if level == 0 && !rk.single {
			ph.Times[PhaseReset] = resetS
		}
		ph.Bytes[CountFrontierEdges] = mf
		var next, nextMf int64
		if rk.single {
			if err := rk.eng.Swap(); err != nil { // line 24
				return fmt.Errorf("level %d: swap: %w", level, err)
			}
			next, nextMf = ex.Found, ex.Degrees
			ph.Bytes[CountEdgesExamined] = ex.Edges
		} else {
			if next, nextMf, err = rk.exchangeLevel(&ph, ex); err != nil {
				return fmt.Errorf("level %d: %w", level, err)
			}
		}
		res.Phases = append(res.Phases, ph)
		prevNf, nf, mf = nf, next, nextMf
		mu -= mf
		res.Reached += nf
		if nf == 0 {
			res.Levels = level + 1
			return nil
		}
	}
}

// exchangeLevel runs lines 8-24 after a 2D level's exploration and returns
// the next frontier's n_f and m_f over the whole grid.
func (rk *Rank) exchangeLevel(ph *results.LevelPhase, ex Explored) (nf, mf int64, err error) {
	t0 := time.Now()
	rowBytes, mfLocal, err := rk.rowExchange()
	if err != nil {
		return 0, 0, err
	}
	t1 := time.Now()
	rowS := t1.Sub(t0).Seconds()
	var predBytes int64
	if rk.opt.WritePred == WritePredLevel {
		if predBytes, err = rk.writePred(false); err != nil {
			return 0, 0, err
		}
	}
	t2 := time.Now()
	nfOwn, colBytes, err := rk.columnExchange()
	if err != nil {
		return 0, 0, err
	}
	t3 := time.Now()
	counts := []int64{nfOwn, mfLocal, ex.Edges, rowBytes, colBytes, predBytes}
	if err := comm.AllreduceSlice(rk.grid.World, counts, comm.Sum); err != nil {
		return 0, 0, fmt.Errorf("counts allreduce: %w", err)
	}
	t4 := time.Now()
	ph.Times[PhaseRowExchange] = rowS
	ph.Times[PhaseWritePred] = t2.Sub(t1).Seconds()
	ph.Times[PhaseColumnExchange] = t3.Sub(t2).Seconds()
	ph.Times[PhaseSwitch] += t4.Sub(t3).Seconds()
	ph.Bytes[CountEdgesExamined] = counts[2]
	ph.Bytes[BytesRowExchange] = counts[3]
	ph.Bytes[BytesColumnExchange] = counts[4]
	ph.Bytes[BytesWritePred] = counts[5]
	return counts[0], counts[1], nil
}

// rowExchange is lines 12-21: the prefix chain along the grid row, then
// the union broadcast from its last rank; then lines 17 and 23 (Merge). It
// returns the bytes sent and m_f's share.
func (rk *Rank) rowExchange() (sent, mf int64, err error) {
	if sent, err = rk.rowChain(); err != nil {
		return 0, 0, err
	}
	if mf, err = rk.eng.Merge(); err != nil {
		return 0, 0, fmt.Errorf("merge: %w", err)
	}
	return sent, mf, nil
}

// rowChain is lines 12-21 through the host buffers of Staging.
func (rk *Rank) rowChain() (int64, error) {
	st := rk.eng.Staging()
	if err := rk.eng.StageOut(); err != nil {
		return 0, fmt.Errorf("stage out_queue: %w", err)
	}
	row, j, c := rk.grid.Row, rk.grid.J, rk.grid.C
	if j == 0 { // line 13
		clear(st.Prefix)
	} else { // line 15
		req, err := row.Irecv(comm.Host(st.Prefix), j-1, tagPrefix)
		if err == nil {
			_, err = req.Wait()
		}
		if err != nil {
			return 0, fmt.Errorf("row exchange: prefix from P(%d,%d): %w", rk.grid.I, j-1, err)
		}
	}
	for w, x := range st.Out {
		st.Union[w] = st.Prefix[w] | x
	}
	var sent int64
	if j != c-1 { // line 19
		req, err := row.Isend(comm.Host(st.Union), j+1, tagPrefix)
		if err == nil {
			_, err = req.Wait()
		}
		if err != nil {
			return 0, fmt.Errorf("row exchange: prefix to P(%d,%d): %w", rk.grid.I, j+1, err)
		}
		sent += 4 * int64(len(st.Union))
	} else {
		sent += 4 * int64(len(st.Union)) * int64(c-1)
	}
	if c > 1 { // line 21
		if err := row.Bcast(comm.Host(st.Union), c-1); err != nil {
			return 0, fmt.Errorf("row exchange: union broadcast: %w", err)
		}
	}
	return sent, nil
}

// columnExchange is line 24: the own block's bits of the row union go to
// every rank of the grid column, and in_queue is assembled from theirs. It
// returns this rank's next-frontier size (own vertices) and the bytes sent.
func (rk *Rank) columnExchange() (int64, int64, error) {
	st := rk.eng.Staging()
	l := rk.b.L
	extractBits(st.Own, st.Union, rk.b.OwnRow0(), l.B)
	nfOwn := popcount(st.Own)
	clear(st.In)
	var sent int64
	if rk.grid.R == 1 {
		placeBits(st.In, st.Own, 0, l.B)
	} else {
		if err := rk.grid.Col.Allgather(comm.Host(st.Own), comm.Host(rk.gather)); err != nil {
			return 0, 0, fmt.Errorf("column exchange: %w", err)
		}
		bw := words(l.B)
		for r := 0; r < rk.grid.R; r++ {
			placeBits(st.In, rk.gather[int64(r)*bw:int64(r+1)*bw], int64(r)*l.B, l.B)
		}
		sent = 4 * bw * int64(rk.grid.R-1)
	}
	if err := rk.eng.LoadIn(); err != nil {
		return 0, 0, fmt.Errorf("load in_queue: %w", err)
	}
	return nfOwn, sent, nil
}

// writePred is line 22 (WritePred): the (offset, parent) pairs of the
// vertices assigned to this rank go to their owners along the grid row
// (the owner of local row m·B+o is P(i,m)), which store them. Those of the
// last level, or with all every level's. It returns the bytes sent.
func (rk *Rank) writePred(all bool) (int64, error) {
	if rk.dx != nil {
		return rk.dx.writePred(all)
	}
	l, j := rk.b.L, rk.grid.J
	for m := range rk.pairs {
		rk.pairs[m] = rk.pairs[m][:0]
	}
	err := rk.eng.Assigned(all, func(row, col uint32) {
		m := int64(row) / l.B
		rk.pairs[m] = append(rk.pairs[m], int64(row)-m*l.B, l.ColGlobal(j, col))
	})
	if err != nil {
		return 0, fmt.Errorf("writepred: %w", err)
	}
	counts := make([]int, len(rk.pairs))
	rk.send = rk.send[:0]
	for m, p := range rk.pairs {
		counts[m] = len(p)
		rk.send = append(rk.send, p...)
	}
	recv, _, err := comm.AlltoallvSliceInto(rk.grid.Row, rk.send, counts, rk.recv)
	if err != nil {
		return 0, fmt.Errorf("writepred exchange: %w", err)
	}
	if len(recv) > len(rk.recv) {
		rk.recv = recv
	}
	if err := rk.eng.WriteParents(recv); err != nil {
		return 0, fmt.Errorf("writepred: %w", err)
	}
	return 8 * int64(len(rk.send)-len(rk.pairs[j])), nil
}

// Parents gathers the parents of every vertex on world rank 0 into dst
// (length N there; nil elsewhere). Collective. Rank r owns vertex block r,
// so the blocks arrive in vertex order.
func (rk *Rank) Parents(dst []int64) error {
	w := rk.grid.World
	if w.Size() == 1 {
		if int64(len(dst)) != rk.b.L.N {
			return fmt.Errorf("parents buffer of %d for %d vertices", len(dst), rk.b.L.N)
		}
		if err := rk.eng.Parents(dst); err != nil {
			return err
		}
		return rk.arm() // the search is over, and the harness validates it next
	}
	own := make([]int64, rk.b.OwnLen())
	if err := rk.eng.Parents(own); err != nil {
		return err
	}
	if err := comm.GathervInto(w, own, dst, 0); err != nil {
		return fmt.Errorf("gather parents: %w", err)
	}
	return nil
}

// CopyBandwidth measures the copy bandwidth of this rank's GPU, dev, with
// two buffers of bytes each (CUDA only; the engine's own L2 set-aside
// given back meanwhile).
func (rk *Rank) CopyBandwidth(dev int, bytes int64, reps int) (cuda.Bandwidth, error) {
	m, ok := rk.eng.(gpuMeter)
	if !ok {
		return cuda.Bandwidth{}, fmt.Errorf("the %T backend has no GPU", rk.eng)
	}
	rk.armed = 0 // the engine cancels a queued start first
	return m.CopyBandwidth(dev, bytes, reps)
}

// L2Window is the bytes of this rank's L2 window of persisting lines
// (the l2_window step; 0: none; CUDA only).
func (rk *Rank) L2Window() (int64, error) {
	m, ok := rk.eng.(gpuMeter)
	if !ok {
		return 0, fmt.Errorf("the %T backend has no GPU", rk.eng)
	}
	return m.L2Window()
}

// Floor times the measured floor on this rank's engine (CUDA only).
func (rk *Rank) Floor(reps int) (float64, error) {
	f, ok := rk.eng.(floorMeter)
	if !ok {
		return 0, fmt.Errorf("the %T backend has no measured floor", rk.eng)
	}
	rk.armed = 0 // the engine cancels a queued start first
	return f.Floor(reps)
}

// Close releases the device communicators (collective) and the engine.
func (rk *Rank) Close() error {
	var err error
	if rk.dx != nil {
		err = rk.dx.close()
		rk.dx = nil
	}
	return errors.Join(err, rk.eng.Close())
}
