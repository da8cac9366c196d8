// Package config loads a bfsbench run configuration (TOML) strictly: an
// unknown key, a value of the wrong type or an unknown plugin parameter is
// an error naming the file, the line and the key, before anything runs.
//
// A config has one [workload] table and one or more [[variant]] tables:
//
//	[workload]
//	scale = [16, 20]        # any workload key but nbfs may be a list: the run covers every combination
//	edgefactor = 16
//	seed = [2, 3]           # one pair, or a list of pairs
//	nbfs = 16
//	# file = "graph.mtx"    # a SNAP or Matrix Market file instead of a Kronecker graph
//
//	[[variant]]
//	name = "edgescan-cuda"
//	plugin = "edgescan"     # the plugin binary's file name (bin/, $BFSBENCH_PLUGIN_DIR), not its Info.Name
//	backend = "cuda"        # "cpu" (default) or "cuda"
//	ranks = 1
//	grid = [1, 1]
//	launcher = "embedded"   # or "mpirun"
//	timeout = "10m"
//	scales = [24]           # only these of the workload's scales (weak-scaling figures)
//	[variant.params]
//	permute = [true, false] # a list sweeps the parameter
//
// and any number of [[figure]] tables, the figures bfsbench draws from the
// run's results (see Figure):
//
//	[[figure]]
//	name = "gteps-vs-scale"
//	x = "scale"
//	y = "gteps"
//	series = ["permute", "restrict"]
//
// A value listed twice in a workload list or a parameter list is an error
// (its cases would run twice into one record).
package config

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/workload"
)

// Launchers, as the SDK names them.
const (
	LauncherEmbedded = sdk.LauncherEmbedded
	LauncherMPIRun   = sdk.LauncherMPIRun
)

// Limits on what a config may ask for. A config beyond them is refused
// before anything runs (see also the runner's memory preflight).
const (
	// MaxNBFS is the most searches per case: the Graph500 specification's
	// 64 search keys.
	MaxNBFS = 64
	// MaxRanks is the most ranks a variant may ask for (ranks, or the
	// product of grid).
	MaxRanks = 4096
	// DefaultMaxCases is the most cases (workloads × variants × parameter
	// points) a config may expand to unless the caller raises it
	// (bfsbench run --max-cases).
	DefaultMaxCases = 1000
)

// DefaultTimeout bounds one case (construction and every search) when the
// variant sets no timeout.
const DefaultTimeout = 30 * time.Minute

// Config is a loaded, checked run configuration.
type Config struct {
	Path      string
	Text      string
	Workloads []Workload // every combination of the [workload] lists
	Variants  []*Variant
	Figures   []*Figure // the [[figure]] tables, in file order
	// MaxCases is the limit the config was checked against (see
	// ParseMax); the runner checks the variants' sweeps against it too.
	MaxCases int

	lines *lineIndex // for errors found after parsing (CheckFiles)
}

// Workload is one point of the [workload] table.
type Workload struct {
	Spec workload.Spec
	NBFS int
	// Validate is how many of the NBFS searches of each case the harness
	// validates (the first ones, in key order); ValidateAll means every
	// one. A headline figure validates every search.
	Validate int
}

// ValidateAll is Workload.Validate for `validate = "all"`, the default.
const ValidateAll = -1

// Variant is one [[variant]] table.
type Variant struct {
	Name string
	// Plugin is the file name of the plugin binary, looked up in the
	// plugin directories ($BFSBENCH_PLUGIN_DIR, bfsbench's own folder,
	// ./bin); a variant's Info.Name is what `bfsbench plugins` shows.
	Plugin     string
	Backend    string
	Ranks      int
	Grid       [2]int
	Launcher   string
	Timeout    time.Duration
	Hostfile   string
	MPIRunArgs []string
	// Scales, when given, are the workload scales the variant runs at
	// (each one of the [workload] scales); empty means every workload.
	// A weak-scaling figure runs one GPU at scale s and two at s+1.
	Scales []int
	// Params holds each given parameter's values (one, or several to sweep),
	// in the file's order of keys.
	Params     map[string][]any
	ParamOrder []string

	file  string
	lines *lineIndex
	path  string // "variant[i]" for line lookups
}

// Error is a config error at a place in the file.
type Error struct {
	File string
	Line int // 0 when unknown
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: key %q: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// Load reads and checks the config file at path. Plugin parameters are
// checked later, against each plugin's declaration, by Variant.Points.
func Load(path string) (*Config, error) {
	return LoadMax(path, DefaultMaxCases)
}

// LoadMax is Load with a limit on the number of cases other than
// DefaultMaxCases.
func LoadMax(path string, maxCases int) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseMax(path, string(b), maxCases)
}

// Parse checks config text; name is used in errors.
func Parse(name, text string) (*Config, error) {
	return ParseMax(name, text, DefaultMaxCases)
}

// ParseMax is Parse with a limit on the number of cases other than
// DefaultMaxCases: the [workload] lists are counted before they are
// expanded, and a product beyond maxCases is an error.
func ParseMax(name, text string, maxCases int) (*Config, error) {
	if maxCases < 1 {
		maxCases = DefaultMaxCases
	}
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		if pe, ok := err.(toml.ParseError); ok {
			return nil, &Error{File: name, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	p := &parser{file: name, lines: indexLines(text), maxCases: maxCases}
	c := &Config{Path: name, Text: text, MaxCases: maxCases, lines: p.lines}
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		switch k {
		case "workload", "variant", "figure":
		default:
			return nil, p.errf(k, "unknown key (want [workload], [[variant]] and [[figure]] tables)")
		}
	}
	wt, ok := raw["workload"]
	if !ok {
		return nil, &Error{File: name, Msg: "no [workload] table"}
	}
	wm, ok := wt.(map[string]any)
	if !ok {
		return nil, p.errf("workload", "want a table [workload]")
	}
	ws, err := p.workloads(wm)
	if err != nil {
		return nil, err
	}
	c.Workloads = ws
	vt, ok := raw["variant"]
	if !ok {
		return nil, &Error{File: name, Msg: "no [[variant]] table"}
	}
	vs, ok := vt.([]map[string]any)
	if !ok {
		return nil, p.errf("variant", "want an array of tables [[variant]]")
	}
	names := map[string]bool{}
	for i, vm := range vs {
		v, err := p.variant(i, vm)
		if err != nil {
			return nil, err
		}
		if names[v.Name] {
			return nil, p.errf(v.path+".name", "duplicate variant name %q", v.Name)
		}
		names[v.Name] = true
		c.Variants = append(c.Variants, v)
	}
	if err := p.checkScales(c); err != nil {
		return nil, err
	}
	figs, err := p.figures(raw)
	if err != nil {
		return nil, err
	}
	c.Figures = figs
	// Relative graph files are relative to the config file.
	for i := range c.Workloads {
		if f := c.Workloads[i].Spec.File; f != "" && !filepath.IsAbs(f) {
			c.Workloads[i].Spec.File = filepath.Join(filepath.Dir(name), f)
		}
	}
	if err := c.CheckCases(); err != nil {
		return nil, err
	}
	// A parameter value listed twice would, as a workload value would (see
	// workloads), run each of its cases twice into one record: 14 and 14.0
	// are one value, 14 and "14" two (strings are compared quoted).
	for _, v := range c.Variants {
		for _, k := range v.ParamOrder {
			vals := fmtAll(v.Params[k])
			for i, x := range v.Params[k] {
				if s, ok := x.(string); ok {
					vals[i] = strconv.Quote(s)
				}
			}
			if x, ok := repeated(vals); ok {
				return nil, p.errf(v.path+".params."+k, "%s is listed twice: each case would run twice into one record", x)
			}
		}
	}
	return c, nil
}

type parser struct {
	file     string
	lines    *lineIndex
	maxCases int
}

func (p *parser) errf(key, format string, args ...any) error {
	return &Error{File: p.file, Line: p.lines.line(key), Key: key, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) workloads(m map[string]any) ([]Workload, error) {
	allowed := map[string]bool{"scale": true, "edgefactor": true, "seed": true, "nbfs": true, "file": true, "format": true, "validate": true}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !allowed[k] {
			return nil, p.errf("workload."+k, "unknown key (known: scale, edgefactor, seed, nbfs, validate, file, format)")
		}
	}
	scales, err := p.intList(m, "workload.scale", "scale", nil)
	if err != nil {
		return nil, err
	}
	efs, err := p.intList(m, "workload.edgefactor", "edgefactor", []int64{16})
	if err != nil {
		return nil, err
	}
	nbfss, err := p.intList(m, "workload.nbfs", "nbfs", []int64{64})
	if err != nil {
		return nil, err
	}
	seeds, err := p.seeds(m)
	if err != nil {
		return nil, err
	}
	files, err := p.stringList(m, "workload.file", "file", nil)
	if err != nil {
		return nil, err
	}
	formats, err := p.stringList(m, "workload.format", "format", []string{"auto"})
	if err != nil {
		return nil, err
	}
	for _, f := range formats {
		if f != "auto" && f != "snap" && f != "mtx" && f != "bin" {
			return nil, p.errf("workload.format", "want \"auto\", \"snap\", \"mtx\" or \"bin\", got %q", f)
		}
	}
	if len(files) > 0 && len(scales) > 0 {
		return nil, p.errf("workload.file", "give either scale (a Kronecker graph) or file, not both")
	}
	if len(files) == 0 && len(scales) == 0 {
		return nil, p.errf("workload", "needs scale (a Kronecker graph) or file")
	}
	for _, n := range nbfss {
		if n < 1 || n > MaxNBFS {
			return nil, p.errf("workload.nbfs", "want 1 to %d searches (Graph500's number of search keys), got %d", MaxNBFS, n)
		}
	}
	count := CountProduct(len(nbfss), len(scales), len(efs), len(seeds))
	if len(files) > 0 {
		count = CountProduct(len(nbfss), len(files), len(formats))
	}
	if count > p.maxCases {
		return nil, p.errf("workload", "the lists expand to %s workloads, more than the limit of %d cases (raise it with --max-cases)", countString(count), p.maxCases)
	}
	// A value listed twice would run each of its cases twice, into one
	// record.
	for _, l := range []struct {
		key  string
		vals []string
	}{
		{"scale", fmtAll(scales)}, {"edgefactor", fmtAll(efs)}, {"nbfs", fmtAll(nbfss)}, {"seed", fmtAll(seeds)},
		{"file", cleanAll(files)}, {"format", formats},
	} {
		if v, ok := repeated(l.vals); ok {
			return nil, p.errf("workload."+l.key, "%s is listed twice: each case would run twice into one record", v)
		}
	}
	// Cases of one graph that differ only in nbfs share a key (Case.Key:
	// results, compare, ab and bench.txt match cases by it), so compare
	// would pair one of them and pass over the others.
	if len(nbfss) > 1 {
		return nil, p.errf("workload.nbfs", "one value, not %d: the cases of a graph that differ only in nbfs would share one key, which compare and bench.txt match cases by; run each nbfs as a config of its own", len(nbfss))
	}
	validate, err := p.validate(m)
	if err != nil {
		return nil, err
	}
	var out []Workload
	add := func(s workload.Spec, nbfs int64) error {
		if err := s.Validate(); err != nil {
			return p.errf("workload", "%v", err)
		}
		out = append(out, Workload{Spec: s, NBFS: int(nbfs), Validate: validate})
		return nil
	}
	for _, n := range nbfss {
		if len(files) > 0 {
			for _, f := range files {
				for _, fm := range formats {
					if err := add(workload.Spec{File: f, Format: fm}, n); err != nil {
						return nil, err
					}
				}
			}
			continue
		}
		for _, s := range scales {
			for _, ef := range efs {
				for _, sd := range seeds {
					if err := add(workload.Spec{Scale: int(s), EdgeFactor: int(ef), Seed: sd}, n); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return out, nil
}

// fmtAll formats each of xs.
func fmtAll[T any](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return out
}

// cleanAll is the paths in xs, cleaned: "./g.txt" is "g.txt".
func cleanAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = filepath.Clean(x)
	}
	return out
}

// repeated returns the first value xs holds twice.
func repeated(xs []string) (string, bool) {
	seen := map[string]bool{}
	for _, x := range xs {
		if seen[x] {
			return x, true
		}
		seen[x] = true
	}
	return "", false
}

// validate accepts validate = "all" (the default) or a number of searches
// N >= 0 (the first N of each case are validated).
func (p *parser) validate(m map[string]any) (int, error) {
	v, ok := m["validate"]
	if !ok {
		return ValidateAll, nil
	}
	switch x := v.(type) {
	case string:
		if x == "all" {
			return ValidateAll, nil
		}
	case int64:
		if x >= 0 {
			return int(min(x, 1<<30)), nil
		}
	}
	return 0, p.errf("workload.validate", "want \"all\" or a number of searches >= 0, got %v", v)
}

// seeds accepts seed = [A, B] or seed = [[A, B], [C, D]].
func (p *parser) seeds(m map[string]any) ([][2]uint64, error) {
	v, ok := m["seed"]
	if !ok {
		return [][2]uint64{workload.DefaultSeed}, nil
	}
	pair := func(x any) ([2]uint64, bool) {
		a, ok := x.([]any)
		if !ok || len(a) != 2 {
			return [2]uint64{}, false
		}
		var out [2]uint64
		for i, e := range a {
			n, ok := e.(int64)
			if !ok || n < 0 {
				return [2]uint64{}, false
			}
			out[i] = uint64(n)
		}
		return out, true
	}
	if s, ok := pair(v); ok {
		return [][2]uint64{s}, nil
	}
	a, ok := v.([]any)
	if ok && len(a) > 0 {
		var out [][2]uint64
		for _, e := range a {
			s, ok := pair(e)
			if !ok {
				return nil, p.errf("workload.seed", "want [A, B] or a list of [A, B] pairs of non-negative integers")
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, p.errf("workload.seed", "want [A, B] or a list of [A, B] pairs of non-negative integers, got %v", v)
}

// intList reads a key holding an integer or a list of integers.
func (p *parser) intList(m map[string]any, path, key string, def []int64) ([]int64, error) {
	v, ok := m[key]
	if !ok {
		return def, nil
	}
	switch x := v.(type) {
	case int64:
		return []int64{x}, nil
	case []any:
		if len(x) == 0 {
			return nil, p.errf(path, "empty list")
		}
		out := make([]int64, len(x))
		for i, e := range x {
			n, ok := e.(int64)
			if !ok {
				return nil, p.errf(path, "want integers, element %d is %s", i, typeName(e))
			}
			out[i] = n
		}
		return out, nil
	}
	return nil, p.errf(path, "want an integer or a list of integers, got %s", typeName(v))
}

func (p *parser) stringList(m map[string]any, path, key string, def []string) ([]string, error) {
	v, ok := m[key]
	if !ok {
		return def, nil
	}
	switch x := v.(type) {
	case string:
		return []string{x}, nil
	case []any:
		if len(x) == 0 {
			return nil, p.errf(path, "empty list")
		}
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, p.errf(path, "want strings, element %d is %s", i, typeName(e))
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, p.errf(path, "want a string or a list of strings, got %s", typeName(v))
}

func (p *parser) variant(i int, m map[string]any) (*Variant, error) {
	path := fmt.Sprintf("variant[%d]", i)
	v := &Variant{Backend: sdk.BackendCPU, Ranks: 1, Launcher: LauncherEmbedded, Timeout: DefaultTimeout,
		file: p.file, lines: p.lines, path: path}
	str := func(key string, dst *string) error {
		x, ok := m[key]
		if !ok {
			return nil
		}
		s, ok := x.(string)
		if !ok {
			return p.errf(path+"."+key, "want a string, got %s", typeName(x))
		}
		*dst = s
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var err error
		switch k {
		case "name":
			err = str(k, &v.Name)
		case "plugin":
			err = str(k, &v.Plugin)
		case "backend":
			if err = str(k, &v.Backend); err == nil && v.Backend != sdk.BackendCPU && v.Backend != sdk.BackendCUDA {
				err = p.errf(path+".backend", "want \"cpu\" or \"cuda\", got %q", v.Backend)
			}
		case "launcher":
			if err = str(k, &v.Launcher); err == nil && v.Launcher != LauncherEmbedded && v.Launcher != LauncherMPIRun {
				err = p.errf(path+".launcher", "want \"embedded\" or \"mpirun\", got %q", v.Launcher)
			}
		case "hostfile":
			err = str(k, &v.Hostfile)
		case "timeout":
			var s string
			if err = str(k, &s); err == nil {
				d, perr := time.ParseDuration(s)
				if perr != nil || d <= 0 {
					err = p.errf(path+".timeout", "want a positive duration like \"90s\" or \"10m\", got %q", s)
				}
				v.Timeout = d
			}
		case "ranks":
			n, ok := m[k].(int64)
			if !ok || n < 1 || n > MaxRanks {
				err = p.errf(path+".ranks", "want a positive integer up to %d, got %v", MaxRanks, m[k])
			}
			v.Ranks = int(n)
		case "grid":
			a, ok := m[k].([]any)
			var g [2]int
			if ok && len(a) == 2 {
				for j, e := range a {
					n, isInt := e.(int64)
					if !isInt || n < 1 || n > MaxRanks {
						ok = false
					}
					g[j] = int(n)
				}
			}
			if !ok || len(a) != 2 {
				err = p.errf(path+".grid", "want [R, C] with positive integers, got %v", m[k])
			} else if g[0]*g[1] > MaxRanks {
				err = p.errf(path+".grid", "grid %dx%d has %d ranks, more than the %d bfsbench runs", g[0], g[1], g[0]*g[1], MaxRanks)
			}
			v.Grid = g
		case "mpirun_args":
			a, ok := m[k].([]any)
			for _, e := range a {
				s, isStr := e.(string)
				ok = ok && isStr
				v.MPIRunArgs = append(v.MPIRunArgs, s)
			}
			if !ok {
				err = p.errf(path+".mpirun_args", "want a list of strings")
			}
		case "scales":
			var ss []int64
			if ss, err = p.intList(m, path+".scales", k, nil); err == nil {
				for _, s := range ss {
					v.Scales = append(v.Scales, int(s))
				}
			}
		case "params":
			err = p.params(v, m[k])
		default:
			err = p.errf(path+"."+k, "unknown key (known: name, plugin, backend, ranks, grid, launcher, timeout, hostfile, mpirun_args, scales, params)")
		}
		if err != nil {
			return nil, err
		}
	}
	if v.Plugin == "" {
		return nil, p.errf(path, "missing key \"plugin\"")
	}
	if v.Name == "" {
		v.Name = v.Plugin + "-" + v.Backend
	}
	if v.Grid != [2]int{} {
		if _, given := m["ranks"]; given && v.Ranks != v.Grid[0]*v.Grid[1] {
			return nil, p.errf(path+".grid", "grid %dx%d has %d ranks but ranks = %d", v.Grid[0], v.Grid[1], v.Grid[0]*v.Grid[1], v.Ranks)
		}
		v.Ranks = v.Grid[0] * v.Grid[1]
	}
	if v.Launcher == LauncherEmbedded && (v.Hostfile != "" || len(v.MPIRunArgs) > 0) {
		key := path + ".hostfile"
		if v.Hostfile == "" {
			key = path + ".mpirun_args"
		}
		return nil, p.errf(key, "hostfile and mpirun_args need launcher = \"mpirun\"")
	}
	return v, nil
}

func (p *parser) params(v *Variant, x any) error {
	m, ok := x.(map[string]any)
	if !ok {
		return p.errf(v.path+".params", "want a table [variant.params]")
	}
	v.Params = map[string][]any{}
	for _, k := range p.lines.order(v.path+".params.", slices.Sorted(maps.Keys(m))) {
		vals, isList := m[k].([]any)
		if !isList {
			vals = []any{m[k]}
		}
		if len(vals) == 0 {
			return p.errf(v.path+".params."+k, "empty list")
		}
		for _, e := range vals {
			switch x := e.(type) {
			case float64:
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return p.errf(v.path+".params."+k, "want a finite number, got %v", x)
				}
			case int64, bool, string:
			default:
				return p.errf(v.path+".params."+k, "want a number, boolean or string (or a list of them to sweep), got %s", typeName(e))
			}
		}
		v.Params[k] = vals
		v.ParamOrder = append(v.ParamOrder, k)
	}
	return nil
}

// Points checks the variant's parameters against the plugin's declaration
// and expands sweeps: one full parameter set (defaults filled in) per
// combination of the listed values. It also checks backend and ranks.
func (v *Variant) Points(info sdk.Info) ([]map[string]any, error) {
	errAt := func(key, format string, args ...any) error {
		return &Error{File: v.file, Line: v.lines.line(key), Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	found := false
	for _, b := range info.Backends {
		found = found || b == v.Backend
	}
	if !found {
		return nil, errAt(v.path+".backend", "plugin %s has no %q backend (it has %s)", info.Name, v.Backend, strings.Join(info.Backends, ", "))
	}
	if v.Ranks > 1 && !info.MultiRank {
		return nil, errAt(v.path+".ranks", "plugin %s runs on one rank only", info.Name)
	}
	points := []map[string]any{{}}
	for _, k := range v.ParamOrder {
		decl, ok := info.Param(k)
		if !ok {
			var names []string
			for _, p := range info.Params {
				names = append(names, p.Name)
			}
			return nil, errAt(v.path+".params."+k, "plugin %s has no such parameter (it has: %s)", info.Name, strings.Join(names, ", "))
		}
		var next []map[string]any
		for _, val := range v.Params[k] {
			nv, err := decl.Normalize(val)
			if err != nil {
				return nil, errAt(v.path+".params."+k, "%v", err)
			}
			for _, pt := range points {
				q := make(map[string]any, len(pt)+1)
				for a, b := range pt {
					q[a] = b
				}
				q[k] = nv
				next = append(next, q)
			}
		}
		points = next
	}
	for i, pt := range points {
		full, err := info.CheckParams(pt)
		if err != nil {
			return nil, errAt(v.path+".params", "%v", err)
		}
		points[i] = full
	}
	return points, nil
}

// CountPoints is the number of parameter points the variant's sweep
// expands to (the product of its lists' lengths), counted without
// expanding it; it saturates at math.MaxInt32.
func (v *Variant) CountPoints() int {
	lens := make([]int, 0, len(v.ParamOrder))
	for _, k := range v.ParamOrder {
		lens = append(lens, len(v.Params[k]))
	}
	return CountProduct(lens...)
}

// CountProduct multiplies counts, saturating at math.MaxInt32.
func CountProduct(ns ...int) int {
	c := 1
	for _, n := range ns {
		if n == 0 {
			return 0
		}
		if c > math.MaxInt32/n {
			return math.MaxInt32
		}
		c *= n
	}
	return c
}

func countString(n int) string {
	if n == math.MaxInt32 {
		return "more than 2^31"
	}
	return fmt.Sprint(n)
}

// checkScales refuses a variant's scales that no workload has, and scales
// on a workload read from a file.
func (p *parser) checkScales(c *Config) error {
	have := map[int]bool{}
	for _, w := range c.Workloads {
		if w.Spec.File == "" {
			have[w.Spec.Scale] = true
		}
	}
	for _, v := range c.Variants {
		for _, s := range v.Scales {
			if !have[s] {
				return p.errf(v.path+".scales", "scale %d is not one of the [workload] scales", s)
			}
		}
	}
	return nil
}

// CheckFiles refuses a workload's graph file that cannot be read (missing,
// a folder, no permission), naming the config's line, so that a run
// stops before any work instead of failing every case of the workload.
func (c *Config) CheckFiles() error {
	seen := map[string]bool{}
	for _, w := range c.Workloads {
		f := w.Spec.File
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		err := readable(f)
		if err == nil {
			continue
		}
		e := &Error{File: c.Path, Key: "workload.file", Msg: fmt.Sprintf("graph file: %v", err)}
		if c.lines != nil {
			e.Line = c.lines.line("workload.file")
		}
		return e
	}
	return nil
}

// readable opens path as a regular file and reads a byte of it.
func readable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	if _, err := f.Read(make([]byte, 1)); err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// RunsAt reports whether the variant runs at workload w (see Scales).
func (v *Variant) RunsAt(w Workload) bool {
	return len(v.Scales) == 0 || slices.Contains(v.Scales, w.Spec.Scale)
}

// CheckCases refuses a config whose workloads × parameter points exceed
// its MaxCases, naming the variant whose sweep tips it over.
func (c *Config) CheckCases() error {
	total := 0
	for _, v := range c.Variants {
		nw := 0
		for _, w := range c.Workloads {
			if v.RunsAt(w) {
				nw++
			}
		}
		total += CountProduct(nw, v.CountPoints())
		if total > c.MaxCases {
			return &Error{File: v.file, Line: v.lines.line(v.path + ".params"), Key: v.path + ".params",
				Msg: fmt.Sprintf("the config expands to %s cases or more (%d workloads × the parameter lists), more than the limit of %d (raise it with --max-cases)",
					countString(total), len(c.Workloads), c.MaxCases)}
		}
	}
	return nil
}

// Line is the line of the variant's table in its file.
func (v *Variant) Line() int { return v.lines.line(v.path) }

func typeName(v any) string {
	switch v.(type) {
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any, []map[string]any:
		return "a table"
	case time.Time:
		return "a date"
	}
	return fmt.Sprintf("%T", v)
}
