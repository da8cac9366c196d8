// Package gpucheck runs a variant in-process, without the harness's
// plugin transport, on generated Graph500 graphs: it measures the device's
// bandwidth, runs the shared device primitives' self-test, then for each
// scale and parameter set constructs the variant, runs the Graph500 searches
// (one untimed warm-up first), validates them with the harness's validator
// and prints a table of harmonic-mean GTEPS and the fraction of the
// variant's bandwidth bound. It is the GPU machine's one-call check
// (scripts/gpu-check.sh) and works for any sdk.Plugin:
//
//	func main() {
//		if len(os.Args) > 1 && os.Args[1] == "gpucheck" {
//			os.Exit(gpucheck.Main(plugin{}, os.Args[2:], os.Stdout, os.Stderr))
//		}
//		sdk.Serve(plugin{})
//	}
//
// Validation of very large graphs costs more than the searches, so -validate
// K validates only the first K searches of a case. The TEPS edge count of a
// root does not depend on the variant: a search that is not validated takes
// its count from an earlier search of the same root on the same graph (a
// validated one when there is one), and is flagged invalid if its number of
// levels differs from that search's. The Graph500 statistics (Stats) are
// over validated searches only; Info["hmean_teps_all"] covers every search.
//
// The bandwidth bound of a search is the bytes the variant says it must
// move (the sum of its LevelPhase Bytes plus Info["bytes_fixed_per_bfs"])
// over the measured device copy bandwidth; a case's fraction of the bound is
// the sum of those times over the sum of the measured times.
package gpucheck

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// ParamSet is one labelled set of variant parameters.
type ParamSet struct {
	Label  string
	Params map[string]any
}

// Options are Main's flags.
type Options struct {
	Backend    string
	Scales     []int
	EdgeFactor int
	Seed       [2]uint64
	Roots      int
	Validate   int // searches validated per case; < 0 means all
	Sets       []ParamSet
	BWBytes    int64   // buffer size of the bandwidth measurement
	BWReps     int     // its repetitions
	BWGBs      float64 // > 0: use this bandwidth instead of measuring
	JSON       string  // where to write the report; "" for none
	Device     int
}

// Report is what -json writes.
type Report struct {
	Command string `json:"command"`
	// GitCommit is the commit the binary was built from
	// (results.BuildCommit): "" when it was built without -buildvcs.
	GitCommit string          `json:"git_commit,omitempty"`
	Started   string          `json:"started"`
	Finished  string          `json:"finished"`
	Host      string          `json:"host"`
	CPUs      int             `json:"cpus"`
	Plugin    string          `json:"plugin"`
	Backend   string          `json:"backend"`
	Device    *cuda.Device    `json:"device,omitempty"`
	Bandwidth *cuda.Bandwidth `json:"bandwidth,omitempty"`
	// BoundGBs is the bandwidth the bound uses (the measured copy
	// bandwidth, or -bw).
	BoundGBs float64 `json:"bound_gbs"`
	// RandomLoads is the device's random-load rate (cuda.RandomLoadProfile),
	// the ceiling of the random accesses per edge.
	RandomLoads []cuda.RandomLoad `json:"random_loads,omitempty"`
	SelfTest    string            `json:"selftest"` // "ok", the error, or "not run"
	Cases       []*results.Case   `json:"cases"`
}

// Main parses args, runs the check and prints the table to stdout
// (progress to stderr). It returns the exit status: 0 when every case ran
// and every validated search was valid, 1 otherwise, 2 for bad flags.
func Main(p sdk.Plugin, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "gpucheck:", err)
		return 2
	}
	rep, err := Run(p, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "gpucheck:", err)
		return 1
	}
	rep.Command = strings.Join(os.Args, " ")
	if o.JSON != "" {
		b, err := json.MarshalIndent(rep, "", " ")
		if err == nil {
			err = results.WriteFileAtomic(o.JSON, append(b, '\n'))
		}
		if err != nil {
			fmt.Fprintln(stderr, "gpucheck: writing report:", err)
			return 1
		}
	}
	PrintTable(stdout, rep)
	for _, c := range rep.Cases {
		if c.Status != results.StatusOK {
			return 1
		}
	}
	if rep.SelfTest != "ok" && rep.SelfTest != "not run" {
		return 1
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (Options, error) {
	o := Options{Seed: [2]uint64{2, 3}}
	fs := flag.NewFlagSet("gpucheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.Backend, "backend", sdk.BackendCUDA, "backend: cpu or cuda")
	scales := fs.String("scales", "16,20,24", "comma-separated Graph500 scales")
	fs.IntVar(&o.EdgeFactor, "edgefactor", 16, "Graph500 edge factor")
	fs.IntVar(&o.Roots, "roots", 64, "search keys per graph")
	fs.IntVar(&o.Validate, "validate", -1, "searches validated per case (-1: all)")
	fs.Int64Var(&o.BWBytes, "bw-bytes", 2<<30, "buffer size of the bandwidth measurement")
	fs.IntVar(&o.BWReps, "bw-reps", 20, "repetitions of the bandwidth measurement")
	fs.Float64Var(&o.BWGBs, "bw", 0, "bandwidth for the bound in GB/s (0: measure)")
	fs.StringVar(&o.JSON, "json", "", "write the report (results.Case records) to this file")
	fs.IntVar(&o.Device, "device", 0, "CUDA device of the bandwidth measurement")
	fs.Func("set", "a parameter set, `label:name=value,name=value` (repeatable; default: one set of defaults)", func(s string) error {
		ps, err := ParseParamSet(s)
		if err == nil {
			o.Sets = append(o.Sets, ps)
		}
		return err
	})
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	scaleList, err := ParseScales(*scales, o.EdgeFactor)
	if err != nil {
		return o, err
	}
	o.Scales = scaleList
	if o.Roots < 1 {
		return o, fmt.Errorf("-roots %d, want >= 1", o.Roots)
	}
	if len(o.Sets) == 0 {
		o.Sets = []ParamSet{{Label: "default", Params: map[string]any{}}}
	}
	return o, nil
}

// ParseScales parses a -scales flag: comma-separated Graph500 scales, each
// checked with edgefactor.
func ParseScales(list string, edgefactor int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		s, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("-scales: %q is not an integer", f)
		}
		if err := graph500.CheckParams(s, edgefactor); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// ParseParamSet parses "label:name=value,name=value" (the label and the
// list are both optional). Values "true" and "false" become bools, integers
// int64, other numbers float64, anything else a string.
func ParseParamSet(s string) (ParamSet, error) {
	ps := ParamSet{Params: map[string]any{}}
	label, list, found := strings.Cut(s, ":")
	if !found {
		label, list = "", s
	}
	ps.Label = strings.TrimSpace(label)
	for _, kv := range strings.Split(list, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return ps, fmt.Errorf("parameter %q: want name=value", kv)
		}
		ps.Params[strings.TrimSpace(k)] = parseValue(strings.TrimSpace(v))
	}
	if ps.Label == "" {
		ps.Label = strings.TrimSpace(list)
		if ps.Label == "" {
			ps.Label = "default"
		}
	}
	return ps, nil
}

func parseValue(v string) any {
	switch v {
	case "true":
		return true
	case "false":
		return false
	}
	if i, err := strconv.ParseInt(v, 0, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
}

// Run measures the device (for the cuda backend), then runs every scale ×
// parameter set. A case that fails is recorded and the run goes on.
func Run(p sdk.Plugin, o Options, log io.Writer) (*Report, error) {
	info := p.Info()
	host, _ := os.Hostname()
	rep := &Report{GitCommit: results.BuildCommit(), Started: time.Now().UTC().Format(time.RFC3339), Host: host, CPUs: runtime.NumCPU(),
		Plugin: info.Name, Backend: o.Backend, BoundGBs: o.BWGBs, SelfTest: "not run"}
	sets := make([]ParamSet, len(o.Sets))
	for i, s := range o.Sets {
		params, err := info.CheckParams(s.Params)
		if err != nil {
			return nil, fmt.Errorf("set %q: %w", s.Label, err)
		}
		sets[i] = ParamSet{Label: s.Label, Params: params}
	}
	if o.Backend == sdk.BackendCUDA {
		measureDevice(rep, info.Name, o, log)
	}
	for _, scale := range o.Scales {
		runScale(p, o, sets, scale, rep, log)
	}
	rep.Finished = time.Now().UTC().Format(time.RFC3339)
	return rep, nil
}

// measureDevice fills the report's device, self-test and bandwidth through
// the variant's own library. Failures are logged: the cases then fail with
// their own messages.
func measureDevice(rep *Report, name string, o Options, log io.Writer) {
	lib, err := cuda.Open(name)
	if err != nil {
		rep.SelfTest = err.Error()
		fmt.Fprintln(log, "gpucheck:", err)
		return
	}
	dev, err := lib.Device(o.Device)
	if err != nil {
		rep.SelfTest = err.Error()
		fmt.Fprintln(log, "gpucheck:", err)
		return
	}
	dev.Library = filepath.Base(dev.Library) // reports carry no machine paths
	rep.Device = &dev
	fmt.Fprintf(log, "gpucheck: %s, driver %d, runtime %d, L2 %.0f MiB\n", dev, dev.DriverVersion, dev.RuntimeVersion, float64(dev.L2Bytes)/(1<<20))
	if err := lib.SelfTest(o.Device, 1<<22); err != nil {
		rep.SelfTest = err.Error()
	} else {
		rep.SelfTest = "ok"
	}
	fmt.Fprintln(log, "gpucheck: primitives self-test:", rep.SelfTest)
	if rl, err := lib.RandomLoadProfile(o.Device, 5); err != nil {
		fmt.Fprintln(log, "gpucheck: random loads:", err)
	} else {
		rep.RandomLoads = rl
		fmt.Fprintln(log, "gpucheck:", cuda.FormatRandomLoads(rl))
	}
	if o.BWGBs > 0 {
		return
	}
	bw, err := lib.CopyBandwidth(o.Device, o.BWBytes, o.BWReps)
	if err != nil {
		fmt.Fprintln(log, "gpucheck: bandwidth:", err)
		return
	}
	rep.Bandwidth = &bw
	rep.BoundGBs = bw.CopyGBs
	fmt.Fprintf(log, "gpucheck: bandwidth (2 x %.1f GiB, median of %d): copy %.0f GB/s (read+write), read %.0f GB/s\n",
		cuda.GiB(bw.Bytes), bw.Reps, bw.CopyGBs, bw.ReadGBs)
}

// rootRef is what one search established about a root, for later cases.
type rootRef struct {
	NEdge     int64
	Levels    int
	Validated bool
}

// RootRefs holds what the searches of earlier cases on one graph
// established about each root: a later unvalidated search of the root takes
// its TEPS edge count from there, and must reach the same number of levels.
type RootRefs map[int64]rootRef

// runScale generates one graph and runs every parameter set on it.
func runScale(p sdk.Plugin, o Options, sets []ParamSet, scale int, rep *Report, log io.Writer) {
	t0 := time.Now()
	edges := graph500.Generate(scale, o.EdgeFactor, o.Seed)
	nv := graph500.NVertices(scale)
	g := results.Graph{Scale: scale, EdgeFactor: o.EdgeFactor, Seed: o.Seed, NVertices: nv, NEdges: int64(len(edges))}
	keys, err := graph500.SearchKeys(edges, nv, o.Roots, o.Seed)
	fmt.Fprintf(log, "gpucheck: scale %d: %d edges generated in %.1f s\n", scale, len(edges), time.Since(t0).Seconds())
	if err != nil {
		for _, s := range sets {
			rep.Cases = append(rep.Cases, failedCase(p, o, s, g, fmt.Errorf("search keys: %w", err)))
		}
		return
	}
	val := graph500.NewValidator(edges, nv)
	refs := RootRefs{}
	for _, s := range sets {
		c := runCase(p, o, s, g, edges, keys, val, refs, log)
		finishCase(c, rep.BoundGBs)
		rep.Cases = append(rep.Cases, c)
		fmt.Fprintf(log, "gpucheck: %s\n", caseLine(c))
	}
}

func newCase(p sdk.Plugin, o Options, s ParamSet, g results.Graph) *results.Case {
	return &results.Case{Variant: s.Label, Plugin: p.Info().Name, Backend: o.Backend, Params: s.Params,
		Ranks: 1, Launcher: "embedded", Graph: g, Info: map[string]any{}}
}

func failedCase(p sdk.Plugin, o Options, s ParamSet, g results.Graph, err error) *results.Case {
	c := newCase(p, o, s, g)
	c.Status, c.Error = results.StatusFailed, err.Error()
	return c
}

// runCase constructs the variant and runs the searches; a panic in the
// variant fails the case, as the SDK would.
func runCase(p sdk.Plugin, o Options, s ParamSet, g results.Graph, edges []graph500.Edge, keys []int64,
	val *graph500.Validator, refs RootRefs, log io.Writer) (c *results.Case) {
	c = newCase(p, o, s, g)
	defer func() {
		if r := recover(); r != nil {
			c.Status, c.Error = results.StatusFailed, fmt.Sprintf("panic: %v", r)
		}
	}()
	v, err := p.New(sdk.Config{Backend: o.Backend, Params: s.Params, Ranks: 1, Launcher: "embedded"})
	if err != nil {
		c.Status, c.Error = results.StatusFailed, err.Error()
		return c
	}
	defer v.Close()
	w := &sdk.Workload{NVertices: g.NVertices, NEdges: g.NEdges, Edges: edges, Graph: g}
	t0 := time.Now()
	if err := v.Construct(w); err != nil {
		c.Status, c.Error = results.StatusFailed, "construct: "+err.Error()
		return c
	}
	c.ConstructionTimeS = time.Since(t0).Seconds()
	if d, ok := v.(sdk.Devicer); ok {
		c.Devices = d.Devices()
		c.GPUs = len(c.Devices)
	}
	if in, ok := v.(sdk.Informer); ok {
		for k, x := range in.CaseInfo() {
			c.Info[k] = x
		}
	}
	RunSearches(c, keys, o.Validate, val, edges, refs, v.BFS, v.Parents)
	return c
}

// RunSearches runs one case's untimed warm-up search from keys[0], then a
// timed search from every key, appending each to c.BFS: bfs searches (a
// search whose TimeS is 0 gets its wall time) and parents copies the last
// search's parents into a buffer of c.Graph.NVertices. The first validate
// searches (every one when validate < 0) are checked by val, and their
// reported level count against the tree's; the others take the edge count
// of an earlier validated or counted search of the same root (refs), or
// count it from their own parents. A failed bfs or parents call fails c and
// returns false (the variant may be unusable); an invalid search marks c
// invalid and the others still run.
func RunSearches(c *results.Case, keys []int64, validate int, val *graph500.Validator, edges []graph500.Edge,
	refs RootRefs, bfs func(root int64) (sdk.Search, error), parents func(dst []int64) error) bool {
	if _, err := bfs(keys[0]); err != nil {
		c.Status, c.Error = results.StatusFailed, fmt.Sprintf("warm-up bfs from %d: %v", keys[0], err)
		return false
	}
	buf := make([]int64, c.Graph.NVertices)
	c.Status = results.StatusOK
	for i, root := range keys {
		t := time.Now()
		res, err := bfs(root)
		wall := time.Since(t).Seconds()
		if err != nil {
			c.Status, c.Error = results.StatusFailed, fmt.Sprintf("bfs from %d: %v", root, err)
			return false
		}
		sr := results.Search{Root: root, TimeS: res.TimeS, Levels: res.Levels, Phases: res.Phases, BoundBytes: res.BoundBytes}
		if sr.TimeS <= 0 {
			sr.TimeS = wall
		}
		check := validate < 0 || i < validate
		ref, known := refs[root]
		if check || !known {
			t = time.Now()
			if err := parents(buf); err != nil {
				c.Status, c.Error = results.StatusFailed, fmt.Sprintf("parents of %d: %v", root, err)
				return false
			}
			sr.TransferTimeS = time.Since(t).Seconds()
		}
		switch {
		case check:
			t = time.Now()
			vr, err := val.Validate(root, buf)
			sr.ValidateTimeS = time.Since(t).Seconds()
			switch {
			case err != nil:
				sr.Error = err.Error()
				c.Status = results.StatusInvalid
			case res.Levels != 0 && vr.Levels != res.Levels:
				sr.Error = fmt.Sprintf("valid tree of %d levels, but the search reported %d", vr.Levels, res.Levels)
				c.Status = results.StatusInvalid
			default:
				sr.Valid, sr.NEdge = true, vr.NEdge
				sr.TEPS = float64(vr.NEdge) / sr.TimeS
				refs[root] = rootRef{NEdge: vr.NEdge, Levels: vr.Levels, Validated: true}
			}
		case known:
			sr.NEdge = ref.NEdge
			sr.Error = "not validated: edge count taken from an earlier search of this root"
			if res.Levels != 0 && ref.Levels != 0 && res.Levels != ref.Levels {
				sr.Error = fmt.Sprintf("not validated, and %d levels where an earlier search of this root had %d", res.Levels, ref.Levels)
				c.Status = results.StatusInvalid
			}
		default:
			sr.NEdge = CountEdges(edges, buf)
			sr.Error = "not validated: edge count from its own parents"
			refs[root] = rootRef{NEdge: sr.NEdge, Levels: res.Levels}
		}
		c.BFS = append(c.BFS, sr)
	}
	return true
}

// CountEdges is the Graph500 v3 TEPS edge count of a search: the input
// tuples, self-loops excluded, whose ends were both reached (parent >= 0).
func CountEdges(edges []graph500.Edge, parents []int64) int64 {
	var total atomic.Int64
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	n := int64(len(edges))
	for w := range workers {
		lo, hi := n*int64(w)/int64(workers), n*int64(w+1)/int64(workers)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cnt int64
			for _, e := range edges[lo:hi] {
				if e.V0 != e.V1 && parents[e.V0] >= 0 && parents[e.V1] >= 0 {
					cnt++
				}
			}
			total.Add(cnt)
		}()
	}
	wg.Wait()
	return total.Load()
}

// finishCase computes the statistics, the all-search harmonic mean and the
// fraction of the bandwidth bound (results.PercentOfBound over the validated
// searches, from the bytes each search reports).
func finishCase(c *results.Case, boundGBs float64) {
	c.Stats = graph500.ComputeStats(c.BFS)
	var teps []float64
	validated, validOK := 0, 0
	for _, s := range c.BFS {
		if s.ValidateTimeS > 0 || s.Valid {
			validated++
		}
		if s.Valid {
			validOK++
		}
		if s.NEdge > 0 && s.TimeS > 0 && (s.Valid || !strings.HasPrefix(s.Error, "not validated, and")) {
			teps = append(teps, float64(s.NEdge)/s.TimeS)
		}
	}
	c.Info["searches"] = len(c.BFS)
	c.Info["validated"] = validated
	c.Info["valid"] = validOK
	if len(teps) > 0 {
		hm, _ := graph500.HarmonicMean(teps)
		c.Info["hmean_teps_all"] = hm
	}
	if pct := results.PercentOfBound(c.BFS, boundGBs, c.GPUs); pct > 0 {
		c.Info["bound_fraction"] = pct / 100
		c.Info["bound_gbs"] = boundGBs
	}
}

func infoInt(m map[string]any, k string) int64 {
	switch x := m[k].(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}

func infoFloat(m map[string]any, k string) (float64, bool) {
	x, ok := m[k].(float64)
	return x, ok
}

// caseLine is the one-line progress report of a case.
func caseLine(c *results.Case) string {
	s := fmt.Sprintf("%s scale %d %s: %s", c.Variant, c.Graph.Scale, c.Backend, c.Status)
	if c.Error != "" {
		s += ": " + c.Error
	}
	if hm, ok := infoFloat(c.Info, "hmean_teps_all"); ok {
		s += fmt.Sprintf(", %.3f GTEPS", hm/1e9)
	}
	if f, ok := infoFloat(c.Info, "bound_fraction"); ok {
		s += fmt.Sprintf(", %.1f%% of bound", 100*f)
	}
	return s + fmt.Sprintf(", construct %.2f s", c.ConstructionTimeS)
}

// PrintTable writes the summary table: variant label, scale, harmonic-mean
// GTEPS and median search time (of the validated searches, with those of
// all searches in parentheses when some were not validated), % of the
// bandwidth bound, validity and mean iterations.
func PrintTable(w io.Writer, rep *Report) {
	if rep.Device != nil {
		fmt.Fprintf(w, "device: %s\n", rep.Device)
	}
	if rep.BoundGBs > 0 {
		fmt.Fprintf(w, "bound bandwidth: %.0f GB/s (device copy, read+write)\n", rep.BoundGBs)
	}
	fmt.Fprintf(w, "primitives self-test: %s\n", rep.SelfTest)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "variant\tplugin\tbackend\tscale\tGTEPS(hmean)\t% bound\tvalid\tlevels\tmedian ms\tstatus\t")
	cases := append([]*results.Case(nil), rep.Cases...)
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].Graph.Scale < cases[j].Graph.Scale })
	for _, c := range cases {
		gteps, bound, levels, med := "-", "-", "-", "-"
		if c.Stats != nil {
			gteps = fmt.Sprintf("%.3f", c.Stats.HarmonicMeanTEPS/1e9)
			med = fmt.Sprintf("%.3f", c.Stats.Time.Median*1e3)
		}
		if hm, ok := infoFloat(c.Info, "hmean_teps_all"); ok && infoInt(c.Info, "validated") < int64(len(c.BFS)) {
			gteps += fmt.Sprintf(" (all %.3f)", hm/1e9)
			med += fmt.Sprintf(" (all %.3f)", medianTime(c.BFS)*1e3)
		}
		if f, ok := infoFloat(c.Info, "bound_fraction"); ok {
			bound = fmt.Sprintf("%.1f", 100*f)
		}
		if len(c.BFS) > 0 {
			sum := 0
			for _, s := range c.BFS {
				sum += s.Levels
			}
			levels = fmt.Sprintf("%.1f", float64(sum)/float64(len(c.BFS)))
		}
		valid := fmt.Sprintf("%d/%d of %d", infoInt(c.Info, "valid"), infoInt(c.Info, "validated"), len(c.BFS))
		status := c.Status
		if c.Error != "" {
			status += ": " + firstLine(c.Error)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", c.Variant, c.Plugin, c.Backend, c.Graph.Scale, gteps, bound, valid, levels, med, status)
	}
	tw.Flush()
}

// medianTime is the median TimeS of ss (graph500.Summarize's: the mean of
// the middle two for an even count), 0 for none.
func medianTime(ss []results.Search) float64 {
	t := make([]float64, len(ss))
	for i, s := range ss {
		t[i] = s.TimeS
	}
	return graph500.Summarize(t).Median
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
