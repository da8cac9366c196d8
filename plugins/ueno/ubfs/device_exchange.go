package ubfs

// device_exchange.go: the device path of the exchanges (exchange =
// device): the expand's bitmaps and coded lists, and the fold's pairs, go
// from device buffer to device buffer over NCCL (harness/comm's NCCLComm on
// the grid's row and column), never through host memory; only counts
// travel over the host communicator. Each NCCL operation runs on a stream
// of its own and is waited for (Sync) before the engine reads its result;
// every engine call has finished its kernels when it returns.
//
// The fold runs in rounds, one part of the CQ list each (a rank alone in
// its grid row only gathers and filters): the part's pairs
// per grid column are counted, the counts exchanged (host), the pairs sent
// with one all-to-all (NCCL), and the received chunks applied on the device
// (task 8). A rank with no part left takes part with empty counts until
// every rank of its row is done; a host all-reduce per round says so. This
// keeps the paper's chunked fold (§V-A) but not its overlap with gathering,
// which the host path has through non-blocking sends.

import (
	"errors"
	"fmt"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
)

type deviceExchange struct {
	g      *comm.Grid
	dg     *comm.DeviceGrid
	rt     *cuda.Runtime
	stream uintptr
	eng    *cudaEngine
	d      uenoDev
	wb     int
}

// newDeviceExchange sets up the NCCL communicators of the grid's row and
// column. Collective over the grid.
func newDeviceExchange(g *comm.Grid, eng *cudaEngine) (*deviceExchange, error) {
	x := &deviceExchange{g: g, eng: eng, wb: BlockWords(eng.b)}
	var err error
	if x.d, err = eng.devPtrs(); err == nil {
		if x.rt, err = cuda.LoadRuntime(); err == nil {
			x.stream, err = x.rt.StreamCreate(eng.dev.Ordinal)
		}
	}
	if err := comm.Agree(g.World, err); err != nil {
		x.close()
		return nil, fmt.Errorf("device exchange: %w", err)
	}
	if x.dg, err = comm.NewDeviceGrid(g, eng.dev.Ordinal, x.stream); err != nil {
		x.close()
		return nil, fmt.Errorf("device exchange: %w", err)
	}
	return x, nil
}

func (x *deviceExchange) close() error {
	var err error
	if x.dg != nil {
		err = x.dg.Close()
		x.dg = nil
	}
	if x.stream != 0 {
		err = errors.Join(err, x.rt.StreamDestroy(x.stream))
		x.stream = 0
	}
	return err
}

// expand is Algorithm III lines 2–7 between device buffers: the NQ bitmap
// all-gathered into CQ (column) and into sv_in, ORed into SV (row), or the
// coded NQ all-gathered and decoded into them. It returns the bytes sent
// and the time spent communicating.
func (x *deviceExchange) expand(useBitmap, shareSV bool, nq int64) (int64, time.Duration, error) {
	e, d, wb := x.eng, x.d, x.wb
	var sent int64
	var wait time.Duration
	comms := []*comm.NCCLComm{x.dg.Col}
	if shareSV {
		comms = append(comms, x.dg.Row)
	}
	if useBitmap {
		for t, c := range comms {
			target := int32(t) // 0: CQ, 1: SV
			if c.Size() == 1 {
				if err := e.loadPartDevice(target, 0, uintptr(d.NQ), 0, 0, 0); err != nil {
					return 0, 0, err
				}
				continue
			}
			dst := d.CQ
			if target == 1 {
				dst = d.SVIn
			}
			t0 := time.Now()
			err := c.Allgather(comm.Device(uintptr(d.NQ), wb, comm.Uint32), comm.Device(uintptr(dst), wb*c.Size(), comm.Uint32))
			if err == nil {
				err = c.Sync()
			}
			wait += time.Since(t0)
			if err != nil {
				return 0, 0, fmt.Errorf("all gather of NQ bitmaps: %w", err)
			}
			sent += int64(4 * wb * (c.Size() - 1))
			if target == 1 {
				for m := range c.Size() {
					if err := e.loadPartDevice(1, m, uintptr(d.SVIn)+uintptr(4*wb*m), 0, 0, 0); err != nil {
						return 0, 0, err
					}
				}
			}
		}
		return sent, wait, e.clearNQ()
	}
	var nb int64
	for _, c := range comms {
		if c.Size() > 1 {
			var err error
			if nb, err = e.encodeDevice(); err != nil {
				return 0, 0, err
			}
			break
		}
	}
	for t, c := range comms {
		target := int32(t)
		if c.Size() == 1 { // alone: the own NQ bitmap, where it is
			if err := e.loadPartDevice(target, 0, uintptr(d.NQ), 0, 0, 0); err != nil {
				return 0, 0, err
			}
			continue
		}
		t0 := time.Now()
		hdr := []int64{nq, nb}
		all := make([]int64, 2*c.Size())
		if err := c.HostComm().Allgather(comm.Host(hdr), comm.Host(all)); err != nil {
			return 0, 0, fmt.Errorf("all gather of list sizes: %w", err)
		}
		counts := make([]int, c.Size())
		for r := range counts {
			counts[r] = int(all[2*r+1])
		}
		displs, total := comm.Displs(counts)
		if uint64(total) > d.StreamsCap {
			return 0, 0, fmt.Errorf("coded lists of %d bytes exceed the %d-byte device buffer", total, d.StreamsCap)
		}
		err := c.Allgatherv(comm.Device(uintptr(d.Stream), int(nb), comm.Byte), comm.Device(uintptr(d.Streams), total, comm.Byte), counts, displs)
		if err == nil {
			err = c.Sync()
		}
		wait += time.Since(t0)
		if err != nil {
			return 0, 0, fmt.Errorf("all gather of coded NQ lists: %w", err)
		}
		sent += nb*int64(c.Size()-1) + 16*int64(c.Size()-1)
		for r := range c.Size() {
			if err := e.loadPartDevice(target, r, 0, uintptr(d.Streams)+uintptr(displs[r]), all[2*r], all[2*r+1]); err != nil {
				return 0, 0, fmt.Errorf("part %d: %w", r, err)
			}
		}
	}
	return sent, wait, e.clearNQ()
}

// fold is tasks 5–8 in rounds (see the file comment). It returns the bytes
// sent, the engine's time and the communication's.
func (x *deviceExchange) fold(n int) (sent int64, kernel, wait time.Duration, err error) {
	e := x.eng
	row := x.dg.Row
	host := x.g.Row
	c, me := row.Size(), row.Rank()
	if c == 1 {
		// Alone in its grid row, the rank folds nothing: task 6 applied
		// every survivor (all are the own grid column's), so the level is
		// the gathering alone, with no rounds to agree on.
		for start := 0; start < n; {
			next, _, took, err := x.gatherPart(start)
			kernel += took
			if err != nil {
				return 0, 0, 0, err
			}
			start = next
		}
		return 0, kernel, 0, nil
	}
	rc := make([]uint32, c)
	sc := make([]uint32, c)
	scounts, sdispls := make([]int, c), make([]int, c)
	rcounts := make([]int, c)
	for start := 0; ; {
		t0 := time.Now()
		left := int64(0)
		if start < n {
			left = 1
		}
		any, err := comm.AllreduceInt64(host, left, comm.Max)
		wait += time.Since(t0)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("fold round: %w", err)
		}
		if any == 0 {
			return sent, kernel, wait, nil
		}
		clear(sc)
		if start < n {
			next, counts, took, err := x.gatherPart(start)
			kernel += took
			if err != nil {
				return 0, 0, 0, err
			}
			start = next
			copy(sc, counts)
		}
		sc[me] = 0 // the own column's edges were applied by the filter
		t1 := time.Now()
		if err := host.Alltoall(comm.Host(sc), comm.Host(rc)); err != nil {
			return 0, 0, 0, fmt.Errorf("fold counts: %w", err)
		}
		// The output may have grown (a CQ word beyond the buffer).
		d, err := e.devPtrs()
		if err != nil {
			return 0, 0, 0, err
		}
		for m := range c {
			scounts[m], sdispls[m], rcounts[m] = 2*int(sc[m]), 2*m*int(d.OutCap), 2*int(rc[m])
			sent += 4 * int64(scounts[m])
		}
		rdispls, total := comm.Displs(rcounts)
		recv, err := e.recvPtr(int64(total / 2))
		if err != nil {
			return 0, 0, 0, err
		}
		err = row.Alltoallv(comm.Device(uintptr(d.Out), 2*c*int(d.OutCap), comm.Uint32), scounts, sdispls,
			comm.Device(recv, max(total, 2), comm.Uint32), rcounts, rdispls)
		if err == nil {
			err = row.Sync()
		}
		wait += time.Since(t1)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("fold all to all: %w", err)
		}
		t2 := time.Now()
		for m := range c {
			if rc[m] == 0 {
				continue
			}
			if err := e.applyFoldDevice(m, recv+uintptr(4*rdispls[m]), int64(rc[m])); err != nil {
				return 0, 0, 0, err
			}
		}
		kernel += time.Since(t2)
	}
}

// gatherPart runs tasks 5–6 over the part of the CQ list from entry start,
// leaving the output on the device, and checks that it advanced. It
// returns the next entry, the pairs per grid column and the time it took.
func (x *deviceExchange) gatherPart(start int) (next int, counts []uint32, took time.Duration, err error) {
	t := time.Now()
	next, counts, err = x.eng.gatherFilterDevice(start)
	took = time.Since(t)
	if err != nil {
		return 0, nil, took, fmt.Errorf("gather and filter from CQ list entry %d: %w", start, err)
	}
	if next <= start {
		return 0, nil, took, fmt.Errorf("gather and filter made no progress at CQ list entry %d", start)
	}
	return next, counts, took, nil
}
