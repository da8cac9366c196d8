package mpirun

// mpidriver.go is rank 0's side of an mpirun job (launcher = "mpirun"):
// the sdk.Variant the harness calls, which sends every call to the follower
// ranks as a command (control.go), runs rank 0's own sdk.RankVariant, and
// gathers the followers' outcomes.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/internal/rank"
	"github.com/bfsbench/bfsbench/harness/sdk/mpirun/internal/mpictl"
)

// mpiSession is this process's place in an MPI job: set up by the MPI
// build's follower hook (mpi.go) when the process runs under mpirun.
type mpiSession struct {
	world comm.Comm
	ctl   comm.Comm    // duplicate of world for control messages
	alive func() error // nil, or fails once the launcher is gone
	// finish ends MPI on rank 0 after the case (MPI_Finalize).
	finish func() error
	done   bool // the case is over (rank 0)
}

// mpiProc is set by the follower hook for a process under mpirun.
var mpiProc struct {
	sync.Mutex
	session *mpiSession
	// capture is set while a follower calls the plugin's New: NewDistributed
	// then records the rank constructor here instead of driving a job.
	capture *rank.New
}

// NewVariant is grid.NewDistributed for launcher = "mpirun": on rank 0 the
// Variant that drives the job; on a follower (while it calls the plugin's
// New) it records newRank for the follower loop and returns a placeholder.
func NewVariant(cfg sdk.Config, newRank rank.New) (sdk.Variant, error) {
	mpiProc.Lock()
	if mpiProc.capture != nil { // a follower is asking: record and return
		*mpiProc.capture = newRank
		mpiProc.Unlock()
		return followerPlaceholder{}, nil
	}
	s := mpiProc.session
	mpiProc.Unlock()
	switch {
	case !comm.MPIBuilt:
		return nil, comm.ErrNoMPI
	case s != nil && s.done:
		return nil, errors.New("sdk: this mpirun job has already served its case")
	case s == nil:
		return nil, errors.New("sdk: launcher = \"mpirun\" but this process was not started by mpirun (the harness starts it that way; or run `mpirun -np N PLUGIN`)")
	}
	return newDriver(s, cfg, newRank)
}

// followerPlaceholder is what the plugin's New returns on a follower; the
// follower loop never calls it.
type followerPlaceholder struct{}

var errPlaceholder = errors.New("sdk: internal error: follower placeholder called")

func (followerPlaceholder) Construct(*sdk.Workload) error { return errPlaceholder }
func (followerPlaceholder) BFS(int64) (sdk.Search, error) { return sdk.Search{}, errPlaceholder }
func (followerPlaceholder) Parents([]int64) error         { return errPlaceholder }
func (followerPlaceholder) Close() error                  { return nil }

// driver is rank 0's sdk.Variant in an mpirun job.
type driver struct {
	s       *mpiSession
	rv      sdk.RankVariant
	broken  error // a call failed; set until Close
	aborted bool  // the job was aborted (in-process: the world is dead)
	devices []string
}

// newDriver asks the followers to create their ranks and creates rank 0's.
func newDriver(s *mpiSession, cfg sdk.Config, newRank rank.New) (*driver, error) {
	if cfg.Ranks > 0 && cfg.Ranks != s.world.Size() {
		return nil, fmt.Errorf("sdk: the config asks for %d ranks but mpirun started %d", cfg.Ranks, s.world.Size())
	}
	d := &driver{s: s}
	err := d.call(command{Method: cmdNew, Config: cfg}, nil, func() error {
		rv, err := newRank(s.world, cfg)
		d.rv = rv
		return err
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// call runs one command on every rank: send it to the followers, run
// afterSend (e.g. send them their edges) and own on rank 0, then gather
// the outcomes. See control.go for what happens on failure.
func (d *driver) call(cmd command, afterSend, own func() error) error {
	if d.broken != nil {
		return fmt.Errorf("the distributed variant failed earlier: %w", d.broken)
	}
	ctl, p := d.s.ctl, d.s.world.Size()
	var sends []comm.Request
	for r := 1; r < p; r++ {
		reqs, err := mpictl.Send(ctl, r, tagCommand, cmd)
		if err != nil {
			return d.fail(fmt.Errorf("sending %s to rank %d: %w", cmd.Method, r, err))
		}
		sends = append(sends, reqs...)
	}
	var err0 error
	if afterSend != nil {
		err0 = protect(cmd.Method, afterSend)
	}
	if err0 == nil {
		err0 = protect(cmd.Method, own)
	}
	deadline := time.Time{}
	if err0 != nil {
		deadline = time.Now().Add(FailureGrace)
	}
	var errs []error
	if err0 != nil {
		errs = append(errs, fmt.Errorf("rank 0: %w", err0))
	}
	if err := mpictl.WaitAll(sends, deadline, d.s.alive); err != nil {
		return d.abort(errors.Join(append(errs, fmt.Errorf("sending %s: %w", cmd.Method, err))...))
	}
	var failed []int
	for r := 1; r < p; r++ {
		var out outcome
		if err := mpictl.Recv(ctl, r, tagOutcome, &out, deadline, d.s.alive); err != nil {
			return d.abort(errors.Join(append(errs, fmt.Errorf("rank %d did not finish %s: %w", r, cmd.Method, err))...))
		}
		if out.Err != "" {
			errs = append(errs, fmt.Errorf("rank %d: %s", r, out.Err))
			failed = append(failed, r)
		}
		d.devices = rank.Union(d.devices, out.Devices...)
	}
	for _, r := range failed { // release the failed followers' wait
		rq, err := ctl.Isend(comm.Host([]int64{1}), r, tagAck)
		if err == nil {
			_, err = mpictl.Poll(rq, time.Now().Add(FailureGrace), d.s.alive)
		}
		if err != nil {
			return d.abort(fmt.Errorf("acknowledging rank %d's failure: %w", r, err))
		}
	}
	if len(errs) > 0 {
		return d.fail(errors.Join(errs...))
	}
	return nil
}

// fail marks the variant broken: every rank reported, none is stuck, but
// the ranks may disagree on their state.
func (d *driver) fail(err error) error {
	d.broken = err
	return err
}

// lastWords is where rank 0 writes the line that explains an abort: this
// process's own standard error (descriptor 2), not os.Stderr. In rank 0,
// go-plugin's Serve points os.Stderr at a pipe it forwards to the harness
// from a goroutine, and MPI_Abort ends the process before that goroutine
// runs; a write to descriptor 2 has reached mpirun, which relays it to the
// harness, when it returns.
var lastWords io.Writer = os.NewFile(2, "/dev/stderr")

// abort ends the job: some rank did not answer, and may never.
func (d *driver) abort(err error) error {
	d.broken, d.aborted = err, true
	fmt.Fprintf(lastWords, "bfsbench: rank 0: %v: aborting the MPI job\n", err)
	d.s.world.Abort(err) // under MPI this does not return
	return err
}

func (d *driver) Construct(w *sdk.Workload) error {
	p := d.s.world.Size()
	if int64(len(w.Edges)) != w.NEdges || w.EdgeOffset != 0 {
		return fmt.Errorf("sdk: rank 0 needs the whole edge list (%d edges from %d), got %d", w.NEdges, w.EdgeOffset, len(w.Edges))
	}
	// Followers generate Kronecker graphs themselves; any other graph is
	// sent to them from rank 0's copy.
	scatter := w.Graph.File != "" || w.Graph.Scale <= 0 || graph500.NEdges(w.Graph.Scale, w.Graph.EdgeFactor) != w.NEdges
	cmd := command{Method: cmdConstruct, Graph: w.Graph, NVertices: w.NVertices, NEdges: w.NEdges, Scatter: scatter}
	var afterSend func() error
	if scatter {
		afterSend = func() error {
			for r := 1; r < p; r++ {
				if err := mpictl.SendEdges(d.s.ctl, r, rank.Share(w, r, p).Edges, d.s.alive); err != nil {
					return fmt.Errorf("sending rank %d its edges: %w", r, err)
				}
			}
			return nil
		}
	}
	return d.call(cmd, afterSend, func() error { return d.rv.Construct(rank.Share(w, 0, p)) })
}

func (d *driver) BFS(root int64) (sdk.Search, error) {
	var s sdk.Search
	err := d.call(command{Method: cmdBFS, Root: root}, nil, func() error {
		var err error
		s, err = rank.TimedBFS(d.s.world, d.rv, root)
		return err
	})
	return s, err
}

func (d *driver) Parents(dst []int64) error {
	return d.call(command{Method: cmdParents}, nil, func() error { return d.rv.Parents(dst) })
}

// Close closes every rank, releases the followers (they finalize MPI and
// exit) and finalizes MPI on rank 0: one mpirun job serves one case. After
// an earlier failure that every rank reported, the ranks are still in step
// and are closed the same way.
func (d *driver) Close() error {
	if d.aborted {
		return fmt.Errorf("the MPI job was aborted: %w", d.broken)
	}
	earlier := d.broken
	d.broken = nil // every rank answered: they can still close together
	err := d.call(command{Method: cmdClose}, nil, func() error {
		if d.rv == nil {
			return nil
		}
		return d.rv.Close()
	})
	d.rv = nil
	if !d.aborted {
		err = errors.Join(err, d.quit())
	}
	if err == nil && earlier != nil {
		d.broken = earlier
	}
	return err
}

// quit tells the followers to exit and finalizes MPI here.
func (d *driver) quit() error {
	var sends []comm.Request
	for r := 1; r < d.s.world.Size(); r++ {
		reqs, err := mpictl.Send(d.s.ctl, r, tagCommand, command{Method: cmdQuit})
		if err != nil {
			return err
		}
		sends = append(sends, reqs...)
	}
	if err := mpictl.WaitAll(sends, time.Now().Add(FailureGrace), d.s.alive); err != nil {
		return fmt.Errorf("telling the followers to quit: %w", err)
	}
	d.s.done = true
	if d.s.finish != nil {
		return d.s.finish()
	}
	return nil
}

// Devices is the union of every rank's devices.
func (d *driver) Devices() []string {
	out := d.devices
	if dv, ok := d.rv.(sdk.Devicer); ok {
		out = rank.Union(append([]string(nil), dv.Devices()...), out...)
	}
	return out
}

// CaseInfo is rank 0's.
func (d *driver) CaseInfo() map[string]any {
	if inf, ok := d.rv.(sdk.Informer); ok {
		return inf.CaseInfo()
	}
	return nil
}
