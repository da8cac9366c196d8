package results

import (
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Binary identifies the plugin binary a case ran, so that a result of a
// variant built anywhere (in this repository or in a module of its own)
// can be traced to its code: the file and its hash, and what its Go build
// recorded (the main module's path and version, and the VCS revision of a
// build inside a checkout, with Modified for an uncommitted tree).
type Binary struct {
	Path      string `json:"path"` // as ReadBinary records it: no machine's absolute path
	SHA256    string `json:"sha256"`
	Module    string `json:"module,omitempty"`   // the main module's path
	Version   string `json:"version,omitempty"`  // its version ("(devel)" for a local build)
	Revision  string `json:"revision,omitempty"` // vcs.revision
	Modified  bool   `json:"modified,omitempty"` // vcs.modified
	GoVersion string `json:"go_version,omitempty"`
}

// ReadBinary hashes the binary at path and reads its Go build
// information. A binary that is not a Go program (or carries no build
// information) gets its path and hash only.
//
// The recorded Path names no particular machine: it is path relative to
// the working directory when the binary lies under it ("bin/diropt",
// ".carry/ab/base/bin/diropt"), and otherwise the file's base name alone;
// the hash and the build information identify the file. ReadBinary is the
// one place that records a plugin binary (bfsbench run and ab both plan
// their cases through runner.Plan, which calls it), so it makes Path
// relative here rather than in each caller; path itself is opened as given.
func ReadBinary(path string) (Binary, error) {
	f, err := os.Open(path)
	if err != nil {
		return Binary{}, fmt.Errorf("plugin binary: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return Binary{}, fmt.Errorf("plugin binary %s: %w", path, err)
	}
	wd, _ := os.Getwd() // without it (""), Path is the base name
	b := Binary{Path: recordedPath(wd, path), SHA256: hex.EncodeToString(h.Sum(nil))}
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return b, nil
	}
	b.Module, b.Version, b.GoVersion = bi.Main.Path, bi.Main.Version, bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b, nil
}

// recordedPath is path as a result records it: relative to the working
// directory wd when the file lies under it, else the file's base name. A
// relative path is taken relative to wd.
func recordedPath(wd, path string) string {
	if filepath.IsAbs(wd) && !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	if rel, ok := RelUnder(wd, path); ok {
		return rel
	}
	return filepath.Base(path)
}

// RelUnder returns path relative to dir, and true, when both are absolute
// and path is dir or lies below it; otherwise it returns path unchanged
// and false. It looks at the names only, not at the file system, so a
// symbolic link is not followed.
func RelUnder(dir, path string) (string, bool) {
	if !filepath.IsAbs(dir) || !filepath.IsAbs(path) {
		return path, false
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path, false
	}
	return rel, true
}
