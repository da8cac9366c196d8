// Package ab measures two builds of the plugins side by side on one
// machine: the regression check that holds on a shared CI runner, where a
// baseline recorded elsewhere (another CPU, another load) means nothing.
//
// Both revisions run the same config, in one harness process: the same
// edge lists, search keys, validator and clock. The measurement is
// interleaved search by search: for each case (workload × variant × sweep
// point) and each round, the base and the new plugins are started and
// construct on the same prepared workload (runner.StartCase), both run the
// warm-up, then the search keys alternate between them in the order base,
// new, new, base, base, new, ... (ABBA), the round's first side
// alternating between rounds. A slow moment of the machine (a neighbour's
// job, a frequency change) therefore falls on both sides alike, and a
// drift over the round cancels out. Every search is validated. The rounds
// of one side are merged into one case, and the two are compared with
// report.ComparePairs: the Mann-Whitney U test over per-search TEPS and a
// bootstrap confidence interval of the ratio of medians that resamples
// whole rounds.
//
// Sequential (bfsbench ab --sequential) runs each round's sides one after
// the other instead: one side's plugin alone constructs, warms up and
// searches every key, is closed, then the other side's does the same
// (the round's first side alternating between rounds). Neither plugin is
// told that it shares the device, so each runs as bfsbench run runs it: a
// plugin that keeps its device between searches (diropt's gated start)
// measures the way its headline does. The cost is the interleaving's
// protection: a drift of the machine within a round falls on one side, so
// give it more rounds.
package ab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/report"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/runner"
)

// Labels of the two sides, as results.json names them (variant@label).
const (
	BaseLabel = "base"
	NewLabel  = "new"
)

// Info keys added to each merged case.
const (
	InfoSide     = "ab_side"     // BaseLabel or NewLabel
	InfoRevision = "ab_revision" // the side's revision, as Build.Describe says
	InfoRounds   = "ab_rounds"   // how many runs of the case were merged
	InfoOrder    = "ab_order"    // OrderInterleaved or OrderSequential
)

// The two orders of a round's searches (InfoOrder).
const (
	OrderInterleaved = "interleaved" // search by search, ABBA (Order)
	OrderSequential  = "sequential"  // one side's every search, then the other's (Options.Sequential)
)

// Options configure an A/B measurement.
type Options struct {
	Config    *config.Config
	Base, New *Build // built, with PluginDir set
	// Rounds is how many times each case is run on both sides, each time
	// with fresh plugin processes and a fresh construction; the searches
	// of a round are interleaved.
	Rounds int
	// Sequential runs a round's two sides one after the other, each
	// plugin alone on the machine, instead of interleaved (see the package
	// comment).
	Sequential bool
	// OutDir must not exist yet; it receives results.json (both sides),
	// the reports, ab.log (the harness's log) and runs/ (the plugins'
	// logs, one folder per case, round and side).
	OutDir      string
	CommandLine string
	Log         io.Writer // one line per round of a case
}

// Result is a finished A/B measurement.
type Result struct {
	// Run holds both sides' cases, the variants named "<name>@base" and
	// "<name>@new", each case the merge of its rounds.
	Run *results.Run
	// Pairs are the cases to compare, in config order, named as in the
	// config (without the side).
	Pairs []report.Pair
}

// unit is one case of the config on both sides.
type unit struct {
	name  string // variant, parameters and workload, for progress lines
	w     int    // index of the workload
	cases [2]runner.Planned
	runs  [2][]*results.Case // one per round
}

// Run measures every case of the config on both sides, interleaved, and
// returns the merged results. results.json in OutDir is rewritten after
// every round, so an interrupted measurement keeps what it did. The error
// is non-nil when the measurement could not be made (a plugin missing from
// a revision, a config its plugins reject, a workload that cannot be
// generated, an interrupt); a case that fails or is invalid is not an
// error but a case status.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Rounds < 1 {
		return nil, fmt.Errorf("ab: %d rounds", o.Rounds)
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	cfg := validateAll(o.Config)
	// Resolve every case on both sides before anything runs: a revision
	// that lacks a plugin or a parameter fails here, not halfway.
	sides := [2]*Build{o.Base, o.New}
	machine := runner.DetectMachine()
	var plans [2][]runner.Planned
	var warnings []string
	for si, s := range sides {
		plan, infos, err := runner.Plan(ctx, cfg, []string{s.PluginDir})
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", s.Label, s.Describe(), err)
		}
		notes, err := runner.Preflight(cfg, plan, infos, machine)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", s.Label, s.Describe(), err)
		}
		for _, n := range notes {
			if !slices.Contains(warnings, n) {
				warnings = append(warnings, n)
			}
		}
		plans[si] = plan
	}
	units, err := pairCases(cfg, plans)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(o.OutDir), 0o755); err != nil {
		return nil, fmt.Errorf("results folder: %w", err)
	}
	if err := os.Mkdir(o.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("results folder: %w (an existing folder is never overwritten)", err)
	}
	logFile, err := os.Create(filepath.Join(o.OutDir, "ab.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	for _, d := range runner.CleanStale() {
		fmt.Fprintf(logFile, "removed %s, left by a run that died\n", d)
	}
	lockWarnings, lock := runner.LockMachine(cfg, machine)
	defer lock.Release()
	warnings = append(warnings, lockWarnings...)
	for _, w := range warnings {
		fmt.Fprintf(o.Log, "ab: warning: %s\n", w)
	}

	res := &Result{Run: &results.Run{
		Config: o.Config.Text, ConfigPath: o.Config.Path, CommandLine: o.CommandLine,
		GitCommit: o.New.Commit, Started: time.Now().UTC().Format(time.RFC3339), Env: runner.DetectEnv(),
		Warnings: warnings,
	}}
	resultsPath := filepath.Join(o.OutDir, "results.json")
	save := func() error {
		res.Run.Cases, res.Pairs = merged(units, sides, o.Rounds, o.Sequential)
		if err := res.Run.Save(resultsPath); err != nil {
			return fmt.Errorf("saving %s: %w", resultsPath, err)
		}
		return nil
	}
	// Interleaved, both sides' plugins live at once and alternate searches
	// on the same devices: neither may hold a device between its searches.
	// Sequential, each runs alone.
	ropts := runner.Options{Log: logFile, Machine: &machine, SharedDevices: !o.Sequential}
	total, done := len(units)*o.Rounds, 0
	for wi, w := range cfg.Workloads {
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(logFile, "workload %d/%d: %s, %d searches\n", wi+1, len(cfg.Workloads), w.Spec, w.NBFS)
		wl, err := runner.Prepare(ctx, w, logFile)
		if err != nil {
			return res, errors.Join(fmt.Errorf("workload %s: %w", w.Spec, err), save())
		}
		for ui, u := range units {
			for r := 0; r < o.Rounds && u.w == wi && ctx.Err() == nil; r++ {
				done++
				fmt.Fprintf(logFile, "== [%d/%d] %s, round %d\n", done, total, u.name, r+1)
				dir := filepath.Join(o.OutDir, "runs", fmt.Sprintf("case%d-round%d", ui+1, r+1))
				var cs [2]*results.Case
				if o.Sequential {
					cs = runRoundSequential(ctx, ropts, u, ui, r, wl, dir)
				} else {
					cs = runRound(ctx, ropts, u, ui, r, wl, dir)
				}
				for si := range sides {
					u.runs[si] = append(u.runs[si], cs[si])
				}
				fmt.Fprintf(o.Log, "[%d/%d] %s  round %d/%d  base %s  new %s\n", done, total, u.name, r+1, o.Rounds, caseLine(cs[0]), caseLine(cs[1]))
				for _, w := range lock.Check() { // a run that started during the round
					fmt.Fprintf(o.Log, "ab: warning: %s\n", w)
					res.Run.Warnings = append(res.Run.Warnings, w)
				}
				if err := save(); err != nil {
					wl.Release()
					return res, err
				}
			}
		}
		wl.Release()
	}
	if ctx.Err() != nil {
		return res, errors.Join(fmt.Errorf("interrupted: %w", ctx.Err()), save())
	}
	res.Run.Finished = time.Now().UTC().Format(time.RFC3339)
	if err := save(); err != nil {
		return res, err
	}
	if _, err := report.WriteAll(res.Run, o.OutDir); err != nil {
		fmt.Fprintf(o.Log, "ab: reports: %v\n", err)
	}
	return res, nil
}

// runRound runs round r of case u on both sides: both plugins start and
// construct, both warm up, then the keys are searched in the order Order
// gives, every search validated. It returns the base's and the new
// side's case; a side that fails is a failed case, and the other side
// goes on alone.
func runRound(ctx context.Context, ro runner.Options, u *unit, ui, r int, wl *runner.Prepared, dir string) [2]*results.Case {
	var sess [2]*runner.Session
	first := Order(ui, r, 0)
	for _, si := range first {
		s, _ := runner.StartCase(ctx, ro, u.cases[si], wl, filepath.Join(dir, []string{BaseLabel, NewLabel}[si]))
		defer s.Close()
		sess[si] = s
	}
	for _, si := range first {
		sess[si].WarmUp() // a failure is the case's: recorded in it
	}
	for i := range wl.Keys() {
		for _, si := range Order(ui, r, i) {
			sess[si].Search(i) // likewise; a failed session returns at once
		}
	}
	return [2]*results.Case{sess[0].Finish(), sess[1].Finish()}
}

// runRoundSequential runs round r of case u one side after the other
// (Options.Sequential), the side Order puts first for the round's first
// key first: each side's plugin starts, constructs, warms up, searches
// every key and is closed before the other's starts.
func runRoundSequential(ctx context.Context, ro runner.Options, u *unit, ui, r int, wl *runner.Prepared, dir string) [2]*results.Case {
	var cs [2]*results.Case
	for _, si := range Order(ui, r, 0) {
		s, _ := runner.StartCase(ctx, ro, u.cases[si], wl, filepath.Join(dir, []string{BaseLabel, NewLabel}[si]))
		s.WarmUp() // a failure is the case's: recorded in it
		for i := range wl.Keys() {
			s.Search(i) // likewise; a failed session returns at once
		}
		cs[si] = s.Finish()
		s.Close()
	}
	return cs
}

// Order gives the sides' order for search key i in round r of case u (0
// is base, 1 is new): base first when u+r+i is even. Over the keys that is
// base, new, new, base, base, new, ... (ABBA), so a drift of the machine's
// speed within a round falls on both sides alike; each round of a case,
// and each case's first round, starts with the other side than the last.
func Order(u, r, i int) [2]int {
	if (u+r+i)%2 == 0 {
		return [2]int{0, 1}
	}
	return [2]int{1, 0}
}

// validateAll returns cfg with every search of every workload validated,
// whatever its validate says: the comparison uses validated searches only.
func validateAll(cfg *config.Config) *config.Config {
	c := *cfg
	c.Workloads = slices.Clone(cfg.Workloads)
	for i := range c.Workloads {
		c.Workloads[i].Validate = config.ValidateAll
	}
	return &c
}

// pairCases matches the planned cases of the two sides (the same config,
// so the same variants and sweep points in the same order) and makes one
// unit per workload and case, in the order runner.Run would run them.
func pairCases(cfg *config.Config, plans [2][]runner.Planned) ([]*unit, error) {
	if len(plans[0]) != len(plans[1]) {
		return nil, fmt.Errorf("ab: the config has %d cases on the base side and %d on the new", len(plans[0]), len(plans[1]))
	}
	var out []*unit
	for wi, w := range cfg.Workloads {
		for k, p := range plans[0] {
			if q := plans[1][k]; q.Variant() != p.Variant() {
				return nil, fmt.Errorf("ab: case %d is variant %q on the base side and %q on the new", k+1, p.Variant().Name, q.Variant().Name)
			}
			if !p.Variant().RunsAt(w) {
				continue
			}
			name := caseName(p.Variant().Name, p.Params(), p.NameParams())
			if len(cfg.Workloads) > 1 {
				name += " (" + w.Spec.String() + ")"
			}
			out = append(out, &unit{name: name, w: wi, cases: [2]runner.Planned{p, plans[1][k]}})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no cases", cfg.Path)
	}
	return out, nil
}

// caseName names a case by its variant and the parameters that name it
// (swept, or not its preset's).
func caseName(variant string, params map[string]any, named []string) string {
	if len(named) == 0 {
		return variant
	}
	return variant + " " + runner.ParamString(params, named)
}

// merged returns the run's cases (each unit's base then new, variants
// named with their side) and the pairs to compare, from the runs so far.
func merged(units []*unit, sides [2]*Build, rounds int, sequential bool) ([]*results.Case, []report.Pair) {
	order := OrderInterleaved
	if sequential {
		order = OrderSequential
	}
	var cases []*results.Case
	var pairs []report.Pair
	for _, u := range units {
		var m [2]*results.Case
		for si, s := range sides {
			if len(u.runs[si]) == 0 {
				continue
			}
			m[si] = Merge(u.runs[si])
			named := *m[si]
			named.Variant += "@" + s.Label
			named.Info = maps.Clone(m[si].Info)
			if named.Info == nil {
				named.Info = map[string]any{}
			}
			named.Info[InfoSide] = s.Label
			named.Info[InfoRevision] = s.Describe()
			named.Info[InfoRounds] = len(u.runs[si])
			named.Info[InfoOrder] = order
			cases = append(cases, &named)
		}
		if m[0] == nil || m[1] == nil || len(u.runs[0]) < rounds || len(u.runs[1]) < rounds {
			continue
		}
		p := report.Pair{Base: m[0], New: m[1]}
		for r := range rounds {
			p.Rounds = append(p.Rounds, [2]int{len(u.runs[0][r].BFS), len(u.runs[1][r].BFS)})
		}
		if d := report.ParamDiff(m[0].Params, m[1].Params); d != "" {
			p.Note = "parameters differ: " + d
		}
		pairs = append(pairs, p)
	}
	return cases, pairs
}

// Merge joins the runs of one case into one case: the searches of every
// run in order, the first status that is not ok (with its error, naming the
// run), the statistics recomputed over all searches and the median
// construction time.
func Merge(runs []*results.Case) *results.Case {
	c := *runs[0]
	c.BFS = nil
	var errs []string
	var construct []float64
	for i, r := range runs {
		c.BFS = append(c.BFS, r.BFS...)
		construct = append(construct, r.ConstructionTimeS)
		if r.Status != results.StatusOK && c.Status == results.StatusOK {
			c.Status = r.Status
		}
		if r.Error != "" {
			errs = append(errs, fmt.Sprintf("run %d: %s", i+1, r.Error))
		}
	}
	if c.BFS == nil {
		c.BFS = []results.Search{}
	}
	c.Error = strings.Join(errs, "\n")
	slices.Sort(construct)
	c.ConstructionTimeS = (construct[(len(construct)-1)/2] + construct[len(construct)/2]) / 2
	c.Validated = 0
	for _, s := range c.BFS {
		if s.Validated {
			c.Validated++
		}
	}
	c.Stats = graph500.ComputeStats(c.BFS)
	c.StatsAll = nil
	c.PercentOfBound = results.PercentOfBound(c.BFS, c.BandwidthGBs, c.GPUs)
	c.PercentOfFloor = 0
	if c.FloorTimeS > 0 && c.Stats != nil && c.Stats.N > 0 && c.Stats.Time.Median > 0 {
		c.PercentOfFloor = 100 * c.FloorTimeS / c.Stats.Time.Median
	}
	return &c
}

// caseLine summarizes a run of a case for the progress line.
func caseLine(c *results.Case) string {
	s := c.Status
	if c.Stats != nil && c.Stats.N > 0 {
		s += fmt.Sprintf(", %.4g GTEPS over %d valid searches", c.Stats.HarmonicMeanTEPS/1e9, c.Stats.N)
	}
	if c.Error != "" {
		first, _, _ := strings.Cut(c.Error, "\n")
		s += ": " + first
	}
	return s
}
