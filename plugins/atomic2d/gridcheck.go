package main

// gridcheck.go: `atomic2d gridcheck`, the one-call check of this variant on
// R×C grids of in-process ranks (harness/cuda/gpucheck runs one rank only).
// For each scale it generates the Graph500 graph once; for each grid it
// constructs the ranks once (the plugin's own rankVariant, held directly as
// sdk.NewDistributed's embedded launcher holds them) and runs every
// parameter set on that construction: one untimed warm-up, the timed
// searches, the first -validate of them validated with the harness's
// validator. It prints gpucheck's table and the mean phase breakdown; -json
// writes gpucheck's Report (results.Case records with per-level phases)
// after every grid. Ranks use GPU (world rank mod device count), so on a
// one-GPU machine several ranks share it; a case's gpus field is the number
// of distinct devices.
//
// Construction (the shared partition) is host work and dominates the wall
// time of large graphs; to fit a device lease, several gridcheck processes
// may construct at once and take turns for the timed part through -lock (an
// exclusive flock held around the bandwidth measurement and each case's
// searches), and -parallel-construct builds all grids of a scale at once.

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/cuda/gpucheck"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/plugins/atomic2d/bfs2d"
)

type gridOptions struct {
	backend           string
	grids             [][2]int
	scales            []int
	edgefactor        int
	roots             int
	validate          int
	sets              []gpucheck.ParamSet
	bwGBs             float64
	bwBytes           int64
	jsonPath          string
	plan              []planEntry
	lock              string
	parallelConstruct bool
	floorReps         int
}

// withLock runs f holding the -lock file's exclusive flock (or just runs it).
func withLock(o gridOptions, f func()) error {
	if o.lock == "" {
		f()
		return nil
	}
	fd, err := os.OpenFile(o.lock, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer fd.Close()
	if err := syscall.Flock(int(fd.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("flock %s: %w", o.lock, err)
	}
	defer syscall.Flock(int(fd.Fd()), syscall.LOCK_UN)
	f()
	return nil
}

func parseGridFlags(args []string, stderr io.Writer) (gridOptions, error) {
	var o gridOptions
	fs := flag.NewFlagSet("gridcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.backend, "backend", sdk.BackendCUDA, "backend: cpu or cuda")
	grids := fs.String("grids", "1x1", "comma-separated RxC processor grids")
	scales := fs.String("scales", "20", "comma-separated Graph500 scales")
	fs.IntVar(&o.edgefactor, "edgefactor", 16, "Graph500 edge factor")
	fs.IntVar(&o.roots, "roots", 64, "search keys per graph")
	fs.IntVar(&o.validate, "validate", -1, "searches validated per case (-1: all)")
	fs.Float64Var(&o.bwGBs, "bw", 0, "bandwidth of the bound in GB/s (0: measure device 0)")
	fs.Int64Var(&o.bwBytes, "bw-bytes", 2<<30, "buffer size of the bandwidth measurement")
	fs.StringVar(&o.jsonPath, "json", "", "write the report to this file")
	fs.Func("set", "a parameter set `label:name=value,...` (repeatable)", func(s string) error {
		ps, err := gpucheck.ParseParamSet(s)
		if err == nil {
			o.sets = append(o.sets, ps)
		}
		return err
	})
	fs.StringVar(&o.lock, "lock", "", "flock this file around the timed parts (processes sharing the GPUs take turns)")
	fs.BoolVar(&o.parallelConstruct, "parallel-construct", false, "construct all grids of a scale at once")
	fs.IntVar(&o.floorReps, "floor", 0, "after each case's searches, time the test floor of every rank with this many passes (0: not; CUDA only)")
	plan := fs.String("plan", "", "per-scale plan `SCALE:RxC,..:label,..;...` (default: every -scales × -grids × -set)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	var err error
	if o.grids, err = parseGrids(*grids); err != nil {
		return o, err
	}
	if o.scales, err = gpucheck.ParseScales(*scales, o.edgefactor); err != nil {
		return o, err
	}
	if len(o.sets) == 0 {
		o.sets = []gpucheck.ParamSet{{Label: "default", Params: map[string]any{}}}
	}
	for i, s := range o.sets {
		p, err := plugin{}.Info().CheckParams(s.Params)
		if err != nil {
			return o, fmt.Errorf("set %q: %w", s.Label, err)
		}
		o.sets[i].Params = p
	}
	if *plan != "" {
		o.plan, err = parsePlan(*plan, o)
		return o, err
	}
	for _, sc := range o.scales {
		o.plan = append(o.plan, planEntry{scale: sc, grids: o.grids, sets: o.sets})
	}
	return o, nil
}

// parseGrids reads "RxC,RxC".
func parseGrids(s string) ([][2]int, error) {
	var out [][2]int
	for _, g := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(g), "x")
		r, err1 := strconv.Atoi(a)
		c, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || r < 1 || c < 1 {
			return nil, fmt.Errorf("grid %q is not RxC", g)
		}
		out = append(out, [2]int{r, c})
	}
	return out, nil
}

func gridcheckMain(args []string, stdout, stderr io.Writer) int {
	o, err := parseGridFlags(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "gridcheck:", err)
		return 2
	}
	host, _ := os.Hostname()
	rep := &gpucheck.Report{Command: strings.Join(os.Args, " "), GitCommit: results.BuildCommit(), Started: time.Now().UTC().Format(time.RFC3339),
		Host: host, CPUs: runtime.NumCPU(), Plugin: "atomic2d", Backend: o.backend, BoundGBs: o.bwGBs, SelfTest: "not run"}
	if o.backend == sdk.BackendCUDA && o.bwGBs == 0 {
		lerr := withLock(o, func() {
			if bw, err := bfs2d.CopyBandwidth(0, o.bwBytes, 20); err != nil {
				fmt.Fprintln(stderr, "gridcheck: bandwidth:", err)
			} else {
				rep.Bandwidth, rep.BoundGBs = &bw, bw.CopyGBs
				fmt.Fprintf(stderr, "gridcheck: device copy bandwidth %.0f GB/s (read+write), read %.0f GB/s\n", bw.CopyGBs, bw.ReadGBs)
			}
			if rl, err := bfs2d.RandomLoadProfile(0, 5); err != nil {
				fmt.Fprintln(stderr, "gridcheck: random loads:", err)
			} else {
				rep.RandomLoads = rl
				fmt.Fprintln(stderr, "gridcheck:", cuda.FormatRandomLoads(rl))
			}
		})
		if lerr != nil {
			fmt.Fprintln(stderr, "gridcheck:", lerr)
			return 1
		}
	}
	for _, e := range o.plan {
		gridScale(o, e, rep, stderr)
	}
	writeReport(o, rep, stderr)
	gpucheck.PrintTable(stdout, rep)
	printPhases(stdout, rep)
	for _, c := range rep.Cases {
		if c.Status != results.StatusOK {
			return 1
		}
	}
	return 0
}

// planEntry is one scale of the plan: its grids and parameter sets.
type planEntry struct {
	scale int
	grids [][2]int
	sets  []gpucheck.ParamSet
}

// parsePlan reads "SCALE:RxC,RxC:label,label;..." (grids and labels
// optional: all -grids, all -set).
func parsePlan(s string, o gridOptions) ([]planEntry, error) {
	var out []planEntry
	for _, item := range strings.Split(s, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		f := strings.Split(item, ":")
		scale, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("-plan: %q: scale %q", item, f[0])
		}
		e := planEntry{scale: scale, grids: o.grids, sets: o.sets}
		if len(f) > 1 && f[1] != "" {
			if e.grids, err = parseGrids(f[1]); err != nil {
				return nil, err
			}
		}
		if len(f) > 2 && f[2] != "" {
			e.sets = nil
			for _, lab := range strings.Split(f[2], ",") {
				found := false
				for _, ps := range o.sets {
					if ps.Label == lab {
						e.sets, found = append(e.sets, ps), true
					}
				}
				if !found {
					return nil, fmt.Errorf("-plan: %q: no -set labelled %q", item, lab)
				}
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// localGrid is an R×C grid of in-process ranks held directly (as
// sdk.NewDistributed's embedded launcher holds them), so that one
// construction serves several parameter sets.
type localGrid struct {
	comms  []comm.Comm
	ranks  []*rankVariant
	broken bool
}

func newLocalGrid(backend string, grid [2]int, o options) (*localGrid, error) {
	n := grid[0] * grid[1]
	cfg := sdk.Config{Backend: backend, Ranks: n, Grid: grid, Launcher: sdk.LauncherEmbedded}
	comms, err := comm.NewLocal(n)
	if err != nil {
		return nil, err
	}
	g := &localGrid{comms: comms, ranks: make([]*rankVariant, n)}
	err = comm.RunRanks(comms, func(c comm.Comm) error {
		rv, err := newRankVariant(c, cfg, o)
		g.ranks[c.Rank()] = rv
		return err
	})
	if err != nil {
		g.broken = true
		g.close()
		return nil, err
	}
	return g, nil
}

func (g *localGrid) all(f func(r int, rv *rankVariant) error) error {
	if g.broken {
		return fmt.Errorf("the grid failed earlier")
	}
	err := comm.RunRanks(g.comms, func(c comm.Comm) error { return f(c.Rank(), g.ranks[c.Rank()]) })
	if err != nil {
		g.broken = true
	}
	return err
}

func (g *localGrid) close() {
	if !g.broken && g.all(func(_ int, rv *rankVariant) error { return rv.Close() }) == nil {
		return
	}
	for _, rv := range g.ranks { // after a failure, each on its own
		if rv != nil && rv.rank != nil {
			func() {
				defer func() { _ = recover() }()
				_ = rv.rank.Close()
			}()
		}
	}
}

// gridScale generates one graph and runs every grid × parameter set of the
// plan entry on it.
func gridScale(o gridOptions, e planEntry, rep *gpucheck.Report, log io.Writer) {
	seed := [2]uint64{2, 3}
	t0 := time.Now()
	edges := graph500.Generate(e.scale, o.edgefactor, seed)
	nv := graph500.NVertices(e.scale)
	g := results.Graph{Scale: e.scale, EdgeFactor: o.edgefactor, Seed: seed, NVertices: nv, NEdges: int64(len(edges))}
	keys, kerr := graph500.SearchKeys(edges, nv, o.roots, seed)
	fmt.Fprintf(log, "gridcheck: scale %d: %d edges in %.1f s\n", e.scale, len(edges), time.Since(t0).Seconds())
	val := graph500.NewValidator(edges, nv)
	refs := gpucheck.RootRefs{}
	type built struct {
		lg        *localGrid
		opts      []options
		construct float64
		err       error
	}
	builds := make([]built, len(e.grids))
	build := func(k int) {
		if kerr != nil {
			builds[k].err = fmt.Errorf("search keys: %w", kerr)
			return
		}
		t0 := time.Now()
		builds[k].lg, builds[k].opts, builds[k].err = constructGrid(o, e.grids[k], e.sets, edges, g)
		builds[k].construct = time.Since(t0).Seconds()
		if builds[k].err == nil {
			fmt.Fprintf(log, "gridcheck: scale %d %dx%d constructed in %.1f s\n", e.scale, e.grids[k][0], e.grids[k][1], builds[k].construct)
		}
	}
	if o.parallelConstruct {
		var wg sync.WaitGroup
		for k := range e.grids {
			wg.Add(1)
			go func() { defer wg.Done(); build(k) }()
		}
		wg.Wait()
	}
	for k, grid := range e.grids {
		if !o.parallelConstruct {
			build(k)
		}
		var cases []*results.Case
		for _, s := range e.sets {
			cases = append(cases, &results.Case{Variant: fmt.Sprintf("%s %dx%d", s.Label, grid[0], grid[1]), Plugin: "atomic2d",
				Backend: o.backend, Params: s.Params, Ranks: grid[0] * grid[1], Grid: grid, Launcher: sdk.LauncherEmbedded,
				Graph: g, Info: map[string]any{}})
		}
		b := builds[k]
		if b.err != nil {
			for _, c := range cases {
				c.Status, c.Error = results.StatusFailed, b.err.Error()
			}
		} else if err := withLock(o, func() { gridCases(o, b.lg, b.opts, b.construct, cases, edges, keys, val, refs) }); err != nil {
			for _, c := range cases {
				c.Status, c.Error = results.StatusFailed, err.Error()
			}
		}
		if b.lg != nil {
			b.lg.close()
			builds[k].lg = nil
		}
		for _, c := range cases {
			finishGridCase(c, rep.BoundGBs)
			rep.Cases = append(rep.Cases, c)
			fmt.Fprintf(log, "gridcheck: %s scale %d: %s %s (%v GTEPS, %.1f%% of bound, construct %.1f s)\n", c.Variant, e.scale,
				c.Status, firstLine(c.Error), c.Info["hmean_gteps"], 100*infoF(c.Info, "bound_fraction"), c.ConstructionTimeS)
		}
		writeReport(o, rep, log)
		runtime.GC()
		debug.FreeOSMemory()
	}
}

// constructGrid parses the sets' options and constructs the grid's ranks
// with the first set's.
func constructGrid(o gridOptions, grid [2]int, sets []gpucheck.ParamSet, edges []graph500.Edge, g results.Graph) (*localGrid, []options, error) {
	opts := make([]options, len(sets))
	for i, s := range sets {
		var err error
		if opts[i], err = parseOptions(sdk.Config{Params: s.Params}); err != nil {
			return nil, nil, fmt.Errorf("set %q: %w", s.Label, err)
		}
	}
	lg, err := newLocalGrid(o.backend, grid, opts[0])
	if err != nil {
		return nil, nil, err
	}
	p := grid[0] * grid[1]
	err = lg.all(func(r int, rv *rankVariant) error {
		lo, hi := sdk.EdgeShare(int64(len(edges)), r, p)
		return rv.Construct(&sdk.Workload{NVertices: g.NVertices, NEdges: int64(len(edges)), Edges: edges[lo:hi], EdgeOffset: lo, Graph: g})
	})
	if err != nil {
		lg.close()
		return nil, nil, fmt.Errorf("construct: %w", err)
	}
	return lg, opts, nil
}

// gridCases runs each parameter set on a constructed grid.
func gridCases(o gridOptions, lg *localGrid, opts []options, construct float64, cases []*results.Case, edges []graph500.Edge,
	keys []int64, val *graph500.Validator, refs gpucheck.RootRefs) {
	var devices []string
	for _, rv := range lg.ranks {
		devices = appendNew(devices, rv.Devices()...)
	}
	for i, c := range cases {
		c.ConstructionTimeS = construct
		c.Devices, c.GPUs = devices, len(devices)
		for k, x := range lg.ranks[0].CaseInfo() {
			c.Info[k] = x
		}
		if err := lg.all(func(_ int, rv *rankVariant) error { return rv.setOptions(opts[i]) }); err != nil {
			c.Status, c.Error = results.StatusFailed, "options: "+err.Error()
			return
		}
		if !runSearches(o, lg, c, edges, keys, val, refs) {
			for _, d := range cases[i+1:] {
				d.Status, d.Error = results.StatusFailed, "an earlier case on this grid failed"
			}
			return
		}
		if o.floorReps > 0 {
			testFloor(o, lg, c)
		}
	}
}

// testFloor times every rank's test floor (bfs2d.Rank.TestFloor), one rank
// at a time, and records the slowest rank's median milliseconds per mode
// in c.Info["test_floor_ms"]. A failure is recorded as
// c.Info["test_floor_error"]; it does not fail the case, whose searches
// are done.
func testFloor(o gridOptions, lg *localGrid, c *results.Case) {
	ms := map[string]float64{}
	for _, mode := range []bfs2d.FloorMode{bfs2d.FloorStream, bfs2d.FloorThread, bfs2d.FloorWarp} {
		for r, rv := range lg.ranks {
			t, _, err := rv.rank.TestFloor(mode, o.floorReps)
			if err != nil {
				c.Info["test_floor_error"] = fmt.Sprintf("rank %d, %s: %v", r, mode, err)
				return
			}
			ms[mode.String()] = max(ms[mode.String()], t)
		}
	}
	c.Info["test_floor_ms"] = ms
}

func appendNew(xs []string, ys ...string) []string {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}

// runSearches runs the warm-up and the timed searches of one case
// (gpucheck.RunSearches, on every rank at once); it returns false when the
// grid failed (it cannot be used again).
func runSearches(o gridOptions, lg *localGrid, c *results.Case, edges []graph500.Edge, keys []int64,
	val *graph500.Validator, refs gpucheck.RootRefs) bool {
	bfs := func(root int64) (sdk.Search, error) {
		var res bfs2d.SearchResult
		err := lg.all(func(r int, rv *rankVariant) error {
			x, err := rv.rank.BFS(root)
			if r == 0 {
				res = x
			}
			return err
		})
		// TimeS 0: RunSearches times the call, all ranks included.
		return sdk.Search{Levels: res.Levels, Phases: res.Phases, BoundBytes: lg.ranks[0].searchBoundBytes()}, err
	}
	parents := func(dst []int64) error {
		return lg.all(func(r int, rv *rankVariant) error {
			if r == 0 {
				return rv.Parents(dst)
			}
			return rv.Parents(nil)
		})
	}
	return gpucheck.RunSearches(c, keys, o.validate, val, edges, refs, bfs, parents)
}

func writeReport(o gridOptions, rep *gpucheck.Report, log io.Writer) {
	if o.jsonPath == "" {
		return
	}
	rep.Finished = time.Now().UTC().Format(time.RFC3339)
	b, err := json.MarshalIndent(rep, "", " ")
	if err == nil {
		err = results.WriteFileAtomic(o.jsonPath, append(b, '\n'))
	}
	if err != nil {
		fmt.Fprintln(log, "gridcheck: writing report:", err)
	}
}

func infoF(m map[string]any, k string) float64 {
	x, _ := m[k].(float64)
	return x
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// finishGridCase computes the Graph500 statistics over validated searches,
// the harmonic mean over all searches, the fraction of the bandwidth bound
// (results.PercentOfBound over the validated searches, each reporting
// bytes_fixed_per_bfs as its BoundBytes) and the phase totals.
func finishGridCase(c *results.Case, gbs float64) {
	c.Stats = graph500.ComputeStats(c.BFS)
	var teps []float64
	phase := map[string]float64{}
	bytes := map[string]int64{}
	valid := 0
	for _, s := range c.BFS {
		if s.Valid {
			valid++
		}
		if s.NEdge > 0 && s.TimeS > 0 {
			teps = append(teps, float64(s.NEdge)/s.TimeS)
		}
		for _, ph := range s.Phases {
			for k, t := range ph.Times {
				phase[k] += t / float64(len(c.BFS))
			}
			for k, b := range ph.Bytes {
				bytes[k] += b / int64(len(c.BFS))
			}
		}
	}
	c.Info["searches"], c.Info["validated_ok"] = len(c.BFS), valid
	c.Info["valid"], c.Info["validated"] = valid, countValidated(c.BFS)
	if len(teps) > 0 {
		hm, _ := graph500.HarmonicMean(teps)
		c.Info["hmean_teps_all"] = hm
		c.Info["hmean_gteps"] = fmt.Sprintf("%.3f", hm/1e9)
	}
	c.Info["mean_phase_s"] = phase
	c.Info["mean_bytes_sent"] = bytes
	if pct := results.PercentOfBound(c.BFS, gbs, c.GPUs); pct > 0 {
		c.Info["bound_fraction"] = pct / 100
		c.Info["bound_gbs"] = gbs
	}
}

func countValidated(ss []results.Search) int {
	n := 0
	for _, s := range ss {
		if s.Valid || s.ValidateTimeS > 0 {
			n++
		}
	}
	return n
}

// printPhases prints each case's mean per-search phase times and bytes.
func printPhases(w io.Writer, rep *gpucheck.Report) {
	fmt.Fprintln(w, "mean per search: expand_exchange expansion fold_exchange update predecessors (ms) | bytes expand fold pred | predecessors: queries exchange lookup finalize (ms)")
	for _, c := range rep.Cases {
		ph, _ := c.Info["mean_phase_s"].(map[string]float64)
		by, _ := c.Info["mean_bytes_sent"].(map[string]int64)
		pred := 0.0
		for _, p := range bfs2d.PredPhases {
			pred += ph[p]
		}
		fmt.Fprintf(w, "%-22s scale %2d gpus %d: %8.3f %8.3f %8.3f %8.3f %8.3f | %d %d %d | %.3f %.3f %.3f %.3f\n", c.Variant, c.Graph.Scale, c.GPUs,
			1e3*ph[bfs2d.PhaseExpandExchange], 1e3*ph[bfs2d.PhaseExpansion], 1e3*ph[bfs2d.PhaseFoldExchange],
			1e3*ph[bfs2d.PhaseUpdate], 1e3*pred, by[bfs2d.BytesExpand], by[bfs2d.BytesFold], by[bfs2d.BytesPred],
			1e3*ph[bfs2d.PhasePredQueries], 1e3*ph[bfs2d.PhasePredExchange], 1e3*ph[bfs2d.PhasePredLookup], 1e3*ph[bfs2d.PhasePredFinalize])
	}
	printFloors(w, rep)
}

// printFloors prints, for the cases with a test floor (-floor), the
// floor's passes beside the mean expansion time and the byte bound of a
// search (bytes_fixed_per_bfs at the bound's bandwidth, over the case's
// GPUs), all in ms.
func printFloors(w io.Writer, rep *gpucheck.Report) {
	header := false
	for _, c := range rep.Cases {
		f, ok := c.Info["test_floor_ms"].(map[string]float64)
		if !ok {
			continue
		}
		if !header {
			fmt.Fprintln(w, "test floor per search (ms): stream thread warp | expansion | byte bound")
			header = true
		}
		ph, _ := c.Info["mean_phase_s"].(map[string]float64)
		bound := 0.0
		if b, ok := c.Info["bytes_fixed_per_bfs"].(int64); ok && rep.BoundGBs > 0 && c.GPUs > 0 {
			bound = 1e3 * float64(b) / (rep.BoundGBs * 1e9 * float64(c.GPUs))
		}
		fmt.Fprintf(w, "%-22s scale %2d: %8.3f %8.3f %8.3f | %8.3f | %8.3f\n", c.Variant, c.Graph.Scale,
			f["stream"], f["thread"], f["warp"], 1e3*ph[bfs2d.PhaseExpansion], bound)
	}
}
