//go:build mpi

package mpirun

// mpi.go joins a plugin binary built with `-tags mpi` to an mpirun job:
// Serve calls followerHook first; under mpirun it initialises MPI on every
// rank, and
//   - on rank 0 returns false: rank 0 serves go-plugin RPC, and its
//     sdk.Variant (NewDistributed, launcher = "mpirun") drives the others;
//   - on the follower ranks runs the follower loop (follower.go) and
//     returns true once rank 0 says quit.
//
// go-plugin's handshake line is read from the job's stdout, which mpirun
// merges from every rank: followers therefore write nothing there (their
// stdout is redirected to stderr, file descriptor included, so C code is
// covered too). Every rank exits when its launcher goes away (a watchdog
// on the parent process), so a job whose mpirun was killed leaves no rank
// behind; when rank 0 dies, mpirun itself aborts the job.

import (
	"fmt"
	"os"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/internal/launcher"
)

func init() { launcher.Follower = func(p any) bool { return mpiFollowerHook(p.(sdk.Plugin)) } }

func mpiFollowerHook(p sdk.Plugin) bool {
	if !launcher.UnderMPIRun() {
		return false
	}
	s, err := joinMPIJob()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bfsbench plugin under mpirun: %v\n", err)
		os.Exit(1)
	}
	if s.world.Rank() == 0 {
		mpiProc.Lock()
		mpiProc.session = s
		mpiProc.Unlock()
		go watchLauncher(s.alive)
		return false
	}
	if err := stdoutToStderr(); err != nil {
		fmt.Fprintf(os.Stderr, "bfsbench rank %d: %v\n", s.world.Rank(), err)
	}
	f := &follower{s: s, newRank: pluginRankFunc(p)}
	if err := f.run(); err != nil {
		fmt.Fprintf(os.Stderr, "bfsbench rank %d: %v\n", s.world.Rank(), err)
		s.world.Abort(err) // does not return
	}
	if err := comm.MPIFinalize(); err != nil {
		fmt.Fprintf(os.Stderr, "bfsbench rank %d: %v\n", s.world.Rank(), err)
		os.Exit(1)
	}
	return true
}

// joinMPIJob initialises MPI and the control communicator (collective
// over the world).
func joinMPIJob() (*mpiSession, error) {
	world, err := comm.MPIWorld()
	if err != nil {
		return nil, err
	}
	ctl, err := world.Split(0, world.Rank())
	if err != nil {
		return nil, fmt.Errorf("control communicator: %w", err)
	}
	ppid := os.Getppid()
	alive := func() error {
		if os.Getppid() != ppid {
			return fmt.Errorf("the MPI launcher (pid %d) is gone", ppid)
		}
		return nil
	}
	return &mpiSession{world: world, ctl: ctl, alive: alive, finish: comm.MPIFinalize}, nil
}

// watchLauncher ends rank 0 when its launcher has gone (rank 0 waits in
// RPC, not in MPI, so nothing else would notice).
func watchLauncher(alive func() error) {
	for {
		time.Sleep(time.Second)
		if err := alive(); err != nil {
			fmt.Fprintf(lastWords, "bfsbench rank 0: %v; exiting\n", err)
			os.Exit(1)
		}
	}
}
