package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestGatherEmulated checks the shared gather (bfsb_gather.cuh) on the host:
// cuda/emu/gather_emu.cpp, compiled with g++ against an emulation of the
// CUDA names it uses (one thread per CUDA thread, barriers for the block
// and warp synchronisation). Skipped without a C++20 g++.
func TestGatherEmulated(t *testing.T) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++")
	}
	bin := filepath.Join(t.TempDir(), "gather_emu")
	build := exec.Command(gxx, "-std=c++20", "-O1", "-pthread", "-Icuda/emu", "-I../../harness/cuda/include",
		"cuda/emu/gather_emu.cpp", "-o", bin)
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("g++ cannot build the emulation (C++20 <barrier> needed): %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a broken gather may loop forever
	defer cancel()
	out, err := exec.CommandContext(ctx, bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("%s", out)
}
