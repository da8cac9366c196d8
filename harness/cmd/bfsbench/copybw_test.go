package main

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/cuda"
)

// fakeCopies is a copy timer of known throughputs: pinned copies at 50
// GB/s, pageable at 10, device to host at half those, each of a size's
// reps a little slower than the one before (1 %, 2 %, ...); it records
// the calls and whether it was closed.
type fakeCopies struct {
	calls  map[[2]bool]int
	closed bool
	fail   int // the call that fails (0: none)
	n      int
}

func (f *fakeCopies) Time(toDevice, pinned bool, n int) (float64, error) {
	f.n++
	if f.n == f.fail {
		return 0, errors.New("cudaMemcpy(host to device): an illegal memory access was encountered")
	}
	if f.calls == nil {
		f.calls = map[[2]bool]int{}
	}
	k := [2]bool{toDevice, pinned}
	i := f.calls[k] % 11 // 0 is the untimed one of 10 reps
	f.calls[k]++
	gbs := 10.0
	if pinned {
		gbs = 50
	}
	if !toDevice {
		gbs /= 2
	}
	return float64(n) / (gbs * 1e9) * (1 + 0.01*float64(i)), nil
}

func (f *fakeCopies) Close() error { f.closed = true; return nil }

// TestMeasureCopies: each series at each size, one untimed copy then the
// reps; the median time's throughput, the slower quartile the lower.
func TestMeasureCopies(t *testing.T) {
	f := &fakeCopies{}
	sizes, err := copySizes(4096, 1<<20)
	if err != nil || len(sizes) != 9 {
		t.Fatalf("copySizes = %v, %v", sizes, err)
	}
	rows, err := measureCopies(context.Background(), f, sizes, 10)
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range f.calls {
		if n != 11*len(sizes) {
			t.Errorf("series %v: %d copies, want 11 a size", k, n)
		}
	}
	for _, tc := range []struct {
		key  string
		base float64
	}{{"h2d_pinned", 50}, {"h2d_pageable", 10}, {"d2h_pinned", 25}, {"d2h_pageable", 5}} {
		for _, r := range rows {
			p := r.Series[tc.key]
			// Reps 1..10 take 1.01..1.10 of the base time: median 1.055,
			// quartiles 1.0325 and 1.0775.
			want := copyPoint{GBs: tc.base / 1.055, Q1: tc.base / 1.0775, Q3: tc.base / 1.0325}
			if math.Abs(p.GBs-want.GBs) > 1e-9 || math.Abs(p.Q1-want.Q1) > 1e-9 || math.Abs(p.Q3-want.Q3) > 1e-9 {
				t.Errorf("%s at %d bytes: %+v, want %+v", tc.key, r.Bytes, p, want)
			}
		}
	}
	f = &fakeCopies{fail: 3}
	if _, err := measureCopies(context.Background(), f, sizes, 10); err == nil || !strings.Contains(err.Error(), "host to device, pinned, 4096 bytes: cudaMemcpy") {
		t.Errorf("a failed copy: %v", err)
	}
	for _, bad := range [][2]int{{0, 8}, {3000, 1 << 20}, {4096, 1000}, {8192, 4096}} {
		if _, err := copySizes(bad[0], bad[1]); err == nil {
			t.Errorf("copySizes(%d, %d) accepted", bad[0], bad[1])
		}
	}
}

// TestCopyBWCommand: copybw writes copybw.csv (comments, the caption, a
// row per size) and the figure; --plot redraws the figure from the CSV
// alone; without a GPU it fails with exit status 2 and says so.
func TestCopyBWCommand(t *testing.T) {
	old := openCopyTimer
	defer func() { openCopyTimer = old }()
	f := &fakeCopies{}
	openCopyTimer = func(dev, max int) (copyTimer, error) {
		if dev != 1 || max != 1<<20 {
			t.Errorf("opened device %d for %d bytes, want device 1 for 1 MiB", dev, max)
		}
		return f, nil
	}
	dir := t.TempDir()
	var out bytes.Buffer
	err := dispatch(context.Background(), []string{"copybw", "--out", dir, "--device", "1", "--reps", "10", "--max", "1048576", "--name", "fig5", "--title", "Paper, Fig. 5: copy throughput"}, &out, &out)
	if err != nil {
		t.Fatalf("copybw: %v\n%s", err, out.String())
	}
	if !f.closed {
		t.Errorf("the copy bench was not closed")
	}
	for _, name := range []string{"copybw.csv", "figure-fig5.png", "figure-fig5.svg"} {
		if !strings.Contains(out.String(), filepath.Join(dir, name)) {
			t.Errorf("copybw did not print %s:\n%s", name, out.String())
		}
	}
	rows, caption, err := readCopyCSV(filepath.Join(dir, "copybw.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 9 || rows[0].Bytes != 4096 || rows[8].Bytes != 1<<20 {
		t.Errorf("CSV rows %+v", rows)
	}
	if !strings.Contains(caption, "device 1") || !strings.Contains(caption, "median of 10 copies") {
		t.Errorf("caption %q", caption)
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "figure-fig5.svg"))
	for _, want := range []string{"host to device, pinned", "device to host, pageable", "4 KiB", "1 MiB", "GB/s", "Fig. 5"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("figure lacks %q", want)
		}
	}
	// Redrawn from the CSV alone, elsewhere.
	redraw := t.TempDir()
	out.Reset()
	if err := dispatch(context.Background(), []string{"copybw", "--plot", filepath.Join(dir, "copybw.csv"), "--out", redraw, "--name", "fig5"}, &out, &out); err != nil {
		t.Fatalf("copybw --plot: %v", err)
	}
	if _, err := os.Stat(filepath.Join(redraw, "figure-fig5.png")); err != nil {
		t.Errorf("--plot drew no figure: %v", err)
	}
	// Errors: no GPU, bad arguments, a CSV of something else.
	openCopyTimer = func(int, int) (copyTimer, error) {
		return nil, errors.New("no usable GPU on this machine (copybw measures one): cudaGetDeviceCount: no CUDA-capable device is detected")
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("N,cpu_encode_mvals\n16,1\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"copybw", "--out", t.TempDir()}, "copybw: no usable GPU"},
		{[]string{"copybw"}, "give --out"},
		{[]string{"copybw", "--out", dir, "--min", "3000"}, "powers of two"},
		{[]string{"copybw", "--out", dir, "--reps", "0"}, "--reps"},
		{[]string{"copybw", "--plot", bad}, "want copybw's"},
	} {
		err := dispatch(context.Background(), tc.args, &out, &out)
		if code := exitCode(context.Background(), err); code != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: exit %d, %v; want 2 and %q", tc.args, code, err, tc.want)
		}
	}
}

// TestCopyBWNoGPU: where the machine has no GPU, the real copy bench
// fails naming what is missing (on a GPU machine there is nothing to
// check).
func TestCopyBWNoGPU(t *testing.T) {
	if rt, err := cuda.LoadRuntime(); err == nil {
		if n, err := rt.DeviceCount(); err == nil && n > 0 {
			t.Skip("this machine has a GPU")
		}
	}
	_, err := openCopyTimer(0, 4096)
	if err == nil || !(strings.Contains(err.Error(), "no CUDA runtime") || strings.Contains(err.Error(), "no usable GPU") || strings.Contains(err.Error(), "no GPU")) {
		t.Errorf("no GPU: %v", err)
	}
}
