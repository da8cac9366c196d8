package mgbfs

// search.go: the level loop of Algorithm 2, written once for both
// backends, and the circular left-right order of §5.3.

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/results"
)

// CircularOrder is the order in which partition i gathers the p queues:
// its own first, then, for stride s = 1, 2, ..., ⌊p/2⌋, the queue of
// partition (i+s) mod p (right) and of (i-s) mod p (left), the left one
// omitted where it is the right one (p even, last stride), as in the
// paper's Fig. 4. At each stage every partition receives from a distinct
// one, so that no link carries two transfers at once. The paper does not
// say which of right and left comes first within a stride: right does.
func CircularOrder(i, p int) []int {
	out := []int{i}
	for s := 1; s <= p/2; s++ {
		r, l := (i+s)%p, ((i-s)%p+p)%p
		out = append(out, r)
		if l != r {
			out = append(out, l)
		}
	}
	return out
}

// Searcher runs searches on one engine.
type Searcher struct {
	pt    *Partition
	eng   Engine
	order [][]int
}

// NewSearcher returns a searcher of pt over eng.
func NewSearcher(pt *Partition, eng Engine) *Searcher {
	s := &Searcher{pt: pt, eng: eng}
	for i := 0; i < pt.P; i++ {
		s.order = append(s.order, CircularOrder(i, pt.P))
	}
	return s
}

// Result is what one search reports.
type Result struct {
	Levels        int
	Phases        []results.LevelPhase
	Reached       int64 // vertices with a parent, the root included
	EdgesExamined int64 // adjacency entries gathered, all levels
}

// BFS searches from root and returns when every parent is set in the
// engine's memory.
func (s *Searcher) BFS(root int64) (Result, error) {
	pt := s.pt
	if root < 0 || root >= pt.N {
		return Result{}, fmt.Errorf("root %d out of range [0, %d)", root, pt.N)
	}
	if err := s.eng.Reset(root); err != nil {
		return Result{}, err
	}
	qlen := make([]int64, pt.P)
	qlen[pt.Owner(root)] = 1
	edges := int64(pt.Deg[root])
	var res Result
	for level := 0; ; level++ {
		var nf int64
		for _, q := range qlen {
			nf += q
		}
		if nf == 0 { // termination: every queue is empty
			break
		}
		res.Reached += nf
		lr, err := s.eng.Level(s.order, qlen)
		if err != nil {
			return Result{}, fmt.Errorf("level %d: %w", level, err)
		}
		ph := results.LevelPhase{Level: level, Frontier: nf, Times: map[string]float64{}, Bytes: map[string]int64{}}
		for k, name := range phaseNames {
			m := 0.0
			for i := range lr.Times {
				m = max(m, lr.Times[i][k])
			}
			ph.Times[name] = m
		}
		ph.Bytes[CountEdgesExamined] = edges
		res.EdgesExamined += edges
		if pt.P > 1 {
			ph.Bytes[BytesPeer] = 4 * nf * int64(pt.P-1)
		}
		res.Phases = append(res.Phases, ph)
		copy(qlen, lr.NextQLen)
		edges = 0
		for _, e := range lr.NextEdges {
			edges += e
		}
	}
	res.Levels = len(res.Phases)
	return res, nil
}

// Parents copies the last search's parents into dst.
func (s *Searcher) Parents(dst []int64) error {
	if int64(len(dst)) != s.pt.N {
		return fmt.Errorf("parents: dst has %d entries, want %d", len(dst), s.pt.N)
	}
	return s.eng.Parents(dst)
}

// Close releases the engine.
func (s *Searcher) Close() error { return s.eng.Close() }
