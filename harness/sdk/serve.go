package sdk

// serve.go runs inside the plugin process: it owns the one Variant of the
// case, times Graph500 kernels 1 and 2 around it and turns every panic into
// an error for the harness.

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/workload"
)

// followerHook, when set (by the MPI build), is called first by Serve. It
// returns true when this process is an MPI follower rank (world rank > 0):
// such a rank serves no RPC; it has run its share of the job and Serve
// returns.
var followerHook func(p Plugin) (handled bool)

// Serve makes the calling binary a bfsbench plugin serving p. It does not
// return until the harness closes the connection.
func Serve(p Plugin) {
	if followerHook != nil && followerHook(p) {
		return
	}
	if os.Getenv(Handshake.MagicCookieKey) != Handshake.MagicCookieValue {
		in := p.Info()
		fmt.Fprintf(os.Stderr, "%s is a bfsbench plugin (%s); run it through `bfsbench run CONFIG.toml`.\n", os.Args[0], in.Name)
		os.Exit(2)
	}
	if !comm.UnderMPIRun() { // under mpirun, mpi.go watches the launcher
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
			err = fmt.Errorf("plugin panicked in %s: %v\n%s", call, r, debug.Stack())
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
	v, err := s.plugin.New(args.Config)
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
