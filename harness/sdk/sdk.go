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
//
// # What an author needs to know
//
// The binary is the plugin. A config's plugin = "NAME" names the binary's
// file, not Info.Name; the harness looks for it in $BFSBENCH_PLUGIN_DIR,
// then the bfsbench binary's folder, then ./bin (`bfsbench plugins` lists
// what it finds).
//
// Info.Memory declares what the variant holds per backend, beyond the
// SDK's share (the edge list and the parents file); the harness refuses a
// case that cannot fit before generating anything, and warns about a
// backend that declares nothing.
//
// For each case the harness calls New, Construct (timed), one untimed
// warm-up search from the first search key (validated, not recorded: a
// variant wrong on the warm-up makes the case invalid), then one timed
// search per search key (nbfs), each validated (unless the config's
// validate says fewer). Search.Levels counts the levels of the search's
// tree (1 + its largest depth), as the validator does; Search.Phases, when
// reported, feed the per-level plots, which leave out (and name) the
// variants without them.
//
// Tests call the conformance suite, package sdktest. examples/hello in the
// repository is a complete variant in a module of its own, with the guide
// that goes with it (its README.md).
package sdk

import (
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

// PresetParam is the name of the parameter by which a variant offers
// presets (a string parameter whose Choices are the preset names and whose
// Default is the preset a config gets when it names none). Variants
// reproducing a paper offer "paper", the published configuration.
const PresetParam = "preset"

// Param declares one tunable knob of a variant.
//
// A parameter's value in a case is, in this order: the config's value when
// the config sets it; else its value under the case's preset (Presets);
// else Default. Info.CheckParams applies this rule; a variant reads the
// resolved value from Config and keeps no preset logic of its own.
type Param struct {
	Name    string
	Type    string // TypeInt, TypeFloat, TypeBool or TypeString
	Default any    // int64, float64, bool or string, matching Type
	// Presets gives the value under presets whose value differs from
	// Default, keyed by preset name (a choice of the PresetParam
	// parameter); nil when every preset takes Default.
	Presets map[string]any
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
	// Shared says that another plugin process runs its searches on the
	// same devices between this one's (bfsbench ab interleaves two builds
	// search by search): a variant should then leave a device idle between
	// searches (no kernel waiting for the next one), since the other
	// process's work would wait for a context switch.
	Shared bool
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

// Launchers(Config.Launcher).
const (
	LauncherEmbedded = "embedded"
	LauncherMPIRun   = "mpirun"
)

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
	TimeS float64
	// Levels is the number of levels of the search's BFS tree: 1 + the
	// largest depth of a reached vertex, the root being at depth 0. A
	// search whose root has no neighbour has 1 level; one that reaches
	// the root's neighbours and nothing beyond has 2. A loop that runs one
	// more round to find the frontier empty does not count that round.
	// The validator counts the same way (graph500.Result.Levels) and
	// results.json keeps its count for a validated search, this one for a
	// search the harness did not validate; sdktest.Run fails a variant
	// whose count differs from the validated tree's.
	Levels int
	// Phases, optional, are the search's per-level phase times (any
	// phase names; Level numbers the level, 0 for the root's). The
	// per-level plots (phases_*.png, levels_time*.png) and `bfsbench
	// levels` draw from them; a variant without phases is left out of
	// them, and the run says so.
	Phases []results.LevelPhase
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

// InfoResolved is the case info key under which the SDK records every
// parameter of the case as it ran (ResolvedList: sorted "name=value"),
// whatever the config left to the preset or the defaults.
const InfoResolved = "resolved"

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

// RankVariant is one rank's part of a distributed BFS variant. Every
// method runs on all ranks collectively (each rank calls it at the same
// point), so it may communicate over the Comm it was created with.
//
// Errors: under the in-process communicator a rank that fails aborts the
// others' pending operations, so no rank hangs. Under MPI a rank cannot
// interrupt the others: a method that may fail on some ranks only should
// agree on failure before its next exchange (e.g. AllreduceInt64 of a
// flag); otherwise a rank blocked waiting for a failed one makes the SDK
// abort the whole job after FailureGrace.
type RankVariant interface {
	// Construct builds this rank's data from its share of the edge list:
	// w.Edges are the edges [w.EdgeOffset, w.EdgeOffset+len(w.Edges)) of
	// the whole list, w.NEdges long (the shares of all ranks, in rank
	// order, are the whole list).
	Construct(w *Workload) error
	// BFS searches from root. Rank 0's Search is what the harness sees.
	BFS(root int64) (Search, error)
	// Parents gathers the last search's parents into dst on rank 0 (length
	// NVertices); dst is nil on the other ranks.
	Parents(dst []int64) error
	// Close releases everything the rank holds.
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
