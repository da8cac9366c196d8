package bfs2d

// engine.go declares the per-rank compute backend of Algorithm 2 ([1]
// §3.2, see doc.go): the CPU backend (cpu_engine.go, Go kernels) and the CUDA backend
// (cuda_engine.go, kernels in ../cuda) implement it, and the rank driver
// (rank.go) runs the same search loop, exchanges and phase timing over
// either. The search data (level, predecessor, bitmap, queues) stays inside
// the engine — in device memory for CUDA, "never copied back to the host"
// (§3.4) — and only the exchanged vertex messages cross this interface, as
// host buffers (host-staged exchanges, §3.2: "the CPUs acting as network
// coprocessors").

import "fmt"

// engine is one rank's backend. Calls come from one goroutine, in the order
// of Algorithm 2; every call returns when its work is complete.
type engine interface {
	// Reset is Algorithm 2 lines 1-10: levels, predecessors and bitmap
	// cleared; when rootRow ≥ 0 (the root is an own vertex, at that local
	// row) it is marked and becomes the frontier. It returns the frontier
	// size (0 or 1).
	Reset(rootRow int64) (int, error)

	// FrontierMessage encodes the current own frontier (local columns
	// i·n+o) as an expand message of offsets o into buf (long enough for
	// the mode's largest message) and returns the message.
	FrontierMessage(mode string, buf []uint32) ([]uint32, error)

	// LoadFrontier builds all_front: the own frontier plus the frontiers
	// received from the grid column, msgs[r] from grid row r (nil at this
	// rank's own row). It is the receiving half of the expand exchange.
	LoadFrontier(msgs [][]uint32) error

	// Expand runs expand_frontier (Algorithm 3) at BFS level lvl over
	// all_front. It returns the number of vertices found per grid column
	// (dst_cnt) and the number of edges scanned.
	Expand(lvl int32) (counts []uint32, edges int64, err error)

	// FoldMessage encodes dst_verts[m] (local rows m·n+o, owned by grid
	// column m) as a fold message of offsets o into buf.
	FoldMessage(m int, mode string, buf []uint32) ([]uint32, error)

	// LoadFold stores the vertices received in the fold exchange, msgs[m]
	// from grid column m (nil at this rank's own column), for Update.
	LoadFold(msgs [][]uint32) error

	// Update runs update_frontier (§3.5) at level lvl over what LoadFold
	// stored and returns the size of the new own frontier (found locally
	// by Expand plus added here).
	Update(lvl int32) (int, error)

	// RemoteQueries lists the own vertices (as local rows) whose
	// predecessor is held by a peer P(i,m) (those added by Update), grouped
	// by m in increasing order: counts[m] of them for grid column m. The
	// rows may live in a buffer of the engine, valid until the next
	// RemoteQueries.
	RemoteQueries() (rows []uint32, counts []int, err error)

	// LookupPreds answers a peer's queries: the predecessor (a local
	// column of this rank's column block) of each local row. The answers
	// may live in a buffer of the engine, valid until the next LookupPreds.
	LookupPreds(rows []uint32) ([]uint32, error)

	// Finalize completes the own parents array: predecessors found
	// locally become global ids; answers[k] is the local column, in the
	// grid column that held it, of the predecessor of queries[k] (the rows
	// and counts RemoteQueries returned).
	Finalize(queries []uint32, counts []int, answers []uint32) error

	// Parents copies the own block's parents (global ids, -1 unreached)
	// into dst (length: the own block's size).
	Parents(dst []int64) error

	// Levels copies the own block's levels (-1 unreached) into dst.
	Levels(dst []int32) error

	// Close releases the engine's memory.
	Close() error
}

// FloorMode is a pass of the test floor (a2d_test_floor in ../cuda/atomic2d.h).
type FloorMode int

// The test-floor passes: row indices only; row indices and bitmap tests,
// 4 consecutive edges per lane (ExpandKernel's order); the same with
// consecutive edges across a warp's lanes.
const (
	FloorStream FloorMode = iota
	FloorThread
	FloorWarp
)

// String names the mode as reports do.
func (m FloorMode) String() string {
	switch m {
	case FloorStream:
		return "stream"
	case FloorThread:
		return "thread"
	case FloorWarp:
		return "warp"
	}
	return fmt.Sprintf("FloorMode(%d)", int(m))
}

// floorMeter is an engine that can time the test floor (the CUDA backend).
type floorMeter interface {
	TestFloor(mode FloorMode, reps int) (ms float64, unvisited uint64, err error)
}

// hostAllocator is an engine that provides the host buffers of the
// exchanges (the CUDA backend: pinned memory, freed by Close, so that the
// messages' copies to and from the device run at the link's speed). Other
// engines' buffers come from make.
type hostAllocator interface {
	HostAlloc(words int) ([]uint32, error)
}
