package mgbfs

// engine.go declares the backend that the level loop of search.go drives.
// The search data (Label, Visited, Vector, the queues) stays inside the
// engine, in device memory for CUDA; the loop sees only queue lengths,
// degree sums and phase times.

// Values of Options' string fields (the plugin's parameters).
const (
	GatherMerrill = "merrill"           // CTA + warp + scan gathering (Merrill et al.)
	GatherThread  = "thread_per_vertex" // one thread per frontier vertex

	PeerCopy   = "copy"   // peer copies into receive buffers (UVA-MCP)
	PeerAccess = "access" // direct loads from the other GPUs' queues (UVA-MAP)

	ExpandScatter  = "scatter_parents" // scattering parents into Vector (the paper's Fig. 3)
	ExpandContract = "expand_contract" // Merrill's edge queue, then a contraction

	ResetMemset = "memset" // Vector ← -1 at every level (Algorithm 2)
	ResetUpdate = "update" // UpdateLabels resets every entry it reads

	HugeBlock = "block" // every list expanded by one CTA at most (Merrill et al.)
	HugeGrid  = "grid"  // lists of bfsb::kHuge edges or more in chunks over the GPU
)

// Options are the algorithm's settings, shared by both backends.
type Options struct {
	Gather       string
	Overlap      bool // CUDA: peer copies on a second stream, overlapped with the gathers
	Peer         string
	Expand       string
	VisitedCheck bool // the scatter skips neighbours already visited
	VectorReset  string
	HugeLists    string // CUDA, gather = merrill, scatter_parents
}

// Phase names (results.LevelPhase.Times keys), in seconds, each the
// largest over the partitions.
const (
	PhaseGather   = "gather"    // GatherNeighbors' kernels (expand_contract: the expansion)
	PhaseUpdate   = "update"    // UpdateLabels (expand_contract: the contraction)
	PhaseConvert  = "convert"   // ConvertVtoQ
	PhasePeerCopy = "peer_copy" // the peer copies of the other partitions' queues
	PhaseWait     = "wait"      // the compute stream waiting for copies between gathers
	PhaseReset    = "reset"     // Vector ← -1 at the level's start
)

// Counter names (results.LevelPhase.Bytes keys).
const (
	CountEdgesExamined = "edges_examined" // adjacency entries gathered, all partitions
	BytesPeer          = "peer_bytes"     // queue bytes received by peer copy or peer access
)

// Phase slots of LevelResult.Times (cuda/merrill.h's MG_T_*).
const (
	tGather = iota
	tUpdate
	tConvert
	tCopy
	tWait
	tReset
	nTimes
)

var phaseNames = [nTimes]string{PhaseGather, PhaseUpdate, PhaseConvert, PhasePeerCopy, PhaseWait, PhaseReset}

// LevelResult is what one level reports, per partition.
type LevelResult struct {
	NextQLen  []int64           // length of each partition's next queue
	NextEdges []int64           // the sum of the full degrees of its vertices
	Times     [][nTimes]float64 // phase times in seconds
}

// Engine is the backend of one search state over all partitions. Calls
// come from one goroutine; each returns when its work is complete.
type Engine interface {
	// Reset is Algorithm 2's initialisation: Label ← -1, Visited ← 0
	// everywhere; the root's owner enqueues it, Label[root] ← root.
	Reset(root int64) error
	// Level runs one level on every partition: partition i gathers the
	// queues order[i] (its own first) of lengths qlen, then UpdateLabels
	// and ConvertVtoQ.
	Level(order [][]int, qlen []int64) (LevelResult, error)
	// Parents copies every partition's Label into dst (length N).
	Parents(dst []int64) error
	// Close releases the engine's memory.
	Close() error
}
