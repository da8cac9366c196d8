package sdk

// wire.go is the wire protocol between the harness and a plugin process:
// go-plugin's net/rpc transport, four calls (Describe, Construct, BFS,
// Close), small messages only. The parent array travels through a
// memory-mapped file the harness creates (parents.go). The plugin's side
// is serve.go; the harness's is package sdk/client.

import (
	"bytes"
	"encoding/gob"

	"github.com/hashicorp/go-plugin"

	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/workload"
)

// Handshake is shared by the harness and every plugin; a binary that is not
// a bfsbench plugin, or one built for another protocol version, is refused.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  2, // 2: Param travels with explicit bounds (Param.GobEncode); Presets, added since, is optional on the wire
	MagicCookieKey:   "BFSBENCH_PLUGIN",
	MagicCookieValue: "breadth-first-search",
}

// PluginName is the single plugin each binary serves: the name the
// harness's client (package sdk/client) dispenses.
const PluginName = "bfs"

// pluginName is PluginName.
const pluginName = PluginName

// ConstructArgs asks the plugin to build one case's graph.
type ConstructArgs struct {
	Workload    workload.Spec
	Config      Config
	ParentsPath string // file of NVertices int64 parents, created by the harness
}

// ConstructReply reports kernel 1.
type ConstructReply struct {
	TimeS     float64 // Construct only (Graph500 construction_time)
	LoadTimeS float64 // generating or loading the edge list, untimed by Graph500
	Graph     results.Graph
	Devices   []string
	Info      map[string]any
}

// BFSArgs asks for one search.
type BFSArgs struct{ Root int64 }

// BFSReply reports one search; the parents are in the parents file.
type BFSReply struct {
	TimeS         float64 // the search (variant's own measure, else wall clock)
	WallS         float64 // wall clock around Variant.BFS
	TransferTimeS float64 // Variant.Parents into the shared file
	Levels        int
	Phases        []results.LevelPhase
	BoundBytes    int64
}

// Empty is the argument or reply of calls that carry nothing.
type Empty struct{}

// Param's form on the wire. gob leaves out zero values, a pointer to 0
// included, so a bound of 0 (Min: Bound(0)) would arrive as no bound at all
// and the harness would accept values the plugin declared out of range.
// Bounds travel with explicit flags instead.

// paramWire is Param with its bounds as flagged values.
type paramWire struct {
	Name, Type, Help string
	Default          any
	Choices          []string
	HasMin, HasMax   bool
	Min, Max         float64
	Multiple         int64
	Presets          map[string]any
}

// GobEncode implements gob.GobEncoder.
func (p Param) GobEncode() ([]byte, error) {
	w := paramWire{Name: p.Name, Type: p.Type, Help: p.Help, Default: p.Default, Choices: p.Choices, Multiple: p.Multiple, Presets: p.Presets}
	if p.Min != nil {
		w.HasMin, w.Min = true, *p.Min
	}
	if p.Max != nil {
		w.HasMax, w.Max = true, *p.Max
	}
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(w)
	return b.Bytes(), err
}

// GobDecode implements gob.GobDecoder.
func (p *Param) GobDecode(data []byte) error {
	var w paramWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return err
	}
	*p = Param{Name: w.Name, Type: w.Type, Help: w.Help, Default: w.Default, Choices: w.Choices, Multiple: w.Multiple, Presets: w.Presets}
	if w.HasMin {
		p.Min = Bound(w.Min)
	}
	if w.HasMax {
		p.Max = Bound(w.Max)
	}
	return nil
}
