package ab

// build.go builds one revision's plugins (and, for a config with CUDA
// backends, their CUDA libraries) into a directory of their own, from a
// temporary git worktree, so the checkout the user works in is never
// touched.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Build is one side of an A/B measurement: a revision whose plugins are
// built into PluginDir (and its CUDA libraries into PluginDir/../lib, where
// a plugin looks for them).
type Build struct {
	Label  string // "base" or "new"
	Rev    string // as given; "" for the working tree
	Commit string // the full hash of Rev (of HEAD for the working tree)
	Dirty  bool   // the working tree, with uncommitted changes to tracked files
	// Untracked are the working tree's untracked files (not ignored), by
	// path in the repository: go build compiles a new file in a plugin's
	// folder as it does a committed one.
	Untracked []string
	PluginDir string
}

// Describe names the revision in one line, e.g. "HEAD~1 = 1a2b3c4d5e6f" or
// "the working tree (HEAD 1a2b3c4d5e6f + uncommitted changes + 1
// untracked file: plugins/x/new.go)".
func (b *Build) Describe() string {
	short := b.Commit
	if len(short) > 12 {
		short = short[:12]
	}
	if b.Rev == "" {
		s := "the working tree (HEAD " + short
		if b.Dirty {
			s += " + uncommitted changes"
		}
		if n := len(b.Untracked); n > 0 {
			names := b.Untracked[:min(n, 3)]
			s += fmt.Sprintf(" + %d untracked %s: %s", n, plural(n, "file", "files"), strings.Join(names, ", "))
			if n > len(names) {
				s += ", ..."
			}
		}
		return s + ")"
	}
	if b.Rev == b.Commit {
		return short
	}
	return b.Rev + " = " + short
}

// BuildOptions say what to build and where.
type BuildOptions struct {
	Repo    string   // a directory inside the git repository
	Dir     string   // output: Dir/bin holds the plugins, Dir/lib the CUDA libraries
	Plugins []string // the plugins (directories under plugins/) to build
	// CUDA lists the plugins whose CUDA libraries are needed (the config
	// runs their cuda backend); they are built with nvcc through the
	// revision's own Makefile (mk/cuda.mk).
	CUDA []string
	Log  io.Writer // the build commands' output
}

// BuildRevision builds rev's plugins as o says. rev "" builds the working
// tree as it is, uncommitted changes included; any other revision is
// checked out into a temporary git worktree under o.Dir, removed again
// once built.
func BuildRevision(ctx context.Context, label, rev string, o BuildOptions) (*Build, error) {
	top, err := git(ctx, o.Repo, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s: %s is not in a git repository: %w", label, o.Repo, err)
	}
	// The builds run in the revision's worktree: a relative output folder
	// would land inside it, and go with it.
	if o.Dir, err = filepath.Abs(o.Dir); err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	b := &Build{Label: label, Rev: rev, PluginDir: filepath.Join(o.Dir, "bin")}
	src := top
	if rev == "" {
		if b.Commit, err = git(ctx, top, "rev-parse", "--verify", "HEAD"); err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		if b.Dirty, b.Untracked, err = workingTreeState(ctx, top); err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
	} else {
		if b.Commit, err = git(ctx, top, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}"); err != nil {
			return nil, fmt.Errorf("%s: no revision %q in %s: %w", label, rev, top, err)
		}
		src = filepath.Join(o.Dir, "src")
		if _, err := git(ctx, top, "worktree", "add", "--detach", "--quiet", src, b.Commit); err != nil {
			return nil, fmt.Errorf("%s: checking out %s: %w", label, rev, err)
		}
		defer removeWorktree(top, src)
	}
	if err := buildPlugins(ctx, src, b, o); err != nil {
		return nil, err
	}
	return b, nil
}

// workingTreeState says whether the working tree at top has uncommitted
// changes to tracked files, and lists its untracked files (not ignored).
func workingTreeState(ctx context.Context, top string) (dirty bool, untracked []string, err error) {
	// Not through output, which trims: the first entry may start with a
	// space (" M path").
	cmd := exec.CommandContext(ctx, "git", "-C", top, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	st, err := cmd.Output()
	if err != nil {
		return false, nil, fmt.Errorf("git status: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	for _, e := range strings.Split(string(st), "\x00") {
		switch {
		case len(e) < 4:
		case strings.HasPrefix(e, "?? "):
			untracked = append(untracked, e[3:])
		default:
			dirty = true
		}
	}
	return dirty, untracked, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// removeWorktree removes a worktree made by BuildRevision, even after an
// interrupt (so it does not use the run's context).
func removeWorktree(top, dir string) {
	if _, err := git(context.Background(), top, "worktree", "remove", "--force", dir); err != nil {
		os.RemoveAll(dir)
		git(context.Background(), top, "worktree", "prune")
	}
}

func buildPlugins(ctx context.Context, src string, b *Build, o BuildOptions) error {
	if len(o.Plugins) == 0 {
		return fmt.Errorf("%s: no plugins to build", b.Label)
	}
	var pkgs []string
	for _, p := range o.Plugins {
		if _, err := os.Stat(filepath.Join(src, "plugins", p, "main.go")); err != nil {
			return fmt.Errorf("%s (%s) has no plugin %q (no plugins/%s/main.go)", b.Label, b.Describe(), p, p)
		}
		pkgs = append(pkgs, "./plugins/"+p)
	}
	if err := os.MkdirAll(b.PluginDir, 0o755); err != nil {
		return err
	}
	// As the Makefile builds: with the Open MPI binding where mpicc is
	// present, and the commit recorded in the binaries.
	args := []string{"build", "-buildvcs=auto"}
	env := os.Environ()
	if _, err := exec.LookPath("mpicc"); err == nil {
		cflags, err1 := output(ctx, "", "mpicc", "--showme:compile")
		ldflags, err2 := output(ctx, "", "mpicc", "--showme:link")
		if err1 == nil && err2 == nil {
			args = append(args, "-tags", "mpi")
			env = append(env, "CGO_CFLAGS="+cflags, "CGO_LDFLAGS="+ldflags)
		}
	}
	args = append(args, "-o", b.PluginDir+string(filepath.Separator))
	args = append(args, pkgs...)
	// The build's temporary files (go's work folder, nvcc's) go under the
	// build's folder, removed after however the build ends: an
	// interrupted go command leaves its work folder behind.
	tmp, err := os.MkdirTemp(filepath.Dir(b.PluginDir), ".tmp-")
	if err != nil {
		return fmt.Errorf("%s: %w", b.Label, err)
	}
	defer os.RemoveAll(tmp)
	env = append(env, "GOTMPDIR="+tmp, "TMPDIR="+tmp)
	if err := runLogged(ctx, o.Log, src, env, "go", args...); err != nil {
		return fmt.Errorf("%s (%s): building plugins: %w", b.Label, b.Describe(), err)
	}
	if len(o.CUDA) == 0 {
		return nil
	}
	nvcc := "/usr/local/cuda/bin/nvcc"
	if _, err := os.Stat(nvcc); err != nil {
		if nvcc, err = exec.LookPath("nvcc"); err != nil {
			return fmt.Errorf("%s: the config runs CUDA backends (%s) but there is no nvcc to build their libraries", b.Label, strings.Join(o.CUDA, ", "))
		}
	}
	libDir := filepath.Join(o.Dir, "lib")
	targets := []string{"--no-print-directory", "NVCC=" + nvcc, "CUDA_LIB_DIR=" + libDir}
	for _, p := range o.CUDA {
		if _, err := os.Stat(filepath.Join(src, "plugins", p, "cuda")); err == nil {
			targets = append(targets, filepath.Join(libDir, "lib"+p+".so"))
		}
	}
	if len(targets) == 3 {
		return nil
	}
	if err := runLogged(ctx, o.Log, src, append(os.Environ(), "TMPDIR="+tmp), "make", targets...); err != nil {
		return fmt.Errorf("%s (%s): building CUDA libraries: %w", b.Label, b.Describe(), err)
	}
	return nil
}

// git runs git in dir and returns its trimmed standard output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	return output(ctx, dir, "git", append([]string{"-C", dir}, args...)...)
}

// output runs a command and returns its trimmed standard output; the
// error carries its standard error.
func output(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, msg)
		}
		return "", fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildGrace is how long an interrupted build command has to end (go
// removes its work folder on SIGINT) before its process group is killed.
const buildGrace = 5 * time.Second

// runLogged runs a build command in dir, its output going to log; the
// error carries the output's last lines. The command runs in a process
// group of its own: an interrupt (ctx ending) sends the group SIGINT,
// then SIGKILL, so no compiler it started is left running.
func runLogged(ctx context.Context, log io.Writer, dir string, env []string, name string, args ...string) error {
	if log == nil {
		log = io.Discard
	}
	fmt.Fprintf(log, "(cd %s && %s %s)\n", dir, name, strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	cmd.WaitDelay = buildGrace
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(log, &out)
	cmd.Stderr = cmd.Stdout
	err := cmd.Run()
	if cmd.Process != nil {
		// Whatever of the group outlived its leader (a compiler the go
		// command started): the group is ours alone.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if err != nil {
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) > 10 {
			lines = lines[len(lines)-10:]
		}
		return fmt.Errorf("%w\n%s", err, strings.Join(lines, "\n"))
	}
	return nil
}
