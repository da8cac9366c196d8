package main

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/plugins/ueno/ubfs"
)

func TestPresets(t *testing.T) {
	for _, tc := range []struct {
		params map[string]any
		sv     string
		buf    int
		gather string
	}{
		{nil, ubfs.SVTestTestAndSet, 1 << 24, ubfs.GatherFused},
		{map[string]any{pPreset: presetPaper}, ubfs.SVTestTestAndSet, 1 << 20, ubfs.GatherSplit},
		{map[string]any{pPreset: presetPaper, pSVUpdate: ubfs.SVTestAndSet, pEdgeBuffer: int64(64), pGather: ubfs.GatherFused}, ubfs.SVTestAndSet, 64, ubfs.GatherFused},
	} {
		o, err := parseOptions(sdk.Config{Params: tc.params})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]float64{presetPaper: 1.0 / 16, presetTuned: 0}[o.Preset]; o.Alpha != want {
			t.Errorf("%v: alpha %v, want the preset's %v", tc.params, o.Alpha, want)
		}
		if o.SVUpdate != tc.sv || o.EdgeBuffer != tc.buf || o.GatherFilter != tc.gather {
			t.Errorf("%v: sv_update %s, edge_buffer %d, gather_filter %s; want %s, %d, %s", tc.params, o.SVUpdate, o.EdgeBuffer, o.GatherFilter, tc.sv, tc.buf, tc.gather)
		}
	}
}
