package dobfs

import (
	"math/rand/v2"
	"testing"
)

// TestBlockBits checks extractBits and placeBits against a bit-by-bit copy
// at offsets and lengths that are not multiples of 32.
func TestBlockBits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]uint32, 8)
	for k := range src {
		src[k] = r.Uint32()
	}
	for _, c := range []struct{ off, n int64 }{{0, 256}, {3, 70}, {32, 31}, {37, 100}, {200, 56}, {5, 0}} {
		blk := make([]uint32, words(c.n)+1)
		extractBits(blk, src, c.off, c.n)
		dst := make([]uint32, 8)
		placeBits(dst, blk, c.off, c.n)
		for v := int64(0); v < 256; v++ {
			want := v >= c.off && v < c.off+c.n && testBit(src, uint32(v))
			if testBit(dst, uint32(v)) != want {
				t.Fatalf("off %d n %d: bit %d is %v, want %v", c.off, c.n, v, !want, want)
			}
		}
	}
}
