package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestABSetupErrors: every way `ab` cannot measure exits 2, before any
// plugin is built where the arguments alone tell.
func TestABSetupErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(cfg, []byte("[workload]\nscale = 8\nnbfs = 4\n\n[[variant]]\nname = \"r\"\nplugin = \"reference\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A repository whose only commit has no plugins.
	repo := filepath.Join(dir, "repo")
	for _, args := range [][]string{
		{"init", "--quiet", repo},
		{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "--allow-empty", "-m", "empty"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	out := func() string { return filepath.Join(t.TempDir(), "out") }
	for _, tc := range []struct {
		desc string
		args []string
		msg  string
	}{
		{"no arguments", nil, "ab needs BASE_REV [NEW_REV] CONFIG"},
		{"too many", []string{"a", "b", "c", "d"}, "ab needs BASE_REV [NEW_REV] CONFIG"},
		{"bad threshold", []string{"HEAD", cfg, "--threshold", "150%"}, "--threshold"},
		{"bad alpha", []string{"HEAD", cfg, "--alpha", "0"}, "--alpha"},
		{"bad rounds", []string{"HEAD", cfg, "--rounds", "0"}, "--rounds"},
		{"missing config", []string{"HEAD", filepath.Join(dir, "none.toml")}, "none.toml"},
		{"too few searches", []string{"HEAD", cfg, "--rounds", "2", "--min-searches", "16"}, "8 searches a side per case (nbfs 4 × 2 rounds), fewer than --min-searches 16"},
		{"no such revision", []string{"no-such-rev", cfg, "--repo", repo, "--min-searches", "4", "--out", out()}, `no revision "no-such-rev"`},
		{"no plugin in the revision", []string{"HEAD", cfg, "--repo", repo, "--min-searches", "4", "--out", out()}, `has no plugin "reference"`},
		{"not a repository", []string{"HEAD", cfg, "--repo", dir, "--min-searches", "4", "--out", out()}, "not in a git repository"},
		{"existing folder", []string{"HEAD", cfg, "--min-searches", "4", "--out", dir}, "exists"},
		{"existing build folder", []string{"HEAD", cfg, "--min-searches", "4", "--build-only", dir}, "exists"},
		{"builds with revisions", []string{"HEAD", cfg, "--builds", dir}, "needs CONFIG alone"},
		{"builds and build-only", []string{cfg, "--builds", dir, "--build-only", out()}, "give one"},
		{"no saved builds", []string{cfg, "--builds", dir, "--min-searches", "4", "--out", out()}, "no saved build"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := run(t, append([]string{"ab"}, tc.args...)...)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %v, want exit 2 naming %q", err, tc.msg)
			}
		})
	}
}
