package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/report"
	"github.com/bfsbench/bfsbench/harness/results"
)

// git runs git in dir for a test, as a fixed author.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// writeRun writes a results.json of one case of plugin on backend measured
// at commit.
func writeRun(t *testing.T, dir, commit, plugin, backend string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := results.Run{GitCommit: commit, Cases: []*results.Case{{Variant: plugin, Plugin: plugin, Backend: backend, Status: results.StatusOK}}}
	b, _ := json.Marshal(r)
	for name, data := range map[string][]byte{"results.json": b, "README.md": []byte("# f\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStale: a folder measured before a change to its plugin is listed
// stale, one whose plugin did not change (or changed and was reverted) is
// not, one whose commit the history lacks is listed unknown; a change to
// the shared CUDA headers makes a plugin's CUDA figures stale, not its CPU
// ones; the list exits 0, --strict exits 1.
func TestStale(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	for _, p := range []string{"plugins/foo/a.go", "plugins/bar/b.go", "plugins/baz/z.go", cudaShared[0] + "/h.cuh", cudaShared[1] + "/c.cu"} {
		os.MkdirAll(filepath.Join(repo, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(repo, p), []byte("package x\n"), 0o644)
	}
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "plugins")
	measured := git(t, repo, "rev-parse", "HEAD")
	figs := filepath.Join(repo, "results", "figures")
	writeRun(t, filepath.Join(figs, "foo-fig"), measured+"-dirty", "foo", "cpu")
	writeRun(t, filepath.Join(figs, "bar-fig"), measured, "bar", "cpu")
	writeRun(t, filepath.Join(figs, "bar-gpu-fig"), measured, "bar", "cuda")
	writeRun(t, filepath.Join(figs, "lost-fig"), strings.Repeat("d", 40), "bar", "cpu")
	writeRun(t, filepath.Join(figs, "baz-fig"), measured, "baz", "cpu")
	// baz changes and is reverted, then only its comments change: its
	// figure measured the code there now.
	for _, body := range []string{"package x\n\nvar tried = 1\n", "package x\n", "// Package x.\npackage x // a comment\n"} {
		os.WriteFile(filepath.Join(repo, "plugins/baz/z.go"), []byte(body), 0o644)
		git(t, repo, "commit", "-q", "-am", "baz")
	}
	os.WriteFile(filepath.Join(repo, "plugins/foo/a.go"), []byte("package x\n\nvar changed = 1\n"), 0o644)
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "foo changes")
	// Tests and documents of bar change: bar's figure stays current.
	for _, p := range []string{"plugins/bar/b_test.go", "plugins/bar/README.md", "plugins/bar/sub/c_test.go"} {
		os.MkdirAll(filepath.Join(repo, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(repo, p), []byte("package x\n"), 0o644)
	}
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "bar tests")
	// The shared CUDA code changes: bar's CUDA figure is stale.
	for _, p := range []string{cudaShared[0] + "/h.cuh", cudaShared[1] + "/c.cu"} {
		os.WriteFile(filepath.Join(repo, p), []byte("int changed;\n"), 0o644)
		git(t, repo, "commit", "-q", "-am", "shared CUDA code")
	}

	var out bytes.Buffer
	if err := dispatch(t.Context(), []string{"stale", figs}, &out, &out); err != nil {
		t.Fatalf("stale: %v\n%s", err, out.String())
	}
	s := out.String()
	for _, re := range []string{
		`STALE +\S*foo-fig: measured at \w{7}-dirty; changed since: foo \(1 commits, the latest \w+ `,
		`STALE +\S*bar-gpu-fig: measured at \w{7}; changed since: bar \(2 commits, the latest \w+ `,
		`UNKNOWN +\S*lost-fig: commit d{7} is not in`,
		`2 stale, 1 of unknown commit, 2 current; 1 from a -dirty tree`,
	} {
		if !regexp.MustCompile(re).MatchString(s) {
			t.Errorf("output lacks %q:\n%s", re, s)
		}
	}
	for _, f := range []string{"bar-fig:", "baz-fig"} {
		if strings.Contains(s, f) {
			t.Errorf("%s, whose plugin is as it was measured, is listed:\n%s", f, s)
		}
	}
	out.Reset()
	err := dispatch(t.Context(), []string{"stale", "--strict", figs}, &out, &out)
	if exitCode(t.Context(), err) != 1 {
		t.Errorf("stale --strict: %v, want exit 1", err)
	}

	// Headline rows: each row's file for its variant's plugin alone. The
	// mixed file holds foo's case (changed since) and bar's (not): its bar
	// row is current.
	mixed := results.Run{GitCommit: measured, Cases: []*results.Case{
		{Variant: "foo", Plugin: "foo", Backend: "cpu", Status: results.StatusOK},
		{Variant: "bar", Plugin: "bar", Backend: "cpu", Status: results.StatusOK},
	}}
	b, _ := json.Marshal(mixed)
	if err := os.WriteFile(filepath.Join(repo, "results", "mixed.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(repo, "results", report.HeadlineFile)
	rows := "[[row]]\nfile = \"figures/bar-gpu-fig/results.json\"\nvariant = \"bar\"\n" +
		"[[row]]\nfile = \"mixed.json\"\nvariant = \"bar\"\n" +
		"[[row]]\nfile = \"mixed.json\"\nvariant = \"foo\"\n"
	if err := os.WriteFile(manifest, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := dispatch(t.Context(), []string{"stale", "--headline", manifest, figs}, &out, &out); err != nil {
		t.Fatalf("stale --headline: %v\n%s", err, out.String())
	}
	s = out.String()
	for _, re := range []string{
		`STALE +figures/bar-gpu-fig/results.json \(bar\): measured at \w{7}; changed since: bar \(2 commits`,
		`STALE +mixed.json \(foo\): measured at \w{7}; changed since: foo \(1 commits`,
		`headline rows: 2 stale, 0 of unknown commit, 1 current; 0 from a -dirty tree`,
	} {
		if !regexp.MustCompile(re).MatchString(s) {
			t.Errorf("output lacks %q:\n%s", re, s)
		}
	}
	if strings.Contains(s, "mixed.json (bar)") {
		t.Errorf("the bar row of the mixed file, whose plugin is as it was measured, is listed:\n%s", s)
	}
}

// TestDegrees: the degree distribution of a scale-8 graph: every vertex
// in the CSV, in degree order, and the figure drawn.
func TestDegrees(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := dispatch(t.Context(), []string{"degrees", "--scale", "8", "--out", dir, "--name", "deg"}, &out, &out); err != nil {
		t.Fatalf("degrees: %v\n%s", err, out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "degrees.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 257 || lines[0] != "rank,vertex,degree,ends" {
		t.Fatalf("degrees.csv: %d lines, header %q", len(lines), lines[0])
	}
	if _, err := os.Stat(filepath.Join(dir, "figure-deg.png")); err != nil {
		t.Errorf("no figure: %v", err)
	}
}

// TestSummary: summary writes run's summary.txt from a results file.
func TestSummary(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, "abc", "foo", "cpu")
	var out bytes.Buffer
	if err := dispatch(t.Context(), []string{"summary", filepath.Join(dir, "results.json")}, &out, &out); err != nil {
		t.Fatalf("summary: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "foo") {
		t.Errorf("summary names no case:\n%s", out.String())
	}
}

// TestFigureFolders: every folder of results/figures has a README with
// its verdict table as its results give it, its figures as PNG only (each
// shown in the README), and an entry in the index.
func TestFigureFolders(t *testing.T) {
	root := "../../../results/figures"
	dirs, err := figureFolders([]string{root})
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no figure folders: %v", err)
	}
	index, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		name := filepath.Base(d)
		if !strings.Contains(string(index), "("+name+"/)") {
			t.Errorf("%s: not in the index %s/README.md", name, root)
		}
		readme, err := os.ReadFile(filepath.Join(d, "README.md"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !strings.Contains(string(readme), report.VerdictsBegin) {
			t.Errorf("%s: its README has no verdict table", name)
		}
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			switch n := e.Name(); {
			case strings.HasSuffix(n, ".svg"):
				t.Errorf("%s: %s: figures are kept as PNG only", name, n)
			case strings.HasSuffix(n, ".png") && !strings.Contains(string(readme), "("+n+")"):
				t.Errorf("%s: its README does not show %s", name, n)
			case isCopy(filepath.Join(d, n), filepath.Join("../../../configs/figures", n)):
				t.Errorf("%s: %s is a copy of configs/figures/%s: keep the config there only", name, n, n)
			}
		}
	}
	var out bytes.Buffer
	if err := dispatch(t.Context(), []string{"verdicts", "--check", root}, &out, &out); err != nil {
		t.Errorf("%v\n%s", err, out.String())
	}
}

// isCopy reports whether file a exists and has b's bytes (b exists too).
func isCopy(a, b string) bool {
	x, err := os.ReadFile(a)
	if err != nil {
		return false
	}
	y, err := os.ReadFile(b)
	return err == nil && bytes.Equal(x, y)
}

// TestSameCode: what bfsbench stale takes for a change of code.
func TestSameCode(t *testing.T) {
	for _, tc := range []struct {
		name, path, a, b string
		same             bool
	}{
		{"go comments", "x.go", "package x\n\nvar a = 1\n", "// Package x.\npackage x\n\n/* one */ var a = 1 // a\n", true},
		{"go white space", "x.go", "package x\nvar a = 1\n", "package x\n\nvar a   =\t1\n", true},
		{"go semicolons", "x.go", "package x\nvar a = 1\n", "package x; var a = 1;", true},
		{"go code", "x.go", "package x\nvar a = 1\n", "package x\nvar a = 2\n", false},
		{"go string", "x.go", "package x\nvar a = \"//\"\n", "package x\nvar a = \"// b\"\n", false},
		{"go directive", "x.go", "//go:build a\npackage x\n", "//go:build b\npackage x\n", false},
		{"cgo preamble", "x.go", "package x\n// int f(void);\nimport \"C\"\n", "package x\n// int g(void);\nimport \"C\"\n", false},
		{"go does not scan", "x.go", "package x\nvar a = `\n", "package x\nvar a = `\n", false},
		{"cu comments", "k.cu", "int a; // one\n/* two\n three */ int b;\n", "int a;\n int b; // b\n", true},
		{"cu white space", "k.cuh", "int f(int x) {\n  return x;\n}\n", "int f(int x) {\n\n\treturn  x;\n}\n", true},
		{"cu code", "k.cu", "int a = 1;\n", "int a = 2;\n", false},
		{"cu string", "k.cu", "const char* s = \"a // b\";\n", "const char* s = \"a\";\n", false},
		{"cu char", "k.cu", "char c = '\\'';  // q\n", "char c = '\\'';\n", true},
		{"preprocessor lines", "k.h", "#define A 1\nint b;\n", "#define A 1 int b;\n", false},
		{"code reflowed", "k.cu", "int f(int a,\n      int b);\nint c;\n", "int f(int a, int b); int c;\n", true},
		{"directive after code", "k.cu", "int a;\n#include <x>\n", "int a; #include <x>\n", false},
		{"directive continued", "k.h", "#define X a \\\n  b\nint y;\n", "#define X a \\\n b int y;\n", false},
		{"directive continued, reflowed after", "k.h", "#define X a \\\n  b\nint y,\n z;\n", "#define X a \\\n b\nint y, z;\n", true},
		{"comment between tokens", "k.cu", "int/**/a;\n", "inta;\n", false},
		{"other files", "x.toml", "a = 1 # x\n", "a = 1\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameCode(tc.path, []byte(tc.a), []byte(tc.b)); got != tc.same {
				t.Errorf("sameCode(%q, %q, %q) = %v, want %v", tc.path, tc.a, tc.b, got, tc.same)
			}
		})
	}
}
