// Tests of the search-key rule (keys.go). The golden keys are a reference
// run (see the top of prng_test.go): the compiled reference generator, with
// the root loop of graph500/graph500 src/main.c (v3, commit c3a201e3)
// transcribed into the driver and its isisolated() taken as "no
// non-self-loop edge" (src/csr_reference.c leaves self-loops out of the CSR).
package graph500

import (
	"slices"
	"strings"
	"testing"
)

func TestSearchKeysMatchReference(t *testing.T) {
	cases := []struct {
		scale, edgefactor int
		seed              [2]uint64
		want              []int64
	}{
		{10, 16, [2]uint64{2, 3}, []int64{
			458, 214, 220, 966, 395, 9, 848, 777, 344, 236, 900, 440, 806, 712, 116, 163,
			206, 131, 377, 96, 535, 981, 140, 479, 267, 835, 182, 76, 269, 64, 373, 41,
			641, 570, 580, 939, 745, 898, 197, 627, 710, 857, 569, 670, 1017, 308, 97, 879,
			680, 678, 35, 177, 531, 698, 555, 485, 816, 521, 332, 888, 209, 825, 171, 149}},
		{12, 16, [2]uint64{2, 3}, []int64{
			1834, 858, 881, 504, 3865, 37, 3394, 3109, 1377, 85, 945, 3600, 1762, 2850, 2775, 654,
			826, 526, 1510, 2530, 385, 2142, 3924, 560, 1918, 1068, 3867, 3341, 729, 1077, 256, 166,
			2565, 2280, 2322, 3757, 2983, 789, 2511, 2843, 883, 2279, 4069, 2763, 391, 3517, 859, 2723,
			2713, 142, 710, 2127, 2793, 2220, 1941, 3264, 2087, 2841, 1331, 3552, 839, 685, 597, 692}},
		{11, 8, [2]uint64{16045690984503098046, 1311768467463790320}, []int64{
			1361, 370, 64, 1391, 429, 1181, 535, 1589, 1944, 1112, 1908, 1800, 1639, 770, 622, 1769,
			409, 12, 697, 1685, 1496, 1022, 549, 1743, 489, 107, 1659, 1377, 1174, 251, 413, 1700,
			649, 994, 581, 842, 1245, 452, 507, 1946, 809, 1492, 1901, 1519, 676, 1250, 802, 613,
			302, 1514, 1446, 732, 1260, 1218, 780, 1302, 668, 1988, 1506, 1357, 1719, 1717, 1898, 871}},
	}
	for _, c := range cases {
		edges := Generate(c.scale, c.edgefactor, c.seed)
		keys, err := SearchKeys(edges, NVertices(c.scale), len(c.want), c.seed)
		if err != nil {
			t.Fatalf("scale %d: %v", c.scale, err)
		}
		if !slices.Equal(keys, c.want) {
			t.Errorf("scale %d seed %v:\n got %v\nwant %v", c.scale, c.seed, keys, c.want)
		}
		// Asking for fewer keys gives a prefix (one shared candidate counter).
		few, err := SearchKeys(edges, NVertices(c.scale), 5, c.seed)
		if err != nil || !slices.Equal(few, c.want[:5]) {
			t.Errorf("scale %d: 5 keys = %v, %v; want %v", c.scale, few, err, c.want[:5])
		}
	}
}

func TestSearchKeysProperties(t *testing.T) {
	const scale = 14
	seed := [2]uint64{5, 9}
	edges := Generate(scale, 16, seed)
	nv := NVertices(scale)
	keys, err := SearchKeys(edges, nv, 200, seed)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 200 {
		t.Fatalf("%d keys, want 200", len(keys))
	}
	hasEdge := make(map[int64]bool)
	for _, e := range edges {
		if e.V0 != e.V1 {
			hasEdge[e.V0], hasEdge[e.V1] = true, true
		}
	}
	seen := make(map[int64]bool)
	for _, k := range keys {
		if seen[k] {
			t.Errorf("key %d repeated", k)
		}
		seen[k] = true
		if !hasEdge[k] {
			t.Errorf("key %d has no non-self-loop edge", k)
		}
	}
	again, err := SearchKeys(edges, nv, 200, seed)
	if err != nil || !slices.Equal(again, keys) {
		t.Error("a second call gives other keys")
	}
	other, err := SearchKeys(edges, nv, 200, [2]uint64{6, 9})
	if err != nil || slices.Equal(other, keys) {
		t.Errorf("another seed gives the same keys (err %v)", err)
	}
}

func TestSearchKeysErrors(t *testing.T) {
	// Vertices 0..7: 0-1 and 2-3 are edges, 4 has only a self-loop.
	edges := []Edge{{0, 1}, {2, 3}, {4, 4}, {1, 0}}
	cases := []struct {
		name   string
		edges  []Edge
		nv     int64
		n      int
		errHas string
	}{
		{"more keys than eligible vertices", edges, 8, 5, "only"},
		{"no edges", nil, 8, 1, "only"},
		{"only self-loops", []Edge{{4, 4}, {5, 5}}, 8, 1, "only"},
		{"endpoint out of range", []Edge{{0, 8}}, 8, 1, "outside"},
		{"negative endpoint", []Edge{{-1, 2}}, 8, 1, "outside"},
		{"no vertices", edges, 0, 1, "vertices"},
		{"negative count", edges, 8, -1, "asked"},
	}
	for _, c := range cases {
		keys, err := SearchKeys(c.edges, c.nv, c.n, [2]uint64{2, 3})
		if err == nil || !strings.Contains(err.Error(), c.errHas) {
			t.Errorf("%s: keys %v, error %v; want an error mentioning %q", c.name, keys, err, c.errHas)
		}
	}
	if keys, err := SearchKeys(edges, 8, 0, [2]uint64{2, 3}); err != nil || len(keys) != 0 {
		t.Errorf("0 keys: %v, %v", keys, err)
	}
	if _, err := SearchKeysFromSet(NewNonIsolatedSet(64), 65, 1, [2]uint64{2, 3}); err == nil {
		t.Error("a set of the wrong size is accepted")
	}
}

// TestSearchKeysBoundIsCandidateCount: on a graph where every vertex is
// eligible, SearchKeys finds exactly as many keys as there are distinct
// vertices among the first nvertices candidates (the reference's bound), and
// fails when asked for one more.
func TestSearchKeysBoundIsCandidateCount(t *testing.T) {
	const nv = 16
	var edges []Edge
	for v := int64(0); v < nv; v++ {
		edges = append(edges, Edge{v, (v + 1) % nv})
	}
	// Count how many distinct candidates the first nv draws give.
	distinct := make(map[int64]bool)
	for k := int64(0); k < nv; k++ {
		d := MakeRandomNumbers(2, [2]uint64{2, 3}, 2*k)
		distinct[int64((d[0]+d[1])*nv)%nv] = true
	}
	keys, err := SearchKeys(edges, nv, len(distinct), [2]uint64{2, 3})
	if err != nil || len(keys) != len(distinct) {
		t.Errorf("%d keys from %d distinct candidates: %v, %v", len(keys), len(distinct), keys, err)
	}
	if len(distinct) == nv {
		t.Fatal("test premise: the first 16 candidates should repeat some vertex")
	}
	if _, err := SearchKeys(edges, nv, len(distinct)+1, [2]uint64{2, 3}); err == nil {
		t.Errorf("asked for more keys than the %d distinct candidates within the bound, got no error", len(distinct))
	}
}

func TestNonIsolatedMatchesSerial(t *testing.T) {
	const scale = 15 // large enough to run on several goroutines
	nv := NVertices(scale)
	edges := Generate(scale, 16, [2]uint64{2, 3})
	set, err := NonIsolated(edges, nv)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]bool, nv)
	for _, e := range edges {
		if e.V0 != e.V1 {
			want[e.V0], want[e.V1] = true, true
		}
	}
	var count int64
	for v := int64(0); v < nv; v++ {
		if set.Contains(v) != want[v] {
			t.Fatalf("vertex %d: in set %v, has a non-self-loop edge %v", v, set.Contains(v), want[v])
		}
		if want[v] {
			count++
		}
	}
	if set.Count() != count {
		t.Errorf("Count() = %d, want %d", set.Count(), count)
	}
	if set.Contains(-1) || set.Contains(nv+64) {
		t.Error("out-of-range vertices reported as present")
	}
}
