package dobfs

// cuda_engine.go is the CUDA backend: the engine of engine.go over one GPU,
// calling the kernels of ../cuda/diropt.cu through libdiropt.so (C ABI in
// ../cuda/diropt.h, loaded at run time by harness/cuda). The search data
// never leaves the device. A 1×1 grid, and a 2D grid whose exchanges run
// between device buffers (device_exchange.go), run the device loop
// (device_loop.go: dob_loop_*); a 2D grid whose exchanges are staged
// through pinned host buffers (dob_host_alloc) runs rank.go's host loop,
// one dob_explore call and one readback of the counts a level.

import (
	"errors"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
)

// libName is the variant's CUDA library: lib/libdiropt.so.
const libName = "diropt"

// dobABIVersion is DOB_ABI_VERSION of diropt.h.
const dobABIVersion = 50

// dobParams mirrors struct dob_params (all int64: no padding).
type dobParams struct {
	Device, LocalRows, LocalCols, TDNNZ, BUNNZ int64
	Shared, Single, OwnLen, ThreadsPerBlock    int64
	TDBig, BUSerial                            int64
	GridR, GridC, GridJ, Block, DeviceExchange int64
	BUFirst, BUBatch, BUSkip, TDLane, TDBatch  int64
	BUCompact, Leaves, PDL, Gated, L2Window    int64
	BUDeg, Split, SplitHelp, BUQueue           int64
	BUDegPacked, DevClock, PredLines, TDEager  int64
	LoopGraph                                  int64
}

var _ [280 - unsafe.Sizeof(dobParams{})]struct{} // 35 int64 fields
var _ [unsafe.Sizeof(dobParams{}) - 272]struct{}

// dobDevBufs mirrors struct dob_dev_bufs.
type dobDevBufs struct {
	OutQueue, RowGather, Own, Gather, PredSend, PredRecv uint64
	OwnWords                                             int64
	Counts                                               uint64
}

var _ [64 - unsafe.Sizeof(dobDevBufs{})]struct{}
var _ [unsafe.Sizeof(dobDevBufs{}) - 64]struct{}

// dobLoopParams mirrors struct dob_loop_params.
type dobLoopParams struct {
	Alpha, Beta             float64
	Mode, N, Dir, MF, Edges int64
	SplitFrom, SplitTo      float64
}

var _ [72 - unsafe.Sizeof(dobLoopParams{})]struct{}
var _ [unsafe.Sizeof(dobLoopParams{}) - 72]struct{}

// dobLevelRec mirrors struct dob_level_rec.
type dobLevelRec struct {
	Dir, NF, MF, Edges                   int64
	ExploreMs, RowMs, ColumnMs, SwitchMs float64
	GapMs                                float64
}

var _ [72 - unsafe.Sizeof(dobLevelRec{})]struct{}
var _ [unsafe.Sizeof(dobLevelRec{}) - 72]struct{}

// sharedMode is dob_params.shared for b: 1 where the CSC is the CSR, 2
// where only their offsets are one array (OffsetsShared: one slice, so
// that the device keeps one copy), else 0.
func sharedMode(b *Block) int64 {
	switch {
	case b.Shared:
		return 1
	case b.OffsetsShared():
		return 2
	}
	return 0
}

// dobLoopSlots is the most levels between two dob_loop_sync calls.
const dobLoopSlots = 32

type errBuf = *byte

// dobFuncs are the functions of diropt.h, bound by dobBindings.
type dobFuncs struct {
	deviceBytes  func(p *dobParams, bytes *int64, e errBuf, n int32) int32
	create       func(p *dobParams, tdOff, tdAdj, buOff, buAdj, isolated, leaves *uint32, out *uintptr, e errBuf, n int32) int32
	reset        func(h uintptr, row, col, own, global int64, e errBuf, n int32) int32
	explore      func(h uintptr, bottomUp int32, counts *int64, e errBuf, n int32) int32
	finish       func(h uintptr, seconds, endSeconds *float64, e errBuf, n int32) int32
	stageOut     func(h uintptr, dst *uint32, e errBuf, n int32) int32
	merge        func(h uintptr, prefix, uni *uint32, mf *int64, e errBuf, n int32) int32
	loadIn       func(h uintptr, src *uint32, e errBuf, n int32) int32
	assigned     func(h uintptr, all int32, bitmap, pred *uint32, e errBuf, n int32) int32
	writeParents func(h uintptr, pairs *int64, npairs int64, e errBuf, n int32) int32
	parents      func(h uintptr, root int64, dst *int64, e errBuf, n int32) int32
	floor        func(h uintptr, reps int32, seconds *float64, sink *uint64, e errBuf, n int32) int32
	l2Aside      func(h uintptr, on int32, e errBuf, n int32) int32
	l2Window     func(h uintptr, bytes *int64, e errBuf, n int32) int32
	hostAlloc    func(h uintptr, bytes int64, ptr *unsafe.Pointer, e errBuf, n int32) int32
	stream       func(h uintptr, s *uint64, e errBuf, n int32) int32
	devBuffers   func(h uintptr, b *dobDevBufs, e errBuf, n int32) int32
	devUnion     func(h uintptr, e errBuf, n int32) int32
	devLoadIn    func(h uintptr, e errBuf, n int32) int32
	devPackPred  func(h uintptr, all int32, e errBuf, n int32) int32
	devWritePred func(h uintptr, end int32, e errBuf, n int32) int32
	loopBegin    func(h uintptr, p *dobLoopParams, e errBuf, n int32) int32
	loopStart    func(h uintptr, e errBuf, n int32) int32
	loopExplore  func(h uintptr, e errBuf, n int32) int32
	loopMerge    func(h uintptr, assigned int32, e errBuf, n int32) int32
	loopCounts   func(h uintptr, e errBuf, n int32) int32
	loopDecide   func(h uintptr, e errBuf, n int32) int32
	loopSync     func(h uintptr, recs *dobLevelRec, cap int64, nrec *int64, done *int32, leaves *int64, e errBuf, n int32) int32
	loopArm      func(h uintptr, p *dobLoopParams, levels int32, e errBuf, n int32) int32
	destroy      func(h uintptr)
}

// dobBindings loads libdiropt.so once per process (every rank of an
// in-process run shares it), binds diropt.h and checks its ABI version.
var dobBindings = cuda.Bindings[dobFuncs]{
	Name: libName,
	ABI:  cuda.ABI{Symbol: "dob_abi_version", Version: dobABIVersion},
	Syms: func(f *dobFuncs) []cuda.Sym {
		return []cuda.Sym{
			{Name: "dob_device_bytes", Fn: &f.deviceBytes}, {Name: "dob_create", Fn: &f.create},
			{Name: "dob_reset", Fn: &f.reset},
			{Name: "dob_explore", Fn: &f.explore},
			{Name: "dob_finish", Fn: &f.finish}, {Name: "dob_stage_out", Fn: &f.stageOut},
			{Name: "dob_merge", Fn: &f.merge}, {Name: "dob_load_in", Fn: &f.loadIn},
			{Name: "dob_assigned", Fn: &f.assigned}, {Name: "dob_write_parents", Fn: &f.writeParents},
			{Name: "dob_parents", Fn: &f.parents}, {Name: "dob_floor", Fn: &f.floor},
			{Name: "dob_l2_aside", Fn: &f.l2Aside}, {Name: "dob_l2_window", Fn: &f.l2Window},
			{Name: "dob_host_alloc", Fn: &f.hostAlloc}, {Name: "dob_destroy", Fn: &f.destroy},
			{Name: "dob_stream", Fn: &f.stream}, {Name: "dob_dev_buffers", Fn: &f.devBuffers},
			{Name: "dob_dev_union", Fn: &f.devUnion},
			{Name: "dob_dev_load_in", Fn: &f.devLoadIn}, {Name: "dob_dev_pack_pred", Fn: &f.devPackPred},
			{Name: "dob_dev_write_pred", Fn: &f.devWritePred},
			{Name: "dob_loop_begin", Fn: &f.loopBegin}, {Name: "dob_loop_start", Fn: &f.loopStart},
			{Name: "dob_loop_explore", Fn: &f.loopExplore},
			{Name: "dob_loop_merge", Fn: &f.loopMerge}, {Name: "dob_loop_counts", Fn: &f.loopCounts},
			{Name: "dob_loop_decide", Fn: &f.loopDecide}, {Name: "dob_loop_sync", Fn: &f.loopSync},
			{Name: "dob_loop_arm", Fn: &f.loopArm},
		}
	},
}

// dobLib is the loaded library and its bound functions.
type dobLib struct {
	lib *cuda.Library
	*dobFuncs
}

func loadLib() (*dobLib, error) {
	l, f, err := dobBindings.Load()
	if err != nil {
		return nil, err
	}
	return &dobLib{lib: l, dobFuncs: f}, nil
}

// DeviceCount returns the number of CUDA devices libdiropt.so sees.
func DeviceCount() (int, error) { return dobBindings.DeviceCount() }

// CopyBandwidth measures device memory bandwidth (bfsb_copy_bandwidth).
func CopyBandwidth(device int, bytes int64, reps int) (cuda.Bandwidth, error) {
	return dobBindings.CopyBandwidth(device, bytes, reps)
}

// CUDAOptions are the CUDA backend's settings.
type CUDAOptions struct {
	Device          int   // CUDA device ordinal
	ThreadsPerBlock int   // multiple of 32 in [64, 1024]
	TDBig           int64 // top-down lists of at least this many entries use the whole grid (0: never)
	BUSerial        int64 // bottom-up entries a lane scans alone before its warp helps (0: all)
	BUFirst         bool  // bottom-up: each row's first CSC entry in a dense array, for the first check
	BUBatch         int64 // bottom-up: entries a lane loads at once in its own scan (1 or 2)
	BUSkip          bool  // bottom-up: a warp takes 32 words of visited at once and skips the full ones
	BUDeg           int64 // bottom-up with BUFirst and BUSkip: the level (its index) whose first check reads a degree byte a row instead of the offsets (0: none)
	TDLane          int64 // top-down: a lane per in_queue word, expanding its lists shorter than this alone (0: a warp per word)
	TDBatch         int64 // top-down with TDLane: list entries a lane reads at once (1 or 4)
	BUCompact       int64 // bottom-up with BUSkip: a chunk of 32 words of visited with at most this many unvisited rows is explored a lane a row (0: never)
	PDL             bool  // 1×1 device loop: exploration kernels as programmatic dependent launches
	Gated           bool  // 1×1 device loop: the next search's start queued behind a gate after Parents (LoopArm)
	GateClock       bool  // with Gated: the search's start event queued behind the gate too (the clock starts once the GPU has the root)
	DevEnd          bool  // with GateClock and ResetStamp: no events, the search timed by the device's clock from the gate's reading of the root to the decision that ends it (gated 3)
	DevClock        bool  // 1×1 device loop: levels after level 0 timed by the device's clock at their decisions, no CUDA event between launches
	ResetStamp      bool  // with DevClock: level 0 too, from the reset's first instruction, no event after it (dev_clock 2)
	PredLines       bool  // 1×1 with BUQueue: level BUQueue writes whole sectors of pred, and level BUQueue+1 (BUDeg's packed level) skips the writes that makes redundant
	L2Window        bool  // 1×1: the bitmaps an L2 access-policy window of persisting lines
	SplitHelp       int64 // the split level's warp help: 0 (32·BUBatch entries a step, as other levels) or 32
	BUQueue         int64 // bottom-up with BUFirst, BUSkip, BUBatch 2 and BUSerial > 0: the level (its index, not BUDeg's) whose rows that miss their first check are queued a warp and scanned 128 at a time (0: none)
	BUDegPacked     bool  // with BUDeg, BUBatch 2 and BUSerial > 0: level BUDeg reads each row's first entry and degree from one word (a block of at most 2^26 columns, else the degree byte)
	TDEager         int64 // device loop: the first levels (their count) whose top-down visits claim each entry at once, its degree loaded beside it, with no visited test first (0: none)
	LoopGraph       bool  // with DevEnd (gated 3): a gated start's launches captured and launched as one CUDA graph
	// Exchange is comm.ExchangeDevice (2D exchanges between device
	// buffers over NCCL, and the device loop) or comm.ExchangeHost (staged
	// through pinned host buffers, and the host loop), as the plugin
	// resolved it.
	Exchange string
}

// cudaEngine is one rank's CUDA backend.
type cudaEngine struct {
	lib    *dobLib
	h      uintptr
	dev    cuda.Device
	single bool
	gated  bool     // 1×1: LoopArm queues the next search's start
	devX   bool     // 2D exchanges between device buffers (device_exchange.go)
	buOff  []uint32 // the CSC offsets, kept on the host for the root's degree
	root   int64
	st     *Staging
	// 2D: pinned buffers for dob_assigned.
	assignedBits, pred []uint32
	counts             [3]int64
	recs               [dobLoopSlots]dobLevelRec // dob_loop_sync's records
	endS               float64                   // the last Finish's time after the last level (EndS)
	leaves             [2]int64                  // the last search's leaves reached, and deep (dob_loop_sync)
}

// DegreeLevel is the level whose bottom-up first check reads the degree
// bytes (bu_deg) with these settings: buDeg where bu_first and bu_skip are
// on (the bytes' kernels are theirs), else 0 (none). The engine passes it
// to the library, and the plugin's floor formula says what it reads by it.
func DegreeLevel(buDeg int64, buFirst, buSkip bool) int64 {
	if !buFirst || !buSkip {
		return 0
	}
	return buDeg
}

func ptr32(s []uint32) *uint32 {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

func (e *cudaEngine) call(fn string, f func(eb *byte, n int32) int32) error {
	return e.lib.lib.Call(fn, f)
}

func newCUDAEngine(b *Block, co CUDAOptions, split int64) (*cudaEngine, error) {
	lib, err := loadLib()
	if err != nil {
		return nil, err
	}
	dev, err := lib.lib.Device(co.Device)
	if err != nil {
		return nil, err
	}
	l := b.L
	single := l.R*l.C == 1
	devX := !single && co.Exchange == comm.ExchangeDevice
	p := dobParams{Device: int64(co.Device), LocalRows: l.LocalRows(), LocalCols: l.LocalCols(),
		TDNNZ: int64(len(b.TD.Adj)), BUNNZ: int64(len(b.BU.Adj)), Shared: sharedMode(b), Single: b64(single),
		OwnLen: b.OwnLen(), ThreadsPerBlock: int64(co.ThreadsPerBlock), TDBig: co.TDBig, BUSerial: co.BUSerial,
		GridR: int64(l.R), GridC: int64(l.C), GridJ: int64(b.J), Block: l.B, DeviceExchange: b64(devX),
		BUFirst: b64(co.BUFirst), BUBatch: max(co.BUBatch, 1), BUSkip: b64(co.BUSkip), TDLane: co.TDLane, TDBatch: max(co.TDBatch, 1),
		BUCompact: co.BUCompact, Leaves: b.NumLeaves(), PDL: b64(co.PDL), Gated: stepMode(co.Gated && single, co.GateClock, co.DevEnd && co.DevClock && co.ResetStamp),
		L2Window: b64(co.L2Window && single), DevClock: stepMode(co.DevClock && single, co.ResetStamp), PredLines: b64(co.PredLines && single && co.BUQueue > 0), BUDeg: DegreeLevel(co.BUDeg, co.BUFirst, co.BUSkip), BUQueue: co.BUQueue}
	if co.BUDegPacked && p.BUDeg > 0 && p.BUBatch == 2 && p.BUSerial > 0 && p.LocalCols <= 1<<26 {
		p.BUDegPacked = 1
	}
	if single && split > 0 {
		p.Split, p.SplitHelp = split, co.SplitHelp
	}
	p.TDEager = co.TDEager
	p.LoopGraph = b64(co.LoopGraph && p.Gated == 3)
	var need int64
	if err := lib.lib.Call("dob_device_bytes", func(eb *byte, n int32) int32 { return lib.deviceBytes(&p, &need, eb, n) }); err != nil {
		return nil, err
	}
	if err := dev.Need(need, fmt.Sprintf("diropt rank P(%d,%d) (%d CSR + %d CSC entries)", b.I, b.J, len(b.TD.Adj), len(b.BU.Adj))); err != nil {
		return nil, err
	}
	e := &cudaEngine{lib: lib, dev: dev, single: single, gated: co.Gated && single, devX: devX, buOff: b.BU.Off}
	if err := e.call("dob_create", func(eb *byte, n int32) int32 {
		return lib.create(&p, ptr32(b.TD.Off), ptr32(b.TD.Adj), ptr32(b.BU.Off), ptr32(b.BU.Adj), ptr32(b.Isolated), ptr32(b.Leaves), &e.h, eb, n)
	}); err != nil {
		return nil, err
	}
	if devX {
		return e, nil // no host staging
	}
	if !single {
		alloc := func(n int64) ([]uint32, error) { return e.hostAlloc(n) }
		if e.st, err = newStaging(b, alloc); err != nil {
			e.Close()
			return nil, err
		}
		if e.assignedBits, err = alloc(words(l.LocalRows())); err == nil {
			e.pred, err = alloc(l.LocalRows())
		}
		if err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// stepMode is a dob_params field whose values are steps, each on top of
// the one before: 0 without the first (on), else 1 plus how many of more
// hold in turn. dev_clock: 1 the levels after level 0 by the device's
// clock, 2 level 0 too (ResetStamp). gated: 1 the start recorded by
// dob_reset, 2 the start event queued behind the gate (GateClock), 3 no
// events, the search by the device's clock (DevEnd, which needs dev_clock
// 2).
func stepMode(on bool, more ...bool) int64 {
	if !on {
		return 0
	}
	m := int64(1)
	for _, b := range more {
		if !b {
			break
		}
		m++
	}
	return m
}

func b64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// hostAlloc returns n words of pinned host memory, freed by Close.
func (e *cudaEngine) hostAlloc(n int64) ([]uint32, error) {
	var p unsafe.Pointer
	if err := e.call("dob_host_alloc", func(eb *byte, k int32) int32 { return e.lib.hostAlloc(e.h, 4*n, &p, eb, k) }); err != nil {
		return nil, err
	}
	return unsafe.Slice((*uint32)(p), max(n, 1))[:n], nil
}

func (e *cudaEngine) Reset(r RootPos) (int64, error) {
	e.root = r.Global
	var deg int64
	if r.Row >= 0 {
		deg = int64(e.buOff[r.Row+1] - e.buOff[r.Row])
	}
	return deg, e.call("dob_reset", func(eb *byte, n int32) int32 { return e.lib.reset(e.h, r.Row, r.Col, r.Own, r.Global, eb, n) })
}

func (e *cudaEngine) Explore(d Dir) (Explored, error) {
	if d == Split {
		return Explored{}, fmt.Errorf("dob: a split level runs in the 1×1 device loop only")
	}
	bu := int32(0)
	if d == BottomUp {
		bu = 1
	}
	err := e.call("dob_explore", func(eb *byte, n int32) int32 { return e.lib.explore(e.h, bu, &e.counts[0], eb, n) })
	return Explored{Found: e.counts[0], Degrees: e.counts[1], Edges: e.counts[2]}, err
}

// Swap is the host loop's 1×1 step, which the CUDA engine never takes: its
// 1×1 grid runs the device loop (device_loop.go).
func (e *cudaEngine) Swap() error {
	return fmt.Errorf("dob: a 1×1 grid runs the device loop, not the host loop's swap")
}

func (e *cudaEngine) Finish() (float64, error) {
	var s float64
	err := e.call("dob_finish", func(eb *byte, n int32) int32 { return e.lib.finish(e.h, &s, &e.endS, eb, n) })
	if !e.single {
		s = 0 // 2D searches are timed by the SDK on the host clock (timedBFS)
	}
	return s, err
}

// EndS is the part of the last Finish's time after the search's last
// level: on a 1×1 grid, the levels enqueued past the end, the loop
// state's readback and the host's wait until it recorded the end.
func (e *cudaEngine) EndS() float64 { return e.endS }

func (e *cudaEngine) Staging() *Staging { return e.st }

func (e *cudaEngine) StageOut() error {
	return e.call("dob_stage_out", func(eb *byte, n int32) int32 { return e.lib.stageOut(e.h, ptr32(e.st.Out), eb, n) })
}

func (e *cudaEngine) Merge() (int64, error) {
	var mf int64
	err := e.call("dob_merge", func(eb *byte, n int32) int32 {
		return e.lib.merge(e.h, ptr32(e.st.Prefix), ptr32(e.st.Union), &mf, eb, n)
	})
	return mf, err
}

func (e *cudaEngine) LoadIn() error {
	return e.call("dob_load_in", func(eb *byte, n int32) int32 { return e.lib.loadIn(e.h, ptr32(e.st.In), eb, n) })
}

func (e *cudaEngine) Assigned(all bool, f func(row, col uint32)) error {
	a := int32(0)
	if all {
		a = 1
	}
	if err := e.call("dob_assigned", func(eb *byte, n int32) int32 {
		return e.lib.assigned(e.h, a, ptr32(e.assignedBits), ptr32(e.pred), eb, n)
	}); err != nil {
		return err
	}
	for w, x := range e.assignedBits {
		for ; x != 0; x &= x - 1 {
			v := uint32(w)*32 + uint32(bits.TrailingZeros32(x))
			f(v, e.pred[v])
		}
	}
	return nil
}

func (e *cudaEngine) WriteParents(pairs []int64) error {
	var p *int64
	if len(pairs) > 0 {
		p = &pairs[0]
	}
	return e.call("dob_write_parents", func(eb *byte, n int32) int32 { return e.lib.writeParents(e.h, p, int64(len(pairs)/2), eb, n) })
}

func (e *cudaEngine) Parents(dst []int64) error {
	var p *int64
	if len(dst) > 0 {
		p = &dst[0]
	}
	return e.call("dob_parents", func(eb *byte, n int32) int32 { return e.lib.parents(e.h, e.root, p, eb, n) })
}

// Floor times the measured floor (dob_floor: FloorKernel in ../cuda/diropt.cu).
func (e *cudaEngine) Floor(reps int) (float64, error) {
	var s float64
	var sink uint64
	err := e.call("dob_floor", func(eb *byte, n int32) int32 { return e.lib.floor(e.h, int32(reps), &s, &sink, eb, n) })
	return s, err
}

// gpuMeter is an engine that measures its GPU's copy bandwidth and tells
// its L2 window (CUDA: cudaEngine).
type gpuMeter interface {
	CopyBandwidth(dev int, bytes int64, reps int) (cuda.Bandwidth, error)
	L2Window() (bytes int64, err error)
}

// L2Window is the bytes of the handle's L2 window of persisting lines
// (dob_l2_window; 0: none).
func (e *cudaEngine) L2Window() (int64, error) {
	var b int64
	err := e.call("dob_l2_window", func(eb *byte, n int32) int32 { return e.lib.l2Window(e.h, &b, eb, n) })
	return b, err
}

// CopyBandwidth measures the device's copy bandwidth (CopyBandwidth) with
// the handle's persisting L2 set-aside (l2_window) given back meanwhile:
// the GPU's bandwidth, not what the rest of L2 leaves it.
func (e *cudaEngine) CopyBandwidth(dev int, bytes int64, reps int) (cuda.Bandwidth, error) {
	aside := func(on int32) error {
		return e.call("dob_l2_aside", func(eb *byte, n int32) int32 { return e.lib.l2Aside(e.h, on, eb, n) })
	}
	if err := aside(0); err != nil {
		return cuda.Bandwidth{}, err
	}
	bw, err := CopyBandwidth(dev, bytes, reps)
	return bw, errors.Join(err, aside(1))
}

func (e *cudaEngine) Close() error {
	if e.h != 0 {
		e.lib.destroy(e.h)
		e.h = 0
	}
	return nil
}

// The device path of the 2D exchanges (deviceEngine, device_exchange.go):
// each call enqueues on the handle's stream, which the NCCL communicators
// share.

func (e *cudaEngine) Stream() (uintptr, error) {
	var s uint64
	err := e.call("dob_stream", func(eb *byte, n int32) int32 { return e.lib.stream(e.h, &s, eb, n) })
	return uintptr(s), err
}

func (e *cudaEngine) DeviceBuffers() (DevBuffers, error) {
	var b dobDevBufs
	err := e.call("dob_dev_buffers", func(eb *byte, n int32) int32 { return e.lib.devBuffers(e.h, &b, eb, n) })
	return DevBuffers{OutQueue: uintptr(b.OutQueue), RowGather: uintptr(b.RowGather),
		Own: uintptr(b.Own), Gather: uintptr(b.Gather), PredSend: uintptr(b.PredSend),
		PredRecv: uintptr(b.PredRecv), OwnWords: b.OwnWords, Counts: uintptr(b.Counts)}, err
}

func (e *cudaEngine) DevUnion() error {
	return e.call("dob_dev_union", func(eb *byte, n int32) int32 { return e.lib.devUnion(e.h, eb, n) })
}

func (e *cudaEngine) DevLoadIn() error {
	return e.call("dob_dev_load_in", func(eb *byte, n int32) int32 { return e.lib.devLoadIn(e.h, eb, n) })
}

func (e *cudaEngine) DevPackPred(all bool) error {
	return e.call("dob_dev_pack_pred", func(eb *byte, n int32) int32 { return e.lib.devPackPred(e.h, int32(b64(all)), eb, n) })
}

func (e *cudaEngine) DevWritePred(end bool) error {
	return e.call("dob_dev_write_pred", func(eb *byte, n int32) int32 { return e.lib.devWritePred(e.h, int32(b64(end)), eb, n) })
}

// The device-resident level loop (loopEngine, device_loop.go).

func loopParams(o Options, single bool, n int64, dir Dir, mf, edges int64) dobLoopParams {
	mode := map[string]int64{ModeHybrid: 0, ModeTopDown: 1, ModeBottomUp: 2}[o.Mode]
	lp := dobLoopParams{Alpha: o.Alpha, Beta: o.Beta, Mode: mode, N: n, Dir: int64(dir), MF: mf, Edges: edges}
	if o.Split > 0 && single {
		lp.SplitFrom, lp.SplitTo = o.SplitFrom, o.SplitTo
	}
	return lp
}

func (e *cudaEngine) LoopBegin(o Options, n int64, dir Dir, mf, edges int64) error {
	p := loopParams(o, e.single, n, dir, mf, edges)
	return e.call("dob_loop_begin", func(eb *byte, k int32) int32 { return e.lib.loopBegin(e.h, &p, eb, k) })
}

// LoopArm queues the next search's start (dob_loop_arm) where the engine
// is gated, and reports whether it did.
func (e *cudaEngine) LoopArm(o Options, n int64, dir Dir, edges int64, levels int) (bool, error) {
	if !e.gated {
		return false, nil
	}
	p := loopParams(o, e.single, n, dir, 0, edges)
	err := e.call("dob_loop_arm", func(eb *byte, k int32) int32 { return e.lib.loopArm(e.h, &p, int32(levels), eb, k) })
	return err == nil, err
}

func (e *cudaEngine) LoopStart() error {
	return e.call("dob_loop_start", func(eb *byte, n int32) int32 { return e.lib.loopStart(e.h, eb, n) })
}

func (e *cudaEngine) LoopExplore() error {
	return e.call("dob_loop_explore", func(eb *byte, n int32) int32 { return e.lib.loopExplore(e.h, eb, n) })
}

func (e *cudaEngine) LoopMerge(assigned bool) error {
	return e.call("dob_loop_merge", func(eb *byte, n int32) int32 { return e.lib.loopMerge(e.h, int32(b64(assigned)), eb, n) })
}

func (e *cudaEngine) LoopCounts() error {
	return e.call("dob_loop_counts", func(eb *byte, n int32) int32 { return e.lib.loopCounts(e.h, eb, n) })
}

func (e *cudaEngine) LoopDecide() error {
	return e.call("dob_loop_decide", func(eb *byte, n int32) int32 { return e.lib.loopDecide(e.h, eb, n) })
}

func (e *cudaEngine) LoopSync(dst []LevelRecord) (int, bool, error) {
	var n int64
	var done int32
	err := e.call("dob_loop_sync", func(eb *byte, k int32) int32 {
		return e.lib.loopSync(e.h, &e.recs[0], int64(len(e.recs)), &n, &done, &e.leaves[0], eb, k)
	})
	if err != nil {
		return 0, false, err
	}
	if int(n) > len(dst) {
		return 0, false, fmt.Errorf("dob_loop_sync: %d records for room of %d", n, len(dst))
	}
	for k, r := range e.recs[:n] {
		dst[k] = LevelRecord{Dir: Dir(r.Dir), NF: r.NF, MF: r.MF, Edges: r.Edges, ExploreS: r.ExploreMs / 1e3,
			RowS: r.RowMs / 1e3, ColumnS: r.ColumnMs / 1e3, SwitchS: r.SwitchMs / 1e3, GapS: r.GapMs / 1e3}
	}
	return int(n), done != 0, nil
}

// LeafPass returns the leaves the device loop's last launch gave their
// parents (dob_loop_sync counted them): on the device the pass is part of
// the search's last launch, not a call of its own.
func (e *cudaEngine) LeafPass() (int64, bool, error) {
	if !e.single {
		return 0, false, fmt.Errorf("dob: leaves on a 2D grid")
	}
	return e.leaves[0], e.leaves[1] != 0, nil
}

// LoopSlots is the most levels LoopExplore may enqueue between syncs.
func (e *cudaEngine) LoopSlots() int { return dobLoopSlots }
