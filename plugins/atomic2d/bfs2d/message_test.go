package bfs2d

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMessageRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, blockN := range []int{1, 31, 32, 33, 100, 1000, 4096} {
		for _, count := range []int{0, 1, 2, blockN / 40, blockN / 32, blockN/32 + 1, blockN / 2, blockN} {
			if count > blockN {
				continue
			}
			offs := rng.Perm(blockN)[:count]
			list := make([]uint32, count)
			for i, o := range offs {
				list[i] = uint32(o)
			}
			want := slices.Clone(list)
			slices.Sort(want)
			for _, mode := range []string{BitmapOff, BitmapOn, BitmapAuto} {
				buf := make([]uint32, maxMessageWords(BitmapOff, blockN)+1)
				msg, err := Encode(buf, list, blockN, mode)
				if err != nil {
					t.Fatalf("n=%d count=%d %s: %v", blockN, count, mode, err)
				}
				if len(msg) > maxMessageWords(mode, blockN) {
					t.Errorf("n=%d count=%d %s: %d words, more than the mode's maximum %d", blockN, count, mode, len(msg), maxMessageWords(mode, blockN))
				}
				bitmap := UseBitmap(mode, count, blockN)
				if len(msg) != MessageWords(bitmap, count, blockN) {
					t.Errorf("n=%d count=%d %s: %d words, want %d", blockN, count, mode, len(msg), MessageWords(bitmap, count, blockN))
				}
				if mode == BitmapAuto && len(msg) > MessageWords(false, count, blockN) {
					t.Errorf("n=%d count=%d: auto chose a message longer than the list", blockN, count)
				}
				got, err := Decode([]uint32{7}, msg, blockN) // decoding appends
				if err != nil {
					t.Fatalf("n=%d count=%d %s: decode: %v", blockN, count, mode, err)
				}
				if got[0] != 7 {
					t.Fatalf("decode overwrote the destination's prefix")
				}
				got = got[1:]
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d count=%d %s: decoded %v, want %v", blockN, count, mode, got, want)
				}
			}
		}
	}
}

func TestDecodeRejectsBadMessages(t *testing.T) {
	const blockN = 64
	cases := map[string][]uint32{
		"empty":                 {},
		"list too short":        {3, 1, 2},
		"list too long":         {1, 1, 2},
		"list offset outside":   {1, 64},
		"bitmap wrong length":   {bitmapFlag | 1, 1},
		"bitmap count mismatch": {bitmapFlag | 2, 1, 0},
		"bitmap count too big":  {bitmapFlag | 65, ^uint32(0), ^uint32(0)},
	}
	for name, msg := range cases {
		if _, err := Decode(nil, msg, blockN); err == nil {
			t.Errorf("%s: %v decoded without error", name, msg)
		}
	}
	if _, err := Decode(nil, []uint32{bitmapFlag | 1, 0, 1 << 31}, 63); err == nil {
		t.Errorf("a bit past the block's end decoded without error")
	}
}

func TestUseBitmapThreshold(t *testing.T) {
	// §5: the threshold is T = blockN/32 vertices (a bitmap of blockN bits
	// against 32 bits per listed vertex).
	const blockN = 2 << 20
	T := blockN / 32
	if UseBitmap(BitmapAuto, T, blockN) || !UseBitmap(BitmapAuto, T+1, blockN) {
		t.Errorf("auto switches away from T=%d", T)
	}
	if UseBitmap(BitmapOff, blockN, blockN) || !UseBitmap(BitmapOn, 1, blockN) || UseBitmap(BitmapOn, 0, blockN) {
		t.Errorf("off/on modes do not force the representation")
	}
}
