package bfs2d

// cuda_engine.go is the CUDA backend: the engine of engine.go over one GPU,
// calling the kernels of ../cuda/atomic2d.cu through libatomic2d.so (C ABI
// in ../cuda/atomic2d.h, loaded at run time by harness/cuda). The search
// data never leaves the device; only message payloads and the few counters
// of each step cross to the host, through pinned host buffers the library
// allocates (HostAlloc: the rank's message and receive buffers, the
// predecessor exchange's).

import (
	"fmt"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/cuda"
)

// a2dABIVersion is A2D_ABI_VERSION of atomic2d.h.
const a2dABIVersion = 10

// a2dParams mirrors struct a2d_params (all int64: no padding).
type a2dParams struct {
	Device, R, C, I, J                   int64
	BlockN, OwnLen, LocalRows, LocalCols int64
	NNZ, EdgesPerThread, ThreadsPerBlock int64
	AppendBlock                          int64 // 1: queue slots per block round, 0: one atomic per vertex
}

var _ [104 - unsafe.Sizeof(a2dParams{})]struct{} // 13 int64 fields
var _ [unsafe.Sizeof(a2dParams{}) - 104]struct{}

// a2dFuncs are libatomic2d.so's a2d_* functions.
type a2dFuncs struct {
	deviceBytes     func(p *a2dParams, bytes *int64, err *byte, errlen int32) int32
	create          func(p *a2dParams, colOff, rowIdx *uint32, out *uintptr, err *byte, errlen int32) int32
	reset           func(h uintptr, rootRow int64, nfront *int64, err *byte, errlen int32) int32
	frontierPayload func(h uintptr, bitmap int32, dst *uint32, err *byte, errlen int32) int32
	frontierBegin   func(h uintptr, err *byte, errlen int32) int32
	frontierAdd     func(h uintptr, r int64, bitmap int32, payload *uint32, count int64, err *byte, errlen int32) int32
	expand          func(h uintptr, lvl int32, counts *uint32, edges *int64, err *byte, errlen int32) int32
	expandBegin     func(h uintptr, err *byte, errlen int32) int32
	expandRange     func(h uintptr, lvl int32, from, to int64, err *byte, errlen int32) int32
	expandEnd       func(h uintptr, counts *uint32, edges *int64, err *byte, errlen int32) int32
	frontierCount   func(h uintptr, nall *int64, err *byte, errlen int32) int32
	foldPayload     func(h uintptr, m int64, bitmap int32, dst *uint32, err *byte, errlen int32) int32
	foldBegin       func(h uintptr, err *byte, errlen int32) int32
	foldAdd         func(h uintptr, m int64, bitmap int32, payload *uint32, count int64, err *byte, errlen int32) int32
	update          func(h uintptr, lvl int32, nfront *int64, err *byte, errlen int32) int32
	remoteQueries   func(h uintptr, counts, rows *uint32, err *byte, errlen int32) int32
	lookupPreds     func(h uintptr, rows *uint32, n int64, out *uint32, err *byte, errlen int32) int32
	finalize        func(h uintptr, answers *uint32, n int64, err *byte, errlen int32) int32
	parents         func(h uintptr, dst *int64, err *byte, errlen int32) int32
	levels          func(h uintptr, dst *int32, err *byte, errlen int32) int32
	testFloor       func(h uintptr, mode, reps int32, ms *float32, unvisited *uint64, err *byte, errlen int32) int32
	hostAlloc       func(h uintptr, words int64, ptr **uint32, err *byte, errlen int32) int32
	stream          func(h uintptr, s *uintptr, err *byte, errlen int32) int32
	exchangeStream  func(h uintptr, s *uintptr, err *byte, errlen int32) int32
	destroy         func(h uintptr)
}

// a2dLib loads and binds libatomic2d.so once per process (every rank of an
// in-process run shares it).
var a2dLib = cuda.Bindings[a2dFuncs]{
	Name: "atomic2d",
	ABI:  cuda.ABI{Symbol: "a2d_abi_version", Version: a2dABIVersion},
	Syms: func(f *a2dFuncs) []cuda.Sym {
		return []cuda.Sym{
			{Name: "a2d_device_bytes", Fn: &f.deviceBytes},
			{Name: "a2d_create", Fn: &f.create},
			{Name: "a2d_reset", Fn: &f.reset},
			{Name: "a2d_frontier_payload", Fn: &f.frontierPayload},
			{Name: "a2d_frontier_begin", Fn: &f.frontierBegin},
			{Name: "a2d_frontier_add", Fn: &f.frontierAdd},
			{Name: "a2d_expand", Fn: &f.expand},
			{Name: "a2d_expand_begin", Fn: &f.expandBegin},
			{Name: "a2d_expand_range", Fn: &f.expandRange},
			{Name: "a2d_expand_end", Fn: &f.expandEnd},
			{Name: "a2d_frontier_count", Fn: &f.frontierCount},
			{Name: "a2d_fold_payload", Fn: &f.foldPayload},
			{Name: "a2d_fold_begin", Fn: &f.foldBegin},
			{Name: "a2d_fold_add", Fn: &f.foldAdd},
			{Name: "a2d_update", Fn: &f.update},
			{Name: "a2d_remote_queries", Fn: &f.remoteQueries},
			{Name: "a2d_lookup_preds", Fn: &f.lookupPreds},
			{Name: "a2d_finalize", Fn: &f.finalize},
			{Name: "a2d_parents", Fn: &f.parents},
			{Name: "a2d_levels", Fn: &f.levels},
			{Name: "a2d_test_floor", Fn: &f.testFloor},
			{Name: "a2d_host_alloc", Fn: &f.hostAlloc},
			{Name: "a2d_stream", Fn: &f.stream},
			{Name: "a2d_exchange_stream", Fn: &f.exchangeStream},
			{Name: "a2d_destroy", Fn: &f.destroy},
		}
	},
}

// ptr32 and friends return a pointer to a slice's first element, or nil.
func ptr32(s []uint32) *uint32 {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// cudaEngine is one rank's CUDA backend.
type cudaEngine struct {
	lib    *cuda.Library
	fn     *a2dFuncs
	h      uintptr
	l      Layout
	dev    cuda.Device
	nfront int
	counts []uint32 // dst_cnt after the last expansion

	// The predecessor exchange's host buffers for RemoteQueries' rows and
	// LookupPreds' answers (HostAlloc), nil until the first use.
	queries, answers []uint32
	qcounts          []uint32 // RemoteQueries' counts per grid column
}

// HostAlloc returns words uint32 of pinned host memory (a2d_host_alloc),
// which the library frees in Close: copies between it and the device run
// at the link's speed, while pageable memory goes through a staging copy.
func (e *cudaEngine) HostAlloc(words int) ([]uint32, error) {
	var p *uint32
	if err := e.call("a2d_host_alloc", func(eb *byte, n int32) int32 {
		return e.fn.hostAlloc(e.h, int64(words), &p, eb, n)
	}); err != nil {
		return nil, err
	}
	return unsafe.Slice(p, max(words, 1))[:words], nil
}

// CUDAOptions are the CUDA backend's settings.
type CUDAOptions struct {
	Device          int // CUDA device ordinal
	ThreadsPerBlock int
	// Exchange is comm.ExchangeDevice for the device path of the
	// exchanges (NCCL, device_exchange.go), anything else for the host
	// path; resolve the parameter with comm.SelectExchange first.
	Exchange string
	// Overlap runs the device path's expand exchange while the own
	// frontier is expanded (the overlap parameter = expand).
	Overlap bool
}

// DeviceCount returns the number of CUDA devices libatomic2d.so sees.
func DeviceCount() (int, error) { return a2dLib.DeviceCount() }

// CopyBandwidth measures device memory bandwidth (bfsb_copy_bandwidth).
func CopyBandwidth(device int, bytes int64, reps int) (cuda.Bandwidth, error) {
	return a2dLib.CopyBandwidth(device, bytes, reps)
}

// b64 is 1 for true, 0 for false (int64 flags of the C ABI).
func b64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func newCUDAEngine(l Layout, g *LocalCSC, edgesPerThread int, appendBlock bool, co CUDAOptions) (*cudaEngine, error) {
	lib, fn, err := a2dLib.Load()
	if err != nil {
		return nil, err
	}
	dev, err := lib.Device(co.Device)
	if err != nil {
		return nil, err
	}
	if int64(len(g.ColOff)) != l.LocalCols()+1 {
		return nil, fmt.Errorf("local CSC has %d column offsets, want %d", len(g.ColOff), l.LocalCols()+1)
	}
	tpb := co.ThreadsPerBlock
	if tpb == 0 {
		tpb = 256
	}
	p := a2dParams{
		Device: int64(co.Device), R: int64(l.R), C: int64(l.C), I: int64(l.I), J: int64(l.J),
		BlockN: l.BlockN, OwnLen: l.BlockLen(l.Block()), LocalRows: l.LocalRows(), LocalCols: l.LocalCols(),
		NNZ: int64(len(g.RowIdx)), EdgesPerThread: int64(edgesPerThread), ThreadsPerBlock: int64(tpb),
		AppendBlock: b64(appendBlock),
	}
	var need int64
	if err := lib.Call("a2d_device_bytes", func(e *byte, n int32) int32 { return fn.deviceBytes(&p, &need, e, n) }); err != nil {
		return nil, err
	}
	if err := dev.Need(need, fmt.Sprintf("atomic2d rank P(%d,%d) (%d local edges)", l.I, l.J, len(g.RowIdx))); err != nil {
		return nil, err
	}
	e := &cudaEngine{lib: lib, fn: fn, l: l, dev: dev, counts: make([]uint32, l.C)}
	if err := lib.Call("a2d_create", func(eb *byte, n int32) int32 {
		return fn.create(&p, ptr32(g.ColOff), ptr32(g.RowIdx), &e.h, eb, n)
	}); err != nil {
		return nil, err
	}
	return e, nil
}

// Stream is the handle's cudaStream_t (a2d_stream): every call enqueues
// its work there.
func (e *cudaEngine) Stream() (uintptr, error) {
	var s uintptr
	err := e.call("a2d_stream", func(eb *byte, n int32) int32 { return e.fn.stream(e.h, &s, eb, n) })
	return s, err
}

// Device is the GPU this engine runs on.
func (e *cudaEngine) Device() cuda.Device { return e.dev }

func (e *cudaEngine) call(fn string, f func(eb *byte, n int32) int32) error {
	return e.lib.Call(fn, f)
}

func (e *cudaEngine) Reset(rootRow int64) (int, error) {
	var nf int64
	err := e.call("a2d_reset", func(eb *byte, n int32) int32 { return e.fn.reset(e.h, rootRow, &nf, eb, n) })
	e.nfront = int(nf)
	return e.nfront, err
}

// message writes the header for count vertices and lets payload fill the
// rest of buf.
func (e *cudaEngine) message(mode string, count int, buf []uint32, payload func(bitmap int32, dst *uint32) error) ([]uint32, error) {
	bn := int(e.l.BlockN)
	bitmap := UseBitmap(mode, count, bn)
	words := MessageWords(bitmap, count, bn)
	if len(buf) < words {
		return nil, fmt.Errorf("message of %d words, buffer holds %d", words, len(buf))
	}
	if bitmap {
		buf[0] = bitmapFlag | uint32(count)
	} else {
		buf[0] = uint32(count)
	}
	if words > 1 {
		flag := int32(0)
		if bitmap {
			flag = 1
		}
		if err := payload(flag, &buf[1]); err != nil {
			return nil, err
		}
	}
	return buf[:words], nil
}

func (e *cudaEngine) FrontierMessage(mode string, buf []uint32) ([]uint32, error) {
	return e.message(mode, e.nfront, buf, func(bitmap int32, dst *uint32) error {
		return e.call("a2d_frontier_payload", func(eb *byte, n int32) int32 { return e.fn.frontierPayload(e.h, bitmap, dst, eb, n) })
	})
}

// add hands each received message's payload to add (fn names the C call).
func (e *cudaEngine) addMessages(msgs [][]uint32, self int, what string, add func(src int64, bitmap int32, payload *uint32, count int64, eb *byte, n int32) int32, fn string) error {
	for src, msg := range msgs {
		if src == self || msg == nil {
			continue
		}
		bitmap, count, payload, err := ParseHeader(msg, int(e.l.BlockN))
		if err != nil {
			return fmt.Errorf("%s %d: %w", what, src, err)
		}
		if count == 0 {
			continue
		}
		flag := int32(0)
		if bitmap {
			flag = 1
		}
		if err := e.call(fn, func(eb *byte, n int32) int32 { return add(int64(src), flag, ptr32(payload), int64(count), eb, n) }); err != nil {
			return fmt.Errorf("%s %d: %w", what, src, err)
		}
	}
	return nil
}

func (e *cudaEngine) LoadFrontier(msgs [][]uint32) error {
	if err := e.call("a2d_frontier_begin", func(eb *byte, n int32) int32 { return e.fn.frontierBegin(e.h, eb, n) }); err != nil {
		return err
	}
	return e.addMessages(msgs, e.l.I, "expand message from grid row", func(src int64, bm int32, p *uint32, c int64, eb *byte, n int32) int32 {
		return e.fn.frontierAdd(e.h, src, bm, p, c, eb, n)
	}, "a2d_frontier_add")
}

func (e *cudaEngine) Expand(lvl int32) ([]uint32, int64, error) {
	var edges int64
	err := e.call("a2d_expand", func(eb *byte, n int32) int32 { return e.fn.expand(e.h, lvl, ptr32(e.counts), &edges, eb, n) })
	if err != nil {
		return nil, 0, err
	}
	e.nfront = int(e.counts[e.l.J])
	return append([]uint32(nil), e.counts...), edges, nil
}

func (e *cudaEngine) FoldMessage(m int, mode string, buf []uint32) ([]uint32, error) {
	return e.message(mode, int(e.counts[m]), buf, func(bitmap int32, dst *uint32) error {
		return e.call("a2d_fold_payload", func(eb *byte, n int32) int32 { return e.fn.foldPayload(e.h, int64(m), bitmap, dst, eb, n) })
	})
}

func (e *cudaEngine) LoadFold(msgs [][]uint32) error {
	if err := e.call("a2d_fold_begin", func(eb *byte, n int32) int32 { return e.fn.foldBegin(e.h, eb, n) }); err != nil {
		return err
	}
	return e.addMessages(msgs, e.l.J, "fold message from grid column", func(src int64, bm int32, p *uint32, c int64, eb *byte, n int32) int32 {
		return e.fn.foldAdd(e.h, src, bm, p, c, eb, n)
	}, "a2d_fold_add")
}

func (e *cudaEngine) Update(lvl int32) (int, error) {
	var nf int64
	err := e.call("a2d_update", func(eb *byte, n int32) int32 { return e.fn.update(e.h, lvl, &nf, eb, n) })
	e.nfront = int(nf)
	return e.nfront, err
}

func (e *cudaEngine) RemoteQueries() ([]uint32, []int, error) {
	if e.queries == nil {
		var err error
		if e.queries, err = e.HostAlloc(int(e.l.BlockLen(e.l.Block()))); err != nil {
			return nil, nil, err
		}
		e.qcounts = make([]uint32, e.l.C)
	}
	rows := e.queries
	if err := e.call("a2d_remote_queries", func(eb *byte, n int32) int32 {
		return e.fn.remoteQueries(e.h, ptr32(e.qcounts), ptr32(rows), eb, n)
	}); err != nil {
		return nil, nil, err
	}
	counts := make([]int, e.l.C)
	total := 0
	for m, c := range e.qcounts {
		counts[m] = int(c)
		total += int(c)
	}
	return rows[:total], counts, nil
}

// LookupPreds answers into a pinned buffer (HostAlloc); the device checks
// every query (a2d_lookup_preds).
func (e *cudaEngine) LookupPreds(rows []uint32) ([]uint32, error) {
	if e.answers == nil {
		var err error
		if e.answers, err = e.HostAlloc(int(maxPredQueries(e.l))); err != nil {
			return nil, err
		}
	}
	if len(rows) > len(e.answers) {
		return nil, fmt.Errorf("%d predecessor queries, room for %d", len(rows), len(e.answers))
	}
	out := e.answers[:len(rows)]
	err := e.call("a2d_lookup_preds", func(eb *byte, n int32) int32 {
		return e.fn.lookupPreds(e.h, ptr32(rows), int64(len(rows)), ptr32(out), eb, n)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Finalize hands the answers to the device, which kept the queries of
// RemoteQueries (a2d_finalize checks their number).
func (e *cudaEngine) Finalize(queries []uint32, counts []int, answers []uint32) error {
	if len(answers) != len(queries) {
		return fmt.Errorf("%d predecessor answers for %d queries", len(answers), len(queries))
	}
	return e.call("a2d_finalize", func(eb *byte, n int32) int32 {
		return e.fn.finalize(e.h, ptr32(answers), int64(len(answers)), eb, n)
	})
}

func (e *cudaEngine) Parents(dst []int64) error {
	if int64(len(dst)) != e.l.BlockLen(e.l.Block()) {
		return fmt.Errorf("parents buffer of %d for a block of %d", len(dst), e.l.BlockLen(e.l.Block()))
	}
	var p *int64
	if len(dst) > 0 {
		p = &dst[0]
	}
	return e.call("a2d_parents", func(eb *byte, n int32) int32 { return e.fn.parents(e.h, p, eb, n) })
}

func (e *cudaEngine) Levels(dst []int32) error {
	if int64(len(dst)) != e.l.BlockLen(e.l.Block()) {
		return fmt.Errorf("levels buffer of %d for a block of %d", len(dst), e.l.BlockLen(e.l.Block()))
	}
	var p *int32
	if len(dst) > 0 {
		p = &dst[0]
	}
	return e.call("a2d_levels", func(eb *byte, n int32) int32 { return e.fn.levels(e.h, p, eb, n) })
}

// TestFloor times the test floor in mode (a2d_test_floor): the median
// milliseconds of reps passes over the local edges, and the number of
// tested rows whose visited bit was clear.
func (e *cudaEngine) TestFloor(mode FloorMode, reps int) (float64, uint64, error) {
	var ms float32
	var unvisited uint64
	err := e.call("a2d_test_floor", func(eb *byte, n int32) int32 {
		return e.fn.testFloor(e.h, int32(mode), int32(reps), &ms, &unvisited, eb, n)
	})
	return float64(ms), unvisited, err
}

func (e *cudaEngine) Close() error {
	if e.h != 0 {
		e.fn.destroy(e.h)
		e.h = 0
	}
	return nil
}
