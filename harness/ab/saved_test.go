package ab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveLoadBuild: a saved build is taken up as it was, from its own
// bin/; every way a folder is not a saved build of the side is an error
// that says so.
func TestSaveLoadBuild(t *testing.T) {
	dir := t.TempDir()
	side := filepath.Join(dir, NewLabel)
	if err := os.MkdirAll(filepath.Join(side, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	b := &Build{Label: NewLabel, Commit: "0123456789abcdef0123", Dirty: true, PluginDir: filepath.Join(side, "bin")}
	if err := b.Save(); err != nil {
		t.Fatal(err)
	}
	got, err := LoadBuild(side, NewLabel)
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(got.PluginDir) || got.PluginDir != mustAbs(t, b.PluginDir) {
		t.Errorf("PluginDir %q, want the absolute %q", got.PluginDir, b.PluginDir)
	}
	if got.Label != b.Label || got.Rev != b.Rev || got.Commit != b.Commit || got.Dirty != b.Dirty || got.Describe() != b.Describe() {
		t.Errorf("loaded %+v, saved %+v", got, b)
	}

	write := func(t *testing.T, content string, bin bool) string {
		d := t.TempDir()
		if bin {
			if err := os.Mkdir(filepath.Join(d, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if content != "" {
			if err := os.WriteFile(filepath.Join(d, BuildFile), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	for _, tc := range []struct {
		desc, content string
		bin           bool
		msg           string
	}{
		{"no build.json", "", true, "no saved build"},
		{"not JSON", "{", true, "build.json"},
		{"the other side", `{"label": "base", "commit": "abc"}`, true, `holds the "base" side`},
		{"no commit", `{"label": "new"}`, true, "names no commit"},
		{"no bin", `{"label": "new", "commit": "abc"}`, false, "no bin/"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := LoadBuild(write(t, tc.content, tc.bin), NewLabel)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %v, want one naming %q", err, tc.msg)
			}
		})
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
