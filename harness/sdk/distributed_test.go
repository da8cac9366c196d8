package sdk

// distributed_test.go: NewDistributed's embedded launcher, and the mpirun
// control protocol (rank 0's driver and the follower loop) run over the
// in-process communicator, with a toy RankVariant that checks what each
// rank was given and fails on request.

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
)

// toyWorld records what the toy ranks of one test saw.
type toyWorld struct {
	mu     sync.Mutex
	shares map[int]*Workload
	closed map[int]bool
	// failure injection: rank failRank fails in method failMethod, before
	// its collective ("early": the others block on it) or after ("late").
	failRank   int
	failMethod string
	failWhen   string
}

func newToyWorld() *toyWorld {
	return &toyWorld{shares: map[int]*Workload{}, closed: map[int]bool{}, failRank: -1}
}

type toyRank struct {
	w *toyWorld
	c comm.Comm
	n int64
}

func (tw *toyWorld) newRank(c comm.Comm, cfg Config) (RankVariant, error) {
	if cfg.Params["ask"] != "toy" {
		return nil, fmt.Errorf("rank %d got config %v", c.Rank(), cfg.Params)
	}
	// Collective, as NewGrid would be.
	if err := c.Barrier(); err != nil {
		return nil, err
	}
	return &toyRank{w: tw, c: c}, nil
}

var errBoom = errors.New("boom")

// step runs a collective with failure injection around it.
func (r *toyRank) step(method string, collective func() error) error {
	fails := r.w.failMethod == method && r.w.failRank == r.c.Rank()
	if fails && r.w.failWhen == "early" {
		return errBoom
	}
	if err := collective(); err != nil {
		return err
	}
	if fails {
		return errBoom
	}
	return nil
}

func (r *toyRank) Construct(w *Workload) error {
	r.w.mu.Lock()
	r.w.shares[r.c.Rank()] = w
	r.w.mu.Unlock()
	r.n = w.NVertices
	return r.step("construct", func() error {
		total, err := comm.AllreduceInt64(r.c, int64(len(w.Edges)), comm.Sum)
		if err == nil && total != w.NEdges {
			err = fmt.Errorf("shares hold %d edges, want %d", total, w.NEdges)
		}
		return err
	})
}

func (r *toyRank) BFS(root int64) (Search, error) {
	var levels int64
	err := r.step("bfs", func() error {
		var err error
		levels, err = comm.AllreduceInt64(r.c, int64(r.c.Rank()+1), comm.Sum)
		return err
	})
	return Search{Levels: int(levels), TimeS: float64(root)}, err
}

// Parents: rank k contributes vertex block k of a 1D split, each entry
// k*1000 + its vertex.
func (r *toyRank) Parents(dst []int64) error {
	return r.step("parents", func() error {
		p := int64(r.c.Size())
		b := (r.n + p - 1) / p
		lo, hi := min(int64(r.c.Rank())*b, r.n), min(int64(r.c.Rank()+1)*b, r.n)
		mine := make([]int64, hi-lo)
		for v := range mine {
			mine[v] = int64(r.c.Rank())*1000 + lo + int64(v)
		}
		if r.c.Rank() != 0 && dst != nil {
			return errors.New("a follower got a parents buffer")
		}
		return comm.GathervInto(r.c, mine, dst, 0)
	})
}

func (r *toyRank) Close() error {
	r.w.mu.Lock()
	r.w.closed[r.c.Rank()] = true
	r.w.mu.Unlock()
	return r.step("close", r.c.Barrier)
}

func (r *toyRank) Devices() []string { return []string{fmt.Sprintf("dev%d", r.c.Rank())} }

func (r *toyRank) CaseInfo() map[string]any { return map[string]any{"rank": r.c.Rank()} }

// toyGraph is a small Kronecker workload.
func toyGraph() *Workload {
	seed := [2]uint64{2, 3}
	edges := graph500.Generate(7, 8, seed)
	n := graph500.NVertices(7)
	return &Workload{NVertices: n, NEdges: int64(len(edges)), Edges: edges,
		Graph: results.Graph{Scale: 7, EdgeFactor: 8, Seed: seed, NVertices: n, NEdges: int64(len(edges))}}
}

var toyConfig = Config{Backend: BackendCPU, Params: map[string]any{"ask": "toy"}}

// checkRun drives a healthy variant through one case and checks what the
// ranks saw and what rank 0 reported.
func checkRun(t *testing.T, v Variant, tw *toyWorld, ranks int, w *Workload) {
	t.Helper()
	if err := v.Construct(w); err != nil {
		t.Fatal(err)
	}
	// The shares, in rank order, are the whole list, and each says where
	// it starts.
	var all []graph500.Edge
	for r := range ranks {
		s := tw.shares[r]
		if s == nil {
			t.Fatalf("rank %d got no workload", r)
		}
		if s.EdgeOffset != int64(len(all)) || s.NEdges != w.NEdges || s.NVertices != w.NVertices || s.Graph != w.Graph {
			t.Fatalf("rank %d: offset %d (want %d), %d edges, %d vertices, graph %+v", r, s.EdgeOffset, len(all), s.NEdges, s.NVertices, s.Graph)
		}
		all = append(all, s.Edges...)
	}
	if !slices.Equal(all, w.Edges) {
		t.Fatal("the ranks' shares do not make up the edge list")
	}
	s, err := v.BFS(5)
	if err != nil {
		t.Fatal(err)
	}
	if s.Levels != ranks*(ranks+1)/2 || s.TimeS != 5 {
		t.Errorf("search %+v: want rank 0's result after the collective", s)
	}
	dst := make([]int64, w.NVertices)
	if err := v.Parents(dst); err != nil {
		t.Fatal(err)
	}
	b := (w.NVertices + int64(ranks) - 1) / int64(ranks)
	for i, x := range dst {
		if want := int64(i)/b*1000 + int64(i); x != want {
			t.Fatalf("parents[%d] = %d, want %d", i, x, want)
		}
	}
	if d, ok := v.(Devicer); !ok || len(d.Devices()) != ranks {
		t.Errorf("devices: %v", v.(Devicer).Devices())
	}
	if inf, ok := v.(Informer); !ok || inf.CaseInfo()["rank"] != 0 {
		t.Errorf("case info is not rank 0's")
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	for r := range ranks {
		if !tw.closed[r] {
			t.Errorf("rank %d not closed", r)
		}
	}
}

func TestEmbeddedRunsEveryRank(t *testing.T) {
	for _, ranks := range []int{1, 4, 16} {
		t.Run(fmt.Sprint(ranks), func(t *testing.T) {
			tw := newToyWorld()
			cfg := toyConfig
			cfg.Ranks, cfg.Launcher = ranks, LauncherEmbedded
			v, err := NewDistributed(cfg, tw.newRank)
			if err != nil {
				t.Fatal(err)
			}
			checkRun(t, v, tw, ranks, toyGraph())
		})
	}
}

func TestEmbeddedFailureNamesTheRankAndNeverHangs(t *testing.T) {
	for _, when := range []string{"early", "late"} {
		for _, method := range []string{"construct", "bfs", "parents"} {
			t.Run(when+"/"+method, func(t *testing.T) {
				tw := newToyWorld()
				tw.failRank, tw.failMethod, tw.failWhen = 2, method, when
				v, err := NewDistributed(Config{Ranks: 4, Params: toyConfig.Params}, tw.newRank)
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() {
					w := toyGraph()
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
				if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), "rank 2") {
					t.Fatalf("got %v, want rank 2's boom", err)
				}
				if _, err := v.BFS(1); err == nil || !strings.Contains(err.Error(), "failed earlier") {
					t.Errorf("call after failure: %v", err)
				}
				v.Close()
				for r := range 4 {
					if !tw.closed[r] {
						t.Errorf("rank %d not closed after the failure", r)
					}
				}
			})
		}
	}
}

func TestNewDistributedErrors(t *testing.T) {
	tw := newToyWorld()
	if _, err := NewDistributed(Config{Ranks: 2, Launcher: "slurm", Params: toyConfig.Params}, tw.newRank); err == nil {
		t.Error("unknown launcher accepted")
	}
	if _, err := NewDistributed(Config{Ranks: 2, Params: map[string]any{}}, tw.newRank); err == nil || !strings.Contains(err.Error(), "rank") {
		t.Errorf("a rank constructor's error: %v", err)
	}
	if _, err := NewDistributed(Config{Ranks: 2}, nil); err == nil {
		t.Error("nil constructor accepted")
	}
	// Without mpirun (and, in the default build, without MPI), a clear error.
	_, err := NewDistributed(Config{Ranks: 2, Launcher: LauncherMPIRun, Params: toyConfig.Params}, tw.newRank)
	if err == nil || !(strings.Contains(err.Error(), "without MPI") || strings.Contains(err.Error(), "not started by mpirun")) {
		t.Errorf("mpirun launcher outside mpirun: %v", err)
	}
}

func TestEdgeShareCoversTheList(t *testing.T) {
	for _, m := range []int64{0, 1, 7, 100, 1 << 20} {
		for _, p := range []int{1, 3, 4, 16} {
			next := int64(0)
			for r := range p {
				lo, hi := EdgeShare(m, r, p)
				if lo != next || hi < lo || hi-lo > m/int64(p)+1 {
					t.Fatalf("m=%d p=%d rank %d: [%d,%d) after %d", m, p, r, lo, hi, next)
				}
				next = hi
			}
			if next != m {
				t.Fatalf("m=%d p=%d: shares end at %d", m, p, next)
			}
		}
	}
}

// ----- The mpirun protocol over the in-process communicator -----

// localJob is an mpirun job simulated in process: rank 0's driver and the
// followers' loops, each over its own control communicator.
type localJob struct {
	comms    []comm.Comm
	sessions []*mpiSession
	errs     []error
	wg       sync.WaitGroup
}

func startLocalJob(t *testing.T, n int, newRank NewRankFunc) *localJob {
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
			f := &follower{s: j.sessions[r], newRank: func(Config) (NewRankFunc, error) { return newRank, nil }}
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
			tw := newToyWorld()
			j := startLocalJob(t, ranks, tw.newRank)
			cfg := toyConfig
			cfg.Ranks, cfg.Launcher = ranks, LauncherMPIRun
			d, err := newDriver(j.sessions[0], cfg, tw.newRank)
			if err != nil {
				t.Fatal(err)
			}
			w := toyGraph()
			if scatter { // a graph file: followers get their edges from rank 0
				w.Graph.File, w.Graph.Scale, w.Graph.EdgeFactor = "toy.el", 0, 0
			}
			checkRun(t, d, tw, ranks, w)
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
	tw := newToyWorld()
	j := startLocalJob(t, 2, tw.newRank)
	if _, err := newDriver(j.sessions[0], Config{Ranks: 3, Params: toyConfig.Params}, tw.newRank); err == nil {
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
			tw := newToyWorld()
			tw.failRank, tw.failMethod, tw.failWhen = failRank, "bfs", "late"
			j := startLocalJob(t, 4, tw.newRank)
			d, err := newDriver(j.sessions[0], Config{Ranks: 4, Params: toyConfig.Params}, tw.newRank)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Construct(toyGraph()); err != nil {
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
				if !tw.closed[r] {
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
	old := FailureGrace
	FailureGrace = 300 * time.Millisecond
	defer func() { FailureGrace = old }()
	for _, failRank := range []int{0, 2} {
		t.Run(fmt.Sprint(failRank), func(t *testing.T) {
			tw := newToyWorld()
			tw.failRank, tw.failMethod, tw.failWhen = failRank, "bfs", "early"
			j := startLocalJob(t, 4, tw.newRank)
			d, err := newDriver(j.sessions[0], Config{Ranks: 4, Params: toyConfig.Params}, tw.newRank)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Construct(toyGraph()); err != nil {
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
			if failRank == 0 && !errors.Is(err, errBoom) {
				t.Errorf("rank 0's own failure not reported: %v", err)
			}
			j.wait(t)
			if failRank == 2 && !errors.Is(j.errs[2], errStuck) {
				t.Errorf("follower 2: %v, want it to give up waiting", j.errs[2])
			}
			if err := d.Close(); err == nil {
				t.Error("Close of an aborted job reported nothing")
			}
		})
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
		r, c, err := GridShape(Config{Ranks: tc.ranks, Grid: tc.grid})
		if (err != nil) != tc.bad || r != tc.r || c != tc.c {
			t.Errorf("ranks %d grid %v: %d×%d, %v", tc.ranks, tc.grid, r, c, err)
		}
	}
}
