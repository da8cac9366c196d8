// Package cuda loads a variant's CUDA library (lib<variant>.so, built by
// `make cuda` from plugins/<variant>/cuda/*.cu and harness/cuda/src/*.cu)
// at run time, so that one Go binary runs on machines with and without a
// GPU, and binds the few CUDA runtime calls the host code needs (Runtime).
// Every library, NCCL's included, is loaded through dl.go (dlopen through
// github.com/ebitengine/purego: no cgo, no CUDA headers or libraries at
// build time).
//
// # Binding a variant's library
//
// A variant declares the C functions of its header (plugins/<v>/cuda/<v>.h)
// as a struct of Go func fields whose signatures mirror the C ones, and one
// package-level Bindings that names the library, its ABI check and the
// symbol of every field:
//
//	type myFuncs struct {
//		create  func(opt *myOptions, nv int64, out *uintptr, err *byte, errlen int32) int32
//		destroy func(h uintptr)
//	}
//
//	var myLib = cuda.Bindings[myFuncs]{
//		Name: "myvariant", // lib/libmyvariant.so
//		ABI:  cuda.ABI{Symbol: "my_abi_version", Version: 3}, // MY_ABI_VERSION of my.h
//		Syms: func(f *myFuncs) []cuda.Sym {
//			return []cuda.Sym{
//				{Name: "my_create", Fn: &f.create},
//				{Name: "my_destroy", Fn: &f.destroy},
//			}
//		},
//	}
//
//	lib, fn, err := myLib.Load()
//	// lib: the *Library (Device, CopyBandwidth, Call); fn: the bound funcs
//	err = lib.Call("my_create", func(e *byte, el int32) int32 { return fn.create(&opt, nv, &h, e, el) })
//
// Load runs once per process, whichever goroutine (or in-process rank)
// calls first; every later call returns the same library and functions, or
// the same error. It fails, with an error that names the file and says to
// run `make cuda`, when the library is missing or cannot be loaded, when a
// symbol (of the common ABI or of the table) is missing, or when the
// library's bfsb_abi_version or the variant's own ABI function returns
// another version than the Go side's constant: the header changed and the
// library is stale. A library is never unloaded (unloading the CUDA
// runtime under live contexts is not supported).
//
// # Calls and errors
//
// Every exported C function of such a library follows the convention of
// include/bfsb_abi.h: it returns an int32 status (0 for success) and, on
// failure, writes a message naming the failing CUDA call into a buffer the
// caller passes as its last two arguments (pointer, length). Call wraps
// that: it hands the function an error buffer and turns a non-zero status
// into an error carrying the library, the exported function and the
// message.
//
// A library is searched for, in order, in the directory named by
// BFSBENCH_LIB_DIR (a list separated by ':' is allowed), then ../lib and
// . relative to the running executable (bin/edgescan finds lib/ beside
// bin/).
package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// LibDirEnv names the environment variable searched first for libraries.
const LibDirEnv = "BFSBENCH_LIB_DIR"

// ABIVersion is the version of bfsb_abi.h this package speaks.
const ABIVersion = 3

// errBufLen is the size of the message buffer handed to each call.
const errBufLen = 1024

// Library is a loaded lib<name>.so.
type Library struct {
	Name string // the variant, e.g. "edgescan"
	Path string // the file that was loaded

	handle uintptr

	// common ABI, bound by Open
	abiVersion  func() int32
	deviceCount func(count *int32, err *byte, errlen int32) int32
	deviceQuery func(device int32, out *deviceInfoC, err *byte, errlen int32) int32
	bandwidth   func(device int32, bytes int64, reps int32, copyGBs, readGBs *float64, err *byte, errlen int32) int32
	selfTest    func(device int32, n int64, err *byte, errlen int32) int32
}

// ErrNotFound is wrapped by Open's error when no file of that name exists
// in any search directory.
var ErrNotFound = errors.New("library not found")

// FileName is the library file of a variant: lib<name>.so.
func FileName(name string) string { return "lib" + name + ".so" }

// SearchDirs returns the directories Open looks in, in order.
func SearchDirs() []string {
	var dirs []string
	if env := os.Getenv(LibDirEnv); env != "" {
		for _, d := range filepath.SplitList(env) {
			if d != "" {
				dirs = append(dirs, d)
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dir := filepath.Dir(exe)
		dirs = append(dirs, filepath.Join(dir, "..", "lib"), dir)
	}
	return dirs
}

// Find returns the path of lib<name>.so in the first search directory
// that holds it.
func Find(name string) (string, error) {
	file := FileName(name)
	dirs := SearchDirs()
	for _, d := range dirs {
		p := filepath.Join(d, file)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	where := "no directory to search"
	if len(dirs) > 0 {
		where = "looked in " + strings.Join(dirs, ", ")
	}
	env := LibDirEnv + " is unset"
	if v := os.Getenv(LibDirEnv); v != "" {
		env = LibDirEnv + "=" + v
	}
	return "", fmt.Errorf("cuda: %s: %w (%s; %s); build it with `make cuda` where nvcc is installed",
		file, ErrNotFound, where, env)
}

// Open finds and loads lib<name>.so and binds the common ABI of
// bfsb_abi.h. It fails if the file is missing, cannot be loaded (a missing
// dependency, a wrong architecture), lacks a common symbol or speaks
// another ABI version.
func Open(name string) (*Library, error) {
	path, err := Find(name)
	if err != nil {
		return nil, err
	}
	return OpenPath(name, path)
}

// OpenPath loads the library at path as variant name's library.
func OpenPath(name, path string) (*Library, error) {
	h, err := Dlopen(path, false)
	if err != nil {
		return nil, fmt.Errorf("cuda: loading %s: %v", path, err)
	}
	l := &Library{Name: name, Path: path, handle: h}
	binds := []struct {
		fptr any
		sym  string
	}{
		{&l.abiVersion, "bfsb_abi_version"},
		{&l.deviceCount, "bfsb_device_count"},
		{&l.deviceQuery, "bfsb_device_query"},
		{&l.bandwidth, "bfsb_copy_bandwidth"},
		{&l.selfTest, "bfsb_selftest"},
	}
	for _, b := range binds {
		if err := l.bind(b.fptr, b.sym); err != nil {
			l.Close()
			return nil, err
		}
	}
	if v := l.abiVersion(); v != ABIVersion {
		l.Close()
		return nil, fmt.Errorf("cuda: %s speaks bfsb ABI version %d, this program version %d: rebuild it with `make cuda`", path, v, ABIVersion)
	}
	return l, nil
}

// bind points fptr (a pointer to a Go func variable whose signature mirrors
// the C function's) at the library's symbol sym.
func (l *Library) bind(fptr any, sym string) error {
	if err := Bind(l.handle, l.Path, []Sym{{Name: sym, Fn: fptr}}); err != nil {
		return fmt.Errorf("cuda: %w (a stale build: rebuild it with `make cuda`)", err)
	}
	return nil
}

// Sym is one entry of a variant's symbol table: the exported C function
// Name and Fn, a pointer to the Go func variable to bind to it.
type Sym struct {
	Name string
	Fn   any
}

// ABI is a variant's own ABI check: Symbol names its exported
// `int32_t <prefix>_abi_version(void)`, Version is the constant the Go side
// was written against (the header's <PREFIX>_ABI_VERSION).
type ABI struct {
	Symbol  string
	Version int32
}

// Bindings loads variant Name's library once per process and binds its
// symbol table into a T, a struct of Go func fields (see the package doc).
// Declare it as a package-level variable; the zero value of the unexported
// fields is ready to use.
type Bindings[T any] struct {
	Name string           // the variant: lib<Name>.so
	ABI  ABI              // its version check
	Syms func(f *T) []Sym // the table: each symbol and the field of f to bind it to

	once sync.Once
	lib  *Library
	fns  *T
	err  error
}

// Load finds, loads and binds the library on its first call (Open, then
// every entry of Syms, then the ABI check) and returns the result of that
// first call on every call, error included.
func (b *Bindings[T]) Load() (*Library, *T, error) {
	b.once.Do(func() { b.lib, b.fns, b.err = b.load() })
	return b.lib, b.fns, b.err
}

// DeviceCount loads the library (Load) and returns the number of CUDA
// devices it sees.
func (b *Bindings[T]) DeviceCount() (int, error) {
	l, _, err := b.Load()
	if err != nil {
		return 0, err
	}
	return l.DeviceCount()
}

// CopyBandwidth loads the library (Load) and measures device's memory
// bandwidth with it (Library.CopyBandwidth).
func (b *Bindings[T]) CopyBandwidth(device int, bytes int64, reps int) (Bandwidth, error) {
	l, _, err := b.Load()
	if err != nil {
		return Bandwidth{}, err
	}
	return l.CopyBandwidth(device, bytes, reps)
}

func (b *Bindings[T]) load() (*Library, *T, error) {
	l, err := Open(b.Name)
	if err != nil {
		return nil, nil, err
	}
	fns := new(T)
	var abi func() int32
	table := append([]Sym{{b.ABI.Symbol, &abi}}, b.Syms(fns)...)
	for _, s := range table {
		if err := l.bind(s.Fn, s.Name); err != nil {
			l.Close()
			return nil, nil, err
		}
	}
	if v := abi(); v != b.ABI.Version {
		l.Close()
		return nil, nil, fmt.Errorf("cuda: %s speaks %s ABI version %d (%s), this program version %d: a stale build: rebuild it with `make cuda`",
			l.Path, b.Name, v, b.ABI.Symbol, b.ABI.Version)
	}
	return l, fns, nil
}

// Close unloads the library. Functions bound from it must not be called
// afterwards.
func (l *Library) Close() error {
	if l == nil || l.handle == 0 {
		return nil
	}
	err := purego.Dlclose(l.handle)
	l.handle = 0
	return err
}

// Call runs one exported function of the library under the error
// convention: f receives the message buffer and its length to pass on as
// the C function's last two arguments, and returns the C status. A
// non-zero status becomes an error "cuda: lib<name>.so: <fn>: <message>
// (status N)".
func (l *Library) Call(fn string, f func(err *byte, errlen int32) int32) error {
	buf := make([]byte, errBufLen)
	st := f(&buf[0], int32(len(buf)))
	if st == 0 {
		return nil
	}
	return &CallError{Library: filepath.Base(l.Path), Func: fn, Status: st, Msg: cString(buf)}
}

// CallError is a failed call into a CUDA library.
type CallError struct {
	Library string // file name, e.g. libedgescan.so
	Func    string // the exported function
	Status  int32  // the CUDA error code, or a BFSB_E* status
	Msg     string // the library's message: the failing CUDA call first
}

func (e *CallError) Error() string {
	msg := e.Msg
	if msg == "" {
		msg = "no message"
	}
	return fmt.Sprintf("cuda: %s: %s: %s (status %d)", e.Library, e.Func, msg, e.Status)
}

// cString returns the NUL-terminated string at the start of b.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// Ptr returns a pointer to s's first element for passing to C, or nil for
// an empty slice. The slice must stay referenced until the call returns
// (Go's collector does not move heap memory).
func Ptr[T any](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}
