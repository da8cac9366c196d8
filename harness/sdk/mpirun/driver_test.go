package mpirun

// driver_test.go: the mpirun control protocol (rank 0's driver and the
// follower loop) run over the in-process communicator, with the toy ranks
// of package ranktest.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/internal/rank"
	"github.com/bfsbench/bfsbench/harness/sdk/internal/rank/ranktest"
)

// ----- The mpirun protocol over the in-process communicator -----

// localJob is an mpirun job simulated in process: rank 0's driver and the
// followers' loops, each over its own control communicator.
type localJob struct {
	comms    []comm.Comm
	sessions []*mpiSession
	errs     []error
	wg       sync.WaitGroup
}

func startLocalJob(t *testing.T, n int, newRank rank.New) *localJob {
	t.Helper()
	comms, err := comm.NewLocal(n)
	if err != nil {
		t.Fatal(err)
	}
	j := &localJob{comms: comms, sessions: make([]*mpiSession, n), errs: make([]error, n)}
	err = comm.RunRanks(comms, func(c comm.Comm) error {
		ctl, err := c.Split(0, c.Rank())
		j.sessions[c.Rank()] = &mpiSession{world: c, ctl: ctl}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r < n; r++ {
		j.wg.Add(1)
		go func() {
			defer j.wg.Done()
			f := &follower{s: j.sessions[r], newRank: func(sdk.Config) (rank.New, error) { return newRank, nil }}
			if err := f.run(); err != nil {
				j.errs[r] = err
				comms[r].Abort(err) // as mpi.go does
			}
		}()
	}
	return j
}

// wait waits for the followers (after quit, or an abort).
func (j *localJob) wait(t *testing.T) {
	t.Helper()
	done := make(chan struct{})
	go func() { j.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("followers did not exit")
	}
}

func TestMPIProtocolRunsEveryRank(t *testing.T) {
	for _, scatter := range []bool{false, true} {
		t.Run(fmt.Sprintf("scatter=%v", scatter), func(t *testing.T) {
			const ranks = 4
			tw := ranktest.NewWorld()
			j := startLocalJob(t, ranks, tw.NewRank)
			cfg := ranktest.Config
			cfg.Ranks, cfg.Launcher = ranks, sdk.LauncherMPIRun
			d, err := newDriver(j.sessions[0], cfg, tw.NewRank)
			if err != nil {
				t.Fatal(err)
			}
			w := ranktest.Graph()
			if scatter { // a graph file: followers get their edges from rank 0
				w.Graph.File, w.Graph.Scale, w.Graph.EdgeFactor = "toy.el", 0, 0
			}
			ranktest.CheckRun(t, d, tw, ranks, w)
			j.wait(t) // Close sent quit
			for r, err := range j.errs {
				if err != nil {
					t.Errorf("follower %d: %v", r, err)
				}
			}
			if !j.sessions[0].done {
				t.Error("rank 0's session not finished after Close")
			}
		})
	}
}

func TestMPIProtocolRejectsWrongRankCount(t *testing.T) {
	tw := ranktest.NewWorld()
	j := startLocalJob(t, 2, tw.NewRank)
	if _, err := newDriver(j.sessions[0], sdk.Config{Ranks: 3, Params: ranktest.Config.Params}, tw.NewRank); err == nil {
		t.Fatal("3 ranks accepted in a 2-rank job")
	}
	j.comms[0].Abort(errors.New("test over"))
	j.wait(t)
}

// A failure that every rank gets past is reported with its rank; the job
// stays usable for Close, and the followers exit cleanly.
func TestMPIProtocolReportsLateFailures(t *testing.T) {
	for _, failRank := range []int{0, 2} {
		t.Run(fmt.Sprint(failRank), func(t *testing.T) {
			tw := ranktest.NewWorld()
			tw.FailRank, tw.FailMethod, tw.FailWhen = failRank, "bfs", "late"
			j := startLocalJob(t, 4, tw.NewRank)
			d, err := newDriver(j.sessions[0], sdk.Config{Ranks: 4, Params: ranktest.Config.Params}, tw.NewRank)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Construct(ranktest.Graph()); err != nil {
				t.Fatal(err)
			}
			_, err = d.BFS(3)
			if !strings.Contains(fmt.Sprint(err), fmt.Sprintf("rank %d: boom", failRank)) {
				t.Fatalf("got %v", err)
			}
			if _, err := d.BFS(3); err == nil || !strings.Contains(err.Error(), "failed earlier") {
				t.Errorf("call after failure: %v", err)
			}
			if err := d.Close(); err != nil { // the failure was reported already
				t.Errorf("Close after a reported failure: %v", err)
			}
			for r := range 4 {
				if !tw.Closed[r] {
					t.Errorf("rank %d not closed", r)
				}
			}
			j.wait(t)
			for r, err := range j.errs {
				if err != nil {
					t.Errorf("follower %d: %v", r, err)
				}
			}
		})
	}
}

// A rank that fails while the others wait for it in an exchange: after
// FailureGrace the job is aborted instead of hanging.
func TestMPIProtocolAbortsStuckJobs(t *testing.T) {
	old, oldWords := FailureGrace, lastWords
	FailureGrace = 300 * time.Millisecond
	var words bytes.Buffer
	lastWords = &words
	defer func() { FailureGrace, lastWords = old, oldWords }()
	for _, failRank := range []int{0, 2} {
		t.Run(fmt.Sprint(failRank), func(t *testing.T) {
			tw := ranktest.NewWorld()
			tw.FailRank, tw.FailMethod, tw.FailWhen = failRank, "bfs", "early"
			j := startLocalJob(t, 4, tw.NewRank)
			d, err := newDriver(j.sessions[0], sdk.Config{Ranks: 4, Params: ranktest.Config.Params}, tw.NewRank)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Construct(ranktest.Graph()); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := d.BFS(3); done <- err }()
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("rank 0 hung")
			}
			if err == nil {
				t.Fatal("no error")
			}
			if failRank == 0 && !errors.Is(err, ranktest.ErrBoom) {
				t.Errorf("rank 0's own failure not reported: %v", err)
			}
			j.wait(t)
			if failRank == 2 && !errors.Is(j.errs[2], errStuck) {
				t.Errorf("follower 2: %v, want it to give up waiting", j.errs[2])
			}
			if err := d.Close(); err == nil {
				t.Error("Close of an aborted job reported nothing")
			}
			// The abort's explanation goes to descriptor 2 (lastWords), which
			// MPI_Abort cannot cut off, not to go-plugin's forwarded os.Stderr.
			if failRank == 2 && !strings.Contains(words.String(), "aborting the MPI job") {
				t.Errorf("abort explained %q, want the line on lastWords", words.String())
			}
		})
	}
}
