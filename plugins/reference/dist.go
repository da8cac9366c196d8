package main

// dist.go is the reference plugin's distributed mode (cfg.Ranks > 1, or
// launcher = "mpirun"): a level-synchronous top-down BFS over a 1D
// partition (harness/partition: rank r owns vertex block r and its
// adjacency lists), run on every rank through grid.NewDistributed, in
// process or under mpirun. It is the plain textbook 1D algorithm, there to
// exercise the distributed path end to end and to be a CPU yardstick:
//
//	each level: every rank scans the adjacency lists of its frontier
//	vertices and sends each neighbour v, with its would-be parent u, to v's
//	owner (one Alltoallv); the owner claims the unvisited ones, in the
//	order received (rank order, so the result is deterministic), and they
//	form its next frontier. The search ends when no rank has a frontier
//	(an Allreduce).
//
// Choice: a rank sends each vertex at most once per search (a bitmap of
// vertices already sent), as [Bisson] §3.4 does for the
// fold, so the exchange is bounded by the vertex count rather than the
// edge count. No bottom-up steps: direction optimization is a single-rank
// feature here.

import (
	"fmt"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/grid"
)

func init() {
	newDistributed = func(cfg sdk.Config) (sdk.Variant, error) {
		return grid.NewDistributed(cfg, newRank1D)
	}
}

// rank1D is one rank of the distributed search.
type rank1D struct {
	c       comm.Comm
	part    *partition.Part1D
	parents []int64 // of the owned vertices; -1 unreached
	sent    bitmap  // vertices this rank has sent in the current search
}

func newRank1D(c comm.Comm, _ sdk.Config) (sdk.RankVariant, error) {
	return &rank1D{c: c}, nil
}

func (r *rank1D) Construct(w *sdk.Workload) error {
	p, err := partition.Build1D(r.c, w.NVertices, w.Edges)
	if err != nil {
		return err
	}
	r.part = p
	r.parents = make([]int64, p.Hi-p.Lo)
	r.sent = newBitmap(w.NVertices)
	return nil
}

func (r *rank1D) BFS(root int64) (sdk.Search, error) {
	p := r.part
	if p == nil {
		return sdk.Search{}, fmt.Errorf("reference rank %d: bfs before construct", r.c.Rank())
	}
	if root < 0 || root >= p.Layout.N {
		return sdk.Search{}, fmt.Errorf("reference rank %d: root %d out of range", r.c.Rank(), root)
	}
	// Start the clock when every rank is ready, so that the time does not
	// include how long the ranks took to receive the command.
	if err := r.c.Barrier(); err != nil {
		return sdk.Search{}, err
	}
	t0 := time.Now()
	for i := range r.parents {
		r.parents[i] = -1
	}
	r.sent.clear()
	var frontier []int64
	if p.Layout.Owner(root) == r.c.Rank() {
		r.parents[root-p.Lo] = root
		frontier = append(frontier, root)
	}
	var phases []results.LevelPhase
	level := 0
	for {
		total, err := comm.AllreduceInt64(r.c, int64(len(frontier)), comm.Sum)
		if err != nil {
			return sdk.Search{}, err
		}
		if total == 0 {
			break
		}
		ph := results.LevelPhase{Level: level, Frontier: total, Times: map[string]float64{}, Bytes: map[string]int64{}}
		t := time.Now()
		send, counts := r.expand(frontier)
		ph.Times["expand"] = time.Since(t).Seconds()
		ph.Bytes["exchange"] = int64(len(send)) * 8
		t = time.Now()
		recv, _, err := comm.AlltoallvSlice(r.c, send, counts)
		if err != nil {
			return sdk.Search{}, err
		}
		ph.Times["exchange"] = time.Since(t).Seconds()
		t = time.Now()
		frontier = r.update(recv, frontier[:0])
		ph.Times["update"] = time.Since(t).Seconds()
		phases = append(phases, ph)
		level++
	}
	return sdk.Search{TimeS: time.Since(t0).Seconds(), Levels: level, Phases: phases}, nil
}

// expand lists, for each owner rank, the (vertex, parent) pairs to send:
// every neighbour of the frontier this rank has not sent yet.
func (r *rank1D) expand(frontier []int64) (send []int64, counts []int) {
	p := r.part
	counts = make([]int, r.c.Size())
	var found []int64 // pairs in discovery order
	for _, u := range frontier {
		for _, v := range p.Neighbors(u) {
			if r.sent.get(v) {
				continue
			}
			r.sent.set(v)
			found = append(found, v, u)
			counts[p.Layout.Owner(v)] += 2
		}
	}
	displs, total := comm.Displs(counts)
	send = make([]int64, total)
	for k := 0; k < len(found); k += 2 {
		o := p.Layout.Owner(found[k])
		send[displs[o]], send[displs[o]+1] = found[k], found[k+1]
		displs[o] += 2
	}
	return send, counts
}

// update claims the unvisited vertices among the received pairs and
// returns them as the next frontier.
func (r *rank1D) update(recv []int64, next []int64) []int64 {
	lo := r.part.Lo
	for k := 0; k < len(recv); k += 2 {
		v, u := recv[k], recv[k+1]
		if r.parents[v-lo] == -1 {
			r.parents[v-lo] = u
			next = append(next, v)
		}
	}
	return next
}

// Parents gathers the owned blocks, in rank order (= vertex order), on
// rank 0.
func (r *rank1D) Parents(dst []int64) error {
	l := r.part.Layout
	counts := make([]int, l.P)
	for k := range counts {
		lo, hi := l.Range(k)
		counts[k] = int(hi - lo)
	}
	displs, total := comm.Displs(counts)
	if r.c.Rank() != 0 {
		return r.c.Gatherv(comm.Host(r.parents), nil, counts, displs, 0)
	}
	if int64(len(dst)) != l.N || total != len(dst) {
		return fmt.Errorf("reference: parents buffer holds %d entries, want %d", len(dst), l.N)
	}
	return r.c.Gatherv(comm.Host(r.parents), comm.Host(dst), counts, displs, 0)
}

func (r *rank1D) Close() error {
	r.part, r.parents, r.sent = nil, nil, nil
	return nil
}
