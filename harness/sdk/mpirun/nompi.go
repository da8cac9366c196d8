//go:build !mpi

package mpirun

// nompi.go: a plugin built without the MPI binding that finds itself
// started by mpirun cannot join the job (its ranks could not talk), so
// every rank says why on stderr and exits at once; mpirun then ends the
// job and the harness reports the plugin's stderr.

import (
	"fmt"
	"os"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/internal/launcher"
)

func init() { launcher.Follower = func(p any) bool { return noMPIHook(p.(sdk.Plugin)) } }

func noMPIHook(p sdk.Plugin) bool {
	if !launcher.UnderMPIRun() {
		return false
	}
	fmt.Fprintf(os.Stderr, "plugin %s was started by mpirun, but %v\n", p.Info().Name, comm.ErrNoMPI)
	os.Exit(1)
	return true
}
