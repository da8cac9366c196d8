package dobfs

// engine.go declares the compute backend of one processor P(i,j): the data
// (the block's CSR and CSC, in_queue, out_queue, visited, predecessors)
// stays inside the engine — in device memory for CUDA — and the level loop
// of rank.go, written once in Go, drives it. The CPU engine (cpu_engine.go)
// and the CUDA engine (cuda_engine.go) implement it.
//
// Exchanged bitmaps (2D grids only) are staged through the host buffers of
// Staging: StageOut copies out_queue there, LoadIn copies the gathered
// in_queue from there. On the device path (device_exchange.go) they stay
// in device memory, and the CUDA engine's deviceEngine methods replace
// the staging calls.

// Dir is the direction of one level's exploration.
type Dir int

// The two directions of Beamer et al., and the split level (ours: both
// at once, split.go).
const (
	TopDown  Dir = iota // from the vertices of in_queue (CSR, Algorithm 3)
	BottomUp            // from the unvisited vertices (CSC)
	Split               // level 2: rows of degree < D marked top-down from the list tails, then bottom-up (split.go)
)

// String is "td", "bu" or "split", as the per-level phase names use it.
func (d Dir) String() string {
	switch d {
	case BottomUp:
		return "bu"
	case Split:
		return "split"
	}
	return "td"
}

// Explored is what ExploreFrontier reports about one level on one rank.
type Explored struct {
	Found   int64 // vertices this rank put in out_queue
	Degrees int64 // the sum of their degrees in this block (m_f's share)
	Edges   int64 // adjacency entries read (edges examined)
}

// RootPos places the root in a rank's index spaces (-1 where it is not).
type RootPos struct {
	Global int64
	Row    int64 // local row (the rank's grid row holds the root's row block)
	Col    int64 // local column (the rank's grid column holds its column block)
	Own    int64 // offset in the own vertex block (the rank owns the root)
}

// Staging holds the host buffers of the 2D exchanges (nil on 1×1 grids):
// Out, Prefix and Union over local rows, Own over the own block, In over
// local columns.
type Staging struct {
	Out, Prefix, Union, Own, In []uint32
}

func newStaging(b *Block, alloc func(n int64) ([]uint32, error)) (*Staging, error) {
	l := b.L
	s := &Staging{}
	var err error
	for _, x := range []struct {
		p *[]uint32
		n int64
	}{{&s.Out, l.LocalRows()}, {&s.Prefix, l.LocalRows()}, {&s.Union, l.LocalRows()}, {&s.Own, l.B}, {&s.In, l.LocalCols()}} {
		if *x.p, err = alloc(words(x.n)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// engine is one rank's backend. Calls come from one goroutine, in the order
// of Algorithm 2; each returns when its work is complete.
type engine interface {
	// Reset is Algorithm 2 lines 1-5: visited ← the isolated rows (and the
	// root's row), in_queue ← {root} (on the ranks whose columns hold it),
	// out_queue empty, the owner's parents ⊥ but the root's. It returns
	// the root's degree in this block's CSC (0 where the rank has no row
	// of it).
	Reset(r RootPos) (rootDeg int64, err error)

	// Explore is ExploreFrontier (line 7): out_queue ← the unvisited
	// neighbours of in_queue, top-down or bottom-up, each marked visited
	// with its predecessor (a local column) recorded.
	Explore(d Dir) (Explored, error)

	// Swap is line 24 on a 1×1 grid: in_queue ← out_queue (and out_queue
	// emptied before a top-down level).
	Swap() error

	// Finish ends the search: it returns the device time since Reset in
	// seconds (0 for an engine without a device clock).
	Finish() (float64, error)

	// Staging returns the host buffers of the 2D exchanges.
	Staging() *Staging

	// StageOut copies out_queue into Staging().Out.
	StageOut() error

	// Merge is lines 17 and 23 after the row exchange: the vertices of
	// out_queue not in Staging().Prefix are assigned to this rank (their
	// predecessors count), and visited ← visited ∪ Staging().Union. It
	// returns the sum of the CSC degrees in this block of the Union's
	// vertices (m_f's share).
	Merge() (int64, error)

	// LoadIn is line 24 on a 2D grid: in_queue ← Staging().In.
	LoadIn() error

	// Assigned calls f(row, col) for every vertex assigned to this rank
	// (row: its local row; col: its predecessor's local column): those of
	// the last Merge, or, when all, of every Merge since Reset.
	Assigned(all bool, f func(row, col uint32)) error

	// WriteParents is WritePred on the owner: pairs holds (offset in the
	// own block, global parent) pairs.
	WriteParents(pairs []int64) error

	// LeafPass gives the leaves their parents after the last level (1×1
	// with the leaves step, leaves.go) and returns how many the search
	// reached (the root among them when it is a leaf) and whether some of
	// them lie one level below the last level's frontier (the tree has one
	// level more than the loop ran).
	// The CUDA engine's device loop gives them in the search's last
	// launch; its LeafPass returns what that launch counted.
	LeafPass() (reached int64, deep bool, err error)

	// Parents copies the own block's parents (global ids, -1 unreached)
	// into dst. On a 1×1 grid they are read from the predecessors and
	// visited; on 2D grids from what WriteParents wrote.
	Parents(dst []int64) error

	// Close releases the engine's memory.
	Close() error
}

// floorMeter is an engine that can time the measured floor (CUDA).
type floorMeter interface {
	Floor(reps int) (seconds float64, err error)
}
