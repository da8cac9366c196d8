package mgbfs

// cuda_engine.go: the CUDA backend, the Engine of engine.go over
// ../cuda/merrill.cu through libmerrill.so (C ABI in ../cuda/merrill.h,
// loaded at run time by harness/cuda). One handle drives every partition;
// partition i runs on device i mod (the device count), so that partitions
// share devices where there are fewer devices than partitions.

import (
	"fmt"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/cuda"
)

// libName is the variant's CUDA library: lib/libmerrill.so.
const libName = "merrill"

// mgABIVersion is MG_ABI_VERSION of merrill.h.
const mgABIVersion = 2

// mgParams mirrors struct mg_params (all int64: no padding).
type mgParams struct {
	NParts, N, Gather, Overlap, Peer, Expand, VisitedCheck, VectorReset, HugeLists int64
}

var _ [72 - unsafe.Sizeof(mgParams{})]struct{} // 9 int64 fields
var _ [unsafe.Sizeof(mgParams{}) - 72]struct{}

type errBuf = *byte

// mgFuncs are the functions of merrill.h.
type mgFuncs struct {
	create         func(p *mgParams, devices *int32, lo, nnz *int64, out *uintptr, e errBuf, n int32) int32
	load           func(h uintptr, part int32, rowptr *int64, col, deg *uint32, e errBuf, n int32) int32
	reset          func(h uintptr, root int64, e errBuf, n int32) int32
	level          func(h uintptr, order *int32, qlen, nextQLen, nextEdges *int64, times *float64, e errBuf, n int32) int32
	parents        func(h uintptr, dst *int64, e errBuf, n int32) int32
	floor          func(h uintptr, reps int32, seconds *float64, e errBuf, n int32) int32
	gatherSelftest func(device int32, n int64, e errBuf, k int32) int32
	destroy        func(h uintptr)
}

var mgBindings = cuda.Bindings[mgFuncs]{
	Name: libName,
	ABI:  cuda.ABI{Symbol: "mg_abi_version", Version: mgABIVersion},
	Syms: func(f *mgFuncs) []cuda.Sym {
		return []cuda.Sym{
			{Name: "mg_create", Fn: &f.create}, {Name: "mg_load", Fn: &f.load},
			{Name: "mg_reset", Fn: &f.reset}, {Name: "mg_level", Fn: &f.level},
			{Name: "mg_parents", Fn: &f.parents}, {Name: "mg_floor", Fn: &f.floor},
			{Name: "mg_gather_selftest", Fn: &f.gatherSelftest}, {Name: "mg_destroy", Fn: &f.destroy},
		}
	},
}

func loadLib() (*cuda.Library, *mgFuncs, error) { return mgBindings.Load() }

// DeviceCount returns the number of CUDA devices libmerrill.so sees.
func DeviceCount() (int, error) { return mgBindings.DeviceCount() }

// CopyBandwidth measures device memory bandwidth (bfsb_copy_bandwidth).
func CopyBandwidth(device int, bytes int64, reps int) (cuda.Bandwidth, error) {
	return mgBindings.CopyBandwidth(device, bytes, reps)
}

// GatherSelfTest runs mg_gather_selftest (bfsb_gather.cuh against a host
// count) on device with n rows.
func GatherSelfTest(device int, n int64) error {
	lib, fn, err := loadLib()
	if err != nil {
		return err
	}
	return lib.Call("mg_gather_selftest", func(e *byte, k int32) int32 { return fn.gatherSelftest(int32(device), n, e, k) })
}

// CUDAEngine is the CUDA backend.
type CUDAEngine struct {
	lib     *cuda.Library
	fn      *mgFuncs
	h       uintptr
	np      int
	devices []int32
	descs   []string // distinct devices, "cuda:N name"
	order   []int32
	qlen    []int64
	// Shared is true when partitions share a device (fewer devices than
	// partitions): peer copies are then device-to-device copies.
	Shared bool
}

// NewCUDAEngine uploads pt to the devices. Where release is set, the
// partition's host CSRs are dropped once uploaded (Deg is kept).
func NewCUDAEngine(pt *Partition, opt Options, release bool) (*CUDAEngine, error) {
	lib, fn, err := loadLib()
	if err != nil {
		return nil, err
	}
	ndev, err := lib.DeviceCount()
	if err != nil {
		return nil, err
	}
	if ndev < 1 {
		return nil, fmt.Errorf("cuda: no CUDA device")
	}
	e := &CUDAEngine{lib: lib, fn: fn, np: pt.P, Shared: pt.P > ndev}
	need := map[int]int64{}
	for i := range pt.Parts {
		d := i % ndev
		e.devices = append(e.devices, int32(d))
		need[d] += DeviceBytes(pt, i, opt)
	}
	seen := map[int]bool{}
	for _, d := range e.devices {
		if seen[int(d)] {
			continue
		}
		seen[int(d)] = true
		dev, err := lib.Device(int(d))
		if err != nil {
			return nil, err
		}
		if err := dev.Need(need[int(d)], fmt.Sprintf("merrill partitions on device %d", d)); err != nil {
			return nil, err
		}
		e.descs = append(e.descs, fmt.Sprintf("cuda:%d %s", dev.Ordinal, dev.Name))
	}
	p := mgParams{NParts: int64(pt.P), N: pt.N, Overlap: b64(opt.Overlap), VisitedCheck: b64(opt.VisitedCheck)}
	if opt.Gather == GatherThread {
		p.Gather = 1
	}
	if opt.Peer == PeerAccess {
		p.Peer = 1
	}
	if opt.Expand == ExpandContract {
		p.Expand = 1
	}
	if opt.VectorReset == ResetUpdate {
		p.VectorReset = 1
	}
	if opt.HugeLists == HugeGrid {
		p.HugeLists = 1
	}
	nnz := make([]int64, pt.P)
	for i := range pt.Parts {
		nnz[i] = pt.Parts[i].NNZ()
	}
	if err := e.call("mg_create", func(b *byte, n int32) int32 {
		return fn.create(&p, &e.devices[0], &pt.Lo[0], &nnz[0], &e.h, b, n)
	}); err != nil {
		return nil, err
	}
	for i := range pt.Parts {
		part := &pt.Parts[i]
		col := part.Col
		if len(col) == 0 {
			col = []uint32{0}
		}
		deg := pt.Deg[part.Lo:part.Hi]
		if len(deg) == 0 {
			deg = []uint32{0}
		}
		if err := e.call("mg_load", func(b *byte, n int32) int32 {
			return fn.load(e.h, int32(i), &part.RowPtr[0], &col[0], &deg[0], b, n)
		}); err != nil {
			e.Close()
			return nil, err
		}
		if release {
			part.RowPtr, part.Col = nil, nil
		}
	}
	e.order = make([]int32, pt.P*pt.P)
	e.qlen = make([]int64, pt.P)
	return e, nil
}

// DeviceBytes is the device memory partition i needs (merrill.cu's
// allocations).
func DeviceBytes(pt *Partition, i int, opt Options) int64 {
	part := &pt.Parts[i]
	nl := part.Hi - part.Lo
	b := 8*(pt.N+1) + 4*part.NNZ() + nl*(4+8+1+2*4) + 1<<20
	if opt.Expand == ExpandContract {
		b += 8 * part.NNZ()
	} else {
		b += nl * (4 + 4 + 1) // Vector, pos, scan scratch
	}
	if pt.P > 1 && opt.Peer == PeerCopy {
		maxloc := int64(0)
		for k := range pt.Parts {
			maxloc = max(maxloc, pt.Parts[k].Hi-pt.Parts[k].Lo)
		}
		b += 2 * 4 * maxloc
	}
	return b
}

func b64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (e *CUDAEngine) call(name string, f func(b *byte, n int32) int32) error {
	return e.lib.Call(name, f)
}

// Devices returns the distinct devices used, as "cuda:N name".
func (e *CUDAEngine) Devices() []string { return e.descs }

// DeviceOf returns partition i's device ordinal.
func (e *CUDAEngine) DeviceOf(i int) int { return int(e.devices[i]) }

// Reset implements Engine (mg_reset).
func (e *CUDAEngine) Reset(root int64) error {
	return e.call("mg_reset", func(b *byte, n int32) int32 { return e.fn.reset(e.h, root, b, n) })
}

// Level implements Engine (mg_level): one level on every partition.
func (e *CUDAEngine) Level(order [][]int, qlen []int64) (LevelResult, error) {
	for i, o := range order {
		for k, j := range o {
			e.order[i*e.np+k] = int32(j)
		}
	}
	copy(e.qlen, qlen)
	lr := LevelResult{NextQLen: make([]int64, e.np), NextEdges: make([]int64, e.np), Times: make([][nTimes]float64, e.np)}
	err := e.call("mg_level", func(b *byte, n int32) int32 {
		return e.fn.level(e.h, &e.order[0], &e.qlen[0], &lr.NextQLen[0], &lr.NextEdges[0], &lr.Times[0][0], b, n)
	})
	return lr, err
}

// Parents implements Engine (mg_parents): the Label transfer.
func (e *CUDAEngine) Parents(dst []int64) error {
	return e.call("mg_parents", func(b *byte, n int32) int32 { return e.fn.parents(e.h, &dst[0], b, n) })
}

// Floor times the measured floor (mg_floor: FloorKernel on partition 0).
func (e *CUDAEngine) Floor(reps int) (float64, error) {
	var s float64
	err := e.call("mg_floor", func(b *byte, n int32) int32 { return e.fn.floor(e.h, int32(reps), &s, b, n) })
	return s, err
}

// Close implements Engine (mg_destroy).
func (e *CUDAEngine) Close() error {
	if e.h != 0 {
		e.fn.destroy(e.h)
		e.h = 0
	}
	return nil
}
