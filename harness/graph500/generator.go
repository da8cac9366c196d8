// This file implements the Graph500 Kronecker edge-list generator,
// bit-identical to the reference 3.0 generator (graph500/graph500 v3,
// generator/graph_generator.c and make_graph.c, with the default settings of
// user_settings.h): make_graph(SCALE, edgefactor << SCALE, seed1, seed2).
//
// Edge ei of the list is drawn from its own PRNG stream, the seed state
// skipped ahead by ei * 2^64 steps (mrg_skip(0, ei, 0)), so any range of the
// list can be generated alone and the list does not depend on how it is
// split. For each of the SCALE levels the edge picks one quadrant of the
// adjacency matrix with the initiator probabilities a = 0.57, b = c = 0.19,
// d = 0.05 (clip-and-flip keeps it in the upper triangle while source and
// target blocks coincide), then both endpoints are scrambled by the
// reference's fixed hash-like permutation of [0, 2^SCALE). Self-loops and
// duplicates are kept.
package graph500

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync"
)

// Initiator probabilities as fractions of kronDenominator, as in the
// reference: a = 5700/10000, b = c = 1900/10000, d = the rest. The
// reference's SPK_NOISE_LEVEL is 0 by default, so no noise is added.
const (
	kronA           = 5700
	kronBC          = 1900
	kronDenominator = 10000
	// kronRejectLimit: PRNG values below it are redrawn, to remove the
	// modulo bias. The v3 reference uses 0x7FFFFFFF % 10000 (= 3647); the
	// v2 generator used 0xFFFFFFFF % 10000 (= 7295), which gives different
	// lists. We follow v3.
	kronRejectLimit = 0x7FFFFFFF % kronDenominator
	// Constants OR-ed into the two scrambling multipliers (scramble()).
	kronScrambleMul0 = 0x4519840211493211
	kronScrambleMul1 = 0x3050852102C843A5
)

// MaxScale is the largest SCALE the generator accepts: vertex numbers are
// int64 and the scrambling shifts by 64 - SCALE.
const MaxScale = 62

// kronParallelMin is the range length below which GenerateRange does not
// spread work over goroutines.
const kronParallelMin = 1 << 14

// CheckParams reports whether (scale, edgefactor) describe a graph the
// generator can make: 1 <= scale <= MaxScale, edgefactor >= 1, and
// edgefactor << scale fits in an int64. Generate and GenerateRange panic on
// parameters that fail it; callers holding user input call it first.
func CheckParams(scale, edgefactor int) error {
	if scale < 1 || scale > MaxScale {
		return fmt.Errorf("graph500: scale %d out of range [1, %d]", scale, MaxScale)
	}
	if edgefactor < 1 {
		return fmt.Errorf("graph500: edgefactor %d must be at least 1", edgefactor)
	}
	if int64(edgefactor) > math.MaxInt64>>scale {
		return fmt.Errorf("graph500: edgefactor %d << scale %d overflows int64", edgefactor, scale)
	}
	return nil
}

// NVertices returns the number of vertices of a SCALE graph, 2^scale.
func NVertices(scale int) int64 { return int64(1) << scale }

// NEdges returns the number of input tuples, edgefactor * 2^scale.
func NEdges(scale, edgefactor int) int64 { return int64(edgefactor) << scale }

// Generate returns the whole edge list of make_graph(scale,
// edgefactor << scale, seed[0], seed[1]), in the reference's order. The work
// is spread over GOMAXPROCS goroutines. The reference MPI driver uses the
// seeds {2, 3}. It panics if CheckParams(scale, edgefactor) fails.
func Generate(scale, edgefactor int, seed [2]uint64) []Edge {
	if err := CheckParams(scale, edgefactor); err != nil {
		panic(err)
	}
	m := NEdges(scale, edgefactor)
	out := make([]Edge, m)
	GenerateRange(scale, seed, 0, m, out)
	return out
}

// GenerateRange writes edges [first, last) of the list of Generate(scale, _,
// seed) into out[0 : last-first]. The values do not depend on the range
// asked for, so each rank of a distributed run can generate its share alone
// (the reference's generate_kronecker_range). Long ranges are spread over
// GOMAXPROCS goroutines. It panics if scale is outside [1, MaxScale], if
// first < 0 or last < first, or if out is shorter than last - first.
func GenerateRange(scale int, seed [2]uint64, first, last int64, out []Edge) {
	if err := CheckParams(scale, 1); err != nil {
		panic(err)
	}
	if first < 0 || last < first || int64(len(out)) < last-first {
		panic(fmt.Sprintf("graph500: GenerateRange [%d, %d) into %d edges", first, last, len(out)))
	}
	g := newKronGen(scale, seed)
	n := last - first
	workers := int64(runtime.GOMAXPROCS(0))
	if n < kronParallelMin || workers == 1 {
		g.fill(first, out[:n])
		return
	}
	var wg sync.WaitGroup
	for w := int64(0); w < workers; w++ {
		lo, hi := kronShare(n, workers, w), kronShare(n, workers, w+1)
		wg.Go(func() { g.fill(first+lo, out[lo:hi]) })
	}
	wg.Wait()
}

// kronShare returns where share w of n items split into k near-equal shares
// begins (the reference's compute_edge_range).
func kronShare(n, k, w int64) int64 {
	return w*(n/k) + min(w, n%k)
}

// Share is the range [lo, hi) of share w when n items are split into k
// consecutive, near-equal shares the way the Graph500 reference's
// compute_edge_range splits an edge list among ranks (the first n mod k
// shares get one item more).
func Share(n int64, k, w int) (lo, hi int64) {
	return kronShare(n, int64(k), int64(w)), kronShare(n, int64(k), int64(w)+1)
}

// kronGen holds what every edge of one (scale, seed) list shares.
type kronGen struct {
	lgN       int
	seedState mrgState
	edgeStep  mrgMatrix // A^(2^64): from the stream of edge ei to that of ei+1
	add       uint64    // val0 + val1
	mul0      uint64    // val0 | kronScrambleMul0
	mul1      uint64    // val1 | kronScrambleMul1
}

// newKronGen derives the scrambling values as the reference does: two
// 64-bit numbers from the stream skipped by 50*2^128 + 7*2^64 steps.
func newKronGen(scale int, seed [2]uint64) *kronGen {
	g := &kronGen{lgN: scale, seedState: mrgSeed(seed), edgeStep: mrgSkipTable()[8][1]}
	z := g.seedState
	z.skip(50, 7, 0)
	val0 := uint64(z.next())*0xFFFFFFFF + uint64(z.next())
	val1 := uint64(z.next())*0xFFFFFFFF + uint64(z.next())
	g.add = val0 + val1
	g.mul0 = val0 | kronScrambleMul0
	g.mul1 = val1 | kronScrambleMul1
	return g
}

// fill writes edges first, first+1, ... into out. Instead of skipping from
// the seed for every edge, it moves from one edge's stream to the next with
// one multiplication by A^(2^64); the arithmetic is exact, so the states are
// those of the reference's mrg_skip(0, ei, 0).
func (g *kronGen) fill(first int64, out []Edge) {
	z := g.seedState
	z.skip(0, uint64(first), 0)
	for i := range out {
		out[i] = g.edge(z)
		if i+1 < len(out) {
			z = g.edgeStep.apply(z)
		}
	}
}

// edge draws one edge from the stream that starts at state z (the
// reference's make_one_edge). At each level, from the top bit down, it draws
// a quadrant and appends its row bit to the source and its column bit to the
// target, with clip-and-flip (kronLevelTable). It has no data-dependent
// branch (the picks are random and would defeat branch prediction) except
// the rare redraw; the PRNG step is the one of mrgState.next, with the state
// held in locals and reduced lazily (kronFold).
func (g *kronGen) edge(z mrgState) Edge {
	z0, z1, z2, z3, z4 := z[0], z[1], z[2], z[3], z[4]
	var src, tgt uint64
	diag := uint64(1) // source and target blocks still coincide
	for level := 0; level < g.lgN; level++ {
		z4, z3, z2, z1, z0 = z3, z2, z1, z0, kronFold(mrgX*z0+mrgY*z4)
		v := kronCanonical(z0)
		for v < kronRejectLimit { // probability 1.7e-6
			z4, z3, z2, z1, z0 = z3, z2, z1, z0, kronFold(mrgX*z0+mrgY*z4)
			v = kronCanonical(z0)
		}
		e := kronLevelTable[diag&1][uint32(v)%kronDenominator]
		src = src<<1 | uint64(e>>1&1)
		tgt = tgt<<1 | uint64(e&1)
		diag = uint64(e >> 2)
	}
	return Edge{V0: g.scramble(int64(src)), V1: g.scramble(int64(tgt))}
}

// kronLevelTable[diag][r] is the outcome of one level for r = (PRNG value
// mod 10000): bit 1 is the source's (row) bit, bit 0 the target's (column)
// bit, and bit 2 says whether source and target blocks still coincide
// afterwards. Row diag = 1 is for blocks that coincide before the level;
// there the reference's clip-and-flip turns a bottom-left pick into
// top-right, which keeps the edge in the upper triangle.
var kronLevelTable = func() (t [2][kronDenominator]uint8) {
	for r := range t[0] {
		q := kronQuadrant(uint32(r))
		srcBit, tgtBit := q>>1, q&1
		t[0][r] = uint8(srcBit<<1 | tgtBit)
		if srcBit > tgtBit { // clip-and-flip
			srcBit, tgtBit = tgtBit, srcBit
		}
		stillDiag := uint32(0)
		if srcBit == tgtBit {
			stillDiag = 1
		}
		t[1][r] = uint8(stillDiag<<2 | srcBit<<1 | tgtBit)
	}
	return t
}()

// kronQuadrant is the decision of the reference's generate_4way_bernoulli
// for r = (PRNG value mod 10000): quadrant 1 (top right, probability b) if
// r < b, else 2 (bottom left, c) if r - b < c, else 0 (top left, a) if
// r - b - c < a, else 3 (bottom right, d). The quadrant number is
// (row bit << 1) | column bit.
func kronQuadrant(r uint32) uint32 {
	if r < kronBC {
		return 1
	}
	r -= kronBC
	if r < kronBC {
		return 2
	}
	r -= kronBC
	if r < kronA {
		return 0
	}
	return 3
}

// kronFold returns a value congruent to x modulo 2^31 - 1 and below
// 2^31 + 2^29, for x < 2^60: one folding of the bits above 31 (2^31 ≡ 1).
// The PRNG values of edge() stay in this lazily reduced form, which keeps
// x*z + y*z' below 2^60 (x < 2^27, y < 2^17), so that the serial chain of
// steps is one multiply, one add and one fold; kronCanonical gives the
// reference's value off that chain.
func kronFold(x uint64) uint64 {
	return (x & mrgModulus) + (x >> 31)
}

// kronCanonical returns x mod (2^31 - 1) for x < 2 * (2^31 - 1), without a
// branch.
func kronCanonical(x uint64) uint64 {
	y := x - mrgModulus
	return y + (mrgModulus & -(y >> 63)) // add the modulus back if x < modulus
}

// scramble applies the reference's vertex permutation of [0, 2^lgN): add,
// multiply, reverse the bits and keep the top lgN, twice.
func (g *kronGen) scramble(v int64) int64 {
	shift := uint(64 - g.lgN)
	x := uint64(v) + g.add
	x *= g.mul0
	x = bits.Reverse64(x) >> shift
	x *= g.mul1
	x = bits.Reverse64(x) >> shift
	return int64(x)
}
