package comm

// nccl.go binds NCCL (libnccl.so.2), loaded at run time through package
// cuda's loader like the CUDA runtime: a binary built without NCCL's
// headers runs everywhere, and says which file it looked for where NCCL is
// missing.
//
// Only calls whose arguments are scalars and pointers are bound: the
// communicators are created with ncclCommInitRankScalable (NCCL ≥ 2.23),
// which takes the ncclUniqueId by pointer, where ncclCommInitRank takes
// the 128-byte struct by value.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bfsbench/bfsbench/harness/cuda"
)

// NCCLName is the NCCL library file loaded.
const NCCLName = "libnccl.so.2"

// ncclUniqueIDBytes is NCCL_UNIQUE_ID_BYTES.
const ncclUniqueIDBytes = 128

// ncclMinVersion is the oldest NCCL bound (ncclCommInitRankScalable).
const ncclMinVersion = 22300

// ncclSharedGPUVersion is the first NCCL whose communicators may hold
// several ranks on one GPU (older ones fail with "Duplicate GPU detected").
const ncclSharedGPUVersion = 23000

// ErrNoNCCL is wrapped by LoadNCCL's error when libnccl.so.2 could not be
// loaded.
var ErrNoNCCL = errors.New("NCCL not found")

// ncclDirs are the directories searched for libnccl.so.2 before the
// dynamic loader's path: $NCCL_HOME/lib, $CUDA_HOME/lib64,
// /usr/local/cuda/lib64.
func ncclDirs() []string {
	var dirs []string
	if h := os.Getenv("NCCL_HOME"); h != "" {
		dirs = append(dirs, filepath.Join(h, "lib"))
	}
	return append(dirs, cuda.LibDirs()...)
}

// ncclLib is a loaded libnccl.so.2.
type ncclLib struct {
	path    string
	version int // e.g. 22803 for 2.28.3

	getVersion      func(v *int32) int32
	getUniqueID     func(id *byte) int32
	initRankScal    func(comm *uintptr, nranks, rank, nID int32, ids *byte, config uintptr) int32
	commDestroy     func(comm uintptr) int32
	commAbort       func(comm uintptr) int32
	commGetAsyncErr func(comm uintptr, res *int32) int32
	getErrorString  func(res int32) string
	getLastError    func(comm uintptr) string
	groupStart      func() int32
	groupEnd        func() int32
	send            func(buf uintptr, count uint64, dt int32, peer int32, comm, stream uintptr) int32
	recv            func(buf uintptr, count uint64, dt int32, peer int32, comm, stream uintptr) int32
	allReduce       func(send, recv uintptr, count uint64, dt, op int32, comm, stream uintptr) int32
	allGather       func(send, recv uintptr, count uint64, dt int32, comm, stream uintptr) int32
	broadcast       func(send, recv uintptr, count uint64, dt, root int32, comm, stream uintptr) int32
}

var ncclOnce struct {
	once sync.Once
	lib  *ncclLib
	err  error
}

// loadNCCL loads libnccl.so.2 on its first call and returns the same
// library, or error, on every call. Before that it sets NCCL_NVLS_ENABLE=0
// in the environment unless it is set: NVLink multicast (NVLS) must not
// be used on the project's GPU machines.
func loadNCCL() (*ncclLib, error) {
	o := &ncclOnce
	o.once.Do(func() {
		if _, set := os.LookupEnv("NCCL_NVLS_ENABLE"); !set {
			os.Setenv("NCCL_NVLS_ENABLE", "0")
		}
		o.lib, o.err = openNCCL()
	})
	return o.lib, o.err
}

// NCCLVersion loads NCCL and returns its version code (e.g. 22803 for
// 2.28.3), or the error saying why it could not be loaded.
func NCCLVersion() (int, error) {
	l, err := loadNCCL()
	if err != nil {
		return 0, err
	}
	return l.version, nil
}

func openNCCL() (*ncclLib, error) {
	h, path, tried := cuda.OpenFirst([]string{NCCLName}, ncclDirs())
	if h == 0 {
		return nil, fmt.Errorf("comm: %w: %s could not be loaded from %s or the dynamic loader's path (LD_LIBRARY_PATH=%q): %s; install NCCL (e.g. apt-get install libnccl2) or use exchange = \"host\"",
			ErrNoNCCL, NCCLName, strings.Join(ncclDirs(), ", "), os.Getenv("LD_LIBRARY_PATH"), strings.Join(tried, "; "))
	}
	l := &ncclLib{path: path}
	table := []cuda.Sym{
		{Name: "ncclGetVersion", Fn: &l.getVersion},
		{Name: "ncclGetUniqueId", Fn: &l.getUniqueID},
		{Name: "ncclCommInitRankScalable", Fn: &l.initRankScal},
		{Name: "ncclCommDestroy", Fn: &l.commDestroy},
		{Name: "ncclCommAbort", Fn: &l.commAbort},
		{Name: "ncclCommGetAsyncError", Fn: &l.commGetAsyncErr},
		{Name: "ncclGetErrorString", Fn: &l.getErrorString},
		{Name: "ncclGetLastError", Fn: &l.getLastError},
		{Name: "ncclGroupStart", Fn: &l.groupStart},
		{Name: "ncclGroupEnd", Fn: &l.groupEnd},
		{Name: "ncclSend", Fn: &l.send},
		{Name: "ncclRecv", Fn: &l.recv},
		{Name: "ncclAllReduce", Fn: &l.allReduce},
		{Name: "ncclAllGather", Fn: &l.allGather},
		{Name: "ncclBroadcast", Fn: &l.broadcast},
	}
	if err := cuda.Bind(h, path, table); err != nil {
		return nil, fmt.Errorf("comm: %w (NCCL ≥ 2.23 is needed)", err)
	}
	var v int32
	if r := l.getVersion(&v); r != 0 {
		return nil, fmt.Errorf("comm: %s: ncclGetVersion: %s", path, l.getErrorString(r))
	}
	l.version = int(v)
	if l.version < ncclMinVersion {
		return nil, fmt.Errorf("comm: %s is NCCL %s; the device communicator needs NCCL ≥ 2.23", path, ncclVersionString(l.version))
	}
	return l, nil
}

// ncclVersionString formats a version code as major.minor.patch.
func ncclVersionString(v int) string {
	return fmt.Sprintf("%d.%d.%d", v/10000, v/100%100, v%100)
}

// check turns an ncclResult_t into an error naming the call, with NCCL's
// last error message when comm is given.
func (l *ncclLib) check(call string, comm uintptr, r int32) error {
	if r == 0 {
		return nil
	}
	msg := l.getErrorString(r)
	if last := l.getLastError(comm); last != "" {
		msg += ": " + last
	}
	return fmt.Errorf("%s: %s (ncclResult %d)", call, msg, r)
}

// ncclType maps a Datatype to ncclDataType_t.
func ncclType(d Datatype) (int32, error) {
	switch d {
	case Byte:
		return 1, nil // ncclUint8
	case Int32:
		return 2, nil
	case Uint32:
		return 3, nil
	case Int64:
		return 4, nil
	case Uint64:
		return 5, nil
	case Float64:
		return 8, nil
	}
	return 0, fmt.Errorf("datatype %s has no NCCL type", d)
}

// ncclOp maps an Op to ncclRedOp_t; NCCL has no bitwise or.
func ncclOp(o Op) (int32, bool) {
	switch o {
	case Sum:
		return 0, true
	case Max:
		return 2, true
	case Min:
		return 3, true
	}
	return 0, false
}
