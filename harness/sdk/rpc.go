package sdk

// rpc.go is the wire protocol between the harness and a plugin process:
// go-plugin's net/rpc transport, four calls (Describe, Construct, BFS,
// Close), small messages only. The parent array travels through a
// memory-mapped file the harness creates (see parents.go).

import (
	"context"
	"fmt"
	"net/rpc"

	"github.com/hashicorp/go-plugin"

	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/workload"
)

// Handshake is shared by the harness and every plugin; a binary that is not
// a bfsbench plugin, or one built for another protocol version, is refused.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  1,
	MagicCookieKey:   "BFSBENCH_PLUGIN",
	MagicCookieValue: "breadth-first-search",
}

// pluginName is the single plugin each binary dispenses.
const pluginName = "bfs"

// PluginMap is the go-plugin map the harness dispenses from.
var PluginMap = map[string]plugin.Plugin{pluginName: &rpcPlugin{}}

// DispenseName is the name to Dispense on a go-plugin client.
const DispenseName = pluginName

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

func (p *rpcPlugin) Client(_ *plugin.MuxBroker, c *rpc.Client) (interface{}, error) {
	return &Client{c: c}, nil
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

// Client is the harness's view of a plugin process. Every call takes a
// context: when it ends first, the call returns ctx.Err() and the caller
// must kill the process (a call cannot be cancelled inside the plugin).
type Client struct{ c *rpc.Client }

func (c *Client) call(ctx context.Context, method string, args, reply any) error {
	call := c.c.Go("Plugin."+method, args, reply, make(chan *rpc.Call, 1))
	select {
	case <-call.Done:
		if call.Error != nil {
			return fmt.Errorf("%s: %w", method, call.Error)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Describe returns the plugin's Info.
func (c *Client) Describe(ctx context.Context) (Info, error) {
	var in Info
	err := c.call(ctx, "Describe", Empty{}, &in)
	return in, err
}

// Construct builds the case's graph in the plugin.
func (c *Client) Construct(ctx context.Context, args ConstructArgs) (ConstructReply, error) {
	var r ConstructReply
	err := c.call(ctx, "Construct", args, &r)
	return r, err
}

// BFS runs one search; its parents are then in the parents file.
func (c *Client) BFS(ctx context.Context, root int64) (BFSReply, error) {
	var r BFSReply
	err := c.call(ctx, "BFS", BFSArgs{Root: root}, &r)
	return r, err
}

// Close releases the variant inside the plugin.
func (c *Client) Close(ctx context.Context) error {
	return c.call(ctx, "Close", Empty{}, &Empty{})
}
