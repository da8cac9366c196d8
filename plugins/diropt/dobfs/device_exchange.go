package dobfs

// device_exchange.go is the device path of Algorithm 2's exchanges (the
// exchange parameter = device), the seed's GPUDirect point: the bitmaps
// and WritePred's predecessors stay in device memory and travel over NCCL
// (comm.DeviceGrid: one communicator along the grid row, one along the
// column), enqueued on the engine's own stream, so that stream order is
// the algorithm's order and no event or device-wide synchronization is
// needed between the kernels and the transfers. The device loop
// (device_loop.go) runs these levels: the host waits once per batch of
// levels, not once a level.
//
// Lines 12-21 on the device are an exclusive prefix-OR scan along the row
// made of one allgather: the seed's chain (P(i,j) receives the prefix from
// P(i,j-1), sends prefix ∪ Out on, and P(i,C-1) broadcasts the union)
// takes C-1 dependent hops and a broadcast, each a host-visible step with
// NCCL; the allgather moves the same bytes per rank as the broadcast
// (C-1 out_queues) in one collective, and every rank computes its prefix
// and the union itself. The result is the chain's: the leftmost
// discoverer of a vertex assigns it. The host path (rank.go) keeps the
// chain.
//
// One level on P(i,j):
//
//	line 7       ExploreFrontier
//	lines 12-21  Allgather of the out_queues along the row; RowScanKernel:
//	             prefix ← the OR of those of P(i,0..j-1), union ← the OR
//	             of all (a one-column grid has no row exchange: the union
//	             is out_queue)
//	lines 17, 23 MergeKernel, OwnBitsKernel (the own block's bits of
//	             union, counted; nothing on a one-column grid, see
//	             device_loop.go)
//	line 22      (writepred = level) PackPredKernel, Alltoall along the
//	             row, WritePredKernel
//	line 24      Allgather of the own blocks along the column into
//	             in_queue (blocks of a multiple of 32 vertices: in place;
//	             else into a buffer and PlaceBitsKernel)
//
// WritePred sends, for each local row, its predecessor (a local column) or
// 0xffffffff where the row was not assigned here: C blocks of B words, an
// all-to-all of fixed size, so no count travels before it (a denser
// (offset, parent) list would need one). Once the blocks are on the owner
// the search is complete: every own vertex's predecessor is there as a
// 32-bit local column of P(i,m), whose global id is
// Layout2D.ColGlobal(m, ·), just as a 1×1 grid's search ends with 32-bit
// predecessors in pred. As there, the int64 parent array is made from
// them when the harness asks for the parents (dob_parents), not inside
// the timed search; WritePred per level (writepred = level) writes the
// int64 parents as it goes. On a one-column grid (R×1) every vertex is
// assigned on its owner, so WritePred at the end moves nothing.

import (
	"errors"
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
)

// DevBuffers are the device addresses of the exchanged buffers (see
// ../cuda/diropt.h, struct dob_dev_bufs).
type DevBuffers struct {
	OutQueue, RowGather, Own, Gather, PredSend, PredRecv uintptr
	OwnWords                                             int64
	Counts                                               uintptr // the device loop's 3 int64 counts
}

// deviceEngine is an engine whose 2D exchanges can run between device
// buffers (the CUDA engine). Every method only enqueues.
type deviceEngine interface {
	engine
	loopEngine
	Stream() (uintptr, error)
	DeviceBuffers() (DevBuffers, error)
	DevUnion() error
	DevLoadIn() error
	DevPackPred(all bool) error
	DevWritePred(end bool) error
}

// deviceExchange is one rank's device path.
type deviceExchange struct {
	g   *comm.Grid
	b   *Block
	eng deviceEngine
	dg  *comm.DeviceGrid
	buf DevBuffers
}

// newDeviceExchange builds the row and column NCCL communicators on the
// engine's stream. Collective over the grid.
func newDeviceExchange(g *comm.Grid, b *Block, eng deviceEngine, dev int) (*deviceExchange, error) {
	x := &deviceExchange{g: g, b: b, eng: eng}
	s, err := eng.Stream()
	if err == nil {
		x.buf, err = eng.DeviceBuffers()
	}
	if err := comm.Agree(g.World, err); err != nil {
		return nil, fmt.Errorf("device exchange: %w", err)
	}
	if x.dg, err = comm.NewDeviceGrid(g, dev, s); err != nil {
		return nil, fmt.Errorf("device exchange: %w", err)
	}
	return x, nil
}

func (x *deviceExchange) rowWords() int { return int(words(x.b.L.LocalRows())) }

// rowUnion enqueues lines 12-21: the row's allgather of the out_queues and
// the prefix-OR scan (nothing on a one-column grid, whose union is
// out_queue). It returns the bytes sent.
func (x *deviceExchange) rowUnion() (int64, error) {
	c := x.g.C
	if c == 1 {
		return 0, nil
	}
	out := comm.Device(x.buf.OutQueue, x.rowWords(), comm.Uint32)
	rg := comm.Device(x.buf.RowGather, x.rowWords()*c, comm.Uint32)
	if err := x.dg.Row.Allgather(out, rg); err != nil {
		return 0, fmt.Errorf("row exchange: %w", err)
	}
	if err := x.eng.DevUnion(); err != nil {
		return 0, fmt.Errorf("row exchange: union: %w", err)
	}
	return int64(out.Bytes()) * int64(c-1), nil
}

// columnAllgather enqueues line 24: the column's allgather of the own
// blocks (into in_queue itself where blocks are whole words; DevLoadIn
// places them otherwise). It returns the bytes sent.
func (x *deviceExchange) columnAllgather() (int64, error) {
	ow := int(x.buf.OwnWords)
	own := comm.Device(x.buf.Own, ow, comm.Uint32)
	gather := comm.Device(x.buf.Gather, ow*x.g.R, comm.Uint32)
	if err := x.dg.Col.Allgather(own, gather); err != nil {
		return 0, fmt.Errorf("column exchange: %w", err)
	}
	return int64(own.Bytes()) * int64(x.g.R-1), nil
}

// writePred is line 22 (see the file comment): after the search (all:
// every vertex assigned here) or after a level (those of the level). It
// returns the bytes sent.
func (x *deviceExchange) writePred(all bool) (int64, error) {
	c := x.g.C
	if c > 1 || !all { // a one-column grid's owner holds pred itself
		if err := x.eng.DevPackPred(all); err != nil {
			return 0, fmt.Errorf("writepred: %w", err)
		}
	}
	var sent int64
	if c > 1 {
		n := int(x.b.L.LocalRows())
		send := comm.Device(x.buf.PredSend, n, comm.Uint32)
		recv := comm.Device(x.buf.PredRecv, n, comm.Uint32)
		if err := x.dg.Row.Alltoall(send, recv); err != nil {
			return 0, fmt.Errorf("writepred exchange: %w", err)
		}
		sent = 4 * x.b.L.B * int64(c-1)
	}
	if err := x.eng.DevWritePred(all); err != nil {
		return 0, fmt.Errorf("writepred: %w", err)
	}
	return sent, nil
}

// sync waits for the stream's work, failing instead of hanging when NCCL
// reports an asynchronous error (a peer that died).
func (x *deviceExchange) sync() error {
	return errors.Join(x.dg.Row.Sync(), x.dg.Col.Sync())
}

// close destroys the NCCL communicators (collective).
func (x *deviceExchange) close() error { return x.dg.Close() }
