package dobfs

// device_loop.go is the device-resident level loop of the CUDA backend, on
// a 1×1 grid and on 2D grids whose exchanges run on the device
// (device_exchange.go). The host loop of rank.go waits for every level: it
// reads the level's counts back, applies the switching rule and only then
// launches the next level, so each level pays a host round trip, and on 2D
// grids an MPI allreduce, with the GPU idle meanwhile (20-60 µs a level on
// an H200; a scale-25 search has about ten levels, most of them small).
//
// Here the rule runs on the device instead. Per level the host enqueues,
// without waiting:
//
//	ExploreFrontier  both directions' kernels; each reads the direction the
//	                 device chose and returns at once if it is not its own
//	                 (and every kernel returns at once after the last level)
//	exchanges        2D: as device_exchange.go; this rank's counts (n_f's
//	                 and m_f's shares, entries read) are summed over the
//	                 grid on the device, along the row by an allreduce and
//	                 along the column by one in the column allgather's
//	                 NCCL group
//	decision         the host loop's bookkeeping and Beamer et al.'s rule,
//	                 in the same arithmetic as Rank.decide, so both loops
//	                 take the same directions: DecideKernel on 2D grids; on
//	                 1×1 the bottom-up kernel's last block (EndLevel), which
//	                 saves a launch a level
//
// Level 0's decision runs on the device too (StartLoopKernel; on 1×1 in
// the reset's launch), after the grid has summed the root's degree there:
// a search's first wait is its batch's end. On a one-column grid (R×1) the row union is out_queue and
// the own block is the rank's rows, so the merge has nothing to add to
// what the exploration did and counted: LoopMerge only copies the own
// block out of out_queue where blocks are not whole words (unless a
// per-level WritePred needs the level's assigned rows).
//
// The host knows a search's end only when it synchronizes (1×1: when the
// last level sets a flag in pinned memory that the host polls). It enqueues a
// batch of levels (as many as the deepest search so far on this rank,
// which on one graph is usually exactly enough), waits once, reads the
// levels' records (direction, n_f, m_f, entries read, and their device
// times from CUDA events), and enqueues a further, doubling batch if the
// search has not ended. Levels enqueued past the end cost a few empty
// launches (and on 2D grids their collectives, which move zeros); every
// rank enqueues the same levels, since the end is decided from counts
// summed over the grid. Choice (the seed drives its levels from the host,
// §IV): the loop moves to the device because on Hopper a level's launch
// and round trip cost as much as the exploration of the small levels.

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/results"
)

// LevelRecord is what the device loop reports about one level.
type LevelRecord struct {
	Dir      Dir
	NF, MF   int64 // the level's frontier: vertices and their edges (over the grid)
	Edges    int64 // adjacency entries read (over the grid)
	ExploreS float64
	RowS     float64 // 2D: row exchange and merge
	ColumnS  float64 // 2D: column exchange, with the counts' allreduce (and WritePred per level)
	SwitchS  float64 // the decision
	// GapS (2D) is the device time before the level since the previous
	// level's decision (level 0: since the search's start, so the reset
	// and the loop's start): launches the device waits for, or work
	// between levels. On 1×1 ExploreS includes it.
	GapS float64
}

// loopEngine is an engine that runs the device loop (the CUDA engine).
type loopEngine interface {
	// LoopBegin starts the loop after Reset: dir is the direction before
	// level 0's rule, mf this rank's share of level 0's m_f (the root's
	// degree in its block), which it puts in DevBuffers.Counts for a 2D
	// grid's allreduce, and edges the graph's.
	LoopBegin(o Options, n int64, dir Dir, mf, edges int64) error
	// LoopStart enqueues level 0's decision, from the summed m_f.
	LoopStart() error
	// LoopExplore enqueues a level's exploration (1×1: the whole level).
	LoopExplore() error
	// LoopMerge, LoopCounts and LoopDecide enqueue a 2D level's merge
	// (assigned: keep the level's assigned rows, for a per-level
	// WritePred), its count shares (DevBuffers.Counts) and its decision.
	LoopMerge(assigned bool) error
	LoopCounts() error
	LoopDecide() error
	// LoopSync waits for the enqueued levels and fills dst with the
	// records of those completed since the last call; done reports the
	// search's end.
	LoopSync(dst []LevelRecord) (n int, done bool, err error)
	// LoopSlots is the most levels enqueued between two syncs.
	LoopSlots() int
	// LoopArm (1×1) queues the next search's start and its first `levels`
	// levels behind a gate that the next Reset opens, where the engine is
	// gated (else it does nothing and reports false): LoopBegin and
	// LoopStart then enqueue nothing, nor the first `levels` LoopExplore
	// calls. dir, edges and o are LoopBegin's; the device takes m_f from
	// the root it is given.
	LoopArm(o Options, n int64, dir Dir, edges int64, levels int) (bool, error)
}

// deviceLevels runs a search's levels on the device loop, after Reset:
// dir is the direction before level 0's rule and mf this rank's share of
// level 0's m_f, which the grid sums on the device (the host waits for no
// count before the first level).
func (rk *Rank) deviceLevels(res *Result, dir Dir, mf int64, resetS float64) error {
	if err := rk.loop.LoopBegin(rk.opt, rk.b.L.N, dir, mf, rk.muBase); err != nil {
		return fmt.Errorf("device loop: %w", err)
	}
	if !rk.single {
		if err := rk.dx.allreduceCounts(); err != nil {
			return fmt.Errorf("device loop: root degree: %w", err)
		}
	}
	if err := rk.loop.LoopStart(); err != nil {
		return fmt.Errorf("device loop: %w", err)
	}
	slots := rk.loop.LoopSlots()
	if len(rk.recs) < slots {
		rk.recs = make([]LevelRecord, slots)
	}
	// The first batch takes the levels LoopArm queued, if it did.
	batch := max(rk.firstBatch(), rk.armed)
	rk.armed = 0
	level, enqueued := 0, 0
	for {
		for k := 0; k < batch; k++ {
			if err := rk.enqueueLevel(); err != nil {
				return fmt.Errorf("level %d: %w", enqueued, err)
			}
			enqueued++
		}
		if rk.dx != nil {
			if err := rk.dx.sync(); err != nil { // fails instead of hanging on a dead peer
				return fmt.Errorf("device exchange: %w", err)
			}
		}
		n, done, err := rk.loop.LoopSync(rk.recs)
		if err != nil {
			return fmt.Errorf("device loop: %w", err)
		}
		for _, r := range rk.recs[:n] {
			res.Phases = append(res.Phases, rk.loopPhase(level, r, resetS))
			res.Reached += r.NF
			level++
		}
		if done {
			break
		}
		if level != enqueued {
			return fmt.Errorf("device loop: %d of %d enqueued levels completed, and the search has not ended", level, enqueued)
		}
		batch = min(2*batch, slots)
	}
	res.Reached-- // level 0's frontier is the root, which Result.Reached starts with
	res.Levels = level
	rk.depth = max(rk.depth, level)
	return nil
}

// firstBatch is the levels a search enqueues before its first wait: as
// many as the deepest search so far, and one more with leaves, since a
// search whose last level is bottom-up ends one launch after it (the
// leaves' parents, cuda/diropt.cu's LeafPass; after a top-down last level
// the pass runs in that level's launch), enqueued with the rest.
func (rk *Rank) firstBatch() int {
	extra := 0
	if rk.b.NumLeaves() > 0 {
		extra = 1
	}
	return min(max(rk.depth+extra, 2), rk.loop.LoopSlots())
}

// arm queues the next search's start where the engine is gated
// (LoopArm): between searches, after the last one's parents were read.
func (rk *Rank) arm() error {
	if rk.loop == nil || !rk.single {
		return nil
	}
	levels := rk.firstBatch()
	ok, err := rk.loop.LoopArm(rk.opt, rk.b.L.N, rk.startDir(), rk.muBase, levels)
	if err != nil {
		return fmt.Errorf("gated start: %w", err)
	}
	if ok {
		rk.armed = levels
	}
	return nil
}

// enqueueLevel enqueues one level of the device loop. On 2D grids it
// keeps the bytes a level sends, summed over the grid (every rank sends
// the same), for the level's report.
func (rk *Rank) enqueueLevel() error {
	if err := rk.loop.LoopExplore(); err != nil {
		return fmt.Errorf("ExploreFrontier: %w", err)
	}
	if rk.single {
		return nil
	}
	row, col, pred, err := rk.dx.loopLevel(rk.opt.WritePred == WritePredLevel)
	size := int64(rk.grid.World.Size())
	rk.levelBytes = [3]int64{row * size, col * size, pred * size}
	return err
}

// loopPhase turns a level's record into its results.LevelPhase.
func (rk *Rank) loopPhase(level int, r LevelRecord, resetS float64) results.LevelPhase {
	ph := results.LevelPhase{Level: level, Frontier: r.NF, Times: map[string]float64{}, Bytes: map[string]int64{}}
	ph.Times["explore_"+r.Dir.String()] = r.ExploreS
	ph.Bytes[CountFrontierEdges] = r.MF
	ph.Bytes[CountEdgesExamined] = r.Edges
	// 1×1: the decision is the exploration's last block (EndLevel in
	// cuda/diropt.cu), timed with it, and one event a level (with
	// dev_clock, level 0's event and then the device's stamp of each
	// decision), so a level's time runs from the one before's end or
	// decision (level 0: from the search's start) and has no gap; it has
	// no exchanges.
	if !rk.single {
		ph.Times[PhaseSwitch] = r.SwitchS
		ph.Times[PhaseGap] = r.GapS
		ph.Times[PhaseRowExchange] = r.RowS
		ph.Times[PhaseColumnExchange] = r.ColumnS
		ph.Bytes[BytesRowExchange] = rk.levelBytes[0]
		ph.Bytes[BytesColumnExchange] = rk.levelBytes[1]
		ph.Bytes[BytesWritePred] = rk.levelBytes[2]
		if level == 0 {
			ph.Times[PhaseReset] = resetS
		}
	}
	return ph
}

// loopLevel enqueues a 2D level's exchanges after its exploration (the
// order of device_exchange.go's row, writePred and column; the counts'
// sum along the column travels in the column exchange's NCCL group) and
// the decision. It returns the bytes the level sends from this rank (row,
// column, WritePred).
func (x *deviceExchange) loopLevel(predLevel bool) (row, col, pred int64, err error) {
	if row, err = x.rowUnion(); err != nil {
		return 0, 0, 0, err
	}
	if err := x.eng.LoopMerge(predLevel); err != nil {
		return 0, 0, 0, fmt.Errorf("merge: %w", err)
	}
	if predLevel {
		if pred, err = x.writePred(false); err != nil {
			return 0, 0, 0, err
		}
	}
	// The counts are the exploration's and the merge's: packed before the
	// column exchange, their sum along the column travels in its NCCL
	// group (one launch and one wait between the GPUs for both).
	if err := x.eng.LoopCounts(); err != nil {
		return 0, 0, 0, fmt.Errorf("counts: %w", err)
	}
	if err := x.countsAlongRow(); err != nil {
		return 0, 0, 0, err
	}
	err = x.dg.Col.Group(func() error {
		var err error
		if col, err = x.columnAllgather(); err != nil {
			return err
		}
		return x.countsAlongColumn()
	})
	if err != nil {
		return 0, 0, 0, err
	}
	if err := x.eng.DevLoadIn(); err != nil {
		return 0, 0, 0, fmt.Errorf("load in_queue: %w", err)
	}
	if err := x.eng.LoopDecide(); err != nil {
		return 0, 0, 0, fmt.Errorf("decision: %w", err)
	}
	return row, col, pred, nil
}

// allreduceCounts enqueues the sum over the grid of the device loop's
// counts (DevBuffers.Counts): along the row, then along the column.
func (x *deviceExchange) allreduceCounts() error {
	if err := x.countsAlongRow(); err != nil {
		return err
	}
	return x.countsAlongColumn()
}

// countsAlongRow and countsAlongColumn enqueue the counts' allreduce (sum)
// along the grid row or column, where it has several ranks.
func (x *deviceExchange) countsAlongRow() error    { return x.countsAlong(x.dg.Row, x.g.C, "row") }
func (x *deviceExchange) countsAlongColumn() error { return x.countsAlong(x.dg.Col, x.g.R, "column") }

func (x *deviceExchange) countsAlong(c *comm.NCCLComm, ranks int, line string) error {
	if ranks == 1 {
		return nil
	}
	if err := c.Allreduce(comm.Device(x.buf.Counts, 3, comm.Int64), comm.Sum); err != nil {
		return fmt.Errorf("counts allreduce (%s): %w", line, err)
	}
	return nil
}
