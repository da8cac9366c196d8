package comm_test

// mpi_test.go drives the MPI binding's tests from a plain `go test`: it
// builds internal/mpitest with -tags mpi (flags from mpicc) and runs it
// under mpirun --oversubscribe, as the harness would (MPIRunCommand). The
// tests skip, saying why, where Open MPI is not installed; with
// BFSBENCH_REQUIRE_MPI=1 (CI) they fail instead.

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/comm/mpibuild"
	"github.com/bfsbench/bfsbench/harness/runner/mpijob"
)

var mpitest struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  string
}

func TestMain(m *testing.M) {
	if os.Getenv(ncclChildEnv) != "" {
		os.Exit(ncclChild()) // one rank of TestNCCLConformanceMPI's job
	}
	code := m.Run()
	if mpitest.dir != "" {
		os.RemoveAll(mpitest.dir)
	}
	os.Exit(code)
}

// mpiTestBinary builds internal/mpitest once per test run.
func mpiTestBinary(t *testing.T) string {
	t.Helper()
	mpibuild.Require(t)
	mpitest.once.Do(func() {
		mpitest.dir, mpitest.err = os.MkdirTemp("", "bfsbench-mpitest")
		if mpitest.err != nil {
			return
		}
		mpitest.bin = filepath.Join(mpitest.dir, "mpitest")
		mpitest.out, mpitest.err = mpibuild.Build("./internal/mpitest", mpitest.bin)
	})
	if mpitest.err != nil {
		t.Fatalf("building the MPI test program: %v\n%s", mpitest.err, mpitest.out)
	}
	return mpitest.bin
}

// runJob runs the test program as an np-rank job and returns its output.
func runJob(t *testing.T, np int, timeout time.Duration, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd, err := mpijob.MPIRunCommand(np, "", []string{"--oversubscribe"}, mpiTestBinary(t), args...)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(timeout):
		mpijob.KillGroup(cmd)
		<-done
		t.Fatalf("mpirun -np %d %v did not finish in %v\nstdout:\n%s\nstderr:\n%s", np, args, timeout, out.String(), errb.String())
	}
	return out.String(), errb.String(), err
}

func TestMPIConformance(t *testing.T) {
	for _, np := range []int{4, 3} {
		t.Run(strconv.Itoa(np), func(t *testing.T) {
			out, errs, err := runJob(t, np, 2*time.Minute)
			if err != nil {
				t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
			}
			// Rank 0 prints one line per passing case.
			for _, name := range []string{"RankSize", "Grid", "OverlappedRounds", "LargeMessage"} {
				if !strings.Contains(out, "ok "+name+" ("+strconv.Itoa(np)+" ranks)") {
					t.Errorf("no pass line for %s:\n%s", name, out)
				}
			}
		})
	}
}

// A job whose rank 0 exits (cleanly or not) without MPI_Finalize must end,
// not leave the other ranks waiting for it forever.
func TestMPIJobEndsWhenRankZeroDies(t *testing.T) {
	for _, code := range []string{"0", "3"} {
		t.Run("exit"+code, func(t *testing.T) {
			_, errs, err := runJob(t, 3, time.Minute, "-mode=die", "-code="+code)
			if err == nil {
				t.Fatal("job succeeded although rank 0 died")
			}
			if strings.Contains(errs, "bcast returned") && !strings.Contains(errs, "exiting") {
				t.Errorf("unexpected stderr:\n%s", errs)
			}
		})
	}
}

// KillGroup stops a hung job: mpirun and every rank are gone soon after.
func TestKillGroupStopsHungJob(t *testing.T) {
	const np = 3
	cmd, err := mpijob.MPIRunCommand(np, "", []string{"--oversubscribe"}, mpiTestBinary(t), "-mode=hang")
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pids := make(chan int, np)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() { // "rank R pid P pgid G"
			f := strings.Fields(sc.Text())
			if len(f) >= 4 {
				if p, err := strconv.Atoi(f[3]); err == nil {
					pids <- p
				}
			}
		}
	}()
	var ranks []int
	for len(ranks) < np {
		select {
		case p := <-pids:
			ranks = append(ranks, p)
		case <-ctx.Done():
			mpijob.KillGroup(cmd)
			t.Fatal("ranks did not start")
		}
	}
	mpijob.KillGroup(cmd)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(mpijob.KillGrace + 10*time.Second):
		t.Fatal("mpirun still running after KillGroup")
	}
	deadline := time.Now().Add(mpijob.KillGrace + 5*time.Second)
	for _, p := range ranks {
		for running(p) {
			if time.Now().After(deadline) {
				t.Fatalf("rank process %d still running after KillGroup", p)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

func TestMPIRunCommand(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "mpirun")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hosts := filepath.Join(dir, "hosts")
	os.WriteFile(hosts, []byte("localhost slots=4\n"), 0o644)
	t.Setenv("PATH", dir)

	cmd, err := mpijob.MPIRunCommand(4, hosts, []string{"--oversubscribe", "--bind-to", "core"}, "/bin/plugin", "-x", "y")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fake, "-np", "4", "--hostfile", hosts}
	if os.Geteuid() == 0 {
		want = append(want, "--allow-run-as-root")
	}
	want = append(want, "--oversubscribe", "--bind-to", "core", "/bin/plugin", "-x", "y")
	if strings.Join(cmd.Args, " ") != strings.Join(want, " ") {
		t.Errorf("args\n got %q\nwant %q", cmd.Args, want)
	}
	// Without a binding of the user's, ranks are not bound to one core.
	cmd, err = mpijob.MPIRunCommand(2, "", nil, "/bin/plugin")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(cmd.Args, " "), "--bind-to none /bin/plugin") {
		t.Errorf("args %q: want --bind-to none", cmd.Args)
	}
	if cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setpgid {
		t.Error("command does not run in its own process group")
	}

	if _, err := mpijob.MPIRunCommand(2, filepath.Join(dir, "nohosts"), nil, "/bin/plugin"); err == nil {
		t.Error("missing host file accepted")
	}
	if _, err := mpijob.MPIRunCommand(0, "", nil, "/bin/plugin"); err == nil {
		t.Error("0 ranks accepted")
	}
	t.Setenv("PATH", t.TempDir())
	_, err = mpijob.MPIRunCommand(2, "", nil, "/bin/plugin")
	if err == nil || !strings.Contains(err.Error(), "mpirun") || !strings.Contains(err.Error(), "apt-get") {
		t.Errorf("without mpirun: got %v, want an error naming mpirun and how to install it", err)
	}
}

func TestMPIWorldWithoutMPIBuild(t *testing.T) {
	if comm.MPIBuilt {
		t.Skip("built with -tags mpi")
	}
	_, err := comm.MPIWorld()
	if err == nil || !strings.Contains(err.Error(), "built without MPI") {
		t.Fatalf("got %v", err)
	}
}
