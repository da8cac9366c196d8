//go:build !mpi

package comm

// mpi_stub.go stands in for the MPI binding (mpi.go) in binaries built
// without the mpi tag: they run every rank in process, and say so clearly
// when a config asks for mpirun.

// MPIBuilt reports whether this binary carries the MPI binding.
const MPIBuilt = false

// MPIWorld would return MPI_COMM_WORLD; without MPI it returns ErrNoMPI.
func MPIWorld() (Comm, error) { return nil, ErrNoMPI }

// MPIFinalize does nothing without MPI.
func MPIFinalize() error { return nil }
