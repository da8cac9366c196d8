package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/graphio"
	"github.com/bfsbench/bfsbench/harness/results"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := dispatch(context.Background(), args, &out, &errb)
	return out.String(), err
}

func TestGenerateTextMatchesReferenceFirstEdges(t *testing.T) {
	out, err := run(t, "generate", "--scale", "10", "--edgefactor", "16", "--seed", "2,3", "--format", "text", "--out", "-")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	// The reference 3.0.x generator's first edges at scale 10, seeds 2,3
	// (see harness/graph500/generator_test.go for how they were obtained).
	want := []string{"299 797", "684 861", "185 385", "428 328", "490 200"}
	for i, w := range want {
		if lines[i] != w {
			t.Fatalf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	if len(lines) != 16*1024+1 {
		t.Fatalf("%d lines", len(lines))
	}
}

func TestValidateCommand(t *testing.T) {
	edges := graph500.Generate(8, 16, [2]uint64{2, 3})
	keys, err := graph500.SearchKeys(edges, 256, 1, [2]uint64{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	root := keys[0]
	parents, _ := graph500.SerialBFS(edges, 256, root)
	write := func(p []int64) string {
		path := filepath.Join(t.TempDir(), "parents.txt")
		var b bytes.Buffer
		if err := graphio.WriteParents(&b, p); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	args := func(path string) []string {
		return []string{"validate", "--scale", "8", "--root", itoa(root), "--parents", path}
	}
	out, err := run(t, args(write(parents))...)
	if err != nil || !strings.HasPrefix(out, "valid: ") || !strings.Contains(out, "nedge") {
		t.Fatalf("valid tree: %q, %v", out, err)
	}
	bad := append([]int64(nil), parents...)
	for v := range bad {
		if int64(v) != root && bad[v] >= 0 {
			bad[v] = int64(v)
			break
		}
	}
	_, err = run(t, args(write(bad))...)
	var ee *exitError
	if err == nil || errors.As(err, &ee) || !strings.Contains(err.Error(), "rule") {
		t.Fatalf("corrupted tree: %v (want a plain error, exit 1, naming the rule)", err)
	}
	if _, err := run(t, "validate", "--scale", "8", "--root", "1"); !errors.As(err, &ee) || ee.code != 2 {
		t.Fatalf("missing --parents: %v", err)
	}
	path := filepath.Join(t.TempDir(), "junk.txt")
	os.WriteFile(path, []byte("0\n1\nx\n"), 0o644)
	if _, err := run(t, args(path)...); err == nil || !strings.Contains(err.Error(), "junk.txt:3") {
		t.Fatalf("malformed parents file: %v (want file:line)", err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"run"}, {"run", "a.toml", "b.toml"}, {"compare", "a.json"},
		{"generate", "--scale", "10"}, {"generate", "--scale", "0", "--out", "-"}, {"compare", "a", "b", "--threshold", "x"}} {
		_, err := run(t, args...)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%v: err %v, want usage error (exit 2)", args, err)
		}
	}
}

func TestParseThreshold(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "0": 0, "12.5%": 0.125} {
		if got, err := parseThreshold(in); err != nil || got != want {
			t.Errorf("parseThreshold(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := parseThreshold("-1"); err == nil {
		t.Error("negative threshold accepted")
	}
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }

// TestCompareStrict: runs from different machines get a warning, and
// --strict refuses them with exit status 2.
func TestCompareStrict(t *testing.T) {
	dir := t.TempDir()
	mk := func(name, cpu string) string {
		r := &results.Run{Env: results.Env{CPUModel: cpu, CPUs: 2}, Cases: []*results.Case{{
			Variant: "v", Backend: "cpu", Status: results.StatusOK, Graph: results.Graph{Scale: 10, EdgeFactor: 16}}}}
		for i := range 8 { // enough for the U test to tell
			r.Cases[0].BFS = append(r.Cases[0].BFS, results.Search{Root: int64(i), TimeS: 1, TEPS: 1e9, NEdge: 1e9, Validated: true, Valid: true})
		}
		p := filepath.Join(dir, name)
		if err := r.Save(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := mk("a.json", "cpu A"), mk("b.json", "cpu B")
	var out strings.Builder
	if err := dispatch(context.Background(), []string{"compare", a, b}, &out, io.Discard); err != nil {
		t.Fatalf("different machines without --strict: %v", err)
	}
	if !strings.HasPrefix(out.String(), "WARNING: the runs are from different machines") {
		t.Errorf("no warning first:\n%s", out.String())
	}
	err := dispatch(context.Background(), []string{"compare", "--strict", a, b}, io.Discard, io.Discard)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "different machines") {
		t.Errorf("--strict: %v", err)
	}
}
