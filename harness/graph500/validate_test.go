// Tests of the Graph500 validator (validate.go): hand-corrupted BFS trees,
// one per rule, must fail with that rule; trees from a plain serial BFS must
// pass; the TEPS edge count is checked by hand.

package graph500

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// vtEdges builds an edge list from pairs.
func vtEdges(pairs ...[2]int64) []Edge {
	es := make([]Edge, len(pairs))
	for i, p := range pairs {
		es[i] = Edge{p[0], p[1]}
	}
	return es
}

func TestValidateRejectsCorruptTrees(t *testing.T) {
	// Graph A (root 0): 0-1, 0-2, 1-3, 2-3, 3-4, 0-5, and a separate
	// component 6-7, 7-8. BFS parents from 0: [0 0 0 1 3 0 -1 -1 -1].
	graphA := vtEdges([2]int64{0, 1}, [2]int64{0, 2}, [2]int64{1, 3}, [2]int64{2, 3},
		[2]int64{3, 4}, [2]int64{0, 5}, [2]int64{6, 7}, [2]int64{7, 8})
	good := []int64{0, 0, 0, 1, 3, 0, -1, -1, -1}
	// Path 0-1-2-3 with a chord 0-3.
	path := vtEdges([2]int64{0, 1}, [2]int64{1, 2}, [2]int64{2, 3}, [2]int64{0, 3})

	with := func(base []int64, changes map[int64]int64) []int64 {
		p := append([]int64(nil), base...)
		for v, par := range changes {
			p[v] = par
		}
		return p
	}
	tests := []struct {
		name    string
		edges   []Edge
		nv      int64
		root    int64
		parents []int64
		rule    string
		vertex  int64
	}{
		{"short array", graphA, 9, 0, good[:8], RuleLength, -1},
		{"long array", graphA, 9, 0, append(append([]int64(nil), good...), -1), RuleLength, -1},
		{"root out of range", graphA, 9, 9, good, RuleRoot, 9},
		{"root not own parent", graphA, 9, 0, with(good, map[int64]int64{0: 1}), RuleRoot, 0},
		{"root unreached", graphA, 9, 0, with(good, map[int64]int64{0: -1}), RuleRoot, 0},
		{"parent too large", graphA, 9, 0, with(good, map[int64]int64{4: 9}), RuleParentRange, 4},
		{"parent below -1", graphA, 9, 0, with(good, map[int64]int64{2: -2}), RuleParentRange, 2},
		{"two bad parents: smallest named", graphA, 9, 0, with(good, map[int64]int64{5: 100, 3: -7}), RuleParentRange, 3},
		// 1 -> 3 -> 1 inside the root's component (4 hangs off it).
		{"cycle inside component", graphA, 9, 0, with(good, map[int64]int64{1: 3}), RuleNoCycle, 1},
		// 6 -> 7 -> 6 in the other component, which the root never reaches:
		// the reference v3 validator accepts this.
		{"cycle outside component", graphA, 9, 0, with(good, map[int64]int64{6: 7, 7: 6}), RuleNoCycle, 6},
		{"long cycle outside component", graphA, 9, 0, with(good, map[int64]int64{6: 7, 7: 8, 8: 6}), RuleNoCycle, 6},
		{"non-root own parent", graphA, 9, 0, with(good, map[int64]int64{8: 8}), RuleNoCycle, 8},
		// 8's chain runs into the cycle 6 <-> 7.
		{"chain into cycle", graphA, 9, 0, with(good, map[int64]int64{6: 7, 7: 6, 8: 7}), RuleNoCycle, 6},
		// 4 -> 3 -> unreached: chain ends at an unreached vertex.
		{"chain to unreached vertex", graphA, 9, 0, with(good, map[int64]int64{3: -1}), RuleReachesRoot, 4},
		// 4's parent becomes 2, at the level of its true parent 3, but (4,2)
		// is not an edge.
		{"tree edge not in graph", graphA, 9, 0, with(good, map[int64]int64{4: 2}), RuleTreeEdgeInGraph, 4},
		{"tree edge into other component", graphA, 9, 0, with(good, map[int64]int64{6: 0, 7: 6, 8: 7}), RuleTreeEdgeInGraph, 6},
		// Tree = the path; the chord 0-3 joins levels 0 and 3.
		{"level jump along an edge", path, 4, 0, []int64{0, 0, 1, 2}, RuleEdgeLevels, 3},
		// Path 0-1-2 with chord 0-2: levels 0 and 2, the smallest jump.
		{"level jump of two", vtEdges([2]int64{0, 1}, [2]int64{1, 2}, [2]int64{0, 2}), 3, 0, []int64{0, 0, 1}, RuleEdgeLevels, 2},
		// 5 left unreached although it is adjacent to the root.
		{"edge with one end reached", graphA, 9, 0, with(good, map[int64]int64{5: -1}), RuleEdgeBothOrNeither, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := NewValidator(tc.edges, tc.nv)
			_, err := v.Validate(tc.root, tc.parents)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate = %v, want a *ValidationError with rule %q", err, tc.rule)
			}
			if ve.Rule != tc.rule || ve.Vertex != tc.vertex {
				t.Fatalf("got rule %q vertex %d (%v), want rule %q vertex %d", ve.Rule, ve.Vertex, err, tc.rule, tc.vertex)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("rule %q", tc.rule)) {
				t.Errorf("message %q does not name the rule", err)
			}
			if tc.vertex >= 0 && !strings.Contains(err.Error(), fmt.Sprintf("vertex %d", tc.vertex)) {
				t.Errorf("message %q does not name vertex %d", err, tc.vertex)
			}
		})
	}
}

func TestValidateTreeEdgeMessage(t *testing.T) {
	// The example message of the design: vertex 17 has parent 4.
	es := vtEdges([2]int64{0, 4}, [2]int64{0, 5}, [2]int64{5, 17})
	p, _ := SerialBFS(es, 18, 0)
	p[17] = 4
	_, err := NewValidator(es, 18).Validate(0, p)
	want := `rule "tree-edge-in-graph": vertex 17 has parent 4 but (17,4) is not an edge`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestValidateAcceptsBFSTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 40 {
		nv := int64(1 + rng.IntN(300))
		ne := rng.IntN(int(3 * nv))
		es := make([]Edge, ne)
		for i := range es {
			es[i] = Edge{rng.Int64N(nv), rng.Int64N(nv)}
		}
		v := NewValidator(es, nv)
		for range 3 {
			root := rng.Int64N(nv)
			p, lv := SerialBFS(es, nv, root)
			res, err := v.Validate(root, p)
			if err != nil {
				t.Fatalf("trial %d root %d: valid BFS tree rejected: %v", trial, root, err)
			}
			var reached, maxLevel, nedge int64
			for i := range p {
				if p[i] >= 0 {
					reached++
					maxLevel = max(maxLevel, lv[i])
				}
			}
			for _, e := range es {
				if e.V0 != e.V1 && p[e.V0] >= 0 {
					nedge++
				}
			}
			if res.Reached != reached || res.Levels != int(maxLevel+1) || res.NEdge != nedge {
				t.Fatalf("trial %d root %d: got %+v, want reached %d levels %d nedge %d",
					trial, root, res, reached, maxLevel+1, nedge)
			}
		}
	}
}

// TestValidateLargeRandom runs the parallel paths (many chunks) on a graph
// large enough to be cut, and checks that a corruption deep in the array is
// still found.
func TestValidateLargeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nv = 200_000
	es := make([]Edge, 8*nv)
	for i := range es {
		es[i] = Edge{rng.Int64N(nv), rng.Int64N(nv)}
	}
	v := NewValidator(es, nv)
	p, _ := SerialBFS(es, nv, 12345)
	if _, err := v.Validate(12345, p); err != nil {
		t.Fatalf("valid tree rejected: %v", err)
	}
	// A long chain: put vertices in a cycle of length 1000 far from 0.
	q := append([]int64(nil), p...)
	for i := int64(150_000); i < 151_000; i++ {
		q[i] = i + 1
	}
	q[151_000] = 150_000
	_, err := v.Validate(12345, q)
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Rule != RuleNoCycle || ve.Vertex != 150_000 {
		t.Fatalf("got %v, want rule %q at vertex 150000", err, RuleNoCycle)
	}
	// The validator is reusable after a failure.
	if _, err := v.Validate(12345, p); err != nil {
		t.Fatalf("valid tree rejected after a failed one: %v", err)
	}
}

// TestValidateDeepChain checks levels along a path far deeper than the
// pointer-jumping rounds (a road-network-like depth).
func TestValidateDeepChain(t *testing.T) {
	const nv = 100_000
	es := make([]Edge, 0, nv)
	for i := int64(1); i < nv; i++ {
		es = append(es, Edge{i - 1, i})
	}
	p, _ := SerialBFS(es, nv, 0)
	res, err := NewValidator(es, nv).Validate(0, p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Levels != nv || res.Reached != nv || res.NEdge != nv-1 {
		t.Fatalf("got %+v, want levels %d reached %d nedge %d", res, nv, nv, nv-1)
	}
}

// TestValidateLevelWidths checks the edge pass on both sides of the byte
// levels' limit: a path of 255 levels (depths 0..254: a byte a vertex) and
// of 256 and 300 (32 bits a vertex), each accepted, then with each edge
// rule broken at the deepest vertex, where a level read as a byte would
// have wrapped.
func TestValidateLevelWidths(t *testing.T) {
	for _, levels := range []int64{255, 256, 300} {
		// The path 0-1-...-(levels-1), and vertex `levels`, unreached.
		path := func(extra ...[2]int64) []Edge {
			es := make([]Edge, 0, levels+int64(len(extra)))
			for i := int64(1); i < levels; i++ {
				es = append(es, Edge{i - 1, i})
			}
			return append(es, vtEdges(extra...)...)
		}
		nv := levels + 1
		tree := make([]int64, nv)
		for i := range tree {
			tree[i] = int64(i) - 1
		}
		tree[0], tree[levels] = 0, -1
		last := levels - 1
		shortcut := append([]int64(nil), tree...)
		shortcut[last] = last - 2 // (last, last-2) is no edge
		for _, tc := range []struct {
			name    string
			edges   []Edge
			parents []int64
			rule    string // "" for valid
			vertex  int64
		}{
			{"valid", path(), tree, "", 0},
			{"chord over two levels", path([2]int64{last - 2, last}), tree, RuleEdgeLevels, last},
			{"unreached neighbour", path([2]int64{last, levels}), tree, RuleEdgeBothOrNeither, levels},
			{"tree edge not in graph", path(), shortcut, RuleTreeEdgeInGraph, last},
		} {
			t.Run(fmt.Sprintf("%d levels/%s", levels, tc.name), func(t *testing.T) {
				res, err := NewValidator(tc.edges, nv).Validate(0, tc.parents)
				if tc.rule == "" {
					if err != nil || res.Levels != int(levels) || res.Reached != levels || res.NEdge != levels-1 {
						t.Fatalf("got %+v, %v; want levels %d, reached %d, nedge %d", res, err, levels, levels, levels-1)
					}
					return
				}
				var ve *ValidationError
				if !errors.As(err, &ve) || ve.Rule != tc.rule || ve.Vertex != tc.vertex {
					t.Fatalf("got %v, want rule %q at vertex %d", err, tc.rule, tc.vertex)
				}
			})
		}
	}
}

func TestNEdgeCountsLikeReference(t *testing.T) {
	// Component of 0: {0,1,2,3}. Tuples: 0-1, 1-0 (duplicate, reversed),
	// 0-1 (duplicate), 1-2, 2-2 (self-loop), 3-3 (self-loop), 2-3, 0-0
	// (self-loop), and 4-5 in another component, plus isolated 6.
	es := vtEdges([2]int64{0, 1}, [2]int64{1, 0}, [2]int64{0, 1}, [2]int64{1, 2}, [2]int64{2, 2},
		[2]int64{3, 3}, [2]int64{2, 3}, [2]int64{0, 0}, [2]int64{4, 5})
	v := NewValidator(es, 7)
	p, _ := SerialBFS(es, 7, 0)
	res, err := v.Validate(0, p)
	if err != nil {
		t.Fatal(err)
	}
	// Counted: 0-1, 1-0, 0-1, 1-2, 2-3 = 5 (self-loops out, duplicates in,
	// 4-5 outside the component).
	want := Result{NEdge: 5, Levels: 4, Reached: 4}
	if res != want {
		t.Fatalf("got %+v, want %+v", res, want)
	}
	p, _ = SerialBFS(es, 7, 5)
	res, err = v.Validate(5, p)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{NEdge: 1, Levels: 2, Reached: 2}); res != want {
		t.Fatalf("root 5: got %+v, want %+v", res, want)
	}
	// A root whose only edge is a self-loop: nothing to count.
	res, err = v.Validate(6, []int64{-1, -1, -1, -1, -1, -1, 6})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{NEdge: 0, Levels: 1, Reached: 1}); res != want {
		t.Fatalf("root 6: got %+v, want %+v", res, want)
	}
}

func TestNewValidatorBadGraph(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edges []Edge
		nv    int64
	}{
		{"end too large", vtEdges([2]int64{0, 1}, [2]int64{1, 3}), 3},
		{"negative end", vtEdges([2]int64{-1, 1}), 3},
		{"negative vertex count", nil, -1},
		{"too many vertices", nil, MaxValidatorVertices + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewValidator(tc.edges, tc.nv)
			if v.Err() == nil {
				t.Fatal("Err() = nil, want an error")
			}
			if _, err := v.Validate(0, make([]int64, 3)); err != v.Err() {
				t.Fatalf("Validate error %v, want %v", err, v.Err())
			}
		})
	}
}

// TestValidateGeneratedScale10 validates serial BFS trees on the Graph500
// graph at scale 10 (self-loops and duplicates included), and checks that
// swapping a vertex's parent for a non-neighbour at the same level fails.
func TestValidateGeneratedScale10(t *testing.T) {
	const scale, ef = 10, 16
	nv := int64(1) << scale
	es := Generate(scale, ef, [2]uint64{2, 3})
	v := NewValidator(es, nv)
	adjacent := make(map[[2]int64]bool)
	for _, e := range es {
		adjacent[[2]int64{e.V0, e.V1}], adjacent[[2]int64{e.V1, e.V0}] = true, true
	}
	tested := 0
	for root := int64(0); root < nv && tested < 8; root++ {
		p, lv := SerialBFS(es, nv, root)
		var reached int64
		for _, x := range p {
			if x >= 0 {
				reached++
			}
		}
		if reached < 2 {
			continue // isolated: not a search key
		}
		tested++
		res, err := v.Validate(root, p)
		if err != nil {
			t.Fatalf("root %d: %v", root, err)
		}
		var nedge int64
		for _, e := range es {
			if e.V0 != e.V1 && p[e.V0] >= 0 && p[e.V1] >= 0 {
				nedge++
			}
		}
		if res.NEdge != nedge || res.Reached != reached {
			t.Fatalf("root %d: got %+v, want nedge %d reached %d", root, res, nedge, reached)
		}
		// Find w at level >= 2 and a vertex u at level lv[w]-1 not adjacent
		// to w; make u w's parent.
		corrupted := false
		for w := int64(0); w < nv && !corrupted; w++ {
			if lv[w] < 2 {
				continue
			}
			for u := int64(0); u < nv; u++ {
				if lv[u] == lv[w]-1 && !adjacent[[2]int64{w, u}] {
					q := append([]int64(nil), p...)
					q[w] = u
					_, err := v.Validate(root, q)
					var ve *ValidationError
					if !errors.As(err, &ve) || ve.Rule != RuleTreeEdgeInGraph || ve.Vertex != w {
						t.Fatalf("root %d, parent of %d set to %d: got %v, want rule %q", root, w, u, err, RuleTreeEdgeInGraph)
					}
					corrupted = true
					break
				}
			}
		}
		if !corrupted {
			t.Fatalf("root %d: found no corruption to try", root)
		}
	}
	if tested == 0 {
		t.Fatal("no non-isolated root found")
	}
}

// TestComponentEdgesMatchesTheValidatorsCount checks the count of searches
// the harness does not validate against the validator's count, root by
// root, on graphs with many components (edge factor 1) and with one large
// one.
func TestComponentEdgesMatchesTheValidatorsCount(t *testing.T) {
	for _, ef := range []int{1, 16} {
		edges := Generate(12, ef, [2]uint64{2, 3})
		n := NVertices(12)
		ce := NewComponentEdges(edges, n)
		val := NewValidator(edges, n)
		for root := int64(0); root < n; root += 97 {
			parents, _ := SerialBFS(edges, n, root)
			res, err := val.Validate(root, parents)
			if err != nil {
				t.Fatal(err)
			}
			if got := ce.NEdge(root); got != res.NEdge {
				t.Fatalf("ef %d root %d: component count %d, validator %d", ef, root, got, res.NEdge)
			}
		}
	}
}

// TestValidateSmallBlocks runs the validator's tests with blocks of 2
// vertices (blockedEdges), so that their small graphs' edges fall in many
// groups, as a large graph's do: the same trees pass, the same corrupt
// ones fail with the same error.
func TestValidateSmallBlocks(t *testing.T) {
	defer func(s int) { blockedMinShift = s }(blockedMinShift)
	blockedMinShift = 1
	if g := len(newBlockedEdges(vtEdges([2]int64{0, 5}, [2]int64{7, 2}), 8, blockShift(8)).pairs); g != 4 {
		t.Fatalf("blocked list of 2 edges holds %d ids, want 4", g)
	}
	t.Run("corrupt", TestValidateRejectsCorruptTrees)
	t.Run("tree edge message", TestValidateTreeEdgeMessage)
	t.Run("accepts", TestValidateAcceptsBFSTrees)
	t.Run("large random", TestValidateLargeRandom)
	t.Run("deep chain", TestValidateDeepChain)
	t.Run("level widths", TestValidateLevelWidths)
	t.Run("nedge", TestNEdgeCountsLikeReference)
	t.Run("scale 10", TestValidateGeneratedScale10)
}

// TestBlockedEdgesGroups checks the blocked list's grouping: every
// non-self-loop tuple once, smaller end first, the groups by block pair in
// row-major order, each group's tuples in the input's order.
func TestBlockedEdgesGroups(t *testing.T) {
	es := Generate(8, 16, [2]uint64{2, 3})
	const nv, shift = 256, 5 // 8 blocks a side
	be := newBlockedEdges(es, nv, shift)
	var want [][2]uint32
	for g := range 64 {
		for _, e := range es {
			a, b := e.V0, e.V1
			if a == b {
				continue
			}
			if a > b {
				a, b = b, a
			}
			if int(a>>shift)*8+int(b>>shift) == g {
				want = append(want, [2]uint32{uint32(a), uint32(b)})
			}
		}
	}
	if len(be.pairs) != 2*len(want) {
		t.Fatalf("%d pairs, want %d", len(be.pairs)/2, len(want))
	}
	for i, w := range want {
		if got := [2]uint32{be.pairs[2*i], be.pairs[2*i+1]}; got != w {
			t.Fatalf("pair %d = %v, want %v", i, got, w)
		}
	}
}
