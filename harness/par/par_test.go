package par

import (
	"sync/atomic"
	"testing"
)

func TestForCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int64{0, 1, 7, 64, 1000, 100003} {
		for _, align := range []int64{1, 64} {
			hits := make([]int32, n)
			ForAligned(n, align, func(lo, hi int64) {
				if lo%align != 0 {
					t.Errorf("n=%d align=%d: chunk starts at %d", n, align, lo)
				}
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("n=%d align=%d: index %d visited %d times", n, align, i, h)
				}
			}
		}
	}
}
