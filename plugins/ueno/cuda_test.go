package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/harness/vlq"
	"github.com/bfsbench/bfsbench/plugins/ueno/ubfs"
)

// needCUDA skips the test where the CUDA backend cannot run.
func needCUDA(t *testing.T) { sdktest.NeedCUDA(t, ubfs.DeviceCount) }

// TestCUDAMatchesCPU checks that CUDA searches validate and have the CPU
// backend's frontier per level.
func TestCUDAMatchesCPU(t *testing.T) {
	needCUDA(t)
	for _, grid := range [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}} {
		for _, params := range []map[string]any{
			{}, {pPreset: presetPaper}, {pCompression: false, pSVUpdate: ubfs.SVTestAndSet},
			{pSVUpdate: ubfs.SVTestSet}, {pEdgeBuffer: int64(64), pFoldChunk: int64(5), pAlpha: 1.0},
			{pGather: ubfs.GatherSplit, pEdgeBuffer: int64(100), pExchange: "host"},
			{pExchange: "host"},
		} {
			name := fmt.Sprintf("%dx%d/%v", grid[0], grid[1], params)
			t.Run(name, func(t *testing.T) {
				matchCPU(t, sdktest.NewGraph(t, 14, 16, 4), grid, params)
			})
		}
	}
}

// matchCPU searches g on the grid with params on both backends and checks
// that the CUDA searches validate and have the CPU's frontier per level.
func matchCPU(t *testing.T, g *sdktest.Graph, grid [2]int, params map[string]any) {
	t.Helper()
	full, err := plugin{}.Info().CheckParams(params)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sdk.Config{Params: full, Ranks: grid[0] * grid[1], Grid: grid, Backend: sdk.BackendCPU}
	cpu := searchAll(t, cfg, g)
	cfg.Backend = sdk.BackendCUDA
	gpu := searchAll(t, cfg, g)
	for k := range cpu {
		if a, b := levelShape(cpu[k]), levelShape(gpu[k]); !slices.Equal(a, b) {
			t.Errorf("search %d: CPU frontiers %v, CUDA %v", k, a, b)
		}
	}
}

// TestCUDAVLQMatchesGo checks that bfsb_vlq.cuh's encoder writes the Go
// codec's bytes (width 32) and its decoder reads them back, for value
// ranges from 1 byte to 5 and for lengths around group boundaries.
func TestCUDAVLQMatchesGo(t *testing.T) {
	needCUDA(t)
	rng := rand.New(rand.NewPCG(4, 5))
	for _, n := range []int{0, 1, 4, 31, 32, 33, 1000, 1 << 20} {
		for _, bitsMax := range []int{7, 14, 21, 28, 32} {
			vals := make([]uint32, n)
			for i := range vals {
				vals[i] = uint32(rng.Uint64() >> (64 - 1 - rng.IntN(bitsMax)))
			}
			if n == 4 {
				vals = []uint32{3, 123456, 80, 300}
			}
			want := vlq.Append(nil, vals, vlq.WarpWidth)
			got, _, err := ubfs.VLQEncodeGPU(0, vals, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("n %d, %d bits: GPU coded %d bytes, Go %d (first difference at %d)", n, bitsMax, len(got), len(want), firstDiff(got, want))
			}
			dec, _, err := ubfs.VLQDecodeGPU(0, want, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dec, vals) {
				t.Fatalf("n %d, %d bits: GPU decoding differs", n, bitsMax)
			}
			if n > 1 {
				if _, _, err := ubfs.VLQDecodeGPU(0, want[:len(want)-1], n, 1); err == nil {
					t.Fatalf("n %d: truncated stream decoded without an error", n)
				}
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestCUDACaseInfo checks the bandwidth and that both floors were measured.
func TestCUDACaseInfo(t *testing.T) {
	needCUDA(t)
	info := sdktest.CheckCUDACaseInfo(t, plugin{}, map[string]any{pFloorReps: int64(5)})
	flat, _ := info["flat_floor_ms"].(float64)
	gather, _ := info["gather_floor_ms"].(float64)
	if flat <= 0 || gather <= 0 {
		t.Fatalf("floor %v ms, gathering floor %v ms: want both > 0", flat, gather)
	}
	t.Logf("gathering floor %.3g ms", gather)
}

// TestCUDALongLists checks the fused kernel's queue of long lists
// (HugeKernel, lists of 4096 edges or more): a Kronecker graph with a
// vertex joined to 20 000 others, whose list stays longer than that on
// every rank of these grids, searched on the GPU and the CPU.
func TestCUDALongLists(t *testing.T) {
	needCUDA(t)
	const scale, hub, spokes = 15, 7, 20000
	edges := graph500.Generate(scale, 8, sdktest.DefaultSeed)
	for v := int64(1); v <= spokes; v++ {
		edges = append(edges, graph500.Edge{V0: hub, V1: (hub + v*13) % (1 << scale)})
	}
	g := sdktest.GraphOf(t, edges, 1<<scale, 4)
	for _, grid := range [][2]int{{1, 1}, {2, 1}, {1, 2}} {
		for _, params := range []map[string]any{{}, {pSVUpdate: ubfs.SVTestAndSet}, {pSVUpdate: ubfs.SVTestSet}} {
			t.Run(fmt.Sprintf("%dx%d/%v", grid[0], grid[1], params), func(t *testing.T) {
				matchCPU(t, g, grid, params)
			})
		}
	}
}
