package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadBinary: a file that is not a Go program gets its path and hash
// only; a missing file is an error naming it.
func TestReadBinary(t *testing.T) {
	p := filepath.Join(t.TempDir(), "plugin.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBinary(p)
	// sha256sum of "#!/bin/sh\n"
	if err != nil || b.SHA256 != "a8076d3d28d21e02012b20eaf7dbf75409a6277134439025f282e368e3305abf" || b.Module != "" || b.Path != p {
		t.Fatalf("%+v, %v", b, err)
	}
	if _, err := ReadBinary(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a missing binary gave no error")
	}
}
