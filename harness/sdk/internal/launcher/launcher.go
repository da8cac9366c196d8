// Package launcher is what package sdk and package sdk/mpirun share about
// how the plugin process was started: whether by mpirun, and the hook by
// which package mpirun (linked only into plugins that import it) takes
// over the follower ranks of such a job.
package launcher

import "os"

// Follower, when set (by package mpirun's init), is called first by
// sdk.Serve with the plugin. It returns true when this process was a
// follower rank of an mpirun job (world rank > 0): such a rank serves no
// RPC; it has run its share of the job and Serve returns.
var Follower func(plugin any) (handled bool)

// UnderMPIRun reports whether this process was started by an MPI launcher
// (Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; PMIx and PMI launchers set
// PMIX_RANK or PMI_RANK).
func UnderMPIRun() bool {
	for _, k := range []string{"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"} {
		if _, ok := os.LookupEnv(k); ok {
			return true
		}
	}
	return false
}
