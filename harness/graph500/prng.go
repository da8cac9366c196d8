// This file implements the splittable pseudo-random number generator of the
// Graph500 reference generator (graph500/graph500 v3, generator/
// splittable_mrg.c, make_graph.c and utils.c): the multiple recursive
// generator of L'Ecuyer, Blouin and Couture, "A search for good multiple
// recursive random number generators", ACM TOMACS 3(2), 1993, table 3, entry
// m = 2^31 - 1, k = 5:
//
//	z(n) = (107374182 * z(n-1) + 104480 * z(n-5)) mod (2^31 - 1)
//
// Its state is the vector (z1..z5) (z1 the newest value), and one step is the
// multiplication of that vector by the 5x5 transition matrix A. Skipping
// ahead n steps multiplies by A^n; the reference does it with a table of
// A^(j * 256^i) for the 24 bytes i of a 192-bit exponent and every byte value
// j (mrg_transitions.c). We build that table at first use from the definition
// of A by plain matrix multiplication (the reference prints it once with its
// DUMP_TRANSITION_TABLE mode); prng_test.go checks entries against the
// reference's printed table.
//
// Every operation here is exact arithmetic modulo 2^31 - 1 with canonical
// residues, as in the reference's mod_arith_64bit.h, so the order in which
// powers of A are applied does not change any value.
package graph500

import "sync"

const (
	mrgModulus = 0x7FFFFFFF // m = 2^31 - 1
	mrgX       = 107374182  // multiplier of z(n-1)
	mrgY       = 104480     // multiplier of z(n-5)
)

// mrgState is the generator state (z1, z2, z3, z4, z5) of the reference's
// mrg_state; z1 is the most recent output.
type mrgState [5]uint64

// mrgMatrix is a full 5x5 transition matrix A^n acting on an mrgState held
// as a column vector. The reference stores only the nine distinct values
// (s, t, u, v, w, a, b, c, d) of such a power; the full form keeps the code
// plain.
type mrgMatrix [5][5]uint64

// mrgReduce returns x mod (2^31 - 1) for any x < 2^64, using 2^31 ≡ 1.
func mrgReduce(x uint64) uint64 {
	x = (x & mrgModulus) + (x >> 31) // < 2^31 + 2^33
	x = (x & mrgModulus) + (x >> 31) // < 2^31 + 8
	if x >= mrgModulus {
		x -= mrgModulus
	}
	return x
}

// mrgSeed spreads two 64-bit user seeds into the five non-zero MRG seed
// values, as the reference's make_mrg_seed does.
func mrgSeed(seed [2]uint64) mrgState {
	s1, s2 := seed[0], seed[1]
	return mrgState{
		(s1 & 0x3FFFFFFF) + 1,
		((s1 >> 30) & 0x3FFFFFFF) + 1,
		(s2 & 0x3FFFFFFF) + 1,
		((s2 >> 30) & 0x3FFFFFFF) + 1,
		((s2 >> 60) << 4) + (s1 >> 60) + 1,
	}
}

// next steps the generator once and returns the new value, in [0, 2^31-1)
// (the reference's mrg_get_uint_orig).
func (z *mrgState) next() uint32 {
	v := mrgReduce(mrgX*z[0] + mrgY*z[4]) // < 2^58 + 2^48
	z[4], z[3], z[2], z[1], z[0] = z[3], z[2], z[1], z[0], v
	return uint32(v)
}

// nextDouble returns a value in [0, 1) built from two steps, as the
// reference's mrg_get_double_orig. The explicit float64 conversions forbid
// the compiler from fusing the multiply-add (the reference's x86-64 build
// rounds each product).
func (z *mrgState) nextDouble() float64 {
	hi := float64(z.next())
	lo := float64(z.next())
	return float64(hi*.000000000465661287524579692) + // (2^31 - 1)^(-1)
		float64(lo*.0000000000000000002168404346990492787) // (2^31 - 1)^(-2)
}

// apply returns m * z, for a canonical z (every value below 2^31 - 1).
func (m *mrgMatrix) apply(z mrgState) mrgState {
	var r mrgState
	for i := range m {
		row := &m[i]
		// Each product is at most (2^31 - 2)^2 < 2^62 - 2^33, so four of
		// them fit in 64 bits.
		acc := row[0]*z[0] + row[1]*z[1] + row[2]*z[2] + row[3]*z[3]
		acc = (acc & mrgModulus) + (acc >> 31)
		r[i] = mrgReduce(acc + row[4]*z[4])
	}
	return r
}

// mul returns m * n.
func (m *mrgMatrix) mul(n *mrgMatrix) mrgMatrix {
	var r mrgMatrix
	for i := 0; i < 5; i++ {
		for j := 0; j < 5; j++ {
			var acc uint64
			for k := 0; k < 5; k++ {
				acc = mrgReduce(acc + m[i][k]*n[k][j])
			}
			r[i][j] = acc
		}
	}
	return r
}

// mrgIdentity returns A^0.
func mrgIdentity() mrgMatrix {
	var m mrgMatrix
	for i := range m {
		m[i][i] = 1
	}
	return m
}

// mrgStepMatrix returns A itself: z1' = x*z1 + y*z5, and z2..z5 shift down.
func mrgStepMatrix() mrgMatrix {
	var m mrgMatrix
	m[0][0] = mrgX
	m[0][4] = mrgY
	for i := 1; i < 5; i++ {
		m[i][i-1] = 1
	}
	return m
}

// mrgSkipBytes is the number of bytes of the reference's 192-bit skip
// exponent (three 64-bit words: low, middle, high).
const mrgSkipBytes = 192 / 8

var (
	mrgTableOnce sync.Once
	mrgTable     *[mrgSkipBytes][256]mrgMatrix
)

// mrgSkipTable returns the table T[i][j] = A^(j * 256^i), built once.
func mrgSkipTable() *[mrgSkipBytes][256]mrgMatrix {
	mrgTableOnce.Do(func() {
		t := new([mrgSkipBytes][256]mrgMatrix)
		base := mrgStepMatrix() // A^(256^i)
		for i := 0; i < mrgSkipBytes; i++ {
			t[i][0] = mrgIdentity()
			t[i][1] = base
			for j := 2; j < 256; j++ {
				t[i][j] = t[i][j-1].mul(&base)
			}
			base = t[i][255].mul(&base) // A^(256 * 256^i)
		}
		mrgTable = t
	})
	return mrgTable
}

// skip advances the state by the 192-bit number of steps
// high*2^128 + middle*2^64 + low, byte by byte, as the reference's mrg_skip.
func (z *mrgState) skip(high, middle, low uint64) {
	t := mrgSkipTable()
	for w, word := range [3]uint64{low, middle, high} {
		for b := 0; word != 0; b, word = b+1, word>>8 {
			if j := word & 0xFF; j != 0 {
				*z = t[8*w+b][j].apply(*z)
			}
		}
	}
}

// MakeRandomNumbers returns n values in [0, 1) from position `position` of
// the reference's auxiliary random stream, as the reference's
// make_random_numbers(n, seed[0], seed[1], position) (make_graph.c): the
// stream starts 2 * 2^128 steps after the seed, and value k uses steps
// 2k and 2k+1 after that. The v3 search-key rule (SearchKeys) draws from it.
// It returns nil for n <= 0.
func MakeRandomNumbers(n int64, seed [2]uint64, position int64) []float64 {
	if n <= 0 {
		return nil
	}
	out := make([]float64, n)
	z := mrgRandomStream(seed, position)
	for i := range out {
		out[i] = z.nextDouble()
	}
	return out
}

// mrgRandomStream returns the state positioned before value `position` of
// the make_random_numbers stream. As in the reference, 2*position is taken
// modulo 2^64.
func mrgRandomStream(seed [2]uint64, position int64) mrgState {
	z := mrgSeed(seed)
	z.skip(2, 0, 2*uint64(position))
	return z
}
