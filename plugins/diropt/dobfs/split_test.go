package dobfs

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/partition"
)

// TestDecideSplit checks the split's window in the switching rule
// (splitLevel, before Beamer's): only level 2, only after a top-down level,
// only on 1×1, only for m_u / SplitFrom < m_f ≤ m_u / SplitTo, and never
// in the single-direction modes. The device loop's Rule is the same
// arithmetic; TestCUDAMatchesCPU compares the directions both choose.
func TestDecideSplit(t *testing.T) {
	const mu = 1_000_000
	opt := Options{Mode: ModeHybrid, Alpha: 24, Beta: 24, WritePred: WritePredEnd, Split: 64, SplitFrom: 60, SplitTo: 9}
	rank := func(o Options, single bool) *Rank {
		return &Rank{opt: o, single: single, b: &Block{L: partition.Layout2D{N: 1 << 20}}}
	}
	for _, tc := range []struct {
		name   string
		o      Options
		single bool
		level  int
		cur    Dir
		mf     int64
		want   Dir
	}{
		{"in the window", opt, true, SplitLevel, TopDown, 50_000, Split},
		{"at its top", opt, true, SplitLevel, TopDown, mu / 9, Split},
		{"above it: Beamer's bottom-up", opt, true, SplitLevel, TopDown, mu/9 + 1, BottomUp},
		{"at its bottom: top-down", opt, true, SplitLevel, TopDown, mu / 60, TopDown},
		{"level 1", opt, true, 1, TopDown, 50_000, BottomUp},
		{"level 3", opt, true, 3, TopDown, 50_000, BottomUp},
		{"after a bottom-up level", opt, true, SplitLevel, BottomUp, 50_000, BottomUp},
		{"a 2D grid", opt, false, SplitLevel, TopDown, 50_000, BottomUp},
		{"split 0", Options{Mode: ModeHybrid, Alpha: 24, Beta: 24, WritePred: WritePredEnd}, true, SplitLevel, TopDown, 50_000, BottomUp},
		{"mode topdown", Options{Mode: ModeTopDown, Alpha: 24, Beta: 24, WritePred: WritePredEnd, Split: 64, SplitFrom: 60, SplitTo: 9}, true, SplitLevel, TopDown, 50_000, TopDown},
	} {
		// n_f grows (Beamer's top-down → bottom-up needs it), and m_f is
		// above m_u / alpha wherever the split does not apply.
		got := rank(tc.o, tc.single).decide(tc.level, tc.cur, 2000, 100, tc.mf, mu)
		if got != tc.want {
			t.Errorf("%s: level %d after %s, m_f %d of m_u %d: %s, want %s", tc.name, tc.level, tc.cur, tc.mf, mu, got, tc.want)
		}
	}
}
