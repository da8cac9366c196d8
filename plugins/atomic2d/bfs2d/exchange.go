package bfs2d

// exchange.go implements the point-to-point scheme of [1] §3.3 for the
// expand exchange (along the grid column) and the fold exchange (along the
// grid row):
//
//   - start send operations;
//   - wait for completion of receive operations posted in the previous round;
//   - post non-blocking receive operations for the next round
//
// "that hides the latency of the receive operations in the BFS round and
// avoids possible deadlocks due to the lack of receive buffers." Every round
// sends one message to every peer (an empty list when there is nothing to
// say), so rounds stay in step. Receives go into two alternating buffer sets,
// so that the messages of one round stay readable while the next round's
// receives are already posted. The receives posted by the last round are
// completed by Close's final round of empty messages.

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
)

// exchanger runs §3.3 rounds over one communicator.
type exchanger struct {
	c     comm.Comm
	tag   int
	name  string // "expand" or "fold", for errors
	bufs  [2][][]uint32
	reqs  []comm.Request // the receives posted for the next round
	cur   int            // which buffer set reqs receive into
	sends []comm.Request
	out   [][]uint32
}

// newExchanger allocates (with alloc) receive buffers of maxWords per peer;
// post posts the first round's receives.
func newExchanger(c comm.Comm, tag int, name string, maxWords int, alloc func(words int) ([]uint32, error)) (*exchanger, error) {
	p := c.Size()
	x := &exchanger{c: c, tag: tag, name: name, reqs: make([]comm.Request, p), sends: make([]comm.Request, p), out: make([][]uint32, p)}
	for s := range x.bufs {
		x.bufs[s] = make([][]uint32, p)
		for r := 0; r < p; r++ {
			if r != c.Rank() {
				var err error
				if x.bufs[s][r], err = alloc(maxWords); err != nil {
					return nil, fmt.Errorf("%s exchange: receive buffer: %w", name, err)
				}
			}
		}
	}
	return x, nil
}

// post posts one receive per peer into buffer set cur.
func (x *exchanger) post() error {
	for r := range x.reqs {
		if r == x.c.Rank() {
			continue
		}
		req, err := x.c.Irecv(comm.Host(x.bufs[x.cur][r]), r, x.tag)
		if err != nil {
			return fmt.Errorf("%s exchange: irecv from %d: %w", x.name, r, err)
		}
		x.reqs[r] = req
	}
	return nil
}

// round sends msgs[r] to every peer r (msgs[own rank] is ignored) and
// returns the messages received, indexed by sender (nil for this rank). The
// returned slices stay valid until the next round. It reports the words
// sent.
func (x *exchanger) round(msgs [][]uint32) ([][]uint32, int64, error) {
	me := x.c.Rank()
	var words int64
	for r := range x.sends { // start send operations
		x.sends[r] = nil
		if r == me {
			continue
		}
		req, err := x.c.Isend(comm.Host(msgs[r]), r, x.tag)
		if err != nil {
			return nil, 0, fmt.Errorf("%s exchange: isend to %d: %w", x.name, r, err)
		}
		x.sends[r] = req
		words += int64(len(msgs[r]))
	}
	got := x.cur
	for r, req := range x.reqs { // wait for the receives of the previous round
		x.out[r] = nil
		if r == me {
			continue
		}
		n, err := req.Wait()
		if err != nil {
			return nil, 0, fmt.Errorf("%s exchange: receive from %d: %w", x.name, r, err)
		}
		x.out[r] = x.bufs[got][r][:n]
	}
	x.cur ^= 1
	if err := x.post(); err != nil { // post the receives of the next round
		return nil, 0, err
	}
	if err := comm.WaitAll(x.sends); err != nil {
		return nil, 0, fmt.Errorf("%s exchange: send: %w", x.name, err)
	}
	return x.out, words, nil
}

// close completes the receives posted by the last round with one round of
// empty messages and posts no more. Every rank of the communicator calls it.
func (x *exchanger) close() error {
	me := x.c.Rank()
	empty := []uint32{0}
	for r := range x.sends {
		x.sends[r] = nil
		if r == me {
			continue
		}
		req, err := x.c.Isend(comm.Host(empty), r, x.tag)
		if err != nil {
			return fmt.Errorf("%s exchange: closing isend to %d: %w", x.name, r, err)
		}
		x.sends[r] = req
	}
	err := comm.WaitAll(x.reqs)
	if err2 := comm.WaitAll(x.sends); err == nil {
		err = err2
	}
	if err != nil {
		return fmt.Errorf("%s exchange: closing: %w", x.name, err)
	}
	return nil
}
