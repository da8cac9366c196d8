package main

import (
	"bytes"
	"context"
	"flag"
	"strings"
	"testing"
)

// TestHelpOnEveryCommand: `bfsbench help CMD`, `bfsbench CMD -h` and
// `bfsbench CMD --help` print the command's usage, every flag it parses
// and an example, on stdout, and exit 0, for every command.
func TestHelpOnEveryCommand(t *testing.T) {
	for _, name := range commandNames() {
		for _, args := range [][]string{{"help", name}, {name, "-h"}, {name, "--help"}, {name, "x", "-help"}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				err := dispatch(context.Background(), args, &stdout, &stderr)
				if code := exitCode(context.Background(), err); code != 0 {
					t.Fatalf("exit %d (%v), want 0; stderr %q", code, err, stderr.String())
				}
				out := stdout.String()
				for _, want := range []string{"Usage:\n  bfsbench " + name, "Example:\n  bfsbench " + name, commands[name].summary} {
					if !strings.Contains(out, want) {
						t.Errorf("help lacks %q:\n%s", want, out)
					}
				}
				flags := flagsOf(t, name)
				if len(flags) > 0 && !strings.Contains(out, "Flags:\n") {
					t.Errorf("help lists no flags:\n%s", out)
				}
				for _, f := range flags {
					if !strings.Contains(out, "-"+f+" ") && !strings.Contains(out, "-"+f+"\n") {
						t.Errorf("help lacks flag -%s:\n%s", f, out)
					}
				}
			})
		}
	}
}

// flagsOf is the flags command name parses, as its -h reports them
// through helpRequested.
func flagsOf(t *testing.T, name string) []string {
	t.Helper()
	err := commands[name].run(context.Background(), []string{"-h"}, &bytes.Buffer{}, &bytes.Buffer{})
	h, ok := asHelp(err)
	if !ok {
		t.Fatalf("%s -h: %v, want a help request", name, err)
	}
	var names []string
	h.fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// TestHelpUnknownCommand: help for a command that does not exist is a
// usage error naming the commands.
func TestHelpUnknownCommand(t *testing.T) {
	err := dispatch(context.Background(), []string{"help", "frobnicate"}, &bytes.Buffer{}, &bytes.Buffer{})
	if code := exitCode(context.Background(), err); code != 2 || !strings.Contains(err.Error(), "commands: ab, compare") {
		t.Errorf("exit %d, %v; want 2 and the list of commands", code, err)
	}
}
