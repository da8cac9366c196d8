// Command bfsbench runs BFS variants (plugins) on identical Graph500
// workloads, validates every search and reports comparative TEPS.
//
//	bfsbench run CONFIG.toml [--out DIR]      run a benchmark config
//	bfsbench generate --scale S ...            write a Graph500 edge list
//	bfsbench validate --scale S ... --root R --parents FILE
//	bfsbench plugins                           list plugins and their parameters
//	bfsbench plot RESULTS.json... [--out DIR]  redraw plots from results files
//	bfsbench compare BASE.json NEW.json [--threshold 5%] [--strict]
//	bfsbench history [REV]                     the figures kept per commit (git notes) as series
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/mattn/go-isatty"
)

const usage = `bfsbench: a benchmark harness for GPU breadth-first search variants.

Usage:
  bfsbench run CONFIG.toml [--out DIR] [--plugins DIRS] [--max-cases N] [--no-preflight]
  bfsbench generate --scale S [--edgefactor E] [--seed A,B] [--format text|binary] --out FILE|-
  bfsbench validate --scale S [--edgefactor E] [--seed A,B] --root R --parents FILE
  bfsbench validate --graph FILE [--graph-format auto|snap|mtx|bin] --root R --parents FILE
  bfsbench plugins [--plugins DIRS]
  bfsbench plot RESULTS.json [MORE.json...] [--out DIR]
  bfsbench compare BASE.json NEW.json [--threshold 5%] [--strict] [--min-searches N]
  bfsbench ab BASE_REV [NEW_REV] CONFIG.toml [--threshold 5%] [--alpha 0.05] [--min-searches 16] [--rounds 8] [--sequential] [--out DIR]
  bfsbench levels RESULTS.json [MORE.json...] [--all]
  bfsbench table RESULTS.json [MORE.json...]
  bfsbench history [REV] [--notes REF] [--max N] [--unit TEPS] [--min-change 5%] [--score 2] [--out DIR]
  bfsbench results-table [DIR] [--check]     DIR/README.md's headline table from DIR/headline.toml (DIR: results)
  bfsbench verdicts [--check] [FIGURE_DIR...]   (default results/figures)
  bfsbench stale [--strict] [--headline FILE] [FIGURE_DIR...]
  bfsbench degrees --scale S [--edgefactor E] [--seed A,B] --out DIR [--name N] [--title T]
  bfsbench copybw --out DIR [--device D] [--reps R] [--min BYTES] [--max BYTES]   host-GPU copy throughput
  bfsbench copybw --plot CSV [--out DIR]
  bfsbench summary RESULTS.json [--out FILE]
  bfsbench help [COMMAND]     (or bfsbench COMMAND -h): a command's usage, flags and an example

Before anything runs, run checks the config (a sweep may expand to at most
--max-cases cases, 1000 by default; nbfs is at most 64, ranks at most 4096)
and estimates each case's memory against the machine's free memory,
/dev/shm and the GPUs' free memory (nvidia-smi), refusing what cannot fit.

Exit status:
  0    success
  1    a case failed, a search was invalid, results.json could not be
       saved, or a comparison regressed
  2    bad usage, config or setup (plugin missing, results folder exists,
       memory preflight refused): nothing ran
  3    an internal error of bfsbench (a panic: its stack is printed)
  130  interrupted (SIGINT or SIGTERM); results.json keeps every finished
       search
`

// exitError carries an exit status.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, args ...any) error {
	return &exitError{2, fmt.Errorf(format, args...)}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := mainCode(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// mainCode runs a command line and returns its exit status (see usage). A
// panic of the command's goroutine is status 3 with its stack, not Go's
// own status 2 for a panic, which scripts would take for bad usage
// (nothing ran).
func mainCode(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "bfsbench: internal error (a bug in bfsbench): %v\n%s", r, debug.Stack())
			code = 3
		}
	}()
	err := dispatch(ctx, args, stdout, stderr)
	if err == nil {
		return 0
	}
	if err.Error() != "" {
		fmt.Fprintln(stderr, "bfsbench:", err)
	}
	return exitCode(ctx, err)
}

// exitCode is the exit status for dispatch's error (see usage).
func exitCode(ctx context.Context, err error) int {
	if err == nil {
		return 0
	}
	if ctx.Err() != nil {
		return 130
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return &exitError{2, errors.New("")}
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "--help", "-help":
		return help(ctx, rest, stdout, stderr)
	}
	c, ok := commands[cmd]
	if !ok {
		fmt.Fprint(stderr, usage)
		return usageErr("unknown command %q", cmd)
	}
	err := c.run(ctx, rest, stdout, stderr)
	if h, ok := asHelp(err); ok {
		printHelp(stdout, cmd, h.fs)
		return nil
	}
	return err
}

// parseFlags parses args allowing flags after positional arguments
// (`run CONFIG --out DIR`), and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpRequested{fs}
			}
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
