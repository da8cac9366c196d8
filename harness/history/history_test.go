package history

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// synthBench is a bench.txt as bfsbench writes it: 32 searches of each
// case, TEPS scattered by ±3% around teps[case] (each search's own noise)
// times a run's own level, within ±1.5% (the machine on that day).
func synthBench(rng *rand.Rand, cpu string, teps map[string]float64) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "cpu: %s\nUnit TEPS better=higher\n", cpu)
	run := 1 + 0.03*(rng.Float64()-0.5)
	for _, name := range slices.Sorted(maps.Keys(teps)) {
		for range 32 {
			t := teps[name] * run * (1 + 0.06*(rng.Float64()-0.5))
			fmt.Fprintf(&b, "Benchmark%s 1 %.1f ns/op %.0f TEPS\n", name, 1e9*1e6/t, t)
		}
	}
	return b.Bytes()
}

// TestStepAtOneCommit: a dozen commits of three cases, one case 10% slower
// from commit 7 on. The history reports that step at commit 7 and nowhere
// else, and the case's last ratio to the first commit is about -10%.
func TestStepAtOneCommit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	const step = 7
	cases := map[string]float64{
		"BFS/plugin=reference/backend=cpu/scale=14/ef=16":         4.5e8,
		"BFS/plugin=diropt/backend=cpu/scale=14/ef=16/grid=2x2":   3.0e8,
		"BFS/plugin=atomic2d/backend=cpu/scale=14/ef=16/grid=2x2": 3.5e7,
	}
	const slow = "BFS/plugin=diropt/backend=cpu/scale=14/ef=16/grid=2x2"
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	var commits []Commit
	for i := range 12 {
		teps := map[string]float64{}
		for k, v := range cases {
			teps[k] = v
		}
		if i >= step {
			teps[slow] /= 1.1
		}
		commits = append(commits, Commit{
			Hash: fmt.Sprintf("%08x%032x", 0xc0ffee00+i, 0), Time: t0.Add(time.Duration(i) * 24 * time.Hour),
			Subject: fmt.Sprintf("commit %d", i), Bench: synthBench(rng, "Test CPU", teps),
		})
	}
	h, err := Build(commits, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := h.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", text.String())
	if len(h.Series) != 1 || len(h.Series[0].Commits) != 12 || len(h.Series[0].Benchmarks) != 3 {
		t.Fatalf("series: %+v", h.Series)
	}
	if len(h.Changes) != 1 {
		t.Fatalf("%d changes, want the one at commit %d: %+v", len(h.Changes), step, h.Changes)
	}
	c := h.Changes[0]
	if c.Commit != step || c.Prev != step-1 || c.Benchmark != slow || c.Delta > -0.06 || c.Delta < -0.13 || c.Score > -2 {
		t.Errorf("change %+v, want %s about -9%% at commit %d", c, slow, step)
	}
	s := h.Series[0]
	for j, b := range s.Benchmarks {
		last := s.At(11, j)
		want := 1.0
		if b == slow {
			want = 1 / 1.1
		}
		if last == nil || last.Center < want-0.03 || last.Center > want+0.03 {
			t.Errorf("%s: last ratio %+v, want about %.3f", b, last, want)
		}
	}
	if !strings.Contains(text.String(), commits[step].Short()) {
		t.Errorf("the text does not name commit %s", commits[step].Short())
	}

	paths, err := h.WriteFiles(t.TempDir())
	if err != nil || len(paths) != 2 {
		t.Fatalf("files %v: %v", paths, err)
	}
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestMachines: commits measured on two machines make two series, each
// against its own first commit.
func TestMachines(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	teps := map[string]float64{"BFS/plugin=reference/backend=cpu/scale=14/ef=16": 4e8}
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	var commits []Commit
	for i := range 4 {
		bench := synthBench(rng, "CPU A", teps)
		if i > 0 {
			bench = append(bench, synthBench(rng, "CPU B", teps)...)
		}
		commits = append(commits, Commit{Hash: fmt.Sprintf("%012x%028x", i+1, 0), Time: t0, Bench: bench})
	}
	h, err := Build(commits, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Series) != 2 || h.Series[0].Machine != "CPU A" || len(h.Series[0].Commits) != 4 ||
		h.Series[1].Machine != "CPU B" || len(h.Series[1].Commits) != 3 || h.Series[1].Baseline.Hash != commits[1].Hash {
		t.Errorf("series %+v", h.Series)
	}
	if len(h.Changes) != 0 {
		t.Errorf("changes %+v", h.Changes)
	}
}

// TestLoad reads notes back in first-parent order, oldest first, skipping
// commits without one.
func TestLoad(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "--quiet")
	ctx := context.Background()
	if got, err := Load(ctx, repo, DefaultRef, "HEAD", 0); err != nil || got != nil {
		t.Fatalf("no notes: %v %v", got, err)
	}
	note := filepath.Join(t.TempDir(), "bench.txt")
	for i := range 4 {
		run("commit", "--quiet", "--allow-empty", "-m", fmt.Sprintf("c%d", i))
		if i != 2 {
			if err := os.WriteFile(note, fmt.Appendf(nil, "cpu: X\nBenchmarkBFS/x 1 %d ns/op\n", i+1), 0o644); err != nil {
				t.Fatal(err)
			}
			run("notes", "--ref", DefaultRef, "add", "-F", note, "HEAD")
		}
	}
	got, err := Load(ctx, repo, DefaultRef, "HEAD", 0)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, c := range got {
		subjects = append(subjects, c.Subject)
	}
	if fmt.Sprint(subjects) != "[c0 c1 c3]" || !strings.Contains(string(got[2].Bench), "4 ns/op") {
		t.Errorf("loaded %v", got)
	}
	if got, err := Load(ctx, repo, DefaultRef, "HEAD", 2); err != nil || len(got) != 1 || got[0].Subject != "c3" {
		t.Errorf("the last 2 commits: %v %v", got, err)
	}
}
