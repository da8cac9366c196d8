// Package mpibuild holds what tests need to exercise the Open MPI binding
// from a plain `go test`: a check that Open MPI is installed, and a build
// of a package with -tags mpi and mpicc's flags.
package mpibuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/runner/mpijob"
)

// Require skips t, saying why, when mpirun or mpicc is missing; with
// BFSBENCH_REQUIRE_MPI=1 (CI) it fails t instead.
func Require(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"mpirun", "mpicc"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := tool + " not on PATH: Open MPI is not installed, so the MPI tests cannot run; install it with `" + mpijob.InstallHint + "` (as root)"
			if os.Getenv("BFSBENCH_REQUIRE_MPI") == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// Build compiles the Go package pkg (a path as `go build` takes it, relative
// to the test's directory) with the MPI binding into out.
func Build(pkg, out string) (output string, err error) {
	cflags, err := exec.Command("mpicc", "--showme:compile").Output()
	if err != nil {
		return "", err
	}
	ldflags, err := exec.Command("mpicc", "--showme:link").Output()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-tags", "mpi", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1",
		"CGO_CFLAGS="+strings.TrimSpace(string(cflags)),
		"CGO_LDFLAGS="+strings.TrimSpace(string(ldflags)))
	b, err := cmd.CombinedOutput()
	return string(b), err
}
