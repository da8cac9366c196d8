package bfs2d

// message.go implements the vertex messages of the expand and fold
// exchanges ([1] §3.3: 32-bit local indices only) and the bitmap
// alternative of [1] §5: "when the size of vertices lists to be sent
// exceeds, in bits, the number of indices local to the receiving process,
// then it is more convenient to send a bitmap with the bits corresponding to
// the outgoing vertices set".
//
// Wire format (our choice; the paper does not give one): one header word,
// then the payload.
//
//	header = count                  a list of count 32-bit offsets
//	header = bitmapFlag | count     a bitmap of BitmapWords(blockN) words
//	                                with count bits set
//
// Offsets are relative to the first vertex of the block the message is
// about (the sender's own block for the expand exchange, the receiver's own
// block for the fold exchange), so a bitmap of blockN bits covers every
// vertex either side may name. The count in a bitmap header lets the
// receiver size its output before unpacking.

import (
	"errors"
	"fmt"
	"math/bits"
)

// Bitmap-message modes (the bitmap_messages parameter).
const (
	BitmapAuto = "auto" // §5: a bitmap whenever it is smaller than the list
	BitmapOff  = "off"  // always lists (the paper's §3 code)
	BitmapOn   = "on"   // a bitmap for every non-empty message
)

// bitmapFlag marks a bitmap message in the header word.
const bitmapFlag = 1 << 31

// maxMessageCount is the largest vertex count a header can carry.
const maxMessageCount = bitmapFlag - 1

// BitmapWords is the number of 32-bit words of a bitmap of n bits.
func BitmapWords(n int) int { return (n + 31) / 32 }

// UseBitmap reports whether a message of count vertices about a block of
// blockN vertices goes as a bitmap under mode. In auto mode the bitmap is
// chosen when the list is larger in bits than the block (count·32 > blockN,
// the §5 threshold T = blockN/32), i.e. when it is the smaller message.
func UseBitmap(mode string, count, blockN int) bool {
	switch mode {
	case BitmapOn:
		return count > 0
	case BitmapAuto:
		return count > BitmapWords(blockN)
	}
	return false
}

// MessageWords is the length in words of a message of count vertices about
// a block of blockN vertices, encoded as a bitmap or as a list.
func MessageWords(bitmap bool, count, blockN int) int {
	if bitmap {
		return 1 + BitmapWords(blockN)
	}
	return 1 + count
}

// EncodeList writes the list message for offs (offsets within the block)
// into dst, which must hold 1+len(offs) words, and returns the message.
func EncodeList(dst []uint32, offs []uint32) ([]uint32, error) {
	if len(offs) > maxMessageCount {
		return nil, fmt.Errorf("message of %d vertices exceeds the header's range", len(offs))
	}
	if len(dst) < 1+len(offs) {
		return nil, fmt.Errorf("list message of %d vertices needs %d words, buffer has %d", len(offs), 1+len(offs), len(dst))
	}
	dst[0] = uint32(len(offs))
	copy(dst[1:], offs)
	return dst[:1+len(offs)], nil
}

// EncodeBitmap writes the bitmap message for offs (distinct offsets within
// a block of blockN vertices) into dst, which must hold
// 1+BitmapWords(blockN) words, and returns the message.
func EncodeBitmap(dst []uint32, offs []uint32, blockN int) ([]uint32, error) {
	nw := BitmapWords(blockN)
	if len(dst) < 1+nw {
		return nil, fmt.Errorf("bitmap message of %d bits needs %d words, buffer has %d", blockN, 1+nw, len(dst))
	}
	bm := dst[1 : 1+nw]
	clear(bm)
	for _, o := range offs {
		if int(o) >= blockN {
			return nil, fmt.Errorf("offset %d outside a block of %d vertices", o, blockN)
		}
		bm[o>>5] |= 1 << (o & 31)
	}
	// Count the bits rather than len(offs): a repeated offset would
	// otherwise make the header lie about the payload.
	n := 0
	for _, w := range bm {
		n += bits.OnesCount32(w)
	}
	dst[0] = bitmapFlag | uint32(n)
	return dst[:1+nw], nil
}

// Encode chooses the representation for offs under mode (UseBitmap) and
// encodes it into dst.
func Encode(dst []uint32, offs []uint32, blockN int, mode string) ([]uint32, error) {
	if UseBitmap(mode, len(offs), blockN) {
		return EncodeBitmap(dst, offs, blockN)
	}
	return EncodeList(dst, offs)
}

// ParseHeader splits a message into its kind, vertex count and payload,
// checking the payload's length against the header.
func ParseHeader(msg []uint32, blockN int) (bitmap bool, count int, payload []uint32, err error) {
	if len(msg) == 0 {
		return false, 0, nil, errors.New("empty message: no header word")
	}
	h := msg[0]
	bitmap = h&bitmapFlag != 0
	count = int(h &^ bitmapFlag)
	want := MessageWords(bitmap, count, blockN)
	if len(msg) != want {
		kind := "list"
		if bitmap {
			kind = "bitmap"
		}
		return false, 0, nil, fmt.Errorf("%s message of %d vertices should be %d words, got %d", kind, count, want, len(msg))
	}
	if bitmap && count > blockN {
		return false, 0, nil, fmt.Errorf("bitmap message claims %d vertices in a block of %d", count, blockN)
	}
	return bitmap, count, msg[1:], nil
}

// Decode appends the offsets a message carries to dst (for a bitmap, in
// increasing order) and returns the extended slice. It checks that offsets
// lie inside the block and that a bitmap holds as many bits as its header
// says.
func Decode(dst []uint32, msg []uint32, blockN int) ([]uint32, error) {
	bitmap, count, payload, err := ParseHeader(msg, blockN)
	if err != nil {
		return dst, err
	}
	if !bitmap {
		for _, o := range payload {
			if int(o) >= blockN {
				return dst, fmt.Errorf("list message names offset %d outside a block of %d vertices", o, blockN)
			}
		}
		return append(dst, payload...), nil
	}
	start := len(dst)
	for wi, w := range payload {
		for w != 0 {
			b := bits.TrailingZeros32(w)
			w &= w - 1
			o := wi*32 + b
			if o >= blockN {
				return dst, fmt.Errorf("bitmap message sets bit %d outside a block of %d vertices", o, blockN)
			}
			dst = append(dst, uint32(o))
		}
	}
	if got := len(dst) - start; got != count {
		return dst, fmt.Errorf("bitmap message header says %d vertices, bitmap has %d", count, got)
	}
	return dst, nil
}
