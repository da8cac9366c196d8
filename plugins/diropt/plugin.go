package main

// plugin.go: the diropt plugin's description (sdk.Info), its parameters
// (the paper's knobs, two presets) and its per-rank variant over
// grid.NewDistributed.

import (
	"fmt"
	"maps"
	"runtime"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/grid"
	"github.com/bfsbench/bfsbench/plugins/diropt/dobfs"
)

// plugin is the sdk.Plugin of diropt.
type plugin struct{}

// Parameter names.
const (
	pPreset    = sdk.PresetParam
	pMode      = "mode"
	pAlpha     = "alpha"
	pBeta      = "beta"
	pWritePred = "writepred"
	pOrder     = "order"
	pTDBig     = "td_big"
	pBUSerial  = "bu_serial"
	pBUFirst   = "bu_first"
	pBUDeg     = "bu_deg"
	pBUBatch   = "bu_batch"
	pBUSkip    = "bu_skip"
	pTDLane    = "td_lane"
	pTDBatch   = "td_batch"
	pTDEager   = "td_eager"
	pLoopGraph = "loop_graph"
	pBUCompact = "bu_compact"
	pPDL       = "pdl"
	pGated     = "gated"
	pGateClock = "gate_clock"
	pDevEnd    = "dev_end"
	pDevClock  = "dev_clock"
	pResetStmp = "reset_stamp"
	pPredLines = "pred_lines"
	pL2Window  = "l2_window"
	pTDIDs     = "td_ids"
	pLeaves    = "leaves"
	pSplit     = "split"
	pSplitFrom = "split_from"
	pSplitTo   = "split_to"
	pSplitHelp = "split_help"
	pBUQueue   = "bu_queue"
	pDegPacked = "bu_deg_packed"
	pThreads   = "threads_per_block"
	pExchange  = "exchange"
)

// Presets. paper is the published configuration: Beamer et al.'s alpha =
// 14, beta = 24; Algorithm 3 as printed (every list gathered by its word's
// warp); a bottom-up step in which each thread scans its vertex's list
// alone; lists in id order. tuned, ours: top-down lists of 1024 entries or
// more cut in chunks for whole blocks, the warp taking over a bottom-up
// list after its lane's first 4 entries, lists ordered by decreasing
// neighbour degree (chosen on an H200 at scale 25 among td_big 64..2048,
// bu_serial 4..64 and alpha 14..120); each row's first CSC entry also in a
// dense array for the bottom-up level's first check (bu_first), and each
// row's degree in a byte, which level 3's check reads instead of the
// offsets (bu_deg), in one word with the first entry where a block has at
// most 2^26 columns (bu_deg_packed); the lanes'
// own bottom-up scans two entries at a time (bu_batch 2; 4 measured slower
// and is not offered); bottom-up warps that load 32 words of visited at
// once and skip the full ones (bu_skip); top-down levels with a lane per
// in_queue word, its lists of fewer than 32 entries alone (td_lane), four
// entries a lane at once (td_batch; 2 measured between 1 and 4); on 1×1
// the vertices of degree 1 left out of the levels and found reached or
// not by one pass after the last (leaves); the 1×1 device loop's kernels
// as programmatic dependent launches (pdl); on 1×1 the next search's
// reset and first levels queued behind a gate that its start opens
// (gated); on 1×1 the bitmaps an L2 window of persisting lines
// (l2_window); on 1×1 the top-down lists in id order apart from the
// degree-ordered bottom-up ones (td_ids); on 1×1 level 2 split by the
// degree D = 64 of the rows it finds, where its m_f lies between m_u / 60
// and m_u / 9 (split: the rows of lower degree marked top-down from the
// tails of the frontier's lists, the marked and the other rows explored
// bottom-up; dobfs/split.go); alpha 24, chosen with all of those but the split among 14..40 on the
// roots that its value changes at scales 25 and 26; beta 2000, so that a
// shrinking frontier's late levels stay bottom-up down to n / 2000
// vertices (with the bottom-up steps a late bottom-up level costs about
// what a top-down one of a few thousand vertices does). With
// those, bu_serial 2 and 8 measured slower than 4, td_lane 8 the same as 32, td_big 256 no
// faster than 1024, and a found vertex's degree read from a dense array
// instead of its two offsets the same (results/diropt-1000).
const (
	presetTuned = "tuned"
	presetPaper = "paper"
)

// infoGatedOff, in a case's info, says why its gated start was off though
// the parameter was on.
const infoGatedOff = "gated_off"

// infoL2Window, in a CUDA case's info on 1×1 with l2_window, says what of
// the bitmaps the L2 window holds.
const infoL2Window = "l2_window"

// Info implements sdk.Plugin.
func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:     "diropt",
		Paper:    "[Krajecki] §IV (Algorithms 2 and 3), with [Beamer]'s switching and [Checconi]'s 2D BFS (docs/papers.md)",
		Summary:  "direction-optimizing BFS: CSR and CSC per block, bitmap in_queue/out_queue/visited, top-down with a warp per in_queue word (Algorithm 3), bottom-up stopping at the first frontier neighbour, Beamer's alpha/beta switching; 2D R×C grid after Checconi et al. (row prefix chain for unique parents, row broadcast, column exchange)",
		Backends: []string{sdk.BackendCPU, sdk.BackendCUDA},
		Params: []sdk.Param{
			{Name: pPreset, Type: sdk.TypeString, Default: presetTuned, Choices: []string{presetTuned, presetPaper},
				Help: "paper: the published configuration (alpha 14, beta 24; every top-down list gathered by its word's warp as Algorithm 3; each bottom-up thread scans its list alone; lists in id order); tuned: long top-down lists spread over the grid, warp help on long bottom-up lists, lists ordered by neighbour degree. A parameter the config sets wins over its preset value"},
			{Name: pMode, Type: sdk.TypeString, Default: dobfs.ModeHybrid, Choices: []string{dobfs.ModeHybrid, dobfs.ModeTopDown, dobfs.ModeBottomUp},
				Help: "direction of each level: hybrid (Beamer et al.'s switching with alpha and beta), topdown (every level from in_queue, CSR) or bottomup (every level from the unvisited vertices, CSC)"},
			{Name: pAlpha, Type: sdk.TypeFloat, Default: 24.0, Presets: map[string]any{presetPaper: 14.0}, Min: sdk.Bound(1),
				Help: "hybrid: switch top-down to bottom-up when the frontier's edges m_f exceed the unexplored edges m_u / alpha while the frontier grows (paper: 14 as in Beamer et al.; the GAP benchmark suite uses 15; tuned: 24, which on an H200 at scales 25 and 26 sends bottom-up the level 2s that are faster so and keeps top-down at scale 25 those that are not)"},
			{Name: pBeta, Type: sdk.TypeFloat, Default: 2000.0, Presets: map[string]any{presetPaper: 24.0}, Min: sdk.Bound(1),
				Help: "hybrid: switch bottom-up to top-down when the frontier's vertices n_f fall below n / beta while the frontier shrinks (paper: 24 as in Beamer et al.; the GAP benchmark suite uses 18; tuned: 2000, which on an H200 keeps bottom-up the late levels of a shrinking frontier down to about 17 K vertices at scale 25, 34 K at 26: since the bottom-up steps such a level costs about as much as a top-down level of a few thousand vertices)"},
			{Name: pWritePred, Type: sdk.TypeString, Default: dobfs.WritePredEnd, Choices: []string{dobfs.WritePredEnd, dobfs.WritePredLevel},
				Help: "2D grids: when WritePred sends the predecessors of the vertices a rank assigned to their owners along the grid row: end (once, after the last level) or level (after every level's row exchange). Ignored on 1×1"},
			{Name: pOrder, Type: sdk.TypeString, Default: dobfs.OrderDegree, Presets: map[string]any{presetPaper: dobfs.OrderID}, Choices: []string{dobfs.OrderID, dobfs.OrderDegree},
				Help: "order of each bottom-up (CSC) list: id, or degree (neighbours of higher degree first, which are likelier to be in the frontier, so the scan stops sooner; in 2D the degree within the block)"},
			{Name: pTDBig, Type: sdk.TypeInt, Default: int64(1024), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0),
				Help: "CUDA top-down: lists of at least this many entries are gathered by the whole grid in a second kernel instead of by their word's warp (0: never, as Algorithm 3; otherwise at least 32). The CPU backend ignores it"},
			{Name: pBUSerial, Type: sdk.TypeInt, Default: int64(4), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0),
				Help: "CUDA bottom-up: list entries a lane scans alone before its warp scans the rest of the list 32 entries at a time (0: each lane scans its whole list alone). The CPU backend ignores it"},
			{Name: pBUFirst, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA bottom-up: keep each row's first CSC entry (its neighbour of highest degree with order = degree) also in a dense array, which a level's first check reads: 8 bytes a row (offsets and that entry) instead of the offsets and a 32-byte sector of the list. The CPU backend ignores it"},
			{Name: pBUDeg, Type: sdk.TypeInt, Default: int64(3), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0),
				Help: "CUDA bottom-up with bu_first and bu_skip (without either, unused): keep each row's degree also in a byte (255 for 255 or more), and run level bu_deg (its index, the root's level 0) with a kernel whose first check reads it instead of the CSC offsets, 5 bytes a row instead of 8; a row that misses with more entries, or hits with 255, then reads its offsets. Level 3 follows a large level 2, and its unvisited rows nearly all hit at their first check; on a level whose rows mostly miss (level 2) the offsets' extra round trip measured slower (0: no level). The CPU backend ignores it"},
			{Name: pBUBatch, Type: sdk.TypeInt, Default: int64(2), Presets: map[string]any{presetPaper: int64(1)}, Min: sdk.Bound(1), Max: sdk.Bound(2),
				Help: "CUDA bottom-up: list entries a lane loads at once in its own scan, with the entries of its four lists together, before testing their in_queue bits together (1: one entry at a time, each waiting for the last, as the paper's scan; 2: twice the loads in flight, and the warp's help 64 entries a step). The CPU backend ignores it"},
			{Name: pBUSkip, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA bottom-up: a warp loads 32 words of visited at once (one 128-byte load) and explores only the words with an unvisited row, four at a time, so that a late level, whose rows are nearly all visited, costs one load per 32 words (false: four words at a time, each explored, as the paper's thread per vertex). The CPU backend ignores it"},
			{Name: pTDLane, Type: sdk.TypeInt, Default: int64(32), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0), Max: sdk.Bound(1024),
				Help: "CUDA top-down: a lane takes a word of in_queue (four words a lane at once) and expands its lists of fewer than this many entries alone, every lane of the warp at once, the warp reading the longer ones together (0: a warp per word, its lists one after another, as Algorithm 3). The CPU backend ignores it"},
			{Name: pTDBatch, Type: sdk.TypeInt, Default: int64(4), Presets: map[string]any{presetPaper: int64(1)}, Min: sdk.Bound(1), Max: sdk.Bound(4),
				Help: "CUDA top-down with td_lane: list entries a lane reads at once (1 or 4), alone or in its warp's step (32·td_batch entries), their visited tests and atomics issued together (1: one entry at a time, each waiting for the last; 2 measured between them and is not offered). The CPU backend ignores it"},
			{Name: pTDEager, Type: sdk.TypeInt, Default: int64(3), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0), Max: sdk.Bound(1 << 30),
				Help: "CUDA, device loop: the first td_eager levels (tuned 3: levels 0 to 2, whose frontier is at most two steps from the root) claim each top-down entry with the atomicOr at once, its degree loaded beside it, without the visited test before it (Algorithm 3 line 36), so that a step of a list waits on two round trips instead of four: in those levels most entries are new, and in levels 0 and 1 a few lists, each read by one warp or block in a chain of steps, are the level's time; on one H200 at scale 25 level 1 took 16 % less and a top-down level 2 9 % less (results/diropt-1000, eager-25; 0: the test first on every level, as the paper's). The CPU backend ignores it"},
			{Name: pBUCompact, Type: sdk.TypeInt, Default: int64(256), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0), Max: sdk.Bound(1024),
				Help: "CUDA bottom-up with bu_skip (without it, unused): a chunk of 32 words of visited with at most this many unvisited rows is explored a lane a row, 128 rows a round, instead of a warp per group of four words, each group two round trips for the one or two rows a late level leaves in it (0: never; 1024, every chunk, measured slower). The CPU backend ignores it"},
			{Name: pPDL, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA, 1×1 device loop: each exploration kernel is a programmatic dependent launch (Hopper's griddepcontrol): its blocks are scheduled while the kernel before it runs and wait on the GPU for its end, instead of being launched after it (false: plain launches, as the paper's). The CPU backend ignores it"},
			{Name: pLoopGraph, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA with dev_end (else unused), 1×1 device loop: the next search's queued launches (the gate's kernel, the reset, the first levels, each level's launch of both directions) are captured as one CUDA graph, their programmatic dependent launches as programmatic edges, and launched as one graph, kept and updated from one search to the next; on an H200 such a chain of launches took 2.6-2.7 µs a level against 3.3-3.4 on the stream with 20 µs of work a level, 3.2 against 7.3-8.1 with none (scripts/level-launch.cu) (false: launched one by one on the stream). The CPU backend ignores it"},
			{Name: pGated, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA, 1×1 device loop: once a search's parents are read, the next search's reset and first levels are queued on the stream behind a wait on pinned memory; its start records the search's clock, then opens the wait with the root, so that the GPU does not wait for the host's first runtime calls after the validation, which are several times slower than warm (false: a search enqueues its launches after its start). The queued launches read the root only once it is given. Off where another plugin process searches on the GPU in between (bfsbench ab), whose work would wait for a context switch. The CPU backend ignores it"},
			{Name: pGateClock, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA with gated (else unused): the search's start event is queued on the GPU behind the gate too, so that the clock starts once the GPU has the root, not when the host's call to record it is made (after the validation that call took about 23 µs of the host, part of which the clock counted; results/diropt-1000); the reset then follows the start event as a plain launch. The CPU backend ignores it"},
			{Name: pDevEnd, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA with gate_clock and reset_stamp (else unused), 1×1 device loop: a gated search is timed by the device's clock (%globaltimer) from the gate's reading of the root to the decision of the level that ends it, after the leaves' pass, where the parent array is complete in device memory (the design's end of a search), instead of from the start event behind the gate to an end event the host records once it sees the search's end flag (its wait and its call counted); with no start event the reset is a programmatic dependent launch behind the gate again. The CPU backend ignores it"},
			{Name: pDevClock, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA, 1×1 device loop: the levels after level 0 are timed by the device's clock (%globaltimer) at each level's decision instead of a CUDA event after each, so that no event stands between two launches and, with pdl, every launch after level 0's is a programmatic dependent one (an event between two kernels ends the dependence); level 0 and the search's clock are still CUDA events, and the end is the search's time less its levels' (false: an event after each level). The CPU backend ignores it"},
			{Name: pResetStmp, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA with dev_clock (else unused), 1×1 device loop: level 0 too is timed by the device's clock, from the reset's first instruction to its decision, so that no CUDA event follows level 0 and level 1's first launch is a programmatic dependent one as well; the search's clock is still its start and end events, and the part before the reset's first instruction (the start event's step and the reset's launch) goes to the end (false: level 0 ends with a CUDA event). The CPU backend ignores it"},
			{Name: pPredLines, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA, 1×1 with bu_queue (else unused): level bu_queue's bottom-up launch writes whole the 32-byte sectors of the predecessors that hold no vertex visited before it but isolated ones and leaves (a vertex found gets its parent, any other its first CSC entry: a leaf's one neighbour; the others' are never read or are written again when found), so that no sector is read from DRAM to merge a part of it; and where bu_deg's packed level is the next (tuned: levels 2 and 3), a vertex found there at its first entry in such a sector writes nothing, its predecessor already that entry (false: each vertex found writes its own predecessor). The CPU backend ignores it"},
			{Name: pL2Window, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA, 1×1: the bitmaps (visited and the three queues, in one allocation) are an L2 access-policy window of persisting lines on the search's stream, where all of it fits a set-aside of 16 MiB (scale 25 and below; larger windows measured slower, and get none: the case info's l2_window says which), so that the lists and offsets streamed through L2 do not evict them (false: every line of L2 alike, as the paper's). The copy bandwidth in the case info is measured with the set-aside given back. The CPU backend ignores it"},
			{Name: pTDIDs, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "1×1 grids with order = degree: the top-down lists (CSR) are kept in id order in arrays of their own beside the degree-ordered bottom-up lists (CSC), as the paper stores both (§IV-C), so that the neighbours a warp expands together, dense in ids on a hub's list, share the sectors of their visited words and predecessors; the two orders share one offsets array (a vertex's list has the same length in both); 4 bytes an entry more on the host and the GPU (false: one copy, the CSR being the degree-ordered CSC). 2D grids' CSR is in id order either way"},
			{Name: pLeaves, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "1×1 grids: the vertices of degree 1 (leaves) are marked visited with the isolated ones at the reset, so that no level tests, claims or scans them; their predecessor, their one neighbour, is set once, and one pass after the last level, inside the timed search, unmarks those whose neighbour the search did not reach (dobfs/leaves.go). Ignored on 2D grids"},
			{Name: pSplit, Type: sdk.TypeInt, Default: int64(64), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0),
				Help: "1×1 grids with order = degree, td_lane, bu_first and bu_skip, bu_deg not 2 (without any, unused, on the CPU backend too, so that both run the same levels): the degree bound D of the split level (dobfs/split.go): level 2, where its m_f lies in the window of split_from and split_to, marks top-down its rows of degree below D that have a frontier neighbour, each frontier vertex reading only the tail of its list (its neighbours of degree below D, last in degree order), then explores bottom-up the marked rows and those of degree D or more, skipping the other rows of degree below D; it finds the vertices and m_f the plain level would (0: no split level). Ignored on 2D grids"},
			{Name: pSplitFrom, Type: sdk.TypeFloat, Default: 60.0, Min: sdk.Bound(1),
				Help: "with split: level 2 runs split where its m_f exceeds m_u / split_from (below, the plain top-down level reads fewer entries than the split's bottom-up side; tuned: 60, about 17 M frontier edges at scale 25, chosen with split_to on an H200 at scale 25 from the roots of results/diropt-1000's split-25, where every level 2 of 20.8 to 101.7 M frontier edges was faster split and those of 14.4 M and 112.5 M slower)"},
			{Name: pSplitTo, Type: sdk.TypeFloat, Default: 9.0, Min: sdk.Bound(1e-3),
				Help: "with split: level 2 runs split where its m_f is at most m_u / split_to (above, the tails, about 15 % of m_f, outweigh what the plain bottom-up level reads; tuned: 9, about 104 M frontier edges at scale 25)"},
			{Name: pSplitHelp, Type: sdk.TypeInt, Default: int64(32), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0), Max: sdk.Bound(32),
				Help: "CUDA with split, bu_batch 2 and bu_serial > 0 (otherwise unused: with bu_batch 1 every level's help steps are 32 entries already, and bu_serial 0 has no help): entries the warp's help loads a step on the split level, 32 (the lanes' own scan still 2 entries at once) or 0, as on every bottom-up level (32·bu_batch). Tuned: 32, faster on the split level 2s of its window at scale 25 on an H200 (results/diropt-1000, help-25). The CPU backend ignores it"},
			{Name: pBUQueue, Type: sdk.TypeInt, Default: int64(2), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0),
				Help: "CUDA bottom-up with bu_first, bu_skip, bu_batch 2 and bu_serial > 0 (otherwise unused): the level (its index, the root's level 0; bu_deg's level runs bu_deg's instance) whose warps check the first entries of each group of four words' rows and queue the rows that missed with more entries in shared memory (3 KB a warp), scanning them once 128 are queued, a lane a row (the lanes' own scans and the warp's help as before), instead of scanning each group's before the next (0: no level). Tuned: 2, the bottom-up level 2s after a large frontier 15 % faster at scale 25 on an H200 (results/diropt-1000, queue2-25); on every plain bottom-up level the later levels were slower (queue-25). The CPU backend ignores it"},
			{Name: pDegPacked, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "CUDA with bu_deg, bu_batch 2 and bu_serial > 0 (otherwise unused), on a block of at most 2^26 columns (scale 26 on one GPU; past it the degree byte): level bu_deg reads each row's first entry and degree from one word (the entry in 26 bits, the degree saturated at 63 in 6) instead of the dense first entries and the degree byte, one sector a row instead of two at level 3's density. Tuned: on, level 3 5 % faster (58 of 64 roots, median time ratio 0.951) at scale 25 on an H200 (results/diropt-1000, packed-25). The CPU backend ignores it"},
			{Name: pThreads, Type: sdk.TypeInt, Default: int64(256), Min: sdk.Bound(64), Max: sdk.Bound(1024), Multiple: 32,
				Help: "CUDA: threads per block (a multiple of 32)"},
			{Name: pExchange, Type: sdk.TypeString, Default: comm.ExchangeAuto, Choices: comm.ExchangeModes,
				Help: comm.ExchangeHelp + " (diropt enqueues the device path on its compute stream; the CPU backend always exchanges through the host)"},
		},
		MultiRank: true,
		// Rough linear estimates (bytes), summed over the ranks: per input
		// edge the block as CSR and CSC (both directions, 4 bytes each,
		// twice) and the partition's exchange and sort of (row, column)
		// pairs (32); per vertex, for a grid of a few ranks, the offsets,
		// the bitmaps, the predecessors, the row exchange's pairs and the
		// parents; per rank the staging buffers. The CUDA backend holds the
		// block, bitmaps, predecessors and parents on the device too, the
		// dense first entries (bu_first, 4 bytes a vertex), the degree
		// bytes (bu_deg, 1) and the leaves' bitmaps and groups (about 2
		// bytes a vertex on Graph500's graphs).
		Memory: map[string]sdk.Memory{
			sdk.BackendCPU:  {HostPerVertex: 64, HostPerEdge: 48, HostPerRank: 16 << 20},
			sdk.BackendCUDA: {HostPerVertex: 64, HostPerEdge: 48, HostPerRank: 16 << 20, DevicePerVertex: 55, DevicePerEdge: 16, DevicePerRank: 64 << 20},
		},
	}
}

// options are one case's parameters, as the SDK resolved them.
type options struct {
	dobfs.Options
	Order     string
	TDBig     int64
	BUSerial  int64
	BUFirst   bool
	BUDeg     int64
	BUBatch   int64
	BUSkip    bool
	TDLane    int64
	TDBatch   int64
	TDEager   int64
	LoopGraph bool
	BUCompact int64
	PDL       bool
	Gated     bool
	GateClock bool
	DevEnd    bool
	DevClock  bool
	ResetStmp bool
	PredLines bool
	L2Window  bool
	TDIDs     bool
	SplitHelp int64
	BUQueue   int64
	DegPacked bool
	Threads   int
	Workers   int
	Exchange  string // the exchange parameter, before grid.SelectExchange
}

func parseOptions(cfg sdk.Config) (options, error) {
	o := options{
		Options: dobfs.Options{Mode: cfg.String(pMode), Alpha: cfg.Float(pAlpha), Beta: cfg.Float(pBeta),
			WritePred: cfg.String(pWritePred), Leaves: cfg.Bool(pLeaves),
			Split: cfg.Int(pSplit), SplitFrom: cfg.Float(pSplitFrom), SplitTo: cfg.Float(pSplitTo)},
		Order: cfg.String(pOrder), TDBig: cfg.Int(pTDBig), BUSerial: cfg.Int(pBUSerial), BUFirst: cfg.Bool(pBUFirst), BUDeg: cfg.Int(pBUDeg),
		BUBatch: cfg.Int(pBUBatch), BUSkip: cfg.Bool(pBUSkip), TDLane: cfg.Int(pTDLane), TDBatch: cfg.Int(pTDBatch), TDEager: cfg.Int(pTDEager), LoopGraph: cfg.Bool(pLoopGraph), BUCompact: cfg.Int(pBUCompact),
		PDL: cfg.Bool(pPDL), Gated: cfg.Bool(pGated), GateClock: cfg.Bool(pGateClock), DevEnd: cfg.Bool(pDevEnd), DevClock: cfg.Bool(pDevClock), ResetStmp: cfg.Bool(pResetStmp), PredLines: cfg.Bool(pPredLines), L2Window: cfg.Bool(pL2Window), TDIDs: cfg.Bool(pTDIDs), SplitHelp: cfg.Int(pSplitHelp), BUQueue: cfg.Int(pBUQueue), DegPacked: cfg.Bool(pDegPacked), Threads: int(cfg.Int(pThreads)), Exchange: cfg.String(pExchange),
	}
	// gate_clock is a form of the gated start, unused without it,
	// reset_stamp one of dev_clock, and dev_end one of both.
	if !o.Gated {
		o.GateClock = false
	}
	if !o.DevClock {
		o.ResetStmp = false
	}
	if !o.GateClock || !o.ResetStmp {
		o.DevEnd = false
	}
	// loop_graph captures dev_end's gated starts, unused without it.
	if !o.DevEnd {
		o.LoopGraph = false
	}
	if o.TDBig > 0 && o.TDBig < 32 {
		return options{}, fmt.Errorf("%s = %d: want 0 (off) or at least 32", pTDBig, o.TDBig)
	}
	if o.TDBatch != 1 && o.TDBatch != 4 {
		return options{}, fmt.Errorf("%s = %d: want 1 or 4", pTDBatch, o.TDBatch)
	}
	// bu_queue is an instance of bu_first, bu_skip and bu_batch 2 with
	// the warp's help, unused (0) without them, and on bu_deg's level,
	// which runs bu_deg's instance.
	if !o.BUFirst || !o.BUSkip || o.BUBatch != 2 || o.BUSerial == 0 || o.BUQueue == dobfs.DegreeLevel(o.BUDeg, o.BUFirst, o.BUSkip) {
		o.BUQueue = 0
	}
	// pred_lines writes on bu_queue's level, unused (false) without it.
	if o.BUQueue == 0 {
		o.PredLines = false
	}
	if dobfs.DegreeLevel(o.BUDeg, o.BUFirst, o.BUSkip) == 0 || o.BUBatch != 2 || o.BUSerial == 0 {
		o.DegPacked = false
	}
	if o.SplitHelp != 0 && o.SplitHelp != 32 {
		return options{}, fmt.Errorf("%s = %d: want 0 or 32", pSplitHelp, o.SplitHelp)
	}
	// split_help 32 is a kernel instance of bu_batch 2 with the warp's
	// help; with bu_batch 1 the help's steps are 32 entries on every
	// level, and bu_serial 0 has no help, so it is unused there.
	if o.BUBatch != 2 || o.BUSerial == 0 {
		o.SplitHelp = 0
	}
	// The split level needs the lists by degree (a list's tail is its
	// neighbours of low degree only in that order) and, on the GPU, the
	// kernels it is built into; without them it is unused on either
	// backend, so that both run the same levels.
	// bu_deg 2 names level 2 too, whose kernel is the split's.
	if o.Order != dobfs.OrderDegree || o.TDLane == 0 || !o.BUFirst || !o.BUSkip || dobfs.DegreeLevel(o.BUDeg, o.BUFirst, o.BUSkip) == dobfs.SplitLevel {
		o.Split = 0
	}
	return o, nil
}

// New implements sdk.Plugin: every grid, 1×1 included, runs through
// grid.NewGridVariant (goroutine ranks, or one rank per MPI process); the
// level loop takes its no-exchange path on 1×1.
func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	o, err := parseOptions(cfg)
	if err != nil {
		return nil, err
	}
	switch cfg.Backend {
	case sdk.BackendCPU, sdk.BackendCUDA:
	default:
		return nil, fmt.Errorf("diropt has no backend %q (it has cpu, cuda)", cfg.Backend)
	}
	return grid.NewGridVariant(cfg, func(g *comm.Grid, cfg sdk.Config) sdk.RankVariant { return newRankVariant(g, cfg, o) })
}

// rankVariant is one rank's sdk.RankVariant.
type rankVariant struct {
	grid.RankBase[*dobfs.Rank]
	opt options
	n   int64
}

func newRankVariant(g *comm.Grid, cfg sdk.Config, o options) *rankVariant {
	if cfg.Launcher != sdk.LauncherMPIRun {
		// In-process ranks share the machine's cores.
		o.Workers = max(1, runtime.GOMAXPROCS(0)/(g.R*g.C))
	}
	return &rankVariant{RankBase: grid.RankBase[*dobfs.Rank]{Cfg: cfg, Grid: g}, opt: o}
}

// Construct builds the rank's block through the shared 2D partition, in CSR
// and CSC, and sets up its backend (Graph500 kernel 1).
func (v *rankVariant) Construct(w *sdk.Workload) error {
	part, err := partition.Build2D(v.Grid, w.NVertices, w.Edges)
	if err != nil {
		return err
	}
	b, err := dobfs.BuildBlock(part, v.opt.Order, v.opt.TDIDs, v.opt.Workers)
	if err := comm.Agree(v.Grid.World, err); err != nil {
		return err
	}
	part = nil
	v.n = w.NVertices
	if v.Cfg.Backend == sdk.BackendCUDA {
		dev, xch, err := v.PlaceCUDA(dobfs.DeviceCount, v.opt.Exchange)
		if err != nil {
			return err
		}
		// A gated start holds the GPU between searches (GateKernel waits
		// for the next root): where another process searches on it in
		// between (bfsbench ab), its work would wait for a context switch.
		gated := v.opt.Gated && !v.Cfg.Shared
		v.Rank, v.Device, err = dobfs.NewCUDARank(v.Grid, b, v.opt.Options, dobfs.CUDAOptions{
			Device: dev, ThreadsPerBlock: v.opt.Threads, TDBig: v.opt.TDBig, BUSerial: v.opt.BUSerial,
			BUFirst: v.opt.BUFirst, BUDeg: v.opt.BUDeg, BUBatch: v.opt.BUBatch, BUSkip: v.opt.BUSkip, TDLane: v.opt.TDLane, TDBatch: v.opt.TDBatch,
			BUCompact: v.opt.BUCompact, PDL: v.opt.PDL, Gated: gated, GateClock: v.opt.GateClock, DevEnd: v.opt.DevEnd, DevClock: v.opt.DevClock, ResetStamp: v.opt.ResetStmp, PredLines: v.opt.PredLines, L2Window: v.opt.L2Window, SplitHelp: v.opt.SplitHelp, BUQueue: v.opt.BUQueue, BUDegPacked: v.opt.DegPacked, TDEager: v.opt.TDEager, LoopGraph: v.opt.LoopGraph, Exchange: xch})
		if err != nil {
			return err
		}
		info, err := caseInfo(v.Grid, b, v.Rank.Edges(), w.NEdges)
		maps.Copy(v.Info, info)
		if v.opt.Gated && !gated {
			v.Info[infoGatedOff] = "off: the GPU is shared with another plugin process (bfsbench ab)"
		}
		return err
	}
	if v.Rank, err = dobfs.NewCPURank(v.Grid, b, v.opt.Options, v.opt.Workers); err != nil {
		return err
	}
	v.Info, err = caseInfo(v.Grid, b, v.Rank.Edges(), w.NEdges)
	return err
}

// BFS implements sdk.RankVariant.
func (v *rankVariant) BFS(root int64) (sdk.Search, error) {
	if !v.Built() {
		return sdk.Search{}, fmt.Errorf("bfs before construct")
	}
	res, err := v.Rank.BFS(root)
	if err != nil {
		return sdk.Search{}, err
	}
	return sdk.Search{TimeS: res.TimeS, Levels: res.Levels, Phases: res.Phases,
		BoundBytes: searchBoundBytes(res.Reached, v.n)}, nil
}

// CaseInfo implements sdk.Informer. For the CUDA backend it adds, measured
// here (after the timed construction), the device's copy bandwidth and the
// measured floor (floorReps passes of FloorKernel, the median).
func (v *rankVariant) CaseInfo() map[string]any {
	if v.Cfg.Backend == sdk.BackendCUDA && v.Info != nil && v.Info[sdk.InfoCopyBandwidthGBs] == nil {
		v.NoteCopyBandwidth(func(dev int) (float64, error) {
			bw, err := v.Rank.CopyBandwidth(dev, 1<<30, 10)
			return bw.CopyGBs, err
		})
		if v.opt.L2Window && v.Grid.R*v.Grid.C == 1 {
			if b, err := v.Rank.L2Window(); err != nil {
				v.Info[infoL2Window] = err.Error()
			} else if b == 0 {
				v.Info[infoL2Window] = "none: the bitmaps exceed the set-aside the step allows (SetL2Window in cuda/diropt.cu)"
			} else {
				v.Info[infoL2Window] = fmt.Sprintf("%.2f MiB of bitmaps persisting", float64(b)/(1<<20))
			}
		}
		if s, err := v.Rank.Floor(floorReps); err == nil {
			v.Info[sdk.InfoFloorTimeS] = s
			v.Info["floor_formula"] = floorFormula(v.opt.BUFirst, dobfs.DegreeLevel(v.opt.BUDeg, v.opt.BUFirst, v.opt.BUSkip) > 0, v.opt.Leaves && v.Grid.R*v.Grid.C == 1)
		} else {
			v.Info["floor_error"] = err.Error()
		}
	}
	return v.Info
}
