// Package sdk is what a BFS variant imports to become a bfsbench plugin.
//
// A variant implements Plugin (what it is, and a constructor) and Variant
// (construct a graph, search it, hand back parents), then calls Serve from
// its main function:
//
//	func main() { sdk.Serve(myPlugin{}) }
//
// The harness starts the binary as a child process and speaks to it over
// go-plugin's net/rpc transport. The SDK generates or loads the edge list
// from the same shared code the harness validates with, times Construct
// (Graph500 kernel 1) and each BFS (kernel 2), and writes the parent array
// to a file the harness names, so large arrays never travel in RPC
// messages. A panic inside the variant is recovered and returned as an
// error: a broken variant costs its own case, never the harness.
package sdk

import (
	"fmt"
	"math"
	"sort"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
)

// Backends a variant may declare.
const (
	BackendCPU  = "cpu"
	BackendCUDA = "cuda"
)

// Parameter types.
const (
	TypeInt    = "int"
	TypeFloat  = "float"
	TypeBool   = "bool"
	TypeString = "string"
)

// Info describes a variant: shown by `bfsbench plugins` and used to check a
// config's [variant.params] before anything runs.
type Info struct {
	Name     string   // plugin name, e.g. "edgescan"
	Paper    string   // the paper (and section) the variant implements
	Summary  string   // one line
	Backends []string // subset of {"cpu", "cuda"}
	Params   []Param
	// MultiRank is true when the variant accepts Ranks > 1 (grid or 1D).
	MultiRank bool
	// MaxRanks, when positive, is the most ranks the variant accepts; the
	// harness refuses a config asking for more before anything runs.
	MaxRanks int
	// Memory is the variant's own memory need per backend ("cpu",
	// "cuda"), beyond what the SDK holds for it (the edge list and the
	// parents file). The harness adds it to its estimate of a case before
	// generating anything and refuses a case that cannot fit in the
	// machine's free memory or its GPUs' free memory. A backend without
	// an entry is estimated from the SDK's share alone, and the run says
	// so.
	Memory map[string]Memory
}

// Memory is a variant's memory need for one backend, linear in the graph:
// bytes = PerVertex·NVertices + PerEdge·NEdges (NEdges counts input
// tuples) + PerRank·Ranks, summed over every rank of the case. Host is
// memory of the machine (every rank process together), Device that of the
// GPUs (all of the case's GPUs together).
type Memory struct {
	HostPerVertex, HostPerEdge, HostPerRank       float64
	DevicePerVertex, DevicePerEdge, DevicePerRank float64
}

// Host is the host bytes the variant needs for a graph of nv vertices and
// ne edges on ranks ranks.
func (m Memory) Host(nv, ne int64, ranks int) float64 {
	return m.HostPerVertex*float64(nv) + m.HostPerEdge*float64(ne) + m.HostPerRank*float64(ranks)
}

// Device is the device bytes the variant needs, all GPUs together.
func (m Memory) Device(nv, ne int64, ranks int) float64 {
	return m.DevicePerVertex*float64(nv) + m.DevicePerEdge*float64(ne) + m.DevicePerRank*float64(ranks)
}

// Param declares one tunable knob of a variant.
type Param struct {
	Name    string
	Type    string // TypeInt, TypeFloat, TypeBool or TypeString
	Default any    // int64, float64, bool or string, matching Type
	Help    string
	Choices []string // for strings: the allowed values; empty means any
	Min     *float64 // for numbers: inclusive bounds, nil means none
	Max     *float64
	// Multiple, for integers when positive, is what the value must be a
	// multiple of (e.g. 32 for a thread count); 0 is always accepted.
	Multiple int64
}

// Bound is a convenience for Param.Min and Param.Max.
func Bound(x float64) *float64 { return &x }

// Param returns the declared parameter called name.
func (in Info) Param(name string) (Param, bool) {
	for _, p := range in.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Config is one case's settings, as the harness resolved them from the
// config file: backend, every declared parameter (defaults filled in) and
// the rank layout.
type Config struct {
	Backend  string
	Params   map[string]any // int64, float64, bool or string values
	Ranks    int            // number of ranks (1 for a single process)
	Grid     [2]int         // R×C processor grid for 2D variants; [0,0] when unset
	Launcher string         // "embedded" or "mpirun"
}

// Int returns the integer parameter name. It panics if the harness did not
// supply it, which CheckParams prevents; Serve turns such a panic into an
// error for the case.
func (c Config) Int(name string) int64 { return c.Params[name].(int64) }

// Float returns the float parameter name.
func (c Config) Float(name string) float64 { return c.Params[name].(float64) }

// Bool returns the boolean parameter name.
func (c Config) Bool(name string) bool { return c.Params[name].(bool) }

// String returns the string parameter name.
func (c Config) String(name string) string { return c.Params[name].(string) }

// Workload is the graph a variant constructs from. Edges is the whole
// Graph500 edge list in generator order (for a rank of a distributed run,
// the rank's share starting at EdgeOffset), identical to the list the
// harness validates with.
type Workload struct {
	NVertices  int64
	NEdges     int64 // of the whole list
	Edges      []graph500.Edge
	EdgeOffset int64
	Graph      results.Graph
}

// Search is what a variant reports about one BFS.
type Search struct {
	// TimeS, when non-zero, is the variant's own measure of the search in
	// seconds (e.g. CUDA events around the device work); otherwise the SDK
	// times it: the wall clock around BFS, and for a distributed variant
	// the longest of the ranks' spans from a common barrier (timedBFS).
	TimeS  float64
	Levels int
	Phases []results.LevelPhase // optional per-level phase times
	// BoundBytes is the fewest bytes this search must move through device
	// memory by the variant's own count (each input read once, each output
	// written once); with the info key InfoCopyBandwidthGBs it gives the
	// case's % of the bandwidth bound. 0 when the variant does not count.
	BoundBytes int64
}

// InfoCopyBandwidthGBs is the CaseInfo key under which a GPU variant
// reports its device's copy bandwidth in GB/s (bytes read + written),
// measured on the device it ran on (untimed: CaseInfo is called after
// Construct).
const InfoCopyBandwidthGBs = "device_copy_gbs"

// InfoFloorTimeS is the CaseInfo key under which a variant reports its
// measured floor: the time, in seconds, of the least work its algorithm
// must do for one search of this graph, timed on the device it ran on
// (for example one balanced pass over every edge that a search must test).
// With it the harness reports each case's % of floor: the floor over the
// median search time.
const InfoFloorTimeS = "floor_time_s"

// Plugin is what a variant binary serves.
type Plugin interface {
	Info() Info
	// New prepares a variant for one case. It must fail with a clear
	// error (not panic) when the backend is unavailable, e.g. no GPU.
	New(cfg Config) (Variant, error)
}

// Variant is one configured instance of a BFS algorithm.
type Variant interface {
	// Construct builds the variant's data structures from the edge list
	// (Graph500 kernel 1; the SDK times it). It may keep w.Edges.
	Construct(w *Workload) error
	// BFS searches from root. It returns when the parent array is complete
	// in the variant's memory (device memory for GPU backends).
	BFS(root int64) (Search, error)
	// Parents copies the last search's parents into dst (length
	// NVertices): parents[root] == root, -1 for unreached vertices. The
	// SDK times this separately as the transfer time.
	Parents(dst []int64) error
	// Close releases everything the variant holds.
	Close() error
}

// Devicer is implemented by variants that run on accelerators: the
// distinct devices the case used, for results' gpus and devices fields.
type Devicer interface {
	Devices() []string
}

// Informer is implemented by variants that report facts about the
// constructed graph (bytes per BFS for the bandwidth bound, ...), stored in
// the case's info.
type Informer interface {
	CaseInfo() map[string]any
}

// CheckParams validates user-given params against the declared ones and
// returns the full set with defaults filled in, values normalized to
// int64, float64, bool or string. Errors name the parameter.
func (in Info) CheckParams(given map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(in.Params))
	for _, p := range in.Params {
		out[p.Name] = p.Default
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p, ok := in.Param(k)
		if !ok {
			return nil, fmt.Errorf("plugin %s has no parameter %q (it has: %s)", in.Name, k, in.paramNames())
		}
		v, err := p.Normalize(given[k])
		if err != nil {
			return nil, fmt.Errorf("plugin %s parameter %q: %w", in.Name, k, err)
		}
		out[k] = v
	}
	return out, nil
}

func (in Info) paramNames() string {
	s := ""
	for i, p := range in.Params {
		if i > 0 {
			s += ", "
		}
		s += p.Name
	}
	if s == "" {
		return "none"
	}
	return s
}

// Normalize converts v to the parameter's Go type and checks choices and
// bounds.
func (p Param) Normalize(v any) (any, error) {
	var out any
	switch p.Type {
	case TypeInt:
		switch x := v.(type) {
		case int:
			out = int64(x)
		case int64:
			out = x
		case float64:
			if x != float64(int64(x)) {
				return nil, fmt.Errorf("want an integer, got %v", x)
			}
			out = int64(x)
		default:
			return nil, fmt.Errorf("want an integer, got %T %v", v, v)
		}
	case TypeFloat:
		switch x := v.(type) {
		case int:
			out = float64(x)
		case int64:
			out = float64(x)
		case float64:
			out = x
		default:
			return nil, fmt.Errorf("want a number, got %T %v", v, v)
		}
		if f := out.(float64); math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("want a finite number, got %v", f)
		}
	case TypeBool:
		x, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want true or false, got %T %v", v, v)
		}
		out = x
	case TypeString:
		x, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T %v", v, v)
		}
		if len(p.Choices) > 0 {
			found := false
			for _, c := range p.Choices {
				found = found || c == x
			}
			if !found {
				return nil, fmt.Errorf("want one of %v, got %q", p.Choices, x)
			}
		}
		out = x
	default:
		return nil, fmt.Errorf("declared with unknown type %q", p.Type)
	}
	var f float64
	switch x := out.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		return out, nil
	}
	if p.Min != nil && f < *p.Min {
		return nil, fmt.Errorf("%v is below the minimum %v", out, *p.Min)
	}
	if p.Max != nil && f > *p.Max {
		return nil, fmt.Errorf("%v is above the maximum %v", out, *p.Max)
	}
	if n, ok := out.(int64); ok && p.Multiple > 0 && n%p.Multiple != 0 {
		return nil, fmt.Errorf("%d is not a multiple of %d", n, p.Multiple)
	}
	return out, nil
}
