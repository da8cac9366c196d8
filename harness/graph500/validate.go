// This file implements the Graph500 BFS validator and the TEPS edge count,
// after the reference v3 validator (graph500/graph500 3.0.1, src/validate.c,
// validate_result) with one rule added: the parent pointers must contain no
// cycle anywhere, including among vertices outside the root's component,
// which the reference does not detect.
//
// The validator needs no graph structure beyond the edge list: levels come
// from the parent array alone (pointer jumping, below), and the edge rules
// and the tree-edge check are one parallel pass over the edge list, as the
// reference's own edge pass does (it marks a vertex "confirmed" when it finds
// the edge to its parent). That pass reads, for each end of an edge, one
// entry of a per-vertex array holding the vertex's level and a byte hash of
// its parent: two bytes per vertex where the tree has at most 255 levels (a
// Kronecker search has about ten; 8 bytes for deeper trees). An edge
// (child, p) one level apart is looked up in the parent array only where
// p's hash matches the child's entry, so the pass reads the parent array
// about once per reached vertex instead of for every unconfirmed edge
// between adjacent levels. It reads the edges from a copy grouped by the
// blocks of their ends (blocked.go), so that the entries it reads lie in
// two blocks small enough for a core's cache, not all over the array.
// Scratch memory is 10 bytes per vertex (18 for a deeper tree: its 8-byte
// entries beside the 2-byte ones), a one-bit-per-vertex bitmap, reused
// across searches, and the grouped copy, 8 bytes per input tuple, made
// once per graph.

package graph500

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Validation rule names, as reported in ValidationError.Rule.
//
// Levels are defined as the depth of a vertex along its parent pointers, so
// the reference's rule "levels differ by exactly one along tree edges" holds
// by construction and has no rule of its own here; its other half, that a
// tree edge is an edge of the graph, is RuleTreeEdgeInGraph.
const (
	// RuleLength: the parent array has one entry per vertex.
	RuleLength = "parent-array-length"
	// RuleParentRange: every parent is -1 (unreached) or a vertex id.
	RuleParentRange = "parent-in-range"
	// RuleRoot: the root is a vertex and is its own parent.
	RuleRoot = "root-is-own-parent"
	// RuleNoCycle: the parent pointers contain no cycle (other than the
	// root's self-loop), anywhere in the array.
	RuleNoCycle = "no-cycle"
	// RuleReachesRoot: the parent chain of every reached vertex ends at the
	// root (not at an unreached vertex).
	RuleReachesRoot = "parent-chain-reaches-root"
	// RuleTreeEdgeInGraph: for every reached v other than the root,
	// (v, parent[v]) is an edge of the input.
	RuleTreeEdgeInGraph = "tree-edge-in-graph"
	// RuleEdgeLevels: the levels of the two ends of every input edge
	// differ by at most one.
	RuleEdgeLevels = "edge-levels-differ-by-at-most-one"
	// RuleEdgeBothOrNeither: every input edge has both or neither of its
	// ends reached.
	RuleEdgeBothOrNeither = "edge-both-or-neither-reached"
)

// ValidationError is a broken validation rule, with a vertex that breaks it.
// Its message is `rule "<Rule>": <Detail>`, and Detail names the vertex.
type ValidationError struct {
	Rule   string // one of the Rule constants
	Vertex int64  // -1 where no vertex applies (RuleLength)
	Detail string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("rule %q: %s", e.Rule, e.Detail)
}

// Result is what a valid search yields.
type Result struct {
	// NEdge is the TEPS edge count, as reference v3 counts it: the number of
	// input tuples, self-loops excluded and duplicates included, whose ends
	// are in the root's component (reached).
	NEdge int64
	// Levels is the number of BFS levels: 1 + the largest depth.
	Levels int
	// Reached is the number of reached vertices, the root included.
	Reached int64
}

// Validator checks BFS parent arrays against one graph. Build it once per
// graph with NewValidator; Validate may be called from several goroutines,
// but calls run one at a time because they share scratch memory.
type Validator struct {
	edges     []Edge // not copied: the caller must not modify it
	nvertices int64
	err       error         // a defect of the graph found by NewValidator
	blocked   *blockedEdges // the edge pass's copy of edges (8 bytes a tuple)

	mu        sync.Mutex
	state     []uint64 // pointer-jumping state, one per vertex
	confirmed []uint32 // bitmap: the edge to the vertex's parent was seen
	entry16   []uint16 // each vertex's level and parent hash for the edge pass (levelEntry), trees of at most 255 levels
	entry64   []uint64 // the same for deeper trees, made when first needed
}

// MaxValidatorVertices is the largest vertex count the validator handles
// (levels and ancestors are kept in 32 bits).
const MaxValidatorVertices = math.MaxInt32

// NewValidator prepares to validate searches on the undirected graph given
// by edges over vertices 0..nvertices-1. It keeps edges without copying,
// and a copy grouped for the edge pass (blockedEdges, 8 bytes a tuple).
// A defect of the graph itself (a vertex id out of range, too many
// vertices) is reported by every later call to Validate, and by Err.
func NewValidator(edges []Edge, nvertices int64) *Validator {
	v := &Validator{edges: edges, nvertices: nvertices}
	if nvertices < 0 || nvertices > MaxValidatorVertices {
		v.err = fmt.Errorf("graph500: validator: %d vertices, want 0 to %d", nvertices, int64(MaxValidatorVertices))
		return v
	}
	if v.err = checkEdgeRange(edges, nvertices); v.err == nil {
		v.blocked = newBlockedEdges(edges, nvertices, blockShift(nvertices))
	}
	return v
}

// Err returns the defect of the graph that NewValidator found, or nil.
func (v *Validator) Err() error { return v.err }

// checkEdgeRange returns an error naming the first edge with an end
// outside [0, nv).
func checkEdgeRange(edges []Edge, nv int64) error {
	bad := valFirstFailure(len(edges), func(lo, hi int) int {
		for i := lo; i < hi; i++ {
			e := edges[i]
			if e.V0 < 0 || e.V0 >= nv || e.V1 < 0 || e.V1 >= nv {
				return i
			}
		}
		return -1
	})
	if bad < 0 {
		return nil
	}
	e := edges[bad]
	return fmt.Errorf("graph500: validator: edge %d (%d,%d) has an end outside [0,%d)", bad, e.V0, e.V1, nv)
}

// Validate checks parents, the output of a BFS from root, against the
// rules above. On success it returns the search's Result; a broken rule is
// returned as a *ValidationError naming the smallest offending vertex (or
// the first offending edge), so the same input always gives the same error.
func (v *Validator) Validate(root int64, parents []int64) (Result, error) {
	if v.err != nil {
		return Result{}, v.err
	}
	nv := v.nvertices
	if int64(len(parents)) != nv {
		return Result{}, &ValidationError{Rule: RuleLength, Vertex: -1,
			Detail: fmt.Sprintf("parent array has %d entries, want %d (one per vertex)", len(parents), nv)}
	}
	if root < 0 || root >= nv {
		return Result{}, &ValidationError{Rule: RuleRoot, Vertex: root,
			Detail: fmt.Sprintf("root vertex %d is not in [0,%d)", root, nv)}
	}
	if err := checkParentRange(parents, nv); err != nil {
		return Result{}, err
	}
	if parents[root] != root {
		return Result{}, &ValidationError{Rule: RuleRoot, Vertex: root,
			Detail: fmt.Sprintf("root vertex %d has parent %d, want itself", root, parents[root])}
	}

	v.mu.Lock()
	defer v.mu.Unlock()
	v.allocScratch()
	st := v.state
	computeLevels(st, parents, root)
	if err := checkChains(st, parents); err != nil {
		return Result{}, err
	}
	res := levelSummary(st)
	var nedge int64
	var err error
	if res.Levels <= math.MaxUint8 { // depths 0..254: 255 is free for unreached
		nedge, err = edgePass(v, v.entry16, st, parents)
	} else {
		if v.entry64 == nil {
			v.entry64 = make([]uint64, len(st))
		}
		nedge, err = edgePass(v, v.entry64, st, parents)
	}
	if err != nil {
		return Result{}, err
	}
	if err := checkConfirmed(v.confirmed, st, parents, root); err != nil {
		return Result{}, err
	}
	res.NEdge = nedge
	return res, nil
}

// allocScratch makes (once) and clears the per-search scratch arrays.
func (v *Validator) allocScratch() {
	n := int(v.nvertices)
	if v.state == nil {
		v.state = make([]uint64, n)
		v.confirmed = make([]uint32, (n+31)/32)
		v.entry16 = make([]uint16, n)
		return
	}
	clear(v.confirmed) // state is fully rewritten by computeLevels
}

// checkParentRange reports the smallest vertex whose parent is neither -1
// nor a vertex id.
func checkParentRange(parents []int64, nv int64) error {
	bad := valFirstFailure(len(parents), func(lo, hi int) int {
		for i := lo; i < hi; i++ {
			if p := parents[i]; p < -1 || p >= nv {
				return i
			}
		}
		return -1
	})
	if bad < 0 {
		return nil
	}
	return &ValidationError{Rule: RuleParentRange, Vertex: int64(bad),
		Detail: fmt.Sprintf("vertex %d has parent %d, want -1 or a vertex in [0,%d)", bad, parents[bad], nv)}
}

// Pointer-jumping state of one vertex, packed in a uint64 so that it is
// read and written atomically: the high 32 bits hold an ancestor a, the low
// 32 bits the distance d from the vertex up to a, or one of the markers
// below. A vertex is resolved when a is the root; its level is then d.
const (
	distUnreached = math.MaxUint32     // parent is -1
	distCycle     = math.MaxUint32 - 1 // the chain runs into a cycle
	distBroken    = math.MaxUint32 - 2 // the chain ends at an unreached vertex a
)

func packState(anc uint32, dist uint32) uint64 { return uint64(anc)<<32 | uint64(dist) }
func stateAnc(s uint64) uint32                 { return uint32(s >> 32) }
func stateDist(s uint64) uint32                { return uint32(s) }

// computeLevels fills st with the depth of every vertex along its parent
// pointers, by asynchronous pointer jumping: each round, every unresolved
// vertex replaces its (ancestor, distance) by its ancestor's, adding the
// distances. Distances at least double each round, and a chain without a
// cycle is shorter than the vertex count, so a distance reaching the vertex
// count proves a cycle, and every state is final after about log2(n)
// rounds (rounds go on until one changes nothing).
func computeLevels(st []uint64, parents []int64, root int64) {
	n := len(parents)
	r := uint32(root)
	valForChunks(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			switch p := parents[i]; {
			case int64(i) == root:
				st[i] = packState(r, 0)
			case p < 0:
				st[i] = packState(0, distUnreached)
			default:
				st[i] = packState(uint32(p), 1)
			}
		}
	})
	for {
		var changed atomic.Bool
		valForChunks(n, func(lo, hi int) {
			if jumpRange(st, lo, hi, r, uint32(n)) {
				changed.Store(true)
			}
		})
		if !changed.Load() {
			return
		}
	}
}

// jumpRange does one pointer-jumping step for vertices lo..hi-1 and says
// whether any state changed.
func jumpRange(st []uint64, lo, hi int, root, n uint32) bool {
	changed := false
	for i := lo; i < hi; i++ {
		s := atomic.LoadUint64(&st[i])
		a, d := stateAnc(s), stateDist(s)
		if a == root || d >= distBroken {
			continue // resolved or final
		}
		as := atomic.LoadUint64(&st[a])
		ad := stateDist(as)
		var ns uint64
		switch {
		case ad == distUnreached:
			ns = packState(a, distBroken)
		case ad >= distBroken: // broken or cycle: inherit it
			ns = as
		case uint64(d)+uint64(ad) >= uint64(n):
			ns = packState(a, distCycle)
		default:
			ns = packState(stateAnc(as), d+ad)
		}
		atomic.StoreUint64(&st[i], ns)
		changed = true
	}
	return changed
}

// checkChains reports a cycle anywhere in the parent pointers (first), then
// a reached vertex whose chain does not reach the root. Both name the
// smallest such vertex.
func checkChains(st []uint64, parents []int64) error {
	first := func(dist uint32) int {
		return valFirstFailure(len(st), func(lo, hi int) int {
			for i := lo; i < hi; i++ {
				if stateDist(st[i]) == dist {
					return i
				}
			}
			return -1
		})
	}
	if c := first(distCycle); c >= 0 {
		return cycleError(parents, int64(c))
	}
	if b := first(distBroken); b >= 0 {
		end := int64(stateAnc(st[b]))
		return &ValidationError{Rule: RuleReachesRoot, Vertex: int64(b),
			Detail: fmt.Sprintf("vertex %d has parent %d but its parent chain ends at unreached vertex %d, not at the root",
				b, parents[b], end)}
	}
	return nil
}

// cycleError describes the cycle that the parent chain of vertex v runs
// into: it walks n steps (which lands on the cycle), then around it.
func cycleError(parents []int64, v int64) error {
	u := v
	for range len(parents) {
		if parents[u] < 0 { // cannot happen for a chain marked cyclic
			return &ValidationError{Rule: RuleNoCycle, Vertex: v,
				Detail: fmt.Sprintf("vertex %d: parent chain judged cyclic", v)}
		}
		u = parents[u]
	}
	cycle := []int64{u}
	for w := parents[u]; w != u; w = parents[w] {
		cycle = append(cycle, w)
	}
	lowest := u
	for _, w := range cycle {
		lowest = min(lowest, w)
	}
	var detail string
	switch {
	case len(cycle) == 1:
		detail = fmt.Sprintf("vertex %d is its own parent but is not the root", u)
	case len(cycle) <= 6:
		detail = fmt.Sprintf("vertex %d lies on a parent cycle of length %d: %v", lowest, len(cycle), cycle)
	default:
		detail = fmt.Sprintf("vertex %d lies on a parent cycle of length %d", lowest, len(cycle))
	}
	if u != v && parents[v] != v {
		detail += fmt.Sprintf(" (reached from the parent chain of vertex %d)", v)
	}
	return &ValidationError{Rule: RuleNoCycle, Vertex: lowest, Detail: detail}
}

// levelSummary returns the reached count and number of levels of resolved
// states (called after checkChains, when every reached vertex is resolved).
func levelSummary(st []uint64) Result {
	var mu sync.Mutex
	var res Result
	valForChunks(len(st), func(lo, hi int) {
		var reached int64
		maxLevel := -1
		for i := lo; i < hi; i++ {
			if d := stateDist(st[i]); d != distUnreached {
				reached++
				maxLevel = max(maxLevel, int(d))
			}
		}
		mu.Lock()
		res.Reached += reached
		res.Levels = max(res.Levels, maxLevel+1)
		mu.Unlock()
	})
	return res
}

// levelEntry is the type of a vertex's entry in the edge pass: its level
// above the low byte, where the largest value marks an unreached vertex,
// and in the low byte parentHash of its parent. 16 bits hold the levels of
// a tree of at most 255 levels, 64 bits those of any other.
type levelEntry interface{ ~uint16 | ~uint64 }

// entryLevel is the level field of entry e (unreachedLevel[E] for an
// unreached vertex).
func entryLevel[E levelEntry](e E) E { return e >> 8 }

// unreachedLevel is the level field that marks an unreached vertex.
func unreachedLevel[E levelEntry]() E { return ^E(0) >> 8 }

// parentHash is a byte of p that a vertex's entry keeps for its parent p:
// an edge (child, p) whose p does not match it is not the child's tree
// edge, so the edge pass need not read the parent array for it. The
// multiplier (Knuth's, 2^32/φ) spreads a hub's neighbours, ids close
// together, over the 256 values.
func parentHash(p int64) uint8 { return uint8((uint32(p) * 0x9E3779B1) >> 24) }

// fillEntries writes each vertex's entry (levelEntry) from the resolved
// states (after checkChains: every state is resolved or unreached) and
// the parents into es, whose type holds every level of this tree.
func fillEntries[E levelEntry](es []E, st []uint64, parents []int64) {
	none := unreachedLevel[E]() << 8
	valForChunks(len(st), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if d := stateDist(st[i]); d == distUnreached {
				es[i] = none
			} else {
				es[i] = E(d)<<8 | E(parentHash(parents[i]))
			}
		}
	})
}

// edgePass fills es (fillEntries) and runs the edge pass over the blocked
// list (scanPairs), returning the TEPS edge count, or the first edge of the
// input's order that breaks an edge rule.
//
// TEPS edge count, as the reference v3 counts it (src/validate.c,
// validate_result and its handler edgepreddisthndl, which must agree with
// src/bfs_reference.c, get_edge_count_for_teps): the validator's CSR holds
// both directions of every input tuple except self-loops (v0 == v1 is
// skipped when building it), duplicates kept; the handler returns when
// neither end is reached and otherwise counts the entry only when v0 < v1.
// So each non-self-loop tuple with a reached end is counted exactly once,
// not twice and not divided by two; with a valid tree that is every tuple
// with both ends in the root's component.
func edgePass[E levelEntry](v *Validator, es []E, st []uint64, parents []int64) (int64, error) {
	fillEntries(es, st, parents)
	if nedge, ok := scanPairs(v.blocked, es, parents, v.confirmed); ok {
		return nedge, nil
	}
	if fail := firstEdgeFailure(v.edges, es); fail != nil {
		return 0, fail
	}
	return 0, fmt.Errorf("graph500: validator: the edge pass found an edge rule broken that the input's order does not break (a validator bug)")
}

// confirm marks child in conf where p is its parent, unless it is marked
// already (the bitmap, small and mostly cached, is read first; the parent
// array is neither).
func confirm(conf []uint32, parents []int64, child, p int64) {
	w, m := &conf[child/32], uint32(1)<<(child%32)
	if atomic.LoadUint32(w)&m == 0 && parents[child] == p {
		atomic.OrUint32(w, m)
	}
}

// levelOrNone is a level field l as edgeRuleError takes it: -1 for
// unreached (none).
func levelOrNone[E levelEntry](l, none E) int64 {
	if l == none {
		return -1
	}
	return int64(l)
}

// edgeRuleError describes edge i = (a,b), whose ends have levels la and lb
// (-1 for unreached), breaking one of the two edge rules.
func edgeRuleError(i int, a, b, la, lb int64) *ValidationError {
	if la < 0 || lb < 0 {
		reached, unreached, level := a, b, la
		if la < 0 {
			reached, unreached, level = b, a, lb
		}
		return &ValidationError{Rule: RuleEdgeBothOrNeither, Vertex: unreached,
			Detail: fmt.Sprintf("vertex %d is unreached but edge %d (%d,%d) joins it to reached vertex %d (level %d)",
				unreached, i, a, b, reached, level)}
	}
	far := a
	if lb > la {
		far = b
	}
	return &ValidationError{Rule: RuleEdgeLevels, Vertex: far,
		Detail: fmt.Sprintf("vertex %d: edge %d (%d,%d) joins levels %d and %d, which differ by more than one",
			far, i, a, b, la, lb)}
}

// checkConfirmed reports the smallest reached vertex other than the root
// whose edge to its parent was not seen in the edge list.
func checkConfirmed(conf []uint32, st []uint64, parents []int64, root int64) error {
	bad := valFirstFailure(len(st), func(lo, hi int) int {
		for i := lo; i < hi; i++ {
			if int64(i) == root || stateDist(st[i]) == distUnreached {
				continue
			}
			if conf[i/32]&(1<<(i%32)) == 0 {
				return i
			}
		}
		return -1
	})
	if bad < 0 {
		return nil
	}
	return &ValidationError{Rule: RuleTreeEdgeInGraph, Vertex: int64(bad),
		Detail: fmt.Sprintf("vertex %d has parent %d but (%d,%d) is not an edge", bad, parents[bad], bad, parents[bad])}
}

// Parallel helpers. Work is cut into a fixed number of contiguous chunks,
// a few per core, so that results that depend on order (the first failure)
// are the same whatever the scheduling.

const valMinChunk = 1 << 14 // below this many items per chunk, fewer chunks

// valChunkCount is the number of chunks for n items.
func valChunkCount(n int) int {
	c := 4 * runtime.GOMAXPROCS(0)
	if lim := (n + valMinChunk - 1) / valMinChunk; c > lim {
		c = lim
	}
	return max(c, 1)
}

// valRunChunks calls fn(c, lo, hi) for chunk c = 0..nchunks-1 covering
// [0, n), in parallel, and waits.
func valRunChunks(n, nchunks int, fn func(c, lo, hi int)) {
	if nchunks == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for c := range nchunks {
		lo, hi := n*c/nchunks, n*(c+1)/nchunks
		wg.Go(func() { fn(c, lo, hi) })
	}
	wg.Wait()
}

// valForChunks calls fn(lo, hi) over chunks covering [0, n), in parallel.
func valForChunks(n int, fn func(lo, hi int)) {
	valRunChunks(n, valChunkCount(n), func(_, lo, hi int) { fn(lo, hi) })
}

// valFirstFailure runs find over chunks of [0, n) in parallel; find returns
// the first failing index in its chunk or -1. It returns the smallest
// failing index overall, or -1.
func valFirstFailure(n int, find func(lo, hi int) int) int {
	nchunks := valChunkCount(n)
	found := make([]int, nchunks)
	valRunChunks(n, nchunks, func(c, lo, hi int) { found[c] = find(lo, hi) })
	for _, f := range found {
		if f >= 0 {
			return f
		}
	}
	return -1
}
