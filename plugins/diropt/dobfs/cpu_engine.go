package dobfs

// cpu_engine.go is the CPU backend: ExploreFrontier top-down (Algorithm 3)
// and bottom-up in Go, with goroutines over chunks of bitmap words playing
// the GPU's warps and sync/atomic playing atomicOr, so that the CPU backend
// runs the algorithm the CUDA kernels run (cuda/diropt.cu).

import (
	"fmt"
	"math/bits"
	"sync/atomic"
)

// cpuEngine is one rank's CPU backend.
type cpuEngine struct {
	b       *Block
	workers int
	single  bool
	split   uint32 // the split level's degree bound D (split.go; 0: none)

	in, out, visited []uint32 // in_queue (local columns), out_queue and visited (local rows)
	pred             []uint32 // per local row: the predecessor's local column
	// 2D only: the rows assigned by the last Merge and by every Merge of
	// the search, and the own block's parents (WritePred's target).
	levelAssigned, allAssigned []uint32
	parents                    []int64
	root                       int64 // the root's local row (1×1)
	st                         *Staging
}

func newCPUEngine(b *Block, workers int, split int64) (*cpuEngine, error) {
	l := b.L
	e := &cpuEngine{b: b, workers: workers, single: l.R*l.C == 1, split: uint32(split),
		in:      make([]uint32, words(l.LocalCols())),
		out:     make([]uint32, words(l.LocalRows())),
		visited: make([]uint32, words(l.LocalRows())),
		pred:    make([]uint32, l.LocalRows()),
	}
	leafPreds(e.b.Leaves, e.pred)
	if !e.single {
		e.levelAssigned = make([]uint32, len(e.visited))
		e.allAssigned = make([]uint32, len(e.visited))
		e.parents = make([]int64, b.OwnLen())
		st, err := newStaging(b, func(n int64) ([]uint32, error) { return make([]uint32, n), nil })
		if err != nil {
			return nil, err
		}
		// The CPU engine's queues are host memory: the exchanges use them
		// in place.
		st.Out, st.In = e.out, e.in
		e.st = st
	}
	return e, nil
}

func (e *cpuEngine) Reset(r RootPos) (int64, error) {
	if e.b.Skip != nil {
		copy(e.visited, e.b.Skip) // the isolated rows and the leaves
	} else {
		copy(e.visited, e.b.Isolated)
	}
	clear(e.in)
	clear(e.out)
	var deg int64
	if r.Row >= 0 {
		setBit(e.visited, uint32(r.Row))
		deg = int64(e.b.BU.Deg(uint32(r.Row)))
		if !e.single { // 1×1: Parents gives the root itself, so that a leaf's pred stays its neighbour
			e.pred[r.Row] = uint32(r.Row)
		}
		e.root = r.Row
	}
	if r.Col >= 0 {
		setBit(e.in, uint32(r.Col))
	}
	if !e.single {
		clear(e.allAssigned)
		for k := range e.parents {
			e.parents[k] = -1
		}
		if r.Own >= 0 {
			e.parents[r.Own] = r.Global
		}
	}
	return deg, nil
}

func (e *cpuEngine) Explore(d Dir) (Explored, error) {
	switch d {
	case BottomUp:
		return e.bottomUp(nil), nil
	case Split:
		if !e.single || e.split == 0 {
			return Explored{}, fmt.Errorf("a split level without the split on a 1×1 grid")
		}
		return e.exploreSplit(), nil
	}
	return e.topDown(), nil
}

// topDown is Algorithm 3 (the CSR exploration): each set bit u of in_queue
// (a word at a time, line 13: an empty word costs nothing) has its list
// read (lines 16-21), and each neighbour v not yet visited (line 36) is
// claimed with an atomic OR on visited (line 37); the caller whose OR set
// the bit adds v to out_queue (line 38) and writes its predecessor, so
// predecessors are unique.
func (e *cpuEngine) topDown() Explored {
	clear(e.out)
	var found, degs, edges atomic.Int64
	forChunks(int64(len(e.in)), 1, e.workers, func(lo, hi int64) {
		var f, dg, ed int64
		for w := lo; w < hi; w++ {
			word := e.in[w]
			for word != 0 { // lines 13-15
				k := bits.TrailingZeros32(word)
				word &= word - 1
				u := uint32(w)*32 + uint32(k) // line 17
				list := e.b.TD.List(u)        // lines 18-20
				ed += int64(len(list))
				for _, v := range list { // lines 34-41
					if atomicTest(e.visited, v) || !atomicSet(e.visited, v) {
						continue
					}
					atomic.OrUint32(&e.out[v>>5], 1<<(v&31))
					e.pred[v] = u
					f++
					dg += int64(e.b.BU.Deg(v))
				}
			}
		}
		found.Add(f)
		degs.Add(dg)
		edges.Add(ed)
	})
	return Explored{Found: found.Load(), Degrees: degs.Load(), Edges: edges.Load()}
}

// bottomUp is the CSC exploration: every unvisited vertex v scans its
// neighbours for one in in_queue and stops at the first, which becomes its
// predecessor. A chunk owns whole words of visited and out_queue (32
// vertices each, a warp's share on the GPU), so they are written without
// atomics. skip, where not nil, gives the rows of word w that the level
// leaves alone though unvisited (the split level's, split.go), before the
// word is written.
func (e *cpuEngine) bottomUp(skip func(w int64) uint32) Explored {
	var found, degs, edges atomic.Int64
	forChunks(int64(len(e.visited)), 1, e.workers, func(lo, hi int64) {
		var f, dg, ed int64
		for w := lo; w < hi; w++ {
			vis := e.visited[w]
			open := ^vis
			if skip != nil {
				open &^= skip(w)
			}
			var hit uint32
			for todo := open; todo != 0; todo &= todo - 1 {
				k := bits.TrailingZeros32(todo)
				v := uint32(w)*32 + uint32(k)
				for _, u := range e.b.BU.List(v) {
					ed++
					if testBit(e.in, u) {
						e.pred[v] = u
						hit |= 1 << k
						f++
						dg += int64(e.b.BU.Deg(v))
						break
					}
				}
			}
			e.out[w] = hit
			e.visited[w] = vis | hit
		}
		found.Add(f)
		degs.Add(dg)
		edges.Add(ed)
	})
	return Explored{Found: found.Load(), Degrees: degs.Load(), Edges: edges.Load()}
}

func (e *cpuEngine) Swap() error {
	if !e.single {
		return fmt.Errorf("swap on a 2D grid")
	}
	e.in, e.out = e.out, e.in
	return nil
}

func (e *cpuEngine) Finish() (float64, error) { return 0, nil }

func (e *cpuEngine) Staging() *Staging { return e.st }

func (e *cpuEngine) StageOut() error { return nil }

func (e *cpuEngine) LoadIn() error { return nil }

func (e *cpuEngine) Merge() (int64, error) {
	st := e.st
	var mf atomic.Int64
	forChunks(int64(len(e.visited)), 1, e.workers, func(lo, hi int64) {
		var s int64
		for w := lo; w < hi; w++ {
			la := e.out[w] &^ st.Prefix[w]
			e.levelAssigned[w] = la
			e.allAssigned[w] |= la
			u := st.Union[w]
			e.visited[w] |= u
			for ; u != 0; u &= u - 1 {
				s += int64(e.b.BU.Deg(uint32(w)*32 + uint32(bits.TrailingZeros32(u))))
			}
		}
		mf.Add(s)
	})
	return mf.Load(), nil
}

func (e *cpuEngine) Assigned(all bool, f func(row, col uint32)) error {
	bm := e.levelAssigned
	if all {
		bm = e.allAssigned
	}
	for w, x := range bm {
		for ; x != 0; x &= x - 1 {
			v := uint32(w)*32 + uint32(bits.TrailingZeros32(x))
			f(v, e.pred[v])
		}
	}
	return nil
}

func (e *cpuEngine) WriteParents(pairs []int64) error {
	for k := 0; k+1 < len(pairs); k += 2 {
		o := pairs[k]
		if o < 0 || o >= int64(len(e.parents)) {
			return fmt.Errorf("parent pair for offset %d outside the own block of %d", o, len(e.parents))
		}
		e.parents[o] = pairs[k+1]
	}
	return nil
}

func (e *cpuEngine) Parents(dst []int64) error {
	if !e.single {
		if len(dst) != len(e.parents) {
			return fmt.Errorf("parents buffer of %d for a block of %d", len(dst), len(e.parents))
		}
		copy(dst, e.parents)
		return nil
	}
	forChunks(int64(len(dst)), 32, e.workers, func(lo, hi int64) {
		for v := lo; v < hi; v++ {
			if v == e.root {
				dst[v] = v
			} else if testBit(e.visited, uint32(v)) && !testBit(e.b.Isolated, uint32(v)) {
				dst[v] = int64(e.pred[v])
			} else {
				dst[v] = -1
			}
		}
	})
	return nil
}

// LeafPass runs after the last level's swap, which left that level's
// frontier in out.
func (e *cpuEngine) LeafPass() (int64, bool, error) {
	n, deep := leafPass(e.b.Leaves, e.visited, e.out, e.root, e.workers)
	return n, deep, nil
}

func (e *cpuEngine) Close() error { return nil }
