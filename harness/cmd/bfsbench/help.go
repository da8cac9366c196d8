package main

// help.go: every command's usage, what it does and an example, printed by
// `bfsbench help CMD` and `bfsbench CMD -h` (with the command's flags),
// exit status 0.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// command is one subcommand: how it is called, what it does, an example,
// and the function that runs it.
type command struct {
	synopsis string // the usage lines after "bfsbench "
	summary  string // what it does, a few sentences
	example  string // one command line, with a word on what it does
	run      func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands are bfsbench's subcommands, by name.
var commands = map[string]command{
	"run": {
		synopsis: "run CONFIG.toml [--out DIR] [--plugins DIRS] [--max-cases N] [--no-preflight]",
		summary: "Runs a benchmark config: every case (variant × workload) through its plugin, one untimed " +
			"warm-up search, then nbfs timed searches, each validated as the config says, into results.json, " +
			"summary.txt, bench.txt and plots in DIR.",
		example: "bfsbench run configs/quick.toml --out results/quick   # the CPU backends at small scales",
		run:     cmdRun,
	},
	"generate": {
		synopsis: "generate --scale S [--edgefactor E] [--seed A,B] [--format text|binary] --out FILE|-",
		summary:  "Writes the Graph500 Kronecker edge list of a scale and edge factor (the reference generator's, bit for bit).",
		example:  "bfsbench generate --scale 16 --out g16.bin --format binary",
		run:      func(ctx context.Context, a []string, o, _ io.Writer) error { return cmdGenerate(ctx, a, o) },
	},
	"validate": {
		synopsis: "validate --scale S [--edgefactor E] [--seed A,B] --root R --parents FILE\n" +
			"validate --graph FILE [--graph-format auto|snap|mtx|bin] --root R --parents FILE",
		summary: "Checks a parent array against a graph with the harness's Graph500 validator (the reference " +
			"rules, and no cycle anywhere) and prints its TEPS edge count.",
		example: "bfsbench validate --scale 10 --root 5 --parents parents.bin",
		run:     func(ctx context.Context, a []string, o, _ io.Writer) error { return cmdValidate(ctx, a, o) },
	},
	"plugins": {
		synopsis: "plugins [--plugins DIRS]",
		summary:  "Lists the plugins found in the plugin folders, with their backends, parameters, defaults and presets.",
		example:  "bfsbench plugins --plugins bin",
		run:      func(ctx context.Context, a []string, o, _ io.Writer) error { return cmdPlugins(ctx, a, o) },
	},
	"plot": {
		synopsis: "plot RESULTS.json [MORE.json...] [--out DIR]",
		summary:  "Redraws the plots and figures of one or more results files.",
		example:  "bfsbench plot results/quick/results.json --out /tmp/plots",
		run:      func(ctx context.Context, a []string, o, _ io.Writer) error { return cmdPlot(ctx, a, o) },
	},
	"compare": {
		synopsis: "compare BASE.json NEW.json [--threshold 5%] [--strict]",
		summary:  "Compares two results files case by case (Mann-Whitney U test over per-search TEPS, bootstrap interval) and fails on a significant slow-down.",
		example:  "bfsbench compare results/old/results.json results/new/results.json --threshold 5%",
		run:      func(_ context.Context, a []string, o, _ io.Writer) error { return cmdCompare(a, o) },
	},
	"ab": {
		synopsis: "ab BASE_REV [NEW_REV] CONFIG.toml [--threshold 5%] [--alpha 0.05] [--min-searches 16] [--rounds 8] [--sequential] [--out DIR]\n" +
			"ab BASE_REV [NEW_REV] CONFIG.toml --build-only DIR\n" +
			"ab --builds DIR CONFIG.toml [flags]",
		summary: "Builds two git revisions' plugins and measures them on the same graphs and keys, searches " +
			"interleaved (or with --sequential one side's, then the other's), every search validated, then compares them as compare does.",
		example: "bfsbench ab HEAD~1 configs/bench-ci.toml   # the last commit against the working tree",
		run:     cmdAB,
	},
	"history": {
		synopsis: "history [REV] [--notes REF] [--max N] [--unit TEPS] [--min-change 5%] [--score 2] [--out DIR]",
		summary: "Reads each commit's bench.txt kept as a git note (make bench-record) along REV's history and " +
			"builds per-commit series with golang.org/x/perf/benchseries: the changes past --min-change with a " +
			"change score past --score, and where each case stands now.",
		example: "bfsbench history --out /tmp/history   # the series, its CSV and chart",
		run:     func(ctx context.Context, a []string, o, _ io.Writer) error { return cmdHistory(ctx, a, o) },
	},
	"levels": {
		synopsis: "levels RESULTS.json [MORE.json...] [--all]",
		summary:  "Prints each case's per-level times and phases (a variant without per-level phases shows its totals only).",
		example:  "bfsbench levels results/quick/results.json",
		run:      func(_ context.Context, a []string, o, _ io.Writer) error { return cmdLevels(a, o) },
	},
	"results-table": {
		synopsis: "results-table [DIR] [--check]",
		summary: "Writes the headline table of DIR/README.md (default results) from the committed results files " +
			"that DIR/headline.toml names; --check writes nothing and exits 1 where the table is out of date.",
		example: "bfsbench results-table --check   # as make test does",
		run:     func(_ context.Context, a []string, o, _ io.Writer) error { return cmdResultsTable(a, o) },
	},
	"verdicts": {
		synopsis: "verdicts [--check] [FIGURE_DIR...]   (default results/figures)",
		summary: "Writes each figure folder's verdict table (the paper's claims from its claims.toml, ours from " +
			"its results, holds / partly / differs) into its README; --check fails where a table is out of date.",
		example: "bfsbench verdicts --check results/figures/bisson-fig3",
		run:     func(_ context.Context, a []string, o, _ io.Writer) error { return cmdVerdicts(a, o) },
	},
	"stale": {
		synopsis: "stale [--strict] [--headline FILE] [FIGURE_DIR...]",
		summary: "Lists the figure folders whose results were measured before a change to a plugin they use " +
			"(the commit each results file records against plugins/<plugin> at HEAD, its tests and documents left out, " +
			"and harness/cuda/include and harness/cuda/src for a plugin measured on CUDA: a change reverted since is none), and with --headline " +
			"(default results/headline.toml when no folder is named) each headline row's results file for its variant's plugin; --strict exits 1 on any.",
		example: "bfsbench stale results/figures",
		run:     func(_ context.Context, a []string, o, _ io.Writer) error { return cmdStale(a, o) },
	},
	"copybw": {
		synopsis: "copybw --out DIR [--device D] [--reps R] [--min BYTES] [--max BYTES] [--name N] [--title T]\n" +
			"copybw --plot CSV [--out DIR] [--name N] [--title T]",
		summary: "Measures host-GPU copy throughput against the transfer size ([Mitsuishi] Fig. 5): cudaMemcpy host to " +
			"device and device to host, from pinned and from pageable memory, powers of two from --min to --max, each " +
			"point the median of --reps copies between CUDA events (bars: quartiles); writes DIR/copybw.csv and " +
			"DIR/figure-NAME.png and .svg. It fails where there is no CUDA runtime or GPU; --plot redraws the figure from a CSV.",
		example: "bfsbench copybw --out copybw   # on a GPU machine: 4 KiB to 1 GiB, 10 copies a point",
		run:     func(ctx context.Context, a []string, o, _ io.Writer) error { return cmdCopyBW(ctx, a, o) },
	},
	"degrees": {
		synopsis: "degrees --scale S [--edgefactor E] [--seed A,B] --out DIR [--name N] [--title T]",
		summary:  "Writes the degree distribution of a Graph500 Kronecker graph ([Ueno] Fig. 1): DIR/degrees.csv and its figure.",
		example:  "bfsbench degrees --scale 12 --out /tmp/degrees",
		run:      func(_ context.Context, a []string, o, _ io.Writer) error { return cmdDegrees(a, o) },
	},
	"summary": {
		synopsis: "summary RESULTS.json [--out FILE]",
		summary:  "Writes the summary.txt that run writes beside results.json (every case's Graph500 statistics), from a results file.",
		example:  "bfsbench summary results/figures/bisson-fig3/results.json --out summary.txt",
		run:      func(_ context.Context, a []string, o, _ io.Writer) error { return cmdSummary(a, o) },
	},
	"table": {
		synopsis: "table RESULTS.json [MORE.json...]",
		summary:  "Prints one line per case of one or more results files: GTEPS, searches valid, % of bound and floor.",
		example:  "bfsbench table results/a/results.json results/b/results.json",
		run:      func(_ context.Context, a []string, o, _ io.Writer) error { return cmdTable(a, o) },
	},
}

// commandNames is the commands' names, sorted.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// helpRequested is parseFlags's error where the arguments ask for help
// (-h, -help or --help): the caller prints the command's help with its
// flags, and exits 0.
type helpRequested struct{ fs *flag.FlagSet }

func (h *helpRequested) Error() string { return h.fs.Name() + ": help requested" }

// printHelp writes command name's help: its usage, what it does, its
// flags (fs's, or none) and an example.
func printHelp(w io.Writer, name string, fs *flag.FlagSet) {
	c := commands[name]
	fmt.Fprintf(w, "Usage:\n")
	for _, l := range strings.Split(c.synopsis, "\n") {
		fmt.Fprintf(w, "  bfsbench %s\n", l)
	}
	fmt.Fprintf(w, "\n%s\n", c.summary)
	if fs != nil {
		if f := flagHelp(fs); f != "" {
			fmt.Fprintf(w, "\nFlags:\n%s", f)
		}
	}
	fmt.Fprintf(w, "\nExample:\n  %s\n", c.example)
}

// help is `bfsbench help [CMD]`: the overview, or CMD's help with its
// flags (CMD's own -h, so that the flags listed are the ones it parses).
func help(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return nil
	}
	if _, ok := commands[args[0]]; !ok {
		return usageErr("help: unknown command %q (commands: %s)", args[0], strings.Join(commandNames(), ", "))
	}
	return dispatch(ctx, []string{args[0], "-h"}, stdout, stderr)
}

// asHelp reports whether err asks for a command's help.
func asHelp(err error) (*helpRequested, bool) {
	var h *helpRequested
	return h, errors.As(err, &h)
}
