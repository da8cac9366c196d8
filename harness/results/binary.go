package results

import (
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// Binary identifies the plugin binary a case ran, so that a result of a
// variant built anywhere (in this repository or in a module of its own)
// can be traced to its code: the file and its hash, and what its Go build
// recorded (the main module's path and version, and the VCS revision of a
// build inside a checkout, with Modified for an uncommitted tree).
type Binary struct {
	Path      string `json:"path"`
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
	b := Binary{Path: path, SHA256: hex.EncodeToString(h.Sum(nil))}
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
