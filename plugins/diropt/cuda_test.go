package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/plugins/diropt/dobfs"
)

// TestMain points the CUDA loader at the repository's lib/.
func TestMain(m *testing.M) {
	sdktest.UseRepoLib()
	os.Exit(m.Run())
}

// needCUDA skips the test where the CUDA backend cannot run.
func needCUDA(t *testing.T) { sdktest.NeedCUDA(t, dobfs.DeviceCount) }

// levelShape is one search's level structure: per level the frontier size
// and the direction.
func levelShape(s sdk.Search) []string {
	var out []string
	for _, ph := range s.Phases {
		if ph.Frontier == 0 {
			continue // the WritePred entry after the levels
		}
		dir := dobfs.PhaseExploreTD
		if _, ok := ph.Times[dobfs.PhaseExploreBU]; ok {
			dir = dobfs.PhaseExploreBU
		}
		out = append(out, fmt.Sprintf("%d:%s", ph.Frontier, dir))
	}
	return out
}

// TestCUDAMatchesCPU checks that the CUDA backend's searches validate and
// have the CPU backend's level structure (levels, vertices per level and,
// since the switching rule sees the same counts, the same directions).
func TestCUDAMatchesCPU(t *testing.T) {
	needCUDA(t)
	for _, grid := range [][2]int{{1, 1}, {2, 2}} {
		for _, params := range []map[string]any{
			{}, {pPreset: presetPaper}, {pMode: dobfs.ModeTopDown}, {pMode: dobfs.ModeBottomUp},
			{pBUSerial: int64(1), pTDBig: int64(32), pWritePred: dobfs.WritePredLevel},
		} {
			for _, sc := range [][2]int{{12, 16}, {16, 16}} {
				name := fmt.Sprintf("%dx%d/scale%d-ef%d/%v", grid[0], grid[1], sc[0], sc[1], params)
				t.Run(name, func(t *testing.T) {
					g := sdktest.NewGraph(t, sc[0], sc[1], 4)
					full, err := plugin{}.Info().CheckParams(params)
					if err != nil {
						t.Fatal(err)
					}
					cfg := sdk.Config{Params: full, Ranks: grid[0] * grid[1], Grid: grid}
					cfg.Backend = sdk.BackendCPU
					cpu := searchAll(t, cfg, g)
					cfg.Backend = sdk.BackendCUDA
					gpu := searchAll(t, cfg, g)
					for k := range cpu {
						a, b := levelShape(cpu[k]), levelShape(gpu[k])
						if fmt.Sprint(a) != fmt.Sprint(b) {
							t.Errorf("search %d: CPU levels %v, CUDA levels %v", k, a, b)
						}
						if grid == [2]int{1, 1} && gpu[k].TimeS <= 0 {
							t.Errorf("search %d: CUDA time %v, want the events' time", k, gpu[k].TimeS)
						}
					}
				})
			}
		}
	}
}

// TestCUDACaseInfo checks the bandwidth and the measured floor.
func TestCUDACaseInfo(t *testing.T) {
	needCUDA(t)
	sdktest.CheckCUDACaseInfo(t, plugin{}, nil)
}

// needDeviceExchange skips the test where the device path of the exchanges
// cannot run (fewer than two GPUs, or no NCCL), unless BFSBENCH_REQUIRE
// names nccl.
func needDeviceExchange(t *testing.T) {
	t.Helper()
	needCUDA(t)
	if _, _, err := comm.SelectExchange(comm.ExchangeDevice, true, 2, 2); err != nil {
		if slices.Contains(strings.Split(os.Getenv("BFSBENCH_REQUIRE"), ","), "nccl") {
			t.Fatalf("device exchange required: %v", err)
		}
		t.Skip("no device exchange here: ", err, " (set BFSBENCH_REQUIRE=nccl to make this a failure)")
	}
}

// TestCUDADeviceExchange checks the device path of the 2D exchanges (NCCL
// between two GPUs): every search validates and has the host path's level
// structure, on 1×2 and 2×1, blocks aligned and not, WritePred at the end
// and per level.
func TestCUDADeviceExchange(t *testing.T) {
	needDeviceExchange(t)
	for _, grid := range [][2]int{{1, 2}, {2, 1}} {
		for _, drop := range []int64{0, 7} {
			for _, wp := range []string{dobfs.WritePredEnd, dobfs.WritePredLevel} {
				name := fmt.Sprintf("%dx%d/drop%d/%s", grid[0], grid[1], drop, wp)
				t.Run(name, func(t *testing.T) {
					g := sdktest.NewGraph(t, 14, 16, 3)
					if drop > 0 {
						g = g.Truncated(t, drop)
					}
					full, err := plugin{}.Info().CheckParams(map[string]any{pWritePred: wp, pExchange: comm.ExchangeHost})
					if err != nil {
						t.Fatal(err)
					}
					cfg := sdk.Config{Backend: sdk.BackendCUDA, Params: full, Ranks: 2, Grid: grid}
					host := searchAll(t, cfg, g)
					full[pExchange] = comm.ExchangeDevice
					dev := searchAll(t, cfg, g)
					for k := range host {
						a, b := levelShape(host[k]), levelShape(dev[k])
						if fmt.Sprint(a) != fmt.Sprint(b) {
							t.Errorf("search %d: host-path levels %v, device-path levels %v", k, a, b)
						}
					}
				})
			}
		}
	}
}
