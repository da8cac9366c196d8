// Tests of the Kronecker generator (generator.go) against the Graph500
// reference 3.0 generator. Values marked "reference run" come from the
// compiled reference (how: see the top of prng_test.go); the driver printed
// make_graph(SCALE, edgefactor << SCALE, seed1, seed2)'s edges and an FNV-1a
// 64-bit hash of the whole list (each V0 then V1 as 8 little-endian bytes,
// in list order), the hash edgeListFNV computes.
package graph500

import (
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// edgeListFNV returns the FNV-1a 64-bit hash of the list's vertex numbers,
// each as 8 little-endian bytes, V0 before V1.
func edgeListFNV(edges []Edge) uint64 {
	h := uint64(14695981039346656037)
	for _, e := range edges {
		for _, v := range [2]int64{e.V0, e.V1} {
			for i := 0; i < 8; i++ {
				h ^= (uint64(v) >> (8 * i)) & 0xFF
				h *= 1099511628211
			}
		}
	}
	return h
}

type indexedEdge struct {
	index int64
	edge  Edge
}

type generatorGolden struct {
	scale, edgefactor int
	seed              [2]uint64
	fnv               uint64
	selfLoops         int
	first             []Edge
	at                []indexedEdge
}

// generatorGoldens: reference runs.
var generatorGoldens = []generatorGolden{
	{
		scale: 10, edgefactor: 16, seed: [2]uint64{2, 3},
		fnv: 12987122150461364961, selfLoops: 144,
		first: []Edge{
			{299, 797}, {684, 861}, {185, 385}, {428, 328}, {490, 200}, {976, 998}, {96, 959}, {684, 699},
			{684, 923}, {914, 503}, {299, 844}, {231, 206}, {445, 269}, {518, 747}, {57, 718}, {900, 142},
			{684, 185}, {718, 587}, {119, 740}, {462, 917}, {185, 355}, {185, 82}, {428, 826}, {338, 663},
			{385, 462}, {976, 60}, {428, 583}, {826, 437}, {684, 684}, {944, 79}, {826, 185}, {185, 976},
		},
		at: []indexedEdge{{5461, Edge{826, 566}}, {8192, Edge{495, 868}}, {8193, Edge{903, 929}}, {16382, Edge{684, 944}}, {16383, Edge{206, 55}}},
	},
	{
		scale: 12, edgefactor: 16, seed: [2]uint64{2, 3},
		fnv: 4605319029307094262, selfLoops: 208,
		first: []Edge{{2477, 2850}, {684, 2881}, {2400, 3127}, {185, 2209}, {3574, 3949}, {1876, 537}, {2363, 593}, {684, 3325}},
		at:    []indexedEdge{{21845, Edge{2956, 2166}}, {32768, Edge{1046, 1005}}, {32769, Edge{1532, 2166}}, {65534, Edge{185, 2499}}, {65535, Edge{684, 0}}},
	},
	{
		scale: 11, edgefactor: 8, seed: [2]uint64{16045690984503098046, 1311768467463790320},
		fnv: 17212588863013739770, selfLoops: 97,
		first: []Edge{{1099, 999}, {977, 256}, {1309, 1225}, {2018, 1727}, {607, 1564}, {607, 1875}, {1857, 252}, {995, 1263}},
		at:    []indexedEdge{{5461, Edge{2021, 408}}, {8192, Edge{1654, 906}}, {8193, Edge{234, 1263}}, {16382, Edge{1942, 15}}, {16383, Edge{1309, 1936}}},
	},
	{
		scale: 16, edgefactor: 16, seed: [2]uint64{2, 3},
		fnv: 825265650963805067, selfLoops: 491,
		first: []Edge{{53430, 37000}, {16463, 33235}, {57163, 11309}, {15642, 60592}},
	},
	{
		scale: 1, edgefactor: 16, seed: [2]uint64{2, 3},
		fnv: 14126701348906046724, selfLoops: 23,
		first: []Edge{{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 0}, {1, 0}, {1, 1}},
	},
}

func TestGenerateMatchesReference(t *testing.T) {
	for _, g := range generatorGoldens {
		edges := Generate(g.scale, g.edgefactor, g.seed)
		if int64(len(edges)) != NEdges(g.scale, g.edgefactor) {
			t.Fatalf("scale %d: %d edges, want %d", g.scale, len(edges), NEdges(g.scale, g.edgefactor))
		}
		if !slices.Equal(edges[:len(g.first)], g.first) {
			t.Errorf("scale %d seed %v: first edges\n got %v\nwant %v", g.scale, g.seed, edges[:len(g.first)], g.first)
		}
		for _, a := range g.at {
			if edges[a.index] != a.edge {
				t.Errorf("scale %d seed %v: edge %d = %v, reference %v", g.scale, g.seed, a.index, edges[a.index], a.edge)
			}
		}
		loops := 0
		for _, e := range edges {
			if e.V0 == e.V1 {
				loops++
			}
		}
		if loops != g.selfLoops {
			t.Errorf("scale %d seed %v: %d self-loops, reference %d", g.scale, g.seed, loops, g.selfLoops)
		}
		if h := edgeListFNV(edges); h != g.fnv {
			t.Errorf("scale %d seed %v: list hash %d, reference %d", g.scale, g.seed, h, g.fnv)
		}
	}
}

func TestGenerateRangeAnySplit(t *testing.T) {
	const scale, edgefactor = 12, 16
	seed := [2]uint64{2, 3}
	whole := Generate(scale, edgefactor, seed)
	m := int64(len(whole))
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 20; trial++ {
		// Cut [0, m) at random points and generate each piece alone.
		cuts := []int64{0, m}
		for i := r.IntN(6); i >= 0; i-- {
			cuts = append(cuts, r.Int64N(m+1))
		}
		slices.Sort(cuts)
		got := make([]Edge, m)
		for i := 0; i+1 < len(cuts); i++ {
			GenerateRange(scale, seed, cuts[i], cuts[i+1], got[cuts[i]:cuts[i+1]])
		}
		if !slices.Equal(got, whole) {
			t.Fatalf("cuts %v: pieces differ from the whole list", cuts)
		}
	}
	// Single edges, and a long range forced onto one goroutine.
	for _, i := range []int64{0, 1, 255, 256, 257, 65535, m - 1} {
		one := make([]Edge, 1)
		GenerateRange(scale, seed, i, i+1, one)
		if one[0] != whole[i] {
			t.Errorf("edge %d alone = %v, in the list %v", i, one[0], whole[i])
		}
	}
	prev := runtime.GOMAXPROCS(1)
	serial := make([]Edge, m)
	GenerateRange(scale, seed, 0, m, serial)
	runtime.GOMAXPROCS(prev)
	if !slices.Equal(serial, whole) {
		t.Error("the list generated on one goroutine differs")
	}
}

// naiveEdge is a deliberately plain second transcription of the reference's
// per-edge procedure, sharing no code with generator.go or prng.go: the state
// is moved to edge ei's stream by a square-and-multiply power of the 5x5
// step matrix computed with % (not the byte table), quadrants follow
// generate_4way_bernoulli's subtractions, and bits are reversed one by one.
func naiveEdge(scale int, seed [2]uint64, ei uint64) Edge {
	const p = 0x7FFFFFFF
	type mat [5][5]uint64
	mul := func(a, b mat) mat {
		var r mat
		for i := 0; i < 5; i++ {
			for j := 0; j < 5; j++ {
				for k := 0; k < 5; k++ {
					r[i][j] = (r[i][j] + a[i][k]*b[k][j]%p) % p
				}
			}
		}
		return r
	}
	pow := func(a mat, hiBits uint, e uint64) mat { // a^(e * 2^hiBits)
		for ; hiBits > 0; hiBits-- {
			a = mul(a, a)
		}
		var r mat
		for i := range r {
			r[i][i] = 1
		}
		for ; e > 0; e >>= 1 {
			if e&1 == 1 {
				r = mul(r, a)
			}
			a = mul(a, a)
		}
		return r
	}
	apply := func(a mat, z [5]uint64) [5]uint64 {
		var r [5]uint64
		for i := 0; i < 5; i++ {
			for k := 0; k < 5; k++ {
				r[i] = (r[i] + a[i][k]*z[k]%p) % p
			}
		}
		return r
	}
	var step mat
	step[0][0], step[0][4] = 107374182, 104480
	for i := 1; i < 5; i++ {
		step[i][i-1] = 1
	}
	s1, s2 := seed[0], seed[1]
	seedState := [5]uint64{s1&0x3FFFFFFF + 1, (s1>>30)&0x3FFFFFFF + 1, s2&0x3FFFFFFF + 1, (s2>>30)&0x3FFFFFFF + 1, (s2>>60)<<4 + s1>>60 + 1}
	next := func(z *[5]uint64) uint64 {
		*z = apply(step, *z)
		return z[0]
	}
	// Scrambling values: stream skipped by 50*2^128 + 7*2^64.
	z := apply(pow(step, 64, 7), apply(pow(step, 128, 50), seedState))
	val0 := next(&z)*0xFFFFFFFF + next(&z)
	val1 := next(&z)*0xFFFFFFFF + next(&z)
	reverse := func(x uint64) uint64 {
		var r uint64
		for i := 0; i < 64; i++ {
			r = r<<1 | (x>>i)&1
		}
		return r
	}
	scramble := func(v uint64) int64 {
		v += val0 + val1
		v *= val0 | 0x4519840211493211
		v = reverse(v) >> (64 - scale)
		v *= val1 | 0x3050852102C843A5
		v = reverse(v) >> (64 - scale)
		return int64(v)
	}
	z = apply(pow(step, 64, ei), seedState)
	var src, tgt uint64
	for n := uint64(1) << scale; n > 1; {
		val := next(&z)
		for val < 0x7FFFFFFF%10000 {
			val = next(&z)
		}
		val %= 10000
		var square uint64
		switch {
		case val < 1900:
			square = 1
		case val-1900 < 1900:
			square = 2
		case val-3800 < 5700:
			square = 0
		default:
			square = 3
		}
		so, to := square/2, square%2
		if src == tgt && so > to {
			so, to = to, so
		}
		n /= 2
		src += n * so
		tgt += n * to
	}
	return Edge{scramble(src), scramble(tgt)}
}

func TestGenerateMatchesNaiveTranscription(t *testing.T) {
	cases := []struct {
		scale, edgefactor int
		seed              [2]uint64
	}{
		{10, 16, [2]uint64{2, 3}},
		{20, 16, [2]uint64{2, 3}},
		{13, 4, [2]uint64{16045690984503098046, 1311768467463790320}},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		m := NEdges(c.scale, c.edgefactor)
		idx := []int64{0, 1, 2, 255, 256, m / 2, m - 1}
		for i := 0; i < 40; i++ {
			idx = append(idx, r.Int64N(m))
		}
		got := make([]Edge, 1)
		for _, i := range idx {
			GenerateRange(c.scale, c.seed, i, i+1, got)
			if want := naiveEdge(c.scale, c.seed, uint64(i)); got[0] != want {
				t.Errorf("scale %d seed %v edge %d: %v, naive transcription %v", c.scale, c.seed, i, got[0], want)
			}
		}
	}
}

// TestGenerateShape checks properties every Graph500 Kronecker list has:
// endpoints in range, a heavy-tailed degree distribution (the largest degree
// is far above the mean), some isolated vertices, and few self-loops.
func TestGenerateShape(t *testing.T) {
	const scale, edgefactor = 14, 16
	n := NVertices(scale)
	edges := Generate(scale, edgefactor, [2]uint64{2, 3})
	deg := make([]int64, n)
	loops := 0
	for i, e := range edges {
		if e.V0 < 0 || e.V0 >= n || e.V1 < 0 || e.V1 >= n {
			t.Fatalf("edge %d = %v outside [0, %d)", i, e, n)
		}
		deg[e.V0]++
		deg[e.V1]++
		if e.V0 == e.V1 {
			loops++
		}
	}
	maxDeg, isolated := slices.Max(deg), 0
	for _, d := range deg {
		if d == 0 {
			isolated++
		}
	}
	mean := float64(2*len(edges)) / float64(n)
	if float64(maxDeg) < 50*mean {
		t.Errorf("max degree %d is not far above the mean %.1f", maxDeg, mean)
	}
	if isolated == 0 || int64(isolated) > n/2 {
		t.Errorf("%d of %d vertices isolated", isolated, n)
	}
	if loops > len(edges)/100 {
		t.Errorf("%d self-loops of %d edges", loops, len(edges))
	}
	// The scramble spreads high-degree vertices: they are not all at the low end.
	if hub := slices.Index(deg, maxDeg); hub < 0 || bits.Len64(uint64(hub)) < 4 {
		t.Errorf("the largest hub is vertex %d, unscrambled-looking", hub)
	}
}

func TestCheckParams(t *testing.T) {
	cases := []struct {
		scale, edgefactor int
		ok                bool
	}{
		{1, 1, true},
		{10, 16, true},
		{MaxScale, 1, true},
		{0, 16, false},
		{-1, 16, false},
		{MaxScale + 1, 1, false},
		{10, 0, false},
		{10, -3, false},
		{40, 1 << 23, false}, // 2^63 edges
		{40, 1<<23 - 1, true},
	}
	for _, c := range cases {
		if err := CheckParams(c.scale, c.edgefactor); (err == nil) != c.ok {
			t.Errorf("CheckParams(%d, %d) = %v, want ok=%v", c.scale, c.edgefactor, err, c.ok)
		}
	}
	if NVertices(10) != 1024 || NEdges(10, 16) != 16384 {
		t.Errorf("NVertices(10) = %d, NEdges(10, 16) = %d", NVertices(10), NEdges(10, 16))
	}
}

func BenchmarkGenerateScale20(b *testing.B) {
	out := make([]Edge, NEdges(20, 16))
	b.SetBytes(int64(len(out)) * 16)
	for b.Loop() {
		GenerateRange(20, [2]uint64{2, 3}, 0, int64(len(out)), out)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(out)), "ns/edge")
}
