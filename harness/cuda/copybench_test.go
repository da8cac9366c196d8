package cuda

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stubRuntimeC is a libcudart without a GPU for the runtime's bindings:
// "device memory" is host memory, events read the clock, and cudaMemcpy
// copies and then waits 1 ns a byte (a 1 GB/s link), so that a timed copy
// can be checked for its bytes and, loosely, for its time. STUB_DEVICES
// sets the device count; a negative value fails like a machine without a
// driver.
const stubRuntimeC = `
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static void wait_ns(double ns) { double end = now() + ns / 1e6; while (now() < end) {} }
typedef struct { double ms; int recorded; } event;
int cudaSetDevice(int d) { return 0; }
int cudaGetDeviceCount(int* n) {
  const char* s = getenv("STUB_DEVICES");
  int k = s ? atoi(s) : 1;
  if (k < 0) return 35;
  *n = k;
  return 0;
}
int cudaDeviceGetPCIBusId(char* b, int n, int d) { strncpy(b, "0000:00:00.0", n); return 0; }
int cudaStreamCreateWithFlags(void** s, unsigned f) { *s = malloc(1); return 0; }
int cudaStreamDestroy(void* s) { free(s); return 0; }
int cudaStreamQuery(void* s) { return 0; }
int cudaStreamWaitEvent(void* s, void* e, unsigned f) { return 0; }
int cudaEventCreateWithFlags(void** e, unsigned f) { *e = calloc(1, sizeof(event)); return 0; }
int cudaEventRecord(event* e, void* s) { e->ms = now(); e->recorded = 1; return 0; }
int cudaEventQuery(event* e) { return 0; }
int cudaEventSynchronize(event* e) { return e->recorded ? 0 : 400; }
int cudaEventElapsedTime(float* ms, event* a, event* b) {
  if (!a->recorded || !b->recorded) return 400;
  *ms = (float)(b->ms - a->ms);
  return 0;
}
int cudaEventDestroy(event* e) { free(e); return 0; }
int cudaMalloc(void** p, uint64_t n) { *p = malloc(n); return *p ? 0 : 2; }
int cudaFree(void* p) { free(p); return 0; }
int cudaHostAlloc(void** p, uint64_t n, unsigned f) { *p = malloc(n); return *p ? 0 : 2; }
int cudaFreeHost(void* p) { free(p); return 0; }
int cudaMemcpy(void* d, const void* s, uint64_t n, int kind) {
  if (kind != 1 && kind != 2) return 21;
  memcpy(d, s, n);
  wait_ns((double)n);
  return 0;
}
int cudaMemcpyAsync(void* d, const void* s, uint64_t n, int kind, void* st) { memcpy(d, s, n); return 0; }
const char* cudaGetErrorName(int e) { return e == 35 ? "cudaErrorInsufficientDriver" : "cudaErrorStub"; }
const char* cudaGetErrorString(int e) { return e == 35 ? "CUDA driver version is insufficient for CUDA runtime version" : "stub error"; }
`

// stubRuntime builds stubRuntimeC as dir/libcudart.so.13 and loads it.
func stubRuntime(t *testing.T) *Runtime {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) to build the stub runtime")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "cudart.c")
	if err := os.WriteFile(src, []byte(stubRuntimeC), 0o644); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "libcudart.so.13")
	if b, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, b)
	}
	rt, err := loadRuntimeFrom([]string{"libcudart.so.13"}, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if rt.Path != lib {
		t.Fatalf("loaded %s, want the stub %s", rt.Path, lib)
	}
	return rt
}

// TestCopyBench: each direction and kind of host memory moves the bytes
// asked for, between the buffers named, in the time between the events
// around the copy (the stub's link is 1 GB/s: never faster); a size past
// the buffers and a missing device are errors.
func TestCopyBench(t *testing.T) {
	rt := stubRuntime(t)
	const max = 1 << 20
	b, err := rt.NewCopyBench(0, max)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, pinned := range []bool{true, false} {
		h := b.Host(pinned)
		if len(h) != max {
			t.Fatalf("pinned = %v: host buffer of %d bytes, want %d", pinned, len(h), max)
		}
		for i := range h {
			h[i] = byte(i * 7)
		}
		want := bytes.Clone(h)
		for _, n := range []int{4096, max} {
			up, err := b.Time(true, pinned, n)
			if err != nil {
				t.Fatal(err)
			}
			clear(h) // what comes back must come from the device buffer
			down, err := b.Time(false, pinned, n)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(h[:n], want[:n]) {
				t.Errorf("pinned = %v, %d bytes: the round trip changed the bytes", pinned, n)
			}
			if n < max && h[n] != 0 {
				t.Errorf("pinned = %v, %d bytes: the copy back went past its size", pinned, n)
			}
			copy(h, want)
			for dir, s := range map[string]float64{"up": up, "down": down} {
				if gbs := float64(n) / s / 1e9; !(s > 0) || gbs > 1.05 {
					t.Errorf("pinned = %v, %d bytes %s: %g s (%g GB/s), want at least the stub link's 1 ns a byte", pinned, n, dir, s, gbs)
				}
			}
		}
	}
	if _, err := b.Time(true, true, max+1); err == nil || !strings.Contains(err.Error(), "buffers hold") {
		t.Errorf("a copy past the buffers: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := rt.NewCopyBench(1, max); err == nil || !strings.Contains(err.Error(), "found 1 device") {
		t.Errorf("device 1 of 1: %v", err)
	}
	t.Setenv("STUB_DEVICES", "-1")
	_, err = rt.NewCopyBench(0, max)
	var re *RuntimeError
	if !errors.As(err, &re) || re.Name != "cudaErrorInsufficientDriver" || !strings.Contains(err.Error(), "cudaGetDeviceCount") {
		t.Errorf("no driver: %v", err)
	}
}
