package main

// history.go: `bfsbench history [REV]`, the figures kept per commit in git
// notes read back as series (package history).

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bfsbench/bfsbench/harness/history"
)

const historyUsage = `usage: bfsbench history [REV] [--notes REF] [--max N] [--unit TEPS] [--min-change 5%] [--score 2] [--out DIR]

Reads the bench.txt kept as a git note on each commit of REV's first-parent
history (default HEAD; the notes under refs/notes/REF, written by
make bench-record) and builds, with golang.org/x/perf/benchseries, one
series per machine: each commit's median over the first commit's, with a
bootstrap interval. Prints the changes (a case's ratio moving by at least
--min-change from the commit before, with a change score of at least
--score) and where each case stands at the last commit; --out also writes
benchseries' CSV and chart (PNG) per machine, and history.txt.

Flags:
`

func cmdHistory(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	ref := fs.String("notes", history.DefaultRef, "notes ref holding each commit's bench.txt (refs/notes/REF)")
	max := fs.Int("max", 200, "read at most this many of the newest commits (0: all)")
	unit := fs.String("unit", "TEPS", "the unit to follow (TEPS, or sec/op for the search times)")
	minChange := fs.String("min-change", "5%", "smallest change from one commit to the next that is reported")
	score := fs.Float64("score", 2, "smallest change score reported (1: the two intervals touch; 2: a gap as wide as the narrower)")
	repo := fs.String("repo", ".", "a directory in the git repository")
	out := fs.String("out", "", "also write history.txt, each machine's CSV and chart (PNG) into this folder")
	pos, err := parseFlags(fs, args)
	if _, ok := asHelp(err); ok {
		return err
	}
	if err != nil {
		return usageErr("%v\n%s%s", err, historyUsage, flagHelp(fs))
	}
	if len(pos) > 1 {
		return usageErr("history takes at most one revision, got %d arguments\n%s%s", len(pos), historyUsage, flagHelp(fs))
	}
	rev := "HEAD"
	if len(pos) == 1 {
		rev = pos[0]
	}
	mc, err := parseThreshold(*minChange)
	if err != nil || mc <= 0 || mc >= 1 {
		return usageErr("history: --min-change wants a change like 5%% or 0.05, got %q", *minChange)
	}
	if *score <= 0 {
		return usageErr("history: --score wants a positive score, got %v", *score)
	}
	commits, err := history.Load(ctx, *repo, *ref, rev, *max)
	if err != nil {
		return &exitError{2, err}
	}
	if len(commits) == 0 {
		return &exitError{2, fmt.Errorf("history: no commit of %s has a note under refs/notes/%s (make bench-record keeps one; git fetch origin refs/notes/%s:refs/notes/%s brings a runner's)", rev, *ref, *ref, *ref)}
	}
	h, err := history.Build(commits, history.Options{Unit: *unit, MinChange: mc, Score: *score})
	if err != nil {
		return &exitError{2, err}
	}
	var text bytes.Buffer
	if err := h.WriteText(io.MultiWriter(stdout, &text)); err != nil {
		return err
	}
	if *out == "" {
		return nil
	}
	paths, err := h.WriteFiles(*out)
	if err != nil {
		return err
	}
	txt := filepath.Join(*out, "history.txt")
	if err := os.WriteFile(txt, text.Bytes(), 0o644); err != nil {
		return err
	}
	for _, p := range append(paths, txt) {
		fmt.Fprintln(stdout, "wrote", p)
	}
	return nil
}
