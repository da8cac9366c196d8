package runner

import (
	"math"
	"testing"

	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

func TestPercentOfBound(t *testing.T) {
	search := func(valid bool, secs float64, bytes int64) results.Search {
		return results.Search{Valid: valid, TimeS: secs, BoundBytes: bytes}
	}
	tests := []struct {
		name string
		c    results.Case
		want float64
	}{
		{"no bandwidth reported", results.Case{BFS: []results.Search{search(true, 1, 1e9)}}, 0},
		// 2 GB in 2 s at 4 GB/s: the bound is 0.5 s, 25%.
		{"one device", results.Case{Info: map[string]any{sdk.InfoCopyBandwidthGBs: 4.0}, GPUs: 1,
			BFS: []results.Search{search(true, 1, 1e9), search(true, 1, 1e9)}}, 25},
		// Two devices halve the bound.
		{"two devices", results.Case{Info: map[string]any{sdk.InfoCopyBandwidthGBs: 4.0}, GPUs: 2,
			BFS: []results.Search{search(true, 1, 1e9), search(true, 1, 1e9)}}, 12.5},
		// Invalid searches do not count.
		{"invalid ignored", results.Case{Info: map[string]any{sdk.InfoCopyBandwidthGBs: 4.0}, GPUs: 1,
			BFS: []results.Search{search(true, 1, 1e9), search(false, 100, 0)}}, 25},
		{"a valid search without bytes", results.Case{Info: map[string]any{sdk.InfoCopyBandwidthGBs: 4.0}, GPUs: 1,
			BFS: []results.Search{search(true, 1, 1e9), search(true, 1, 0)}}, 0},
	}
	for _, tt := range tests {
		_, got := percentOfBound(&tt.c)
		if math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: %v%%, want %v%%", tt.name, got, tt.want)
		}
	}
}
