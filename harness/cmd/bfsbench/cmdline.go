package main

import (
	"os"
	"strings"

	"github.com/bfsbench/bfsbench/harness/results"
)

// commandLine is os.Args joined as a result's command_line records it:
// relative to the working directory where an argument lies under it (see
// joinArgs), so that the line names no particular machine.
func commandLine() string {
	wd, _ := os.Getwd() // without it (""), every argument stays as given
	return joinArgs(os.Args, wd)
}

// recordedPath is a file's path as a result records it (config_path): as
// relArg writes an argument, so that a config named by an absolute path
// under the working directory is recorded relative to it. The path stays
// one the process can open: it is relative to the same directory.
func recordedPath(p string) string {
	wd, _ := os.Getwd()
	return relArg(p, wd)
}

// joinArgs joins args with spaces, each absolute argument that lies under
// the working directory wd, and the value of a -flag=/abs/path or
// --flag=/abs/path that does, written relative to wd. Any other argument
// stays as given.
func joinArgs(args []string, wd string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = relArg(a, wd)
	}
	return strings.Join(out, " ")
}

// relArg is one argument of joinArgs.
func relArg(a, wd string) string {
	if name, value, ok := strings.Cut(a, "="); ok && strings.HasPrefix(name, "-") {
		if rel, ok := results.RelUnder(wd, value); ok {
			return name + "=" + rel
		}
		return a
	}
	rel, _ := results.RelUnder(wd, a)
	return rel
}
