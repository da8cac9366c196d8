// This file implements the choice of BFS search keys (roots) of the Graph500
// reference v3 (graph500/graph500 v3, src/main.c, the loop after
// "generate non-isolated roots"), with its isolation test isisolated() of
// src/csr_reference.c, where a vertex is isolated when it has no edge other
// than self-loops (self-loops are left out of the CSR).
//
// The reference loop, one shared counter for all roots:
//
//	candidate = (int64)((d[0] + d[1]) * nvertices) % nvertices,
//	  with d = make_random_numbers(2, seed1, seed2, counter);
//	counter += 2;
//	if counter > 2 * nvertices: stop looking (see below);
//	skip the candidate if it is already a root or is isolated.
//
// Note on the usual summary "make_random_numbers(2, seed1, seed2, counter),
// counter stepping by 2": it is exact, and because make_random_numbers skips
// 2*position PRNG steps, candidate k reads the stream's values 2k and 2k+1;
// the candidate is the integer part of their sum times nvertices, modulo
// nvertices (the sum lies in [0, 2)).
//
// Where we differ: when the counter passes 2 * nvertices (that is, after
// nvertices candidates in all), the reference breaks out of the loop and
// takes the last candidate as a root without checking it, so it can return
// duplicate or isolated roots (and with no bound it would loop forever). We
// scan the same nvertices candidates and return an error if they do not
// yield enough keys. Whenever the reference's roots are all valid, ours are
// the same. (A smaller difference: the reference's CSR only spans vertices
// up to the largest endpoint plus one, so its isisolated() reads past the
// end for candidates above that; here every vertex of [0, nvertices) without
// a non-self-loop edge is isolated.)
package graph500

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// NonIsolatedSet is a bitmap over vertices: bit v is set when vertex v has at
// least one edge that is not a self-loop. Bit v is bit v%64 of word v/64, so
// the sets of several ranks' edge shares can be merged by OR-ing words.
type NonIsolatedSet []uint64

// NewNonIsolatedSet returns an empty set for nvertices vertices.
func NewNonIsolatedSet(nvertices int64) NonIsolatedSet {
	return make(NonIsolatedSet, (nvertices+63)/64)
}

// Contains reports whether v is in the set; out-of-range v is not.
func (s NonIsolatedSet) Contains(v int64) bool {
	if v < 0 || v/64 >= int64(len(s)) {
		return false
	}
	return s[v/64]&(1<<(uint64(v)%64)) != 0
}

// Count returns the number of vertices in the set.
func (s NonIsolatedSet) Count() int64 {
	var n int
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return int64(n)
}

// NonIsolated returns the set of vertices of [0, nvertices) with at least one
// non-self-loop edge in edges, computed over GOMAXPROCS goroutines. It
// returns an error if nvertices < 1 or an endpoint is outside
// [0, nvertices).
func NonIsolated(edges []Edge, nvertices int64) (NonIsolatedSet, error) {
	if nvertices < 1 {
		return nil, fmt.Errorf("graph500: NonIsolated: %d vertices", nvertices)
	}
	set := NewNonIsolatedSet(nvertices)
	n := int64(len(edges))
	workers := int64(runtime.GOMAXPROCS(0))
	if n < kronParallelMin {
		workers = 1
	}
	bad := make([]int64, workers) // first out-of-range edge index per worker, or -1
	var wg sync.WaitGroup
	for w := int64(0); w < workers; w++ {
		lo, hi := kronShare(n, workers, w), kronShare(n, workers, w+1)
		wg.Go(func() { bad[w] = set.addEdges(edges, lo, hi, nvertices) })
	}
	wg.Wait()
	for _, i := range bad {
		if i >= 0 {
			return nil, fmt.Errorf("graph500: edge %d (%d, %d) has an endpoint outside [0, %d)",
				i, edges[i].V0, edges[i].V1, nvertices)
		}
	}
	return set, nil
}

// addEdges marks the endpoints of the non-self-loop edges[lo:hi]; it returns
// the index of the first edge with an endpoint out of range, or -1. Bits are
// set atomically, and only when not already set, since most vertices are
// met many times.
func (s NonIsolatedSet) addEdges(edges []Edge, lo, hi, nvertices int64) int64 {
	for i := lo; i < hi; i++ {
		e := edges[i]
		if uint64(e.V0) >= uint64(nvertices) || uint64(e.V1) >= uint64(nvertices) {
			return i
		}
		if e.V0 == e.V1 {
			continue
		}
		s.setAtomic(e.V0)
		s.setAtomic(e.V1)
	}
	return -1
}

func (s NonIsolatedSet) setAtomic(v int64) {
	word, bit := &s[v/64], uint64(1)<<(uint64(v)%64)
	if atomic.LoadUint64(word)&bit == 0 {
		atomic.OrUint64(word, bit)
	}
}

// SearchKeys returns n search keys for the graph given by its edge list and
// vertex count, by the reference v3 rule (see the top of this file), drawing
// from the make_random_numbers stream of seed (the reference uses the
// generator's seeds, {2, 3} by default, and n = 64). It returns an error if
// the first nvertices candidates do not yield n distinct vertices with a
// non-self-loop edge, or if an edge has an endpoint outside [0, nvertices).
func SearchKeys(edges []Edge, nvertices int64, n int, seed [2]uint64) ([]int64, error) {
	set, err := NonIsolated(edges, nvertices)
	if err != nil {
		return nil, err
	}
	return SearchKeysFromSet(set, nvertices, n, seed)
}

// SearchKeysFromSet is SearchKeys for a set of non-isolated vertices already
// computed (for instance merged from several ranks' edge shares).
func SearchKeysFromSet(set NonIsolatedSet, nvertices int64, n int, seed [2]uint64) ([]int64, error) {
	return SearchKeysContext(context.Background(), set, nvertices, n, seed)
}

// SearchKeysContext is SearchKeysFromSet that stops with ctx's error when
// ctx ends (it checks every few thousand candidates, a fraction of a
// millisecond apart). With fewer non-isolated vertices than keys asked
// for it fails at once rather than after scanning every candidate.
func SearchKeysContext(ctx context.Context, set NonIsolatedSet, nvertices int64, n int, seed [2]uint64) ([]int64, error) {
	switch {
	case nvertices < 1:
		return nil, fmt.Errorf("graph500: search keys: %d vertices", nvertices)
	case n < 0:
		return nil, fmt.Errorf("graph500: search keys: %d keys asked for", n)
	case int64(len(set)) != (nvertices+63)/64:
		return nil, fmt.Errorf("graph500: search keys: set of %d words for %d vertices", len(set), nvertices)
	}
	if c := set.Count(); c < int64(n) {
		return nil, fmt.Errorf("graph500: %d search keys asked for, but only %d of %d vertices have a non-self-loop edge",
			n, c, nvertices)
	}
	keys := make([]int64, 0, n)
	chosen := make(map[int64]bool, n)
	nv := float64(nvertices)
	// Candidate k sits at position 2k of the stream; the reference's counter
	// is 2k and it gives up once counter+2 > 2*nvertices, that is k >= nvertices.
	for k := int64(0); len(keys) < n; k++ {
		if k%4096 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("graph500: search keys: %w", ctx.Err())
		}
		if k >= nvertices {
			return nil, fmt.Errorf("graph500: only %d of %d search keys found among the first %d candidates "+
				"(the reference's bound); %d of %d vertices have a non-self-loop edge",
				len(keys), n, nvertices, set.Count(), nvertices)
		}
		z := mrgRandomStream(seed, 2*k)
		d0 := z.nextDouble()
		d1 := z.nextDouble()
		v := int64((d0+d1)*nv) % nvertices
		if chosen[v] || !set.Contains(v) {
			continue
		}
		chosen[v] = true
		keys = append(keys, v)
	}
	return keys, nil
}
