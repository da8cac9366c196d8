package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadline: the manifest is read strictly, the table is written
// between the README's markers from the files' cases, a second pass
// changes nothing, and a case not fully validated is refused.
func TestHeadline(t *testing.T) {
	dir := t.TempDir()
	run := synthRun()
	for _, c := range run.Cases {
		c.Validated = len(c.BFS)
	}
	if err := run.Save(filepath.Join(dir, "r.json")); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# results\n\n"+HeadlineBegin+"\nstale\n"+HeadlineEnd+"\n\nmore\n")
	write(HeadlineFile, "[[row]]\nfile = \"r.json\"\nvariant = \"edgescan\"\nscales = [12]\nnote = \"n\"\n")
	for pass, want := range []bool{true, false} {
		changed, err := UpdateHeadline(dir, false)
		if err != nil || changed != want {
			t.Fatalf("pass %d: changed %v, %v", pass, changed, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	s := string(b)
	if strings.Contains(s, "stale") || !strings.Contains(s, "| edgescan | cpu | - | - | 12 |") || !strings.HasSuffix(s, HeadlineEnd+"\n\nmore\n") {
		t.Errorf("README:\n%s", s)
	}
	write(HeadlineFile, "[[row]]\nfile = \"r.json\"\nvariant = \"edgescan\"\nscale = 12\n")
	if _, err := UpdateHeadline(dir, true); err == nil || !strings.Contains(err.Error(), "unknown key") {
		t.Errorf("an unknown key: %v", err)
	}
	write(HeadlineFile, "[[row]]\nfile = \"r.json\"\nvariant = \"diropt\"\n")
	if _, err := UpdateHeadline(dir, true); err == nil || !strings.Contains(err.Error(), "every search validated") {
		t.Errorf("an invalid case: %v", err)
	}
	write(HeadlineFile, "[[row]]\nfile = \"r.json\"\nvariant = \"none\"\n")
	if _, err := UpdateHeadline(dir, true); err == nil || !strings.Contains(err.Error(), "no case") {
		t.Errorf("a row without a case: %v", err)
	}
}
