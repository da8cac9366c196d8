package grid

// distributed_test.go: NewDistributed's embedded launcher, with the toy
// ranks of package ranktest, and GridShape.

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/internal/rank/ranktest"
)

func TestEmbeddedRunsEveryRank(t *testing.T) {
	for _, ranks := range []int{1, 4, 16} {
		t.Run(fmt.Sprint(ranks), func(t *testing.T) {
			tw := ranktest.NewWorld()
			cfg := ranktest.Config
			cfg.Ranks, cfg.Launcher = ranks, sdk.LauncherEmbedded
			v, err := NewDistributed(cfg, tw.NewRank)
			if err != nil {
				t.Fatal(err)
			}
			ranktest.CheckRun(t, v, tw, ranks, ranktest.Graph())
		})
	}
}

func TestEmbeddedFailureNamesTheRankAndNeverHangs(t *testing.T) {
	for _, when := range []string{"early", "late"} {
		for _, method := range []string{"construct", "bfs", "parents"} {
			t.Run(when+"/"+method, func(t *testing.T) {
				tw := ranktest.NewWorld()
				tw.FailRank, tw.FailMethod, tw.FailWhen = 2, method, when
				v, err := NewDistributed(sdk.Config{Ranks: 4, Params: ranktest.Config.Params}, tw.NewRank)
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() {
					w := ranktest.Graph()
					err := v.Construct(w)
					if err == nil {
						_, err = v.BFS(1)
					}
					if err == nil {
						err = v.Parents(make([]int64, w.NVertices))
					}
					done <- err
				}()
				select {
				case err = <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("hung")
				}
				if !errors.Is(err, ranktest.ErrBoom) || !strings.Contains(err.Error(), "rank 2") {
					t.Fatalf("got %v, want rank 2's boom", err)
				}
				if _, err := v.BFS(1); err == nil || !strings.Contains(err.Error(), "failed earlier") {
					t.Errorf("call after failure: %v", err)
				}
				v.Close()
				for r := range 4 {
					if !tw.Closed[r] {
						t.Errorf("rank %d not closed after the failure", r)
					}
				}
			})
		}
	}
}

func TestNewDistributedErrors(t *testing.T) {
	tw := ranktest.NewWorld()
	if _, err := NewDistributed(sdk.Config{Ranks: 2, Launcher: "slurm", Params: ranktest.Config.Params}, tw.NewRank); err == nil {
		t.Error("unknown launcher accepted")
	}
	if _, err := NewDistributed(sdk.Config{Ranks: 2, Params: map[string]any{}}, tw.NewRank); err == nil || !strings.Contains(err.Error(), "rank") {
		t.Errorf("a rank constructor's error: %v", err)
	}
	if _, err := NewDistributed(sdk.Config{Ranks: 2}, nil); err == nil {
		t.Error("nil constructor accepted")
	}
	// Without mpirun (and, in the default build, without MPI), a clear error.
	_, err := NewDistributed(sdk.Config{Ranks: 2, Launcher: sdk.LauncherMPIRun, Params: ranktest.Config.Params}, tw.NewRank)
	if err == nil || !(strings.Contains(err.Error(), "without MPI") || strings.Contains(err.Error(), "not started by mpirun")) {
		t.Errorf("mpirun launcher outside mpirun: %v", err)
	}
}

func TestGridShape(t *testing.T) {
	for _, tc := range []struct {
		ranks int
		grid  [2]int
		r, c  int
		bad   bool
	}{
		{1, [2]int{}, 1, 1, false},
		{2, [2]int{}, 1, 2, false},
		{8, [2]int{}, 2, 4, false},
		{16, [2]int{}, 4, 4, false},
		{7, [2]int{}, 1, 7, false},
		{4, [2]int{4, 1}, 4, 1, false},
		{4, [2]int{3, 1}, 0, 0, true},
		{0, [2]int{}, 1, 1, false},
	} {
		r, c, err := GridShape(sdk.Config{Ranks: tc.ranks, Grid: tc.grid})
		if (err != nil) != tc.bad || r != tc.r || c != tc.c {
			t.Errorf("ranks %d grid %v: %d×%d, %v", tc.ranks, tc.grid, r, c, err)
		}
	}
}
