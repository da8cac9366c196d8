package gpucheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// queuePlugin is a serial queue BFS with a "break" parameter that
// corrupts the parents of every search after the first k, and an
// "extra_levels" one added to the level count it reports.
type queuePlugin struct{}

func (queuePlugin) Info() sdk.Info {
	return sdk.Info{Name: "queue", Backends: []string{sdk.BackendCPU}, Params: []sdk.Param{
		{Name: "break_after", Type: sdk.TypeInt, Default: int64(-1)},
		{Name: "fail", Type: sdk.TypeBool, Default: false},
		{Name: "extra_levels", Type: sdk.TypeInt, Default: int64(0)},
	}}
}

func (queuePlugin) New(cfg sdk.Config) (sdk.Variant, error) {
	if cfg.Params["fail"].(bool) {
		return nil, errors.New("no such device")
	}
	extra, _ := cfg.Params["extra_levels"].(int64)
	return &queueVariant{breakAfter: cfg.Params["break_after"].(int64), extraLevels: int(extra)}, nil
}

type queueVariant struct {
	adj         [][]int64
	parents     []int64
	searches    int64
	breakAfter  int64
	extraLevels int
}

func (v *queueVariant) Construct(w *sdk.Workload) error {
	v.adj = make([][]int64, w.NVertices)
	for _, e := range w.Edges {
		v.adj[e.V0] = append(v.adj[e.V0], e.V1)
		v.adj[e.V1] = append(v.adj[e.V1], e.V0)
	}
	v.parents = make([]int64, w.NVertices)
	return nil
}

func (v *queueVariant) BFS(root int64) (sdk.Search, error) {
	for i := range v.parents {
		v.parents[i] = -1
	}
	v.parents[root] = root
	q := []int64{root}
	levels := 0
	for len(q) > 0 {
		levels++
		var next []int64
		for _, u := range q {
			for _, w := range v.adj[u] {
				if v.parents[w] < 0 {
					v.parents[w] = u
					next = append(next, w)
				}
			}
		}
		q = next
	}
	v.searches++
	if v.breakAfter >= 0 && v.searches > v.breakAfter+1 { // +1: the warm-up
		for i := range v.parents {
			if int64(i) != root && v.parents[i] >= 0 {
				v.parents[i] = int64(i) // a self-parent: not a tree
				break
			}
		}
	}
	return sdk.Search{Levels: levels + v.extraLevels, BoundBytes: 1000, Phases: []results.LevelPhase{{Level: 0, Bytes: map[string]int64{"edges": 1000}}}}, nil
}

func (v *queueVariant) Parents(dst []int64) error { copy(dst, v.parents); return nil }
func (v *queueVariant) Close() error              { return nil }

func TestParseParamSet(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ParamSet
	}{
		{"art:restrict=false,block_vertices=1024,x=1.5,pack16=on", ParamSet{"art", map[string]any{"restrict": false, "block_vertices": int64(1024), "x": 1.5, "pack16": "on"}}},
		{"permute=true", ParamSet{"permute=true", map[string]any{"permute": true}}},
		{"plain:", ParamSet{"plain", map[string]any{}}},
	} {
		got, err := ParseParamSet(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseParamSet(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	if _, err := ParseParamSet("a:novalue"); err == nil {
		t.Error("ParseParamSet accepted a parameter without a value")
	}
}

func TestCountEdgesMatchesValidator(t *testing.T) {
	edges := graph500.Generate(11, 16, [2]uint64{2, 3})
	nv := graph500.NVertices(11)
	keys, err := graph500.SearchKeys(edges, nv, 5, [2]uint64{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := queuePlugin{}.New(sdk.Config{Params: map[string]any{"break_after": int64(-1), "fail": false}})
	if err := v.Construct(&sdk.Workload{NVertices: nv, Edges: edges}); err != nil {
		t.Fatal(err)
	}
	val := graph500.NewValidator(edges, nv)
	parents := make([]int64, nv)
	for _, r := range keys {
		if _, err := v.BFS(r); err != nil {
			t.Fatal(err)
		}
		_ = v.Parents(parents)
		res, err := val.Validate(r, parents)
		if err != nil {
			t.Fatal(err)
		}
		if got := CountEdges(edges, parents); got != res.NEdge || got == 0 {
			t.Errorf("root %d: CountEdges = %d, validator NEdge = %d", r, got, res.NEdge)
		}
	}
}

func TestRunAndTable(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	var stdout, stderr bytes.Buffer
	rc := Main(queuePlugin{}, []string{"-backend", "cpu", "-scales", "9", "-roots", "6", "-validate", "2", "-bw", "1",
		"-set", "good:", "-set", "bad:break_after=3", "-set", "broken:fail=true", "-json", out}, &stdout, &stderr)
	if rc != 1 {
		t.Fatalf("Main returned %d, want 1 (a failed and an invalid case)\n%s\n%s", rc, stdout.String(), stderr.String())
	}
	rep := readReport(t, out)
	if len(rep.Cases) != 3 {
		t.Fatalf("%d cases", len(rep.Cases))
	}
	good, bad, broken := rep.Cases[0], rep.Cases[1], rep.Cases[2]
	if good.Status != results.StatusOK || good.Stats == nil || good.Stats.N != 2 || len(good.BFS) != 6 {
		t.Errorf("good case: status %s, stats %+v, %d searches", good.Status, good.Stats, len(good.BFS))
	}
	// Searches 3.. of the good case were not validated but borrow the count
	// of... nobody (the first case): they count their own edges.
	for i, s := range good.BFS {
		if s.NEdge <= 0 || (i < 2) != s.Valid {
			t.Errorf("good search %d: nedge %d valid %v (%s)", i, s.NEdge, s.Valid, s.Error)
		}
	}
	// The bad case breaks from its 4th search on: validated ones (the first
	// two) pass; unvalidated ones borrow the good case's counts.
	if bad.Status != results.StatusOK || bad.BFS[4].NEdge != good.BFS[4].NEdge {
		t.Errorf("bad case: status %s, nedge %d vs %d", bad.Status, bad.BFS[4].NEdge, good.BFS[4].NEdge)
	}
	if broken.Status != results.StatusFailed || !strings.Contains(broken.Error, "no such device") {
		t.Errorf("broken case: %s %q", broken.Status, broken.Error)
	}
	// bound: 1000 bytes per search at 1 GB/s.
	if f, ok := good.Info["bound_fraction"].(float64); !ok || f <= 0 {
		t.Errorf("bound_fraction = %v", good.Info["bound_fraction"])
	}
	for _, want := range []string{"good", "bad", "broken", "failed: no such device", "2/2 of 6"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, stdout.String())
		}
	}
	// 2 of 6 validated: GTEPS and the median each show all searches too.
	rows := 0
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.Contains(line, " good ") {
			rows++
			if strings.Count(line, "(all ") != 2 {
				t.Errorf("good row without the figures of all searches: %q", line)
			}
		}
	}
	if rows != 1 {
		t.Errorf("%d rows of the good case in the table:\n%s", rows, stdout.String())
	}
}

func TestMedianTime(t *testing.T) {
	for _, c := range []struct {
		times []float64
		want  float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{4, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		var ss []results.Search
		for _, x := range c.times {
			ss = append(ss, results.Search{TimeS: x})
		}
		if got := medianTime(ss); got != c.want {
			t.Errorf("medianTime(%v) = %v, want %v", c.times, got, c.want)
		}
	}
}

func TestInvalidSearchesFailTheCase(t *testing.T) {
	var stdout, stderr bytes.Buffer
	rc := Main(queuePlugin{}, []string{"-backend", "cpu", "-scales", "8", "-roots", "4", "-set", "bad:break_after=1"}, &stdout, &stderr)
	if rc != 1 || !strings.Contains(stdout.String(), "invalid") || !strings.Contains(stdout.String(), "1/4 of 4") {
		t.Fatalf("rc %d, table:\n%s", rc, stdout.String())
	}
}

// A search whose tree is valid but whose reported level count is not the
// tree's is invalid.
func TestReportedLevelsAreChecked(t *testing.T) {
	var stdout, stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "r.json")
	rc := Main(queuePlugin{}, []string{"-backend", "cpu", "-scales", "8", "-roots", "4", "-validate", "2", "-bw", "1",
		"-set", "off:extra_levels=1", "-json", out}, &stdout, &stderr)
	if rc != 1 {
		t.Fatalf("rc %d, table:\n%s", rc, stdout.String())
	}
	rep := readReport(t, out)
	c := rep.Cases[0]
	if c.Status != results.StatusInvalid || c.BFS[0].Valid || !strings.Contains(c.BFS[0].Error, "but the search reported") {
		t.Errorf("status %s, search 0: valid %v, %q", c.Status, c.BFS[0].Valid, c.BFS[0].Error)
	}
}

// readReport reads the JSON report Main wrote to path.
func readReport(t *testing.T, path string) Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}
