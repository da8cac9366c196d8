// Package ab measures two builds of the plugins side by side on one
// machine: the regression check that holds on a shared CI runner, where a
// baseline recorded elsewhere (another CPU, another load) means nothing.
//
// Both revisions run the same config, in one harness process: the same
// edge lists, search keys, validator and clock. The measurement is
// interleaved case by case in alternating order: for each case (workload ×
// variant × sweep point) and each round, the base and the new plugins each
// run the case once through runner.Run, base first in one round and second
// in the next, so a drift of the machine's speed (a neighbour's job,
// thermal state) falls on both sides alike. Every search is validated. The
// rounds of one side are merged into one case, and the two are compared
// with report.ComparePairs: the Mann-Whitney U test over per-search TEPS and
// a bootstrap confidence interval of the ratio of harmonic means.
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
)

// Options configure an A/B measurement.
type Options struct {
	Config    *config.Config
	Base, New *Build // built, with PluginDir set
	// Rounds is how many times each side runs each case; 2 or more lets
	// the order alternate.
	Rounds int
	// OutDir must not exist yet; it receives results.json (both sides),
	// the reports, ab.log (the runner's log) and runs/ (each single run's
	// own results and plugin logs).
	OutDir      string
	CommandLine string
	Log         io.Writer // one line per run of a case
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

// unit is one case of the config: a workload, a variant and one point of
// its sweep (the values the config gives, one per parameter).
type unit struct {
	cfg  *config.Config // the config of this case alone
	name string         // variant and parameters, for progress lines
	runs [2][]*results.Case
}

// Run measures every case of the config on both sides, interleaved, and
// returns the merged results. results.json in OutDir is rewritten after
// every run, so an interrupted measurement keeps what it did. The error is
// non-nil when the measurement could not be made (a plugin missing from a
// revision, a config its plugins reject, an interrupt); a case that fails
// or is invalid is not an error but a case status.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Rounds < 1 {
		return nil, fmt.Errorf("ab: %d rounds", o.Rounds)
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	units, err := splitCases(o.Config)
	if err != nil {
		return nil, err
	}
	// Resolve every case on both sides before anything runs: a revision
	// that lacks a plugin or a parameter fails here, not halfway.
	sides := [2]*Build{o.Base, o.New}
	for _, s := range sides {
		if _, _, err := runner.Plan(ctx, o.Config, []string{s.PluginDir}); err != nil {
			return nil, fmt.Errorf("%s (%s): %w", s.Label, s.Describe(), err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(o.OutDir), 0o755); err != nil {
		return nil, fmt.Errorf("results folder: %w", err)
	}
	if err := os.Mkdir(o.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("results folder: %w (an existing folder is never overwritten)", err)
	}
	runsDir := filepath.Join(o.OutDir, "runs")
	if err := os.Mkdir(runsDir, 0o755); err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(o.OutDir, "ab.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()

	res := &Result{Run: &results.Run{
		Config: o.Config.Text, ConfigPath: o.Config.Path, CommandLine: o.CommandLine,
		GitCommit: o.New.Commit, Started: time.Now().UTC().Format(time.RFC3339), Env: runner.DetectEnv(),
	}}
	resultsPath := filepath.Join(o.OutDir, "results.json")
	save := func() error {
		res.Run.Cases, res.Pairs = merged(units, sides, o.Rounds)
		if err := res.Run.Save(resultsPath); err != nil {
			return fmt.Errorf("saving %s: %w", resultsPath, err)
		}
		return nil
	}
	total, done := len(units)*o.Rounds*2, 0
	for ui, u := range units {
		for r := 0; r < o.Rounds; r++ {
			for _, si := range Order(ui, r) {
				if ctx.Err() != nil {
					return res, errors.Join(fmt.Errorf("interrupted: %w", ctx.Err()), save())
				}
				done++
				s := sides[si]
				dir := filepath.Join(runsDir, fmt.Sprintf("%03d-case%d-round%d-%s", done, ui+1, r+1, s.Label))
				fmt.Fprintf(logFile, "== [%d/%d] %s, round %d, %s: %s\n", done, total, u.name, r+1, s.Label, s.Describe())
				run, err := runner.Run(ctx, runner.Options{
					Config: u.cfg, OutDir: dir, PluginDirs: []string{s.PluginDir},
					CommandLine: o.CommandLine, Log: logFile,
				})
				var failed *runner.FailedError
				switch {
				case run == nil:
					return res, errors.Join(fmt.Errorf("%s (%s): %w", s.Label, s.Describe(), err), save())
				case err != nil && !errors.As(err, &failed) && ctx.Err() == nil:
					return res, errors.Join(fmt.Errorf("%s (%s): %w", s.Label, s.Describe(), err), save())
				case len(run.Cases) != 1:
					return res, fmt.Errorf("ab: a single case's config ran %d cases", len(run.Cases))
				}
				c := run.Cases[0]
				u.runs[si] = append(u.runs[si], c)
				fmt.Fprintf(o.Log, "[%d/%d] %s  round %d/%d  %-4s  %s\n", done, total, u.name, r+1, o.Rounds, s.Label, caseLine(c))
				if err := save(); err != nil {
					return res, err
				}
			}
		}
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

// Order gives the sides' order in round r of case u: base first when u+r
// is even, new first otherwise, so each case alternates between rounds and
// consecutive cases start with different sides (0 is base, 1 is new).
func Order(u, r int) [2]int {
	if (u+r)%2 == 0 {
		return [2]int{0, 1}
	}
	return [2]int{1, 0}
}

// splitCases splits a config into its cases, each a config of its own with one
// workload, one variant and one value per parameter, in the order
// runner.Run would run them (workload by workload). Every search is
// validated, whatever the config's validate says: the comparison uses
// validated searches only.
func splitCases(cfg *config.Config) ([]*unit, error) {
	var out []*unit
	for _, w := range cfg.Workloads {
		w.Validate = config.ValidateAll
		for _, v := range cfg.Variants {
			for _, pt := range expand(v) {
				one := *v
				one.Params = map[string][]any{}
				var ps []string
				for _, k := range v.ParamOrder {
					one.Params[k] = []any{pt[k]}
					ps = append(ps, fmt.Sprintf("%s=%v", k, pt[k]))
				}
				name := v.Name
				if len(ps) > 0 {
					name += " " + strings.Join(ps, " ")
				}
				if len(cfg.Workloads) > 1 {
					name += " (" + w.Spec.String() + ")"
				}
				sub := *cfg // every setting of the config, then its one case
				sub.Workloads, sub.Variants = []config.Workload{w}, []*config.Variant{&one}
				out = append(out, &unit{cfg: &sub, name: name})
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no cases", cfg.Path)
	}
	return out, nil
}

// expand lists the points of a variant's sweep as the config gives them
// (no defaults filled in): the product of its parameters' value lists.
func expand(v *config.Variant) []map[string]any {
	points := []map[string]any{{}}
	for _, k := range v.ParamOrder {
		var next []map[string]any
		for _, val := range v.Params[k] {
			for _, pt := range points {
				q := maps.Clone(pt)
				q[k] = val
				next = append(next, q)
			}
		}
		points = next
	}
	return points
}

// merged returns the run's cases (each unit's base then new, variants
// named with their side) and the pairs to compare, from the runs so far.
func merged(units []*unit, sides [2]*Build, rounds int) ([]*results.Case, []report.Pair) {
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
