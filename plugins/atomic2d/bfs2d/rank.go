package bfs2d

// rank.go is Algorithm 2 of [1] (§3.2, see doc.go) for one processor P(i,j): the
// BFS loop of expand exchange (along the grid column), frontier expansion
// (Algorithm 3), fold exchange (along the grid row) and frontier update
// (§3.5), ended when every frontier is empty, followed by the delayed
// predecessor exchange (§3.5, ref [9]/[11]). The compute steps run on an
// engine (CPU or CUDA); the exchanges are host-staged over comm, or, for
// the CUDA engine with exchange = device, go device to device over NCCL
// (device_exchange.go).

import (
	"errors"
	"fmt"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/results"
)

// Phase names reported per level (results.LevelPhase keys).
const (
	PhaseExpandExchange = "expand_exchange"
	PhaseExpansion      = "expansion"
	PhaseFoldExchange   = "fold_exchange"
	PhaseUpdate         = "update"
	// The delayed predecessor exchange after the last level is reported as
	// one extra LevelPhase (Level = the number of levels), so that the
	// phases add up to the whole search, in four parts (PredPhases): the
	// device gathering the queries and copying them out, the two
	// all-to-alls along the grid row, answering the peers' queries, and
	// building the parents from the answers.
	PhasePredQueries  = "pred_queries"
	PhasePredExchange = "pred_exchange"
	PhasePredLookup   = "pred_lookup"
	PhasePredFinalize = "pred_finalize"

	BytesExpand = "expand"
	BytesFold   = "fold"
	BytesPred   = "pred"
)

// PredPhases are the parts of the predecessor exchange, in order.
var PredPhases = []string{PhasePredQueries, PhasePredExchange, PhasePredLookup, PhasePredFinalize}

// Message tags of the two exchanges (each on its own communicator).
const (
	tagExpand = 1
	tagFold   = 2
)

// Append modes (the append parameter): how the CUDA expansion reserves
// output queue slots (Algorithm 3 line 10).
const (
	AppendThread = "thread" // one atomic on dst_cnt per discovered vertex, as Algorithm 3 writes it
	AppendBlock  = "block"  // warps add in shared memory, one global atomic per block round and queue
)

// Options are a rank's algorithm parameters.
type Options struct {
	EdgesPerThread int    // §3.4.1: 1..8
	BitmapMessages string // §5: auto | off | on
	Append         string // CUDA: thread | block ("" means block); the CPU backend appends per vertex
	Workers        int    // CPU backend goroutines; ≤ 0 means GOMAXPROCS
}

func (o Options) check() error {
	if o.EdgesPerThread < 1 || o.EdgesPerThread > 8 {
		return fmt.Errorf("edges_per_thread %d outside 1..8", o.EdgesPerThread)
	}
	switch o.BitmapMessages {
	case BitmapAuto, BitmapOff, BitmapOn:
	default:
		return fmt.Errorf("bitmap_messages %q: want auto, off or on", o.BitmapMessages)
	}
	switch o.Append {
	case "", AppendThread, AppendBlock:
	default:
		return fmt.Errorf("append %q: want thread or block", o.Append)
	}
	return nil
}

// appendBlock reports whether the expansion reserves queue slots per block.
func (o Options) appendBlock() bool { return o.Append != AppendThread }

// SearchResult is what one rank reports about a search.
type SearchResult struct {
	Levels int                  // BFS levels (1 + the largest level)
	Phases []results.LevelPhase // rank 0's times; bytes summed over ranks
}

// Rank is one processor's share of the distributed search.
type Rank struct {
	grid *comm.Grid
	l    Layout
	eng  engine
	opt  Options

	colX, rowX *exchanger
	dx         *deviceExchange // the device path of the exchanges, nil for the host path
	frontBuf   []uint32        // this rank's expand message
	foldBufs   [][]uint32      // fold messages, one per grid column
	expandMsgs [][]uint32
	foldMsgs   [][]uint32
	// The predecessor exchange's receive buffers (the peers' queries, the
	// answers to this rank's), allocated by its first search.
	predQueries, predAnswers []uint32
}

// alloc returns a host buffer of words uint32 for exchanged data: the
// engine's (hostAllocator) where it has them, else a Go slice.
func (rk *Rank) alloc(words int) ([]uint32, error) {
	if a, ok := rk.eng.(hostAllocator); ok {
		return a.HostAlloc(words)
	}
	return make([]uint32, words), nil
}

// newRank builds a rank around an engine, allocates the exchanges' buffers
// (from the engine where it provides them) and posts the first receives of
// both exchanges. Collective over the grid.
func newRank(g *comm.Grid, l Layout, eng engine, opt Options) (*Rank, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	if g.R != l.R || g.C != l.C || g.I != l.I || g.J != l.J {
		return nil, fmt.Errorf("layout P(%d,%d) of %d×%d does not match grid P(%d,%d) of %d×%d", l.I, l.J, l.R, l.C, g.I, g.J, g.R, g.C)
	}
	// Buffers fit the longest message of any mode.
	maxWords := maxMessageWords(BitmapOff, int(l.BlockN))
	rk := &Rank{grid: g, l: l, eng: eng, opt: opt,
		expandMsgs: make([][]uint32, l.R), foldMsgs: make([][]uint32, l.C)}
	var err error
	if rk.colX, err = newExchanger(g.Col, tagExpand, "expand", maxWords, rk.alloc); err != nil {
		return nil, err
	}
	if rk.rowX, err = newExchanger(g.Row, tagFold, "fold", maxWords, rk.alloc); err != nil {
		return nil, err
	}
	if l.R > 1 {
		if rk.frontBuf, err = rk.alloc(maxWords); err != nil {
			return nil, fmt.Errorf("expand message buffer: %w", err)
		}
	}
	if l.C > 1 {
		rk.foldBufs = make([][]uint32, l.C)
		for m := range rk.foldBufs {
			if m != l.J {
				if rk.foldBufs[m], err = rk.alloc(maxWords); err != nil {
					return nil, fmt.Errorf("fold message buffer: %w", err)
				}
			}
		}
	}
	// Receives are posted once every buffer exists: an allocation failure
	// leaves no receive pending into memory the engine frees.
	if err := rk.colX.post(); err != nil {
		return nil, err
	}
	if err := rk.rowX.post(); err != nil {
		return nil, err
	}
	return rk, nil
}

// maxMessageWords is the longest message a mode can produce about a block of
// blockN vertices: a frontier or a fold block holds each vertex at most once.
func maxMessageWords(mode string, blockN int) int {
	if mode == BitmapOff {
		return 1 + blockN
	}
	// auto: lists only while not longer than the bitmap; on: bitmaps (or
	// the empty list).
	return 1 + BitmapWords(blockN)
}

// Layout is the rank's view of the partition.
func (rk *Rank) Layout() Layout { return rk.l }

// BFS runs one search from global vertex root. Collective over the grid.
func (rk *Rank) BFS(root int64) (SearchResult, error) {
	l := rk.l
	if root < 0 || root >= l.N {
		return SearchResult{}, fmt.Errorf("root %d out of range [0, %d)", root, l.N)
	}
	rootRow := int64(-1)
	if l.Owns(root) {
		v, _ := l.LocalRowOf(root)
		rootRow = int64(v)
	}
	nf, err := rk.eng.Reset(rootRow)
	if err != nil {
		return SearchResult{}, fmt.Errorf("reset: %w", err)
	}
	frontier := int64(1) // the global frontier: the root
	var colFront []int64 // device path: the grid column's frontier sizes
	if rk.dx != nil {
		if frontier, colFront, err = rk.frontiers(nf); err != nil {
			return SearchResult{}, err
		}
	}
	var phases []results.LevelPhase
	var bytes []int64 // per level: expand, fold
	lvl := int32(1)
	for ; ; lvl++ {
		// LevelPhase.Level counts from 0 (the root's level) in every
		// variant; the paper's lvl counts from 1.
		ph := results.LevelPhase{Level: int(lvl) - 1, Frontier: frontier, Times: map[string]float64{}, Bytes: map[string]int64{}}
		var eb int64
		if rk.dx != nil && l.R > 1 {
			// The device path overlaps the two and times their parts
			// itself (expand_exchange, wait, expansion).
			if eb, err = rk.dx.expandLevel(lvl, colFront, ph.Times); err != nil {
				return SearchResult{}, fmt.Errorf("level %d: %w", lvl, err)
			}
		} else {
			t0 := time.Now()
			if eb, err = rk.expandExchange(); err != nil {
				return SearchResult{}, fmt.Errorf("level %d: %w", lvl, err)
			}
			t1 := time.Now()
			if _, _, err = rk.eng.Expand(lvl); err != nil {
				return SearchResult{}, fmt.Errorf("level %d: expand_frontier: %w", lvl, err)
			}
			ph.Times[PhaseExpandExchange] = t1.Sub(t0).Seconds()
			ph.Times[PhaseExpansion] = time.Since(t1).Seconds()
		}
		t2 := time.Now()
		fb, err := rk.foldExchange()
		if err != nil {
			return SearchResult{}, fmt.Errorf("level %d: %w", lvl, err)
		}
		t3 := time.Now()
		if nf, err = rk.eng.Update(lvl); err != nil {
			return SearchResult{}, fmt.Errorf("level %d: update_frontier: %w", lvl, err)
		}
		t4 := time.Now()
		// Line 19: stop when every frontier is empty. The collective is
		// communication, counted with the fold exchange ([1] §4
		// counts it among the transfers).
		if rk.dx != nil {
			frontier, colFront, err = rk.frontiers(nf)
		} else if frontier, err = comm.AllreduceInt64(rk.grid.World, int64(nf), comm.Sum); err != nil {
			err = fmt.Errorf("frontier allreduce: %w", err)
		}
		if err != nil {
			return SearchResult{}, fmt.Errorf("level %d: %w", lvl, err)
		}
		t5 := time.Now()
		ph.Times[PhaseFoldExchange] = t3.Sub(t2).Seconds() + t5.Sub(t4).Seconds()
		ph.Times[PhaseUpdate] = t4.Sub(t3).Seconds()
		phases = append(phases, ph)
		bytes = append(bytes, eb, fb)
		if frontier == 0 {
			break
		}
	}
	// Predecessor resolution runs once, after the last level: its entry
	// follows the last level's.
	pt := map[string]float64{}
	pb, err := rk.resolvePredecessors(pt)
	if err != nil {
		return SearchResult{}, err
	}
	phases = append(phases, results.LevelPhase{Level: int(lvl), Times: pt})
	bytes = append(bytes, pb)
	// Bytes sent, summed over every rank (one small allreduce).
	if err := comm.AllreduceSlice(rk.grid.World, bytes, comm.Sum); err != nil {
		return SearchResult{}, fmt.Errorf("bytes allreduce: %w", err)
	}
	for k := range phases[:len(phases)-1] {
		phases[k].Bytes[BytesExpand] = bytes[2*k]
		phases[k].Bytes[BytesFold] = bytes[2*k+1]
	}
	phases[len(phases)-1].Bytes = map[string]int64{BytesPred: bytes[len(bytes)-1]}
	// Levels 0..lvl-1 hold vertices; the last iteration found none.
	return SearchResult{Levels: int(lvl), Phases: phases}, nil
}

// frontiers is the level's closing collective on the device path: every
// rank's frontier size nf gathered (world order), in place of the host
// path's sum. It returns the global frontier and the sizes of this rank's
// grid column, P(r,j) for r = 0..R-1, which size the next expand
// exchange's payloads (deviceExchange.expandLevel).
func (rk *Rank) frontiers(nf int) (int64, []int64, error) {
	l := rk.l
	all := make([]int64, rk.grid.World.Size())
	if err := rk.grid.World.Allgather(comm.Host([]int64{int64(nf)}), comm.Host(all)); err != nil {
		return 0, nil, fmt.Errorf("frontier allgather: %w", err)
	}
	return columnFrontiers(all, l.R, l.J)
}

// columnFrontiers sums the frontier sizes all (world order) and picks
// those of grid column j of an R-row grid.
func columnFrontiers(all []int64, r, j int) (int64, []int64, error) {
	if len(all)%r != 0 || (j+1)*r > len(all) {
		return 0, nil, fmt.Errorf("%d frontier sizes for grid column %d of %d rows", len(all), j, r)
	}
	var sum int64
	for _, n := range all {
		sum += n
	}
	col := make([]int64, r)
	for i := range col {
		col[i] = all[comm.GridRank(i, j, r)]
	}
	return sum, col, nil
}

// expandExchange is Algorithm 2 line 13 on the host path: every processor
// of the grid column sends its frontier to the others and all_front is
// assembled. It returns the bytes this rank sent.
func (rk *Rank) expandExchange() (int64, error) {
	if rk.l.R == 1 {
		return 0, rk.eng.LoadFrontier(nil)
	}
	msg, err := rk.eng.FrontierMessage(rk.opt.BitmapMessages, rk.frontBuf)
	if err != nil {
		return 0, fmt.Errorf("expand message: %w", err)
	}
	for r := range rk.expandMsgs {
		rk.expandMsgs[r] = msg
	}
	recv, words, err := rk.colX.round(rk.expandMsgs)
	if err != nil {
		return 0, err
	}
	if err := rk.eng.LoadFrontier(recv); err != nil {
		return 0, err
	}
	return 4 * words, nil
}

// foldExchange is Algorithm 2 line 17: the vertices found for grid column m
// go to P(i,m). It returns the bytes this rank sent.
func (rk *Rank) foldExchange() (int64, error) {
	if rk.l.C == 1 {
		return 0, nil
	}
	if rk.dx != nil {
		return rk.dx.fold()
	}
	for m := range rk.foldMsgs {
		rk.foldMsgs[m] = nil
		if m == rk.l.J {
			continue
		}
		msg, err := rk.eng.FoldMessage(m, rk.opt.BitmapMessages, rk.foldBufs[m])
		if err != nil {
			return 0, fmt.Errorf("fold message for grid column %d: %w", m, err)
		}
		rk.foldMsgs[m] = msg
	}
	recv, words, err := rk.rowX.round(rk.foldMsgs)
	if err != nil {
		return 0, err
	}
	if err := rk.eng.LoadFold(recv); err != nil {
		return 0, err
	}
	return 4 * words, nil
}

// Parents gathers the parents of every vertex on world rank 0 into dst
// (length N there; other ranks pass nil). Collective over the grid. Rank r
// owns vertex block r, so the blocks arrive in vertex order.
func (rk *Rank) Parents(dst []int64) error {
	own := make([]int64, rk.l.BlockLen(rk.l.Block()))
	if err := rk.eng.Parents(own); err != nil {
		return err
	}
	if err := comm.GathervInto(rk.grid.World, own, dst, 0); err != nil {
		return fmt.Errorf("gather parents: %w", err)
	}
	return nil
}

// Levels returns the own block's levels (for tests and diagnostics).
func (rk *Rank) Levels() ([]int32, error) {
	out := make([]int32, rk.l.BlockLen(rk.l.Block()))
	return out, rk.eng.Levels(out)
}

// TestFloor times this rank's test floor (a2d_test_floor): the median of
// reps passes in mode over the local edges, in milliseconds, and the number
// of tested rows whose visited bit was clear. Not collective; CUDA backend
// only.
func (rk *Rank) TestFloor(mode FloorMode, reps int) (float64, uint64, error) {
	f, ok := rk.eng.(floorMeter)
	if !ok {
		return 0, 0, fmt.Errorf("test floor: the %T backend has none", rk.eng)
	}
	return f.TestFloor(mode, reps)
}

// Close completes the pending receives and releases the engine. Collective.
func (rk *Rank) Close() error {
	err1 := rk.colX.close()
	err2 := rk.rowX.close()
	if rk.dx != nil {
		err2 = errors.Join(err2, rk.dx.close())
		rk.dx = nil
	}
	err3 := rk.eng.Close()
	if err1 != nil {
		return err1
	}
	if err2 != nil {
		return err2
	}
	return err3
}
