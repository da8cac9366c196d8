package runner

// launch.go starts one plugin process per case (so a crash or a hang costs
// that case only) and stops it, with its whole process group, however the
// case ends.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/runner/mpijob"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/client"
)

// PluginDirs is the default plugin search path: $BFSBENCH_PLUGIN_DIR, the
// directory of the running bfsbench binary, and ./bin.
func PluginDirs() []string {
	var dirs []string
	if d := os.Getenv("BFSBENCH_PLUGIN_DIR"); d != "" {
		dirs = append(dirs, filepath.SplitList(d)...)
	}
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
	}
	return append(dirs, "bin")
}

// FindPlugin returns the path of the plugin binary called name.
func FindPlugin(dirs []string, name string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) {
		return "", fmt.Errorf("plugin name %q must not contain a path separator", name)
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("plugin %q not found in %s: a config's plugin = %q names a plugin binary by its file name; %s",
		name, strings.Join(dirs, ", "), name, PluginHint)
}

// PluginHint says where bfsbench looks for plugin binaries and how to put
// one there: the repository's own, and a variant built elsewhere.
const PluginHint = "`make build` builds the repository's plugins into bin/; a variant of your own: build its binary into bin/ " +
	"(go build -o /path/to/bfsbench/bin/NAME .) or set BFSBENCH_PLUGIN_DIR to the folder that holds it (or pass --plugins)"

// ListPlugins returns the executables in dirs that are not bfsbench itself,
// sorted, first occurrence of a name winning.
func ListPlugins(dirs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			if seen[n] || n == "bfsbench" || e.IsDir() || strings.HasPrefix(n, ".") {
				continue
			}
			if info, err := e.Info(); err == nil && info.Mode()&0o111 != 0 {
				seen[n] = true
				out = append(out, filepath.Join(d, n))
			}
		}
	}
	sort.Strings(out)
	return out
}

// proc is a running plugin process.
type proc struct {
	client *plugin.Client
	rpc    *client.Client
	cmd    *exec.Cmd
	// sockDir holds the go-plugin socket of this process only; it is
	// removed when the process ends, so no /tmp/plugin* socket is left.
	sockDir string
	// status is how the process ended, read once it has (see exitStatus).
	status string
	// watched says the reaper knows the process group (reaperWatch).
	watched bool
}

// startPlugin launches path as a plugin for variant v (directly, or under
// mpirun), with the plugin's stderr copied to stderr. It returns ctx's
// error as soon as ctx ends, killing the process. When the plugin fails
// to start, the killed proc comes back with the error, for its exit
// status.
func startPlugin(ctx context.Context, path string, v *config.Variant, stderr io.Writer) (*proc, error) {
	return startPluginWithin(ctx, path, v, stderr, pluginStartTimeout)
}

// pluginStartTimeout bounds a case's plugin start (mpirun and CUDA
// start-up included); describeStartTimeout bounds that of Describe, which
// starts the binary alone.
const (
	pluginStartTimeout   = 2 * time.Minute
	describeStartTimeout = 20 * time.Second
)

// startPluginWithin is startPlugin with a bound on the start.
func startPluginWithin(ctx context.Context, path string, v *config.Variant, stderr io.Writer, startTimeout time.Duration) (*proc, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var cmd *exec.Cmd
	if v != nil && v.Launcher == config.LauncherMPIRun {
		c, err := mpijob.MPIRunCommand(v.Ranks, v.Hostfile, v.MPIRunArgs, path)
		if err != nil {
			return nil, err
		}
		cmd = c
	} else {
		cmd = exec.Command(path)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true // the whole job is killed as a group
	setParentDeathSignal(cmd.SysProcAttr)
	sockDir, err := os.MkdirTemp("", runDirPrefix()+"sock-")
	if err != nil {
		return nil, fmt.Errorf("plugin socket folder: %w", err)
	}
	// go-plugin's server creates its socket in this folder (mpirun passes
	// the environment on to rank 0).
	cmd.Env = append(os.Environ(), plugin.EnvUnixSocketDir+"="+sockDir)
	pc := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  sdk.Handshake,
		Plugins:          client.PluginMap,
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolNetRPC},
		Stderr:           stderr,
		// After its handshake a Go plugin's os.Stdout and os.Stderr are
		// pipes go-plugin carries over the connection (the process's own
		// stderr keeps only crash dumps and go-plugin's log); without
		// these they are dropped.
		SyncStdout:   stderr,
		SyncStderr:   stderr,
		Logger:       hclog.New(&hclog.LoggerOptions{Output: io.Discard, Level: hclog.Off}),
		StartTimeout: startTimeout,
	})
	p := &proc{client: pc, cmd: cmd, sockDir: sockDir}
	type dispensed struct {
		c   *client.Client
		err error
	}
	ch := make(chan dispensed, 1)
	go func() {
		c, err := client.Dispense(pc)
		ch <- dispensed{c, err}
	}()
	select {
	case d := <-ch:
		if cmd.Process != nil {
			// Should the harness die, the reaper ends what the plugin
			// started (the plugin itself dies of its parent-death signal).
			reaperWatch(cmd.Process.Pid)
			p.watched = true
		}
		if d.err != nil {
			p.kill()
			return p, fmt.Errorf("starting plugin %s: %w", path, d.err)
		}
		p.rpc = d.c
		return p, nil
	case <-ctx.Done():
		// The process may not have been started yet: kill it now and
		// again once the start is over, whichever way it ends.
		p.kill()
		go func() {
			<-ch
			p.kill()
		}()
		return nil, fmt.Errorf("starting plugin %s: %w", path, ctx.Err())
	}
}

// kill stops the plugin at once: its process group and, for an mpirun job,
// every rank (Open MPI gives each rank a process group of its own). Safe
// to call more than once.
func (p *proc) kill() { p.end() }

// stop asks the plugin to close its variant, then ends the process
// (group).
func (p *proc) stop() {
	if p.rpc != nil && !p.client.Exited() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = p.rpc.Close(ctx)
		cancel()
	}
	p.end()
}

// end signals the process group (SIGTERM, then SIGKILL after
// mpijob.KillGrace) and waits for the process to exit. go-plugin's own
// Kill is called only if it does not: with the process gone go-plugin
// has no peer left to write to, whereas its graceful close writes to a
// plugin that is exiting and makes its multiplexer log "[ERR] yamux:
// Failed to write ..." lines on the harness's stderr.
func (p *proc) end() {
	defer func() {
		if p.sockDir != "" {
			_ = os.RemoveAll(p.sockDir)
		}
	}()
	if p.cmd.Process == nil {
		p.client.Kill() // not started: nothing to signal
		return
	}
	mpijob.KillGroup(p.cmd)
	deadline := time.Now().Add(mpijob.KillGrace + 3*time.Second)
	for !p.client.Exited() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !p.client.Exited() {
		p.client.Kill()
	}
	if p.watched {
		p.watched = false
		reaperDone(p.cmd.Process.Pid)
	}
}

// exitStatus describes how the process ended ("exit status 3", "signal:
// bus error"), or "" while it runs.
func (p *proc) exitStatus() string {
	if !p.client.Exited() {
		return ""
	}
	// go-plugin reaps the process in its own goroutine: Exited can be
	// true a moment before ProcessState is set.
	for end := time.Now().Add(500 * time.Millisecond); p.cmd.ProcessState == nil && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	if p.cmd.ProcessState != nil {
		return p.cmd.ProcessState.String()
	}
	return "exited, status unknown"
}

// hasHandshake says whether the file at path holds the plugin
// handshake's magic cookie, as every binary built with the SDK does.
func hasHandshake(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	cookie := []byte(sdk.Handshake.MagicCookieValue)
	buf := make([]byte, 1<<20+len(cookie))
	keep := 0 // bytes carried over from the last read: a cookie across two reads
	for {
		n, err := io.ReadFull(f, buf[keep:])
		if bytes.Contains(buf[:keep+n], cookie) {
			return true, nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		keep = len(cookie) - 1
		copy(buf, buf[len(buf)-keep:])
	}
}

// state describes what the running process is doing, from the kernel's
// /proc/PID/stat: "running", "stopped (SIGSTOP or a debugger)", ...
func (p *proc) state() string {
	if p.cmd.Process == nil {
		return "not started"
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return "state unknown"
	}
	// pid (comm) S ...: comm may hold spaces and parentheses.
	rest := string(b[bytes.LastIndexByte(b, ')')+1:])
	f := strings.Fields(rest)
	if len(f) == 0 {
		return "state unknown"
	}
	switch f[0] {
	case "R":
		return "running"
	case "S":
		return "sleeping"
	case "D":
		return "waiting on I/O, uninterruptible"
	case "T", "t":
		return "stopped (SIGSTOP or a debugger)"
	case "Z":
		return "exited, not yet reaped"
	}
	return "state " + f[0]
}

// Describe starts the plugin at path, asks for its Info and stops it. A
// binary without the plugin handshake in it (a script, another program)
// is refused without being run.
func Describe(ctx context.Context, path string) (sdk.Info, error) {
	ok, err := hasHandshake(path)
	if err != nil {
		return sdk.Info{}, err
	}
	if !ok {
		return sdk.Info{}, fmt.Errorf("%s holds no bfsbench plugin handshake (not built with harness/sdk): not run", path)
	}
	p, err := startPluginWithin(ctx, path, nil, io.Discard, describeStartTimeout)
	if err != nil {
		return sdk.Info{}, errors.New(cleanStartError(err.Error()))
	}
	defer p.kill()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	in, err := p.rpc.Describe(ctx)
	if err != nil {
		return sdk.Info{}, fmt.Errorf("plugin %s: %w", path, err)
	}
	if in.Name == "" {
		return sdk.Info{}, errors.New("plugin " + path + " declares no name")
	}
	return in, nil
}
