package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistory: bfsbench history reads the notes of a repository's commits
// and writes the text, CSV and chart; without notes it is a setup error.
func TestHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "--quiet")
	git("commit", "--quiet", "--allow-empty", "-m", "first")
	var ee *exitError
	if _, err := run(t, "history", "--repo", repo); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "no commit of HEAD has a note") {
		t.Errorf("without notes: %v", err)
	}
	note := filepath.Join(t.TempDir(), "bench.txt")
	for i := range 3 {
		if i > 0 {
			git("commit", "--quiet", "--allow-empty", "-m", fmt.Sprintf("c%d", i))
		}
		var b strings.Builder
		b.WriteString("cpu: Test CPU\nUnit TEPS better=higher\n")
		for k := range 16 {
			teps := 1e8 * (1 + 0.001*float64(k))
			fmt.Fprintf(&b, "BenchmarkBFS/plugin=p/backend=cpu/scale=10/ef=16 1 %.1f ns/op %.0f TEPS\n", 1e9*1e5/teps, teps)
		}
		if err := os.WriteFile(note, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		git("notes", "--ref", "bfsbench", "add", "-F", note, "HEAD")
	}
	out := filepath.Join(t.TempDir(), "history")
	text, err := run(t, "history", "--repo", repo, "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"TEPS on Test CPU: 3 commits", "no change of 5% or more", "BFS/plugin=p/backend=cpu/scale=10/ef=16  +0.00%"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for _, f := range []string{"history.txt", "TEPS_Test-CPU.csv", "TEPS_Test-CPU.png"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := run(t, "history", "--repo", repo, "--min-change", "0"); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("--min-change 0: %v", err)
	}
}
