package ubfs

// engine.go: the per-rank compute backend of one level of [1] Figure 3
// (see doc.go). The CPU backend (cpu_engine.go) and the CUDA backend
// (cuda_engine.go) implement it; rank.go runs the same loop and exchanges
// over either. The search data (bitmaps, PRED) stays inside the engine;
// only the exchanged NQ parts and fold chunks cross this interface, as host
// buffers.

import "fmt"

// Part is one rank's NQ as received in the expand exchange: a bitmap of
// its vertex block (BlockWords words), or, when Bitmap is nil, a list of N
// block offsets, ascending, delta-coded in SIMD VLQ of width vlq.WarpWidth
// (Stream); or, when Own is set, this rank's own NQ, which the engine
// reads where it is (a communicator of one rank exchanges nothing).
type Part struct {
	Bitmap []uint32
	Stream []byte
	N      int
	Own    bool
}

// engine is one rank's backend. Calls come from one goroutine; each
// returns when its work is complete.
type engine interface {
	// Reset clears VISITED, NQ, SV and PRED (−1); when rootOff ≥ 0 (the
	// root is an own vertex at that block offset) it is marked visited, put
	// in NQ and given itself (global id root) as predecessor.
	Reset(rootOff, root int64) error

	// NQCount is |NQ| (task 1's operand).
	NQCount() (int64, error)

	// NQBitmap copies the NQ bitmap (BlockWords words) into dst.
	NQBitmap(dst []uint32) error

	// NQEncode codes NQ as a Part stream (task 2's compression, §V-B/C)
	// into dst (at least vlq.MaxBytes·|NQ| bytes) and returns its length.
	NQEncode(dst []byte) (int, error)

	// LoadExpand is the receiving side of the expand (task 3): CQ from the
	// grid column's parts (col[r] from grid row r), SV marked with the grid
	// row's parts (row[m] from grid column m; §V-F-2, nil when not shared),
	// and NQ emptied.
	LoadExpand(col, row []Part) error

	// CQList is task 4 (§V-D): the list of non-empty CQ words and their
	// edge counts. It returns the list's length.
	CQList() (int, error)

	// GatherFilter runs tasks 5 and 6 (§V-E, §V-F) over one part of the CQ
	// list from entry start: the edges of as many entries as fit in the
	// edge buffer (at least one entry) are gathered and filtered through
	// SV; the surviving edges to the own grid column are applied at once
	// (task 8), those to grid column m are appended to out[m] as pairs
	// (block offset of the target, local column of the source). It returns
	// the next entry.
	GatherFilter(start int, out [][]uint32) (next int, err error)

	// ApplyFold is task 8 for a chunk received from grid column src:
	// pairs (own block offset, src's local column) update VISITED, PRED
	// and NQ.
	ApplyFold(src int, pairs []uint32) error

	// Parents copies the own block's parents (global ids, −1 unreached).
	Parents(dst []int64) error

	// Counters returns and clears what the engine measured since the last
	// call: kernel times in seconds (CUDA events; nil for the CPU) and the
	// bytes copied host to device and device to host.
	Counters() (times map[string]float64, h2d, d2h int64)

	// Close releases the engine's memory.
	Close() error
}

// SV update methods (Algorithm V).
const (
	SVTestAndSet     = "A" // test-and-set: one atomicOr
	SVTestTestAndSet = "B" // test, then test-and-set
	SVTestSet        = "C" // test and set, no atomics
)

// How tasks 5 and 6 run (Options.GatherFilter).
const (
	GatherSplit = "split" // gathered into the edge buffer, then filtered (§V-E, the paper's choice)
	GatherFused = "fused" // each edge filtered where it is gathered
)

// Options are a rank's algorithm parameters.
type Options struct {
	Alpha       float64 // Algorithm III: bitmap expand above Alpha·n vertices in NQ
	Compression bool    // expand compression (§V-B); off: always bitmaps
	ShareSV     bool    // §V-F-2: mark the grid row's NQ in SV too
	SVUpdate    string  // A | B | C
	EdgeBuffer  int     // task 5's bounded buffer, in edges
	FoldChunk   int     // pairs per fold message
	// GatherFilter is GatherSplit or GatherFused ("" means split).
	GatherFilter string
}

func (o Options) check() error {
	switch o.SVUpdate {
	case SVTestAndSet, SVTestTestAndSet, SVTestSet:
	default:
		return fmt.Errorf("sv_update %q: want A, B or C", o.SVUpdate)
	}
	if o.Alpha < 0 || o.Alpha > 1 {
		return fmt.Errorf("alpha %v outside [0, 1]", o.Alpha)
	}
	if o.EdgeBuffer < 32 {
		return fmt.Errorf("edge buffer %d below 32 edges", o.EdgeBuffer)
	}
	switch o.GatherFilter {
	case "", GatherSplit, GatherFused:
	default:
		return fmt.Errorf("gather_filter %q: want split or fused", o.GatherFilter)
	}
	if o.FoldChunk < 1 {
		return fmt.Errorf("fold chunk %d below 1", o.FoldChunk)
	}
	return nil
}

// BlockWords is the number of 32-bit words of one vertex block's bitmap.
func BlockWords(blockN int64) int { return int((blockN + 31) / 32) }
