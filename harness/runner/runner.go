// Package runner executes a bfsbench config: for every workload it
// generates the edge list once, builds the validator and picks the search
// keys; then for every variant × parameter point it starts the plugin,
// constructs (Graph500 kernel 1), runs one untimed warm-up search and nbfs
// timed searches (kernel 2), validating every one, and records the case in
// results.json as soon as it finishes.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/workload"
)

// Options configure a run.
type Options struct {
	Config      *config.Config
	OutDir      string   // must not exist yet; created
	PluginDirs  []string // where plugin binaries are looked up
	CommandLine string
	Log         io.Writer // progress and per-case lines (stderr)
	Progress    bool      // draw progress bars on Log (a terminal)
	// AfterCase is called after every case with the run so far (to redraw
	// reports); its error is logged, not fatal.
	AfterCase func(run *results.Run) error
}

// planned is one case before it runs.
type planned struct {
	variant *config.Variant
	path    string
	params  map[string]any
}

// Plan resolves every variant's plugin and parameter sweep before anything
// runs, so a config error costs nothing.
func Plan(ctx context.Context, cfg *config.Config, dirs []string) ([]planned, map[string]sdk.Info, error) {
	infos := map[string]sdk.Info{}
	var out []planned
	for _, v := range cfg.Variants {
		path, err := FindPlugin(dirs, v.Plugin)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: variant %q: %w", cfg.Path, v.Line(), v.Name, err)
		}
		info, ok := infos[v.Plugin]
		if !ok {
			info, err = Describe(ctx, path)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: variant %q: %w", cfg.Path, v.Line(), v.Name, err)
			}
			infos[v.Plugin] = info
		}
		points, err := v.Points(info)
		if err != nil {
			return nil, nil, err
		}
		for _, pt := range points {
			out = append(out, planned{variant: v, path: path, params: pt})
		}
	}
	return out, infos, nil
}

// Run executes the config and returns the run record; results.json in
// OutDir is rewritten after every case. The error is nil when every case
// validated, a *FailedError naming the failed cases otherwise, or the
// reason the run could not start.
func Run(ctx context.Context, o Options) (*results.Run, error) {
	cfg := o.Config
	plan, _, err := Plan(ctx, cfg, o.PluginDirs)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(o.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("results folder: %w (an existing folder is never overwritten)", err)
	}
	run := &results.Run{
		Config: cfg.Text, ConfigPath: cfg.Path, CommandLine: o.CommandLine,
		GitCommit: GitCommit(), Started: time.Now().UTC().Format(time.RFC3339), Env: DetectEnv(),
	}
	resultsPath := filepath.Join(o.OutDir, "results.json")
	save := func() {
		if err := run.Save(resultsPath); err != nil {
			fmt.Fprintf(o.Log, "bfsbench: saving %s: %v\n", resultsPath, err)
		}
		if o.AfterCase != nil {
			if err := o.AfterCase(run); err != nil {
				fmt.Fprintf(o.Log, "bfsbench: reports: %v\n", err)
			}
		}
	}
	// Every case is listed from the start as skipped, so an interrupted
	// run still shows what it did not reach.
	type slot struct {
		w  config.Workload
		p  planned
		rc *results.Case
	}
	var slots []slot
	for _, w := range cfg.Workloads {
		for _, p := range plan {
			c := newCase(p, w)
			slots = append(slots, slot{w, p, c})
			run.Cases = append(run.Cases, c)
		}
	}
	save()
	total := len(slots)
	done := 0
	for wi, w := range cfg.Workloads {
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(o.Log, "workload %d/%d: %s, %d searches\n", wi+1, len(cfg.Workloads), w.Spec, w.NBFS)
		wl, err := prepare(w, o)
		for _, s := range slots {
			if s.w != w || ctx.Err() != nil {
				continue
			}
			done++
			if err != nil {
				s.rc.Status, s.rc.Error = results.StatusFailed, "workload: "+err.Error()
			} else {
				o.runCase(ctx, s.p, w, wl, s.rc, o.OutDir, fmt.Sprintf("[%d/%d]", done, total))
			}
			printCase(o.Log, s.rc)
			save()
		}
		wl.release()
	}
	if ctx.Err() != nil {
		for _, s := range slots {
			if s.rc.Status == results.StatusSkipped {
				s.rc.Error = "not run: interrupted"
			}
		}
	}
	run.Finished = time.Now().UTC().Format(time.RFC3339)
	save()
	var failed []string
	for _, c := range run.Cases {
		if c.Status != results.StatusOK {
			failed = append(failed, fmt.Sprintf("%s (%s %s)", c.Variant, c.Graph.Label(), c.Status))
		}
	}
	if ctx.Err() != nil {
		return run, fmt.Errorf("interrupted: %w", ctx.Err())
	}
	if len(failed) > 0 {
		return run, &FailedError{Cases: failed, Total: len(run.Cases)}
	}
	return run, nil
}

// FailedError lists the cases that did not validate or did not finish.
type FailedError struct {
	Cases []string
	Total int
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("%d of %d cases failed: %s", len(e.Cases), e.Total, strings.Join(e.Cases, ", "))
}

func newCase(p planned, w config.Workload) *results.Case {
	v := p.variant
	c := &results.Case{
		Variant: v.Name, Plugin: v.Plugin, Backend: v.Backend, Params: p.params,
		Ranks: v.Ranks, Grid: v.Grid, Launcher: v.Launcher, Status: results.StatusSkipped,
		Graph: results.Graph{Scale: w.Spec.Scale, EdgeFactor: w.Spec.EdgeFactor, Seed: w.Spec.Seed, File: w.Spec.File},
		BFS:   []results.Search{},
	}
	return c
}

// prepared is the harness's own copy of a workload: the edge list, the
// validator built from it and the search keys.
type prepared struct {
	graph     *workload.Graph
	validator *graph500.Validator
	// components counts the TEPS edges of searches the harness does not
	// validate; built only for a workload with validate = N.
	components *graph500.ComponentEdges
	keys       []int64
	genTimeS   float64
}

func (p *prepared) release() {
	if p != nil {
		p.graph, p.validator, p.components = nil, nil, nil
	}
}

func prepare(w config.Workload, o Options) (*prepared, error) {
	t0 := time.Now()
	g, err := workload.Load(w.Spec)
	if err != nil {
		return nil, err
	}
	gen := time.Since(t0).Seconds()
	fmt.Fprintf(o.Log, "  edge list: %d vertices, %d edges, fingerprint %s (%.2fs)\n", g.NVertices, len(g.Edges), g.Info.Fingerprint, gen)
	keys, err := graph500.SearchKeys(g.Edges, g.NVertices, w.NBFS, w.Spec.Seed)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	v := graph500.NewValidator(g.Edges, g.NVertices)
	fmt.Fprintf(o.Log, "  validator ready (%.2fs)\n", time.Since(t1).Seconds())
	var ce *graph500.ComponentEdges
	if w.Validate != config.ValidateAll {
		t2 := time.Now()
		ce = graph500.NewComponentEdges(g.Edges, g.NVertices)
		fmt.Fprintf(o.Log, "  validating the first %d searches of each case; component edge counts ready (%.2fs)\n", w.Validate, time.Since(t2).Seconds())
	}
	return &prepared{graph: g, validator: v, components: ce, keys: keys, genTimeS: gen}, nil
}

func printCase(w io.Writer, c *results.Case) {
	line := fmt.Sprintf("  %-24s %-5s %-4s %s", c.Variant, c.Backend, strings.ToUpper(c.Status), paramString(c.Params))
	if c.Stats != nil && c.Stats.N > 0 {
		line += fmt.Sprintf("  harmonic mean %.4g GTEPS over %d validated searches, construction %.3gs", c.Stats.HarmonicMeanTEPS/1e9, c.Stats.N, c.ConstructionTimeS)
	}
	if c.Validated < len(c.BFS) {
		line += fmt.Sprintf("\n    partly validated: %d of %d searches (validate = %s)", c.Validated, len(c.BFS), c.Validate)
		if c.StatsAll != nil && c.StatsAll.N > 0 {
			line += fmt.Sprintf("; all %d not found invalid: %.4g GTEPS", c.StatsAll.N, c.StatsAll.HarmonicMeanTEPS/1e9)
		}
	}
	if c.Error != "" {
		line += "\n    error: " + firstLines(c.Error, 6)
	}
	fmt.Fprintln(w, line)
}

func paramString(p map[string]any) string {
	if len(p) == 0 {
		return ""
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%v", k, p[k])
	}
	return b.String()
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n    ")
}

// errStatus maps a case error to its status.
func errStatus(ctx context.Context, err error) string {
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == context.DeadlineExceeded {
		return results.StatusTimeout
	}
	return results.StatusFailed
}
