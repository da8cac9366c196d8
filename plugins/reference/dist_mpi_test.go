package main

// dist_mpi_test.go: the whole mpirun path, end to end, as the harness
// drives it: this plugin built with -tags mpi, started as `mpirun -np 4`
// (mpijob.MPIRunCommand), go-plugin's handshake through mpirun's stdout,
// rank 0 serving RPC and driving the 3 followers over MPI, every search
// validated from the shared parents file, then a clean shutdown. It skips,
// saying why, where Open MPI is not installed (BFSBENCH_REQUIRE_MPI=1
// makes that a failure, for CI).

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/bfsbench/bfsbench/harness/comm/mpibuild"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/runner/mpijob"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/client"
	"github.com/bfsbench/bfsbench/harness/workload"
)

// buildMPIPlugin builds this plugin with the MPI binding into dir.
func buildMPIPlugin(t *testing.T, dir string) string {
	t.Helper()
	mpibuild.Require(t)
	bin := filepath.Join(dir, "reference")
	if out, err := mpibuild.Build(".", bin); err != nil {
		t.Fatalf("go build -tags mpi: %v\n%s", err, out)
	}
	return bin
}

func TestDistributedUnderMPIRun(t *testing.T) {
	dir := t.TempDir()
	bin := buildMPIPlugin(t, dir)
	const ranks = 4
	cmd, err := mpijob.MPIRunCommand(ranks, "", []string{"--oversubscribe"}, bin)
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	pc := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  sdk.Handshake,
		Plugins:          client.PluginMap,
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolNetRPC},
		Stderr:           &stderr,
		Logger:           hclog.New(&hclog.LoggerOptions{Output: io.Discard, Level: hclog.Off}),
		StartTimeout:     time.Minute,
	})
	defer func() {
		mpijob.KillGroup(cmd)
		pc.Kill()
		if t.Failed() {
			t.Logf("plugin stderr:\n%s", stderr.String())
		}
	}()
	c, err := client.Dispense(pc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	spec := workload.Spec{Scale: 10, EdgeFactor: 16, Seed: workload.DefaultSeed}
	g, err := workload.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := sdk.CreateParentsFile(filepath.Join(dir, "parents"), g.NVertices)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	cfg := sdk.Config{Backend: sdk.BackendCPU, Ranks: ranks, Launcher: sdk.LauncherMPIRun,
		Params: map[string]any{"direction_optimizing": true, "alpha": int64(15), "beta": int64(18)}}
	if _, err := c.Construct(ctx, sdk.ConstructArgs{Workload: spec, Config: cfg, ParentsPath: filepath.Join(dir, "parents")}); err != nil {
		t.Fatal(err)
	}
	keys, err := graph500.SearchKeys(g.Edges, g.NVertices, 3, spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	val := graph500.NewValidator(g.Edges, g.NVertices)
	for _, root := range keys {
		reply, err := c.BFS(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := val.Validate(root, pf.Slice()); err != nil {
			t.Fatalf("root %d: %v", root, err)
		}
		if reply.Levels < 2 || len(reply.Phases) != reply.Levels {
			t.Errorf("root %d: %d levels, %d phases", root, reply.Levels, len(reply.Phases))
		}
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// Close ended the job: the followers quit (after MPI_Finalize), leaving
	// rank 0 alone under mpirun until go-plugin stops it.
	waitFor(t, "the followers to exit", func() bool { return len(children(cmd.Process.Pid)) == 1 })
	rank0 := children(cmd.Process.Pid)[0]
	pc.Kill()
	waitFor(t, "rank 0 to exit", func() bool { return !running(rank0) })
	if strings.Contains(stderr.String(), "improperly") || strings.Contains(stderr.String(), "abort") {
		t.Errorf("the job did not end cleanly:\n%s", stderr.String())
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// children lists the live (non-zombie) child processes of pid.
func children(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f := procFields(p)
		if len(f) > 1 && f[0] != "Z" && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	f := procFields(pid)
	return len(f) > 0 && f[0] != "Z"
}

// procFields are /proc/PID/stat's fields from the state on.
func procFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
}
