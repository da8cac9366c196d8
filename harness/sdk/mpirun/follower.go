package mpirun

// follower.go is the life of a follower rank (world rank > 0) of an mpirun
// job: wait for rank 0's commands (control.go), run each on this rank's
// sdk.RankVariant, answer with the outcome, until rank 0 says quit.

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/internal/rank"
	"github.com/bfsbench/bfsbench/harness/sdk/mpirun/internal/mpictl"
)

// follower is one follower rank.
type follower struct {
	s *mpiSession
	// newRank returns the rank constructor for cfg: in a plugin, by
	// calling its New (which calls NewDistributed, see NewVariant).
	newRank func(cfg sdk.Config) (rank.New, error)
	rv      sdk.RankVariant
}

// errStuck means a failed follower was not acknowledged in time: the job
// must be aborted.
var errStuck = errors.New("rank 0 did not acknowledge this rank's failure")

// run serves commands until quit. It returns an error when the job cannot
// go on (the caller aborts it).
func (f *follower) run() error {
	ctl := f.s.ctl
	for {
		var cmd command
		if err := mpictl.Recv(ctl, 0, tagCommand, &cmd, time.Time{}, f.s.alive); err != nil {
			return fmt.Errorf("waiting for rank 0: %w", err)
		}
		if cmd.Method == cmdQuit {
			if f.rv != nil {
				_ = f.rv.Close()
			}
			return nil
		}
		err := protect(cmd.Method, func() error { return f.do(cmd) })
		out := outcome{}
		if err != nil {
			out.Err = err.Error()
		}
		if d, ok := f.rv.(sdk.Devicer); ok {
			out.Devices = d.Devices()
		}
		// After a failure, rank 0 may be blocked waiting for this rank in
		// an exchange and never read the answer: wait only so long.
		deadline := time.Time{}
		if err != nil {
			deadline = time.Now().Add(FailureGrace)
		}
		reqs, serr := mpictl.Send(ctl, 0, tagOutcome, out)
		if serr == nil {
			serr = mpictl.WaitAll(reqs, deadline, f.s.alive)
		}
		switch {
		case serr != nil && err != nil:
			return fmt.Errorf("%s failed (%v), and %w (%v)", cmd.Method, err, errStuck, serr)
		case serr != nil:
			return fmt.Errorf("answering rank 0: %w", serr)
		}
		if err != nil {
			ack := []int64{0}
			rq, aerr := ctl.Irecv(comm.Host(ack), 0, tagAck)
			if aerr == nil {
				_, aerr = mpictl.Poll(rq, time.Now().Add(FailureGrace), f.s.alive)
			}
			if aerr != nil {
				return fmt.Errorf("%s failed (%v), and %w", cmd.Method, err, errStuck)
			}
		}
	}
}

// do runs one command on this rank.
func (f *follower) do(cmd command) error {
	if cmd.Method != cmdNew && cmd.Method != cmdClose && f.rv == nil {
		return fmt.Errorf("%s before the variant was created", cmd.Method)
	}
	switch cmd.Method {
	case cmdNew:
		if f.rv != nil {
			_ = f.rv.Close()
			f.rv = nil
		}
		newRank, err := f.newRank(cmd.Config)
		if err != nil {
			return err
		}
		rv, err := newRank(f.s.world, cmd.Config)
		f.rv = rv
		return err
	case cmdConstruct:
		w, err := f.workload(cmd)
		if err != nil {
			return err
		}
		return f.rv.Construct(w)
	case cmdBFS:
		_, err := rank.TimedBFS(f.s.world, f.rv, cmd.Root)
		return err
	case cmdParents:
		return f.rv.Parents(nil)
	case cmdClose:
		if f.rv == nil {
			return nil
		}
		err := f.rv.Close()
		f.rv = nil
		return err
	}
	return fmt.Errorf("unknown command %q from rank 0", cmd.Method)
}

// workload is this rank's share of the edge list: generated here for a
// Kronecker graph (graph500.GenerateRange), received from rank 0
// otherwise.
func (f *follower) workload(cmd command) (*sdk.Workload, error) {
	r, p := f.s.world.Rank(), f.s.world.Size()
	lo, hi := graph500.Share(cmd.NEdges, p, r)
	w := &sdk.Workload{NVertices: cmd.NVertices, NEdges: cmd.NEdges, EdgeOffset: lo, Graph: cmd.Graph}
	if cmd.Scatter {
		edges, err := mpictl.RecvEdges(f.s.ctl, 0, hi-lo, f.s.alive)
		if err != nil {
			return nil, fmt.Errorf("receiving edges from rank 0: %w", err)
		}
		w.Edges = edges
		return w, nil
	}
	if err := graph500.CheckParams(cmd.Graph.Scale, max(cmd.Graph.EdgeFactor, 1)); err != nil {
		return nil, err
	}
	w.Edges = make([]graph500.Edge, hi-lo)
	graph500.GenerateRange(cmd.Graph.Scale, cmd.Graph.Seed, lo, hi, w.Edges)
	return w, nil
}

// pluginRankFunc returns, for a follower of a plugin, the rank
// constructor the plugin's New passes to NewDistributed.
func pluginRankFunc(p sdk.Plugin) func(cfg sdk.Config) (rank.New, error) {
	return func(cfg sdk.Config) (rank.New, error) {
		captureMu.Lock() // one capture at a time in this process
		defer captureMu.Unlock()
		var got rank.New
		mpiProc.Lock()
		mpiProc.capture = &got
		mpiProc.Unlock()
		_, err := protectNew(p, cfg)
		mpiProc.Lock()
		mpiProc.capture = nil
		mpiProc.Unlock()
		if err != nil {
			return nil, err
		}
		if got == nil {
			return nil, errors.New("the plugin's New did not call grid.NewDistributed for this mpirun config")
		}
		return got, nil
	}
}

// captureMu serialises pluginRankFunc's captures.
var captureMu sync.Mutex

func protectNew(p sdk.Plugin, cfg sdk.Config) (v sdk.Variant, err error) {
	err = protect("new", func() error {
		v, err = sdk.New(p, cfg)
		return err
	})
	return v, err
}
