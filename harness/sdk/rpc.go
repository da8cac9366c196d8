package sdk

// rpc.go is the plugin's side of the wire protocol between the harness
// and a plugin process: go-plugin's net/rpc transport, four calls
// (Describe, Construct, BFS, Close), small messages only. The parent array
// travels through a memory-mapped file the harness creates (see
// parents.go). The harness's side is package sdk/client.

import (
	"fmt"
	"net/rpc"

	"github.com/hashicorp/go-plugin"

	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/workload"
)

// Handshake is shared by the harness and every plugin; a binary that is not
// a bfsbench plugin, or one built for another protocol version, is refused.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  2, // 2: Param travels with explicit bounds (param_gob.go)
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

// rpcPlugin adapts a Plugin to go-plugin's net/rpc transport.
type rpcPlugin struct{ impl Plugin }

func (p *rpcPlugin) Server(*plugin.MuxBroker) (interface{}, error) {
	return &rpcServer{srv: newServer(p.impl)}, nil
}

// Client is the harness's side, in package sdk/client: a plugin never
// dispenses.
func (p *rpcPlugin) Client(*plugin.MuxBroker, *rpc.Client) (interface{}, error) {
	return nil, fmt.Errorf("sdk: the plugin side serves %q; the harness dispenses it through package sdk/client", PluginName)
}

// rpcServer exposes a server's methods in net/rpc's shape.
type rpcServer struct{ srv *server }

func (s *rpcServer) Describe(_ Empty, reply *Info) error {
	return s.srv.guard("describe", func() error { *reply = s.srv.plugin.Info(); return nil })
}

func (s *rpcServer) Construct(args ConstructArgs, reply *ConstructReply) error {
	return s.srv.guard("construct", func() error { return s.srv.construct(args, reply) })
}

func (s *rpcServer) BFS(args BFSArgs, reply *BFSReply) error {
	return s.srv.guard("bfs", func() error { return s.srv.bfs(args.Root, reply) })
}

func (s *rpcServer) Close(_ Empty, _ *Empty) error {
	return s.srv.guard("close", s.srv.close)
}
