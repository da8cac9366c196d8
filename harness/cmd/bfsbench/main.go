// Command bfsbench runs BFS variants (plugins) on identical Graph500
// workloads, validates every search and reports comparative TEPS.
//
//	bfsbench run CONFIG.toml [--out DIR]      run a benchmark config
//	bfsbench generate --scale S ...            write a Graph500 edge list
//	bfsbench validate --scale S ... --root R --parents FILE
//	bfsbench plugins                           list plugins and their parameters
//	bfsbench plot RESULTS.json... [--out DIR]  redraw plots from results files
//	bfsbench compare BASE.json NEW.json [--threshold 5%]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mattn/go-isatty"
)

const usage = `bfsbench: a benchmark harness for GPU breadth-first search variants.

Usage:
  bfsbench run CONFIG.toml [--out DIR] [--plugins DIRS]
  bfsbench generate --scale S [--edgefactor E] [--seed A,B] [--format text|binary] --out FILE|-
  bfsbench validate --scale S [--edgefactor E] [--seed A,B] --root R --parents FILE
  bfsbench validate --graph FILE [--graph-format auto|snap|mtx|bin] --root R --parents FILE
  bfsbench plugins [--plugins DIRS]
  bfsbench plot RESULTS.json [MORE.json...] [--out DIR]
  bfsbench compare BASE.json NEW.json [--threshold 5%]
  bfsbench levels RESULTS.json [MORE.json...] [--all]
  bfsbench table RESULTS.json [MORE.json...]

Exit status: 0 success; 1 a case failed, a search was invalid or a
comparison regressed; 2 bad usage or config; 130 interrupted.
`

// exitError carries an exit status.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func usageErr(format string, args ...any) error {
	return &exitError{2, fmt.Errorf(format, args...)}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err == nil {
		return
	}
	code := 1
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if ctx.Err() != nil {
		code = 130
	}
	if err.Error() != "" {
		fmt.Fprintln(os.Stderr, "bfsbench:", err)
	}
	os.Exit(code)
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return &exitError{2, errors.New("")}
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return cmdRun(ctx, rest, stdout, stderr)
	case "generate":
		return cmdGenerate(rest, stdout)
	case "validate":
		return cmdValidate(rest, stdout)
	case "plugins":
		return cmdPlugins(ctx, rest, stdout)
	case "plot":
		return cmdPlot(rest, stdout)
	case "compare":
		return cmdCompare(rest, stdout)
	case "levels":
		return cmdLevels(rest, stdout)
	case "table":
		return cmdTable(rest, stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return usageErr("unknown command %q", cmd)
}

// parseFlags parses args allowing flags after positional arguments
// (`run CONFIG --out DIR`), and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageErr("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

func pluginDirsFlag(fs *flag.FlagSet) *string {
	return fs.String("plugins", "", "plugin directories, separated by "+string(os.PathListSeparator)+" (default: $BFSBENCH_PLUGIN_DIR, the bfsbench binary's directory, ./bin)")
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, string(os.PathListSeparator)) {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}
