package bfsbench_test

// Checks of the repository as a whole, for the facts it keeps once: every
// plugin in the configs that claim every plugin, no issue number of a
// tracker the repository does not have, results/README.md's headline table
// as the committed results files give it, no path of a particular machine
// in the committed results files, and (papers_test.go) each paper
// cited by its key outside docs/papers.md and every name of a plugin
// README's paper-to-code map present in the code.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/report"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// pluginFolders is the plugins of plugins/: the folders with a main.go.
func pluginFolders(t *testing.T) []string {
	t.Helper()
	mains, err := filepath.Glob("plugins/*/main.go")
	if err != nil || len(mains) == 0 {
		t.Fatalf("no plugins/*/main.go (%v)", err)
	}
	var names []string
	for _, m := range mains {
		names = append(names, filepath.Base(filepath.Dir(m)))
	}
	return names
}

// TestConfigsCoverEveryPlugin: the configs that claim every plugin have a
// case of each folder of plugins/; the demo's, of each one's CPU backend.
func TestConfigsCoverEveryPlugin(t *testing.T) {
	for _, c := range []struct{ path, backend string }{
		{"configs/quick.toml", sdk.BackendCPU}, // the demo: every CPU backend
		{"configs/gpu-full.toml", ""},
		{"configs/bench-ci-gpu.toml", ""},
	} {
		cfg, err := config.Load(c.path)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, v := range cfg.Variants {
			if c.backend == "" || v.Backend == c.backend {
				have[v.Plugin] = true
			}
		}
		for _, p := range pluginFolders(t) {
			if !have[p] {
				what := "a case"
				if c.backend != "" {
					what = "a " + c.backend + " case"
				}
				t.Errorf("%s has no %s of plugins/%s", c.path, what, p)
			}
		}
	}
}

// textFiles walks the repository's text files that a person edits: no
// results data (JSON), figures, fuzz corpora, build outputs or go.sum.
func textFiles(t *testing.T, fn func(path, text string)) {
	t.Helper()
	skipDir := map[string]bool{".git": true, "bin": true, "lib": true, ".carry": true, "fuzz": true, ".session": true}
	textExt := map[string]bool{".go": true, ".md": true, ".toml": true, ".csv": true, ".cu": true, ".cuh": true,
		".h": true, ".cpp": true, ".sh": true, ".yml": true, ".txt": true, ".mod": true, "": true}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDir[d.Name()] && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !textExt[filepath.Ext(path)] || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if slices.Contains(b, 0) { // a binary
			return nil
		}
		fn(filepath.ToSlash(path), string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// issueRef matches a reference to an issue of a tracker the repository
// does not have: the word "issue" followed by a number, a number after "#",
// "defect" followed by a number. A link to another project's tracker
// (go.dev/issue/N) does not match.
var issueRef = regexp.MustCompile(`(?i)\bissues? ?#?\d+|(^|[\s(])#\d+\b|\bdefect \d+`)

// TestNoIssueNumbers: nothing outside results/ names an issue number.
func TestNoIssueNumbers(t *testing.T) {
	textFiles(t, func(path, text string) {
		if strings.HasPrefix(path, "results/") || path == "repo_test.go" {
			return
		}
		for i, line := range strings.Split(text, "\n") {
			if m := issueRef.FindString(line); m != "" && !strings.Contains(line, "go.dev/issue/") {
				t.Errorf("%s:%d: %q names an issue number", path, i+1, strings.TrimSpace(m))
			}
		}
	})
}

// TestResultsTableUpToDate: results/README.md's headline table is what
// `bfsbench results-table results` writes from the committed results.
func TestResultsTableUpToDate(t *testing.T) {
	changed, err := report.UpdateHeadline("results", true)
	if err != nil {
		t.Fatal(err)
	}
	if changed {
		t.Errorf("results/README.md: the headline table differs from the results files (results/%s): run `bin/bfsbench results-table results` and commit the result", report.HeadlineFile)
	}
}

// machinePath matches an absolute path of a particular machine: one that
// begins /work/, /tmp/, /root/ or /home/ where a path can begin (not
// inside a longer name such as results/tmp/).
var machinePath = regexp.MustCompile(`(?:^|[^A-Za-z0-9._-])((?:/work|/tmp|/root|/home)/[A-Za-z0-9._/-]*)`)

// TestResultsNoMachinePath: no file that git tracks under results/
// (a .gz file read decompressed) names a path of a particular machine: a
// result records its plugin binary and its command line relative to the
// checkout (results.ReadBinary, bfsbench's command_line).
func TestResultsNoMachinePath(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: the tracked files are git's")
	}
	out, err := exec.Command("git", "ls-files", "-z", "results").Output()
	if err != nil {
		t.Fatalf("git ls-files results: %v", err)
	}
	files := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(files) < 2 {
		t.Fatalf("git ls-files results: %d files", len(files))
	}
	for _, f := range files {
		found, err := machinePaths(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range found {
			t.Errorf("%s:%d: %s is a path of a particular machine (record it relative to the checkout)", f, m.line, m.path)
		}
	}
}

// machinePathHit is a machine path and the line it is first on.
type machinePathHit struct {
	line int
	path string
}

// machinePaths returns each distinct machine path in the file at path
// (decompressed when its name ends .gz), with the line it is first on.
func machinePaths(path string) ([]machinePathHit, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	seen := map[string]bool{}
	var found []machinePathHit
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1) // a line as long as the file
	for n := 1; sc.Scan(); n++ {
		for _, m := range machinePath.FindAllStringSubmatch(sc.Text(), -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				found = append(found, machinePathHit{n, m[1]})
			}
		}
	}
	return found, sc.Err()
}
