package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/graphio"
	"github.com/bfsbench/bfsbench/harness/report"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/runner"
	"github.com/bfsbench/bfsbench/harness/workload"
)

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	out := fs.String("out", "", "results folder (must not exist; default results/<config>-<time>)")
	maxCases := fs.Int("max-cases", config.DefaultMaxCases, "refuse a config that expands to more cases than this")
	noPreflight := fs.Bool("no-preflight", false, "run cases the memory preflight refuses")
	dirs := pluginDirsFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("run needs exactly one config file, got %d arguments", len(pos))
	}
	if *maxCases < 1 {
		return usageErr("run: --max-cases wants a positive number, got %d", *maxCases)
	}
	// A config of millions of keys takes seconds to parse: an interrupt
	// does not wait for it.
	var cfg *config.Config
	if err := await(ctx, func() (err error) { cfg, err = config.LoadMax(pos[0], *maxCases); return err }); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while reading %s: %w", pos[0], err)
		}
		return &exitError{2, err}
	}
	cfg.Path = recordedPath(cfg.Path) // the results' config_path
	// A figure's reference CSV is checked before anything runs.
	for _, f := range cfg.Figures {
		if f.Reference != "" {
			if _, _, err := report.FindReference(f, nil); err != nil {
				return &exitError{2, err}
			}
		}
	}
	auto := *out == ""
	if auto {
		name := strings.TrimSuffix(filepath.Base(pos[0]), filepath.Ext(pos[0]))
		*out = filepath.Join("results", name+"-"+time.Now().Format("20060102-150405"))
		if err := os.MkdirAll("results", 0o755); err != nil {
			return &exitError{2, err}
		}
	}
	pdirs := runner.PluginDirs()
	if *dirs != "" {
		pdirs = splitList(*dirs)
	}
	opts := runner.Options{
		Config: cfg, OutDir: *out, AutoOutDir: auto, PluginDirs: pdirs, NoPreflight: *noPreflight,
		CommandLine: commandLine(),
		Log:         stderr, Progress: isTerminal(stderr),
	}
	opts.Reports = func(run *results.Run) error {
		_, err := report.WriteAll(run, run.OutDir)
		// The config's [[figure]] tables: figure-<name>.png and .svg.
		_, ferr := report.Figures([]*results.Run{run}, cfg.Figures, run.OutDir, nil)
		return errors.Join(err, ferr)
	}
	run, err := runner.Run(ctx, opts)
	if run == nil {
		// Nothing ran: a config, plugin, memory or folder problem (or an
		// interrupt, which main reports as such).
		return &exitError{2, err}
	}
	var se *runner.SaveError
	if errors.As(err, &se) {
		if se.Fallback != "" {
			fmt.Fprintf(stdout, "results: %s (incomplete); every finished case: %s\n", filepath.Join(run.OutDir, "results.json"), se.Fallback)
		}
		printTable(stdout, run)
		return err
	}
	fmt.Fprintf(stdout, "results: %s\n", filepath.Join(run.OutDir, "results.json"))
	fmt.Fprintf(stdout, "summary: %s\n", filepath.Join(run.OutDir, "summary.txt"))
	printTable(stdout, run)
	return err
}

// printTable prints one line per case.
func printTable(w io.Writer, run *results.Run) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	// Only the parameters that name a case are shown (swept, or not its
	// preset's); for a results file that did not record them, those that
	// differ between cases of one variant: what tells two rows apart.
	varying := varyingParams(run)
	fmt.Fprintln(tw, "variant\tbackend\tparams\tworkload\tstatus\tvalid/validated\tharmonic GTEPS\tmedian time (s)\t% of bound\t% of floor")
	for _, c := range run.Cases {
		if c == nil { // a hand-edited file: nothing to show
			continue
		}
		gteps, med := "-", "-"
		if c.Stats != nil && c.Stats.N > 0 {
			gteps = fmt.Sprintf("%.4g", c.Stats.HarmonicMeanTEPS/1e9)
			med = fmt.Sprintf("%.4g", c.Stats.Time.Median)
		}
		var ps []string
		keys := c.NameParams
		if keys == nil {
			keys = varying[c.Variant]
		}
		for _, k := range keys {
			ps = append(ps, fmt.Sprintf("%s=%v", k, c.Params[k]))
		}
		params := strings.Join(ps, " ")
		if params == "" {
			params = "-"
		}
		bound := "-"
		if c.PercentOfBound > 0 {
			bound = fmt.Sprintf("%.1f", c.PercentOfBound)
		}
		floor := "-"
		if c.PercentOfFloor > 0 {
			floor = fmt.Sprintf("%.1f", c.PercentOfFloor)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Variant, c.Backend, params, c.Graph.Label(), c.Status, c.ValidLabel(), gteps, med, bound, floor)
	}
	tw.Flush()
}

// varyingParams lists, per variant, the parameters whose values differ
// between its cases, sorted.
func varyingParams(run *results.Run) map[string][]string {
	seen := map[string]map[string]map[string]bool{} // variant -> param -> values
	for _, c := range run.Cases {
		if c == nil {
			continue
		}
		if seen[c.Variant] == nil {
			seen[c.Variant] = map[string]map[string]bool{}
		}
		for k, v := range c.Params {
			if seen[c.Variant][k] == nil {
				seen[c.Variant][k] = map[string]bool{}
			}
			seen[c.Variant][k][fmt.Sprint(v)] = true
		}
	}
	out := map[string][]string{}
	for variant, params := range seen {
		for k, vals := range params {
			if len(vals) > 1 {
				out[variant] = append(out[variant], k)
			}
		}
		sort.Strings(out[variant])
	}
	return out
}

// kroneckerFlags are the flags naming a Kronecker workload.
type kroneckerFlags struct {
	scale, edgefactor *int
	seed              *string
}

func addKronecker(fs *flag.FlagSet) kroneckerFlags {
	return kroneckerFlags{
		scale:      fs.Int("scale", 0, "log2 of the number of vertices"),
		edgefactor: fs.Int("edgefactor", 16, "edges per vertex"),
		seed:       fs.String("seed", "2,3", "the generator's two seeds, A,B"),
	}
}

func (k kroneckerFlags) spec() (workload.Spec, error) {
	s := workload.Spec{Scale: *k.scale, EdgeFactor: *k.edgefactor}
	a, b, ok := strings.Cut(*k.seed, ",")
	x, err1 := strconv.ParseUint(strings.TrimSpace(a), 10, 64)
	y, err2 := strconv.ParseUint(strings.TrimSpace(b), 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return s, usageErr("--seed wants two non-negative integers A,B, got %q", *k.seed)
	}
	s.Seed = [2]uint64{x, y}
	if err := s.Validate(); err != nil {
		return s, usageErr("%v", err)
	}
	return s, nil
}

func cmdGenerate(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	k := addKronecker(fs)
	format := fs.String("format", "text", "text (one \"v0 v1\" per line) or binary")
	out := fs.String("out", "", "output file, or - for standard output")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *out == "" {
		return usageErr("generate: give --scale and --out FILE|- (got extra arguments %v)", pos)
	}
	// Everything is checked before anything is written: a bad argument
	// never touches an existing --out file.
	if *format != "text" && *format != "binary" {
		return usageErr("generate: --format wants text or binary, got %q", *format)
	}
	spec, err := k.spec()
	if err != nil {
		return err
	}
	if err := runner.CheckGenerate(spec.Scale, spec.EdgeFactor); err != nil {
		return &exitError{2, fmt.Errorf("generate: %w", err)}
	}
	var w io.Writer = stdout
	var o *output
	if *out != "-" {
		if o, err = createOutput(ctx, *out); err != nil {
			return err
		}
		defer o.abort() // nothing once committed
		w = o.f
	}
	bw := bufio.NewWriterSize(graphio.ContextWriter(ctx, w), 1<<20)
	if *format == "binary" {
		err = graphio.WriteBinaryHeader(bw, graph500.NVertices(spec.Scale), graph500.NEdges(spec.Scale, spec.EdgeFactor))
	}
	if err == nil {
		err = generate(ctx, spec, func(edges []graph500.Edge) error {
			if *format == "text" {
				return graphio.WriteEdgesText(bw, edges)
			}
			return graphio.WriteBinaryEdges(bw, edges)
		})
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && o != nil {
		err = o.commit()
	}
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	return nil
}

// generateChunk is how many edges generate makes, and writes, between two
// looks at its context: 16 MiB, well under a second even on a loaded
// 2-core machine (TestInterruptOtherCommands wants an interrupt seen
// within one; 4 Mi edges, about 0.3 s a chunk with its write on 2 idle
// cores, missed it there under load).
const generateChunk = 1 << 20

// generate is graph500.Generate in chunks of at most generateChunk edges,
// each handed to write in order (the same slice, reused: write must not
// keep it), returning ctx's error once ctx ends (an interrupt). It holds
// one chunk, not the graph, so an interrupt is seen within a chunk however
// large the graph.
func generate(ctx context.Context, spec workload.Spec, write func([]graph500.Edge) error) error {
	if err := graph500.CheckParams(spec.Scale, spec.EdgeFactor); err != nil {
		return err
	}
	m := graph500.NEdges(spec.Scale, spec.EdgeFactor)
	buf := make([]graph500.Edge, min(m, generateChunk))
	for first := int64(0); first < m; first += generateChunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		last := min(first+generateChunk, m)
		chunk := buf[:last-first]
		graph500.GenerateRange(spec.Scale, spec.Seed, first, last, chunk)
		if err := write(chunk); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// await runs f aside and returns its error, or ctx's as soon as ctx ends
// (f, which cannot be stopped, is left to the process's exit).
func await(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func cmdValidate(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	k := addKronecker(fs)
	graphFile := fs.String("graph", "", "a graph file (SNAP, Matrix Market or binary) instead of a Kronecker graph")
	graphFormat := fs.String("graph-format", "auto", "format of --graph: auto, snap, mtx or bin")
	root := fs.Int64("root", -1, "the search's root")
	parentsPath := fs.String("parents", "", "parent array: text, one parent per vertex in vertex order, -1 for unreached")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *parentsPath == "" || *root < 0 {
		return usageErr("validate: give the graph (--scale ... or --graph FILE), --root R and --parents FILE")
	}
	var spec workload.Spec
	if *graphFile != "" {
		spec = workload.Spec{File: *graphFile, Format: *graphFormat}
	} else if spec, err = k.spec(); err != nil {
		return err
	}
	g, err := workload.LoadContext(ctx, spec)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return &exitError{2, err}
	}
	f, err := os.Open(*parentsPath)
	if err != nil {
		return &exitError{2, err}
	}
	defer f.Close()
	parents, err := graphio.ReadParents(graphio.ContextReader(ctx, f), *parentsPath)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &exitError{2, err}
	}
	if *root >= g.NVertices {
		return usageErr("validate: root %d out of range: the graph has %d vertices", *root, g.NVertices)
	}
	var res graph500.Result
	var verr error
	if err := await(ctx, func() error {
		res, verr = graph500.NewValidator(g.Edges, g.NVertices).Validate(*root, parents)
		return nil
	}); err != nil {
		return err
	}
	if verr != nil {
		return fmt.Errorf("invalid: %w", verr)
	}
	fmt.Fprintf(stdout, "valid: root %d, %d vertices reached, %d levels, nedge %d (Graph500 TEPS edge count)\n", *root, res.Reached, res.Levels, res.NEdge)
	return nil
}

func cmdPlugins(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plugins", flag.ContinueOnError)
	dirs := pluginDirsFlag(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	pdirs := runner.PluginDirs()
	if *dirs != "" {
		pdirs = splitList(*dirs)
	}
	paths := runner.ListPlugins(pdirs)
	if len(paths) == 0 {
		return &exitError{2, fmt.Errorf("no plugins found in %s: %s", strings.Join(pdirs, ", "), runner.PluginHint)}
	}
	for _, p := range paths {
		in, err := runner.Describe(ctx, p)
		if err != nil {
			fmt.Fprintf(stdout, "%s: not a bfsbench plugin (%v)\n\n", p, err)
			continue
		}
		fmt.Fprintf(stdout, "%s  (%s)\n  %s\n  paper: %s\n  backends: %s   multi-rank: %v\n", in.Name, p, in.Summary, in.Paper, strings.Join(in.Backends, ", "), in.MultiRank)
		for _, pr := range in.Params {
			extra := ""
			if len(pr.Choices) > 0 {
				extra = " one of " + strings.Join(pr.Choices, "|")
			}
			if pr.Min != nil || pr.Max != nil {
				lo, hi := "-inf", "inf"
				if pr.Min != nil {
					lo = fmt.Sprint(*pr.Min)
				}
				if pr.Max != nil {
					hi = fmt.Sprint(*pr.Max)
				}
				extra += fmt.Sprintf(" in [%s, %s]", lo, hi)
			}
			fmt.Fprintf(stdout, "    %-20s %-6s default %-8v%s  %s\n", pr.Name, pr.Type, pr.Default, extra, pr.Help)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

func cmdPlot(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	out := fs.String("out", "", "folder for the plots (default: beside the first results file)")
	figConfig := fs.String("figures", "", "draw the [[figure]] tables of this config instead of those of the config stored in the results")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErr("plot needs at least one results.json")
	}
	var runs []*results.Run
	for _, p := range pos {
		r, err := results.Load(p)
		if err != nil {
			return &exitError{2, err}
		}
		runs = append(runs, r)
	}
	if *out == "" {
		*out = filepath.Dir(pos[0])
	}
	if err := ctx.Err(); err != nil {
		return err // interrupted while reading: no folder made
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	files, err := report.PlotContext(ctx, runs, *out)
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	if err != nil {
		return err
	}
	figs, err := plotFigures(runs, pos, *figConfig)
	if err != nil {
		return &exitError{2, err}
	}
	// A reference CSV is looked for beside its config, then beside the
	// results (bfsbench run copies it there) and in the output folder.
	var refDirs []string
	for _, p := range pos {
		refDirs = append(refDirs, filepath.Dir(p))
	}
	files, err = report.FiguresContext(ctx, runs, figs, *out, append(refDirs, *out))
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return err
}

// plotFigures is the [[figure]] tables to draw: those of the config file
// figConfig when given, else those of the configs stored in the runs
// (results.json holds the config's text), the first of each name.
func plotFigures(runs []*results.Run, paths []string, figConfig string) ([]*config.Figure, error) {
	if figConfig != "" {
		b, err := os.ReadFile(figConfig)
		if err != nil {
			return nil, err
		}
		return config.ParseFigures(figConfig, string(b))
	}
	var figs []*config.Figure
	seen := map[string]bool{}
	for i, r := range runs {
		name := r.ConfigPath
		if name == "" {
			name = paths[i]
		}
		fs, err := config.ParseFigures(name, r.Config)
		if err != nil {
			return nil, fmt.Errorf("%s: the stored config: %w", paths[i], err)
		}
		for _, f := range fs {
			if !seen[f.Name] {
				seen[f.Name] = true
				figs = append(figs, f)
			}
		}
	}
	return figs, nil
}

func cmdCompare(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	th := fs.String("threshold", "5%", "slow-down that fails the comparison, e.g. 5% or 0.05")
	strict := fs.Bool("strict", false, "refuse runs from different machines (CPU model, GPU model, driver) instead of warning")
	minSearches := fs.Int("min-searches", 0, "valid searches each side of a case needs, or it fails (0: as few as the U test can judge, 4 a side at p <= 0.05)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageErr("compare needs BASE.json and NEW.json")
	}
	if *minSearches < 0 {
		return usageErr("compare: --min-searches wants a number >= 0, got %d", *minSearches)
	}
	threshold, err := parseThreshold(*th)
	if err != nil {
		return usageErr("compare: %v", err)
	}
	base, err := results.Load(pos[0])
	if err != nil {
		return &exitError{2, err}
	}
	cur, err := results.Load(pos[1])
	if err != nil {
		return &exitError{2, err}
	}
	res, err := report.CompareRuns(stdout, base, cur, report.CompareOptions{Threshold: threshold, Strict: *strict, MinSearches: *minSearches})
	if err != nil {
		return &exitError{2, err} // nothing comparable, or --strict refused: no verdict
	}
	if res.Failed > 0 {
		return &exitError{1, fmt.Errorf("regression: %s is slower than %s beyond %s, or cases are missing or failed", pos[1], pos[0], *th)}
	}
	return nil
}

// parseThreshold accepts "5%" or "0.05".
func parseThreshold(s string) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	x, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || x < 0 {
		return 0, fmt.Errorf("threshold wants a non-negative number like 5%% or 0.05, got %q", s)
	}
	if pct {
		x /= 100
	}
	return x, nil
}

// cmdLevels prints each case's phase times per BFS level (results.json of
// bfsbench run; the JSON reports of the former in-process GPU checks load
// too).
func cmdLevels(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("levels", flag.ContinueOnError)
	all := fs.Bool("all", false, "every search of a case whose status is ok, not only the validated ones")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErr("levels needs at least one results.json")
	}
	for _, p := range pos {
		r, err := results.Load(p)
		if err != nil {
			return &exitError{2, err}
		}
		fmt.Fprintf(stdout, "== %s\n", p)
		if err := report.LevelTables(stdout, r, *all); err != nil {
			return err
		}
	}
	return nil
}

// cmdTable prints the case table that `run` prints at its end, for each
// results file given (a GPU check prints one table for several runs).
func cmdTable(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("table", flag.ContinueOnError)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErr("table needs at least one results.json")
	}
	for _, p := range pos {
		r, err := results.Load(p)
		if err != nil {
			return &exitError{2, err}
		}
		fmt.Fprintf(stdout, "== %s (%s)\n", p, r.Env.Describe())
		printTable(stdout, r)
	}
	return nil
}
