package sdk

// control.go is the small protocol by which rank 0 of an mpirun job drives
// its follower ranks: rank 0 sends each follower a command (the Variant
// method to run and its arguments), every rank runs the same RankVariant
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
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
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
	tagEdges   = 40
)

// command is what rank 0 sends a follower.
type command struct {
	Method string
	Config Config // new
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

// errTimeout is returned by poll when its deadline passes.
var errTimeout = errors.New("timed out")

// poll waits for r, sleeping between tests (20 µs, doubling up to 1 ms),
// until deadline (none when zero). alive, when set, is checked about once
// a second and ends the wait with its error.
func poll(r comm.Request, deadline time.Time, alive func() error) (int, error) {
	sleep := 20 * time.Microsecond
	lastCheck := time.Now()
	for {
		done, n, err := r.Test()
		if done {
			return n, err
		}
		now := time.Now()
		if !deadline.IsZero() && now.After(deadline) {
			return 0, errTimeout
		}
		if alive != nil && now.Sub(lastCheck) > time.Second {
			lastCheck = now
			if err := alive(); err != nil {
				return 0, err
			}
		}
		time.Sleep(sleep)
		sleep = min(2*sleep, time.Millisecond)
	}
}

// sendMsg starts sending v (gob-encoded) to dest: its length, then its
// bytes. The caller waits for both requests.
func sendMsg(c comm.Comm, dest, tag int, v any) ([]comm.Request, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, fmt.Errorf("encoding control message: %w", err)
	}
	payload := buf.Bytes()
	n := []int64{int64(len(payload))}
	r1, err := c.Isend(comm.Host(n), dest, tag)
	if err != nil {
		return nil, err
	}
	r2, err := c.Isend(comm.Host(payload), dest, tag+1)
	if err != nil {
		return []comm.Request{r1}, err
	}
	return []comm.Request{r1, r2}, nil
}

// recvMsg receives one message sent by sendMsg from src into v.
func recvMsg(c comm.Comm, src, tag int, v any, deadline time.Time, alive func() error) error {
	n := []int64{0}
	r, err := c.Irecv(comm.Host(n), src, tag)
	if err != nil {
		return err
	}
	if _, err := poll(r, deadline, alive); err != nil {
		return err
	}
	if n[0] < 0 || n[0] > 1<<30 {
		return fmt.Errorf("control message of %d bytes from rank %d", n[0], src)
	}
	payload := make([]byte, n[0])
	if r, err = c.Irecv(comm.Host(payload), src, tag+1); err != nil {
		return err
	}
	if _, err := poll(r, deadline, alive); err != nil {
		return err
	}
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(v); err != nil {
		return fmt.Errorf("decoding control message from rank %d: %w", src, err)
	}
	return nil
}

// waitAll polls every request until deadline.
func waitAll(reqs []comm.Request, deadline time.Time, alive func() error) error {
	for _, r := range reqs {
		if _, err := poll(r, deadline, alive); err != nil {
			return err
		}
	}
	return nil
}

// edgeChunk bounds one edge message (in int64 elements) below MPI's int
// count limit.
const edgeChunk = 1 << 28

// edgeWords views edges as the int64 words V0, V1, V0, V1, ...
func edgeWords(edges []graph500.Edge) []int64 {
	if len(edges) == 0 {
		return nil
	}
	return unsafe.Slice(&edges[0].V0, 2*len(edges))
}

// sendEdges sends edges to dest in chunks, waiting for each.
func sendEdges(c comm.Comm, dest int, edges []graph500.Edge, alive func() error) error {
	w := edgeWords(edges)
	for lo := 0; lo < len(w); lo += edgeChunk {
		r, err := c.Isend(comm.Host(w[lo:min(lo+edgeChunk, len(w))]), dest, tagEdges)
		if err != nil {
			return err
		}
		if _, err := poll(r, time.Time{}, alive); err != nil {
			return err
		}
	}
	return nil
}

// recvEdges receives n edges sent by sendEdges from src.
func recvEdges(c comm.Comm, src int, n int64, alive func() error) ([]graph500.Edge, error) {
	edges := make([]graph500.Edge, n)
	w := edgeWords(edges)
	for lo := 0; lo < len(w); lo += edgeChunk {
		hi := min(lo+edgeChunk, len(w))
		r, err := c.Irecv(comm.Host(w[lo:hi]), src, tagEdges)
		if err != nil {
			return nil, err
		}
		got, err := poll(r, time.Time{}, alive)
		if err != nil {
			return nil, err
		}
		if got != hi-lo {
			return nil, fmt.Errorf("received %d edge words from rank %d, want %d", got, src, hi-lo)
		}
	}
	return edges, nil
}

// protect runs f, turning a panic into an error.
func protect(what string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in %s: %v\n%s", what, p, debug.Stack())
		}
	}()
	return f()
}
