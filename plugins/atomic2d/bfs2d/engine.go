package bfs2d

// engine.go declares the per-rank compute backend of Algorithm 2 (seed 000
// §3.2): the CPU backend (cpu_engine.go, Go kernels) and the CUDA backend
// (cuda_engine.go, kernels in ../cuda) implement it, and the rank driver
// (rank.go) runs the same search loop, exchanges and phase timing over
// either. The search data (level, predecessor, bitmap, queues) stays inside
// the engine — in device memory for CUDA, "never copied back to the host"
// (§3.4) — and only the exchanged vertex messages cross this interface, as
// host buffers (host-staged exchanges, §3.2: "the CPUs acting as network
// coprocessors").

// engine is one rank's backend. Calls come from one goroutine, in the order
// of Algorithm 2; every call returns when its work is complete.
type engine interface {
	// SetEdgesPerThread changes k of §3.4.1 for the following searches.
	SetEdgesPerThread(k int) error

	// SetVisitedTest selects the load of the visited-bitmap test before
	// the atomicOr for the following searches: through L2 (__ldcg) when
	// l2, else a plain load. The CPU backend ignores it (its loads are
	// sync/atomic loads).
	SetVisitedTest(l2 bool) error

	// SetAppend selects how the expansion reserves output queue slots for
	// the following searches: one global atomic per block round when
	// block, else one per warp. The CPU backend ignores it.
	SetAppend(block bool) error

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

	// RemoteQueries lists, per grid column m, the own vertices (as local
	// rows) whose predecessor is held by P(i,m): those added by Update.
	RemoteQueries() ([][]uint32, error)

	// LookupPreds answers a peer's queries: the predecessor (a local
	// column of this rank's column block) of each local row.
	LookupPreds(rows []uint32) ([]uint32, error)

	// Finalize completes the own parents array: predecessors found
	// locally become global ids; answers[m][k] is the local column (in
	// grid column m) of the predecessor of the k-th vertex of
	// RemoteQueries()[m].
	Finalize(queries, answers [][]uint32) error

	// Parents copies the own block's parents (global ids, -1 unreached)
	// into dst (length: the own block's size).
	Parents(dst []int64) error

	// Levels copies the own block's levels (-1 unreached) into dst.
	Levels(dst []int32) error

	// Close releases the engine's memory.
	Close() error
}
