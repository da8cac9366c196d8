// Package vlq is the SIMD variable-length quantity (VLQ) codec of [Ueno]
// (docs/papers.md), §V-C, Algorithm IV, Figure 4, with the sorted-list
// delta coding of its §V-B (the compressed expand).
//
// # Format
//
// A value is coded as base-128 VLQ: least significant 7 bits first, one
// byte per 7-bit group, the most significant bit of a byte set when another
// byte of the same value follows. Values are uint32, so a value takes 1 to
// 5 bytes (MaxBytes).
//
// SIMD VLQ reorders the bytes of a group of `width` consecutive values (the
// SIMD width; 32, a warp, on the GPU): first the first byte of every value
// of the group, in value order; then the second byte of every value that
// has one, in value order; and so on. The next group follows. The last
// group holds the remaining values (fewer than width). Width 1 is plain
// VLQ. With width 4, the sequence 3, 123456, 80, 300 is coded as
// 03 C0 50 AC C4 02 07 (the paper's Figure 4).
//
// The decoder accepts only canonical streams: a value's last byte is
// non-zero unless it is the value's only byte, and a value has at most 5
// bytes with no bits beyond 32. So a stream that decodes re-encodes to the
// same bytes, and every value has exactly one coding per width.
// harness/cuda/include/bfsb_vlq.cuh produces and reads the same bytes on
// the GPU.
package vlq

import (
	"errors"
	"fmt"
)

// MaxBytes is the longest coding of a uint32.
const MaxBytes = 5

// WarpWidth is the SIMD width of the CUDA codec (bfsb_vlq.cuh).
const WarpWidth = 32

// ErrCorrupt is wrapped by every decoding error.
var ErrCorrupt = errors.New("vlq: corrupt stream")

// Len is the number of bytes of v's VLQ coding (1..5).
func Len(v uint32) int {
	switch {
	case v < 1<<7:
		return 1
	case v < 1<<14:
		return 2
	case v < 1<<21:
		return 3
	case v < 1<<28:
		return 4
	}
	return MaxBytes
}

// EncodedLen is the length of the coding of vals (the same for every
// width).
func EncodedLen(vals []uint32) int {
	n := 0
	for _, v := range vals {
		n += Len(v)
	}
	return n
}

// Append appends the SIMD VLQ coding of vals with the given width (≥ 1) to
// dst and returns the extended slice.
func Append(dst []byte, vals []uint32, width int) []byte {
	if width < 1 {
		panic(fmt.Sprintf("vlq: width %d < 1", width))
	}
	if width == 1 {
		for _, v := range vals {
			for v >= 0x80 {
				dst = append(dst, byte(v)|0x80)
				v >>= 7
			}
			dst = append(dst, byte(v))
		}
		return dst
	}
	for g := 0; g < len(vals); g += width {
		group := vals[g:min(g+width, len(vals))]
		longest := 0
		for _, v := range group {
			longest = max(longest, Len(v))
		}
		for k := range longest {
			shift := 7 * uint(k)
			for _, v := range group {
				n := Len(v)
				if k >= n {
					continue
				}
				b := byte(v>>shift) & 0x7f
				if k < n-1 {
					b |= 0x80
				}
				dst = append(dst, b)
			}
		}
	}
	return dst
}

// Decode decodes n values coded with the given width (≥ 1) from the front
// of src into dst (resliced, or grown when too short) and returns them and
// the number of bytes read. Bytes after the n-th value are not read. A
// stream that ends early, or is not canonical (see the package comment),
// gives an error wrapping ErrCorrupt; Decode never reads past src.
func Decode(dst []uint32, src []byte, n, width int) ([]uint32, int, error) {
	if width < 1 {
		return dst[:0], 0, fmt.Errorf("vlq: width %d < 1", width)
	}
	if n < 0 {
		return dst[:0], 0, fmt.Errorf("vlq: %d values", n)
	}
	if cap(dst) < n {
		dst = make([]uint32, n)
	}
	dst = dst[:n]
	off := 0
	if width == 1 { // plain VLQ, one value after the other
		for i := range dst {
			var v uint32
			for k := 0; ; k++ {
				if k == MaxBytes {
					return dst[:0], off, fmt.Errorf("%w: value %d longer than %d bytes", ErrCorrupt, i, MaxBytes)
				}
				if off >= len(src) {
					return dst[:0], off, fmt.Errorf("%w: ends at byte %d inside value %d", ErrCorrupt, off, i)
				}
				b := src[off]
				off++
				if k == MaxBytes-1 && b > 0x0f {
					return dst[:0], off, fmt.Errorf("%w: value %d exceeds 32 bits", ErrCorrupt, i)
				}
				v |= uint32(b&0x7f) << (7 * uint(k))
				if b&0x80 == 0 {
					if b == 0 && k > 0 {
						return dst[:0], off, fmt.Errorf("%w: value %d has a zero last byte (not canonical)", ErrCorrupt, i)
					}
					break
				}
			}
			dst[i] = v
		}
		return dst, off, nil
	}
	var active [WarpWidth]bool
	for g := 0; g < n; g += width {
		gn := min(width, n-g)
		group := dst[g : g+gn]
		var act []bool
		if gn <= len(active) {
			act = active[:gn]
		} else {
			act = make([]bool, gn)
		}
		for i := range group {
			group[i] = 0
			act[i] = true
		}
		left := gn
		for k := 0; left > 0; k++ {
			if k == MaxBytes {
				return dst[:0], off, fmt.Errorf("%w: value of group at %d longer than %d bytes", ErrCorrupt, g, MaxBytes)
			}
			shift := 7 * uint(k)
			for i := range group {
				if !act[i] {
					continue
				}
				if off >= len(src) {
					return dst[:0], off, fmt.Errorf("%w: ends at byte %d inside value %d", ErrCorrupt, off, g+i)
				}
				b := src[off]
				off++
				if k == MaxBytes-1 && b > 0x0f {
					return dst[:0], off, fmt.Errorf("%w: value %d exceeds 32 bits", ErrCorrupt, g+i)
				}
				group[i] |= uint32(b&0x7f) << shift
				if b&0x80 == 0 {
					if b == 0 && k > 0 {
						return dst[:0], off, fmt.Errorf("%w: value %d has a zero last byte (not canonical)", ErrCorrupt, g+i)
					}
					act[i] = false
					left--
				}
			}
		}
	}
	return dst, off, nil
}

// DeltaEncode replaces a strictly increasing list in place by its first
// value and the differences of consecutive values (§V-B: sorted vertex
// ids are sent as differences, which are small when the list is dense).
// It returns an error when the list is not strictly increasing.
func DeltaEncode(s []uint32) error {
	for i := len(s) - 1; i > 0; i-- {
		if s[i] <= s[i-1] {
			return fmt.Errorf("vlq: delta coding needs a strictly increasing list: [%d]=%d after %d", i, s[i], s[i-1])
		}
		s[i] -= s[i-1]
	}
	return nil
}

// DeltaDecode undoes DeltaEncode in place (a prefix sum). It returns an
// error wrapping ErrCorrupt when a difference is 0 after the first value
// or the sum passes 2^32-1.
func DeltaDecode(s []uint32) error {
	for i := 1; i < len(s); i++ {
		if s[i] == 0 {
			return fmt.Errorf("%w: zero difference at %d", ErrCorrupt, i)
		}
		x := s[i-1] + s[i]
		if x < s[i-1] {
			return fmt.Errorf("%w: list passes 2^32 at %d", ErrCorrupt, i)
		}
		s[i] = x
	}
	return nil
}

// AppendList codes a strictly increasing list (left unchanged) as
// differences in SIMD VLQ of the given width, appended to dst. scratch
// (may be nil) is reused for the differences.
func AppendList(dst []byte, list, scratch []uint32, width int) ([]byte, []uint32, error) {
	scratch = append(scratch[:0], list...)
	if err := DeltaEncode(scratch); err != nil {
		return dst, scratch, err
	}
	return Append(dst, scratch, width), scratch, nil
}

// DecodeList decodes n values of a list coded by AppendList into dst.
func DecodeList(dst []uint32, src []byte, n, width int) ([]uint32, int, error) {
	dst, used, err := Decode(dst, src, n, width)
	if err != nil {
		return dst, used, err
	}
	return dst, used, DeltaDecode(dst)
}
