package graph500

import "testing"

func TestSerialBFSAndLevelsOf(t *testing.T) {
	// 0-1-2-3 path, 4-5 apart, a self-loop and a duplicate.
	edges := []Edge{{0, 1}, {1, 2}, {2, 3}, {4, 5}, {2, 2}, {1, 0}}
	parents, levels := SerialBFS(edges, 6, 1)
	wantP := []int64{1, 1, 1, 2, -1, -1}
	wantL := []int64{1, 0, 1, 2, -1, -1}
	for i := range wantP {
		if parents[i] != wantP[i] || levels[i] != wantL[i] {
			t.Fatalf("vertex %d: parent %d level %d, want %d %d", i, parents[i], levels[i], wantP[i], wantL[i])
		}
	}
	got := LevelsOf(parents, 1)
	for i := range wantL {
		if got[i] != wantL[i] {
			t.Fatalf("LevelsOf vertex %d = %d, want %d", i, got[i], wantL[i])
		}
	}
}
