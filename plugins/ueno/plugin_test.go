package main

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/plugins/ueno/ubfs"
)

func TestPresets(t *testing.T) {
	for _, tc := range []struct {
		params map[string]any
		alpha  float64
		sv     string
		buf    int
		gather string
	}{
		{nil, 0, ubfs.SVTestTestAndSet, 1 << 24, ubfs.GatherFused},
		{map[string]any{pPreset: presetPaper}, 1.0 / 16, ubfs.SVTestTestAndSet, 1 << 20, ubfs.GatherSplit},
		{map[string]any{pPreset: presetPaper, pSVUpdate: ubfs.SVTestAndSet, pEdgeBuffer: int64(64), pGather: ubfs.GatherFused}, 1.0 / 16, ubfs.SVTestAndSet, 64, ubfs.GatherFused},
		{map[string]any{pPreset: presetPaper, pAlpha: 0.5}, 0.5, ubfs.SVTestTestAndSet, 1 << 20, ubfs.GatherSplit},
	} {
		params, err := plugin{}.Info().CheckParams(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		o := parseOptions(sdk.Config{Params: params})
		if o.Alpha != tc.alpha {
			t.Errorf("%v: alpha %v, want %v", tc.params, o.Alpha, tc.alpha)
		}
		if o.SVUpdate != tc.sv || o.EdgeBuffer != tc.buf || o.GatherFilter != tc.gather {
			t.Errorf("%v: sv_update %s, edge_buffer %d, gather_filter %s; want %s, %d, %s", tc.params, o.SVUpdate, o.EdgeBuffer, o.GatherFilter, tc.sv, tc.buf, tc.gather)
		}
	}
}
