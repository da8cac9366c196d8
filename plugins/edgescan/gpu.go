package main

// gpu.go: the CUDA backend of edgescan. The kernels are in cuda/edgescan.cu
// (the article's edge-scan kernel and ours); this file loads
// lib/libedgescan.so through harness/cuda, checks the device memory need
// before allocating, uploads the edge arrays prepared by prepare.go (the
// same code the CPU backend uses) and turns each search's per-iteration
// CUDA-event times into results.LevelPhase entries.
//
// The copies the article's summary table times beside its kernels ("array
// copy time": the arrays to the GPU before the search, the result back
// after it) are recorded outside the timed search: the upload of the edge
// arrays in construction, by the host's clock around edgescan_upload
// (synchronous copies, the device synchronised before it returns), as the
// case info upload_s and upload_bytes; the parents' copy back after each
// search by the SDK's clock around Parents (the widening kernel, the
// synchronous device-to-host copy of parents_copy_bytes), as the search's
// transfer_time_s.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"time"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// esOptions mirrors struct edgescan_options of cuda/edgescan.h.
type esOptions struct {
	Device         int32
	RestrictLoads  int32
	Packed16       int32
	EdgesPerThread int32
	Threads        int32
	SourceLoads    int32 // esSource*
	WriteCheck     int32
	TileBits       int32
	TileThreads    int32
	DenseMin       int32
	DenseGrowing   int32
}

var _ [44 - unsafe.Sizeof(esOptions{})]struct{} // 11 int32 fields, as edgescan.h
var _ [unsafe.Sizeof(esOptions{}) - 44]struct{}

// device is the CUDA device edgescan runs on: the first (one GPU, as the
// article's; CUDA_VISIBLE_DEVICES picks another).
const device = 0

// esABIVersion is EDGESCAN_ABI_VERSION of cuda/edgescan.h; the values of
// source_loads follow it.
const (
	esABIVersion  = 5
	esSourceEager = 0
	esSourceLazy  = 1
	esSourceSum   = 2
)

// esChunk mirrors struct edgescan_chunk: edges [Begin, End) of tile (Si, Ei).
type esChunk struct {
	Begin, End int64
	Si, Ei     uint32
}

// tileChunks cuts every non-empty tile of a into chunks of at most max
// entries (a multiple of 4), one dense-kernel block each, largest first:
// the GPU starts blocks roughly in index order, so the short chunks fill
// the last wave instead of one long chunk finishing alone.
func tileChunks(a *edgeArrays, max int64) []esChunk {
	var out []esChunk
	for t := range int64(len(a.TileOff) - 1) {
		si, ei := uint32(t/a.Ranges), uint32(t%a.Ranges)
		for lo := a.TileOff[t]; lo < a.TileOff[t+1]; lo += max {
			out = append(out, esChunk{Begin: lo, End: min(lo+max, a.TileOff[t+1]), Si: si, Ei: ei})
		}
	}
	slices.SortStableFunc(out, func(x, y esChunk) int { return cmp.Compare(y.End-y.Begin, x.End-x.Begin) })
	return out
}

// denseMin is the smallest frontier (vertices) that runs the dense kernel:
// frac of nv, rounded up, capped to int32; but 0 (every iteration) when the
// uint8 levels take more than half of the device's L2 of l2 bytes, for
// then the scan kernel's random level loads, competing with the edge
// stream for the L2, miss often enough that it is slower than the dense
// kernel even with a small frontier.
func denseMin(frac float64, nv, l2 int64) int32 {
	if l2 > 0 && 2*nv > l2 {
		return 0
	}
	f := math.Ceil(frac * float64(nv))
	if f > math.MaxInt32 {
		return math.MaxInt32
	}
	return int32(f)
}

// esCountSlots is kCountSlots of cuda/edgescan.cu: the claim counters
// beside the "modified" flag.
const esCountSlots = 32

// esMaxIters is EDGESCAN_MAX_ITERS, the length of the iteration-time array.
const esMaxIters = 255

// esFuncs are libedgescan.so's edgescan_* functions.
type esFuncs struct {
	create  func(opt *esOptions, nv, m int64, out *uintptr, err *byte, errlen int32) int32
	upload  func(h uintptr, src, dst unsafe.Pointer, err *byte, errlen int32) int32
	tiles   func(h uintptr, chunks unsafe.Pointer, n int64, err *byte, errlen int32) int32
	bfs     func(h uintptr, root int64, iterMs *float32, dense *int32, iters *int32, totalMs *float32, err *byte, errlen int32) int32
	parents func(h uintptr, dst unsafe.Pointer, err *byte, errlen int32) int32
	levels  func(h uintptr, dst unsafe.Pointer, err *byte, errlen int32) int32
	destroy func(h uintptr)
}

// esLib loads and binds libedgescan.so once per process.
var esLib = cuda.Bindings[esFuncs]{
	Name: "edgescan",
	ABI:  cuda.ABI{Symbol: "edgescan_abi_version", Version: esABIVersion},
	Syms: func(f *esFuncs) []cuda.Sym {
		return []cuda.Sym{
			{Name: "edgescan_create", Fn: &f.create},
			{Name: "edgescan_upload", Fn: &f.upload},
			{Name: "edgescan_upload_tiles", Fn: &f.tiles},
			{Name: "edgescan_bfs", Fn: &f.bfs},
			{Name: "edgescan_parents", Fn: &f.parents},
			{Name: "edgescan_levels", Fn: &f.levels},
			{Name: "edgescan_destroy", Fn: &f.destroy},
		}
	},
}

// gpuVariant is the CUDA backend.
type gpuVariant struct {
	opt    options
	lib    *cuda.Library
	fn     *esFuncs
	dev    cuda.Device
	h      uintptr // edgescan handle, 0 before Construct
	nv     int64
	need   int64       // device bytes allocated
	arr    *edgeArrays // sizes only: Src, Dst and Packed are released after the upload
	bound  boundBytes
	chunks int64 // dense-kernel blocks (tile chunks), 0 without tiles
	last   int64 // root of the last search, -1 before any
	// upload is the edge arrays' copy to the device in Construct: its
	// host-clock time and bytes.
	uploadS     float64
	uploadBytes int64
}

// newGPU loads the library and finds the device; without either it fails
// with a message naming the library, the device and what was found.
func newGPU(o options) (*gpuVariant, error) {
	lib, fn, err := esLib.Load()
	if err != nil {
		return nil, fmt.Errorf("CUDA backend unavailable: %w", err)
	}
	dev, err := lib.Device(device)
	if err != nil {
		return nil, fmt.Errorf("CUDA backend unavailable: %w", err)
	}
	return &gpuVariant{opt: o, lib: lib, fn: fn, dev: dev, last: -1}, nil
}

// deviceBytes is what edgescan_create and edgescan_upload_tiles allocate
// (cuda/edgescan.cu): the edge arrays padded to a multiple of 4 edges,
// uint8 levels, int32 parents, int64 parents for the copy-out, three
// frontier summaries (a bit per 64 vertices), the flag and two sets of claim
// counters, and with tiles the 2-bit vertex states and the chunk table;
// plus 64 MiB of slack for allocation granularity.
func deviceBytes(a *edgeArrays, nchunks int64) int64 {
	mPad := (a.M + 3) / 4 * 4
	edgeWords := 2 * mPad
	if a.Packed != nil {
		edgeWords = mPad
	}
	nv := a.NV
	sumWords := (nv + summaryGroup*32 - 1) / (summaryGroup * 32)
	tiles := int64(0)
	if a.TileBits > 0 {
		tiles = a.Ranges<<a.TileBits/4 + nchunks*int64(unsafe.Sizeof(esChunk{}))
	}
	return 4*edgeWords + nv + 4*nv + 8*nv + 3*4*sumWords + 4*(1+2*esCountSlots) + tiles + 64<<20
}

// Construct implements sdk.Variant.
func (v *gpuVariant) Construct(w *sdk.Workload) error {
	if w.EdgeOffset != 0 || int64(len(w.Edges)) != w.NEdges {
		return errors.New("edgescan needs the whole edge list (one rank)")
	}
	if w.NVertices >= 1<<31 {
		return fmt.Errorf("%d vertices: the CUDA backend stores parents as int32 (below 2^31 vertices)", w.NVertices)
	}
	arr, err := prepare(w.Edges, w.NVertices, v.opt.prep())
	if err != nil {
		return err
	}
	packed := arr.Packed != nil
	var chunks []esChunk
	if arr.TileBits > 0 {
		chunks = tileChunks(arr, v.opt.TileChunk)
	}
	v.need = deviceBytes(arr, int64(len(chunks)))
	dev, err := v.lib.Device(device) // free memory now, not at New
	if err != nil {
		return err
	}
	v.dev = dev
	if err := dev.Need(v.need, fmt.Sprintf("edgescan graph (%d vertices, %d edges)", arr.NV, arr.M)); err != nil {
		return err
	}
	opt := esOptions{
		Device:         device,
		RestrictLoads:  b2i(v.opt.Restrict),
		Packed16:       b2i(packed),
		EdgesPerThread: int32(v.opt.EdgesPerThread),
		Threads:        int32(v.opt.Threads),
		SourceLoads:    esSourceEager,
		WriteCheck:     b2i(v.opt.WriteCheck),
		TileBits:       int32(arr.TileBits),
		TileThreads:    tileThreads,
		DenseMin:       denseMin(v.opt.DenseFrontier, arr.NV, v.dev.L2Bytes),
		DenseGrowing:   b2i(v.opt.DenseGrowing),
	}
	switch v.opt.SourceLoads {
	case sourceLazy:
		opt.SourceLoads = esSourceLazy
	case sourceSummary:
		opt.SourceLoads = esSourceSum
	}
	var h uintptr
	if err := v.lib.Call("edgescan_create", func(e *byte, el int32) int32 {
		return v.fn.create(&opt, arr.NV, arr.M, &h, e, el)
	}); err != nil {
		return err
	}
	v.h, v.nv = h, arr.NV
	src, dst := cuda.Ptr(arr.Src), cuda.Ptr(arr.Dst)
	if packed {
		src, dst = cuda.Ptr(arr.Packed), nil
	}
	t0 := time.Now()
	err = v.lib.Call("edgescan_upload", func(e *byte, el int32) int32 { return v.fn.upload(h, src, dst, e, el) })
	v.uploadS, v.uploadBytes = time.Since(t0).Seconds(), arr.EdgeBytes()
	runtime.KeepAlive(arr)
	if err != nil {
		return err
	}
	if arr.TileBits > 0 {
		cp := unsafe.Pointer(unsafe.SliceData(chunks))
		err = v.lib.Call("edgescan_upload_tiles", func(e *byte, el int32) int32 { return v.fn.tiles(h, cp, int64(len(chunks)), e, el) })
		runtime.KeepAlive(chunks)
		if err != nil {
			return err
		}
	}
	v.chunks = int64(len(chunks))
	v.bound = boundFor(arr)
	arr.Src, arr.Dst, arr.Packed = nil, nil, nil // the device holds them now
	v.arr = arr
	return nil
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// BFS implements sdk.Variant. TimeS is the CUDA-event time of the whole
// search (initialization, every iteration and the host's flag reads
// between them); each iteration's kernel time is a "scan" phase.
func (v *gpuVariant) BFS(root int64) (sdk.Search, error) {
	if v.h == 0 {
		return sdk.Search{}, errors.New("BFS before Construct")
	}
	var iterMs [esMaxIters]float32
	var dense [esMaxIters]int32
	var iters int32
	var totalMs float32
	if err := v.lib.Call("edgescan_bfs", func(e *byte, el int32) int32 {
		return v.fn.bfs(v.h, root, &iterMs[0], &dense[0], &iters, &totalMs, e, el)
	}); err != nil {
		return sdk.Search{}, err
	}
	phases := make([]results.LevelPhase, iters)
	for i := range phases {
		kernel := "scan"
		if dense[i] != 0 {
			kernel = "dense" // the tiled kernel, with its state build
		}
		phases[i] = results.LevelPhase{
			Level: i,
			Times: map[string]float64{kernel: float64(iterMs[i]) / 1e3},
			Bytes: phaseBytes(v.arr),
		}
	}
	v.last = root
	return sdk.Search{TimeS: float64(totalMs) / 1e3, Levels: int(iters), Phases: phases,
		BoundBytes: int64(iters)*v.bound.PerIteration + v.bound.Fixed}, nil
}

// Parents implements sdk.Variant.
func (v *gpuVariant) Parents(dst []int64) error {
	if v.last < 0 {
		return errors.New("Parents before any BFS")
	}
	if int64(len(dst)) != v.nv {
		return fmt.Errorf("parents: destination has %d entries, want %d", len(dst), v.nv)
	}
	p := cuda.Ptr(dst)
	err := v.lib.Call("edgescan_parents", func(e *byte, el int32) int32 { return v.fn.parents(v.h, p, e, el) })
	runtime.KeepAlive(dst)
	return err
}

// Levels returns the last search's levels (255 for unreached), for tests.
func (v *gpuVariant) Levels() ([]uint8, error) {
	out := make([]uint8, v.nv)
	p := cuda.Ptr(out)
	err := v.lib.Call("edgescan_levels", func(e *byte, el int32) int32 { return v.fn.levels(v.h, p, e, el) })
	return out, err
}

// Devices implements sdk.Devicer.
func (v *gpuVariant) Devices() []string {
	return []string{fmt.Sprintf("cuda:%d %s", v.dev.Ordinal, v.dev.Name)}
}

// CaseInfo implements sdk.Informer: the byte count of the bandwidth bound
// (see boundBytes), the device, and the edge arrays' upload (upload_s,
// upload_bytes) and the size of the parents' copy back.
func (v *gpuVariant) CaseInfo() map[string]any {
	if v.arr == nil {
		return nil
	}
	m := v.bound.info(v.arr, v.opt)
	m["device"] = v.dev.Name
	m["device_sms"] = v.dev.SMs
	m["device_l2_bytes"] = v.dev.L2Bytes
	m["device_memory_bytes"] = v.dev.TotalBytes
	m["device_bytes_allocated"] = v.need
	m["dense_chunks"] = v.chunks
	m["upload_s"] = v.uploadS
	m["upload_bytes"] = v.uploadBytes
	m["parents_copy_bytes"] = 8 * v.nv
	m["dense_min_frontier"] = denseMin(v.opt.DenseFrontier, v.nv, v.dev.L2Bytes)
	m["cuda_driver_version"] = v.dev.DriverVersion
	m["cuda_runtime_version"] = v.dev.RuntimeVersion
	m["library"] = filepath.Base(v.lib.Path) // the name only: results carry no machine paths
	if bw, err := v.lib.CopyBandwidth(v.dev.Ordinal, 1<<30, 10); err == nil {
		m[sdk.InfoCopyBandwidthGBs] = bw.CopyGBs
	} else {
		m["device_copy_error"] = err.Error()
	}
	return m
}

// Close implements sdk.Variant.
func (v *gpuVariant) Close() error {
	if v.h != 0 {
		v.fn.destroy(v.h)
		v.h = 0
	}
	return nil
}
