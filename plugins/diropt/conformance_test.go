package main

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
)

// TestConformance runs the shared conformance suite (every backend the
// plugin declares; CUDA skips itself where no GPU or library is present)
// over 1×1 and 2D grids and both presets.
func TestConformance(t *testing.T) {
	sdktest.Run(t, plugin{}, sdktest.Options{
		Grids:  [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}},
		Params: []map[string]any{{}, {pPreset: presetPaper, pWritePred: "level"}},
	})
}
