package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestGatherEmulated checks the shared gather (bfsb_gather.cuh) on the host:
// cuda/emu/gather_emu.cpp, compiled with g++ against an emulation of the
// CUDA names it uses (one thread per CUDA thread, barriers for the block
// and warp synchronisation). Skipped without a g++ that has C++20's
// <barrier>; where it has, a build failure of the emulation fails.
func TestGatherEmulated(t *testing.T) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++")
	}
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.cpp")
	if err := os.WriteFile(probe, []byte("#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gxx, "-std=c++20", "-pthread", probe, "-o", filepath.Join(dir, "probe")).CombinedOutput(); err != nil {
		t.Skipf("g++ has no C++20 <barrier>: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "gather_emu")
	build := exec.Command(gxx, "-std=c++20", "-O1", "-pthread", "-Icuda/emu", "-I../../harness/cuda/include",
		"cuda/emu/gather_emu.cpp", "-o", bin)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("g++ cannot build the emulation: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a broken gather may loop forever
	defer cancel()
	out, err := exec.CommandContext(ctx, bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("%s", out)
}
