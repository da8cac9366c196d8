package vlq

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestEncodeVectors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		vals  []uint32
		width int
		want  []byte
	}{
		// [Ueno] Figure 4.
		{"paper figure 4", []uint32{3, 123456, 80, 300}, 4, []byte{0x03, 0xC0, 0x50, 0xAC, 0xC4, 0x02, 0x07}},
		{"plain VLQ", []uint32{3, 123456, 80, 300}, 1, []byte{0x03, 0xC0, 0xC4, 0x07, 0x50, 0xAC, 0x02}},
		{"width 2", []uint32{3, 123456, 80, 300}, 2, []byte{0x03, 0xC0, 0xC4, 0x07, 0x50, 0xAC, 0x02}},
		{"width 3, short last group", []uint32{3, 123456, 80, 300}, 3, []byte{0x03, 0xC0, 0x50, 0xC4, 0x07, 0xAC, 0x02}},
		{"width 32 = one partial group", []uint32{3, 123456, 80, 300}, 32, []byte{0x03, 0xC0, 0x50, 0xAC, 0xC4, 0x02, 0x07}},
		{"empty", nil, 4, nil},
		{"zero", []uint32{0}, 4, []byte{0}},
		{"max", []uint32{math.MaxUint32}, 1, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}},
		{"boundaries", []uint32{127, 128}, 2, []byte{0x7F, 0x80, 0x01}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Append(nil, tc.vals, tc.width)
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("Append(%v, %d) = % X, want % X", tc.vals, tc.width, got, tc.want)
			}
			if n := EncodedLen(tc.vals); n != len(got) {
				t.Errorf("EncodedLen = %d, coded %d bytes", n, len(got))
			}
			dec, used, err := Decode(nil, got, len(tc.vals), tc.width)
			if err != nil || used != len(got) {
				t.Fatalf("Decode: %v (used %d of %d)", err, used, len(got))
			}
			for i := range tc.vals {
				if dec[i] != tc.vals[i] {
					t.Fatalf("Decode[%d] = %d, want %d", i, dec[i], tc.vals[i])
				}
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   []byte
		n     int
		width int
	}{
		{"truncated", []byte{0x03, 0xC0, 0x50, 0xAC, 0xC4, 0x02}, 4, 4},
		{"empty", nil, 1, 1},
		{"overlong", []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 1, 1},
		{"beyond 32 bits", []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x1F}, 1, 1},
		{"not canonical", []byte{0x80, 0x00}, 1, 1},
		{"bad width", []byte{0}, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := Decode(nil, tc.src, tc.n, tc.width); err == nil {
				t.Fatalf("Decode(% X) succeeded", tc.src)
			} else if tc.width > 0 && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
		})
	}
}

func TestListRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, width := range []int{1, 4, 32} {
		var list []uint32
		x := uint32(0)
		for range 1000 {
			x += 1 + uint32(rng.IntN(1<<uint(rng.IntN(20))))
			list = append(list, x)
		}
		enc, _, err := AppendList(nil, list, nil, width)
		if err != nil {
			t.Fatal(err)
		}
		dec, used, err := DecodeList(nil, enc, len(list), width)
		if err != nil || used != len(enc) {
			t.Fatalf("width %d: %v, used %d of %d", width, err, used, len(enc))
		}
		for i := range list {
			if dec[i] != list[i] {
				t.Fatalf("width %d: [%d] = %d, want %d", width, i, dec[i], list[i])
			}
		}
	}
	if err := DeltaEncode([]uint32{3, 3}); err == nil {
		t.Error("DeltaEncode accepted a repeated value")
	}
	if err := DeltaDecode([]uint32{math.MaxUint32, 1}); err == nil {
		t.Error("DeltaDecode accepted an overflow")
	}
}

// FuzzVLQ: values round-trip for every width; arbitrary bytes decode with
// an error or re-encode to exactly the bytes read, never panicking or
// reading past the stream.
func FuzzVLQ(f *testing.F) {
	f.Add([]byte{0x03, 0xC0, 0x50, 0xAC, 0xC4, 0x02, 0x07}, uint8(4), uint8(4))
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, uint8(1), uint8(1))
	f.Add([]byte{0x80, 0x80}, uint8(32), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, w, n uint8) {
		width := 1 + int(w)%40
		// Round trip: data read as little-endian uint32s, with varied sizes.
		vals := make([]uint32, len(data)/4)
		for i := range vals {
			v := binary.LittleEndian.Uint32(data[4*i:])
			vals[i] = v >> (v % 32)
		}
		enc := Append(nil, vals, width)
		dec, used, err := Decode(nil, enc, len(vals), width)
		if err != nil || used != len(enc) {
			t.Fatalf("round trip width %d: %v (used %d of %d)", width, err, used, len(enc))
		}
		for i := range vals {
			if dec[i] != vals[i] {
				t.Fatalf("round trip width %d: [%d] = %d, want %d", width, i, dec[i], vals[i])
			}
		}
		if plain := Append(nil, vals, 1); len(plain) != len(enc) {
			t.Fatalf("width %d coded %d bytes, plain VLQ %d", width, len(enc), len(plain))
		}
		// Arbitrary bytes as a stream of n values.
		src := data[:len(data):len(data)] // capacity ends at the stream
		got, used, err := Decode(nil, src, int(n), width)
		if used > len(src) {
			t.Fatalf("read %d bytes of %d", used, len(src))
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if re := Append(nil, got, width); !bytes.Equal(re, src[:used]) {
			t.Fatalf("decoded %v re-encodes to % X, read % X", got, re, src[:used])
		}
	})
}
