package ubfs

// cpu_engine.go: the CPU backend, the kernels of [1] §V as Go loops over
// the same bitmaps, CQ list and bounded edge buffer as the CUDA backend.
// A rank's kernels run on its own goroutine; the in-process ranks of a grid
// run in parallel.

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/bfsbench/bfsbench/harness/partition"
	"github.com/bfsbench/bfsbench/harness/vlq"
)

type cpuEngine struct {
	l        partition.Layout2D
	i, j     int
	colPtr   []int64
	rowIdx   []uint32
	wb       int
	opt      Options
	cq, sv   []uint32 // R·wb, C·wb words
	visited  []uint32 // wb words
	nq       []uint32 // wb words
	pred     []int64  // own block
	list     []uint32 // task 4: non-empty CQ words
	edgeSum  []int64  // edges of list[:k], k = 0..len(list)
	bufU     []uint32 // task 5's bounded buffer: source local columns
	bufV     []uint32 // and target local rows
	scratch  []uint32
	deltaBuf []uint32
}

func newCPUEngine(p *partition.Part2D, opt Options) *cpuEngine {
	l := p.Layout
	wb := BlockWords(l.B)
	return &cpuEngine{l: l, i: p.I, j: p.J, colPtr: p.ColPtr, rowIdx: p.RowIdx, wb: wb, opt: opt,
		cq: make([]uint32, l.R*wb), sv: make([]uint32, l.C*wb), visited: make([]uint32, wb),
		nq: make([]uint32, wb), pred: make([]int64, l.B)}
}

func (e *cpuEngine) Reset(rootOff, root int64) error {
	clear(e.sv)
	clear(e.visited)
	clear(e.nq)
	for k := range e.pred {
		e.pred[k] = -1
	}
	if rootOff >= 0 {
		e.visited[rootOff/32] |= 1 << (rootOff % 32)
		e.nq[rootOff/32] |= 1 << (rootOff % 32)
		e.pred[rootOff] = root
	}
	return nil
}

func (e *cpuEngine) NQCount() (int64, error) {
	n := 0
	for _, w := range e.nq {
		n += bits.OnesCount32(w)
	}
	return int64(n), nil
}

func (e *cpuEngine) NQBitmap(dst []uint32) error {
	copy(dst, e.nq)
	return nil
}

// NQEncode lists NQ in increasing offset order (the bitmap's order: no sort
// needed), then delta-codes it in SIMD VLQ (§V-B, §V-C).
func (e *cpuEngine) NQEncode(dst []byte) (int, error) {
	e.scratch = bitmapList(e.scratch[:0], e.nq, 0)
	enc, d, err := vlq.AppendList(dst[:0], e.scratch, e.deltaBuf, vlq.WarpWidth)
	e.deltaBuf = d
	if err != nil {
		return 0, err
	}
	if len(enc) > len(dst) {
		return 0, fmt.Errorf("NQ coding of %d bytes exceeds its %d-byte buffer", len(enc), len(dst))
	}
	return copy(dst, enc), nil
}

// bitmapList appends the offsets (base + bit index) of the set bits.
func bitmapList(dst, words []uint32, base uint32) []uint32 {
	for w, x := range words {
		for x != 0 {
			b := bits.TrailingZeros32(x)
			x &= x - 1
			dst = append(dst, base+uint32(32*w+b))
		}
	}
	return dst
}

// loadPart ORs (or copies, when set is false) a received part into a block
// bitmap.
func (e *cpuEngine) loadPart(dst []uint32, p Part, or bool) error {
	if p.Own {
		p.Bitmap = e.nq
	}
	if p.Bitmap != nil {
		if len(p.Bitmap) != len(dst) {
			return fmt.Errorf("bitmap of %d words, want %d", len(p.Bitmap), len(dst))
		}
		if or {
			for k, w := range p.Bitmap {
				dst[k] |= w
			}
		} else {
			copy(dst, p.Bitmap)
		}
		return nil
	}
	if !or {
		clear(dst)
	}
	var err error
	e.scratch, _, err = vlq.DecodeList(e.scratch[:0], p.Stream, p.N, vlq.WarpWidth)
	if err != nil {
		return err
	}
	for _, o := range e.scratch {
		if int64(o) >= e.l.B {
			return fmt.Errorf("vertex offset %d beyond the block of %d", o, e.l.B)
		}
		dst[o/32] |= 1 << (o % 32)
	}
	return nil
}

func (e *cpuEngine) LoadExpand(col, row []Part) error {
	if len(col) != e.l.R {
		return fmt.Errorf("%d column parts, want %d", len(col), e.l.R)
	}
	for r, p := range col {
		if err := e.loadPart(e.cq[r*e.wb:(r+1)*e.wb], p, false); err != nil {
			return fmt.Errorf("CQ block %d: %w", r, err)
		}
	}
	for m, p := range row { // §V-F-2: NQ vertices are visited
		if err := e.loadPart(e.sv[m*e.wb:(m+1)*e.wb], p, true); err != nil {
			return fmt.Errorf("SV block %d: %w", m, err)
		}
	}
	clear(e.nq)
	return nil
}

// CQList is task 4: the non-empty CQ words and, by a prefix sum, the edges
// before each.
func (e *cpuEngine) CQList() (int, error) {
	e.list = e.list[:0]
	e.edgeSum = append(e.edgeSum[:0], 0)
	var sum int64
	for w, x := range e.cq {
		if x == 0 {
			continue
		}
		e.list = append(e.list, uint32(w))
		base := e.wordCol(w)
		for x != 0 {
			b := bits.TrailingZeros32(x)
			x &= x - 1
			lc := base + int64(b)
			sum += e.colPtr[lc+1] - e.colPtr[lc]
		}
		e.edgeSum = append(e.edgeSum, sum)
	}
	return len(e.list), nil
}

// wordCol is the local column of bit 0 of CQ word w.
func (e *cpuEngine) wordCol(w int) int64 {
	return int64(w/e.wb)*e.l.B + int64(32*(w%e.wb))
}

// GatherFilter is tasks 5–6 for CQ list entries [start, end), end the last
// whose edges fit in the buffer (at least start+1).
func (e *cpuEngine) GatherFilter(start int, out [][]uint32) (int, error) {
	limit := e.edgeSum[start] + int64(e.opt.EdgeBuffer)
	end := start + sort.Search(len(e.list)-start, func(k int) bool { return e.edgeSum[start+k+1] > limit })
	end = max(end, start+1)
	// Task 5: gather the part's edges into the buffer (split), or hand
	// each to task 6 at once (fused).
	fused := e.opt.GatherFilter == GatherFused
	e.bufU, e.bufV = e.bufU[:0], e.bufV[:0]
	for _, w := range e.list[start:end] {
		x := e.cq[w]
		base := e.wordCol(int(w))
		for x != 0 {
			b := bits.TrailingZeros32(x)
			x &= x - 1
			lc := base + int64(b)
			for _, lr := range e.rowIdx[e.colPtr[lc]:e.colPtr[lc+1]] {
				if fused {
					e.filter(uint32(lc), lr, out)
					continue
				}
				e.bufU = append(e.bufU, uint32(lc))
				e.bufV = append(e.bufV, lr)
			}
		}
	}
	// Task 6 over the buffer.
	for k, lr := range e.bufV {
		e.filter(e.bufU[k], lr, out)
	}
	return end, nil
}

// filter is task 6 for edge lc -> lr (Algorithm V). The goroutine owns SV,
// so the three methods read and write alike here.
func (e *cpuEngine) filter(lc, lr uint32, out [][]uint32) {
	B := e.l.B
	m := int(int64(lr) / B)
	o := uint32(int64(lr) % B)
	w := &e.sv[m*e.wb+int(o/32)]
	mask := uint32(1) << (o % 32)
	if *w&mask != 0 {
		return
	}
	*w |= mask
	if m == e.j {
		e.visit(o, e.l.ColGlobal(e.j, lc))
	} else {
		out[m] = append(out[m], o, lc)
	}
}

// visit is task 8 for one edge: an unvisited target is visited, gets its
// predecessor and joins NQ.
func (e *cpuEngine) visit(o uint32, pred int64) {
	mask := uint32(1) << (o % 32)
	if e.visited[o/32]&mask != 0 {
		return
	}
	e.visited[o/32] |= mask
	e.nq[o/32] |= mask
	e.pred[o] = pred
}

func (e *cpuEngine) ApplyFold(src int, pairs []uint32) error {
	if len(pairs)%2 != 0 {
		return fmt.Errorf("fold chunk of %d words", len(pairs))
	}
	for k := 0; k < len(pairs); k += 2 {
		o, lc := pairs[k], pairs[k+1]
		if int64(o) >= e.l.B || int64(lc) >= e.l.LocalCols() {
			return fmt.Errorf("fold pair (%d, %d) out of range", o, lc)
		}
		e.visit(o, e.l.ColGlobal(src, lc))
	}
	return nil
}

func (e *cpuEngine) Parents(dst []int64) error {
	if len(dst) > len(e.pred) {
		return fmt.Errorf("parents: %d entries asked, block holds %d", len(dst), len(e.pred))
	}
	copy(dst, e.pred)
	return nil
}

func (e *cpuEngine) Counters() (map[string]float64, int64, int64) { return nil, 0, 0 }

func (e *cpuEngine) Close() error { return nil }
