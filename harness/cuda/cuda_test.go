package cuda

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// stubC implements the common ABI of bfsb_abi.h without CUDA, so that the
// loader's binding, struct layout and error convention can be tested on
// machines without nvcc or a GPU. STUB_DEVICES sets the device count; a
// negative value makes bfsb_device_count fail like a machine without a
// driver.
const stubC = `
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bfsb_abi.h"
int32_t bfsb_abi_version(void) { return ABI; }
int32_t bfsb_device_count(int32_t* count, char* err, int32_t errlen) {
  const char* s = getenv("STUB_DEVICES");
  int n = s ? atoi(s) : 1;
  if (n < 0) {
    snprintf(err, errlen, "cudaGetDeviceCount(&n): CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver)");
    return 35;
  }
  *count = n;
  return 0;
}
int32_t bfsb_device_query(int32_t device, bfsb_device_info* out, char* err, int32_t errlen) {
  memset(out, 0, sizeof(*out));
  snprintf(out->name, sizeof(out->name), "Stub GPU %d", device);
  out->total_bytes = 80LL << 30;
  out->free_bytes = 79LL << 30;
  out->l2_bytes = 50LL << 20;
  out->sm_count = 132;
  out->cc_major = 9;
  out->cc_minor = 0;
  out->driver_version = 13000;
  out->runtime_version = 11080;
  out->reserved[2] = 7;
  return 0;
}
int32_t bfsb_copy_bandwidth(int32_t device, int64_t bytes, int32_t reps, double* c, double* r, char* err, int32_t errlen) {
  if (bytes < (1 << 20)) { snprintf(err, errlen, "bfsb_copy_bandwidth: bytes = %lld", (long long)bytes); return BFSB_EINVAL; }
  *c = 3000.5; *r = 3100.25; return 0;
}
int32_t bfsb_selftest(int32_t device, int64_t n, char* err, int32_t errlen) {
  snprintf(err, errlen, "cudaMalloc(&p, %lld): out of memory (cudaErrorMemoryAllocation)", (long long)n);
  return 2;
}
/* A variant's own functions, for Bindings. */
int32_t stub_abi_version(void) { return VARIANT_ABI; }
int32_t stub_twice(int32_t x) { return 2 * x; }
`

// stubVariantABI is the version stub_abi_version returns, unless a test
// builds the stub with another.
const stubVariantABI = 7

// buildStub compiles stubC (with the given common ABI version) into
// dir/lib<name>.so, skipping the test where no C compiler is installed.
func buildStub(t *testing.T, dir, name string, abi int) string {
	t.Helper()
	return buildStubABI(t, dir, name, abi, stubVariantABI)
}

// buildStubABI is buildStub with the variant's own ABI version too.
func buildStubABI(t *testing.T, dir, name string, abi, variantABI int) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) to build the stub library")
	}
	src := filepath.Join(t.TempDir(), "stub.c")
	if err := os.WriteFile(src, []byte(stubC), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, FileName(name))
	cmd := exec.Command(cc, "-shared", "-fPIC", "-Iinclude", "-DABI="+strconv.Itoa(abi), "-DVARIANT_ABI="+strconv.Itoa(variantABI), "-o", out, src)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, b)
	}
	return out
}

func TestFindSearchOrderAndMessage(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(b, "libv.so"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(LibDirEnv, a+string(os.PathListSeparator)+b)
	got, err := Find("v")
	if err != nil || got != filepath.Join(b, "libv.so") {
		t.Fatalf("Find = %q, %v; want the file in the second directory", got, err)
	}
	// A copy in the first directory wins.
	if err := os.WriteFile(filepath.Join(a, "libv.so"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := Find("v"); got != filepath.Join(a, "libv.so") {
		t.Fatalf("Find = %q, want the first directory's", got)
	}
	_, err = Find("absent")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Find(absent) error %v does not wrap ErrNotFound", err)
	}
	for _, want := range []string{"libabsent.so", a, b, LibDirEnv + "=", "make cuda"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Find(absent) error %q lacks %q", err, want)
		}
	}
	dirs := SearchDirs()
	if len(dirs) != 4 || !strings.HasSuffix(dirs[2], string(filepath.Separator)+"lib") {
		t.Errorf("SearchDirs = %v; want the two env dirs, then <exe>/../lib and <exe dir>", dirs)
	}
}

func TestOpenNotALibrary(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "libjunk.so")
	if err := os.WriteFile(p, []byte("not an ELF file"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenPath("junk", p)
	if err == nil || !strings.Contains(err.Error(), "loading "+p) {
		t.Fatalf("OpenPath(junk) = %v, want a loading error naming the file", err)
	}
}

func TestStubLibrary(t *testing.T) {
	dir := t.TempDir()
	buildStub(t, dir, "stub", ABIVersion)
	t.Setenv(LibDirEnv, dir)
	l, err := Open("stub")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	t.Run("device query mirrors the C struct", func(t *testing.T) {
		t.Setenv("STUB_DEVICES", "2")
		d, err := l.Device(1)
		if err != nil {
			t.Fatal(err)
		}
		want := Device{Ordinal: 1, Name: "Stub GPU 1", TotalBytes: 80 << 30, FreeBytes: 79 << 30, L2Bytes: 50 << 20,
			SMs: 132, CCMajor: 9, CCMinor: 0, DriverVersion: 13000, RuntimeVersion: 11080, Library: l.Path}
		if d != want {
			t.Fatalf("Device(1) = %+v, want %+v", d, want)
		}
	})
	t.Run("no driver", func(t *testing.T) {
		t.Setenv("STUB_DEVICES", "-1")
		_, err := l.Device(0)
		if err == nil {
			t.Fatal("Device(0) succeeded without a driver")
		}
		for _, want := range []string{"CUDA device 0", "libstub.so", "bfsb_device_count", "cudaGetDeviceCount", "cudaErrorInsufficientDriver", "status 35"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
	})
	t.Run("too few devices", func(t *testing.T) {
		t.Setenv("STUB_DEVICES", "1")
		_, err := l.Device(3)
		if err == nil || !strings.Contains(err.Error(), "CUDA device 3 wanted, the runtime found 1 device(s)") {
			t.Fatalf("Device(3) = %v", err)
		}
	})
	t.Run("call errors carry the function and message", func(t *testing.T) {
		err := l.SelfTest(0, 12345)
		var ce *CallError
		if !errors.As(err, &ce) || ce.Func != "bfsb_selftest" || ce.Status != 2 ||
			ce.Msg != "cudaMalloc(&p, 12345): out of memory (cudaErrorMemoryAllocation)" {
			t.Fatalf("SelfTest error = %#v", err)
		}
		if _, err := l.CopyBandwidth(0, 1024, 3); err == nil || !strings.Contains(err.Error(), "bytes = 1024") {
			t.Fatalf("CopyBandwidth(1024) = %v", err)
		}
		b, err := l.CopyBandwidth(0, 1<<20, 3)
		if err != nil || b.CopyGBs != 3000.5 || b.ReadGBs != 3100.25 {
			t.Fatalf("CopyBandwidth = %+v, %v", b, err)
		}
	})
}

// stubFuncs is the symbol table of the stub's own functions.
type stubFuncs struct {
	twice func(x int32) int32
}

func stubBindings(name string, version int32, extra ...string) *Bindings[stubFuncs] {
	return &Bindings[stubFuncs]{
		Name: name,
		ABI:  ABI{Symbol: "stub_abi_version", Version: version},
		Syms: func(f *stubFuncs) []Sym {
			syms := []Sym{{Name: "stub_twice", Fn: &f.twice}}
			for _, e := range extra {
				var g func() int32
				syms = append(syms, Sym{Name: e, Fn: &g})
			}
			return syms
		},
	}
}

func TestBindings(t *testing.T) {
	dir := t.TempDir()
	buildStub(t, dir, "stub", ABIVersion)
	t.Setenv(LibDirEnv, dir)

	t.Run("binds once and remembers", func(t *testing.T) {
		b := stubBindings("stub", stubVariantABI)
		l, fn, err := b.Load()
		if err != nil {
			t.Fatal(err)
		}
		if got := fn.twice(21); got != 42 {
			t.Fatalf("twice(21) = %d", got)
		}
		l2, fn2, err := b.Load()
		if err != nil || l2 != l || fn2 != fn {
			t.Fatalf("second Load = %p, %p, %v; want the first call's %p, %p", l2, fn2, err, l, fn)
		}
	})
	t.Run("concurrent first calls", func(t *testing.T) {
		b := stubBindings("stub", stubVariantABI)
		var wg sync.WaitGroup
		libs := make([]*Library, 8)
		for i := range libs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				libs[i], _, _ = b.Load()
			}()
		}
		wg.Wait()
		for _, l := range libs {
			if l == nil || l != libs[0] {
				t.Fatalf("Load returned %v", libs)
			}
		}
	})
	for _, tc := range []struct {
		name string
		b    *Bindings[stubFuncs]
		want []string
	}{
		{"missing symbol", stubBindings("stub", stubVariantABI, "stub_nothing"),
			[]string{"libstub.so", "no symbol stub_nothing", "make cuda"}},
		{"variant ABI mismatch", stubBindings("stub", stubVariantABI+1),
			[]string{"libstub.so", "stub ABI version 7 (stub_abi_version), this program version 8", "make cuda"}},
		{"missing library", stubBindings("absent", stubVariantABI),
			[]string{"libabsent.so", "not found", "make cuda"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, fn, err := tc.b.Load()
			if err == nil || fn != nil {
				t.Fatalf("Load = %v, %v; want an error", fn, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if _, _, err2 := tc.b.Load(); err2 != err {
				t.Errorf("second Load error %v, want the first call's %v", err2, err)
			}
		})
	}
}

func TestABIVersionMismatch(t *testing.T) {
	dir := t.TempDir()
	p := buildStub(t, dir, "old", ABIVersion+1)
	_, err := OpenPath("old", p)
	if err == nil || !strings.Contains(err.Error(), "ABI version") {
		t.Fatalf("OpenPath with another ABI version = %v", err)
	}
}

func TestNeed(t *testing.T) {
	d := Device{Ordinal: 0, Name: "G", TotalBytes: 80 << 30, FreeBytes: 10 << 30, SMs: 1, CCMajor: 9}
	if err := d.Need(10<<30, "graph"); err != nil {
		t.Fatalf("Need(exactly free) = %v", err)
	}
	err := d.Need(12<<30+1<<29, "edgescan graph")
	want := "edgescan graph needs 12.50 GiB, device has 10.00 GiB free (80.00 GiB total) on device 0 (G, sm_90, 1 SMs, 80.0 GiB)"
	if err == nil || err.Error() != want {
		t.Fatalf("Need = %v\nwant %s", err, want)
	}
}

// TestBuiltLibrary loads a library built by `make cuda` when one exists
// (../../lib/libedgescan.so, or BFSBENCH_LIB_DIR). With a GPU it checks the
// device query, the shared primitives and a bandwidth figure; without one, that
// the failure names the library and the CUDA call.
func TestBuiltLibrary(t *testing.T) {
	p := filepath.Join("..", "..", "lib", "libedgescan.so")
	if _, err := os.Stat(p); err != nil {
		if Required("cuda") {
			t.Fatalf("no lib/libedgescan.so, and %s names cuda: %v", RequireEnv, err)
		}
		t.Skip("no lib/libedgescan.so: run `make cuda` first")
	}
	l, err := OpenPath("edgescan", p)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	n, err := l.DeviceCount()
	if err != nil {
		for _, want := range []string{"libedgescan.so", "bfsb_device_count", "cudaGetDeviceCount"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("no-GPU error %q lacks %q", err, want)
			}
		}
		t.Logf("no GPU here, as expected: %v", err)
		return
	}
	if n < 1 {
		t.Fatalf("DeviceCount = %d without an error", n)
	}
	d, err := l.Device(0)
	if err != nil {
		t.Fatal(err)
	}
	if d.SMs < 1 || d.TotalBytes <= 0 || d.Name == "" {
		t.Fatalf("implausible device %+v", d)
	}
	if err := l.SelfTest(0, 1<<20); err != nil {
		t.Fatal(err)
	}
	b, err := l.CopyBandwidth(0, 64<<20, 3)
	if err != nil || b.CopyGBs <= 0 || b.ReadGBs <= 0 {
		t.Fatalf("CopyBandwidth = %+v, %v", b, err)
	}
	t.Logf("%s: copy %.0f GB/s, read %.0f GB/s", d, b.CopyGBs, b.ReadGBs)
}

func TestRankDevice(t *testing.T) {
	count := func(n int, err error) func() (int, error) { return func() (int, error) { return n, err } }
	for _, tc := range []struct {
		rank, n, want int
		bad           bool
	}{{0, 2, 0, false}, {1, 2, 1, false}, {3, 2, 1, false}, {5, 1, 0, false}, {0, 0, 0, true}} {
		got, err := RankDevice(tc.rank, count(tc.n, nil))
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("rank %d of %d devices: %d, %v", tc.rank, tc.n, got, err)
		}
	}
	if _, err := RankDevice(0, count(0, errors.New("no library"))); err == nil {
		t.Error("a failing count gave a device")
	}
}
