package mgbfs

// partition.go: the 1D partition by destination and its CSRs.

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

// Part is one partition's share of the graph: the edges (u → v) with v in
// [Lo, Hi), as a CSR over every u of the graph (RowPtr has N+1 entries) whose
// columns are local (v - Lo). Both directions of every input edge are
// stored; self-loops are dropped (they can never give a parent), duplicate
// edges are kept, as the paper's CSR keeps them.
type Part struct {
	Lo, Hi int64
	RowPtr []int64
	Col    []uint32
}

// NNZ is the number of CSR entries.
func (p *Part) NNZ() int64 { return int64(len(p.Col)) }

// Partition is the whole graph split in P parts.
type Partition struct {
	N     int64
	P     int
	Lo    []int64 // P+1 range bounds: part i owns [Lo[i], Lo[i+1])
	Parts []Part
	// Deg is every vertex's degree over all parts (the length of its
	// adjacency list in the undivided graph): the edges a frontier vertex
	// makes the search examine.
	Deg []uint32
}

// Ranges returns the P+1 bounds of p contiguous ranges covering [0, n),
// of sizes differing by at most one.
func Ranges(n int64, p int) []int64 {
	lo := make([]int64, p+1)
	for i := range lo {
		lo[i] = int64(i) * n / int64(p)
	}
	return lo
}

// Owner returns the part owning vertex v.
func (pt *Partition) Owner(v int64) int { return owner(pt.Lo, pt.N, v) }

func owner(lo []int64, n, v int64) int {
	p := len(lo) - 1
	i := int(v * int64(p) / n)
	for i+1 < p && lo[i+1] <= v {
		i++
	}
	for i > 0 && lo[i] > v {
		i--
	}
	return i
}

// Build splits the n-vertex graph of edges into p parts, with workers
// goroutines (≤ 0: GOMAXPROCS). Graph500 kernel 1.
func Build(n int64, edges []graph500.Edge, p, workers int) (*Partition, error) {
	if p < 1 {
		return nil, fmt.Errorf("partitions = %d, want at least 1", p)
	}
	if n < 1 || n >= 1<<32-1 {
		return nil, fmt.Errorf("%d vertices: this variant keeps 32-bit vertex ids (fewer than 2^32-1)", n)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	pt := &Partition{N: n, P: p, Lo: Ranges(n, p), Parts: make([]Part, p), Deg: make([]uint32, n)}
	for i := range pt.Parts {
		pt.Parts[i] = Part{Lo: pt.Lo[i], Hi: pt.Lo[i+1], RowPtr: make([]int64, n+1)}
	}
	// Count: RowPtr[i][u+1] is the number of entries of row u in part i.
	chunks(int64(len(edges)), workers, func(a, b int64) {
		for _, e := range edges[a:b] {
			u, v := e.V0, e.V1
			if u == v {
				continue
			}
			atomic.AddInt64(&pt.Parts[owner(pt.Lo, n, v)].RowPtr[u+1], 1)
			atomic.AddInt64(&pt.Parts[owner(pt.Lo, n, u)].RowPtr[v+1], 1)
			atomic.AddUint32(&pt.Deg[u], 1)
			atomic.AddUint32(&pt.Deg[v], 1)
		}
	})
	cursor := make([][]int64, p)
	var wg sync.WaitGroup
	for i := range pt.Parts {
		wg.Add(1)
		go func(part *Part, i int) {
			defer wg.Done()
			r := part.RowPtr
			for u := int64(0); u < n; u++ {
				r[u+1] += r[u]
			}
			part.Col = make([]uint32, r[n])
			cursor[i] = make([]int64, n)
			copy(cursor[i], r[:n])
		}(&pt.Parts[i], i)
	}
	wg.Wait()
	chunks(int64(len(edges)), workers, func(a, b int64) {
		for _, e := range edges[a:b] {
			u, v := e.V0, e.V1
			if u == v {
				continue
			}
			i, j := owner(pt.Lo, n, v), owner(pt.Lo, n, u)
			pi, pj := &pt.Parts[i], &pt.Parts[j]
			pi.Col[atomic.AddInt64(&cursor[i][u], 1)-1] = uint32(v - pi.Lo)
			pj.Col[atomic.AddInt64(&cursor[j][v], 1)-1] = uint32(u - pj.Lo)
		}
	})
	return pt, nil
}

// chunks runs f over [0, n) cut in about 4·workers pieces, in parallel.
func chunks(n int64, workers int, f func(a, b int64)) {
	if n == 0 {
		return
	}
	workers = max(workers, 1)
	pieces := int64(4 * workers)
	if n < 4096 || workers == 1 {
		pieces = 1
	}
	step := (n + pieces - 1) / pieces
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers && int64(w) < pieces; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				a := (next.Add(1) - 1) * step
				if a >= n {
					return
				}
				f(a, min(a+step, n))
			}
		}()
	}
	wg.Wait()
}
