// Package mpictl is the transport of the control messages by which rank 0
// of an mpirun job drives its follower ranks (the SDK's driver and
// follower): gob-encoded messages sent as a length and a payload, edge
// lists in chunks below MPI's count limit, and waits that poll with short
// sleeps instead of blocking in MPI, because MPI implementations spin while
// they wait and an idle follower would otherwise burn a core.
package mpictl

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
)

// TagEdges is the message tag of edge lists.
const TagEdges = 40

// ErrTimeout is returned by Poll when its deadline passes.
var ErrTimeout = errors.New("timed out")

// Poll waits for r, sleeping between tests (20 µs, doubling up to 1 ms),
// until deadline (none when zero). alive, when set, is checked about once
// a second and ends the wait with its error.
func Poll(r comm.Request, deadline time.Time, alive func() error) (int, error) {
	sleep := 20 * time.Microsecond
	lastCheck := time.Now()
	for {
		done, n, err := r.Test()
		if done {
			return n, err
		}
		now := time.Now()
		if !deadline.IsZero() && now.After(deadline) {
			return 0, ErrTimeout
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

// Send starts sending v (gob-encoded) to dest: its length, then its
// bytes. The caller waits for both requests.
func Send(c comm.Comm, dest, tag int, v any) ([]comm.Request, error) {
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

// Recv receives one message sent by Send from src into v.
func Recv(c comm.Comm, src, tag int, v any, deadline time.Time, alive func() error) error {
	n := []int64{0}
	r, err := c.Irecv(comm.Host(n), src, tag)
	if err != nil {
		return err
	}
	if _, err := Poll(r, deadline, alive); err != nil {
		return err
	}
	if n[0] < 0 || n[0] > 1<<30 {
		return fmt.Errorf("control message of %d bytes from rank %d", n[0], src)
	}
	payload := make([]byte, n[0])
	if r, err = c.Irecv(comm.Host(payload), src, tag+1); err != nil {
		return err
	}
	if _, err := Poll(r, deadline, alive); err != nil {
		return err
	}
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(v); err != nil {
		return fmt.Errorf("decoding control message from rank %d: %w", src, err)
	}
	return nil
}

// WaitAll polls every request until deadline.
func WaitAll(reqs []comm.Request, deadline time.Time, alive func() error) error {
	for _, r := range reqs {
		if _, err := Poll(r, deadline, alive); err != nil {
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

// SendEdges sends edges to dest in chunks, waiting for each.
func SendEdges(c comm.Comm, dest int, edges []graph500.Edge, alive func() error) error {
	w := edgeWords(edges)
	for lo := 0; lo < len(w); lo += edgeChunk {
		r, err := c.Isend(comm.Host(w[lo:min(lo+edgeChunk, len(w))]), dest, TagEdges)
		if err != nil {
			return err
		}
		if _, err := Poll(r, time.Time{}, alive); err != nil {
			return err
		}
	}
	return nil
}

// RecvEdges receives n edges sent by SendEdges from src.
func RecvEdges(c comm.Comm, src int, n int64, alive func() error) ([]graph500.Edge, error) {
	edges := make([]graph500.Edge, n)
	w := edgeWords(edges)
	for lo := 0; lo < len(w); lo += edgeChunk {
		hi := min(lo+edgeChunk, len(w))
		r, err := c.Irecv(comm.Host(w[lo:hi]), src, TagEdges)
		if err != nil {
			return nil, err
		}
		got, err := Poll(r, time.Time{}, alive)
		if err != nil {
			return nil, err
		}
		if got != hi-lo {
			return nil, fmt.Errorf("received %d edge words from rank %d, want %d", got, src, hi-lo)
		}
	}
	return edges, nil
}
