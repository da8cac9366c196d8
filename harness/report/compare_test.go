package report

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/results"
)

// TestCompareNothingComparable: a gate that compared nothing is an error,
// whatever the files hold.
func TestCompareNothingComparable(t *testing.T) {
	good := synthRun()
	good.Cases = good.Cases[:6]
	onlyFailed := synthRun()
	onlyFailed.Cases = onlyFailed.Cases[7:] // the failed case alone
	dir := t.TempDir()
	load := func(text string) *results.Run {
		p := filepath.Join(dir, "r.json")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := results.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tc := range []struct {
		desc      string
		base, new *results.Run
	}{
		{"both null", load("null"), load("null")},
		{"both empty", load("{}"), load(`{"cases": []}`)},
		{"empty base", load(`{"cases": null}`), good},
		{"empty new", good, load("null")},
		{"base failed only", onlyFailed, onlyFailed},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var out bytes.Buffer
			res, err := CompareRuns(&out, tc.base, tc.new, CompareOptions{Threshold: 0.05})
			if !errors.Is(err, ErrNothingCompared) {
				t.Fatalf("err = %v, want ErrNothingCompared\n%s", err, out.String())
			}
			if res.Compared != 0 || strings.Contains(out.String(), "PASS") {
				t.Errorf("compared %d, output\n%s", res.Compared, out.String())
			}
			if failed, err := Compare(&bytes.Buffer{}, tc.base, tc.new, 0.05); err == nil {
				t.Errorf("Compare: failed=%v with no error", failed)
			}
		})
	}
}

func TestCompareMachines(t *testing.T) {
	base := synthRun()
	base.Cases = base.Cases[:6]
	for _, tc := range []struct {
		desc string
		edit func(e *results.Env)
		warn string // "" for none
	}{
		{"same", func(e *results.Env) {}, ""},
		{"other host, same hardware", func(e *results.Env) { e.Host = "runner-7" }, ""},
		{"CPU", func(e *results.Env) { e.CPUModel = "AMD EPYC 7B13" }, `CPU "Test CPU" vs "AMD EPYC 7B13"`},
		{"GPU", func(e *results.Env) { e.GPUModels = []string{"NVIDIA H100"} }, `GPU "NVIDIA H200" vs "NVIDIA H100"`},
		{"driver", func(e *results.Env) { e.DriverVersion = "580.1" }, `driver "" vs "580.1"`},
		{"not recorded", func(e *results.Env) { *e = results.Env{} }, "new machine not recorded"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			n := copyRun(t, base)
			tc.edit(&n.Env)
			var out bytes.Buffer
			if _, err := CompareRuns(&out, base, n, CompareOptions{Threshold: 0.05}); err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(out.String(), "\n")
			if tc.warn == "" {
				if strings.Contains(first, "WARNING") {
					t.Errorf("unexpected warning: %s", first)
				}
			} else if !strings.HasPrefix(first, "WARNING: the runs are from different machines") || !strings.Contains(first, tc.warn) {
				t.Errorf("first line %q, want a warning naming %q", first, tc.warn)
			}
			_, err := CompareRuns(&bytes.Buffer{}, base, n, CompareOptions{Threshold: 0.05, Strict: true})
			if (err != nil) != (tc.warn != "") {
				t.Errorf("strict: err = %v", err)
			}
		})
	}
}

func TestCompareOptions(t *testing.T) {
	base := synthRun()
	base.Cases = base.Cases[:6] // 8 valid searches each
	for _, tc := range []struct {
		desc    string
		opts    CompareOptions
		edit    func(r *results.Run)
		failed  int
		mention []string
	}{
		{"min searches met", CompareOptions{Threshold: 0.05, MinSearches: 8}, func(r *results.Run) {}, 0, []string{"PASS: 6 case(s) compared"}},
		{"too few searches", CompareOptions{Threshold: 0.05, MinSearches: 8}, func(r *results.Run) { r.Cases[2].BFS = r.Cases[2].BFS[:6] }, 1, []string{benchName(base.Cases[2]), "FAIL: too few valid searches (n=8+6, at least 8 a side wanted)"}},
		{"10% slower, threshold 5%", CompareOptions{Threshold: 0.05}, func(r *results.Run) { scaleCase(r, 3, 1.1) }, 1, []string{benchName(base.Cases[3]), "-9.09% (p=", "FAIL: slower"}},
		{"10% slower, threshold 20%", CompareOptions{Threshold: 0.2}, func(r *results.Run) { scaleCase(r, 3, 1.1) }, 0, []string{"slower, within threshold"}},
		{"geomean", CompareOptions{Threshold: 0.05}, func(r *results.Run) {}, 0, []string{"geomean of the median ratios over 6 cases: +0.00%"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			n := copyRun(t, base)
			tc.edit(n)
			var out bytes.Buffer
			res, err := CompareRuns(&out, base, n, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Failed != tc.failed {
				t.Errorf("failed = %d, want %d\n%s", res.Failed, tc.failed, out.String())
			}
			if !hasLineWith(out.String(), tc.mention) {
				t.Errorf("no line with %q in\n%s", tc.mention, out.String())
			}
		})
	}
	for _, o := range []CompareOptions{{Alpha: 1}, {Alpha: -0.1}, {MinSearches: -1}, {Threshold: 1}} {
		if _, err := CompareRuns(&bytes.Buffer{}, base, base, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func TestComparePairs(t *testing.T) {
	r := synthRun()
	n := copyRun(t, r)
	scaleCase(n, 0, 1.5)
	pairs := []Pair{
		{Base: r.Cases[0], New: n.Cases[0], Name: "slowed", Note: "params differ: +k=1"},
		{Base: r.Cases[1], New: n.Cases[1], Name: "same"},
		{Base: r.Cases[7], New: n.Cases[7], Name: "failed both"},
	}
	var out bytes.Buffer
	res, err := ComparePairs(&out, pairs, CompareOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if res.Compared != 2 || res.Regressed != 1 || res.Failed != 2 {
		t.Errorf("result %+v\n%s", res, out.String())
	}
	for _, m := range [][]string{
		{"slowed", "-33.33%", "FAIL: slower (params differ: +k=1)"},
		{"same", "~", "[", "no significant change"},
		{"failed both", "FAIL: new status failed"},
	} {
		if !hasLineWith(out.String(), m) {
			t.Errorf("no line with %q in\n%s", m, out.String())
		}
	}
	if _, err := ComparePairs(&bytes.Buffer{}, nil, CompareOptions{}); !errors.Is(err, ErrNothingCompared) {
		t.Errorf("no pairs: err = %v", err)
	}
}

// TestBootstrapRatio: the interval holds the ratio of the medians and
// narrows as the samples agree.
func TestBootstrapRatio(t *testing.T) {
	base := []float64{10, 11, 9, 10.5, 9.5, 10, 10.2, 9.8}
	var slow []float64
	for _, x := range base {
		slow = append(slow, x*0.9)
	}
	lo, hi := bootstrapRatio(sampleRounds{{base, slow}}, 0.95)
	if !(lo <= 0.9 && 0.9 <= hi) || hi-lo > 0.15 {
		t.Errorf("interval [%v, %v] for ratio 0.9", lo, hi)
	}
	lo2, hi2 := bootstrapRatio(sampleRounds{{base, slow}}, 0.95)
	if lo != lo2 || hi != hi2 {
		t.Errorf("not reproducible: [%v, %v] then [%v, %v]", lo, hi, lo2, hi2)
	}
	same := []float64{5, 5, 5, 5}
	if lo, hi := bootstrapRatio(sampleRounds{{same, same}}, 0.95); lo != 1 || hi != 1 {
		t.Errorf("equal constant samples: [%v, %v]", lo, hi)
	}
}

// TestCompareDisturbedRound: eight interleaved rounds alike but one, in
// which the new side ran at half speed throughout (a burst of load). Its
// searches make the U test significant; resampled by rounds, the interval
// holds no change, so the pair does not fail; it is wider than the
// interval that resamples searches alone.
func TestCompareDisturbedRound(t *testing.T) {
	mk := func(scale func(round int) float64) *results.Case {
		c := &results.Case{Variant: "v", Backend: "cpu", Ranks: 1, Status: results.StatusOK, Graph: results.Graph{Scale: 10, EdgeFactor: 16}}
		for r := 0; r < 8; r++ {
			for i := 0; i < 16; i++ {
				teps := (1 + 0.02*float64((i*7+r*3)%16)) * 1e9 * scale(r)
				c.BFS = append(c.BFS, results.Search{TimeS: 1e9 / teps, TEPS: teps, Validated: true, Valid: true})
			}
		}
		return c
	}
	base := mk(func(int) float64 { return 1 })
	disturbed := mk(func(r int) float64 {
		if r == 2 || r == 5 {
			return 0.5
		}
		return 1
	})
	rounds := make([][2]int, 8)
	for i := range rounds {
		rounds[i] = [2]int{16, 16}
	}
	var out bytes.Buffer
	res, err := ComparePairs(&out, []Pair{{Base: base, New: disturbed, Name: "by rounds", Rounds: rounds}}, CompareOptions{Threshold: 0.02})
	if err != nil || res.Failed != 0 || !strings.Contains(out.String(), "interval holds no change") {
		t.Errorf("by rounds: %+v %v\n%s", res, err, out.String())
	}
	flat := roundsOf(base, disturbed, nil)
	byRound := roundsOf(base, disturbed, rounds)
	if len(flat) != 1 || len(byRound) != 8 {
		t.Fatalf("%d and %d rounds", len(flat), len(byRound))
	}
	lo1, hi1 := bootstrapRatio(flat, 0.95)
	lo8, hi8 := bootstrapRatio(byRound, 0.95)
	if hi8-lo8 <= hi1-lo1 {
		t.Errorf("by rounds [%v, %v] not wider than flat [%v, %v]", lo8, hi8, lo1, hi1)
	}
}

// fileRun is a run of one case on the graph file path, the graph's size
// and fingerprint as given, with nbfs valid searches of about gteps.
func fileRun(path string, nv, ne int64, fp string, gteps float64, nbfs int) *results.Run {
	rng := rand.New(rand.NewSource(int64(nv)))
	c := synthCase(rng, "reference", "cpu", map[string]any{"alpha": 15}, 0, gteps, nbfs, 4)
	c.Graph = results.Graph{File: path, NVertices: nv, NEdges: ne, Fingerprint: fp}
	return &results.Run{ConfigPath: "c.toml", Env: results.Env{CPUModel: "Test CPU", CPUs: 2}, Cases: []*results.Case{c}}
}

// TestCompareDifferentGraphs: two cases on different graphs are never
// compared as one, whether the graphs are files of one name (scale 10
// against 13, both graph.txt) or one Kronecker spec whose edge lists
// differ; the output says why.
func TestCompareDifferentGraphs(t *testing.T) {
	kron := func(fp string) *results.Run {
		r := fileRun("", 1<<10, 16<<10, fp, 1, 16)
		r.Cases[0].Graph.Scale, r.Cases[0].Graph.EdgeFactor, r.Cases[0].Graph.Seed = 10, 16, [2]uint64{2, 3}
		return r
	}
	for _, tc := range []struct {
		desc      string
		base, new *results.Run
		want      string
	}{
		{"files of one name", fileRun("a/graph.txt", 1<<10, 16<<10, "aaaa", 1, 16), fileRun("b/graph.txt", 1<<13, 16<<13, "bbbb", 2.06, 16), "different graph"},
		{"one spec, other edges", kron("aaaa"), kron("bbbb"), "different graph"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var out bytes.Buffer
			res, err := CompareRuns(&out, tc.base, tc.new, CompareOptions{Threshold: 0.05})
			if res.Compared != 0 || res.Failed == 0 || strings.Contains(out.String(), "PASS") || !strings.Contains(out.String(), tc.want) {
				t.Errorf("compared %d, failed %d, err %v; want no comparison, a failure naming %q:\n%s", res.Compared, res.Failed, err, tc.want, out.String())
			}
		})
	}
	// The same file, loaded twice, still compares.
	var out bytes.Buffer
	res, err := CompareRuns(&out, fileRun("a/graph.txt", 1<<10, 16<<10, "aaaa", 1, 16), fileRun("b/graph.txt", 1<<10, 16<<10, "aaaa", 1, 16), CompareOptions{Threshold: 0.05})
	if err != nil || res.Compared != 1 || res.Failed != 0 {
		t.Errorf("one graph under two folders: compared %d, failed %d, err %v\n%s", res.Compared, res.Failed, err, out.String())
	}
}

// TestCompareCannotTell: a pair with too few valid searches for the U test
// to ever find a change at the level asked fails, saying so, instead of
// reading "no significant change" and passing; a partly validated case
// says how many of its searches were validated.
func TestCompareCannotTell(t *testing.T) {
	base := synthRun()
	base.Cases = base.Cases[:1] // 8 valid searches
	for _, tc := range []struct {
		desc    string
		edit    func(c *results.Case)
		alpha   float64
		failed  int
		mention []string
	}{
		{"1 of 8 validated, 42% slower", func(c *results.Case) {
			for i := range c.BFS {
				c.BFS[i].TEPS *= 0.58
				c.BFS[i].Validated, c.BFS[i].Valid = i == 0, i == 0
			}
		}, 0, 1, []string{"FAIL: too few valid searches to tell", "n=8+1", "1 of 8 searches validated"}},
		{"2 valid in new at alpha 0.01", func(c *results.Case) { c.BFS = c.BFS[:2] }, 0.01, 1, []string{"FAIL: too few valid searches to tell", "n=8+2", "5 a side would"}},
		{"2 valid in new: enough at 0.05 (8 against 2 can separate)", func(c *results.Case) { c.BFS = c.BFS[:2] }, 0, 0, []string{"no significant change"}},
		{"3 valid in new: enough at 0.05", func(c *results.Case) { c.BFS = c.BFS[:3] }, 0, 0, []string{"no significant change"}},
		{"8+8 at alpha 1e-9", func(c *results.Case) {}, 1e-9, 1, []string{"FAIL: too few valid searches to tell", "p <= 1e-09"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			n := copyRun(t, base)
			tc.edit(n.Cases[0])
			var out bytes.Buffer
			res, _ := CompareRuns(&out, base, n, CompareOptions{Threshold: 0.05, Alpha: tc.alpha})
			if res.Failed != tc.failed || !hasLineWith(out.String(), tc.mention) {
				t.Errorf("failed %d, want %d, and a line with %q:\n%s", res.Failed, tc.failed, tc.mention, out.String())
			}
		})
	}
}
