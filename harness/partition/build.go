package partition

// build.go constructs the 1D and 2D partitions distributedly (see the
// package comment): each rank turns its share of the input edges into
// directed entries u→v and v→u, sends each entry to the rank that stores
// it (one Alltoallv), and builds its compressed structure from what it
// received.

import (
	"fmt"
	"math/bits"
	"runtime"
	"slices"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/par"
)

// Part1D is one rank's share of a 1D partition: the adjacency lists, in
// CSR form, of the vertices it owns.
type Part1D struct {
	Layout Layout1D
	Rank   int
	Lo, Hi int64 // the owned vertices [Lo, Hi)
	// Offsets (Hi-Lo+1 entries) index Adj: the neighbours of vertex Lo+k
	// are Adj[Offsets[k]:Offsets[k+1]], sorted, as global vertex ids.
	Offsets []int64
	Adj     []int64
}

// Neighbors returns the sorted neighbours of owned vertex v.
func (p *Part1D) Neighbors(v int64) []int64 {
	k := v - p.Lo
	return p.Adj[p.Offsets[k]:p.Offsets[k+1]]
}

// Build1D builds this rank's share of the 1D partition of the n-vertex
// graph whose edges are the union of every rank's edges. Collective over
// c; every rank passes the same n.
func Build1D(c comm.Comm, n int64, edges []graph500.Edge) (*Part1D, error) {
	l, err := NewLayout1D(n, c.Size())
	if err != nil {
		return nil, err
	}
	if err := checkEdges(c, n, edges); err != nil {
		return nil, err
	}
	recv, err := exchange(c, edges, func(u, v int64) (int, int64, int64) {
		return l.Owner(u), u, v
	})
	if err != nil {
		return nil, fmt.Errorf("partition: 1D exchange: %w", err)
	}
	p := &Part1D{Layout: l, Rank: c.Rank()}
	p.Lo, p.Hi = l.Range(c.Rank())
	for k := 0; k < len(recv); k += 2 {
		recv[k] -= p.Lo // source as an index into the owned range
	}
	p.Offsets, p.Adj = compress(p.Hi-p.Lo, recv)
	return p, nil
}

// Part2D is P(i,j)'s share of the 2D partition: the edge blocks (mR+i, j)
// as one local CSC matrix of LocalRows × LocalCols with 32-bit local
// indices (see Layout2D for the index maps).
type Part2D struct {
	Layout Layout2D
	I, J   int
	// ColPtr (LocalCols+1 entries) indexes RowIdx: local column lc (global
	// vertex Layout.ColGlobal(J, lc)) has edges to the local rows
	// RowIdx[ColPtr[lc]:ColPtr[lc+1]], sorted.
	ColPtr []int64
	RowIdx []uint32
}

// Column returns the sorted local rows of local column lc.
func (p *Part2D) Column(lc uint32) []uint32 {
	return p.RowIdx[p.ColPtr[lc]:p.ColPtr[lc+1]]
}

// Build2D builds P(i,j)'s share of the 2D partition of the n-vertex graph
// whose edges are the union of every rank's edges. Collective over
// g.World; every rank passes the same n.
func Build2D(g *comm.Grid, n int64, edges []graph500.Edge) (*Part2D, error) {
	l, err := NewLayout2D(n, g.R, g.C)
	if err != nil {
		return nil, err
	}
	if err := checkEdges(g.World, n, edges); err != nil {
		return nil, err
	}
	// Entries travel as (local column, local row) at their destination,
	// 32 bits each, as [Bisson] §5 keeps local data 32-bit.
	recv, err := exchange(g.World, edges, func(u, v int64) (int, uint32, uint32) {
		i, j := l.EdgeOwner(u, v)
		return comm.GridRank(i, j, l.R), l.ColLocal(j, u), l.RowLocal(i, v)
	})
	if err != nil {
		return nil, fmt.Errorf("partition: 2D exchange: %w", err)
	}
	p := &Part2D{Layout: l, I: g.I, J: g.J}
	p.ColPtr, p.RowIdx = compress(l.LocalCols(), recv)
	return p, nil
}

// checkEdges fails on every rank when any rank holds an edge with an end
// outside [0, n), so that no rank is left waiting in the exchange.
func checkEdges(c comm.Comm, n int64, edges []graph500.Edge) error {
	var bad error
	for k, e := range edges {
		if e.V0 < 0 || e.V0 >= n || e.V1 < 0 || e.V1 >= n {
			bad = fmt.Errorf("partition: rank %d's edge %d (%d, %d) has an end outside [0, %d)", c.Rank(), k, e.V0, e.V1, n)
			break
		}
	}
	flag := int64(0)
	if bad != nil {
		flag = 1
	}
	anyBad, err := comm.AllreduceInt64(c, flag, comm.Max)
	switch {
	case err != nil:
		return fmt.Errorf("partition: checking edges: %w", err)
	case bad != nil:
		return bad
	case anyBad != 0:
		return fmt.Errorf("partition: another rank holds an edge outside [0, %d)", n)
	}
	return nil
}

// key is the integer type of exchanged entries.
type key interface{ ~int64 | ~uint32 }

// exchange sends both directions of every non-self-loop edge to the rank
// dest names, encoded as the pair (a, b) dest returns, and returns the
// received pairs interleaved (a0, b0, a1, b1, ...). dest must be safe for
// concurrent calls. Two parallel passes over fixed segments of the edges
// (count per segment and rank, then fill) keep the send buffer exactly
// sized and each rank's part in edge order; a single rank keeps its buffer
// (no copy through the communicator). At scale 24 the serial version and
// the copy were most of atomic2d's construction time.
func exchange[T key](c comm.Comm, edges []graph500.Edge, dest func(u, v int64) (int, T, T)) ([]T, error) {
	p := int64(c.Size())
	m := int64(len(edges))
	nseg := min(int64(8*runtime.GOMAXPROCS(0)), max(m, 1))
	segment := func(s int64) []graph500.Edge { return edges[s*m/nseg : (s+1)*m/nseg] }
	counts := make([]int, nseg*p) // counts[s*p+r]: entries of segment s for rank r
	par.For(nseg, func(lo, hi int64) {
		for s := lo; s < hi; s++ {
			cs := counts[s*p : (s+1)*p]
			for _, e := range segment(s) {
				if e.V0 == e.V1 {
					continue
				}
				r, _, _ := dest(e.V0, e.V1)
				cs[r] += 2
				r, _, _ = dest(e.V1, e.V0)
				cs[r] += 2
			}
		}
	})
	perRank := make([]int, p)
	for s := int64(0); s < nseg; s++ {
		for r := int64(0); r < p; r++ {
			perRank[r] += counts[s*p+r]
		}
	}
	displs, total := comm.Displs(perRank)
	pos := make([]int, nseg*p) // where segment s writes its entries for rank r
	for r := int64(0); r < p; r++ {
		at := displs[r]
		for s := int64(0); s < nseg; s++ {
			pos[s*p+r] = at
			at += counts[s*p+r]
		}
	}
	send := make([]T, total)
	par.For(nseg, func(lo, hi int64) {
		for s := lo; s < hi; s++ {
			ps := pos[s*p : (s+1)*p]
			put := func(u, v int64) {
				r, a, b := dest(u, v)
				send[ps[r]], send[ps[r]+1] = a, b
				ps[r] += 2
			}
			for _, e := range segment(s) {
				if e.V0 != e.V1 {
					put(e.V0, e.V1)
					put(e.V1, e.V0)
				}
			}
		}
	})
	if p == 1 {
		return send, nil
	}
	recv, _, err := comm.AlltoallvSlice(c, send, perRank)
	return recv, err
}

// compress turns interleaved (k, x) pairs, 0 ≤ k < nKeys, x ≥ 0, into
// offsets (nKeys+1) and the x values grouped by k, each group sorted. It
// consumes pairs: vals is stored in its first half.
//
// A counting sort by k in two passes, neither with atomics nor random
// writes over the whole output: the pairs are first moved, segment by
// segment, into buckets of consecutive keys (each segment counts its
// entries per bucket, then writes them in runs); then each bucket, whose
// keys no other bucket holds, is counted and scattered on its own within
// its range of vals, with a counter array the size of a bucket. Finally
// each group is sorted (radixSort for long groups). A single scatter with
// an atomic counter per key (random writes over vals, contended counters
// on the hubs' keys) was the costliest step of the construction; the two
// passes took BenchmarkBuild2D from 1.73 to 1.44 s (2 cores).
func compress[T key](nKeys int64, pairs []T) (offsets []int64, vals []T) {
	m := int64(len(pairs) / 2)
	offsets = make([]int64, nKeys+1)
	if m == 0 {
		return offsets, make([]T, 0)
	}
	shift := uint(0) // buckets of 2^shift consecutive keys
	for (nKeys-1)>>shift >= compressBuckets {
		shift++
	}
	nb := (nKeys-1)>>shift + 1
	nseg := min(int64(8*runtime.GOMAXPROCS(0)), m)
	segment := func(s int64) (lo, hi int64) { return s * m / nseg, (s + 1) * m / nseg }
	counts := make([]int64, nseg*nb) // counts[s*nb+b]: entries of segment s in bucket b
	par.For(nseg, func(lo, hi int64) {
		for s := lo; s < hi; s++ {
			cs := counts[s*nb : (s+1)*nb]
			a, b := segment(s)
			for k := a; k < b; k++ {
				cs[int64(pairs[2*k])>>shift]++
			}
		}
	})
	bstart := make([]int64, nb+1) // bucket b's entries: [bstart[b], bstart[b+1])
	at := int64(0)
	for b := int64(0); b < nb; b++ {
		bstart[b] = at
		for s := int64(0); s < nseg; s++ {
			c := counts[s*nb+b]
			counts[s*nb+b] = at // where segment s writes its entries of bucket b
			at += c
		}
	}
	bstart[nb] = at
	tmp := make([]T, 2*m)
	par.For(nseg, func(lo, hi int64) {
		for s := lo; s < hi; s++ {
			ps := counts[s*nb : (s+1)*nb]
			a, b := segment(s)
			for k := a; k < b; k++ {
				key := pairs[2*k]
				p := &ps[int64(key)>>shift]
				tmp[2**p], tmp[2**p+1] = key, pairs[2*k+1]
				*p++
			}
		}
	})
	vals = pairs[:m:m] // every pair is in tmp now
	par.For(nb, func(lo, hi int64) {
		next := make([]int64, 1<<shift)
		for b := lo; b < hi; b++ {
			k0, k1 := b<<shift, min((b+1)<<shift, nKeys)
			clear(next)
			for e := bstart[b]; e < bstart[b+1]; e++ {
				next[int64(tmp[2*e])-k0]++
			}
			run := bstart[b]
			for k := k0; k < k1; k++ {
				c := next[k-k0]
				offsets[k], next[k-k0] = run, run
				run += c
			}
			for e := bstart[b]; e < bstart[b+1]; e++ {
				i := int64(tmp[2*e]) - k0
				vals[next[i]] = tmp[2*e+1]
				next[i]++
			}
		}
	})
	offsets[nKeys] = m
	par.For(nKeys, func(lo, hi int64) {
		var scratch []T
		for k := lo; k < hi; k++ {
			g := vals[offsets[k]:offsets[k+1]]
			if len(g) < radixMin {
				slices.Sort(g)
				continue
			}
			if len(scratch) < len(g) {
				scratch = make([]T, len(g))
			}
			radixSort(g, scratch)
		}
	})
	return offsets, vals
}

// compressBuckets bounds compress's buckets: each segment writes that many
// runs at once, and each bucket's counters are 2^shift int64s.
const compressBuckets = 2048

// radixMin is the group length from which compress sorts by radix: the
// hubs of a Kronecker graph hold most entries, and pdqsort's n·log n
// compares were a third of the construction time. From 256 on, BenchmarkBuild2D
// (scale 20, 2 cores) fell from 1.77 to 1.25 s; 1024 gained less.
const radixMin = 256

// radixSort sorts v (non-negative values) by LSD passes of radixBits bits,
// over the bits its largest value uses, through scratch (len ≥ len(v)).
func radixSort[T key](v, scratch []T) {
	const radixBits = 11
	const buckets = 1 << radixBits
	var hi T
	for _, x := range v {
		hi = max(hi, x)
	}
	src, dst := v, scratch[:len(v)]
	for shift := 0; shift < bits.Len64(uint64(hi)); shift += radixBits {
		var at [buckets + 1]int
		for _, x := range src {
			at[(uint64(x)>>shift)&(buckets-1)+1]++
		}
		for d := 1; d <= buckets; d++ {
			at[d] += at[d-1]
		}
		for _, x := range src {
			d := (uint64(x) >> shift) & (buckets - 1)
			dst[at[d]] = x
			at[d]++
		}
		src, dst = dst, src
	}
	if len(v) > 0 && &src[0] != &v[0] {
		copy(v, src)
	}
}
