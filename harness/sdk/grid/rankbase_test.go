package grid

import (
	"errors"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

type fakeRank struct {
	closed  int
	parents error
}

func (f *fakeRank) Parents([]int64) error { return f.parents }
func (f *fakeRank) Close() error          { f.closed++; return nil }

func TestRankBase(t *testing.T) {
	comms, err := comm.NewLocal(1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := comm.NewGrid(comms[0], 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	b := RankBase[*fakeRank]{Cfg: sdk.Config{Backend: sdk.BackendCUDA}, Grid: g}
	if b.Built() {
		t.Error("Built before the rank is set")
	}
	if err := b.Parents(nil); err == nil {
		t.Error("Parents before construct: no error")
	}
	if d := b.Devices(); d != nil {
		t.Errorf("Devices without a GPU: %v", d)
	}
	r := &fakeRank{parents: errors.New("from the rank")}
	b.Rank, b.Device, b.DevOrd, b.Info = r, "cuda:3 X", 3, map[string]any{}
	if err := b.Parents(nil); err == nil || err.Error() != "from the rank" {
		t.Errorf("Parents: %v, want the rank's error", err)
	}
	if d := b.Devices(); len(d) != 1 || d[0] != "cuda:3 X" {
		t.Errorf("Devices: %v", d)
	}
	calls := 0
	measure := func(dev int) (float64, error) {
		calls++
		if dev != 3 {
			t.Errorf("measured device %d, want 3", dev)
		}
		return 4000, nil
	}
	b.NoteCopyBandwidth(measure)
	b.NoteCopyBandwidth(measure) // once per case
	if calls != 1 || b.Info[sdk.InfoCopyBandwidthGBs] != 4000.0 {
		t.Errorf("%d measurements, info %v", calls, b.Info)
	}
	cpu := RankBase[*fakeRank]{Cfg: sdk.Config{Backend: sdk.BackendCPU}, Info: map[string]any{}}
	cpu.NoteCopyBandwidth(measure)
	if calls != 1 {
		t.Error("measured a CPU case's bandwidth")
	}
	failing := RankBase[*fakeRank]{Cfg: sdk.Config{Backend: sdk.BackendCUDA}, Info: map[string]any{}}
	failing.NoteCopyBandwidth(func(int) (float64, error) { return 0, errors.New("no device") })
	if failing.Info["device_copy_error"] != "no device" {
		t.Errorf("failure not recorded: %v", failing.Info)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if r.closed != 1 || b.Built() || b.Grid != nil {
		t.Errorf("after Close: rank closed %d times, built %v, grid %v", r.closed, b.Built(), b.Grid)
	}
	if err := b.Close(); err != nil || r.closed != 1 {
		t.Errorf("second Close: %v, rank closed %d times", err, r.closed)
	}
}
