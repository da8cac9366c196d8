package cuda

// dl.go is the one way this module loads a shared library at run time and
// binds its C functions, with purego (no cgo, no CUDA headers or libraries
// at build time): the variants' libraries (Open), the CUDA runtime
// (LoadRuntime) and NCCL (package comm) all load through it, under one
// lock.

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/ebitengine/purego"
)

// dlMu serializes dlopen for every library of the process: its error
// message (dlerror) is per thread, and loading one library may run
// another's initialisers.
var dlMu sync.Mutex

// Dlopen loads the library at path (a file, or a bare name the dynamic
// loader looks up). global makes its symbols available to libraries
// loaded later (RTLD_GLOBAL), as the CUDA runtime and NCCL need.
func Dlopen(path string, global bool) (uintptr, error) {
	mode := purego.RTLD_NOW | purego.RTLD_LOCAL
	if global {
		mode = purego.RTLD_NOW | purego.RTLD_GLOBAL
	}
	dlMu.Lock()
	defer dlMu.Unlock()
	return purego.Dlopen(path, mode)
}

// OpenFirst loads, with RTLD_GLOBAL, the first of names found in dirs,
// then by bare name through the dynamic loader. It returns the handle, the
// path or name loaded, and the attempts that failed; the handle is 0 when
// every attempt failed.
func OpenFirst(names, dirs []string) (h uintptr, path string, tried []string) {
	for _, name := range names {
		cands := make([]string, 0, len(dirs)+1)
		for _, d := range dirs {
			p := filepath.Join(d, name)
			if _, err := os.Stat(p); err == nil {
				cands = append(cands, p)
			}
		}
		cands = append(cands, name)
		for _, p := range cands {
			h, err := Dlopen(p, true)
			if err == nil {
				return h, p, tried
			}
			tried = append(tried, fmt.Sprintf("%s (%v)", p, err))
		}
	}
	return 0, "", tried
}

// Bind points each entry's Fn (a pointer to a Go func variable whose
// signature mirrors the C function's) at the symbol Name of the library
// handle h, loaded from path. It stops at the first missing symbol.
func Bind(h uintptr, path string, table []Sym) error {
	for _, s := range table {
		addr, err := purego.Dlsym(h, s.Name)
		if err != nil || addr == 0 {
			return fmt.Errorf("%s has no symbol %s: %v", path, s.Name, err)
		}
		purego.RegisterFunc(s.Fn, addr)
	}
	return nil
}

// LibDirs are the CUDA toolkit's library directories, searched before the
// dynamic loader's own path (LD_LIBRARY_PATH, the ld.so cache):
// $CUDA_HOME/lib64, then /usr/local/cuda/lib64.
func LibDirs() []string {
	var dirs []string
	if h := os.Getenv("CUDA_HOME"); h != "" {
		dirs = append(dirs, filepath.Join(h, "lib64"))
	}
	return append(dirs, "/usr/local/cuda/lib64")
}
