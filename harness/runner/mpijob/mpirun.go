// Package mpijob is the harness's control of plugin processes that are MPI
// jobs: it builds the `mpirun -np N PLUGIN` command a multi-rank variant
// is started with (launcher = "mpirun"), and stops such a job as a whole,
// ranks placed in process groups of their own included.
package mpijob

// mpirun.go builds the `mpirun -np N PLUGIN` command the harness starts a
// multi-rank variant with (launcher = "mpirun"), and stops such a job as a
// whole. Rank 0 of the job serves go-plugin RPC on the harness's machine:
// with a host file, the harness's host must come first in it, because
// go-plugin connects to rank 0 through a local socket.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// InstallHint is the command that installs Open MPI on Debian and Ubuntu.
const InstallHint = "apt-get update && apt-get install -y libopenmpi-dev openmpi-bin"

// MPIRunCommand returns the command that starts program (with
// programArgs) as an np-rank MPI job: `mpirun -np NP [--hostfile F]
// [--allow-run-as-root] [--bind-to none] EXTRA... PROGRAM ARGS...`.
// mpirun is looked up on PATH. --allow-run-as-root is added when running as
// root (Open MPI refuses otherwise). --bind-to none is added unless
// extraArgs choose a binding: Open MPI binds each rank to one core by
// default for small jobs, which would leave a rank's Go code (generation,
// partitioning, CPU kernels, the host side of a GPU rank) a single core.
// Oversubscription (more ranks than cores) is asked for with
// "--oversubscribe" in extraArgs. The command runs in its own process
// group, so KillGroup stops mpirun and every local rank together; a
// terminal's Ctrl-C no longer reaches it, so the caller must forward it
// through KillGroup.
func MPIRunCommand(np int, hostfile string, extraArgs []string, program string, programArgs ...string) (*exec.Cmd, error) {
	if np < 1 {
		return nil, fmt.Errorf("mpirun: %d ranks requested, want at least 1", np)
	}
	if program == "" {
		return nil, errors.New("mpirun: no program to run")
	}
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		return nil, fmt.Errorf("launcher = \"mpirun\" needs Open MPI's mpirun on PATH, and it was not found (%v); install it with `%s` (as root), or use launcher = \"embedded\"", err, InstallHint)
	}
	args := []string{"-np", fmt.Sprint(np)}
	if hostfile != "" {
		if _, err := os.Stat(hostfile); err != nil {
			return nil, fmt.Errorf("mpirun host file: %w", err)
		}
		args = append(args, "--hostfile", hostfile)
	}
	if os.Geteuid() == 0 && !slices.Contains(extraArgs, "--allow-run-as-root") {
		args = append(args, "--allow-run-as-root")
	}
	if !hasBinding(extraArgs) {
		args = append(args, "--bind-to", "none")
	}
	args = append(args, extraArgs...)
	args = append(args, program)
	args = append(args, programArgs...)
	cmd := exec.Command(mpirun, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}

// KillGrace is how long KillGroup waits after SIGTERM before SIGKILL.
const KillGrace = 3 * time.Second

// KillGroup stops a job started from MPIRunCommand and returns at once
// (the caller still Waits for cmd). Open MPI puts every rank in a process
// group of its own, and ranks whose mpirun dies by SIGKILL live on,
// orphaned, so KillGroup first lists mpirun's descendants, then sends
// SIGTERM to mpirun's group (mpirun forwards it to every rank, on every
// host) and to each descendant, and KillGrace later SIGKILL to whatever
// of them is left. A command that was not started is left alone.
func KillGroup(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	leader := cmd.Process.Pid
	procs := descendants(leader)
	group := cmd.SysProcAttr != nil && cmd.SysProcAttr.Setpgid
	signal := func(sig syscall.Signal) {
		if group {
			_ = syscall.Kill(-leader, sig) // Setpgid made the leader's pid the group id
		} else {
			_ = cmd.Process.Signal(sig)
		}
		for _, p := range procs {
			if p.alive() {
				_ = syscall.Kill(p.pid, sig)
			}
		}
	}
	signal(syscall.SIGTERM)
	time.AfterFunc(KillGrace, func() { signal(syscall.SIGKILL) })
}

// hasBinding reports whether args choose a process binding.
func hasBinding(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "--bind-to") || strings.HasPrefix(a, "-bind-to") {
			return true
		}
	}
	return false
}
