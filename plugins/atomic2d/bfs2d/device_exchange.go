package bfs2d

// device_exchange.go is the device path of the expand, fold and
// predecessor exchanges (the exchange parameter = device): the payloads
// stay in device memory and travel over NCCL (comm.NCCLComm, one
// communicator along the grid row, one along the column) on the engine's
// exchange stream, a second stream of the device's highest priority.
// Ordering between the two streams uses events, never a device-wide
// synchronization: the exchange stream waits for an event recorded on the
// engine's stream after the payloads are written, and the engine's stream
// for one recorded after the exchange, before the received payloads are
// read. Payloads are written without the host waiting for them.
//
// Receives are sized by the vertex counts, which decide each payload's
// kind and length (message.go), so that headers do not travel:
//
//   - expand: the counts are the column peers' frontier sizes, which every
//     rank learns from the level's closing collective (Rank.BFS gathers
//     every rank's frontier size where the host path sums them: the same
//     one small collective per level, no extra round trip);
//   - fold: the counts come from the peers' expansions, so they are
//     exchanged (C words) over the host communicator first, once the
//     expansion has ended.
//
// [1] §3.3 overlaps each exchange with computation. Here the expand
// exchange runs while the engine's stream expands the own frontier
// (expandLevel): Algorithm 3 treats every edge of all_front alike, in any
// order, so the own part (all_front's first entries) may be expanded
// before the received parts are appended and expanded after them. Every
// vertex found at the level still gets one parent from the level's
// frontier (the atomicOr on the bitmap decides which), and dst_cnt counts
// over both parts. The fold exchange has no such partner: its sends need
// the whole expansion and update_frontier needs the whole fold, so it runs
// between them as a round of its own (fold).
//
// The host waits for an exchange only after the computation that
// overlaps it is enqueued. For the expand exchange that is the whole
// level: the received payloads are appended and expanded in stream order
// behind the exchange, bitmap payloads checked against their counts on the
// device, so the host waits once a level (NCCLComm.WaitStream on the
// engine's stream, which also catches NCCL's asynchronous errors, e.g. a
// peer that died) and reads dst_cnt.

import (
	"errors"
	"fmt"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
)

// Overlap modes (the overlap parameter) of the device path.
const (
	OverlapExpand = "expand" // the expand exchange overlaps the own frontier's expansion
	OverlapOff    = "off"    // the expansion waits for the whole exchange
)

// PhaseWait is the time the engine's stream stood waiting for the
// expand exchange after expanding the own frontier: the part of the
// exchange the overlap did not hide (device path only).
const PhaseWait = "wait"

// The events of expandLevel, recorded on the engine's stream (timing
// events; evSent also orders the exchange stream after the payload).
const (
	evSent     = iota // the own payload written: the exchange may start
	evOwnStart        // before the expansion of all_front[0, split)
	evOwn             // after it
	evWaited          // the exchange received
	evLoaded          // the received payloads appended to all_front
	evEnd             // all_front[split, nall) expanded
	nTimingEvents
)

// deviceExchange is one rank's device path.
type deviceExchange struct {
	l    Layout
	g    *comm.Grid
	eng  *cudaEngine
	rt   *cuda.Runtime
	dg   *comm.DeviceGrid
	dev  int
	mode string // bitmap_messages
	// overlap: the own frontier is expanded while the expand exchange
	// runs; without it, all of all_front after the exchange.
	overlap bool

	xs, es           uintptr // exchange and engine streams (both the engine's)
	evCompute, evXch uintptr
	ev               [nTimingEvents]uintptr // expandLevel's timing events

	maxWords int // longest payload of one message
	bufs     []uintptr
	// expand: own payload, R slots of maxWords; fold: C slots each way;
	// predecessors: queries and answers, each way.
	expSend, expRecv, foldSend, foldRecv uintptr
	predQ, predQRecv, predA, predARecv   uintptr
}

// newDeviceExchange sets up the device path of a CUDA rank. Collective
// over the grid: a failure on one rank fails every rank.
func newDeviceExchange(g *comm.Grid, l Layout, eng *cudaEngine, mode string, overlap bool) (*deviceExchange, error) {
	x := &deviceExchange{l: l, g: g, eng: eng, dev: eng.dev.Ordinal, mode: mode, overlap: overlap}
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
	if x.rt, err = cuda.LoadRuntime(); err != nil {
		return err
	}
	if x.es, err = x.eng.Stream(); err != nil {
		return err
	}
	if x.xs, err = x.eng.exchangeStream(); err != nil {
		return err
	}
	if x.evCompute, err = x.rt.EventCreate(x.dev, false); err != nil {
		return err
	}
	if x.evXch, err = x.rt.EventCreate(x.dev, false); err != nil {
		return err
	}
	for k := range x.ev {
		if x.ev[k], err = x.rt.EventCreate(x.dev, true); err != nil {
			return err
		}
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

// free releases what alloc made (not the communicators, nor the streams,
// which are the engine's).
func (x *deviceExchange) free() error {
	if x.rt == nil {
		return nil
	}
	var errs []error
	for _, p := range x.bufs {
		errs = append(errs, x.rt.Free(p))
	}
	x.bufs = nil
	for _, e := range append([]uintptr{x.evCompute, x.evXch}, x.ev[:]...) {
		if e != 0 {
			errs = append(errs, x.rt.EventDestroy(e))
		}
	}
	x.evCompute, x.evXch, x.ev = 0, 0, [nTimingEvents]uintptr{}
	x.xs = 0 // the engine's: destroyed with it
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
// exchange on it, and the engine stream waits for the exchange. The
// callers (fold, preds) then wait on the host too (NCCLComm.Sync,
// catching NCCL errors), so that the phase's time is the exchange's.
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

// expandLevel is the expand exchange (Algorithm 2 line 13) and
// expand_frontier (line 15, Algorithm 3) of level lvl, overlapped: the
// exchange stream gathers the column's frontiers while the engine's
// stream expands the own one; then the received payloads are appended to
// all_front and expanded (with overlap off, the whole of all_front is
// expanded after the exchange). colFront[r] is the frontier size of P(r,j),
// this rank's included, which sizes every payload. It returns the bytes
// this rank sent and adds the level's times to times, which add up to its
// wall time: expansion, the device time of the two expansion ranges;
// wait, the time the engine's stream stood waiting for the exchange after
// the first range (what the overlap left exposed); expand_exchange, the
// rest: packing and unpacking payloads, the host's calls and waits while
// the device had nothing queued, reading the counts.
func (x *deviceExchange) expandLevel(lvl int32, colFront []int64, times map[string]float64) (int64, error) {
	start := time.Now()
	l, bn := x.l, int(x.l.BlockN)
	if len(colFront) != l.R {
		return 0, fmt.Errorf("expand exchange: %d frontier sizes for a grid column of %d", len(colFront), l.R)
	}
	counts, displs := make([]int, l.R), make([]int, l.R)
	exchange := false // whether any payload travels (the same answer on every rank of the column)
	for r, n := range colFront {
		_, counts[r] = payloadWords(x.mode, int(n), bn)
		displs[r] = r * x.maxWords
		exchange = exchange || counts[r] > 0
	}
	own := int64(x.eng.nfront)
	if own != colFront[l.I] {
		return 0, fmt.Errorf("expand exchange: own frontier of %d vertices, the level's collective says %d", own, colFront[l.I])
	}
	split := own // all_front[0, split) is expanded while the exchange runs
	if !x.overlap {
		split = 0
	}
	col := x.dg.Col
	var words int
	err := x.rt.OnDevice(x.dev, func() error {
		var err error
		if words, err = x.eng.frontierPayloadDev(x.mode, x.expSend); err != nil {
			return fmt.Errorf("expand message: %w", err)
		}
		if words != counts[l.I] {
			return fmt.Errorf("expand message: own payload of %d words, %d expected", words, counts[l.I])
		}
		if err := x.rt.EventRecord(x.ev[evSent], x.es); err != nil {
			return err
		}
		if exchange {
			// The exchange first, so that its kernel is queued ahead of
			// the expansion's blocks.
			if err := x.rt.StreamWaitEvent(x.xs, x.ev[evSent]); err != nil {
				return err
			}
			if err := col.Allgatherv(comm.Device(x.expSend, words, comm.Uint32), comm.Device(x.expRecv, l.R*x.maxWords, comm.Uint32), counts, displs); err != nil {
				return err
			}
			if err := x.rt.EventRecord(x.evXch, x.xs); err != nil {
				return err
			}
		}
		// The own frontier, while the exchange runs.
		if err := x.eng.frontierBeginDev(); err != nil {
			return err
		}
		if err := x.eng.expandBegin(); err != nil {
			return err
		}
		if err := x.rt.EventRecord(x.ev[evOwnStart], x.es); err != nil {
			return err
		}
		if err := x.eng.expandRange(lvl, 0, split); err != nil {
			return err
		}
		if err := x.rt.EventRecord(x.ev[evOwn], x.es); err != nil {
			return err
		}
		if exchange {
			if err := x.rt.StreamWaitEvent(x.es, x.evXch); err != nil {
				return err
			}
		}
		return x.rt.EventRecord(x.ev[evWaited], x.es)
	})
	if err != nil {
		return 0, fmt.Errorf("expand exchange: %w", err)
	}
	// The received payloads are appended and expanded behind the wait
	// for the exchange, enqueued without the host waiting for it.
	ps := make([]devPayload, 0, l.R)
	for r, n := range colFront {
		if r != l.I {
			ps = append(ps, devPayload{src: r, ptr: x.slot(x.expRecv, r), count: int(n)})
		}
	}
	nall, err := x.eng.frontierAddDev(x.mode, ps)
	if err != nil {
		return 0, fmt.Errorf("expand exchange: %w", err)
	}
	if err := x.rt.OnDevice(x.dev, func() error { return x.rt.EventRecord(x.ev[evLoaded], x.es) }); err != nil {
		return 0, fmt.Errorf("expand exchange: %w", err)
	}
	if err := x.eng.expandRange(lvl, split, nall); err != nil {
		return 0, fmt.Errorf("expand_frontier: %w", err)
	}
	if err := x.rt.OnDevice(x.dev, func() error { return x.rt.EventRecord(x.ev[evEnd], x.es) }); err != nil {
		return 0, fmt.Errorf("expand_frontier: %w", err)
	}
	// The level's one wait. Through the exchange's NCCL communicator, so
	// that a failed peer fails it rather than hanging it.
	if exchange {
		if err := col.WaitStream(x.es); err != nil {
			return 0, fmt.Errorf("expand exchange: %w", err)
		}
	}
	if _, _, err := x.eng.expandEnd(); err != nil {
		return 0, fmt.Errorf("expand_frontier: %w", err)
	}
	wall := time.Since(start).Seconds()
	var first, wait, second float64 // ms
	err = x.rt.OnDevice(x.dev, func() error {
		var err error
		if first, err = x.rt.ElapsedMs(x.ev[evOwnStart], x.ev[evOwn]); err != nil {
			return err
		}
		if wait, err = x.rt.ElapsedMs(x.ev[evOwn], x.ev[evWaited]); err != nil {
			return err
		}
		second, err = x.rt.ElapsedMs(x.ev[evLoaded], x.ev[evEnd])
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("expand exchange timing: %w", err)
	}
	expansion, wait := min((first+second)/1e3, wall), min(wait/1e3, wall)
	expansion = min(expansion, wall-wait)
	times[PhaseExpansion] += expansion
	times[PhaseWait] += wait
	times[PhaseExpandExchange] += wall - expansion - wait
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
