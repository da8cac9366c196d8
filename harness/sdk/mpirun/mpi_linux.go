//go:build mpi && linux

package mpirun

import (
	"os"
	"syscall"
)

// stdoutToStderr points file descriptor 1 (and os.Stdout) at stderr.
func stdoutToStderr() error {
	if err := syscall.Dup3(2, 1, 0); err != nil {
		return err
	}
	os.Stdout = os.Stderr
	return nil
}
