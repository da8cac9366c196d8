package main

// The fault-injection suite: plugins that crash, hang, return
// garbage or run out of memory, a results folder that fills up, configs
// beyond the limits, and interrupts at every stage. Each asserts the exit
// status, the message and that results.json is valid JSON holding every
// finished search.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/runner"
)

var (
	pluginsOnce sync.Once
	pluginsDir  string
	pluginsErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if pluginsDir != "" {
		os.RemoveAll(pluginsDir)
	}
	os.Exit(code)
}

func plugins(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds plugin binaries; skipped with -short")
	}
	pluginsOnce.Do(func() {
		if pluginsDir, pluginsErr = os.MkdirTemp("", "bfsbench-cmd-plugins-"); pluginsErr != nil {
			return
		}
		for name, pkg := range map[string]string{"reference": "../../../plugins/reference", "faulty": "../../runner/testdata/faulty"} {
			if out, err := exec.Command("go", "build", "-o", filepath.Join(pluginsDir, name), pkg).CombinedOutput(); err != nil {
				pluginsErr = fmt.Errorf("building %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if pluginsErr != nil {
		t.Fatal(pluginsErr)
	}
	return pluginsDir
}

func variant(name, mode string) string {
	return fmt.Sprintf("[[variant]]\nname = %q\nplugin = \"faulty\"\ntimeout = \"3s\"\n[variant.params]\nmode = %q\n", name, mode)
}

// checkResults loads results.json and checks every case that finished ok
// holds nbfs searches and every other one says why.
func checkResults(t *testing.T, path string, nbfs int) *results.Run {
	t.Helper()
	r, err := results.Load(path)
	if err != nil {
		t.Fatalf("results.json: %v", err)
	}
	for _, c := range r.Cases {
		if c.Status == results.StatusOK && len(c.BFS) != nbfs {
			t.Errorf("case %s ok with %d searches", c.Variant, len(c.BFS))
		}
		if c.Status != results.StatusOK && c.Error == "" {
			t.Errorf("case %s %s without an error", c.Variant, c.Status)
		}
	}
	return r
}

func TestFaultInjection(t *testing.T) {
	dir := plugins(t)
	head := "[workload]\nscale = 8\nnbfs = 3\n"
	for _, tc := range []struct {
		name    string
		config  string
		stage   string // interrupt when this stage starts
		code    int
		message string // in the error or the case table/log
		results bool   // results.json is expected
	}{
		{"crash", head + variant("ok", "ok") + variant("crash", "crash"), "", 1, "plugin process exited", true},
		{"hang", head + variant("hang", "hang") + variant("ok", "ok"), "", 1, "timed out after 3s", true},
		{"garbage", head + variant("garbage", "garbage"), "", 1, "reported a time of NaN", true},
		{"oom", head + variant("oom", "oom"), "", 1, "cause: the plugin ran out of memory", true},
		{"sigbus", head + variant("bus", "sigbus"), "", 1, "cause: the plugin died of SIGBUS", true},
		{"invalid", head + variant("inv", "invalid"), "", 1, "invalid", true},
		{"preflight", "[workload]\nscale = 36\nnbfs = 1\n" + variant("big", "ok"), "", 2, "refusing to start", false},
		{"nan-param", head + "[[variant]]\nplugin = \"reference\"\n[variant.params]\nalpha = nan\n", "", 2, "finite", false},
		{"nbfs", "[workload]\nscale = 8\nnbfs = 1000000000000\n" + variant("x", "ok"), "", 2, "1 to 64", false},
		{"sweep", head + "[[variant]]\nplugin = \"faulty\"\n[variant.params]\nmode = [" + strings.Repeat("\"ok\", ", 1500) + "\"ok\"]\n", "", 2, "--max-cases", false},
		{"int-plan", head + variant("a", "ok"), "plan", 130, "interrupted", false},
		{"int-generate", head + variant("a", "ok"), "generate", 130, "interrupted", true},
		{"int-keys", head + variant("a", "ok"), "keys", 130, "interrupted", true},
		{"int-start", head + variant("a", "ok"), "start", 130, "interrupted", true},
		{"int-construct", head + variant("a", "ok"), "construct", 130, "interrupted", true},
		{"int-search", head + variant("a", "ok"), "search", 130, "interrupted", true},
		{"int-validate", head + variant("a", "ok"), "validate", 130, "interrupted", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			cfg := filepath.Join(work, "c.toml")
			os.WriteFile(cfg, []byte(tc.config), 0o644)
			out := filepath.Join(work, "out")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.stage != "" {
				defer runner.SetStageHook(func(s string) {
					if s == tc.stage {
						cancel()
					}
				})()
			}
			var stdout, stderr bytes.Buffer
			start := time.Now()
			err := dispatch(ctx, []string{"run", cfg, "--plugins", dir, "--out", out}, &stdout, &stderr)
			code := exitCode(ctx, err)
			all := fmt.Sprint(err) + "\n" + stdout.String() + stderr.String()
			if code != tc.code || !strings.Contains(all, tc.message) {
				t.Errorf("exit %d, want %d; want %q in:\n%s", code, tc.code, tc.message, all)
			}
			if time.Since(start) > 30*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			_, serr := os.Stat(filepath.Join(out, "results.json"))
			if tc.results != (serr == nil) {
				t.Fatalf("results.json exists: %v, want %v", serr == nil, tc.results)
			}
			if tc.results {
				checkResults(t, filepath.Join(out, "results.json"), 3)
			}
		})
	}
}

// TestResultsFolderFillsUp: --out on a small file system that fills
// during the run ends it with exit 1 and a message, and every finished
// case is kept (in results.json up to the failure, all of them in the
// copy the message names).
func TestResultsFolderFillsUp(t *testing.T) {
	dir := plugins(t)
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	text := "[workload]\nscale = 9\nnbfs = 64\n"
	for i := range 6 {
		text += fmt.Sprintf("[[variant]]\nname = \"ref%d\"\nplugin = \"reference\"\n", i)
	}
	cfg := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(cfg, []byte(text), 0o644)
	var stdout, stderr bytes.Buffer
	err := dispatch(context.Background(), []string{"run", cfg, "--plugins", dir, "--out", filepath.Join(mnt, "o")}, &stdout, &stderr)
	if code := exitCode(context.Background(), err); code != 1 || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("exit %d, err %v\n%s", code, err, stderr.String())
	}
	var se *runner.SaveError
	if !asSaveError(err, &se) || se.Fallback == "" {
		t.Fatalf("no fallback copy: %v", err)
	}
	defer os.Remove(se.Fallback)
	disk := checkResults(t, filepath.Join(mnt, "o", "results.json"), 64)
	fb := checkResults(t, se.Fallback, 64)
	okDisk, okFB := 0, 0
	for i := range fb.Cases {
		if disk.Cases[i].Status == results.StatusOK {
			okDisk++
		}
		if fb.Cases[i].Status == results.StatusOK {
			okFB++
		}
	}
	if okFB == 0 || okFB < okDisk || !strings.Contains(stdout.String(), se.Fallback) {
		t.Errorf("finished cases: %d in results.json, %d in the copy; stdout %q", okDisk, okFB, stdout.String())
	}
}

func asSaveError(err error, se **runner.SaveError) bool {
	for err != nil {
		if s, ok := err.(*runner.SaveError); ok {
			*se = s
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// TestGenerateChecksBeforeWriting: bad arguments leave an existing output
// file as it was; a good run replaces it whole; a scale too large for the
// machine's memory is refused up front.
func TestGenerateChecksBeforeWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "existing.txt")
	os.WriteFile(path, []byte("keep me\n"), 0o644)
	for _, args := range [][]string{
		{"generate", "--scale", "8", "--format", "xml", "--out", path},
		{"generate", "--scale", "0", "--out", path},
		{"generate", "--scale", "8", "--seed", "x", "--out", path},
		{"generate", "--scale", "38", "--out", path},
	} {
		_, err := run(t, args...)
		if code := exitCode(context.Background(), err); code != 2 {
			t.Errorf("%v: exit %d (%v), want 2", args, code, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "keep me\n" {
			t.Fatalf("%v destroyed the file: %q", args, b)
		}
	}
	if _, err := run(t, "generate", "--scale", "6", "--out", path); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); bytes.Count(b, []byte("\n")) != 16*64 {
		t.Fatalf("generated %d lines", bytes.Count(b, []byte("\n")))
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".existing.txt.tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestExitStatuses: setup errors 2, failed cases 1, as the usage says.
func TestExitStatuses(t *testing.T) {
	dir := plugins(t)
	cfg := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(cfg, []byte("[workload]\nscale = 6\nnbfs = 1\n"+variant("x", "ok")), 0o644)
	missing := filepath.Join(t.TempDir(), "m.toml")
	os.WriteFile(missing, []byte("[workload]\nscale = 6\n[[variant]]\nplugin = \"nonesuch\"\n"), 0o644)
	exists := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"run", missing, "--plugins", dir, "--out", filepath.Join(t.TempDir(), "o")}, 2},
		{[]string{"run", cfg, "--plugins", dir, "--out", exists}, 2},
		{[]string{"run", filepath.Join(t.TempDir(), "absent.toml"), "--plugins", dir}, 2},
		{[]string{"run", cfg, "--plugins", dir, "--max-cases", "0"}, 2},
		{[]string{"table", filepath.Join(t.TempDir(), "absent.json")}, 2},
		{[]string{"run", cfg, "--plugins", dir, "--out", filepath.Join(t.TempDir(), "o")}, 0},
	} {
		_, err := run(t, tc.args...)
		if code := exitCode(context.Background(), err); code != tc.code {
			t.Errorf("%v: exit %d (%v), want %d", tc.args, code, err, tc.code)
		}
	}
	_ = syscall.Getpid
}

// TestGenerateWritesThroughLinksAndSpecialFiles: --out naming a symlink
// writes the file it points to and leaves the link; a FIFO's reader gets
// the edge list; a device node stays a device node; a socket or a
// directory is refused (exit 2).
func TestGenerateWritesThroughLinksAndSpecialFiles(t *testing.T) {
	want, err := run(t, "generate", "--scale", "6", "--out", "-")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string) (out string, check func(t *testing.T))
		code  int
	}{
		{"symlink", func(t *testing.T, dir string) (string, func(*testing.T)) {
			target := filepath.Join(dir, "target.txt")
			os.WriteFile(target, []byte("old\n"), 0o600)
			link := filepath.Join(dir, "link.txt")
			os.Symlink("target.txt", link)
			return link, func(t *testing.T) {
				if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
					t.Errorf("the link was replaced: %v %v", st.Mode(), err)
				}
				if b, _ := os.ReadFile(target); string(b) != want {
					t.Errorf("the link's target holds %d bytes, want the %d generated", len(b), len(want))
				}
				if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
					t.Errorf("the target's mode became %v", st.Mode().Perm())
				}
			}
		}, 0},
		{"dangling symlink", func(t *testing.T, dir string) (string, func(*testing.T)) {
			link := filepath.Join(dir, "link.txt")
			os.Symlink("new.txt", link)
			return link, func(t *testing.T) {
				if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
					t.Errorf("the link was replaced: %v", err)
				}
				if b, _ := os.ReadFile(filepath.Join(dir, "new.txt")); string(b) != want {
					t.Errorf("the link's target holds %d bytes", len(b))
				}
			}
		}, 0},
		{"fifo", func(t *testing.T, dir string) (string, func(*testing.T)) {
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			// Opened read-write, the FIFO never blocks the test, and its
			// reader sees what generate writes into it.
			r, err := os.OpenFile(fifo, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			return fifo, func(t *testing.T) {
				if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
					t.Errorf("the FIFO was replaced: %v", err)
				}
				r.SetReadDeadline(time.Now().Add(5 * time.Second))
				got := make([]byte, len(want))
				n, err := io.ReadFull(r, got)
				if err != nil || string(got[:n]) != want {
					t.Errorf("the FIFO's reader got %d of %d bytes: %v", n, len(want), err)
				}
			}
		}, 0},
		{"device", func(t *testing.T, dir string) (string, func(*testing.T)) {
			dev := filepath.Join(dir, "null")
			if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3 /* major 1, minor 3: the null device */); err != nil {
				t.Skipf("mknod (needs root): %v", err)
			}
			return dev, func(t *testing.T) {
				if st, err := os.Lstat(dev); err != nil || st.Mode()&os.ModeCharDevice == 0 {
					t.Errorf("the device node became %v (%v)", st.Mode(), err)
				}
			}
		}, 0},
		{"socket", func(t *testing.T, dir string) (string, func(*testing.T)) {
			sock := filepath.Join(dir, "s")
			l, err := net.Listen("unix", sock)
			if err != nil {
				t.Skipf("unix socket: %v", err)
			}
			t.Cleanup(func() { l.Close() })
			return sock, func(t *testing.T) {
				if st, err := os.Lstat(sock); err != nil || st.Mode()&os.ModeSocket == 0 {
					t.Errorf("the socket was replaced: %v", err)
				}
			}
		}, 2},
		{"directory", func(t *testing.T, dir string) (string, func(*testing.T)) {
			d := filepath.Join(dir, "d")
			os.Mkdir(d, 0o755)
			return d, func(t *testing.T) {
				if st, err := os.Lstat(d); err != nil || !st.IsDir() {
					t.Errorf("the directory was replaced: %v", err)
				}
			}
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out, check := tc.setup(t, dir)
			done := make(chan error, 1)
			go func() {
				_, err := run(t, "generate", "--scale", "6", "--out", out)
				done <- err
			}()
			select {
			case err := <-done:
				if code := exitCode(context.Background(), err); code != tc.code {
					t.Errorf("exit %d (%v), want %d", code, err, tc.code)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("generate did not return")
			}
			check(t)
			if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestCompareTooFewSearches: compare never passes a case it cannot
// judge: a new run that validated 1 of 8 searches, 42% slower, fails
// (it passed as "no significant change"), and --min-searches sets a
// floor of its own.
func TestCompareTooFewSearches(t *testing.T) {
	dir := t.TempDir()
	save := func(name string, n, validated int, teps float64) string {
		c := &results.Case{Variant: "v", Backend: "cpu", Status: results.StatusOK, Graph: results.Graph{Scale: 10, EdgeFactor: 16}}
		for i := range n {
			v := i < validated
			c.BFS = append(c.BFS, results.Search{Root: int64(i), TimeS: 1e9 / teps, TEPS: teps * (1 + 0.01*float64(i)), NEdge: 1e9, Validated: v, Valid: v})
		}
		p := filepath.Join(dir, name)
		if err := (&results.Run{Env: results.Env{CPUModel: "cpu", CPUs: 2}, Cases: []*results.Case{c}}).Save(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := save("base.json", 8, 8, 1e9)
	for _, tc := range []struct {
		desc string
		new  string
		args []string
		code int
		want string
	}{
		{"1 of 8 validated", save("one.json", 8, 1, 0.58e9), nil, 2, "too few valid searches to tell"},
		{"6 under --min-searches 8", save("six.json", 6, 6, 1e9), []string{"--min-searches", "8"}, 2, "at least 8 a side"},
		{"8 under --min-searches 8", save("eight.json", 8, 8, 1e9), []string{"--min-searches", "8"}, 0, "PASS"},
		{"--min-searches -1", base, []string{"--min-searches", "-1"}, 2, "min-searches"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var out bytes.Buffer
			err := dispatch(context.Background(), append([]string{"compare", base, tc.new}, tc.args...), &out, io.Discard)
			if code := exitCode(context.Background(), err); code != tc.code || !strings.Contains(out.String()+fmt.Sprint(err), tc.want) {
				t.Errorf("exit %d (%v), want %d and %q in:\n%s", code, err, tc.code, tc.want, out.String())
			}
		})
	}
}

// TestNullCasesDoNotPanic: a results file whose cases hold null (hand
// edited, or cut by another tool) is read like one without them: no
// command panics (Go's panic status 2 read as a usage error).
func TestNullCasesDoNotPanic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte(`{"cases": [null, {"variant": "v", "backend": "cpu", "status": "ok", "params": {"a": 1}, "bfs": [{"root": 1, "time_s": 1, "teps": 1e9, "nedge": 1000000000, "validated": true, "valid": true, "phases": [{"level": 0, "times": {"x": 0.5}}]}]}, null]}`), 0o644)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"table", path}, 0},
		{[]string{"levels", path}, 0},
		{[]string{"levels", "--all", path}, 0},
		{[]string{"plot", path, "--out", filepath.Join(dir, "plots")}, 0},
		{[]string{"compare", path, path}, 2}, // one search a side: nothing to judge
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%v panicked: %v", tc.args, r)
				}
			}()
			_, err := run(t, tc.args...)
			if code := exitCode(context.Background(), err); code != tc.code {
				t.Errorf("%v: exit %d (%v), want %d", tc.args, code, err, tc.code)
			}
		})
	}
}

// TestMissingGraphFileIsSetupError: a graph file that is missing or
// unreadable is a setup error (exit 2) naming the config's line, found
// before any work: no results folder is made.
func TestMissingGraphFileIsSetupError(t *testing.T) {
	dir := plugins(t)
	work := t.TempDir()
	unreadable := filepath.Join(work, "dir.txt")
	os.Mkdir(unreadable, 0o755)
	for _, file := range []string{"missing.txt", "dir.txt"} {
		t.Run(file, func(t *testing.T) {
			cfg := filepath.Join(work, "c.toml")
			os.WriteFile(cfg, []byte("[workload]\nfile = \""+file+"\"\nnbfs = 1\n"+variant("x", "ok")), 0o644)
			out := filepath.Join(work, "out-"+file)
			_, err := run(t, "run", cfg, "--plugins", dir, "--out", out)
			if code := exitCode(context.Background(), err); code != 2 || !strings.Contains(fmt.Sprint(err), "c.toml:2") || !strings.Contains(fmt.Sprint(err), file) {
				t.Errorf("exit %d (%v), want 2 naming c.toml:2 and the file", code, err)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("results folder made for a run that could not start")
			}
		})
	}
}

// TestInterruptOtherCommands: generate, validate and plot stop on SIGINT
// or SIGTERM (their context ending) within a second, exit 130 and leave
// no output behind; before, an interrupted generate ran on, wrote its
// file and exited 0.
func TestInterruptOtherCommands(t *testing.T) {
	dir := t.TempDir()
	parents := filepath.Join(dir, "parents.txt")
	os.WriteFile(parents, bytes.Repeat([]byte("-1\n"), 1<<20), 0o644)
	res := filepath.Join(dir, "r.json")
	r := &results.Run{Cases: []*results.Case{{Variant: "v", Backend: "cpu", Status: results.StatusOK, Graph: results.Graph{Scale: 10, EdgeFactor: 16},
		BFS: []results.Search{{Root: 1, TimeS: 1, TEPS: 1e9, NEdge: 1e9, Validated: true, Valid: true}}}}}
	if err := r.Save(res); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		after time.Duration // the interrupt comes this long after the start
		left  string        // must not exist after
	}{
		{"generate", []string{"generate", "--scale", "21", "--out", filepath.Join(dir, "g.txt")}, 200 * time.Millisecond, filepath.Join(dir, "g.txt")},
		{"generate at once", []string{"generate", "--scale", "8", "--out", filepath.Join(dir, "g8.txt")}, 0, filepath.Join(dir, "g8.txt")},
		{"validate", []string{"validate", "--scale", "20", "--root", "1", "--parents", parents}, 200 * time.Millisecond, ""},
		{"plot", []string{"plot", res, "--out", filepath.Join(dir, "plots")}, 0, filepath.Join(dir, "plots", "teps_cases.png")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var cancelled time.Time
			if tc.after == 0 {
				cancel()
				cancelled = time.Now()
			} else {
				time.AfterFunc(tc.after, func() { cancelled = time.Now(); cancel() })
			}
			err := dispatch(ctx, tc.args, io.Discard, io.Discard)
			if code := exitCode(ctx, err); code != 130 {
				t.Errorf("exit %d (%v), want 130", code, err)
			}
			if !cancelled.IsZero() && time.Since(cancelled) > time.Second {
				t.Errorf("returned %v after the interrupt", time.Since(cancelled))
			}
			if tc.left != "" {
				if _, err := os.Stat(tc.left); err == nil {
					t.Errorf("%s written by an interrupted command", tc.left)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestInterruptWhileParsingConfig: a huge config (600,000 keys, seconds
// to parse) does not keep an interrupt waiting: run exits 130 at once.
func TestInterruptWhileParsingConfig(t *testing.T) {
	var b strings.Builder
	b.WriteString("[workload]\nscale = 6\n[[variant]]\nplugin = \"reference\"\n[variant.params]\n")
	for i := range 600000 {
		fmt.Fprintf(&b, "k%07d = %d\n", i, i)
	}
	cfg := filepath.Join(t.TempDir(), "big.toml")
	os.WriteFile(cfg, []byte(b.String()), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled time.Time
	time.AfterFunc(300*time.Millisecond, func() { cancelled = time.Now(); cancel() })
	err := dispatch(ctx, []string{"run", cfg, "--out", filepath.Join(t.TempDir(), "o")}, io.Discard, io.Discard)
	if code := exitCode(ctx, err); code != 130 || cancelled.IsZero() || time.Since(cancelled) > time.Second {
		t.Errorf("exit %d (%v), %v after the interrupt; want 130 within a second", code, err, time.Since(cancelled))
	}
}

// TestPluginsListingSkipsStrangers: `bfsbench plugins` does not run an
// executable in a plugin folder that is not a bfsbench plugin (a script
// that never answers kept it waiting 2 minutes), and lists the plugins.
func TestPluginsListingSkipsStrangers(t *testing.T) {
	built := plugins(t)
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(built, "faulty"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "faulty"), b, 0o755)
	marker := filepath.Join(dir, "ran")
	os.WriteFile(filepath.Join(dir, "stranger"), []byte("#!/bin/sh\ntouch "+marker+"\nsleep 600\n"), 0o755)
	done := make(chan string, 1)
	go func() {
		var out bytes.Buffer
		dispatch(context.Background(), []string{"plugins", "--plugins", dir}, &out, io.Discard)
		done <- out.String()
	}()
	select {
	case out := <-done:
		if !strings.Contains(out, "faulty  (") || !strings.Contains(out, "stranger: not a bfsbench plugin") {
			t.Errorf("listing:\n%s", out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("bfsbench plugins still waiting after 20 s")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the stranger was run")
	}
}

// TestMainPanicIsStatus3: a panic in a command is exit status 3 with its
// stack, not Go's status 2 for a panic, which reads as bad usage.
func TestMainPanicIsStatus3(t *testing.T) {
	commands["panic-for-test"] = command{run: func(context.Context, []string, io.Writer, io.Writer) error {
		panic("boom")
	}}
	defer delete(commands, "panic-for-test")
	var out, errOut bytes.Buffer
	if code := mainCode(context.Background(), []string{"panic-for-test"}, &out, &errOut); code != 3 {
		t.Errorf("status %d, want 3", code)
	}
	if s := errOut.String(); !strings.Contains(s, "internal error") || !strings.Contains(s, "boom") || !strings.Contains(s, "goroutine") {
		t.Errorf("stderr lacks the panic and its stack:\n%s", s)
	}
	if code := mainCode(context.Background(), []string{"no-such-command"}, &out, &errOut); code != 2 {
		t.Errorf("an unknown command: status %d, want 2", code)
	}
}
