// Package mpirun runs a distributed variant as an mpirun job: rank 0
// serves the harness's RPC and drives the other ranks with small commands
// over MPI (the control protocol of control.go: driver.go on rank 0,
// follower.go on the others). Package grid uses it for launcher =
// "mpirun"; importing grid (or this package) is what lets a plugin binary
// join such a job, through the follower hook this package installs in
// package sdk's Serve. Without the `mpi` build tag the hook refuses the
// job with the reason (nompi.go).
package mpirun
