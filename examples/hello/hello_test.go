package main

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
)

// TestConformance runs the suite every variant's tests call: the plugin
// driven the way the harness drives it, on several Graph500 graphs, every
// search validated, its level structure compared with a serial BFS's and
// its level count (sdk.Search.Levels) with the tree's, searches repeated
// (state left from the last one), parent buffers poisoned, Close.
func TestConformance(t *testing.T) {
	sdktest.Run(t, plugin{}, sdktest.Options{
		Scales:      []int{6, 10, 12},
		EdgeFactors: []int{4, 16},
		Params:      []map[string]any{{}, {"phases": false}},
	})
}
