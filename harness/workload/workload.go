// Package workload turns a workload description (a Graph500 Kronecker
// graph, or a graph file) into the edge list every variant and the
// validator share. Both sides call Load with the same Spec, so every variant
// of a run sees the identical list; Fingerprint proves it in results.json.
package workload

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"runtime"
	"sync"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/graphio"
	"github.com/bfsbench/bfsbench/harness/results"
)

// Spec describes one workload: either a Kronecker graph (Scale, EdgeFactor,
// Seed) or a graph file (File, Format "snap", "mtx" or "auto").
type Spec struct {
	Scale      int
	EdgeFactor int
	Seed       [2]uint64
	File       string
	Format     string
}

// DefaultSeed is the seed pair the Graph500 MPI reference driver uses.
var DefaultSeed = [2]uint64{2, 3}

// String names the workload for progress lines and errors.
func (s Spec) String() string {
	if s.File != "" {
		return "file " + s.File
	}
	return fmt.Sprintf("kronecker scale %d edgefactor %d seed %d,%d", s.Scale, s.EdgeFactor, s.Seed[0], s.Seed[1])
}

// Validate reports a spec that cannot be generated.
func (s Spec) Validate() error {
	if s.File != "" {
		return nil
	}
	if s.Scale < 1 || s.Scale > 40 {
		return fmt.Errorf("scale %d out of range [1, 40]", s.Scale)
	}
	if s.EdgeFactor < 1 || s.EdgeFactor > 1<<12 {
		return fmt.Errorf("edgefactor %d out of range [1, 4096]", s.EdgeFactor)
	}
	return nil
}

// Graph is a loaded workload.
type Graph struct {
	Spec      Spec
	NVertices int64
	Edges     []graph500.Edge
	Info      results.Graph // with Fingerprint filled in
}

// Load generates or reads the workload's edge list.
func Load(s Spec) (*Graph, error) {
	return LoadContext(context.Background(), s)
}

// SparseSlack is how many vertices a graph file may declare beyond twice
// its number of edges (the most vertices its edges can touch): a file
// declaring more is refused, since nearly all of its vertices would be
// isolated and only cost memory and search-key time.
const SparseSlack = 1 << 20

// LoadContext is Load that returns ctx's error within a fraction of a
// second once ctx ends. The generator itself cannot be stopped: it is
// left to finish in the background (the caller is on its way out).
func LoadContext(ctx context.Context, s Spec) (*Graph, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("workload %s: %w", s, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g := &Graph{Spec: s}
	if s.File != "" {
		edges, nv, err := graphio.LoadGraphFileContext(ctx, s.File, s.Format)
		if err != nil {
			return nil, err
		}
		if nv > graph500.MaxValidatorVertices {
			return nil, fmt.Errorf("%s: %d vertices (largest id + 1) exceeds the %d bfsbench supports", s.File, nv, graph500.MaxValidatorVertices)
		}
		if nv > 2*int64(len(edges))+SparseSlack {
			return nil, fmt.Errorf("%s: %d vertices declared (or largest id + 1) but its %d edges touch at most %d: renumber the vertices compactly",
				s.File, nv, len(edges), 2*len(edges))
		}
		g.Edges, g.NVertices = edges, nv
	} else {
		done := make(chan []graph500.Edge, 1)
		go func() { done <- graph500.Generate(s.Scale, s.EdgeFactor, s.Seed) }()
		select {
		case g.Edges = <-done:
		case <-ctx.Done():
			return nil, fmt.Errorf("generating %s: %w", s, ctx.Err())
		}
		g.NVertices = graph500.NVertices(s.Scale)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g.Info = results.Graph{
		Scale: s.Scale, EdgeFactor: s.EdgeFactor, Seed: s.Seed, File: s.File,
		NVertices: g.NVertices, NEdges: int64(len(g.Edges)),
		Fingerprint: Fingerprint(g.Edges),
	}
	return g, nil
}

// Fingerprint is a SHA-256 over the edge list in order (chunks hashed in
// parallel, then the chunk hashes hashed), shortened to 16 hex digits. Two
// runs with equal fingerprints searched the same list.
func Fingerprint(edges []graph500.Edge) string {
	const chunk = 1 << 20
	n := (len(edges) + chunk - 1) / chunk
	sums := make([][32]byte, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for c := 0; c < n; c++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(c int) {
			defer wg.Done()
			defer func() { <-sem }()
			h := sha256.New()
			buf := make([]byte, 0, 4096*16) // little-endian (v0, v1) pairs, written in blocks
			end := min((c+1)*chunk, len(edges))
			for _, e := range edges[c*chunk : end] {
				buf = binary.LittleEndian.AppendUint64(buf, uint64(e.V0))
				buf = binary.LittleEndian.AppendUint64(buf, uint64(e.V1))
				if len(buf) == cap(buf) {
					h.Write(buf)
					buf = buf[:0]
				}
			}
			h.Write(buf)
			copy(sums[c][:], h.Sum(nil))
		}(c)
	}
	wg.Wait()
	h := sha256.New()
	var nb [8]byte
	binary.LittleEndian.PutUint64(nb[:], uint64(len(edges)))
	h.Write(nb[:])
	for _, s := range sums {
		h.Write(s[:])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
