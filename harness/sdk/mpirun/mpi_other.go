//go:build mpi && !linux

package mpirun

import "os"

// stdoutToStderr points os.Stdout at stderr (Go writes only; C code
// writing to file descriptor 1 is not covered on this platform).
func stdoutToStderr() error {
	os.Stdout = os.Stderr
	return nil
}
