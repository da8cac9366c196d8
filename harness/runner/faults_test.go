package runner

// Tests of the faults the runner must survive: saves that fail,
// garbage from plugins, the memory preflight, interrupts at every stage,
// causes of plugin deaths, orphans and locks.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

func parse(t *testing.T, text string) *config.Config {
	t.Helper()
	cfg, err := config.Parse("t.toml", text)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// loadValid checks that results.json is valid JSON and returns it.
func loadValid(t *testing.T, path string) *results.Run {
	t.Helper()
	r, err := results.Load(path)
	if err != nil {
		t.Fatalf("results.json not readable: %v", err)
	}
	return r
}

// TestSaveFailureEndsRun: a results folder that fills up stops the run
// with a *SaveError (exit 1), never a silent warning; results.json keeps
// the cases saved before, and a copy elsewhere holds every finished case.
func TestSaveFailureEndsRun(t *testing.T) {
	dir := buildPlugins(t)
	saves := 0
	old := saveFile
	defer func() { saveFile = old }()
	saveFile = func(run *results.Run, path string) error {
		if strings.HasPrefix(path, os.TempDir()) && !strings.Contains(path, "results.json") {
			return old(run, path) // the fallback copy
		}
		saves++
		if saves > 2 { // the initial save and the first case's
			return &os.PathError{Op: "write", Path: path, Err: syscall.ENOSPC}
		}
		return old(run, path)
	}
	out := filepath.Join(t.TempDir(), "o")
	cfg := parse(t, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nname = \"a\"\nplugin = \"reference\"\n[[variant]]\nname = \"b\"\nplugin = \"reference\"\n[[variant]]\nname = \"c\"\nplugin = \"reference\"\n")
	run, err := Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard})
	var se *SaveError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("err = %v, want a SaveError naming the full disk", err)
	}
	disk := loadValid(t, filepath.Join(out, "results.json"))
	if disk.Cases[0].Status != results.StatusOK || len(disk.Cases[0].BFS) != 2 {
		t.Errorf("results.json lost the first case: %+v", disk.Cases[0])
	}
	if se.Fallback == "" {
		t.Fatalf("no fallback copy: %v", se.FallbackErr)
	}
	defer os.Remove(se.Fallback)
	fb := loadValid(t, se.Fallback)
	if fb.Cases[1].Status != results.StatusOK || fb.Cases[2].Status != results.StatusSkipped ||
		!strings.Contains(fb.Cases[2].Error, "could not be saved") {
		t.Errorf("fallback: case 2 %s, case 3 %s %q", fb.Cases[1].Status, fb.Cases[2].Status, fb.Cases[2].Error)
	}
	if run == nil || len(run.Warnings) == 0 {
		t.Errorf("the run records no warning of the failed save")
	}
}

// TestGarbageFromPluginKeepsResultsWritable: NaN times and infinite facts
// from a plugin fail its case; results.json stays valid JSON.
func TestGarbageFromPluginKeepsResultsWritable(t *testing.T) {
	dir := buildPlugins(t)
	run, err := runConfig(t, dir, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nname = \"g\"\nplugin = \"faulty\"\n[variant.params]\nmode = \"garbage\"\n[[variant]]\nname = \"ok\"\nplugin = \"faulty\"\n")
	var fe *FailedError
	if !errors.As(err, &fe) || len(fe.Cases) != 1 {
		t.Fatalf("err = %v", err)
	}
	g := run.Cases[0]
	if g.Status != results.StatusFailed || !strings.Contains(g.Error, "NaN") {
		t.Errorf("garbage case: %s %q", g.Status, g.Error)
	}
	if run.Cases[1].Status != results.StatusOK {
		t.Errorf("the case after garbage: %s", run.Cases[1].Status)
	}
}

func TestFiniteInfo(t *testing.T) {
	in := finiteInfo(map[string]any{"a": 1.5, "b": posInf(), "c": "x"})
	if in["a"] != 1.5 || in["b"] != "+Inf" || in["c"] != "x" {
		t.Fatalf("%v", in)
	}
}

func posInf() float64 { z := 0.0; return 1 / z }

// TestPreflightRefusesBeforeWork: a case that cannot fit is refused with
// the numbers before anything is generated or a folder created.
func TestPreflightRefusesBeforeWork(t *testing.T) {
	dir := buildPlugins(t)
	for _, tc := range []struct {
		text string
		m    *Machine
		want string
	}{
		{"[workload]\nscale = 36\nnbfs = 1\n[[variant]]\nplugin = \"reference\"\n", nil, "vertices, more than"},
		{"[workload]\nscale = 30\nnbfs = 1\n[[variant]]\nplugin = \"reference\"\n", &Machine{HostAvail: 8 << 30}, "GiB of memory"},
		{"[workload]\nscale = 20\nnbfs = 1\n[[variant]]\nplugin = \"reference\"\n", &Machine{HostAvail: 64 << 30, ShmFree: 1 << 20}, "/dev/shm"},
	} {
		cfg := parse(t, tc.text)
		out := filepath.Join(t.TempDir(), "o")
		start := time.Now()
		run, err := Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard, Machine: tc.m})
		var pe *PreflightError
		if run != nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: run %v, err %v; want a preflight error naming %q", tc.text, run != nil, err, tc.want)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("results folder created for a refused run")
		}
		if el := time.Since(start); el > 10*time.Second {
			t.Errorf("refusal took %v", el)
		}
	}
}

func TestEstimateAndCheck(t *testing.T) {
	v := &config.Variant{Backend: sdk.BackendCUDA, Ranks: 2, Launcher: config.LauncherEmbedded}
	info := sdk.Info{Memory: map[string]sdk.Memory{sdk.BackendCUDA: {DevicePerEdge: 8, HostPerVertex: 4}}}
	e := estimate(1<<20, 16<<20, true, v, info)
	if !e.Declared || e.Device != 8*(16<<20) || e.Plugin != 16*(16<<20)+4*(1<<20) {
		t.Fatalf("estimate %+v", e)
	}
	m := Machine{HostAvail: 1 << 40, GPUProbed: true, GPUFree: []float64{32 << 20, 1 << 30}}
	if err := m.check(e, sdk.BackendCUDA, 2); err == nil || !strings.Contains(err.Error(), "GPU memory on each of 2 GPUs") {
		t.Fatalf("check: %v", err)
	}
	if err := m.check(e, sdk.BackendCUDA, 1); err != nil {
		t.Fatalf("fits on the larger GPU: %v", err)
	}
}

// interruptAt runs the config text, cancelling delay after the nth start
// of stage; with slowStart set, plugins started after the plan start that
// slowly. It returns the run, its error, how long Run took after the
// cancel and the results folder.
func interruptAt(t *testing.T, dir, text, stageName string, nth int, delay time.Duration, slowStart string) (*results.Run, error, time.Duration, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled time.Time
	n := 0
	restore := SetStageHook(func(s string) {
		if s == "generate" && slowStart != "" {
			os.Setenv("FAULTY_START_DELAY", slowStart)
		}
		if s == stageName {
			n++
			switch {
			case n == nth && delay == 0:
				// At once, inside the stage: a timer of 0 fires when the
				// scheduler gets to it, by which time a small case may
				// have finished its searches (a flaky "1 cases finished").
				cancelled = time.Now()
				cancel()
			case n == nth:
				time.AfterFunc(delay, func() { cancelled = time.Now(); cancel() })
			}
		}
	})
	defer restore()
	defer os.Unsetenv("FAULTY_START_DELAY")
	out := filepath.Join(t.TempDir(), "o")
	run, err := Run(ctx, Options{Config: parse(t, text), OutDir: out, PluginDirs: []string{dir}, Log: io.Discard})
	if cancelled.IsZero() {
		t.Fatalf("stage %s never reached %d times (err %v)", stageName, nth, err)
	}
	return run, err, time.Since(cancelled), out
}

// TestInterruptEveryStage: an interrupt at each stage (generation, key
// selection, plugin start, construction, search, validation) ends the run
// within a second or two, as interrupted, with results.json valid and
// holding every finished search.
func TestInterruptEveryStage(t *testing.T) {
	dir := buildPlugins(t)
	two := func(mode string) string {
		return "[workload]\nscale = 8\nnbfs = 3\n[[variant]]\nname = \"first\"\nplugin = \"faulty\"\n[[variant]]\nname = \"second\"\nplugin = \"faulty\"\n[variant.params]\nmode = \"" + mode + "\"\n"
	}
	for _, tc := range []struct {
		stage     string
		nth       int
		text      string
		delay     time.Duration
		slowStart string
		finished  int // cases finished before the interrupt
	}{
		{"generate", 1, "[workload]\nscale = 20\nnbfs = 1\n[[variant]]\nplugin = \"faulty\"\n", 50 * time.Millisecond, "", 0},
		{"keys", 1, two("ok"), 0, "", 0},
		{"start", 1, two("ok"), 200 * time.Millisecond, "1h", 0},
		{"construct", 2, two("slow-construct"), 300 * time.Millisecond, "", 1},
		{"search", 7, two("hang"), 300 * time.Millisecond, "", 1},
		{"validate", 1, two("ok"), 0, "", 0},
	} {
		t.Run(tc.stage, func(t *testing.T) {
			run, err, after, out := interruptAt(t, dir, tc.text, tc.stage, tc.nth, tc.delay, tc.slowStart)
			if err == nil || !strings.Contains(err.Error(), "interrupted") {
				t.Fatalf("err = %v", err)
			}
			if after > 2*time.Second {
				t.Errorf("the run ended %v after the interrupt", after)
			}
			if run == nil {
				t.Fatal("no run record")
			}
			disk := loadValid(t, filepath.Join(out, "results.json"))
			ok := 0
			for _, c := range disk.Cases {
				if c.Status == results.StatusOK {
					ok++
					if len(c.BFS) != 3 {
						t.Errorf("finished case %s holds %d searches", c.Variant, len(c.BFS))
					}
				} else if !strings.Contains(c.Error, "interrupted") {
					t.Errorf("case %s: %s %q", c.Variant, c.Status, c.Error)
				}
			}
			if ok != tc.finished || disk.Finished == "" {
				t.Errorf("%d cases finished, want %d; finished %q", ok, tc.finished, disk.Finished)
			}
		})
	}
}

// TestCausesOnConsoleAndInResults: a plugin dying of SIGBUS or out of
// memory is reported with its cause, not as "unexpected EOF".
func TestCausesOnConsoleAndInResults(t *testing.T) {
	dir := buildPlugins(t)
	var log bytes.Buffer
	cfg := parse(t, "[workload]\nscale = 8\nnbfs = 1\n[[variant]]\nname = \"bus\"\nplugin = \"faulty\"\n[variant.params]\nmode = \"sigbus\"\n[[variant]]\nname = \"oom\"\nplugin = \"faulty\"\n[variant.params]\nmode = \"oom\"\n")
	out := filepath.Join(t.TempDir(), "o")
	run, _ := Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: &log})
	disk := loadValid(t, filepath.Join(out, "results.json"))
	for i, want := range []string{"SIGBUS", "out of memory"} {
		c := disk.Cases[i]
		if c.Status != results.StatusFailed || !strings.Contains(c.Cause, want) {
			t.Errorf("case %s: status %s, cause %q, want %q (error %q)", c.Variant, c.Status, c.Cause, want, c.Error)
		}
	}
	if !strings.Contains(log.String(), "cause: the plugin died of SIGBUS") || !strings.Contains(disk.Cases[0].Cause, "/dev/shm") {
		t.Errorf("console: %s", log.String())
	}
	_ = run
}

// TestMPIRunSlotsCause: mpirun refusing for lack of slots is reported as
// such, with --oversubscribe as the fix, not as go-plugin's boilerplate.
func TestMPIRunSlotsCause(t *testing.T) {
	dir := buildPlugins(t)
	if _, err := exec.LookPath("mpirun"); err != nil {
		t.Skip("no mpirun")
	}
	args := ""
	if os.Geteuid() == 0 {
		args = "mpirun_args = [\"--allow-run-as-root\"]\n"
	}
	run, _ := runConfig(t, dir, "[workload]\nscale = 6\nnbfs = 1\n[[variant]]\nplugin = \"reference\"\nlauncher = \"mpirun\"\nranks = "+itoa(4*runtime.NumCPU())+"\n"+args)
	if run == nil {
		t.Fatal("no run")
	}
	c := run.Cases[0]
	if c.Status != results.StatusFailed || !strings.Contains(c.Cause, "--oversubscribe") || strings.Contains(c.Error, "not compiled for this architecture") {
		t.Errorf("status %s\ncause %q\nerror %q", c.Status, c.Cause, c.Error)
	}
}

func TestDiagnose(t *testing.T) {
	for _, tc := range []struct {
		f    failureInfo
		want string
	}{
		{failureInfo{status: "signal: bus error", parentsB: 1 << 30, shmFree: 64 << 20}, "--shm-size=3g"},
		{failureInfo{stderr: "fatal error: runtime: out of memory"}, "ran out of memory"},
		{failureInfo{status: "signal: killed", estimateB: 2 << 30, availB: 1 << 30, oomKills: -1}, "out-of-memory killer (estimated need 2.0 GiB, 1.0 GiB available"},
		{failureInfo{stderr: "There are not enough slots available in the system", ranks: 8}, "--oversubscribe"},
		{failureInfo{stderr: "mpirun noticed that process rank 1 with PID 7 on node x exited on signal 11 (Segmentation fault)."}, "rank 1 died of signal 11 (Segmentation fault)"},
		{failureInfo{status: "exit status 3"}, "exited with exit status 3"},
		{failureInfo{status: "running"}, ""},
	} {
		if got := diagnose(tc.f); !strings.Contains(got, tc.want) || (tc.want == "" && got != "") {
			t.Errorf("diagnose(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
	msg := cleanStartError("starting plugin x: Unrecognized remote plugin message: \nFailed to read any lines from plugin's stdout\nThis usually means\n  the plugin was not compiled for this architecture,")
	if strings.Contains(msg, "architecture") || !strings.Contains(msg, "exited before its handshake") {
		t.Errorf("cleanStartError: %q", msg)
	}
}

// TestNoOrphansAfterSIGKILL: killing bfsbench with SIGKILL takes its
// plugin with it, and the next run removes the parents file it left.
func TestNoOrphansAfterSIGKILL(t *testing.T) {
	dir := buildPlugins(t)
	bin := filepath.Join(t.TempDir(), "bfsbench")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/bfsbench").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	work := t.TempDir()
	cfgPath := filepath.Join(work, "hang.toml")
	os.WriteFile(cfgPath, []byte("[workload]\nscale = 8\nnbfs = 3\n[[variant]]\nplugin = \"faulty\"\n[variant.params]\nmode = \"hang\"\n"), 0o644)
	tmp := t.TempDir()
	cmd := exec.Command(bin, "run", cfgPath, "--plugins", dir, "--out", filepath.Join(work, "o"))
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for the plugin to hang in its second search.
	var plugin int
	for i := 0; i < 100 && plugin == 0; i++ {
		time.Sleep(100 * time.Millisecond)
		out, _ := exec.Command("pgrep", "-P", itoa(cmd.Process.Pid), "-f", "faulty").Output()
		if f := strings.Fields(string(out)); len(f) > 0 {
			plugin = atoi(f[0])
		}
	}
	if plugin == 0 {
		cmd.Process.Kill()
		t.Fatal("plugin never started")
	}
	time.Sleep(500 * time.Millisecond)
	shm, _ := filepath.Glob(filepath.Join(shmBase(), "bfsbench-run"+itoa(cmd.Process.Pid)+"-*"))
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for processAlive(plugin) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if processAlive(plugin) {
		syscall.Kill(plugin, syscall.SIGKILL)
		t.Fatalf("plugin %d outlived its harness", plugin)
	}
	if len(shm) == 0 {
		t.Fatal("no parents folder seen while the run was going")
	}
	removed := CleanStale()
	for _, d := range shm {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s left after CleanStale (removed %v)", d, removed)
		}
	}
}

// TestNoSocketsLeftAndQuietStderr: a run leaves no go-plugin socket behind
// and writes no "[ERR] yamux" line on the harness's stderr.
func TestNoSocketsLeftAndQuietStderr(t *testing.T) {
	dir := buildPlugins(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	var captured bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&captured, r); close(done) }()
	text := "[workload]\nscale = 8\nnbfs = 2\n"
	for _, m := range []string{"ok", "ok", "crash", "ok", "error", "ok"} {
		text += "[[variant]]\nname = \"" + m + itoa(len(text)) + "\"\nplugin = \"faulty\"\n[variant.params]\nmode = \"" + m + "\"\n"
	}
	_, _ = Run(context.Background(), Options{Config: parse(t, text), OutDir: filepath.Join(t.TempDir(), "o"), PluginDirs: []string{dir}, Log: io.Discard})
	time.Sleep(200 * time.Millisecond)
	os.Stderr = saved
	w.Close()
	<-done
	if strings.Contains(captured.String(), "yamux") {
		t.Errorf("harness stderr: %s", captured.String())
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "plugin*"))
	socks, _ := filepath.Glob(filepath.Join(tmp, "bfsbench-run*"))
	if len(left)+len(socks) > 0 {
		t.Errorf("left in TMPDIR: %v %v", left, socks)
	}
}

func TestMachineLocksWarn(t *testing.T) {
	t.Setenv(LockDirEnv, t.TempDir())
	w1, l1 := machineLocks([]string{"gpu0"})
	defer l1.Release()
	w2, l2 := machineLocks([]string{"gpu0"})
	if len(w1) != 0 || len(w2) != 2 || !strings.Contains(w2[0], "another bfsbench run") || !strings.Contains(w2[1], "gpu0") {
		t.Fatalf("first %v, second %v", w1, w2)
	}
	// The first hears of the second once, for each lock.
	if c := l1.Check(); len(c) != 2 || !strings.Contains(c[0], "started while this run was using this machine") {
		t.Errorf("first run's check: %v", c)
	}
	if c := l1.Check(); len(c) != 0 {
		t.Errorf("a second check repeats: %v", c)
	}
	// Once the first is gone, the second takes the locks at its check,
	// and a third run's notice reaches it.
	l1.Release()
	if c := l2.Check(); len(c) != 0 {
		t.Errorf("second run's check after the first ended: %v", c)
	}
	w3, l3 := machineLocks(nil)
	defer l3.Release()
	if c := l2.Check(); len(w3) != 1 || len(c) != 1 {
		t.Errorf("third run warned %v; second run's check %v", w3, c)
	}
	l2.Release()
	// The lock folder is the machine's, not TMPDIR's.
	t.Setenv(LockDirEnv, "")
	t.Setenv("TMPDIR", t.TempDir())
	if d := lockDir(); d != "/tmp" && d != os.TempDir() {
		t.Errorf("lockDir() = %s", d)
	} else if _, err := os.Stat("/tmp"); err == nil && d != "/tmp" {
		t.Errorf("lockDir() = %s follows TMPDIR", d)
	}
}

func TestAutoOutDirNeverCollides(t *testing.T) {
	base := filepath.Join(t.TempDir(), "run-20260101-120000")
	a, err1 := makeOutDir(base, true)
	b, err2 := makeOutDir(base, true)
	if err1 != nil || err2 != nil || a == b || b != base+"-2" {
		t.Fatalf("%q %v, %q %v", a, err1, b, err2)
	}
	if _, err := makeOutDir(base, false); err == nil {
		t.Fatal("an explicit existing folder was accepted")
	}
}

// TestDeclaredLimitsEnforcedAtPlan: what a plugin declares (a multiple, a
// bound) is checked before anything runs, as `bfsbench plugins` shows it.
func TestDeclaredLimitsEnforcedAtPlan(t *testing.T) {
	cfg := parse(t, "[workload]\nscale = 6\n[[variant]]\nplugin = \"x\"\n[variant.params]\nthreads = 48\n")
	info := sdk.Info{Name: "x", Backends: []string{"cpu"}, Params: []sdk.Param{{Name: "threads", Type: sdk.TypeInt, Default: int64(32), Multiple: 32}}}
	if _, err := cfg.Variants[0].Points(info); err == nil || !strings.Contains(err.Error(), "multiple of 32") {
		t.Fatalf("err = %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// buildHarness compiles bfsbench once per test binary.
func buildHarness(t *testing.T) string {
	t.Helper()
	harnessOnce.Do(func() {
		dir := buildPlugins(t)
		harnessBin = filepath.Join(dir, "bfsbench")
		if out, err := exec.Command("go", "build", "-o", harnessBin, "../cmd/bfsbench").CombinedOutput(); err != nil {
			harnessErr = fmt.Errorf("building bfsbench: %v\n%s", err, out)
		}
	})
	if harnessErr != nil {
		t.Fatal(harnessErr)
	}
	return harnessBin
}

var (
	harnessOnce sync.Once
	harnessBin  string
	harnessErr  error
)

// waitFor polls cond every 50 ms for at most d.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// TestSIGKILLKeepsFinishedSearches: killing the harness with SIGKILL in
// the middle of a case loses none of the searches that case finished:
// results.json, read back, holds them, with the case marked as cut off.
func TestSIGKILLKeepsFinishedSearches(t *testing.T) {
	bin := buildHarness(t)
	dir := buildPlugins(t)
	work := t.TempDir()
	cfgPath := filepath.Join(work, "c.toml")
	// "hang" hangs in its second timed search, after one that finished.
	os.WriteFile(cfgPath, []byte("[workload]\nscale = 8\nnbfs = 3\n[[variant]]\nname = \"first\"\nplugin = \"faulty\"\n[[variant]]\nname = \"hangs\"\nplugin = \"faulty\"\n[variant.params]\nmode = \"hang\"\n"), 0o644)
	out := filepath.Join(work, "o")
	cmd := exec.Command(bin, "run", cfgPath, "--plugins", dir, "--out", out)
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	hanging := func() bool {
		_, err := os.Stat(filepath.Join(out, "logs", "hangs_cpu_scale8ef16_mode=hang.log"))
		return err == nil
	}
	if !waitFor(30*time.Second, hanging) {
		t.Fatal("the hanging case never started")
	}
	time.Sleep(time.Second) // its warm-up and first search take milliseconds
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	run := loadValid(t, filepath.Join(out, "results.json"))
	if c := run.Cases[0]; c.Status != results.StatusOK || len(c.BFS) != 3 {
		t.Errorf("the finished case: %s with %d searches", c.Status, len(c.BFS))
	}
	c := run.Cases[1]
	if len(c.BFS) != 1 || !c.BFS[0].Valid || c.Status == results.StatusOK || !strings.Contains(c.Error, "killed") {
		t.Errorf("the case cut off: status %s, %d searches, error %q; want its 1 finished search kept", c.Status, len(c.BFS), c.Error)
	}
}

// TestEqualWorkloadsRunApart: two equal workloads in a config (the parser
// refuses a value listed twice; a config built in code may still hold
// them) are two sets of cases, each run once with its own searches.
func TestEqualWorkloadsRunApart(t *testing.T) {
	dir := buildPlugins(t)
	cfg := parse(t, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\n")
	cfg.Workloads = append(cfg.Workloads, cfg.Workloads[0])
	run, err := Run(context.Background(), Options{Config: cfg, OutDir: filepath.Join(t.TempDir(), "o"), PluginDirs: []string{dir}, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Cases) != 2 {
		t.Fatalf("%d cases, want 2", len(run.Cases))
	}
	for i, c := range run.Cases {
		if c.Status != results.StatusOK || len(c.BFS) != 2 || c.Stats.N != 2 {
			t.Errorf("case %d: %s with %d searches (stats over %d), want 2", i, c.Status, len(c.BFS), c.Stats.N)
		}
	}
}

// TestSearchTimeCheckedAgainstWall: a search time the harness's own clock
// contradicts (1e-300 s, 1.6e304 TEPS; or longer than the call took)
// fails the case instead of entering the statistics as valid.
func TestSearchTimeCheckedAgainstWall(t *testing.T) {
	dir := buildPlugins(t)
	for _, mode := range []string{"tiny-time", "long-time"} {
		t.Run(mode, func(t *testing.T) {
			run, err := runConfig(t, dir, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\n[variant.params]\nmode = \""+mode+"\"\n")
			var fe *FailedError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want the case failed", err)
			}
			c := run.Cases[0]
			if c.Status != results.StatusFailed || !strings.Contains(c.Error, "wall") {
				t.Errorf("status %s, error %q", c.Status, c.Error)
			}
			for _, s := range c.BFS {
				if s.TEPS > 1e15 {
					t.Errorf("a search kept with %g TEPS", s.TEPS)
				}
			}
		})
	}
}

func TestCheckSearchTime(t *testing.T) {
	for _, tc := range []struct {
		time, wall float64
		ok         bool
	}{
		{0.01, 0.012, true},
		{0.0105, 0.01, true}, // within 1% + 1 ms: a GPU's clock
		{0.05, 0.01, false},
		{1e-6, 0.5, true}, // a tiny search in a call copying a large parents array
		{1e-300, 0.002, false},
		{0, 0.002, false},
	} {
		if err := checkSearchTime(tc.time, tc.wall); (err == nil) != tc.ok {
			t.Errorf("checkSearchTime(%g, %g) = %v, want ok %v", tc.time, tc.wall, err, tc.ok)
		}
	}
}

// TestConcurrentRunsWarnEachOther: two runs on one machine, the second
// with another TMPDIR, both say in results.json that they measured while
// the other ran: the second at its start, the first once its case ends.
// The lock file can be opened by every user's runs (mode 0666).
func TestConcurrentRunsWarnEachOther(t *testing.T) {
	dir := buildPlugins(t)
	locks := t.TempDir()
	t.Setenv(LockDirEnv, locks)
	t.Setenv("TMPDIR", t.TempDir())
	outA := filepath.Join(t.TempDir(), "a")
	type result struct {
		run *results.Run
		err error
	}
	first := make(chan result, 1)
	go func() {
		cfg := parse(t, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\ntimeout = \"3s\"\n[variant.params]\nmode = \"hang\"\n")
		run, err := Run(context.Background(), Options{Config: cfg, OutDir: outA, PluginDirs: []string{dir}, Log: io.Discard})
		first <- result{run, err}
	}()
	if !waitFor(20*time.Second, func() bool { e, _ := os.ReadDir(filepath.Join(outA, "logs")); return len(e) > 0 }) {
		t.Fatal("the first run's case never started")
	}
	t.Setenv("TMPDIR", t.TempDir()) // the second run's own TMPDIR
	second, _ := runConfig(t, dir, "[workload]\nscale = 6\nnbfs = 1\n[[variant]]\nplugin = \"faulty\"\n")
	a := <-first
	warned := func(r *results.Run) bool {
		for _, w := range r.Warnings {
			if strings.Contains(w, "another bfsbench run") {
				return true
			}
		}
		return false
	}
	if second == nil || !warned(second) {
		t.Errorf("the second run was not warned")
	}
	if a.run == nil || !warned(loadValid(t, filepath.Join(outA, "results.json"))) {
		t.Errorf("the first run's results.json carries no warning of the second (%v)", a.err)
	}
	if st, err := os.Stat(filepath.Join(locks, "bfsbench-host.lock")); err != nil || st.Mode().Perm() != 0o666 {
		t.Errorf("lock file: %v; want mode 0666, for every user's runs", err)
	}
}

// TestReportFailureIsKept: summary or plots that cannot be written end the
// run with an error (exit 1), and results.json's warnings say so.
func TestReportFailureIsKept(t *testing.T) {
	dir := buildPlugins(t)
	out := filepath.Join(t.TempDir(), "o")
	cfg := parse(t, "[workload]\nscale = 6\nnbfs = 1\n[[variant]]\nplugin = \"faulty\"\n")
	run, err := Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard,
		Reports: func(*results.Run) error { return &os.PathError{Op: "write", Path: "summary.txt", Err: syscall.ENOSPC} }})
	if err == nil || !strings.Contains(err.Error(), "summary.txt") {
		t.Errorf("err = %v, want the failed report", err)
	}
	for _, r := range []*results.Run{run, loadValid(t, filepath.Join(out, "results.json"))} {
		found := false
		for _, w := range r.Warnings {
			found = found || strings.Contains(w, "summary.txt")
		}
		if !found {
			t.Errorf("warnings %q do not name the failed report", r.Warnings)
		}
	}
}

// TestSizesNeverRoundToEqual: the preflight and the causes of a plugin's
// death print a need and what was free so that they differ whenever they
// do ("needs 1 MiB but 1 MiB is free" told nothing).
func TestSizesNeverRoundToEqual(t *testing.T) {
	for _, tc := range []struct{ need, have float64 }{
		{600 << 10, 300 << 10},
		{1<<20 + 4096, 1 << 20},
		{(1 << 30) + (1 << 20), 1 << 30},
		{2048, 100},
		{5 << 40, 5<<40 - 1<<30},
	} {
		n, h := sizePair(tc.need, tc.have)
		if n == h {
			t.Errorf("sizePair(%g, %g) = %q, %q", tc.need, tc.have, n, h)
		}
		m := Machine{ShmFree: tc.have}
		err := m.check(Estimate{Shm: tc.need}, sdk.BackendCPU, 1)
		if err == nil || !strings.Contains(err.Error(), "needs "+n+" in /dev/shm but "+h+" is free") {
			t.Errorf("preflight: %v, want %s against %s", err, n, h)
		}
		c := diagnose(failureInfo{status: "signal: bus error", parentsB: tc.need, shmFree: tc.have})
		if !strings.Contains(c, "needs "+n) || !strings.Contains(c, "had "+h+" free") {
			t.Errorf("cause: %q, want %s against %s", c, n, h)
		}
	}
}

// TestSIGKILLNotBlamedOnMemoryBlindly: a plugin killed by SIGKILL is
// blamed on the out-of-memory killer only when the kernel counted an OOM
// kill during the case, or, where it cannot tell, when the numbers point
// to memory; a small case on a roomy machine is not.
func TestSIGKILLNotBlamedOnMemoryBlindly(t *testing.T) {
	dir := buildPlugins(t)
	run, _ := runConfig(t, dir, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\n[variant.params]\nmode = \"sigkill\"\n")
	c := run.Cases[0]
	if c.Status != results.StatusFailed || !strings.Contains(c.Cause, "SIGKILL") || strings.Contains(c.Cause, "most likely") {
		t.Errorf("status %s, cause %q", c.Status, c.Cause)
	}
	for _, tc := range []struct {
		f         failureInfo
		want, not string
	}{
		{failureInfo{status: "signal: killed", estimateB: 1 << 20, availB: 22 << 30, oomKills: 0}, "not by the out-of-memory killer", "most likely"},
		{failureInfo{status: "signal: killed", estimateB: 1 << 20, availB: 22 << 30, oomKills: 2}, "out-of-memory killer killed 2", ""},
		{failureInfo{status: "signal: killed", estimateB: 1 << 20, availB: 22 << 30, oomKills: -1}, "does not point to memory", "most likely"},
		{failureInfo{status: "signal: killed", estimateB: 20 << 30, availB: 22 << 30, oomKills: -1}, "most likely by the kernel's out-of-memory killer", ""},
	} {
		got := diagnose(tc.f)
		if !strings.Contains(got, tc.want) || tc.not != "" && strings.Contains(got, tc.not) {
			t.Errorf("diagnose(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestPluginExitStatusReported: how a plugin process ended is in the
// case's error and cause: an exit status (not "Construct: unexpected
// EOF" alone), a Go panic, a death by SIGSEGV.
func TestPluginExitStatusReported(t *testing.T) {
	dir := buildPlugins(t)
	for _, tc := range []struct {
		mode, err, cause string
	}{
		{"crash-construct", "exit status 3", "exited with exit status 3"},
		{"crash", "exit status 4", "exited with exit status 4"},
		{"panic", "panicked in bfs", "panicked in bfs: assignment to entry in nil map"}, // the SDK recovers it: the process lives
		{"segv", "segmentation fault", "SIGSEGV"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			run, _ := runConfig(t, dir, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\n[variant.params]\nmode = \""+tc.mode+"\"\n")
			c := run.Cases[0]
			if c.Status != results.StatusFailed || !strings.Contains(c.Error, tc.err) || !strings.Contains(c.Cause, tc.cause) {
				t.Errorf("status %s\nerror %q\ncause %q\nwant %q in the error, %q in the cause", c.Status, c.Error, c.Cause, tc.err, tc.cause)
			}
		})
	}
}

// TestPluginOSStderrKept: what a plugin writes to Go's os.Stderr (which
// go-plugin carries over its connection, not the process's stderr) is in
// the case's log and in its error's tail.
func TestPluginOSStderrKept(t *testing.T) {
	dir := buildPlugins(t)
	cfg := parse(t, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\n[variant.params]\nmode = \"stderr\"\n")
	out := filepath.Join(t.TempDir(), "o")
	run, _ := Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard})
	c := run.Cases[0]
	if !strings.Contains(c.Error, "the device is on fire") {
		t.Errorf("error %q lacks the plugin's stderr", c.Error)
	}
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "*.log"))
	var all string
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		all += string(b)
	}
	if !strings.Contains(all, "the device is on fire") {
		t.Errorf("logs %v lack the plugin's stderr", logs)
	}
}

// TestDroppedConnectionNamed: a plugin whose connection ends while its
// process lives on (what go-plugin's keepalive does to a frozen plugin)
// is reported as such, not as a bare "unexpected EOF".
func TestDroppedConnectionNamed(t *testing.T) {
	dir := buildPlugins(t)
	start := time.Now()
	run, _ := runConfig(t, dir, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\ntimeout = \"20s\"\n[variant.params]\nmode = \"drop\"\n")
	c := run.Cases[0]
	if c.Status != results.StatusFailed || !strings.Contains(c.Error, "connection to the plugin was lost while its process still ran") || !strings.Contains(c.Cause, "keepalive") {
		t.Errorf("status %s\nerror %q\ncause %q", c.Status, c.Error, c.Cause)
	}
	if el := time.Since(start); el > 15*time.Second {
		t.Errorf("took %v: the loss must end the case at once", el)
	}
}

// TestReadOnlyShmFallsBack: a read-only /dev/shm (a container's, say)
// does not fail every case: parents files go to the temporary folder,
// and results.json says so.
func TestReadOnlyShmFallsBack(t *testing.T) {
	dir := buildPlugins(t)
	if os.Geteuid() != 0 {
		t.Skip("mounting a read-only tmpfs needs root")
	}
	ro := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", ro).Run()
	old := shmDir
	shmDir = ro
	defer func() { shmDir = old }()
	t.Setenv("TMPDIR", t.TempDir())
	run, err := runConfig(t, dir, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\n")
	if err != nil || run.Cases[0].Status != results.StatusOK {
		t.Fatalf("err %v; the case: %+v", err, run.Cases[0].Error)
	}
	warned := false
	for _, w := range run.Warnings {
		warned = warned || strings.Contains(w, ro) && strings.Contains(w, "read-only")
	}
	if !warned {
		t.Errorf("no warning of the read-only folder: %q", run.Warnings)
	}
}

// TestCleanStaleRemovesMPISegments: Open MPI's shared-memory segments
// that an mpirun case killed by SIGKILL left in /dev/shm are removed by
// the next run; one a live process maps, or one just made, is kept.
func TestCleanStaleRemovesMPISegments(t *testing.T) {
	dir := t.TempDir()
	old := shmDir
	shmDir = dir
	defer func() { shmDir = old }()
	long := time.Now().Add(-time.Hour)
	mk := func(name string, age time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, 4096), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, age, age)
		return p
	}
	stale := mk("vader_segment.host.1a2b0001.0", long)
	stale5 := mk("sm_segment.host.0.1a2b0002.1", long)
	fresh := mk("vader_segment.host.1a2b0003.0", time.Now())
	other := mk("not_mpi_segment", long)
	mapped := mk("vader_segment.host.1a2b0004.1", long)
	f, err := os.OpenFile(mapped, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, 4096, syscall.PROT_READ, syscall.MAP_SHARED)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	CleanStale()
	for _, tc := range []struct {
		path string
		gone bool
	}{{stale, true}, {stale5, true}, {fresh, false}, {other, false}, {mapped, false}} {
		_, err := os.Stat(tc.path)
		if gone := errors.Is(err, os.ErrNotExist); gone != tc.gone {
			t.Errorf("%s: removed %v, want %v", filepath.Base(tc.path), gone, tc.gone)
		}
	}
}

// TestPluginChildDiesWithHarness: a process a plugin started does not
// outlive a harness killed by SIGKILL (the plugin itself dies of its
// parent-death signal; its children had nothing telling them).
func TestPluginChildDiesWithHarness(t *testing.T) {
	bin := buildHarness(t)
	dir := buildPlugins(t)
	work := t.TempDir()
	cfgPath := filepath.Join(work, "c.toml")
	os.WriteFile(cfgPath, []byte("[workload]\nscale = 7\nnbfs = 3\n[[variant]]\nplugin = \"faulty\"\n[variant.params]\nmode = \"child\"\n"), 0o644)
	pidFile := filepath.Join(work, "child.pid")
	cmd := exec.Command(bin, "run", cfgPath, "--plugins", dir, "--out", filepath.Join(work, "o"))
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), "FAULTY_CHILD_PID_FILE="+pidFile)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var child int
	if !waitFor(30*time.Second, func() bool { b, _ := os.ReadFile(pidFile); child = atoi(string(b)); return child > 0 }) {
		t.Fatal("the plugin's child never started")
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if waitFor(5*time.Second, func() bool { return !processAlive(child) || zombie(child) }) {
		return
	}
	syscall.Kill(child, syscall.SIGKILL)
	t.Errorf("the plugin's child %d outlived the harness", child)
}

// zombie says whether pid has exited and awaits its parent.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

func TestHasHandshake(t *testing.T) {
	cookie := sdk.Handshake.MagicCookieValue
	for _, tc := range []struct {
		name string
		data []byte
		want bool
	}{
		{"none", bytes.Repeat([]byte("x"), 3<<20), false},
		{"start", []byte(cookie + "rest"), true},
		{"across two reads", append(bytes.Repeat([]byte("x"), 1<<20-5), cookie...), true},
		{"cut short", []byte(cookie[:len(cookie)-1]), false},
	} {
		p := filepath.Join(t.TempDir(), "bin")
		os.WriteFile(p, tc.data, 0o755)
		if got, err := hasHandshake(p); got != tc.want || err != nil {
			t.Errorf("%s: %v %v, want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestPluginLogCapped: a plugin that floods its stderr cannot fill the
// disk through its log: the log stops at its cap with a note saying so,
// and the case goes on.
func TestPluginLogCapped(t *testing.T) {
	dir := buildPlugins(t)
	old := maxLogBytes
	maxLogBytes = 256 << 10
	defer func() { maxLogBytes = old }()
	out := filepath.Join(t.TempDir(), "o")
	cfg := parse(t, "[workload]\nscale = 7\nnbfs = 2\n[[variant]]\nplugin = \"faulty\"\n[variant.params]\nmode = \"spam\"\n")
	run, err := Run(context.Background(), Options{Config: cfg, OutDir: out, PluginDirs: []string{dir}, Log: io.Discard})
	if err != nil || run.Cases[0].Status != results.StatusOK {
		t.Fatalf("err %v", err)
	}
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "*.log"))
	if len(logs) != 1 {
		t.Fatalf("logs %v", logs)
	}
	b, _ := os.ReadFile(logs[0])
	if int64(len(b)) > maxLogBytes+1024 || !strings.Contains(string(b), "log cut at") {
		t.Errorf("log of %d bytes (cap %d), note %v", len(b), maxLogBytes, strings.Contains(string(b), "log cut at"))
	}
}
