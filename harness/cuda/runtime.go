package cuda

// runtime.go binds the few CUDA runtime calls the device communicator
// (package comm) and the plugins' host code need (devices, streams,
// events, copies, allocations for tests and staging), loading libcudart at
// run time (dl.go), so that no variant library is needed for them. The
// variants' own libraries carry their own runtime; pointers, streams and
// events are the driver's objects in the device's primary context, so they
// pass between the two.

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// RuntimeNames are the libcudart files tried, newest first.
var RuntimeNames = []string{"libcudart.so.13", "libcudart.so.12", "libcudart.so"}

// ErrNoRuntime is wrapped by LoadRuntime's error when no libcudart
// could be loaded.
var ErrNoRuntime = errors.New("CUDA runtime not found")

// Memory copy kinds (cudaMemcpyKind).
const (
	cudaMemcpyHostToDevice   = 1
	cudaMemcpyDeviceToHost   = 2
	cudaMemcpyDeviceToDevice = 3
	cudaMemcpyDefault        = 4
)

const (
	cudaErrorNotReady         = 600
	cudaStreamNonBlocking     = 1
	cudaEventDisableTiming    = 2
	cudaHostAllocPortable     = 1
	cudaErrorNoDevice         = 100
	cudaErrorInsufficientDrvr = 35
)

// Runtime is a loaded libcudart. Its methods act on the calling OS
// thread's current device: callers that pick a device (SetDevice) lock
// the goroutine to its thread for as long as they rely on it (Go moves
// goroutines between threads). Errors name the call and what CUDA said.
type Runtime struct {
	Path string // the file loaded

	setDevice         func(dev int32) int32
	getDeviceCount    func(n *int32) int32
	deviceGetPCIBusID func(buf *byte, n int32, dev int32) int32
	streamCreate      func(s *uintptr, flags uint32) int32
	streamDestroy     func(s uintptr) int32
	streamQuery       func(s uintptr) int32
	streamWaitEvent   func(s, e uintptr, flags uint32) int32
	eventCreate       func(e *uintptr, flags uint32) int32
	eventRecord       func(e, s uintptr) int32
	eventQuery        func(e uintptr) int32
	eventElapsedTime  func(ms *float32, start, end uintptr) int32
	eventSynchronize  func(e uintptr) int32
	eventDestroy      func(e uintptr) int32
	malloc            func(p *uintptr, size uint64) int32
	free              func(p uintptr) int32
	hostAlloc         func(p *unsafe.Pointer, size uint64, flags uint32) int32
	freeHost          func(p unsafe.Pointer) int32
	memcpy            func(dst, src unsafe.Pointer, n uint64, kind int32) int32
	memcpyAsync       func(dst, src unsafe.Pointer, n uint64, kind int32, s uintptr) int32
	getErrorName      func(e int32) string
	getErrorString    func(e int32) string
}

var runtimeOnce struct {
	once sync.Once
	rt   *Runtime
	err  error
}

// LoadRuntime loads libcudart on its first call (RuntimeNames, in
// the directories of cudaLibDirs, then by name through the dynamic
// loader) and returns the same runtime, or the same error, on every call.
func LoadRuntime() (*Runtime, error) {
	o := &runtimeOnce
	o.once.Do(func() { o.rt, o.err = loadRuntime() })
	return o.rt, o.err
}

func loadRuntime() (*Runtime, error) { return loadRuntimeFrom(RuntimeNames, LibDirs()) }

// loadRuntimeFrom loads the first of names found in dirs (then through
// the dynamic loader) and binds it.
func loadRuntimeFrom(names, dirs []string) (*Runtime, error) {
	h, path, tried := OpenFirst(names, dirs)
	if h == 0 {
		return nil, fmt.Errorf("cuda: %w: could not load any of %s from %s or the dynamic loader's path (LD_LIBRARY_PATH=%q): %s",
			ErrNoRuntime, strings.Join(names, ", "), strings.Join(dirs, ", "),
			os.Getenv("LD_LIBRARY_PATH"), strings.Join(tried, "; "))
	}
	rt := &Runtime{Path: path}
	table := []Sym{
		{"cudaSetDevice", &rt.setDevice},
		{"cudaGetDeviceCount", &rt.getDeviceCount},
		{"cudaDeviceGetPCIBusId", &rt.deviceGetPCIBusID},
		{"cudaStreamCreateWithFlags", &rt.streamCreate},
		{"cudaStreamDestroy", &rt.streamDestroy},
		{"cudaStreamQuery", &rt.streamQuery},
		{"cudaStreamWaitEvent", &rt.streamWaitEvent},
		{"cudaEventCreateWithFlags", &rt.eventCreate},
		{"cudaEventRecord", &rt.eventRecord},
		{"cudaEventQuery", &rt.eventQuery},
		{"cudaEventElapsedTime", &rt.eventElapsedTime},
		{"cudaEventSynchronize", &rt.eventSynchronize},
		{"cudaEventDestroy", &rt.eventDestroy},
		{"cudaMalloc", &rt.malloc},
		{"cudaFree", &rt.free},
		{"cudaHostAlloc", &rt.hostAlloc},
		{"cudaFreeHost", &rt.freeHost},
		{"cudaMemcpy", &rt.memcpy},
		{"cudaMemcpyAsync", &rt.memcpyAsync},
		{"cudaGetErrorName", &rt.getErrorName},
		{"cudaGetErrorString", &rt.getErrorString},
	}
	if err := Bind(h, path, table); err != nil {
		return nil, fmt.Errorf("cuda: %w", err)
	}
	return rt, nil
}

// check turns a cudaError_t into an error naming the call.
func (rt *Runtime) check(call string, e int32) error {
	if e == 0 {
		return nil
	}
	return &RuntimeError{Call: call, Code: int(e), Name: rt.getErrorName(e), Msg: rt.getErrorString(e)}
}

// RuntimeError is a failed CUDA runtime call.
type RuntimeError struct {
	Call string // e.g. "cudaMalloc(1048576 bytes)"
	Code int    // cudaError_t
	Name string // e.g. cudaErrorMemoryAllocation
	Msg  string
}

func (e *RuntimeError) Error() string {
	return fmt.Sprintf("%s: %s (%s)", e.Call, e.Msg, e.Name)
}

// DeviceCount is cudaGetDeviceCount; without a driver or a GPU it fails
// with the runtime's words.
func (rt *Runtime) DeviceCount() (int, error) {
	var n int32
	if err := rt.check("cudaGetDeviceCount", rt.getDeviceCount(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// SetDevice makes dev the calling thread's current device (lock the
// goroutine to its thread first: runtime.LockOSThread).
func (rt *Runtime) SetDevice(dev int) error {
	return rt.check(fmt.Sprintf("cudaSetDevice(%d)", dev), rt.setDevice(int32(dev)))
}

// OnDevice runs f on a locked OS thread whose current device is dev.
func (rt *Runtime) OnDevice(dev int, f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := rt.SetDevice(dev); err != nil {
		return err
	}
	return f()
}

// PCIBusID is the device's PCI bus id, e.g. "0000:1B:00.0".
func (rt *Runtime) PCIBusID(dev int) (string, error) {
	buf := make([]byte, 64)
	if err := rt.check("cudaDeviceGetPCIBusId", rt.deviceGetPCIBusID(&buf[0], int32(len(buf)), int32(dev))); err != nil {
		return "", err
	}
	return cStr(buf), nil
}

// StreamCreate creates a non-blocking stream on device dev.
func (rt *Runtime) StreamCreate(dev int) (uintptr, error) {
	var s uintptr
	err := rt.OnDevice(dev, func() error {
		return rt.check("cudaStreamCreateWithFlags", rt.streamCreate(&s, cudaStreamNonBlocking))
	})
	return s, err
}

// StreamDestroy is cudaStreamDestroy.
func (rt *Runtime) StreamDestroy(s uintptr) error {
	return rt.check("cudaStreamDestroy", rt.streamDestroy(s))
}

// StreamDone reports whether stream s has finished its work (cudaStreamQuery).
func (rt *Runtime) StreamDone(s uintptr) (bool, error) {
	e := rt.streamQuery(s)
	if e == cudaErrorNotReady {
		return false, nil
	}
	return e == 0, rt.check("cudaStreamQuery", e)
}

// StreamWaitEvent makes later work on stream s wait for event e.
func (rt *Runtime) StreamWaitEvent(s, e uintptr) error {
	return rt.check("cudaStreamWaitEvent", rt.streamWaitEvent(s, e, 0))
}

// EventCreate creates an event on device dev; timing events can be passed
// to ElapsedMs, others (timing false) are cheaper to record and wait on.
func (rt *Runtime) EventCreate(dev int, timing bool) (uintptr, error) {
	var e uintptr
	err := rt.OnDevice(dev, func() (err error) { e, err = rt.EventCreateHere(timing); return err })
	return e, err
}

// EventCreateHere is EventCreate on the calling thread's current device
// (inside OnDevice).
func (rt *Runtime) EventCreateHere(timing bool) (uintptr, error) {
	flags := uint32(cudaEventDisableTiming)
	if timing {
		flags = 0
	}
	var e uintptr
	err := rt.check("cudaEventCreateWithFlags", rt.eventCreate(&e, flags))
	return e, err
}

// EventRecord records event e on stream s.
func (rt *Runtime) EventRecord(e, s uintptr) error {
	return rt.check("cudaEventRecord", rt.eventRecord(e, s))
}

// ElapsedMs is the time between two recorded timing events, in ms.
func (rt *Runtime) ElapsedMs(start, end uintptr) (float64, error) {
	var ms float32
	err := rt.check("cudaEventElapsedTime", rt.eventElapsedTime(&ms, start, end))
	return float64(ms), err
}

// EventDestroy is cudaEventDestroy.
func (rt *Runtime) EventDestroy(e uintptr) error {
	return rt.check("cudaEventDestroy", rt.eventDestroy(e))
}

// Malloc allocates bytes of device memory on device dev (at least one
// byte, so that an empty buffer still has an address).
func (rt *Runtime) Malloc(dev int, bytes int) (uintptr, error) {
	var p uintptr
	err := rt.OnDevice(dev, func() error {
		return rt.check(fmt.Sprintf("cudaMalloc(%d bytes)", bytes), rt.malloc(&p, uint64(max(bytes, 1))))
	})
	return p, err
}

// Free releases device memory from Malloc.
func (rt *Runtime) Free(p uintptr) error {
	if p == 0 {
		return nil
	}
	return rt.check("cudaFree", rt.free(p))
}

// HostAlloc allocates bytes of pinned (page-locked, portable) host memory.
func (rt *Runtime) HostAlloc(bytes int) ([]byte, error) {
	var p unsafe.Pointer
	if err := rt.check(fmt.Sprintf("cudaHostAlloc(%d bytes)", bytes), rt.hostAlloc(&p, uint64(max(bytes, 1)), cudaHostAllocPortable)); err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(p), max(bytes, 1))[:bytes], nil
}

// FreeHost releases memory from HostAlloc.
func (rt *Runtime) FreeHost(b []byte) error {
	if cap(b) == 0 {
		return nil
	}
	return rt.check("cudaFreeHost", rt.freeHost(unsafe.Pointer(unsafe.SliceData(b[:1]))))
}

// CopyToDevice copies host src to device dst and waits for the copy.
func (rt *Runtime) CopyToDevice(dst uintptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	err := rt.check("cudaMemcpy(host to device)", rt.memcpy(ptrOf(dst), unsafe.Pointer(&src[0]), uint64(len(src)), cudaMemcpyHostToDevice))
	runtime.KeepAlive(src)
	return err
}

// CopyFromDevice copies device src to host dst and waits for the copy.
func (rt *Runtime) CopyFromDevice(dst []byte, src uintptr) error {
	if len(dst) == 0 {
		return nil
	}
	err := rt.check("cudaMemcpy(device to host)", rt.memcpy(unsafe.Pointer(&dst[0]), ptrOf(src), uint64(len(dst)), cudaMemcpyDeviceToHost))
	runtime.KeepAlive(dst)
	return err
}

// CopyAsync enqueues a copy of bytes from src to dst on stream s; either
// may be device memory or pinned host memory (cudaMemcpyDefault: the
// direction follows from the addresses).
func (rt *Runtime) CopyAsync(dst, src uintptr, bytes int, s uintptr) error {
	if bytes == 0 {
		return nil
	}
	return rt.check("cudaMemcpyAsync", rt.memcpyAsync(ptrOf(dst), ptrOf(src), uint64(bytes), cudaMemcpyDefault, s))
}

// ptrOf turns a device or pinned address into the pointer C expects. The
// memory is not Go's, so the collector never looks at it.
func ptrOf(p uintptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&p))
}

// EventDone reports whether the work before event e's record has
// finished (cudaEventQuery).
func (rt *Runtime) EventDone(e uintptr) (bool, error) {
	r := rt.eventQuery(e)
	if r == cudaErrorNotReady {
		return false, nil
	}
	return r == 0, rt.check("cudaEventQuery", r)
}

// WaitStream waits for stream s, calling check (e.g. NCCL's asynchronous
// error query) while it is busy, so that a failed peer does not leave the
// caller waiting forever. It spins briefly, then polls.
func (rt *Runtime) WaitStream(s uintptr, check func() error) error {
	return rt.poll(func() (bool, error) { return rt.StreamDone(s) }, check)
}

// WaitEvent is WaitStream for the work before event e.
func (rt *Runtime) WaitEvent(e uintptr, check func() error) error {
	return rt.poll(func() (bool, error) { return rt.EventDone(e) }, check)
}

// pollSpin is how long poll spins before it sleeps between queries. Go's
// timers sleep at least about a millisecond on Linux (time.Sleep(20µs)
// takes 1.1 ms there), so a wait that slept as soon as it could would add
// up to a millisecond to every exchange that outlasts the spin; a search
// level takes microseconds to milliseconds, so the spin covers them all.
const pollSpin = 100 * time.Millisecond

// pollBusy is how long poll queries back to back, without yielding, where
// the machine has processors to spare. The waits run on a locked thread
// (OnDevice), and a locked goroutine that yields (runtime.Gosched) parks
// its thread until the scheduler wakes it again: tens of µs a yield, which
// made a 4 MiB NCCL all-gather between two H200s (about 40 µs on the
// device) take 120–230 µs on the host (results/ueno-weak-common-clock).
// Measured against yielding on two H200s (results/ueno-weak-busy-poll):
// ueno 2×1 at scale 26 is 8.7 % faster (its expand wait 0.06–0.25 ms a
// level instead of 0.16–0.42), atomic2d 2.5 %, diropt unchanged. Where
// processors are few (GOMAXPROCS ≤ 4), poll yields at once, so that other
// ranks' goroutines are never starved.
const pollBusy = 2 * time.Millisecond

func (rt *Runtime) poll(query func() (bool, error), check func() error) error {
	start := time.Now()
	busy := runtime.GOMAXPROCS(0) > 4
	for i := 0; ; i++ {
		done, err := query()
		if err != nil || done {
			return err
		}
		if check != nil && i%64 == 63 {
			if err := check(); err != nil {
				return err
			}
		}
		switch t := time.Since(start); {
		case busy && t < pollBusy:
		case t < pollSpin:
			runtime.Gosched()
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// cStr returns the NUL-terminated string at the start of b.
func cStr(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}
