// Package client is the harness's side of the plugin protocol of package
// sdk: it starts nothing itself (the runner does, through go-plugin) but
// gives the go-plugin map to dispense from and the Client that speaks to a
// plugin process. A variant never imports it.
package client

import (
	"context"
	"fmt"
	"net/rpc"

	"github.com/hashicorp/go-plugin"

	"github.com/bfsbench/bfsbench/harness/sdk"
)

// PluginMap is the go-plugin map the harness dispenses sdk.PluginName from.
var PluginMap = map[string]plugin.Plugin{sdk.PluginName: rpcClientPlugin{}}

// rpcClientPlugin is the harness's half of go-plugin's net/rpc plugin.
type rpcClientPlugin struct{}

func (rpcClientPlugin) Server(*plugin.MuxBroker) (interface{}, error) {
	return nil, fmt.Errorf("client: the harness does not serve %q", sdk.PluginName)
}

func (rpcClientPlugin) Client(_ *plugin.MuxBroker, c *rpc.Client) (interface{}, error) {
	return &Client{c: c}, nil
}

// Dispense returns the Client of a started go-plugin client.
func Dispense(pc *plugin.Client) (*Client, error) {
	rc, err := pc.Client()
	if err != nil {
		return nil, err
	}
	raw, err := rc.Dispense(sdk.PluginName)
	if err != nil {
		return nil, err
	}
	c, ok := raw.(*Client)
	if !ok {
		return nil, fmt.Errorf("unexpected client type %T", raw)
	}
	return c, nil
}

// Client is the harness's view of a plugin process. Every call takes a
// context: when it ends first, the call returns ctx.Err() and the caller
// must kill the process (a call cannot be cancelled inside the plugin).
type Client struct{ c *rpc.Client }

func (c *Client) call(ctx context.Context, method string, args, reply any) error {
	// No call starts once ctx has ended: the select below picks at random
	// when the reply and the end are both there, so an interrupted run
	// could otherwise go on searching a small graph and finish its case.
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
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
func (c *Client) Describe(ctx context.Context) (sdk.Info, error) {
	var in sdk.Info
	err := c.call(ctx, "Describe", sdk.Empty{}, &in)
	return in, err
}

// Construct builds the case's graph in the plugin.
func (c *Client) Construct(ctx context.Context, args sdk.ConstructArgs) (sdk.ConstructReply, error) {
	var r sdk.ConstructReply
	err := c.call(ctx, "Construct", args, &r)
	return r, err
}

// BFS runs one search; its parents are then in the parents file.
func (c *Client) BFS(ctx context.Context, root int64) (sdk.BFSReply, error) {
	var r sdk.BFSReply
	err := c.call(ctx, "BFS", sdk.BFSArgs{Root: root}, &r)
	return r, err
}

// Close releases the variant inside the plugin.
func (c *Client) Close(ctx context.Context) error {
	return c.call(ctx, "Close", sdk.Empty{}, &sdk.Empty{})
}
