package partition

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
)

// BenchmarkBuild2D builds the one-rank 2D partition of a scale-20 graph:
// the host construction of atomic2d (go test -bench Build2D -cpuprofile).
func BenchmarkBuild2D(b *testing.B) {
	const scale = 20
	n := graph500.NVertices(scale)
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	b.ResetTimer()
	for range b.N {
		err := comm.RunLocal(1, func(w comm.Comm) error {
			g, err := comm.NewGrid(w, 1, 1)
			if err != nil {
				return err
			}
			defer g.Close()
			_, err = Build2D(g, n, edges)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// TestRadixSort: radixSort orders like slices.Sort, for both key types,
// lengths around a digit's bucket count and values of 0 to 40 bits.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 1023, 2048, 5000} {
		for _, bitsUsed := range []int{0, 1, 11, 12, 24, 31, 40} {
			v64 := make([]int64, n)
			for i := range v64 {
				v64[i] = int64(rng.Uint64() & (1<<bitsUsed - 1))
			}
			want64 := slices.Sorted(slices.Values(v64))
			radixSort(v64, make([]int64, n))
			if !slices.Equal(v64, want64) {
				t.Errorf("int64, n %d, %d bits: not sorted", n, bitsUsed)
			}
			if bitsUsed > 32 {
				continue
			}
			v32 := make([]uint32, n)
			for i := range v32 {
				v32[i] = uint32(rng.Uint64() & (1<<bitsUsed - 1))
			}
			want32 := slices.Sorted(slices.Values(v32))
			radixSort(v32, make([]uint32, n+3))
			if !slices.Equal(v32, want32) {
				t.Errorf("uint32, n %d, %d bits: not sorted", n, bitsUsed)
			}
		}
	}
}

// TestCompress checks compress against a direct grouping, for key counts
// of one bucket and of many (some keys with no entry, some with many).
func TestCompress(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, nKeys := range []int64{1, 5, 3000, 70000} {
		for _, m := range []int{0, 1, 1000, 200000} {
			pairs := make([]uint32, 2*m)
			want := make([][]uint32, nKeys)
			for k := 0; k < m; k++ {
				key := uint32(rng.Int64N(nKeys))
				if k%3 == 0 {
					key = uint32(nKeys / 2) // a hub
				}
				x := uint32(rng.IntN(1 << 20))
				pairs[2*k], pairs[2*k+1] = key, x
				want[key] = append(want[key], x)
			}
			off, vals := compress(nKeys, pairs)
			if int64(len(off)) != nKeys+1 || off[0] != 0 || off[nKeys] != int64(m) || len(vals) != m {
				t.Fatalf("nKeys %d, m %d: %d offsets (first %d, last %d), %d values", nKeys, m, len(off), off[0], off[nKeys], len(vals))
			}
			for k := int64(0); k < nKeys; k++ {
				slices.Sort(want[k])
				if got := vals[off[k]:off[k+1]]; !slices.Equal(got, want[k]) {
					t.Fatalf("nKeys %d, m %d: key %d holds %d values, want %d (or different ones)", nKeys, m, k, len(got), len(want[k]))
				}
			}
		}
	}
}
