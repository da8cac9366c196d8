package dobfs

import (
	"slices"
	"testing"
)

// TestHubSwap checks the relabelling's maps: a bijection, each other's
// inverse, the k hubs (by degree, ties by id) at ids 0..k-1 in that
// order, every id outside the moved set its own, and Moved marking
// exactly the ids that differ.
func TestHubSwap(t *testing.T) {
	for _, tc := range []struct {
		name string
		deg  []uint32
		k    int64
	}{
		{"hubs at the end", append(make([]uint32, 64), 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), 32},
		{"hubs already in front", append(slices.Repeat([]uint32{5}, 32), make([]uint32, 64)...), 32},
		{"mixed, with ties", []uint32{0, 3, 3, 1, 7, 0, 2, 2, 9, 1, 0, 0, 4, 4, 4, 4, 1, 1, 2, 0, 0, 6, 6, 0, 1, 1, 1, 1, 8, 0, 0, 2,
			5, 5, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}, 32},
		{"every vertex a hub", []uint32{2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1}, 32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := int64(len(tc.deg))
			r, err := hubSwap(func(v uint32) uint32 { return tc.deg[v] }, n, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]bool, n)
			for v := int64(0); v < n; v++ {
				o := r.NewToOld[v]
				if seen[o] {
					t.Fatalf("old id %d has two new ids", o)
				}
				seen[o] = true
				if r.OldToNew[o] != uint32(v) {
					t.Fatalf("OldToNew[%d] = %d, want %d", o, r.OldToNew[o], v)
				}
				if moved := testBit(r.Moved, uint32(v)); moved != (o != uint32(v)) {
					t.Fatalf("id %d: moved bit %v, old id %d", v, moved, o)
				}
				if r.Old(uint32(v)) != o || r.New(o) != uint32(v) {
					t.Fatalf("Old/New disagree with the tables at %d", v)
				}
			}
			// The hubs, in order: each new id below k has a degree at least
			// its successor's, ties by the lower old id, and no vertex past
			// them has a higher degree than the last hub.
			for v := int64(1); v < tc.k; v++ {
				a, b := r.NewToOld[v-1], r.NewToOld[v]
				if tc.deg[a] < tc.deg[b] || (tc.deg[a] == tc.deg[b] && a > b) {
					t.Fatalf("new ids %d, %d hold degrees %d, %d (old ids %d, %d)", v-1, v, tc.deg[a], tc.deg[b], a, b)
				}
			}
			last := tc.deg[r.NewToOld[tc.k-1]]
			for v := tc.k; v < n; v++ {
				if tc.deg[r.NewToOld[v]] > last {
					t.Fatalf("new id %d (degree %d) past the hubs, whose last has %d", v, tc.deg[r.NewToOld[v]], last)
				}
			}
		})
	}
	for _, k := range []int64{0, 16, 33, 128} {
		if _, err := hubSwap(func(uint32) uint32 { return 1 }, 64, k); err == nil {
			t.Errorf("k = %d of 64 accepted", k)
		}
	}
}
