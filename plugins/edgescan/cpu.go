package main

// cpu.go: the CPU backend of edgescan, the same algorithm as the CUDA
// scan kernel (cuda/edgescan.cu, the article's kernel with our source-load
// and write-check options) with goroutines in place of threads: every
// iteration, harness/par's loop scans the whole edge list in chunks and
// checks both directions of each edge against iter; a "modified" flag ends
// the loop.
//
// Levels are uint8 (255 = unvisited), stored four to a uint32 word so that
// they can be read and written with atomic operations (Go has no 8-bit
// atomics): a write sets a byte from 255 (or from iter + 1, written by a
// racing worker) to iter + 1 with one atomic AND, which is exact because
// both of those values have every bit of iter + 1 set. Parents are written
// with atomic stores; as on the GPU, racing writers all write a parent at
// level iter, so the last one leaves a valid tree.

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/bfsbench/bfsbench/harness/par"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// lastIter is the last iteration a search may need (cuda/edgescan.h's
// EDGESCAN_MAX_ITERS - 1): iteration i writes level i + 1 and 255 marks
// unvisited, so the deepest level is 254, and iteration 254 may only
// confirm that nothing is left; if it finds an edge to an unvisited vertex,
// the graph is too deep for uint8 levels.
const lastIter = 254

// unvisited is the level of a vertex not reached yet.
const unvisited = 255

// cpuVariant is the CPU backend.
type cpuVariant struct {
	opt     options
	arr     *edgeArrays
	bound   boundBytes
	levels  []uint32 // 4 uint8 levels per word
	parents []int64
	sum     [2][]uint32 // frontier summaries (a bit per summaryGroup vertices), alternating
	last    int64       // root of the last search, -1 before any
}

func newCPU(o options) *cpuVariant { return &cpuVariant{opt: o, last: -1} }

// Construct implements sdk.Variant.
func (v *cpuVariant) Construct(w *sdk.Workload) error {
	if w.EdgeOffset != 0 || int64(len(w.Edges)) != w.NEdges {
		return errors.New("edgescan needs the whole edge list (one rank)")
	}
	arr, err := prepare(w.Edges, w.NVertices, v.opt.prep())
	if err != nil {
		return err
	}
	v.arr = arr
	v.bound = boundFor(arr)
	v.levels = make([]uint32, (arr.NV+3)/4)
	v.parents = make([]int64, arr.NV)
	for i := range v.sum {
		v.sum[i] = make([]uint32, (arr.NV+summaryGroup*32-1)/(summaryGroup*32))
	}
	return nil
}

// level reads vertex x's level.
func (v *cpuVariant) level(x uint32) uint32 {
	return atomic.LoadUint32(&v.levels[x>>2]) >> ((x & 3) * 8) & 0xff
}

// setLevel writes level l over 255 or l, see the file comment (l = 255,
// from the over-deep iteration 254, leaves the byte unchanged).
func (v *cpuVariant) setLevel(x, l uint32) {
	shift := (x & 3) * 8
	atomic.AndUint32(&v.levels[x>>2], ^((^l & 0xff) << shift))
}

// BFS implements sdk.Variant.
func (v *cpuVariant) BFS(root int64) (sdk.Search, error) {
	if v.arr == nil {
		return sdk.Search{}, errors.New("BFS before Construct")
	}
	if root < 0 || root >= v.arr.NV {
		return sdk.Search{}, fmt.Errorf("root %d out of range [0, %d)", root, v.arr.NV)
	}
	t0 := time.Now()
	v.reset()
	v.setLevel(uint32(root), 0)
	v.parents[root] = root
	clear(v.sum[0])
	v.sum[0][summaryWord(uint32(root))] |= summaryBit(uint32(root))
	var phases []results.LevelPhase
	for iter := uint32(0); ; iter++ {
		ti := time.Now()
		clear(v.sum[(iter+1)&1])
		modified := v.scan(iter)
		phases = append(phases, results.LevelPhase{
			Level: int(iter),
			Times: map[string]float64{"scan": time.Since(ti).Seconds()},
			Bytes: phaseBytes(v.arr),
		})
		if !modified {
			break
		}
		if iter == lastIter {
			return sdk.Search{}, fmt.Errorf("the search from %d is deeper than %d levels, the most uint8 levels can hold", root, lastIter)
		}
	}
	v.last = root
	return sdk.Search{TimeS: time.Since(t0).Seconds(), Levels: len(phases), Phases: phases}, nil
}

// reset marks every vertex unvisited with no parent (chunks of whole
// level words).
func (v *cpuVariant) reset() {
	par.ForAligned(int64(len(v.parents)), 4, func(lo, hi int64) {
		for i := lo; i < hi; i++ {
			v.parents[i] = -1
		}
		for i := lo / 4; i < (hi+3)/4; i++ {
			v.levels[i] = 0xffffffff
		}
	})
}

// scan runs one iteration over the whole edge list and reports whether a
// level was written.
func (v *cpuVariant) scan(iter uint32) bool {
	var modified atomic.Bool
	par.For(v.arr.M, func(lo, hi int64) {
		if v.scanRange(iter, lo, hi) {
			modified.Store(true)
		}
	})
	return modified.Load()
}

// scanRange is the article's kernel body over edges [lo, hi), with the
// options of cuda/edgescan.cu (source_loads, write_check).
func (v *cpuVariant) scanRange(iter uint32, lo, hi int64) bool {
	wrote := false
	summary := v.opt.summary()
	lazy := v.opt.lazy()
	cur := v.sum[iter&1]
	for k := lo; k < hi; k++ {
		st, en := v.arr.edge(k)
		le := v.level(en)
		if lazy && le < iter {
			continue // en was reached before iter: the edge cannot act
		}
		if summary && le > iter && cur[summaryWord(st)]&summaryBit(st) == 0 {
			continue // en unvisited, and no vertex of st's group is in the frontier
		}
		ls := v.level(st)
		if ls == iter {
			if le > iter {
				wrote = v.claim(en, st, iter) || wrote
			}
		} else if le == iter && ls > iter {
			wrote = v.claim(st, en, iter) || wrote
		}
	}
	return wrote
}

// claim writes level iter + 1 and parent `from` for x; with write_check it
// leaves a vertex already claimed in this iteration alone (see Claim in
// cuda/edgescan.cu).
func (v *cpuVariant) claim(x, from, iter uint32) bool {
	if v.opt.WriteCheck && v.level(x) != unvisited {
		return false
	}
	v.setLevel(x, iter+1)
	atomic.StoreInt64(&v.parents[x], int64(from))
	if v.opt.summary() {
		atomic.OrUint32(&v.sum[(iter+1)&1][summaryWord(x)], summaryBit(x))
	}
	return true
}

// summaryGroup is the number of vertices one bit of the frontier summary
// stands for (kGroupShift in cuda/edgescan.cu).
const summaryGroup = 64

func summaryWord(x uint32) uint32 { return x / (summaryGroup * 32) }
func summaryBit(x uint32) uint32  { return 1 << (x / summaryGroup % 32) }

// Parents implements sdk.Variant.
func (v *cpuVariant) Parents(dst []int64) error {
	if v.last < 0 {
		return errors.New("Parents before any BFS")
	}
	if len(dst) != len(v.parents) {
		return fmt.Errorf("parents: destination has %d entries, want %d", len(dst), len(v.parents))
	}
	copy(dst, v.parents)
	return nil
}

// Levels returns the last search's levels (255 for unreached), for tests.
func (v *cpuVariant) Levels() []uint8 {
	out := make([]uint8, v.arr.NV)
	for i := range out {
		out[i] = uint8(v.level(uint32(i)))
	}
	return out
}

// CaseInfo implements sdk.Informer.
func (v *cpuVariant) CaseInfo() map[string]any {
	if v.arr == nil {
		return nil
	}
	return v.bound.info(v.arr, v.opt)
}

// Close implements sdk.Variant.
func (v *cpuVariant) Close() error {
	v.arr, v.levels, v.parents = nil, nil, nil
	return nil
}
