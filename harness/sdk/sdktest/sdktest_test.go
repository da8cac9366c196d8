package sdktest

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// serial is a correct toy plugin (a serial BFS); broken makes it wrong in
// one of the ways the suite must catch.
type serial struct{ broken string }

func (p serial) Info() sdk.Info {
	return sdk.Info{Name: "serial", Paper: "none", Summary: "serial BFS", Backends: []string{sdk.BackendCPU}}
}

func (p serial) New(sdk.Config) (sdk.Variant, error) { return &serialVariant{broken: p.broken}, nil }

type serialVariant struct {
	broken   string
	w        *sdk.Workload
	parents  []int64
	searches int
}

func (v *serialVariant) Construct(w *sdk.Workload) error { v.w = w; return nil }

func (v *serialVariant) BFS(root int64) (sdk.Search, error) {
	v.searches++
	var levels []int64
	v.parents, levels = graph500.SerialBFS(v.w.Edges, v.w.NVertices, root)
	if v.broken == "stale" && v.searches > 1 { // keeps the first search's tree
		v.parents, _ = graph500.SerialBFS(v.w.Edges, v.w.NVertices, root^1)
	}
	depth := slices.Max(levels)
	if v.broken == "depth" { // reports the largest depth, one level too few
		return sdk.Search{Levels: int(depth)}, nil
	}
	return sdk.Search{Levels: int(depth) + 1}, nil
}

func (v *serialVariant) Parents(dst []int64) error {
	switch v.broken {
	case "forgets": // leaves the last vertex unwritten
		copy(dst[:len(dst)-1], v.parents)
	case "shortcut": // hangs a vertex of level 2 under the root, along no edge
		copy(dst, v.parents)
		for y, p := range dst {
			if p >= 0 && p != int64(y) && dst[p] != p {
				dst[y] = dst[p]
				if gp := dst[p]; dst[gp] == gp { // p's parent is the root
					break
				}
			}
		}
	default:
		copy(dst, v.parents)
	}
	return nil
}

func (v *serialVariant) Close() error { return nil }

// recorder is a testing.TB that records failures; Fatalf and Skipf end the
// goroutine as testing's do.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, fmt.Sprintf(f, a...))
}
func (r *recorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); runtime.Goexit() }
func (r *recorder) Skipf(f string, a ...any)  { r.Errorf("skip: "+f, a...); runtime.Goexit() }

func runCase(p sdk.Plugin, g *graph) []string {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		checkCase(r, p, sdk.Config{Backend: sdk.BackendCPU, Ranks: 1}, g, nil)
	}()
	<-done
	return r.failed
}

func TestSuiteCatchesBrokenVariants(t *testing.T) {
	g := newGraph(t, 10, 16, Options{}.withDefaults(serial{}.Info()))
	if f := runCase(serial{}, g); len(f) != 0 {
		t.Fatalf("a correct variant failed: %v", f)
	}
	for _, broken := range []string{"forgets", "shortcut", "stale", "depth"} {
		f := runCase(serial{broken: broken}, g)
		if len(f) == 0 || strings.HasPrefix(f[0], "skip") {
			t.Errorf("%s: not caught (%v)", broken, f)
		}
	}
}

func TestRunOnACorrectVariant(t *testing.T) {
	Run(t, serial{}, Options{Scales: []int{6}, EdgeFactors: []int{8}})
}
