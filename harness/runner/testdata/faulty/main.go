// Command faulty is a test plugin whose misbehaviour is chosen by its
// "mode" parameter, so the runner's tests can check that a crash, a hang,
// a panic or wrong parents cost one case only. Its correct mode is a plain
// serial BFS.
package main

import (
	"errors"
	"os"
	"time"

	"github.com/bfsbench/bfsbench/harness/sdk"
)

func main() { sdk.Serve(plugin{}) }

type plugin struct{}

func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name: "faulty", Summary: "test plugin", Backends: []string{sdk.BackendCPU},
		Params: []sdk.Param{{Name: "mode", Type: sdk.TypeString, Default: "ok",
			Choices: []string{"ok", "crash", "hang", "panic", "error", "invalid", "crash-construct"}}},
	}
}

func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	return &variant{mode: cfg.String("mode")}, nil
}

type variant struct {
	mode    string
	adj     [][]int64
	parents []int64
	n       int
}

func (v *variant) Construct(w *sdk.Workload) error {
	if v.mode == "crash-construct" {
		os.Exit(3)
	}
	v.adj = make([][]int64, w.NVertices)
	for _, e := range w.Edges {
		if e.V0 != e.V1 {
			v.adj[e.V0] = append(v.adj[e.V0], e.V1)
			v.adj[e.V1] = append(v.adj[e.V1], e.V0)
		}
	}
	v.parents = make([]int64, w.NVertices)
	return nil
}

func (v *variant) BFS(root int64) (sdk.Search, error) {
	v.n++
	if v.n == 3 { // fail on the second timed search, after the warm-up and one good search
		switch v.mode {
		case "crash":
			os.Exit(4)
		case "hang":
			time.Sleep(time.Hour)
		case "panic":
			var m map[string]int
			m["x"] = 1
		case "error":
			return sdk.Search{}, errors.New("deliberate failure")
		}
	}
	for i := range v.parents {
		v.parents[i] = -1
	}
	v.parents[root] = root
	q := []int64{root}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, w := range v.adj[u] {
			if v.parents[w] < 0 {
				v.parents[w] = u
				q = append(q, w)
			}
		}
	}
	if v.mode == "invalid" && v.n == 3 {
		for i, p := range v.parents {
			if p >= 0 && int64(i) != root {
				v.parents[i] = int64(i) // a self-loop in the tree
				break
			}
		}
	}
	return sdk.Search{}, nil
}

func (v *variant) Parents(dst []int64) error { copy(dst, v.parents); return nil }
func (v *variant) Close() error              { return nil }
