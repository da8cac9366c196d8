package main

import (
	"os"
	"testing"

	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/plugins/ueno/ubfs"
)

// TestMain points the CUDA loader at the repository's lib/.
func TestMain(m *testing.M) {
	sdktest.UseRepoLib()
	os.Exit(m.Run())
}

// TestConformance runs the shared conformance suite (every backend; CUDA
// skips itself where no GPU or library is present) over 1×1 and 2D grids,
// both presets, the Figure 9 ablation points, each SV method, and small
// buffers and chunks so that every level runs in several parts and fold
// messages.
func TestConformance(t *testing.T) {
	sdktest.Run(t, plugin{}, sdktest.Options{
		Grids: [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}},
		Params: []map[string]any{
			{},
			{pPreset: presetPaper},
			{pCompression: false, pSVUpdate: ubfs.SVTestAndSet},
			{pSVUpdate: ubfs.SVTestSet, pShareSV: false, pAlpha: 0.5},
			{pAlpha: 1.0, pEdgeBuffer: int64(32), pFoldChunk: int64(3)},
			{pGather: ubfs.GatherSplit, pEdgeBuffer: int64(100), pFoldChunk: int64(7)},
		},
	})
}
