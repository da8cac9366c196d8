//go:build mpi

// Command mpitest runs the comm conformance suite (internal/commtest) over
// the MPI binding. It is started by comm's TestMPI under
// `mpirun -np N`; each rank runs every case, and the process exits
// non-zero if any case failed on it.
//
// With -mode=hang, every rank waits forever (rank 0 sleeps; the others
// wait in a broadcast from it), for tests of stopping a job from outside.
//
// With -mode=die, rank 0 exits without MPI_Finalize while the other ranks
// wait in a broadcast: the job must end (mpirun aborts it) rather than
// leave followers waiting forever.
package main

import (
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/comm/internal/commtest"
)

func main() {
	mode := flag.String("mode", "suite", "suite, or die (rank 0 exits early)")
	exitCode := flag.Int("code", 3, "rank 0's exit status with -mode=die")
	flag.Parse()
	c, err := comm.MPIWorld()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	switch *mode {
	case "hang":
		hang(c)
	case "die":
		die(c, *exitCode)
	default:
		os.Exit(suite(c))
	}
}

func suite(c comm.Comm) int {
	failed := 0
	if err := goPanicsStillRecover(); err != nil {
		fmt.Fprintf(os.Stderr, "rank %d: %v\n", c.Rank(), err)
		failed++
	}
	for _, tc := range commtest.Cases {
		if err := tc.Run(c); err != nil {
			fmt.Fprintf(os.Stderr, "rank %d: FAIL %s: %v\n", c.Rank(), tc.Name, err)
			failed++
		} else if c.Rank() == 0 {
			fmt.Printf("ok %s (%d ranks)\n", tc.Name, c.Size())
		}
	}
	if err := comm.MPIFinalize(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		failed++
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// goPanicsStillRecover checks that MPI left the Go runtime's signal
// handling alone: a nil dereference must still be a recoverable panic.
func goPanicsStillRecover() (err error) {
	defer func() {
		if recover() == nil {
			err = fmt.Errorf("nil dereference did not panic")
		}
	}()
	var p *int
	_ = *p
	return nil
}

func die(c comm.Comm, code int) {
	if c.Rank() == 0 {
		time.Sleep(200 * time.Millisecond)
		fmt.Fprintln(os.Stderr, "rank 0: exiting without MPI_Finalize")
		os.Exit(code)
	}
	buf := []int64{0}
	err := c.Bcast(comm.Host(buf), 0) // never completes: rank 0 is gone
	fmt.Fprintf(os.Stderr, "rank %d: bcast returned %v\n", c.Rank(), err)
	os.Exit(4)
}

func hang(c comm.Comm) {
	fmt.Printf("rank %d pid %d pgid %d\n", c.Rank(), os.Getpid(), pgid())
	if c.Rank() == 0 {
		select {}
	}
	_ = c.Bcast(comm.Host([]int64{0}), 0)
	os.Exit(4)
}

func pgid() int {
	g, _ := syscall.Getpgid(0)
	return g
}
