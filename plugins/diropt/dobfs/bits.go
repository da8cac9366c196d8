package dobfs

// bits.go: the bitmaps of the seed's §IV-D ("we decided to keep the bitmap
// implementation for the communications and the queues"): in_queue,
// out_queue and visited hold one bit per vertex, bit v in 32-bit word v/32
// at position v%32, as harness/cuda/include/bfsb_bitmap.cuh lays them out
// on the device, so that a bitmap can move between host and device as is.

import (
	"math/bits"
	"sync/atomic"

	"github.com/bfsbench/bfsbench/harness/par"
)

// words is the number of 32-bit words for n bits.
func words(n int64) int64 { return (n + 31) / 32 }

// testBit reports whether bit v of bm is set.
func testBit(bm []uint32, v uint32) bool { return bm[v>>5]>>(v&31)&1 != 0 }

// setBit sets bit v of bm (not atomically).
func setBit(bm []uint32, v uint32) { bm[v>>5] |= 1 << (v & 31) }

// getBits returns the n ≤ 32 bits of src starting at bit off, in the low
// bits of the result.
func getBits(src []uint32, off int64, n int) uint32 {
	w, s := off>>5, uint(off&31)
	x := src[w] >> s
	if s != 0 && int(32-s) < n {
		x |= src[w+1] << (32 - s)
	}
	if n < 32 {
		x &= 1<<uint(n) - 1
	}
	return x
}

// extractBits copies bits [off, off+n) of src into dst[0:words(n)] (bits
// past n cleared): a block of a bitmap whose offset need not be a multiple
// of 32 (blocks of ⌈N/(R·C)⌉ vertices).
func extractBits(dst, src []uint32, off, n int64) {
	for w := int64(0); w*32 < n; w++ {
		dst[w] = getBits(src, off+32*w, int(min(32, n-32*w)))
	}
}

// placeBits ORs the n bits src[0:words(n)] into dst at bit offset off.
func placeBits(dst, src []uint32, off, n int64) {
	for w := int64(0); w*32 < n; w++ {
		k := int(min(32, n-32*w))
		x := src[w]
		if k < 32 {
			x &= 1<<uint(k) - 1
		}
		at := off + 32*w
		dw, s := at>>5, uint(at&31)
		dst[dw] |= x << s
		if s != 0 && int(32-s) < k {
			dst[dw+1] |= x >> (32 - s)
		}
	}
}

// popcount is the number of set bits of bm.
func popcount(bm []uint32) int64 {
	n := 0
	for _, x := range bm {
		n += bits.OnesCount32(x)
	}
	return int64(n)
}

// atomicSet sets bit v of bm and reports whether this call set it (the bit
// was clear): of several racing callers exactly one wins (atomicOr).
func atomicSet(bm []uint32, v uint32) bool {
	m := uint32(1) << (v & 31)
	return atomic.OrUint32(&bm[v>>5], m)&m == 0
}

// atomicTest reports whether bit v of bm is set (an atomic load: the CPU's
// stand-in for the GPU's read-only-path test, which may see a stale word).
func atomicTest(bm []uint32, v uint32) bool {
	return atomic.LoadUint32(&bm[v>>5])>>(v&31)&1 != 0
}

// forChunks calls f on disjoint chunks [lo, hi) covering [0, n), each
// boundary a multiple of align, on workers goroutines (≤ 0: GOMAXPROCS),
// chunks handed out dynamically so that power-law work balances.
func forChunks(n, align int64, workers int, f func(lo, hi int64)) {
	par.ForWorkers(n, align, workers, f)
}
