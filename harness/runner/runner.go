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
	"io/fs"
	"math"
	"os"
	"path/filepath"
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
	// AutoOutDir makes OutDir a base name: the run creates OutDir, or
	// OutDir-2, OutDir-3, ... whichever is free (two runs starting in the
	// same second get different folders). The folder used is run.OutDir.
	AutoOutDir bool
	// NoPreflight runs the cases the memory preflight refuses (with a
	// warning in results.json).
	NoPreflight bool
	// Reports is called once when the run ends, finished or not (after an
	// interrupt, or when results.json could not be saved), to write the
	// summary and plots; its error is logged and kept in the run's
	// warnings (results.json is saved again), and Run returns it when no
	// case failed. results.json itself is saved after every case.
	Reports func(run *results.Run) error
	// Machine, when set, replaces the detected machine in the preflight
	// (tests).
	Machine *Machine
	// SharedDevices: another plugin process searches on the same devices
	// between this run's searches (bfsbench ab); the plugins are told so
	// (sdk.Config.Shared).
	SharedDevices bool
}

// stageHook, when set (tests), is called as each stage of a run starts:
// "plan", "generate", "keys", "start", "construct", "search",
// "validate".
var stageHook func(stage string)

func stage(name string) {
	if stageHook != nil {
		stageHook(name)
	}
}

// saveFile writes results.json; tests replace it to fill the disk.
var saveFile = func(run *results.Run, path string) error { return run.Save(path) }

// Planned is one case of a config before it runs: a variant, one point of
// its parameter sweep and the plugin binary that runs it.
type Planned struct {
	variant *config.Variant
	path    string
	binary  *results.Binary // the plugin binary at path, read once per plugin
	params  map[string]any
	named   []string // the parameters that name it (config.Variant.NameParams)
}

// Variant is the config's variant the case belongs to.
func (p Planned) Variant() *config.Variant { return p.variant }

// Params are the case's parameter values, the plugin's defaults filled in.
func (p Planned) Params() map[string]any { return p.params }

// NameParams are the parameters that name the case, sorted: the swept ones
// and those that differ from its preset's.
func (p Planned) NameParams() []string { return p.named }

// Plan resolves every variant's plugin and parameter sweep before anything
// runs, so a config error costs nothing; the workloads' graph files are
// checked to be readable (config.Config.CheckFiles). The sweep's size is checked
// (config.Config.CheckCases) before it is expanded, and every limit a
// plugin declares (ranks, parameter bounds) is checked here, not at
// Construct.
func Plan(ctx context.Context, cfg *config.Config, dirs []string) ([]Planned, map[string]sdk.Info, error) {
	stage("plan")
	if err := cfg.CheckCases(); err != nil {
		return nil, nil, err
	}
	if err := cfg.CheckFiles(); err != nil {
		return nil, nil, err
	}
	infos := map[string]sdk.Info{}
	binaries := map[string]*results.Binary{}
	var out []Planned
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
			b, err := results.ReadBinary(path)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: variant %q: %w", cfg.Path, v.Line(), v.Name, err)
			}
			binaries[v.Plugin] = &b
		}
		if info.MaxRanks > 0 && v.Ranks > info.MaxRanks {
			return nil, nil, &config.Error{File: cfg.Path, Line: v.Line(), Key: fmt.Sprintf("variant %q ranks", v.Name),
				Msg: fmt.Sprintf("plugin %s runs on at most %d ranks, the variant asks for %d", info.Name, info.MaxRanks, v.Ranks)}
		}
		points, err := v.Points(info)
		if err != nil {
			return nil, nil, err
		}
		for _, pt := range points {
			for k, x := range pt {
				if f, ok := x.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
					return nil, nil, &config.Error{File: cfg.Path, Line: v.Line(), Key: fmt.Sprintf("variant %q params.%s", v.Name, k),
						Msg: fmt.Sprintf("plugin %s declares the default %v, not a finite number: set the parameter", info.Name, f)}
				}
			}
			named, err := v.NameParams(info, pt)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, Planned{variant: v, path: path, binary: binaries[v.Plugin], params: pt, named: named})
		}
	}
	return out, infos, nil
}

// Run executes the config and returns the run record; results.json in
// OutDir is rewritten after every case. The error is nil when every case
// validated, a *FailedError naming the failed cases, a *SaveError when
// results.json could not be written (the run stops there), the error of
// Options.Reports when only the summary or plots failed, or, with a nil
// run, the reason the run could not start (a config error, a
// *PreflightError, a missing plugin, an existing folder).
func Run(ctx context.Context, o Options) (*results.Run, error) {
	cfg := o.Config
	plan, infos, err := Plan(ctx, cfg, o.PluginDirs)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted before the run started: %w", err)
		}
		return nil, err
	}
	machine := DetectMachine()
	if o.Machine != nil {
		machine = *o.Machine
	}
	var warnings []string
	if w := shmWarning(); w != "" {
		warnings = append(warnings, w)
	}
	notes, err := Preflight(cfg, plan, infos, machine)
	warnings = append(warnings, notes...)
	if err != nil {
		if !o.NoPreflight {
			return nil, err
		}
		warnings = append(warnings, "run with --no-preflight: "+err.Error())
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted: %w", ctx.Err())
	}
	outDir, err := makeOutDir(o.OutDir, o.AutoOutDir)
	if err != nil {
		return nil, err
	}
	o.OutDir = outDir
	for _, d := range CleanStale() {
		fmt.Fprintf(o.Log, "bfsbench: removed %s, left by a run that died\n", d)
	}
	lockWarnings, lock := LockMachine(cfg, machine)
	defer lock.Release()
	warnings = append(warnings, lockWarnings...)
	for _, w := range warnings {
		fmt.Fprintf(o.Log, "bfsbench: warning: %s\n", w)
	}
	run := &results.Run{
		Config: cfg.Text, ConfigPath: cfg.Path, CommandLine: o.CommandLine,
		GitCommit: GitCommit(), Started: time.Now().UTC().Format(time.RFC3339), Env: DetectEnv(),
		Warnings: warnings, OutDir: outDir,
	}
	resultsPath := filepath.Join(outDir, "results.json")
	// Every case is listed from the start as skipped, so an interrupted
	// run still shows what it did not reach.
	type slot struct {
		wi  int // the workload's index: two workloads may be equal
		p   Planned
		rc  *results.Case
		idx int // in run.Cases
	}
	var slots []slot
	for wi, w := range cfg.Workloads {
		for _, p := range plan {
			if !p.variant.RunsAt(w) {
				continue
			}
			c := newCase(p, w)
			slots = append(slots, slot{wi, p, c, len(run.Cases)})
			run.Cases = append(run.Cases, c)
		}
	}
	if err := saveFile(run, resultsPath); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", resultsPath, err)
	}
	// Between two saves, each finished search goes to the journal, so a
	// run killed in the middle of a case keeps them (results.Load merges
	// it); it is emptied once results.json holds the case.
	journal, jerr := results.OpenJournal(resultsPath)
	if jerr == nil {
		defer journal.Close()
	} else {
		run.Warnings = append(run.Warnings, "finished searches are not journaled (a run killed mid-case loses that case's): "+jerr.Error())
		fmt.Fprintf(o.Log, "bfsbench: warning: %s\n", run.Warnings[len(run.Warnings)-1])
	}
	total := len(slots)
	done := 0
	var saveErr error
	for wi, w := range cfg.Workloads {
		if ctx.Err() != nil || saveErr != nil {
			break
		}
		fmt.Fprintf(o.Log, "workload %d/%d: %s, %d searches\n", wi+1, len(cfg.Workloads), w.Spec, w.NBFS)
		wl, err := Prepare(ctx, w, o.Log)
		if err == nil && w.Spec.File != "" && !o.NoPreflight {
			err = checkLoaded(wl.graph.NVertices, int64(len(wl.graph.Edges)), w, plan, infos, DetectMachine())
		}
		for _, s := range slots {
			if s.wi != wi || ctx.Err() != nil || saveErr != nil {
				continue
			}
			done++
			if err != nil {
				s.rc.Status, s.rc.Error = results.StatusFailed, "workload: "+err.Error()
			} else {
				o.runCase(ctx, s.p, wl, s.rc, outDir, fmt.Sprintf("[%d/%d]", done, total), machine, journalFunc(journal, run, s.idx, o.Log))
			}
			printCase(o.Log, s.rc)
			// Another run that started during the case: this run's
			// results say so too, not only the other's.
			for _, w := range lock.Check() {
				fmt.Fprintf(o.Log, "bfsbench: warning: %s\n", w)
				run.Warnings = append(run.Warnings, w)
			}
			if err := saveFile(run, resultsPath); err != nil {
				saveErr = err
			} else if journal != nil {
				if err := journal.Reset(); err != nil {
					journalWarning(run, o.Log, err)
					journal = nil
				}
			}
		}
		wl.Release()
	}
	for _, s := range slots {
		if s.rc.Status != results.StatusSkipped {
			continue
		}
		switch {
		case saveErr != nil:
			s.rc.Error = "not run: results.json could not be saved"
		case ctx.Err() != nil:
			s.rc.Error = "not run: interrupted"
		}
	}
	run.Finished = time.Now().UTC().Format(time.RFC3339)
	if saveErr == nil {
		saveErr = saveFile(run, resultsPath)
	}
	if saveErr == nil && journal != nil {
		// results.json holds every search and says the run finished.
		if err := journal.Remove(); err != nil {
			fmt.Fprintf(o.Log, "bfsbench: %v\n", err)
		}
	}
	if saveErr != nil {
		se := &SaveError{Path: resultsPath, Err: saveErr}
		run.Warnings = append(run.Warnings, "results.json could not be saved: "+saveErr.Error())
		o.reports(run)
		se.Fallback = filepath.Join(os.TempDir(), fmt.Sprintf("bfsbench-results-%s.json", time.Now().Format("20060102-150405.000000000")))
		if err := saveFile(run, se.Fallback); err != nil {
			se.Fallback, se.FallbackErr = "", err
		}
		return run, se
	}
	reportErr := o.reports(run)
	if reportErr != nil {
		// results.json says so too.
		if err := saveFile(run, resultsPath); err != nil {
			return run, errors.Join(reportErr, fmt.Errorf("saving %s again: %w", resultsPath, err))
		}
	}
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
	return run, reportErr
}

// journalFunc is what a case calls with each search it records: the
// search appended to the journal as case i of run; nil without a
// journal. A journal that fails is dropped with a warning.
func journalFunc(j *results.Journal, run *results.Run, i int, log io.Writer) func(results.Search) {
	if j == nil {
		return nil
	}
	variant := run.Cases[i].Variant
	failed := false
	return func(s results.Search) {
		if failed {
			return
		}
		if err := j.Append(i, variant, s); err != nil {
			failed = true
			journalWarning(run, log, err)
		}
	}
}

// journalWarning records that the journal failed.
func journalWarning(run *results.Run, log io.Writer, err error) {
	w := "finished searches are no longer journaled (a run killed mid-case loses that case's): " + err.Error()
	run.Warnings = append(run.Warnings, w)
	fmt.Fprintf(log, "bfsbench: warning: %s\n", w)
}

// reports calls Options.Reports; its error is logged, kept in the run's
// warnings and returned.
func (o Options) reports(run *results.Run) error {
	if o.Reports == nil {
		return nil
	}
	err := o.Reports(run)
	if err != nil {
		err = fmt.Errorf("writing the summary and plots: %w", err)
		fmt.Fprintf(o.Log, "bfsbench: %v\n", err)
		run.Warnings = append(run.Warnings, err.Error())
	}
	return err
}

// makeOutDir creates dir (which must not exist), or with auto the first
// free one of dir, dir-2, dir-3, ...; Mkdir makes the choice atomic.
func makeOutDir(dir string, auto bool) (string, error) {
	for i := 1; ; i++ {
		d := dir
		if i > 1 {
			d = fmt.Sprintf("%s-%d", dir, i)
		}
		err := os.Mkdir(d, 0o755)
		if err == nil {
			return d, nil
		}
		if !auto || !errors.Is(err, fs.ErrExist) || i >= 1000 {
			return "", fmt.Errorf("results folder: %w (an existing folder is never overwritten)", err)
		}
	}
}

// LockMachine takes the locks a run of cfg holds while it measures (the
// host's, and every GPU's when a case runs on CUDA), so that two bfsbench
// runs on one machine know of each other; it returns warnings (a lock
// another run holds) and the locks, whose Check tells of runs that start
// later and whose Release drops them.
func LockMachine(cfg *config.Config, m Machine) (warnings []string, lock *MachineLock) {
	return machineLocks(gpuLockNames(cfg, m))
}

// gpuLockNames names the GPUs a run takes a lock on: every GPU the machine
// shows, when a case runs on CUDA.
func gpuLockNames(cfg *config.Config, m Machine) []string {
	cuda := false
	for _, v := range cfg.Variants {
		cuda = cuda || v.Backend == sdk.BackendCUDA
	}
	if !cuda {
		return nil
	}
	var out []string
	for i := range m.GPUFree {
		out = append(out, fmt.Sprintf("gpu%d", i))
	}
	return out
}

// SaveError is a run that stopped because results.json could not be
// written. Fallback, when not empty, holds the whole run.
type SaveError struct {
	Path        string
	Err         error
	Fallback    string
	FallbackErr error
}

func (e *SaveError) Error() string {
	msg := fmt.Sprintf("saving %s failed: %v; the run stopped there and the file holds the cases finished before", e.Path, e.Err)
	if e.Fallback != "" {
		return msg + "; every finished case is saved in " + e.Fallback
	}
	return msg + fmt.Sprintf("; saving a copy in %s failed too: %v", os.TempDir(), e.FallbackErr)
}

// FailedError lists the cases that did not validate or did not finish.
type FailedError struct {
	Cases []string
	Total int
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("%d of %d cases failed: %s", len(e.Cases), e.Total, strings.Join(e.Cases, ", "))
}

func newCase(p Planned, w config.Workload) *results.Case {
	v := p.variant
	c := &results.Case{
		Variant: v.Name, Plugin: v.Plugin, Binary: p.binary, Backend: v.Backend, Params: p.params, NameParams: p.named,
		Ranks: v.Ranks, Grid: v.Grid, Launcher: v.Launcher, Status: results.StatusSkipped,
		Error: "not run (yet): a results.json saved while the run was going, or by a run that was killed",
		Graph: results.Graph{Scale: w.Spec.Scale, EdgeFactor: w.Spec.EdgeFactor, Seed: w.Spec.Seed, File: w.Spec.File},
		BFS:   []results.Search{},
	}
	return c
}

// Prepared is the harness's own copy of a workload: the edge list, the
// validator built from it and the search keys. Every case of the workload
// runs on it.
type Prepared struct {
	w         config.Workload
	graph     *workload.Graph
	validator *graph500.Validator
	// components counts the TEPS edges of searches the harness does not
	// validate; built only for a workload with validate = N.
	components *graph500.ComponentEdges
	keys       []int64
	genTimeS   float64
}

// Keys are the workload's search keys, in the order a case searches them.
func (p *Prepared) Keys() []int64 { return p.keys }

// Release drops the edge list and the validator; p cannot run cases after.
func (p *Prepared) Release() {
	if p != nil {
		p.graph, p.validator, p.components = nil, nil, nil
	}
}

// Prepare generates or loads a workload's edge list, picks its search keys
// and builds the validator (and, for validate = N, the component edge
// counts), logging each step to log.
func Prepare(ctx context.Context, w config.Workload, log io.Writer) (*Prepared, error) {
	if log == nil {
		log = io.Discard
	}
	t0 := time.Now()
	stage("generate")
	g, err := workload.LoadContext(ctx, w.Spec)
	if err != nil {
		return nil, err
	}
	gen := time.Since(t0).Seconds()
	fmt.Fprintf(log, "  edge list: %d vertices, %d edges, fingerprint %s (%.2fs)\n", g.NVertices, len(g.Edges), g.Info.Fingerprint, gen)
	stage("keys")
	set, err := graph500.NonIsolated(g.Edges, g.NVertices)
	if err != nil {
		return nil, err
	}
	keys, err := graph500.SearchKeysContext(ctx, set, g.NVertices, w.NBFS, w.Spec.Seed)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	v := graph500.NewValidator(g.Edges, g.NVertices)
	fmt.Fprintf(log, "  validator ready (%.2fs)\n", time.Since(t1).Seconds())
	var ce *graph500.ComponentEdges
	if w.Validate != config.ValidateAll {
		t2 := time.Now()
		ce = graph500.NewComponentEdges(g.Edges, g.NVertices)
		fmt.Fprintf(log, "  validating the first %d searches of each case; component edge counts ready (%.2fs)\n", w.Validate, time.Since(t2).Seconds())
	}
	return &Prepared{w: w, graph: g, validator: v, components: ce, keys: keys, genTimeS: gen}, nil
}

func printCase(w io.Writer, c *results.Case) {
	line := fmt.Sprintf("  %-24s %-5s %-4s %s", c.Variant, c.Backend, strings.ToUpper(c.Status), ParamString(c.Params, c.NamedParams()))
	if c.Stats != nil && c.Stats.N > 0 {
		line += fmt.Sprintf("  harmonic mean %.4g GTEPS over %d validated searches, construction %.3gs", c.Stats.HarmonicMeanTEPS/1e9, c.Stats.N, c.ConstructionTimeS)
		// Where a case's time goes beside its searches: validation is the
		// harness's own share (each search's validate_time_s).
		var validate float64
		for _, b := range c.BFS {
			validate += b.ValidateTimeS
		}
		line += fmt.Sprintf(", validation %.3gs", validate)
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
	if c.Cause != "" {
		line += "\n    cause: " + c.Cause
	}
	fmt.Fprintln(w, line)
}

// ParamString formats the parameters keys of p as "k=v k=v".
func ParamString(p map[string]any, keys []string) string {
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
