package ubfs

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/partition"
	"github.com/bfsbench/bfsbench/harness/vlq"
)

// star is a 1×1 block of n vertices: vertex 0 linked both ways to every
// other vertex, so that the root's level reaches them all.
func star(t *testing.T, n int64) *partition.Part2D {
	t.Helper()
	l, err := partition.NewLayout2D(n, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := &partition.Part2D{Layout: l, ColPtr: make([]int64, n+1)}
	for v := int64(0); v < n; v++ {
		if v == 0 {
			for w := int64(1); w < n; w++ {
				p.RowIdx = append(p.RowIdx, uint32(w))
			}
		} else {
			p.RowIdx = append(p.RowIdx, 0)
		}
		p.ColPtr[v+1] = int64(len(p.RowIdx))
	}
	return p
}

// TestCPUEngineLevels runs two levels of a star by hand: the root's level
// is one CQ word with more edges than the buffer (a part of its own), the
// next level many words cut into parts that fit.
func TestCPUEngineLevels(t *testing.T) {
	for _, gf := range []string{GatherSplit, GatherFused} {
		n := int64(300)
		opt := Options{Alpha: 1.0 / 16, Compression: true, ShareSV: true, SVUpdate: SVTestTestAndSet, EdgeBuffer: 64, FoldChunk: 8, GatherFilter: gf}
		if err := opt.check(); err != nil {
			t.Fatal(err)
		}
		e := newCPUEngine(star(t, n), opt)
		if err := e.Reset(0, 0); err != nil {
			t.Fatal(err)
		}
		// Level 0: NQ = {0}, coded and loaded as another rank's list.
		buf := make([]byte, vlq.MaxBytes*n)
		nb, err := e.NQEncode(buf)
		if err != nil || nb != 1 || buf[0] != 0 {
			t.Fatalf("NQ coding: %d bytes % X, %v", nb, buf[:nb], err)
		}
		if err := e.LoadExpand([]Part{{Stream: buf[:nb], N: 1}}, []Part{{Own: true}}); err != nil {
			t.Fatal(err)
		}
		if c, _ := e.NQCount(); c != 0 {
			t.Fatalf("NQ has %d vertices after the expand", c)
		}
		words, _ := e.CQList()
		if words != 1 {
			t.Fatalf("CQ list of %d words, want 1", words)
		}
		out := make([][]uint32, 1)
		if next, err := e.GatherFilter(0, out); err != nil || next != 1 {
			t.Fatalf("gather from 0: next %d, %v", next, err)
		}
		if c, _ := e.NQCount(); c != n-1 {
			t.Fatalf("level 1 found %d vertices, want %d", c, n-1)
		}
		// Level 1: every leaf; their edges all lead to the visited root.
		if err := e.LoadExpand([]Part{{Own: true}}, []Part{{Own: true}}); err != nil {
			t.Fatal(err)
		}
		words, _ = e.CQList()
		parts := 0
		for start := 0; start < words; parts++ {
			next, err := e.GatherFilter(start, out)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.edgeSum[next] - e.edgeSum[start]; got > int64(opt.EdgeBuffer) && next != start+1 {
				t.Fatalf("part [%d, %d) holds %d edges, buffer %d", start, next, got, opt.EdgeBuffer)
			}
			start = next
		}
		if parts < 2 {
			t.Errorf("%s: %d parts for %d words", gf, parts, words)
		}
		if c, _ := e.NQCount(); c != 0 {
			t.Fatalf("level 2 found %d vertices", c)
		}
		pred := make([]int64, n)
		if err := e.Parents(pred); err != nil {
			t.Fatal(err)
		}
		for v, p := range pred {
			if p != 0 {
				t.Fatalf("parent of %d is %d, want 0", v, p)
			}
		}
	}
}

func TestOptionsCheck(t *testing.T) {
	good := Options{Alpha: 0.0625, SVUpdate: SVTestAndSet, EdgeBuffer: 32, FoldChunk: 1}
	for _, bad := range []func(o *Options){
		func(o *Options) { o.SVUpdate = "D" },
		func(o *Options) { o.Alpha = 2 },
		func(o *Options) { o.EdgeBuffer = 31 },
		func(o *Options) { o.FoldChunk = 0 },
		func(o *Options) { o.GatherFilter = "both" },
	} {
		o := good
		bad(&o)
		if o.check() == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if err := good.check(); err != nil {
		t.Error(err)
	}
}
