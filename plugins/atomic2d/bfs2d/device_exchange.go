package bfs2d

// device_exchange.go is the device path of the expand, fold and
// predecessor exchanges (the exchange parameter = device): the payloads
// stay in device memory and travel over NCCL (comm.NCCLComm, one
// communicator along the grid row, one along the column), on a stream of
// their own. Ordering against the engine's stream uses events: the
// exchange stream waits for an event recorded on the engine's stream
// after the payloads are written, and the engine's stream for one
// recorded after the exchange, before the received payloads are read; no
// device-wide synchronization. The vertex counts, which size every
// payload (list or bitmap, as message.go decides from the count), go
// first over the host communicators: a few words per peer.
//
// The exchanges are blocking rounds (the host waits for the exchange
// stream, which also catches NCCL's asynchronous errors); [1] §3.3's
// overlap of one round's receives with the next round is the host path's
// (exchange.go).

import (
	"errors"
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
)

// deviceExchange is one rank's device path.
type deviceExchange struct {
	l    Layout
	g    *comm.Grid
	eng  *cudaEngine
	rt   *comm.CUDARuntime
	dg   *comm.DeviceGrid
	dev  int
	mode string // bitmap_messages

	xs, es           uintptr // exchange and engine streams
	evCompute, evXch uintptr

	maxWords int // longest payload of one message
	bufs     []uintptr
	// expand: own payload, R slots of maxWords; fold: C slots each way;
	// predecessors: queries and answers, each way.
	expSend, expRecv, foldSend, foldRecv uintptr
	predQ, predQRecv, predA, predARecv   uintptr
}

// newDeviceExchange sets up the device path of a CUDA rank. Collective
// over the grid: a failure on one rank fails every rank.
func newDeviceExchange(g *comm.Grid, l Layout, eng *cudaEngine, mode string) (*deviceExchange, error) {
	x := &deviceExchange{l: l, g: g, eng: eng, dev: eng.dev.Ordinal, mode: mode}
	err := x.alloc()
	if err := comm.Agree(g.World, err); err != nil {
		x.free()
		return nil, fmt.Errorf("device exchange: %w", err)
	}
	if x.dg, err = comm.NewDeviceGrid(g, x.dev, x.xs); err != nil {
		x.free()
		return nil, fmt.Errorf("device exchange: %w", err)
	}
	return x, nil
}

// alloc creates the exchange stream, the events and the device buffers.
func (x *deviceExchange) alloc() error {
	var err error
	if x.rt, err = comm.LoadCUDARuntime(); err != nil {
		return err
	}
	if x.es, err = x.eng.Stream(); err != nil {
		return err
	}
	if x.xs, err = x.rt.StreamCreate(x.dev); err != nil {
		return err
	}
	if x.evCompute, err = x.rt.EventCreate(x.dev, false); err != nil {
		return err
	}
	if x.evXch, err = x.rt.EventCreate(x.dev, false); err != nil {
		return err
	}
	l := x.l
	bn := int(l.BlockN)
	x.maxWords = max(maxMessageWords(x.mode, bn)-1, 1)
	own := int(l.BlockLen(l.Block()))
	pq := int(maxPredQueries(l))
	words := func(n int) (uintptr, error) {
		p, err := x.rt.Malloc(x.dev, 4*max(n, 1))
		if err == nil {
			x.bufs = append(x.bufs, p)
		}
		return p, err
	}
	for _, b := range []struct {
		p  *uintptr
		n  int
		on bool
	}{
		{&x.expSend, x.maxWords, l.R > 1},
		{&x.expRecv, l.R * x.maxWords, l.R > 1},
		{&x.foldSend, l.C * x.maxWords, l.C > 1},
		{&x.foldRecv, l.C * x.maxWords, l.C > 1},
		{&x.predQ, own, l.C > 1},
		{&x.predQRecv, pq, l.C > 1},
		{&x.predA, pq, l.C > 1},
		{&x.predARecv, own, l.C > 1},
	} {
		if !b.on {
			continue
		}
		if *b.p, err = words(b.n); err != nil {
			return fmt.Errorf("exchange buffers: %w", err)
		}
	}
	return nil
}

// free releases what alloc made (not the communicators).
func (x *deviceExchange) free() error {
	if x.rt == nil {
		return nil
	}
	var errs []error
	for _, p := range x.bufs {
		errs = append(errs, x.rt.Free(p))
	}
	x.bufs = nil
	for _, e := range []uintptr{x.evCompute, x.evXch} {
		if e != 0 {
			errs = append(errs, x.rt.EventDestroy(e))
		}
	}
	x.evCompute, x.evXch = 0, 0
	if x.xs != 0 {
		errs = append(errs, x.rt.StreamDestroy(x.xs))
		x.xs = 0
	}
	return errors.Join(errs...)
}

// close destroys the communicators (collective) and frees the rest.
func (x *deviceExchange) close() error {
	var err error
	if x.dg != nil {
		err = x.dg.Close()
		x.dg = nil
	}
	return errors.Join(err, x.free())
}

// run orders one exchange between the two streams: the exchange stream
// waits for the engine's work so far (the payloads), f enqueues the
// exchange on it, the engine stream waits for the exchange, and the host
// waits for it too (catching NCCL errors), so that the phase's time is
// the exchange's.
func (x *deviceExchange) run(f func() error) error {
	return x.rt.OnDevice(x.dev, func() error {
		if err := x.rt.EventRecord(x.evCompute, x.es); err != nil {
			return err
		}
		if err := x.rt.StreamWaitEvent(x.xs, x.evCompute); err != nil {
			return err
		}
		if err := f(); err != nil {
			return err
		}
		if err := x.rt.EventRecord(x.evXch, x.xs); err != nil {
			return err
		}
		if err := x.rt.StreamWaitEvent(x.es, x.evXch); err != nil {
			return err
		}
		return nil
	})
}

// slot is the device address of slot k of a buffer of maxWords slots.
func (x *deviceExchange) slot(base uintptr, k int) uintptr {
	return base + uintptr(4*k*x.maxWords)
}

// expand is the expand exchange (Algorithm 2 line 13) along the grid
// column, nf being the own frontier's size. It returns the bytes sent.
func (x *deviceExchange) expand(nf int) (int64, error) {
	l, bn := x.l, int(x.l.BlockN)
	words, err := x.eng.frontierPayloadDev(x.mode, x.expSend)
	if err != nil {
		return 0, fmt.Errorf("expand message: %w", err)
	}
	all := make([]int64, l.R)
	if err := x.g.Col.Allgather(comm.Host([]int64{int64(nf)}), comm.Host(all)); err != nil {
		return 0, fmt.Errorf("expand exchange counts: %w", err)
	}
	counts, displs := make([]int, l.R), make([]int, l.R)
	for r, n := range all {
		_, counts[r] = payloadWords(x.mode, int(n), bn)
		displs[r] = r * x.maxWords
	}
	if counts[l.I] != words {
		return 0, fmt.Errorf("expand exchange: own payload of %d words, %d expected", words, counts[l.I])
	}
	col := x.dg.Col
	err = x.run(func() error {
		return col.Allgatherv(comm.Device(x.expSend, words, comm.Uint32), comm.Device(x.expRecv, l.R*x.maxWords, comm.Uint32), counts, displs)
	})
	if err == nil {
		err = col.Sync()
	}
	if err != nil {
		return 0, fmt.Errorf("expand exchange: %w", err)
	}
	ps := make([]devPayload, 0, l.R)
	for r, n := range all {
		if r != l.I {
			ps = append(ps, devPayload{src: r, ptr: x.slot(x.expRecv, r), count: int(n)})
		}
	}
	if err := x.eng.loadFrontierDev(x.mode, ps); err != nil {
		return 0, err
	}
	return 4 * int64(words) * int64(l.R-1), nil
}

// fold is the fold exchange (Algorithm 2 line 17) along the grid row. It
// returns the bytes sent.
func (x *deviceExchange) fold() (int64, error) {
	l, bn := x.l, int(x.l.BlockN)
	scounts, sdispls := make([]int, l.C), make([]int, l.C)
	sv := make([]int64, l.C) // vertices for each grid column
	var sent int64
	for m := range l.C {
		sdispls[m] = m * x.maxWords
		if m == l.J {
			continue
		}
		w, err := x.eng.foldPayloadDev(m, x.mode, x.slot(x.foldSend, m))
		if err != nil {
			return 0, fmt.Errorf("fold message for grid column %d: %w", m, err)
		}
		scounts[m], sv[m] = w, int64(x.eng.counts[m])
		sent += int64(w)
	}
	rv := make([]int64, l.C)
	if err := x.g.Row.Alltoall(comm.Host(sv), comm.Host(rv)); err != nil {
		return 0, fmt.Errorf("fold exchange counts: %w", err)
	}
	rcounts := make([]int, l.C)
	for m, n := range rv {
		if m != l.J {
			_, rcounts[m] = payloadWords(x.mode, int(n), bn)
		}
	}
	row := x.dg.Row
	err := x.run(func() error {
		return row.Alltoallv(comm.Device(x.foldSend, l.C*x.maxWords, comm.Uint32), scounts, sdispls,
			comm.Device(x.foldRecv, l.C*x.maxWords, comm.Uint32), rcounts, sdispls)
	})
	if err == nil {
		err = row.Sync()
	}
	if err != nil {
		return 0, fmt.Errorf("fold exchange: %w", err)
	}
	ps := make([]devPayload, 0, l.C)
	for m, n := range rv {
		if m != l.J {
			ps = append(ps, devPayload{src: m, ptr: x.slot(x.foldRecv, m), count: int(n)})
		}
	}
	if err := x.eng.loadFoldDev(x.mode, ps); err != nil {
		return 0, err
	}
	return 4 * sent, nil
}

// preds is the delayed predecessor exchange (pred.go) over device
// buffers, for C > 1; lap adds the time since its last call to a phase.
func (x *deviceExchange) preds(lap func(phase string)) (int64, error) {
	l := x.l
	counts, err := x.eng.remoteQueriesDev(x.predQ)
	if err != nil {
		return 0, fmt.Errorf("predecessor queries: %w", err)
	}
	lap(PhasePredQueries)
	sdispls, stotal := comm.Displs(counts)
	sc := make([]int64, l.C)
	for m, c := range counts {
		sc[m] = int64(c)
	}
	rc := make([]int64, l.C)
	if err := x.g.Row.Alltoall(comm.Host(sc), comm.Host(rc)); err != nil {
		return 0, fmt.Errorf("predecessor query counts: %w", err)
	}
	rcounts := make([]int, l.C)
	for m, c := range rc {
		rcounts[m] = int(c)
	}
	rdispls, rtotal := comm.Displs(rcounts)
	if int64(rtotal) > maxPredQueries(l) {
		return 0, fmt.Errorf("%d predecessor queries, room for %d", rtotal, maxPredQueries(l))
	}
	row := x.dg.Row
	exchange := func(what string, send uintptr, sn int, sc, sd []int, recv uintptr, rn int, rc, rd []int) error {
		err := x.run(func() error {
			return row.Alltoallv(comm.Device(send, sn, comm.Uint32), sc, sd, comm.Device(recv, rn, comm.Uint32), rc, rd)
		})
		if err == nil {
			err = row.Sync()
		}
		if err != nil {
			return fmt.Errorf("predecessor %s exchange: %w", what, err)
		}
		return nil
	}
	if err := exchange("queries", x.predQ, stotal, counts, sdispls, x.predQRecv, rtotal, rcounts, rdispls); err != nil {
		return 0, err
	}
	lap(PhasePredExchange)
	if err := x.eng.lookupPredsDev(x.predQRecv, rtotal, x.predA); err != nil {
		return 0, err
	}
	lap(PhasePredLookup)
	if err := exchange("answers", x.predA, rtotal, rcounts, rdispls, x.predARecv, stotal, counts, sdispls); err != nil {
		return 0, err
	}
	lap(PhasePredExchange)
	if err := x.eng.finalizeDev(x.predARecv, stotal); err != nil {
		return 0, fmt.Errorf("predecessors: %w", err)
	}
	lap(PhasePredFinalize)
	return 4 * int64(stotal+rtotal), nil
}
