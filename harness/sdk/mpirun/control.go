package mpirun

// control.go is the small protocol by which rank 0 of an mpirun job drives
// its follower ranks: rank 0 sends each follower a command (the sdk.Variant
// method to run and its arguments), every rank runs the same sdk.RankVariant
// method, and each follower answers with an outcome. Messages travel on a
// communicator of their own (a duplicate of the world), so they never
// match the variant's own messages.
//
// Waiting is done by polling with short sleeps rather than in a blocking
// MPI call, because MPI implementations spin while they wait: an idle
// follower would otherwise burn a core while the harness validates a
// search on the same machine.
//
// Failures: a rank whose method fails reports it, but other ranks may be
// blocked forever in an exchange with it. So a failing rank waits only
// FailureGrace for the job to settle (rank 0: for every outcome; a
// follower: for rank 0's acknowledgement) and otherwise aborts the whole
// job (Comm.Abort, i.e. MPI_Abort), after printing its error on stderr.

import (
	"fmt"
	"time"

	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// FailureGrace is how long a failed rank waits for the others before it
// aborts the job.
var FailureGrace = 30 * time.Second

// Command methods.
const (
	cmdNew       = "new"
	cmdConstruct = "construct"
	cmdBFS       = "bfs"
	cmdParents   = "parents"
	cmdClose     = "close"
	cmdQuit      = "quit"
)

// Message tags on the control communicator.
const (
	tagCommand = 10 // +1 for the payload
	tagOutcome = 20 // +1 for the payload
	tagAck     = 30
)

// command is what rank 0 sends a follower.
type command struct {
	Method string
	Config sdk.Config // new
	// construct: the graph, and whether the follower receives its edges
	// from rank 0 (Scatter) or generates them itself.
	Graph     results.Graph
	NVertices int64
	NEdges    int64
	Scatter   bool
	Root      int64 // bfs
}

// outcome is a follower's answer.
type outcome struct {
	Err     string
	Devices []string
}

// protect runs f, turning a panic into an error.
func protect(what string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in %s: %v\n%s", what, p, sdk.PanicStack())
		}
	}()
	return f()
}
