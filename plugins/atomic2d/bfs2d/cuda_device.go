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

// loadFrontierDev is LoadFrontier over payloads in device memory.
func (e *cudaEngine) loadFrontierDev(mode string, ps []devPayload) error {
	if err := e.call("a2d_frontier_begin", func(eb *byte, n int32) int32 { return e.fn.frontierBegin(e.h, eb, n) }); err != nil {
		return err
	}
	for _, p := range ps {
		if p.count == 0 {
			continue
		}
		bitmap := UseBitmap(mode, p.count, int(e.l.BlockN))
		if err := e.call("a2d_frontier_add", func(eb *byte, n int32) int32 {
			return e.fn.frontierAdd(e.h, int64(p.src), flag(bitmap), devPtr(p.ptr), int64(p.count), eb, n)
		}); err != nil {
			return err
		}
	}
	return nil
}

// loadFoldDev is LoadFold over payloads in device memory.
func (e *cudaEngine) loadFoldDev(mode string, ps []devPayload) error {
	if err := e.call("a2d_fold_begin", func(eb *byte, n int32) int32 { return e.fn.foldBegin(e.h, eb, n) }); err != nil {
		return err
	}
	for _, p := range ps {
		if p.count == 0 {
			continue
		}
		bitmap := UseBitmap(mode, p.count, int(e.l.BlockN))
		if err := e.call("a2d_fold_add", func(eb *byte, n int32) int32 {
			return e.fn.foldAdd(e.h, int64(p.src), flag(bitmap), devPtr(p.ptr), int64(p.count), eb, n)
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
