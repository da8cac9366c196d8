package sdk

// serve.go runs inside the plugin process: it owns the one Variant of the
// case, times Graph500 kernels 1 and 2 around it and turns every panic into
// an error for the harness.

import (
	"errors"
	"fmt"
	"net/rpc"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/bfsbench/bfsbench/harness/sdk/internal/launcher"
	"github.com/bfsbench/bfsbench/harness/workload"
)

// Serve makes the calling binary a bfsbench plugin serving p. It does not
// return until the harness closes the connection.
func Serve(p Plugin) {
	if launcher.UnderMPIRun() {
		if launcher.Follower == nil {
			fmt.Fprintf(os.Stderr, "plugin %s was started by mpirun, but it runs one rank: it does not import package sdk/grid (or sdk/mpirun), which joins an MPI job\n", p.Info().Name)
			os.Exit(1)
		}
		if launcher.Follower(p) {
			return
		}
	}
	if os.Getenv(Handshake.MagicCookieKey) != Handshake.MagicCookieValue {
		in := p.Info()
		fmt.Fprintf(os.Stderr, "%s is a bfsbench plugin (%s); run it through `bfsbench run CONFIG.toml`.\n", os.Args[0], in.Name)
		os.Exit(2)
	}
	if !launcher.UnderMPIRun() { // under mpirun, package mpirun watches the launcher
		go watchParent(os.Getppid(), time.Second/4)
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         map[string]plugin.Plugin{pluginName: &rpcPlugin{impl: p}},
	})
}

// watchParent ends the plugin once its parent (the harness) is gone, even
// if it died by SIGKILL and could not stop it: the process is re-parented
// and its parent id changes. (On Linux the harness also asks the kernel
// for a parent-death signal; this covers the rest.)
func watchParent(ppid int, every time.Duration) {
	for {
		time.Sleep(every)
		if os.Getppid() != ppid {
			fmt.Fprintf(os.Stderr, "bfsbench plugin: the harness (pid %d) is gone; exiting\n", ppid)
			os.Exit(1)
		}
	}
}

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

// PanicStack is the stack of the goroutine that is panicking, called from
// a deferred recover: the frames from the one that panicked outwards, as
// "function\n\tfile:line" lines, without the runtime's and the recovering
// function's frames above it, so that the first frame shown is the
// variant's own.
func PanicStack() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var b strings.Builder
	seenPanic := false
	for {
		f, more := frames.Next()
		switch {
		case !seenPanic:
			seenPanic = f.Function == "runtime.gopanic" || f.Function == "runtime.panicmem" ||
				strings.HasPrefix(f.Function, "runtime.panic") || f.Function == "runtime.sigpanic"
		case strings.HasPrefix(f.Function, "runtime."):
		default:
			fmt.Fprintf(&b, "%s\n\t%s:%d\n", f.Function, f.File, f.Line)
		}
		if !more {
			break
		}
	}
	if b.Len() == 0 { // not called while panicking: the whole stack
		return string(debug.Stack())
	}
	return b.String()
}

// New makes p's variant for one case the way Serve does: cfg's parameters
// resolved first (Info.CheckParams: the config's values, else the
// preset's, else the defaults), then p.New. Tests that make a variant
// without a harness call it too, so that New always sees every parameter.
func New(p Plugin, cfg Config) (Variant, error) {
	v, _, err := newResolved(p, cfg)
	return v, err
}

// newResolved is New, returning the resolved parameters too.
func newResolved(p Plugin, cfg Config) (Variant, map[string]any, error) {
	params, err := p.Info().CheckParams(cfg.Params)
	if err != nil {
		return nil, nil, err
	}
	cfg.Params = params
	v, err := p.New(cfg)
	return v, params, err
}

// ResolvedList is params as sorted "name=value" strings: the case info's
// InfoResolved entry (a list of strings, which the protocol carries as it
// is).
func ResolvedList(params map[string]any) []string {
	out := make([]string, 0, len(params))
	for k, v := range params {
		out = append(out, fmt.Sprintf("%s=%v", k, v))
	}
	slices.Sort(out)
	return out
}

// server is the plugin-side state of one case.
type server struct {
	plugin Plugin

	mu      sync.Mutex // one call at a time
	variant Variant
	graph   *workload.Graph
	parents *ParentsFile
}

func newServer(p Plugin) *server { return &server{plugin: p} }

// guard serializes calls and converts a panic into an error carrying the
// call's name and the panic's stack, so a broken variant fails its case
// instead of killing the RPC connection.
func (s *server) guard(call string, f func() error) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plugin panicked in %s: %v\n%s", call, r, PanicStack())
		}
	}()
	return f()
}

func (s *server) construct(args ConstructArgs, reply *ConstructReply) error {
	if s.variant != nil {
		return errors.New("construct called twice: one plugin process serves one case")
	}
	in := s.plugin.Info()
	if !contains(in.Backends, args.Config.Backend) {
		return fmt.Errorf("plugin %s has no %q backend (it has %v)", in.Name, args.Config.Backend, in.Backends)
	}
	t0 := time.Now()
	g, err := workload.Load(args.Workload)
	if err != nil {
		return err
	}
	reply.LoadTimeS = time.Since(t0).Seconds()
	s.graph = g
	pf, err := OpenParentsFile(args.ParentsPath, g.NVertices)
	if err != nil {
		return err
	}
	s.parents = pf
	v, resolved, err := newResolved(s.plugin, args.Config)
	if err != nil {
		return fmt.Errorf("%s/%s: %w", in.Name, args.Config.Backend, err)
	}
	s.variant = v
	w := &Workload{NVertices: g.NVertices, NEdges: int64(len(g.Edges)), Edges: g.Edges, Graph: g.Info}
	t1 := time.Now()
	if err := v.Construct(w); err != nil {
		return fmt.Errorf("construct: %w", err)
	}
	reply.TimeS = time.Since(t1).Seconds()
	reply.Graph = g.Info
	if d, ok := v.(Devicer); ok {
		reply.Devices = d.Devices()
	}
	if inf, ok := v.(Informer); ok {
		reply.Info = inf.CaseInfo()
	}
	if reply.Info == nil {
		reply.Info = map[string]any{}
	}
	reply.Info[InfoResolved] = ResolvedList(resolved)
	return nil
}

func (s *server) bfs(root int64, reply *BFSReply) error {
	if s.variant == nil {
		return errors.New("bfs before construct")
	}
	if root < 0 || root >= s.graph.NVertices {
		return fmt.Errorf("root %d out of range [0, %d)", root, s.graph.NVertices)
	}
	t0 := time.Now()
	res, err := s.variant.BFS(root)
	if err != nil {
		return fmt.Errorf("bfs from %d: %w", root, err)
	}
	reply.WallS = time.Since(t0).Seconds()
	reply.TimeS = res.TimeS
	if reply.TimeS == 0 {
		reply.TimeS = reply.WallS
	}
	reply.Levels = res.Levels
	reply.Phases = res.Phases
	reply.BoundBytes = res.BoundBytes
	dst := s.parents.Slice()
	for i := range dst { // poison: a vertex the variant forgets is caught by the validator
		dst[i] = -2
	}
	t1 := time.Now()
	if err := s.variant.Parents(dst); err != nil {
		return fmt.Errorf("parents after bfs from %d: %w", root, err)
	}
	reply.TransferTimeS = time.Since(t1).Seconds()
	return nil
}

func (s *server) close() error {
	var err error
	if s.variant != nil {
		err = s.variant.Close()
		s.variant = nil
	}
	if s.parents != nil {
		err = errors.Join(err, s.parents.Close())
		s.parents = nil
	}
	s.graph = nil
	return err
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
