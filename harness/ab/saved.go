package ab

// saved.go keeps a build for a machine that cannot build: `bfsbench ab
// --build-only DIR` builds both sides here (plugins and CUDA libraries)
// into DIR/base and DIR/new, each with a build.json naming its revision;
// `bfsbench ab --builds DIR` measures them where they are carried to (a GPU
// machine without Go), with the same interleaving and comparison.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// BuildFile is the file beside a saved build's bin/ (and lib/) that names
// its revision.
const BuildFile = "build.json"

// savedBuild is BuildFile's content.
type savedBuild struct {
	Label  string `json:"label"`
	Rev    string `json:"rev"`
	Commit string `json:"commit"`
	Dirty  bool   `json:"dirty"`
	// Untracked lists the working tree's untracked files built in.
	Untracked []string `json:"untracked,omitempty"`
}

// Save writes b's BuildFile beside its PluginDir, so that LoadBuild can
// take the build up elsewhere.
func (b *Build) Save() error {
	data, err := json.MarshalIndent(savedBuild{Label: b.Label, Rev: b.Rev, Commit: b.Commit, Dirty: b.Dirty, Untracked: b.Untracked}, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(filepath.Dir(b.PluginDir), BuildFile)
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("%s: saving the build: %w", b.Label, err)
	}
	return nil
}

// LoadBuild takes up the build that Save left in dir (the folder holding
// bin/ and BuildFile) as the side label. Its plugins run from dir/bin,
// and load their CUDA libraries from dir/lib.
func LoadBuild(dir, label string) (*Build, error) {
	path := filepath.Join(dir, BuildFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: no saved build (bfsbench ab --build-only makes one): %w", label, err)
	}
	var s savedBuild
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", label, path, err)
	}
	if s.Label != label {
		return nil, fmt.Errorf("%s: %s holds the %q side", label, path, s.Label)
	}
	if s.Commit == "" {
		return nil, fmt.Errorf("%s: %s names no commit", label, path)
	}
	abs, err := filepath.Abs(filepath.Join(dir, "bin"))
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: %s has no bin/ of plugins beside it", label, path)
	}
	return &Build{Label: s.Label, Rev: s.Rev, Commit: s.Commit, Dirty: s.Dirty, Untracked: s.Untracked, PluginDir: abs}, nil
}
