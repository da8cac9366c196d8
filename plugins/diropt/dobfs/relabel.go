package dobfs

// relabel.go is the hub relabelling of a 1×1 block (the relabel_hubs
// parameter; ours, not in [Krajecki]): the K vertices of highest degree take the ids 0..K-1, so that
// their bits in in_queue, the ones a bottom-up level's checks read most
// (lists are ordered hubs first), sit together in K/8 bytes instead of
// anywhere in the bitmap.
//
// Choice: a swap, not a full relabelling by degree. The vertex that held
// id i < K (when it is not itself a hub) takes the id the i-th hub had,
// and every other vertex keeps its id. A search's output is its parents in
// the original ids, complete in device memory when the search ends; under
// a full relabelling each parent would be written at a random place of
// that array (4 bytes in a 32-byte sector, for every reached vertex),
// where here all but the at most 2K moved vertices write where they do
// without relabelling. Moved holds the moved ids, the same set in both
// id spaces (the swap maps it onto itself), so one bitmap tells which ids
// need the tables.

import (
	"cmp"
	"fmt"
	"slices"
)

// Relabel maps a relabelled 1×1 block's ids (new) to the graph's (old)
// and back.
type Relabel struct {
	K        int64    // the hubs moved to the front
	NewToOld []uint32 // NewToOld[v'] is the original id of new id v'
	OldToNew []uint32 // its inverse
	Moved    []uint32 // bitmap of the ids whose new and old ids differ
}

// Old returns new id v's original id.
func (r *Relabel) Old(v uint32) uint32 {
	if r == nil || !testBit(r.Moved, v) {
		return v
	}
	return r.NewToOld[v]
}

// New returns original id v's new id.
func (r *Relabel) New(v uint32) uint32 {
	if r == nil || !testBit(r.Moved, v) {
		return v
	}
	return r.OldToNew[v]
}

// hubSwap chooses the relabelling of n vertices of degrees deg: the k
// of highest degree (ties by lower id) take ids 0..k-1 in that order; the
// non-hubs among 0..k-1 take the ids of the hubs at or past k, in order.
func hubSwap(deg func(v uint32) uint32, n, k int64) (*Relabel, error) {
	if k <= 0 || k > n || k%32 != 0 {
		return nil, fmt.Errorf("relabel_hubs %d: want a multiple of 32 in [32, %d] (the vertex count)", k, n)
	}
	// The k hubs: a partial order would do; a sort of the ids is simpler
	// and runs once, in construction.
	ids := make([]uint32, n)
	for v := range ids {
		ids[v] = uint32(v)
	}
	slices.SortFunc(ids, func(a, b uint32) int {
		if c := cmp.Compare(deg(b), deg(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	hubs := ids[:k]
	r := &Relabel{K: k, NewToOld: make([]uint32, n), OldToNew: make([]uint32, n), Moved: make([]uint32, words(n))}
	for v := range r.NewToOld {
		r.NewToOld[v], r.OldToNew[v] = uint32(v), uint32(v)
	}
	isHub := make([]bool, k) // isHub[i]: id i < k is a hub
	var far []uint32         // hubs at ids ≥ k, in hub order
	for i, h := range hubs {
		r.NewToOld[i] = h
		r.OldToNew[h] = uint32(i)
		if int64(h) < k {
			isHub[h] = true
		} else {
			far = append(far, h)
		}
	}
	// The non-hubs below k take the far hubs' ids, as many of each.
	next := 0
	for i := int64(0); i < k; i++ {
		if isHub[i] {
			continue
		}
		h := far[next]
		next++
		r.OldToNew[i] = h
		r.NewToOld[h] = uint32(i)
	}
	for v := range r.NewToOld {
		if r.NewToOld[v] != uint32(v) {
			setBit(r.Moved, uint32(v))
		}
	}
	return r, nil
}

// relabel rebuilds a 1×1 block under r: vertex v' of the new block is
// vertex r.NewToOld[v'] of b, with its list's entries mapped to new ids
// in the same order (hubs first stays hubs first: degrees do not change).
func (b *Block) relabel(r *Relabel, workers int) {
	old := b.BU
	n := int64(len(old.Off) - 1)
	off := make([]uint32, n+1)
	for v := int64(0); v < n; v++ {
		off[v+1] = off[v] + old.Deg(r.NewToOld[v])
	}
	adj := make([]uint32, len(old.Adj))
	forChunks(n, 1, workers, func(lo, hi int64) {
		for v := lo; v < hi; v++ {
			dst := adj[off[v]:off[v+1]]
			for k, u := range old.List(r.NewToOld[v]) {
				dst[k] = r.New(u)
			}
		}
	})
	b.BU = Adj{Off: off, Adj: adj}
	b.TD = b.BU
	b.Relabel = r
}
