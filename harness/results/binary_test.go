package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadBinary: a file that is not a Go program gets its path and hash
// only; a missing file is an error naming it. The path is recorded
// relative to the working directory when the file lies under it, else as
// its base name.
func TestReadBinary(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bin", "plugin.sh")
	if err := os.Mkdir(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, path := range []string{p, "bin/plugin.sh"} {
		b, err := ReadBinary(path)
		// sha256sum of "#!/bin/sh\n"
		if err != nil || b.SHA256 != "a8076d3d28d21e02012b20eaf7dbf75409a6277134439025f282e368e3305abf" || b.Module != "" ||
			b.Path != filepath.Join("bin", "plugin.sh") {
			t.Fatalf("ReadBinary(%q): %+v, %v", path, b, err)
		}
	}
	t.Chdir(t.TempDir()) // p now lies outside the working directory
	if b, err := ReadBinary(p); err != nil || b.Path != "plugin.sh" {
		t.Fatalf("ReadBinary(%q) outside the working directory: %+v, %v", p, b, err)
	}
	if _, err := ReadBinary(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a missing binary gave no error")
	}
}

// TestRecordedPath: a binary under the working directory is recorded
// relative to it; any other by its base name alone.
func TestRecordedPath(t *testing.T) {
	for _, c := range []struct{ wd, path, want string }{
		{"/src/bfsbench", "/src/bfsbench/bin/diropt", "bin/diropt"},
		{"/src/bfsbench", "/src/bfsbench/.carry/ab/base/bin/diropt", ".carry/ab/base/bin/diropt"},
		{"/src/bfsbench/", "/src/bfsbench/bin/diropt", "bin/diropt"},
		{"/src/bfsbench", "bin/diropt", "bin/diropt"},                           // relative: to the working directory
		{"/src/bfsbench", "./bin/../bin/diropt", "bin/diropt"},                  // cleaned
		{"/src/bfsbench", "/src/bfsbench2/bin/diropt", "diropt"},                // a sibling sharing the prefix
		{"/src/bfsbench", "/src/other/bin/diropt", "diropt"},                    // outside
		{"/src/bfsbench", "/src/bfsbench/../other/diropt", "diropt"},            // outside, through ..
		{"/src/bfsbench", "../other/bin/diropt", "diropt"},                      // relative, outside
		{"/src/bfsbench", "/opt/plugins/..hidden/diropt", "diropt"},             // outside, a name starting ..
		{"/src/bfsbench", "/src/bfsbench/..plugins/diropt", "..plugins/diropt"}, // inside, a name starting ..
		{"", "/src/bfsbench/bin/diropt", "diropt"},                              // no working directory
		{"", "bin/diropt", "diropt"},
		{"/", "/bin/diropt", "bin/diropt"},
	} {
		if got := recordedPath(c.wd, c.path); got != c.want {
			t.Errorf("recordedPath(%q, %q) = %q, want %q", c.wd, c.path, got, c.want)
		}
	}
}
