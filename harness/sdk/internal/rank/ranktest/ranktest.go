// Package ranktest is a toy distributed variant for the tests of both
// launchers (package grid's in-process ranks, package mpirun's protocol):
// each rank checks what it was given, runs one collective per method and
// fails on request.
package ranktest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// World records what the toy ranks of one test saw.
type World struct {
	mu     sync.Mutex
	Shares map[int]*sdk.Workload
	Closed map[int]bool
	// failure injection: rank FailRank fails in method FailMethod, before
	// its collective ("early": the others block on it) or after ("late").
	FailRank   int
	FailMethod string
	FailWhen   string
}

func NewWorld() *World {
	return &World{Shares: map[int]*sdk.Workload{}, Closed: map[int]bool{}, FailRank: -1}
}

type toyRank struct {
	w *World
	c comm.Comm
	n int64
}

// NewRank is the toy rank constructor (a rank.New).
func (tw *World) NewRank(c comm.Comm, cfg sdk.Config) (sdk.RankVariant, error) {
	if cfg.Params["ask"] != "toy" {
		return nil, fmt.Errorf("rank %d got config %v", c.Rank(), cfg.Params)
	}
	// Collective, as NewGrid would be.
	if err := c.Barrier(); err != nil {
		return nil, err
	}
	return &toyRank{w: tw, c: c}, nil
}

var ErrBoom = errors.New("boom")

// step runs a collective with failure injection around it.
func (r *toyRank) step(method string, collective func() error) error {
	fails := r.w.FailMethod == method && r.w.FailRank == r.c.Rank()
	if fails && r.w.FailWhen == "early" {
		return ErrBoom
	}
	if err := collective(); err != nil {
		return err
	}
	if fails {
		return ErrBoom
	}
	return nil
}

func (r *toyRank) Construct(w *sdk.Workload) error {
	r.w.mu.Lock()
	r.w.Shares[r.c.Rank()] = w
	r.w.mu.Unlock()
	r.n = w.NVertices
	return r.step("construct", func() error {
		total, err := comm.AllreduceInt64(r.c, int64(len(w.Edges)), comm.Sum)
		if err == nil && total != w.NEdges {
			err = fmt.Errorf("Shares hold %d edges, want %d", total, w.NEdges)
		}
		return err
	})
}

func (r *toyRank) BFS(root int64) (sdk.Search, error) {
	var levels int64
	err := r.step("bfs", func() error {
		var err error
		levels, err = comm.AllreduceInt64(r.c, int64(r.c.Rank()+1), comm.Sum)
		return err
	})
	return sdk.Search{Levels: int(levels), TimeS: float64(root)}, err
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
	r.w.Closed[r.c.Rank()] = true
	r.w.mu.Unlock()
	return r.step("close", r.c.Barrier)
}

func (r *toyRank) Devices() []string { return []string{fmt.Sprintf("dev%d", r.c.Rank())} }

func (r *toyRank) CaseInfo() map[string]any { return map[string]any{"rank": r.c.Rank()} }

// Graph is a small Kronecker workload.
func Graph() *sdk.Workload {
	seed := [2]uint64{2, 3}
	edges := graph500.Generate(7, 8, seed)
	n := graph500.NVertices(7)
	return &sdk.Workload{NVertices: n, NEdges: int64(len(edges)), Edges: edges,
		Graph: results.Graph{Scale: 7, EdgeFactor: 8, Seed: seed, NVertices: n, NEdges: int64(len(edges))}}
}

var Config = sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{"ask": "toy"}}

// CheckRun drives a healthy variant through one case and checks what the
// ranks saw and what rank 0 reported.
func CheckRun(t *testing.T, v sdk.Variant, tw *World, ranks int, w *sdk.Workload) {
	t.Helper()
	if err := v.Construct(w); err != nil {
		t.Fatal(err)
	}
	// The Shares, in rank order, are the whole list, and each says where
	// it starts.
	var all []graph500.Edge
	for r := range ranks {
		s := tw.Shares[r]
		if s == nil {
			t.Fatalf("rank %d got no workload", r)
		}
		if s.EdgeOffset != int64(len(all)) || s.NEdges != w.NEdges || s.NVertices != w.NVertices || s.Graph != w.Graph {
			t.Fatalf("rank %d: offset %d (want %d), %d edges, %d vertices, graph %+v", r, s.EdgeOffset, len(all), s.NEdges, s.NVertices, s.Graph)
		}
		all = append(all, s.Edges...)
	}
	if !slices.Equal(all, w.Edges) {
		t.Fatal("the ranks' Shares do not make up the edge list")
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
	if d, ok := v.(sdk.Devicer); !ok || len(d.Devices()) != ranks {
		t.Errorf("devices: %v", v.(sdk.Devicer).Devices())
	}
	if inf, ok := v.(sdk.Informer); !ok || inf.CaseInfo()["rank"] != 0 {
		t.Errorf("case info is not rank 0's")
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	for r := range ranks {
		if !tw.Closed[r] {
			t.Errorf("rank %d not Closed", r)
		}
	}
}
