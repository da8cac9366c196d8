package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/plugins/merrill/mgbfs"
)

// TestMain points the CUDA loader at the repository's lib/.
func TestMain(m *testing.M) {
	sdktest.UseRepoLib()
	os.Exit(m.Run())
}

// needCUDA skips the test where the CUDA backend cannot run.
func needCUDA(t *testing.T) { sdktest.NeedCUDA(t, mgbfs.DeviceCount) }

// TestGatherSelfTest checks bfsb_gather.cuh on the device.
func TestGatherSelfTest(t *testing.T) {
	needCUDA(t)
	for _, n := range []int64{1, 200, 5000, 100000} {
		if err := mgbfs.GatherSelfTest(0, n); err != nil {
			t.Errorf("n = %d: %v", n, err)
		}
	}
}

// TestCUDAMatchesCPU checks that the CUDA backend's level structure
// (frontier and edges examined per level) is the CPU backend's.
func TestCUDAMatchesCPU(t *testing.T) {
	needCUDA(t)
	for _, params := range []map[string]any{
		{}, {pPreset: presetPaper}, {pGPUs: int64(2)}, {pGPUs: int64(2), pOverlap: false},
		{pGPUs: int64(3), pGather: mgbfs.GatherThread}, {pExpand: mgbfs.ExpandContract},
		{pGPUs: int64(2), pExpand: mgbfs.ExpandContract},
	} {
		for _, sc := range [][2]int{{12, 16}, {16, 16}} {
			t.Run(fmt.Sprintf("scale%d-ef%d/%v", sc[0], sc[1], params), func(t *testing.T) {
				g := sdktest.NewGraph(t, sc[0], sc[1], 4)
				full, err := plugin{}.Info().CheckParams(params)
				if err != nil {
					t.Fatal(err)
				}
				cfg := sdk.Config{Params: full, Ranks: 1, Backend: sdk.BackendCPU}
				cpu := searchAll(t, cfg, g)
				cfg.Backend = sdk.BackendCUDA
				gpu := searchAll(t, cfg, g)
				for k := range cpu {
					for l := range cpu[k].Phases {
						a, b := cpu[k].Phases[l], gpu[k].Phases[l]
						if a.Frontier != b.Frontier || a.Bytes[mgbfs.CountEdgesExamined] != b.Bytes[mgbfs.CountEdgesExamined] {
							t.Errorf("search %d level %d: CPU %d/%d, CUDA %d/%d", k, l, a.Frontier,
								a.Bytes[mgbfs.CountEdgesExamined], b.Frontier, b.Bytes[mgbfs.CountEdgesExamined])
						}
					}
				}
			})
		}
	}
}

// TestCUDACaseInfo checks the bandwidth and the measured floor.
func TestCUDACaseInfo(t *testing.T) {
	needCUDA(t)
	sdktest.CheckCUDACaseInfo(t, plugin{}, nil)
}

// TestPeerAccessError checks that peer = access fails clearly, not
// silently, where it cannot work (reported; skipped with one device).
func TestPeerAccessError(t *testing.T) {
	needCUDA(t)
	n, _ := mgbfs.DeviceCount()
	if n < 2 {
		t.Skip("one device: partitions share it, access is always possible")
	}
	g := sdktest.NewGraph(t, 10, 16, 1)
	full, _ := plugin{}.Info().CheckParams(map[string]any{pGPUs: int64(2), pPeer: mgbfs.PeerAccess})
	v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCUDA, Params: full, Ranks: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err = v.Construct(g.Workload()); err != nil {
		t.Logf("peer access unavailable, with a clear error: %v", err)
	}
}
