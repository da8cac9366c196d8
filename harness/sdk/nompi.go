//go:build !mpi

package sdk

// nompi.go: a plugin built without the MPI binding that finds itself
// started by mpirun cannot join the job (its ranks could not talk), so
// every rank says why on stderr and exits at once; mpirun then ends the
// job and the harness reports the plugin's stderr.

import (
	"fmt"
	"os"

	"github.com/bfsbench/bfsbench/harness/comm"
)

func init() { followerHook = noMPIHook }

func noMPIHook(p Plugin) bool {
	if !comm.UnderMPIRun() {
		return false
	}
	fmt.Fprintf(os.Stderr, "plugin %s was started by mpirun, but %v\n", p.Info().Name, comm.ErrNoMPI)
	os.Exit(1)
	return true
}
