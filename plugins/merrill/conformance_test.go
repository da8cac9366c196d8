package main

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
)

// TestConformance runs the shared conformance suite on every backend the
// plugin declares (CUDA skips itself where no GPU or library is present,
// unless BFSBENCH_REQUIRE=cuda), over 1, 2 and 3 partitions, both presets
// and both expansions.
func TestConformance(t *testing.T) {
	sdktest.Run(t, plugin{}, sdktest.Options{
		Params: []map[string]any{
			{},
			{pPreset: presetPaper},
			{pGPUs: int64(2)},
			{pGPUs: int64(3), pPreset: presetPaper, pOverlap: false},
			{pGPUs: int64(2), pPeer: "access", pGather: "thread_per_vertex"},
			{pExpand: "expand_contract"},
			{pGPUs: int64(3), pExpand: "expand_contract", pGather: "thread_per_vertex"},
		},
	})
}
