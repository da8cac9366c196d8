package comm

import (
	"bytes"
	"fmt"
	"testing"
)

// TestBigCopy: bigCopy copies min(len(dst), len(src)) bytes, as copy does,
// whether it splits the work or not.
func TestBigCopy(t *testing.T) {
	for _, c := range []struct{ dst, src int }{{0, 0}, {10, 10}, {5, 10}, {10, 5}, {4 << 20, 4 << 20}, {9<<20 + 3, 9<<20 + 3}, {9<<20 + 3, 6<<20 + 1}} {
		t.Run(fmt.Sprintf("%d<-%d", c.dst, c.src), func(t *testing.T) {
			src := make([]byte, c.src)
			for i := range src {
				src[i] = byte(i*7 + i>>11)
			}
			dst := bytes.Repeat([]byte{0xEE}, c.dst)
			want := bytes.Clone(dst)
			copy(want, src)
			bigCopy(dst, src)
			if !bytes.Equal(dst, want) {
				t.Fatal("bigCopy differs from copy")
			}
		})
	}
}
