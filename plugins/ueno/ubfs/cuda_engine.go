package ubfs

// cuda_engine.go: the CUDA backend, the engine of engine.go over one GPU,
// calling the kernels of ../cuda/ueno.cu through libueno.so (C ABI in
// ../cuda/ueno.h, loaded at run time by harness/cuda). The search state
// stays on the device; the NQ parts and fold chunks are staged through host
// memory, and every copy is counted (the h2d and d2h bytes of [1] Figure
// 12).

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/partition"
)

// uenoABIVersion is UENO_ABI_VERSION of ueno.h.
const uenoABIVersion = 4

// uenoParams mirrors struct ueno_params (all int64: no padding).
type uenoParams struct {
	Device, R, C, I, J, Block, NNZ, EdgeBuffer, SVUpdate, ListCap, ThreadsPerBlock, DeviceExchange, Fused int64
}

var _ [104 - unsafe.Sizeof(uenoParams{})]struct{} // 13 int64 fields
var _ [unsafe.Sizeof(uenoParams{}) - 104]struct{}

// uenoDev mirrors struct ueno_dev.
type uenoDev struct {
	NQ, CQ, SVIn, Stream, Streams, StreamsCap, Out, OutCap uint64
}

type errBuf = *byte

// uenoFuncs are the functions of ueno.h.
type uenoFuncs struct {
	create    func(p *uenoParams, colPtr *int64, rowIdx *uint32, out *uintptr, e errBuf, n int32) int32
	reset     func(h uintptr, rootOff, root int64, e errBuf, n int32) int32
	nqCount   func(h uintptr, cnt *int64, e errBuf, n int32) int32
	nqBitmap  func(h uintptr, dst *uint32, e errBuf, n int32) int32
	nqEncode  func(h uintptr, dst *byte, cap int64, nbytes *int64, e errBuf, n int32) int32
	loadPart  func(h uintptr, target int32, block int64, bitmap, stream uintptr, cnt, nbytes int64, onDevice int32, e errBuf, n int32) int32
	clearNQ   func(h uintptr, e errBuf, n int32) int32
	cqList    func(h uintptr, length *int64, e errBuf, n int32) int32
	gather    func(h uintptr, start int64, next *int64, counts *uint32, e errBuf, n int32) int32
	foldOut   func(h uintptr, m int64, dst *uint32, npairs int64, e errBuf, n int32) int32
	applyFold func(h uintptr, src int64, pairs uintptr, npairs int64, onDevice int32, e errBuf, n int32) int32
	devPtrs   func(h uintptr, d *uenoDev, e errBuf, n int32) int32
	recvPtr   func(h uintptr, npairs int64, ptr *uint64, e errBuf, n int32) int32
	parents   func(h uintptr, dst *int64, cnt int64, e errBuf, n int32) int32
	counters  func(h uintptr, ms *float64, h2d, d2h *int64, e errBuf, n int32) int32
	floor     func(h uintptr, gather, reps int32, ms *float64, e errBuf, n int32) int32
	vlqEncode func(device int64, vals *uint32, cnt int64, dst *byte, cap int64, nbytes *int64, reps int32, ms *float64, e errBuf, n int32) int32
	vlqDecode func(device int64, src *byte, nbytes, cnt int64, dst *uint32, reps int32, ms *float64, e errBuf, n int32) int32
	destroy   func(h uintptr)
}

var uenoBindings = cuda.Bindings[uenoFuncs]{
	Name: "ueno",
	ABI:  cuda.ABI{Symbol: "ueno_abi_version", Version: uenoABIVersion},
	Syms: func(f *uenoFuncs) []cuda.Sym {
		return []cuda.Sym{
			{Name: "ueno_create", Fn: &f.create}, {Name: "ueno_reset", Fn: &f.reset},
			{Name: "ueno_nq_count", Fn: &f.nqCount}, {Name: "ueno_nq_bitmap", Fn: &f.nqBitmap},
			{Name: "ueno_nq_encode", Fn: &f.nqEncode}, {Name: "ueno_load_part", Fn: &f.loadPart},
			{Name: "ueno_clear_nq", Fn: &f.clearNQ}, {Name: "ueno_cq_list", Fn: &f.cqList},
			{Name: "ueno_gather_filter", Fn: &f.gather}, {Name: "ueno_fold_out", Fn: &f.foldOut},
			{Name: "ueno_apply_fold", Fn: &f.applyFold}, {Name: "ueno_parents", Fn: &f.parents},
			{Name: "ueno_counters", Fn: &f.counters}, {Name: "ueno_floor", Fn: &f.floor},
			{Name: "ueno_vlq_encode", Fn: &f.vlqEncode}, {Name: "ueno_vlq_decode", Fn: &f.vlqDecode},
			{Name: "ueno_dev_ptrs", Fn: &f.devPtrs}, {Name: "ueno_recv_ptr", Fn: &f.recvPtr},
			{Name: "ueno_destroy", Fn: &f.destroy},
		}
	},
}

type uenoLib struct {
	lib *cuda.Library
	*uenoFuncs
}

func loadLib() (*uenoLib, error) {
	l, f, err := uenoBindings.Load()
	if err != nil {
		return nil, err
	}
	return &uenoLib{lib: l, uenoFuncs: f}, nil
}

// DeviceCount returns the number of CUDA devices libueno.so sees.
func DeviceCount() (int, error) { return uenoBindings.DeviceCount() }

// CopyBandwidth measures device memory bandwidth (bfsb_copy_bandwidth).
func CopyBandwidth(device int, bytes int64, reps int) (cuda.Bandwidth, error) {
	return uenoBindings.CopyBandwidth(device, bytes, reps)
}

// VLQEncodeGPU codes vals in SIMD VLQ (width 32) on a device with
// bfsb_vlq.cuh and returns the stream and the median time of reps
// encodings in milliseconds (device-resident data, copies excluded).
func VLQEncodeGPU(device int, vals []uint32, reps int) ([]byte, float64, error) {
	lib, err := loadLib()
	if err != nil {
		return nil, 0, err
	}
	if len(vals) == 0 {
		return []byte{}, 0, nil // no values, no groups: the empty stream, as vlq.Append
	}
	dst := make([]byte, 5*len(vals)+1)
	var nb int64
	var ms float64
	err = lib.lib.Call("ueno_vlq_encode", func(e *byte, n int32) int32 {
		return lib.vlqEncode(int64(device), ptr(vals), int64(len(vals)), &dst[0], int64(len(dst)), &nb, int32(reps), &ms, e, n)
	})
	if err != nil {
		return nil, 0, err
	}
	return dst[:nb], ms, nil
}

// VLQDecodeGPU decodes n values from a SIMD VLQ stream (width 32) on a
// device and returns them and the median time of reps decodings in ms.
func VLQDecodeGPU(device int, stream []byte, n, reps int) ([]uint32, float64, error) {
	lib, err := loadLib()
	if err != nil {
		return nil, 0, err
	}
	if n == 0 {
		if len(stream) != 0 {
			return nil, 0, fmt.Errorf("ueno_vlq_decode: %d bytes left after 0 values", len(stream))
		}
		return []uint32{}, 0, nil
	}
	dst := make([]uint32, n+1)
	var ms float64
	err = lib.lib.Call("ueno_vlq_decode", func(e *byte, en int32) int32 {
		return lib.vlqDecode(int64(device), ptr(stream), int64(len(stream)), int64(n), &dst[0], int32(reps), &ms, e, en)
	})
	if err != nil {
		return nil, 0, err
	}
	return dst[:n], ms, nil
}

func ptr[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// CUDAOptions are the CUDA backend's settings.
type CUDAOptions struct {
	Device          int // CUDA device ordinal
	ThreadsPerBlock int // multiple of 32 in [64, 1024]
	// Exchange is comm.ExchangeDevice (exchanges between device buffers
	// over NCCL, device_exchange.go) or comm.ExchangeHost (staged through
	// host memory), as the plugin resolved it.
	Exchange string
}

// svMethods maps Options.SVUpdate to UENO_SV_*.
var svMethods = map[string]int64{SVTestAndSet: 0, SVTestTestAndSet: 1, SVTestSet: 2}

// Event-time phase keys (seconds), in UENO_T_* order.
var eventPhases = []string{"event_expand", "event_cq_list", "event_gather", "event_filter", "event_fold"}

type cudaEngine struct {
	lib    *uenoLib
	h      uintptr
	dev    cuda.Device
	j, c   int
	b      int64
	counts []uint32
}

func (e *cudaEngine) call(fn string, f func(eb *byte, n int32) int32) error {
	return e.lib.lib.Call(fn, f)
}

func newCUDAEngine(p *partition.Part2D, opt Options, co CUDAOptions) (*cudaEngine, error) {
	lib, err := loadLib()
	if err != nil {
		return nil, err
	}
	dev, err := lib.lib.Device(co.Device)
	if err != nil {
		return nil, err
	}
	l := p.Layout
	listCap := int64(1)
	if opt.Compression {
		listCap = min(l.B, int64(math.Floor(opt.Alpha*float64(l.N)))+1)
	}
	up := uenoParams{Device: int64(co.Device), R: int64(l.R), C: int64(l.C), I: int64(p.I), J: int64(p.J),
		Block: l.B, NNZ: int64(len(p.RowIdx)), EdgeBuffer: int64(opt.EdgeBuffer), SVUpdate: svMethods[opt.SVUpdate],
		ListCap: listCap, ThreadsPerBlock: int64(co.ThreadsPerBlock)}
	if co.Exchange == comm.ExchangeDevice {
		up.DeviceExchange = 1
	}
	if opt.GatherFilter == GatherFused {
		up.Fused = 1
	}
	e := &cudaEngine{lib: lib, dev: dev, j: p.J, c: l.C, b: l.B, counts: make([]uint32, l.C)}
	if err := e.call("ueno_create", func(eb *byte, n int32) int32 {
		return lib.create(&up, ptr(p.ColPtr), ptr(p.RowIdx), &e.h, eb, n)
	}); err != nil {
		return nil, err
	}
	return e, nil
}

// Device is the engine's GPU.
func (e *cudaEngine) Device() cuda.Device { return e.dev }

func (e *cudaEngine) Reset(rootOff, root int64) error {
	return e.call("ueno_reset", func(eb *byte, n int32) int32 { return e.lib.reset(e.h, rootOff, root, eb, n) })
}

func (e *cudaEngine) NQCount() (int64, error) {
	var c int64
	err := e.call("ueno_nq_count", func(eb *byte, n int32) int32 { return e.lib.nqCount(e.h, &c, eb, n) })
	return c, err
}

func (e *cudaEngine) NQBitmap(dst []uint32) error {
	if len(dst) < BlockWords(e.b) {
		return fmt.Errorf("NQ bitmap buffer of %d words", len(dst))
	}
	return e.call("ueno_nq_bitmap", func(eb *byte, n int32) int32 { return e.lib.nqBitmap(e.h, ptr(dst), eb, n) })
}

func (e *cudaEngine) NQEncode(dst []byte) (int, error) {
	var nb int64
	err := e.call("ueno_nq_encode", func(eb *byte, n int32) int32 {
		return e.lib.nqEncode(e.h, ptr(dst), int64(len(dst)), &nb, eb, n)
	})
	return int(nb), err
}

// encodeDevice codes NQ into the device stream buffer (ueno_dev.stream)
// and returns its length.
func (e *cudaEngine) encodeDevice() (int64, error) {
	var nb int64
	err := e.call("ueno_nq_encode", func(eb *byte, n int32) int32 { return e.lib.nqEncode(e.h, nil, 0, &nb, eb, n) })
	return nb, err
}

func (e *cudaEngine) loadPart(target int32, block int, p Part) error {
	if p.Own {
		d, err := e.devPtrs()
		if err != nil {
			return err
		}
		return e.loadPartDevice(target, block, uintptr(d.NQ), 0, 0, 0)
	}
	var bm, st uintptr
	if p.Bitmap != nil {
		bm = uintptr(unsafe.Pointer(&p.Bitmap[0]))
	}
	if len(p.Stream) > 0 {
		st = uintptr(unsafe.Pointer(&p.Stream[0]))
	}
	err := e.call("ueno_load_part", func(eb *byte, n int32) int32 {
		return e.lib.loadPart(e.h, target, int64(block), bm, st, int64(p.N), int64(len(p.Stream)), 0, eb, n)
	})
	runtime.KeepAlive(p.Bitmap)
	runtime.KeepAlive(p.Stream)
	return err
}

// loadPartDevice loads a part held in device memory: a bitmap at bitmap
// (when non-zero), else n values coded in nbytes at stream.
func (e *cudaEngine) loadPartDevice(target int32, block int, bitmap, stream uintptr, n, nbytes int64) error {
	return e.call("ueno_load_part", func(eb *byte, en int32) int32 {
		return e.lib.loadPart(e.h, target, int64(block), bitmap, stream, n, nbytes, 1, eb, en)
	})
}

// clearNQ empties NQ.
func (e *cudaEngine) clearNQ() error {
	return e.call("ueno_clear_nq", func(eb *byte, n int32) int32 { return e.lib.clearNQ(e.h, eb, n) })
}

// devPtrs returns the device addresses of the device path's buffers.
func (e *cudaEngine) devPtrs() (uenoDev, error) {
	var d uenoDev
	err := e.call("ueno_dev_ptrs", func(eb *byte, n int32) int32 { return e.lib.devPtrs(e.h, &d, eb, n) })
	return d, err
}

// recvPtr returns the fold's device receive buffer, grown to npairs.
func (e *cudaEngine) recvPtr(npairs int64) (uintptr, error) {
	var p uint64
	err := e.call("ueno_recv_ptr", func(eb *byte, n int32) int32 { return e.lib.recvPtr(e.h, npairs, &p, eb, n) })
	return uintptr(p), err
}

// applyFoldDevice is task 8 for npairs pairs at device address pairs.
func (e *cudaEngine) applyFoldDevice(src int, pairs uintptr, npairs int64) error {
	return e.call("ueno_apply_fold", func(eb *byte, n int32) int32 {
		return e.lib.applyFold(e.h, int64(src), pairs, npairs, 1, eb, n)
	})
}

// gatherFilterDevice is tasks 5–6 leaving the output on the device; it
// returns the next entry and the pairs per grid column.
func (e *cudaEngine) gatherFilterDevice(start int) (int, []uint32, error) {
	var next int64
	err := e.call("ueno_gather_filter", func(eb *byte, n int32) int32 {
		return e.lib.gather(e.h, int64(start), &next, &e.counts[0], eb, n)
	})
	return int(next), e.counts, err
}

func (e *cudaEngine) LoadExpand(col, row []Part) error {
	for r, p := range col {
		if err := e.loadPart(0, r, p); err != nil {
			return fmt.Errorf("CQ block %d: %w", r, err)
		}
	}
	for m, p := range row {
		if err := e.loadPart(1, m, p); err != nil {
			return fmt.Errorf("SV block %d: %w", m, err)
		}
	}
	return e.clearNQ()
}

func (e *cudaEngine) CQList() (int, error) {
	var l int64
	err := e.call("ueno_cq_list", func(eb *byte, n int32) int32 { return e.lib.cqList(e.h, &l, eb, n) })
	return int(l), err
}

func (e *cudaEngine) GatherFilter(start int, out [][]uint32) (int, error) {
	var next int64
	if err := e.call("ueno_gather_filter", func(eb *byte, n int32) int32 {
		return e.lib.gather(e.h, int64(start), &next, &e.counts[0], eb, n)
	}); err != nil {
		return 0, err
	}
	for m, c := range e.counts {
		if m == e.j || c == 0 {
			continue
		}
		n0 := len(out[m])
		out[m] = slices.Grow(out[m], 2*int(c))[:n0+2*int(c)]
		if err := e.call("ueno_fold_out", func(eb *byte, n int32) int32 {
			return e.lib.foldOut(e.h, int64(m), &out[m][n0], int64(c), eb, n)
		}); err != nil {
			return 0, err
		}
	}
	return int(next), nil
}

func (e *cudaEngine) ApplyFold(src int, pairs []uint32) error {
	if len(pairs)%2 != 0 {
		return fmt.Errorf("fold chunk of %d words", len(pairs))
	}
	if len(pairs) == 0 {
		return nil
	}
	err := e.call("ueno_apply_fold", func(eb *byte, n int32) int32 {
		return e.lib.applyFold(e.h, int64(src), uintptr(unsafe.Pointer(&pairs[0])), int64(len(pairs)/2), 0, eb, n)
	})
	runtime.KeepAlive(pairs)
	return err
}

func (e *cudaEngine) Parents(dst []int64) error {
	return e.call("ueno_parents", func(eb *byte, n int32) int32 { return e.lib.parents(e.h, ptr(dst), int64(len(dst)), eb, n) })
}

func (e *cudaEngine) Counters() (map[string]float64, int64, int64) {
	ms := make([]float64, len(eventPhases))
	var h2d, d2h int64
	if err := e.call("ueno_counters", func(eb *byte, n int32) int32 { return e.lib.counters(e.h, &ms[0], &h2d, &d2h, eb, n) }); err != nil {
		return nil, 0, 0
	}
	t := make(map[string]float64, len(ms))
	for k, x := range ms {
		t[eventPhases[k]] = x / 1e3
	}
	return t, h2d, d2h
}

// Floor times the floor kernels (ueno_floor): the median of reps passes of
// each, ms.
func (e *cudaEngine) Floor(reps int) (Floors, error) {
	var f Floors
	for k, ms := range []*float64{&f.Flat, &f.Gather} {
		err := e.call("ueno_floor", func(eb *byte, n int32) int32 {
			return e.lib.floor(e.h, int32(k), int32(reps), ms, eb, n)
		})
		if err != nil {
			return f, err
		}
	}
	return f, nil
}

func (e *cudaEngine) Close() error {
	if e.h != 0 {
		e.lib.destroy(e.h)
		e.h = 0
	}
	return nil
}

// NewCUDARank builds P(i,j)'s rank on the CUDA backend (device co.Device).
// Collective: when any rank fails to set up its GPU, every rank returns an
// error.
func NewCUDARank(g *comm.Grid, p *partition.Part2D, opt Options, co CUDAOptions) (*Rank, string, error) {
	var eng *cudaEngine
	err := opt.check()
	if err == nil {
		eng, err = newCUDAEngine(p, opt, co)
	}
	if err := comm.Agree(g.World, err); err != nil {
		if eng != nil {
			eng.Close()
		}
		return nil, "", err
	}
	rk, err := newRank(g, p.Layout, eng, opt)
	if err != nil {
		eng.Close()
		return nil, "", err
	}
	if co.Exchange == comm.ExchangeDevice {
		if rk.dx, err = newDeviceExchange(g, eng); err != nil {
			eng.Close()
			return nil, "", err
		}
	}
	d := eng.Device()
	return rk, fmt.Sprintf("cuda:%d %s", d.Ordinal, d.Name), nil
}

// Floors are a rank's two floors, each the median of its passes in
// milliseconds: Flat reads every local edge's target as one array and tests
// its SV bit (the per-edge work of tasks 5-6 alone); Gather expands every
// local column's list by task 5's Merrill gathering and makes the same test
// (what gathering every edge once costs at least).
type Floors struct {
	Flat, Gather float64
}

// Floor times this rank's floor kernels (CUDA backend only), reps passes
// of each. Not collective.
func (rk *Rank) Floor(reps int) (Floors, error) {
	f, ok := rk.eng.(interface{ Floor(int) (Floors, error) })
	if !ok {
		return Floors{}, fmt.Errorf("floor: the %T backend has none", rk.eng)
	}
	return f.Floor(reps)
}
