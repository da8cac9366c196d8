package runner

// launch.go starts one plugin process per case (so a crash or a hang costs
// that case only) and stops it, with its whole process group, however the
// case ends.

import (
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

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/config"
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
	return "", fmt.Errorf("plugin %q not found in %s (run `make build`)", name, strings.Join(dirs, ", "))
}

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
}

// startPlugin launches path as a plugin for variant v (directly, or under
// mpirun), with the plugin's stderr copied to stderr.
func startPlugin(path string, v *config.Variant, stderr io.Writer) (*proc, error) {
	var cmd *exec.Cmd
	if v != nil && v.Launcher == config.LauncherMPIRun {
		c, err := comm.MPIRunCommand(v.Ranks, v.Hostfile, v.MPIRunArgs, path)
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
	pc := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  sdk.Handshake,
		Plugins:          client.PluginMap,
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolNetRPC},
		Stderr:           stderr,
		Logger:           hclog.New(&hclog.LoggerOptions{Output: io.Discard, Level: hclog.Off}),
		StartTimeout:     2 * time.Minute,
	})
	p := &proc{client: pc, cmd: cmd}
	c, err := client.Dispense(pc)
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("starting plugin %s: %w", path, err)
	}
	p.rpc = c
	return p, nil
}

// kill stops the plugin at once: its process group and, for an mpirun job,
// every rank (Open MPI gives each rank a process group of its own), then
// lets go-plugin clean up. Safe to call more than once.
func (p *proc) kill() {
	comm.KillGroup(p.cmd)
	p.client.Kill()
}

// stop asks the plugin to close, then ends the process (group).
func (p *proc) stop() {
	if p.rpc != nil && !p.client.Exited() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = p.rpc.Close(ctx)
		cancel()
	}
	// go-plugin's Kill closes the connection and waits briefly for a
	// graceful exit before it kills the process.
	p.client.Kill()
	comm.KillGroup(p.cmd) // whatever is left of an mpirun job
}

// Describe starts the plugin at path, asks for its Info and stops it.
func Describe(ctx context.Context, path string) (sdk.Info, error) {
	p, err := startPlugin(path, nil, io.Discard)
	if err != nil {
		return sdk.Info{}, err
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
