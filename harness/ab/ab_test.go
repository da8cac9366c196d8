package ab

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/report"
	"github.com/bfsbench/bfsbench/harness/results"
)

// TestCaseNames: a case is named by its variant and the parameters that
// name it; the config handed to the runner validates every search, and the
// caller's config is left as it was.
func TestCaseNames(t *testing.T) {
	cfg, err := config.Parse("t.toml", `
[workload]
scale = [8, 9]
nbfs = 4
validate = 2

[[variant]]
name = "a"
plugin = "reference"
[variant.params]
direction_optimizing = [true, false]
alpha = [10, 20]
`)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]any{"alpha": int64(20), "beta": int64(18), "direction_optimizing": false}
	if got := caseName(cfg.Variants[0].Name, params, []string{"alpha", "direction_optimizing"}); got != "a alpha=20 direction_optimizing=false" {
		t.Errorf("name %q", got)
	}
	if got := caseName("a", params, []string{}); got != "a" {
		t.Errorf("name %q", got)
	}
	all := validateAll(cfg)
	for i, w := range all.Workloads {
		if w.Validate != config.ValidateAll || cfg.Workloads[i].Validate != 2 {
			t.Errorf("workload %d: validate %d (the config's %d)", i, w.Validate, cfg.Workloads[i].Validate)
		}
	}
}

// TestOrder: within a round the keys go base, new, new, base, ... (ABBA);
// the next round, and the next case, start with the other side.
func TestOrder(t *testing.T) {
	seq := func(u, r int) []int {
		var s []int
		for i := 0; i < 4; i++ {
			o := Order(u, r, i)
			s = append(s, o[0], o[1])
		}
		return s
	}
	abba := []int{0, 1, 1, 0, 0, 1, 1, 0}
	baab := []int{1, 0, 0, 1, 1, 0, 0, 1}
	for _, tc := range []struct {
		u, r int
		want []int
	}{{0, 0, abba}, {0, 1, baab}, {1, 0, baab}, {1, 1, abba}} {
		if got := seq(tc.u, tc.r); !slices.Equal(got, tc.want) {
			t.Errorf("case %d round %d: order %v, want %v", tc.u, tc.r, got, tc.want)
		}
	}
}

func TestMerge(t *testing.T) {
	search := func(teps float64, valid bool) results.Search {
		return results.Search{TimeS: 1 / teps, TEPS: teps, NEdge: 1, Validated: true, Valid: valid}
	}
	r1 := &results.Case{Variant: "v", Status: results.StatusOK, ConstructionTimeS: 1, BFS: []results.Search{search(1, true), search(2, true)}}
	r2 := &results.Case{Variant: "v", Status: results.StatusInvalid, Error: "search 1 from 3: cycle", ConstructionTimeS: 3,
		BFS: []results.Search{search(4, false), search(4, true)}}
	m := Merge([]*results.Case{r1, r2})
	if len(m.BFS) != 4 || m.Validated != 4 || m.Stats.N != 3 || m.Status != results.StatusInvalid ||
		m.Error != "run 2: search 1 from 3: cycle" || m.ConstructionTimeS != 2 {
		t.Errorf("merged: %+v", m)
	}
	if len(r1.BFS) != 2 || r1.Status != results.StatusOK {
		t.Errorf("a run was changed: %+v", r1)
	}
}

// probePlugin is a plugin for the end-to-end test: a serial BFS, done
// `work` times per search. Where ABPROBE_DIR names a folder, a probe
// holds a file there from its construction to its close, and its case
// info counts the other probes' files it found on constructing: the
// probes alive at once.
const probePlugin = `package main

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

const work = WORK

func main() { sdk.Serve(plugin{}) }

type plugin struct{}

func (plugin) Info() sdk.Info {
	return sdk.Info{Name: "abprobe", Summary: "bfsbench ab's test plugin", Backends: []string{sdk.BackendCPU}}
}

func (plugin) New(cfg sdk.Config) (sdk.Variant, error) { return &variant{shared: cfg.Shared}, nil }

type variant struct {
	w       *sdk.Workload
	parents []int64
	shared  bool
	others  int
	mark    string
}

func (v *variant) CaseInfo() map[string]any { return map[string]any{"shared": v.shared, "others": v.others} }

func (v *variant) Construct(w *sdk.Workload) error {
	v.w = w
	if d := os.Getenv("ABPROBE_DIR"); d != "" {
		others, _ := filepath.Glob(filepath.Join(d, "*"))
		v.others = len(others)
		v.mark = filepath.Join(d, strconv.Itoa(os.Getpid()))
		return os.WriteFile(v.mark, nil, 0o644)
	}
	return nil
}

func (v *variant) BFS(root int64) (sdk.Search, error) {
	for i := 0; i < work; i++ {
		v.parents, _ = graph500.SerialBFS(v.w.Edges, v.w.NVertices, root)
	}
	return sdk.Search{}, nil
}

func (v *variant) Parents(dst []int64) error { copy(dst, v.parents); return nil }

func (v *variant) Close() error {
	if v.mark != "" {
		return os.Remove(v.mark)
	}
	return nil
}
`

// buildingTest skips t, saying why, where a test that builds revisions
// cannot run (-short, no git or go, not in a git checkout), and returns
// the checkout's top folder.
func buildingTest(t *testing.T, what string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(what)
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	top, err := git(context.Background(), ".", "rev-parse", "--show-toplevel")
	if err != nil {
		t.Skip("not in a git checkout: ", err)
	}
	return top
}

// TestEndToEnd clones this repository, commits a probe plugin, slows it
// down fourfold in the working tree, and measures the commit against the
// working tree, interleaved and sequential: the slow-down must fail the
// comparison, results.json must hold both sides with every search
// validated, and no worktree may be left behind.
func TestEndToEnd(t *testing.T) {
	ctx := context.Background()
	top := buildingTest(t, "builds two revisions")
	repo := filepath.Join(t.TempDir(), "repo")
	sh := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	sh(".", "git", "clone", "--quiet", top, repo)
	probe := filepath.Join(repo, "plugins", "abprobe", "main.go")
	write := func(work string) {
		if err := os.MkdirAll(filepath.Dir(probe), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(probe, []byte(strings.Replace(probePlugin, "WORK", work, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("1")
	sh(repo, "git", "add", "plugins/abprobe")
	sh(repo, "git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "abprobe")
	write("4") // uncommitted: the working tree is the new side

	dir := t.TempDir()
	var log bytes.Buffer
	opt := BuildOptions{Repo: repo, Plugins: []string{"abprobe"}, Log: &log}
	// A relative output folder (bfsbench ab --build-only .carry/ab) must
	// not land in the revision's worktree, which is removed after the build.
	t.Chdir(dir)
	opt.Dir = "base"
	base, err := BuildRevision(ctx, BaseLabel, "HEAD", opt)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if _, err := os.Stat(filepath.Join(base.PluginDir, "abprobe")); err != nil || !filepath.IsAbs(base.PluginDir) {
		t.Fatalf("base built into %q: %v", base.PluginDir, err)
	}
	opt.Dir = filepath.Join(dir, "new")
	cur, err := BuildRevision(ctx, NewLabel, "", opt)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !cur.Dirty || base.Commit != cur.Commit || !strings.Contains(cur.Describe(), "uncommitted changes") {
		t.Errorf("base %+v, new %+v", base, cur)
	}
	// Measure the builds as saved and taken up again (bfsbench ab
	// --build-only, then --builds where the plugins run).
	for i, b := range []*Build{base, cur} {
		if err := b.Save(); err != nil {
			t.Fatal(err)
		}
		loaded, err := LoadBuild(filepath.Dir(b.PluginDir), b.Label)
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Describe() != b.Describe() {
			t.Errorf("side %d: loaded %q, built %q", i, loaded.Describe(), b.Describe())
		}
		*b = *loaded
	}
	cfg, err := config.Parse(filepath.Join(dir, "ab.toml"), "[workload]\nscale = 9\nnbfs = 8\n\n[[variant]]\nname = \"probe\"\nplugin = \"abprobe\"\n")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ABPROBE_DIR", t.TempDir()) // the plugins inherit it
	out := filepath.Join(dir, "out")
	res, err := Run(ctx, Options{Config: cfg, Base: base, New: cur, Rounds: 2, OutDir: out, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	var table bytes.Buffer
	cr, err := report.ComparePairs(&table, res.Pairs, report.CompareOptions{Threshold: 0.2, MinSearches: 16})
	if err != nil || cr.Regressed != 1 || !strings.Contains(table.String(), "FAIL: slower") {
		t.Errorf("compare: %+v %v\n%s", cr, err, table.String())
	}

	saved, err := results.Load(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Cases) != 2 {
		t.Fatalf("%d cases in results.json", len(saved.Cases))
	}
	for i, side := range []string{BaseLabel, NewLabel} {
		c := saved.Cases[i]
		if c.Info["shared"] != true || c.Info[InfoOrder] != OrderInterleaved { // the plugins were told that they alternate on the machine
			t.Errorf("case %d: info %v, want shared true", i, c.Info)
		}
		// The merged case's info is its first round's: base constructed
		// first there, then new, with base alive.
		if got := fmt.Sprint(c.Info["others"]); got != fmt.Sprint(i) {
			t.Errorf("case %d: %s other probes alive at construction, want %d", i, got, i)
		}
		if c.Variant != "probe@"+side || c.Info[InfoSide] != side || c.Status != results.StatusOK ||
			len(c.BFS) != 16 || c.Validated != 16 || c.Stats.N != 16 {
			t.Errorf("case %d: %s %v %s, %d searches, %d validated", i, c.Variant, c.Info, c.Status, len(c.BFS), c.Validated)
		}
	}
	// Each round started both plugins: each side has its plugin log.
	checkLogs := func(out, order string) {
		t.Helper()
		for r := 1; r <= 2; r++ {
			for _, side := range []string{BaseLabel, NewLabel} {
				logs, _ := filepath.Glob(filepath.Join(out, "runs", fmt.Sprintf("case1-round%d", r), side, "logs", "probe_*.log"))
				if len(logs) != 1 {
					t.Errorf("%s round %d, %s: plugin logs %v", order, r, side, logs)
				}
			}
		}
	}
	checkLogs(out, OrderInterleaved)
	// Sequential: each side alone, told that it does not share the
	// machine; the same verdict and searches.
	out = filepath.Join(dir, "out-sequential")
	res, err = Run(ctx, Options{Config: cfg, Base: base, New: cur, Rounds: 2, Sequential: true, OutDir: out, Log: &log})
	if err != nil {
		t.Fatalf("sequential: %v\n%s", err, log.String())
	}
	table.Reset()
	cr, err = report.ComparePairs(&table, res.Pairs, report.CompareOptions{Threshold: 0.2, MinSearches: 16})
	if err != nil || cr.Regressed != 1 {
		t.Errorf("sequential compare: %+v %v\n%s", cr, err, table.String())
	}
	for i, side := range []string{BaseLabel, NewLabel} {
		c := res.Run.Cases[i]
		if c.Info["shared"] != false || c.Info[InfoOrder] != OrderSequential || c.Info[InfoSide] != side ||
			fmt.Sprint(c.Info["others"]) != "0" || // each alone
			c.Status != results.StatusOK || len(c.BFS) != 16 || c.Validated != 16 {
			t.Errorf("sequential case %d: %s %v %s, %d searches, %d validated", i, c.Variant, c.Info, c.Status, len(c.BFS), c.Validated)
		}
	}
	checkLogs(out, OrderSequential)

	if wt, _ := git(ctx, repo, "worktree", "list"); strings.Count(wt, "\n") != 0 {
		t.Errorf("worktrees left:\n%s", wt)
	}

	// A revision without the plugin is a setup error, named.
	opt.Dir = filepath.Join(dir, "old")
	if _, err := BuildRevision(ctx, BaseLabel, "HEAD~1", opt); err == nil || !strings.Contains(err.Error(), `has no plugin "abprobe"`) {
		t.Errorf("revision without the plugin: %v", err)
	}
	if _, err := BuildRevision(ctx, BaseLabel, "no-such-rev", opt); err == nil || !strings.Contains(err.Error(), `no revision "no-such-rev"`) {
		t.Errorf("missing revision: %v", err)
	}
}

// TestWorkingTreeLabel: the working tree's side says what it builds
// beyond HEAD: uncommitted changes to tracked files, and untracked files
// (go build compiles a new file in a plugin's folder), named; a clean
// tree says neither.
func TestWorkingTreeLabel(t *testing.T) {
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	ctx := context.Background()
	for _, tc := range []struct {
		desc      string
		edit      func(repo string)
		want, not []string
	}{
		{"clean", func(string) {}, nil, []string{"uncommitted", "untracked"}},
		{"untracked file", func(repo string) {
			os.WriteFile(filepath.Join(repo, "plugins", "p", "extra.go"), []byte("package main\n\nvar extra = 1\n"), 0o644)
		}, []string{"1 untracked file", "plugins/p/extra.go"}, []string{"uncommitted"}},
		{"both", func(repo string) {
			os.WriteFile(filepath.Join(repo, "plugins", "p", "main.go"), []byte("package main\n\nfunc main() { println() }\n"), 0o644)
			for _, n := range []string{"a.go", "b.go", "c.go", "d.go"} {
				os.WriteFile(filepath.Join(repo, "plugins", "p", n), []byte("package main\n"), 0o644)
			}
		}, []string{"uncommitted changes", "4 untracked files", "plugins/p/a.go", "..."}, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			repo := t.TempDir()
			sh := func(args ...string) {
				t.Helper()
				cmd := exec.Command(args[0], args[1:]...)
				cmd.Dir = repo
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			os.MkdirAll(filepath.Join(repo, "plugins", "p"), 0o755)
			os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module probe\n\ngo 1.21\n"), 0o644)
			os.WriteFile(filepath.Join(repo, "plugins", "p", "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
			sh("git", "init", "--quiet")
			sh("git", "add", ".")
			sh("git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "p")
			tc.edit(repo)
			b, err := BuildRevision(ctx, NewLabel, "", BuildOptions{Repo: repo, Dir: t.TempDir(), Plugins: []string{"p"}})
			if err != nil {
				t.Fatal(err)
			}
			d := b.Describe()
			for _, w := range tc.want {
				if !strings.Contains(d, w) {
					t.Errorf("%q does not say %q", d, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(d, w) {
					t.Errorf("%q says %q", d, w)
				}
			}
			// A saved build says it too.
			if err := b.Save(); err != nil {
				t.Fatal(err)
			}
			if l, err := LoadBuild(filepath.Dir(b.PluginDir), NewLabel); err != nil {
				t.Error(err)
			} else if l.Describe() != d {
				t.Errorf("loaded: %q, want %q", l.Describe(), d)
			}
		})
	}
}

// TestInterruptedBuildLeavesNothing: a build interrupted while the
// compiler runs stops every process it started and leaves no temporary
// folder (go's work folder) behind.
func TestInterruptedBuildLeavesNothing(t *testing.T) {
	for _, tool := range []string{"git", "go", "pgrep"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	repo := t.TempDir()
	sh := func(args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	os.MkdirAll(filepath.Join(repo, "plugins", "slow"), 0o755)
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module probe\n\ngo 1.21\n"), 0o644)
	// Enough code for the compiler to take seconds.
	var src strings.Builder
	src.WriteString("package main\n\nfunc main() { println(f0(1)) }\n")
	for i := range 30000 {
		fmt.Fprintf(&src, "func f%d(x int) int { if x > %d { return x * %d } ; return f%d(x+1) }\n", i, i, i, (i+1)%30000)
	}
	os.WriteFile(filepath.Join(repo, "plugins", "slow", "main.go"), []byte(src.String()), 0o644)
	sh("git", "init", "--quiet")
	sh("git", "add", ".")
	sh("git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "slow")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(1500*time.Millisecond, cancel)
	out := t.TempDir()
	_, err := BuildRevision(ctx, NewLabel, "", BuildOptions{Repo: repo, Dir: filepath.Join(out, "new"), Plugins: []string{"slow"}})
	if err == nil {
		t.Skip("the build finished before the interrupt")
	}
	time.Sleep(time.Second)
	// The compiler's arguments name the build's folders.
	for _, dir := range []string{repo, tmp, out} {
		ps, _ := exec.Command("pgrep", "-a", "-f", dir).Output()
		if len(bytes.TrimSpace(ps)) == 0 {
			continue
		}
		t.Errorf("processes left running:\n%s", ps)
		for _, l := range strings.Split(strings.TrimSpace(string(ps)), "\n") {
			if pid, err := strconv.Atoi(strings.Fields(l)[0]); err == nil {
				syscall.Kill(pid, syscall.SIGKILL) // the build's own, found by its folder
			}
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("left in TMPDIR: %v", names)
	}
}
