package bfs2d

// cuda_device.go: the CUDA engine's calls for the device path of the
// exchanges (device_exchange.go): the same a2d_* functions as the host
// path, handed device addresses instead of pinned host buffers (the
// library copies with cudaMemcpyDefault). Message headers do not travel:
// both ends derive a payload's kind and length from its vertex count.

import "unsafe"

// devPtr turns a device address into the pointer type the bound C
// functions take. The memory is not Go's; the collector ignores it.
func devPtr(p uintptr) *uint32 {
	return *(**uint32)(unsafe.Pointer(&p))
}

// payloadWords is the payload length (the message without its header) of
// count vertices of a block of blockN under mode, and its kind.
func payloadWords(mode string, count, blockN int) (bitmap bool, words int) {
	bitmap = UseBitmap(mode, count, blockN)
	return bitmap, MessageWords(bitmap, count, blockN) - 1
}

// devPayload is one received payload in device memory.
type devPayload struct {
	src   int // the sender's grid row (expand) or column (fold)
	ptr   uintptr
	count int
}

func flag(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// frontierPayloadDev writes the own frontier's payload to device address
// dst and returns its length in words.
func (e *cudaEngine) frontierPayloadDev(mode string, dst uintptr) (int, error) {
	bitmap, words := payloadWords(mode, e.nfront, int(e.l.BlockN))
	if words == 0 {
		return 0, nil
	}
	return words, e.call("a2d_frontier_payload", func(eb *byte, n int32) int32 {
		return e.fn.frontierPayload(e.h, flag(bitmap), devPtr(dst), eb, n)
	})
}

// foldPayloadDev writes dst_verts[m]'s payload to device address dst.
func (e *cudaEngine) foldPayloadDev(m int, mode string, dst uintptr) (int, error) {
	bitmap, words := payloadWords(mode, int(e.counts[m]), int(e.l.BlockN))
	if words == 0 {
		return 0, nil
	}
	return words, e.call("a2d_fold_payload", func(eb *byte, n int32) int32 {
		return e.fn.foldPayload(e.h, int64(m), flag(bitmap), devPtr(dst), eb, n)
	})
}

// loadFoldDev is LoadFold over payloads in device memory.
func (e *cudaEngine) loadFoldDev(mode string, ps []devPayload) error {
	if err := e.call("a2d_fold_begin", func(eb *byte, n int32) int32 { return e.fn.foldBegin(e.h, eb, n) }); err != nil {
		return err
	}
	return e.addPayloads("a2d_fold_add", e.fn.foldAdd, mode, ps)
}

// addPayloads hands each non-empty device payload to add (a2d_fold_add or
// a2d_frontier_add), as a bitmap or a list as UseBitmap decides.
func (e *cudaEngine) addPayloads(name string, add func(h uintptr, src int64, bitmap int32, ptr *uint32, count int64, eb *byte, n int32) int32, mode string, ps []devPayload) error {
	for _, p := range ps {
		if p.count == 0 {
			continue
		}
		bitmap := UseBitmap(mode, p.count, int(e.l.BlockN))
		if err := e.call(name, func(eb *byte, n int32) int32 {
			return add(e.h, int64(p.src), flag(bitmap), devPtr(p.ptr), int64(p.count), eb, n)
		}); err != nil {
			return err
		}
	}
	return nil
}

// remoteQueriesDev is RemoteQueries writing the rows to device address
// rows (room for the own block); it returns the counts per grid column.
func (e *cudaEngine) remoteQueriesDev(rows uintptr) ([]int, error) {
	if e.qcounts == nil {
		e.qcounts = make([]uint32, e.l.C)
	}
	if err := e.call("a2d_remote_queries", func(eb *byte, n int32) int32 {
		return e.fn.remoteQueries(e.h, ptr32(e.qcounts), devPtr(rows), eb, n)
	}); err != nil {
		return nil, err
	}
	counts := make([]int, e.l.C)
	for m, c := range e.qcounts {
		counts[m] = int(c)
	}
	return counts, nil
}

// lookupPredsDev answers n queries at device address rows into out.
func (e *cudaEngine) lookupPredsDev(rows uintptr, n int, out uintptr) error {
	return e.call("a2d_lookup_preds", func(eb *byte, k int32) int32 {
		return e.fn.lookupPreds(e.h, devPtr(rows), int64(n), devPtr(out), eb, k)
	})
}

// finalizeDev is Finalize with the answers at device address answers.
func (e *cudaEngine) finalizeDev(answers uintptr, n int) error {
	return e.call("a2d_finalize", func(eb *byte, k int32) int32 {
		return e.fn.finalize(e.h, devPtr(answers), int64(n), eb, k)
	})
}

// exchangeStream is the handle's high-priority exchange stream
// (a2d_exchange_stream), destroyed with the engine.
func (e *cudaEngine) exchangeStream() (uintptr, error) {
	var s uintptr
	err := e.call("a2d_exchange_stream", func(eb *byte, n int32) int32 { return e.fn.exchangeStream(e.h, &s, eb, n) })
	return s, err
}

// frontierBeginDev starts all_front with the own frontier (its first
// e.nfront entries), enqueued on the engine's stream.
func (e *cudaEngine) frontierBeginDev() error {
	return e.call("a2d_frontier_begin", func(eb *byte, n int32) int32 { return e.fn.frontierBegin(e.h, eb, n) })
}

// frontierAddDev appends the payloads received in the expand exchange to
// all_front and returns its entries.
func (e *cudaEngine) frontierAddDev(mode string, ps []devPayload) (int64, error) {
	if err := e.addPayloads("a2d_frontier_add", e.fn.frontierAdd, mode, ps); err != nil {
		return 0, err
	}
	var nall int64
	err := e.call("a2d_frontier_count", func(eb *byte, n int32) int32 { return e.fn.frontierCount(e.h, &nall, eb, n) })
	return nall, err
}

// expandBegin, expandRange and expandEnd are Expand in parts
// (a2d_expand_begin, _range, _end): the ranges of all_front are enqueued
// and expandEnd waits for them, returning dst_cnt and the edges scanned.
func (e *cudaEngine) expandBegin() error {
	return e.call("a2d_expand_begin", func(eb *byte, n int32) int32 { return e.fn.expandBegin(e.h, eb, n) })
}

func (e *cudaEngine) expandRange(lvl int32, from, to int64) error {
	return e.call("a2d_expand_range", func(eb *byte, n int32) int32 { return e.fn.expandRange(e.h, lvl, from, to, eb, n) })
}

func (e *cudaEngine) expandEnd() ([]uint32, int64, error) {
	var edges int64
	err := e.call("a2d_expand_end", func(eb *byte, n int32) int32 { return e.fn.expandEnd(e.h, ptr32(e.counts), &edges, eb, n) })
	if err != nil {
		return nil, 0, err
	}
	e.nfront = int(e.counts[e.l.J])
	return append([]uint32(nil), e.counts...), edges, nil
}
