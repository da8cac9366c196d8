package ubfs

// rank.go: one processor P(i,j) of [1] Algorithm II, level by level as
// Figure 3 draws it (see doc.go), with the exchanges host-staged over comm.

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/vlq"
)

// Phase names (results.LevelPhase keys). kernel_* are the engine's work
// (the wall time of its calls, which wait for the device), wait_* the
// communication and the host's waiting for it ([1] §VI-E, Figure 10's
// split). Keys event_* are the CUDA backend's kernel times from CUDA
// events, inside the kernel_* times.
const (
	PhaseKernelExpand = "kernel_expand"  // tasks 2–3: NQ bitmap or coding, CQ/SV load
	PhaseKernelCQList = "kernel_cq_list" // task 4
	PhaseKernelGather = "kernel_gather"  // tasks 5–6 (and task 8 for the own column)
	PhaseKernelFold   = "kernel_fold"    // task 8 for received chunks
	PhaseWaitExpand   = "wait_expand"    // tasks 1 and 3's communication
	PhaseWaitFold     = "wait_fold"      // task 7's communication

	BytesExpand = "expand" // bytes sent in the expand, summed over ranks
	BytesFold   = "fold"   // bytes sent in the fold
	BytesH2D    = "h2d"    // bytes copied host to device ([1] Figure 12)
	BytesD2H    = "d2h"    // bytes copied device to host
)

// tagFold is the fold messages' tag on the row communicator.
const tagFold = 7

// lastChunk flags a fold message's header: the sender's last for the level.
const lastChunk = 1 << 31

// SearchResult is what one rank reports about a search.
type SearchResult struct {
	Levels int
	Phases []results.LevelPhase // rank 0's times; bytes summed over ranks
}

// Rank is one processor's share of the distributed search.
type Rank struct {
	grid *comm.Grid
	l    partition.Layout2D
	eng  engine
	opt  Options
	wb   int             // words per block bitmap
	dx   *deviceExchange // the device path of the exchanges, nil for the host path

	nqBits   []uint32 // own NQ bitmap, for the expand
	nqStream []byte
	colBits  []uint32 // R·wb
	rowBits  []uint32 // C·wb

	out      [][]uint32    // task 6's output per grid column
	sendBufs [][2][]uint32 // per peer column, two fold message buffers
	sendReqs [][2]comm.Request
	recvBufs [][]uint32
	recvReqs []comm.Request
}

func newRank(g *comm.Grid, l partition.Layout2D, eng engine, opt Options) (*Rank, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	if g.R != l.R || g.C != l.C {
		return nil, fmt.Errorf("layout %d×%d does not match grid %d×%d", l.R, l.C, g.R, g.C)
	}
	wb := BlockWords(l.B)
	rk := &Rank{grid: g, l: l, eng: eng, opt: opt, wb: wb,
		nqBits: make([]uint32, wb), nqStream: make([]byte, vlq.MaxBytes*int(l.B)+vlq.MaxBytes),
		colBits: make([]uint32, l.R*wb), rowBits: make([]uint32, l.C*wb),
		out: make([][]uint32, l.C), sendBufs: make([][2][]uint32, l.C), sendReqs: make([][2]comm.Request, l.C),
		recvBufs: make([][]uint32, l.C), recvReqs: make([]comm.Request, l.C)}
	msg := 1 + 2*opt.FoldChunk
	for m := range l.C {
		if m == g.J {
			continue
		}
		rk.sendBufs[m] = [2][]uint32{make([]uint32, msg), make([]uint32, msg)}
		rk.recvBufs[m] = make([]uint32, msg)
	}
	return rk, nil
}

// BFS runs one search from global vertex root. Collective over the grid.
func (rk *Rank) BFS(root int64) (SearchResult, error) {
	l := rk.l
	if root < 0 || root >= l.N {
		return SearchResult{}, fmt.Errorf("root %d out of range [0, %d)", root, l.N)
	}
	rootOff := int64(-1)
	if l.OwnerRank(root) == rk.grid.World.Rank() {
		rootOff = root % l.B
	}
	if err := rk.eng.Reset(rootOff, root); err != nil {
		return SearchResult{}, fmt.Errorf("reset: %w", err)
	}
	rk.eng.Counters()
	var phases []results.LevelPhase
	var sums []int64 // per level: expand, fold, h2d, d2h
	for lvl := 0; ; lvl++ {
		ph := results.LevelPhase{Level: lvl, Times: map[string]float64{}, Bytes: map[string]int64{}}
		// Task 1 (Algorithm III line 1): fv <- all reduce |NQ|; it is also
		// Algorithm II line 21's test.
		t0 := time.Now()
		nq, err := rk.eng.NQCount()
		if err != nil {
			return SearchResult{}, fmt.Errorf("level %d: |NQ|: %w", lvl, err)
		}
		t1 := time.Now()
		fv, err := comm.AllreduceInt64(rk.grid.World, nq, comm.Sum)
		if err != nil {
			return SearchResult{}, fmt.Errorf("level %d: all reduce |NQ|: %w", lvl, err)
		}
		ph.Times[PhaseKernelExpand] += t1.Sub(t0).Seconds()
		ph.Times[PhaseWaitExpand] += time.Since(t1).Seconds()
		if fv == 0 {
			break
		}
		ph.Frontier = fv
		eb, err := rk.expand(fv, nq, ph.Times)
		if err != nil {
			return SearchResult{}, fmt.Errorf("level %d: expand: %w", lvl, err)
		}
		t2 := time.Now()
		nw, err := rk.eng.CQList()
		if err != nil {
			return SearchResult{}, fmt.Errorf("level %d: CQ list: %w", lvl, err)
		}
		ph.Times[PhaseKernelCQList] = time.Since(t2).Seconds()
		fb, err := rk.fold(nw, ph.Times)
		if err != nil {
			return SearchResult{}, fmt.Errorf("level %d: fold: %w", lvl, err)
		}
		ev, h2d, d2h := rk.eng.Counters()
		for k, v := range ev {
			ph.Times[k] = v
		}
		phases = append(phases, ph)
		sums = append(sums, eb, fb, h2d, d2h)
	}
	if err := comm.AllreduceSlice(rk.grid.World, sums, comm.Sum); err != nil {
		return SearchResult{}, fmt.Errorf("bytes allreduce: %w", err)
	}
	for k := range phases {
		s := sums[4*k:]
		phases[k].Bytes[BytesExpand] = s[0]
		phases[k].Bytes[BytesFold] = s[1]
		phases[k].Bytes[BytesH2D] = s[2]
		phases[k].Bytes[BytesD2H] = s[3]
	}
	return SearchResult{Levels: len(phases), Phases: phases}, nil
}

// expand is tasks 2–3 (Algorithm III lines 2–7): the NQ bitmaps, or the
// compressed NQ lists, all-gathered in the grid column (CQ) and, for SV
// (§V-F-2), in the grid row. It returns the bytes this rank sent.
func (rk *Rank) expand(fv, nq int64, times map[string]float64) (int64, error) {
	l, g := rk.l, rk.grid
	useBitmap := !rk.opt.Compression || float64(fv) > rk.opt.Alpha*float64(l.N)
	var rowComm comm.Comm
	if rk.opt.ShareSV {
		rowComm = g.Row
	}
	var col, row []Part
	var sent int64
	t0 := time.Now()
	var wait time.Duration
	if rk.dx != nil {
		sent, wait, err := rk.dx.expand(useBitmap, rk.opt.ShareSV, nq)
		if err != nil {
			return 0, err
		}
		times[PhaseWaitExpand] += wait.Seconds()
		times[PhaseKernelExpand] += (time.Since(t0) - wait).Seconds()
		return sent, nil
	}
	// Only communicators of several ranks exchange: a rank alone in its
	// grid column (row) reads its own NQ where it is.
	send := g.Col.Size() > 1 || (rowComm != nil && rowComm.Size() > 1)
	if useBitmap {
		if send {
			if err := rk.eng.NQBitmap(rk.nqBits); err != nil {
				return 0, err
			}
		}
		gather := func(c comm.Comm, dst []uint32) ([]Part, error) {
			if c == nil {
				return nil, nil
			}
			if c.Size() == 1 {
				return []Part{{Own: true}}, nil
			}
			t := time.Now()
			defer func() { wait += time.Since(t) }()
			if err := c.Allgather(comm.Host(rk.nqBits), comm.Host(dst)); err != nil {
				return nil, err
			}
			sent += int64(4 * rk.wb * (c.Size() - 1))
			parts := make([]Part, c.Size())
			for r := range parts {
				parts[r].Bitmap = dst[r*rk.wb : (r+1)*rk.wb]
			}
			parts[c.Rank()] = Part{Own: true} // read where it is
			return parts, nil
		}
		var err error
		if col, err = gather(g.Col, rk.colBits); err != nil {
			return 0, fmt.Errorf("column all gather: %w", err)
		}
		if row, err = gather(rowComm, rk.rowBits); err != nil {
			return 0, fmt.Errorf("row all gather: %w", err)
		}
	} else {
		nb := 0
		if send {
			var err error
			if nb, err = rk.eng.NQEncode(rk.nqStream); err != nil {
				return 0, err
			}
		}
		own := rk.nqStream[:nb]
		gather := func(c comm.Comm) ([]Part, error) {
			if c == nil {
				return nil, nil
			}
			if c.Size() == 1 {
				return []Part{{Own: true}}, nil
			}
			t := time.Now()
			defer func() { wait += time.Since(t) }()
			hdr := []int64{nq, int64(nb)}
			all := make([]int64, 2*c.Size())
			if err := c.Allgather(comm.Host(hdr), comm.Host(all)); err != nil {
				return nil, err
			}
			counts := make([]int, c.Size())
			for r := range counts {
				counts[r] = int(all[2*r+1])
			}
			displs, total := comm.Displs(counts)
			recv := make([]byte, total)
			if err := c.Allgatherv(comm.Host(own), comm.Host(recv), counts, displs); err != nil {
				return nil, err
			}
			sent += int64(nb*(c.Size()-1)) + 16*int64(c.Size()-1)
			parts := make([]Part, c.Size())
			for r := range parts {
				parts[r] = Part{Stream: recv[displs[r] : displs[r]+counts[r]], N: int(all[2*r])}
			}
			parts[c.Rank()] = Part{Own: true} // read where it is, not decoded
			return parts, nil
		}
		var err error
		if col, err = gather(g.Col); err != nil {
			return 0, fmt.Errorf("column all gather: %w", err)
		}
		if row, err = gather(rowComm); err != nil {
			return 0, fmt.Errorf("row all gather: %w", err)
		}
	}
	if err := rk.eng.LoadExpand(col, row); err != nil {
		return 0, err
	}
	times[PhaseWaitExpand] += wait.Seconds()
	times[PhaseKernelExpand] += (time.Since(t0) - wait).Seconds()
	return sent, nil
}

// fold is tasks 5–8 over the CQ list: each part gathered and filtered by
// the engine is sent at once, in chunks of at most FoldChunk pairs, to its
// owners in the grid row (non-blocking sends, two buffers per peer), and
// the chunks arriving meanwhile are applied as they come (task 8). Each
// sender's last message of the level carries lastChunk. It returns the
// bytes this rank sent.
func (rk *Rank) fold(n int, times map[string]float64) (int64, error) {
	if rk.dx != nil {
		sent, kernel, wait, err := rk.dx.fold(n)
		times[PhaseKernelGather] += kernel.Seconds()
		times[PhaseWaitFold] += wait.Seconds()
		return sent, err
	}
	c, me := rk.grid.Row, rk.grid.J
	var sent int64
	var kernel, apply, wait time.Duration
	pending := 0 // peers whose last chunk has not arrived
	for m := range rk.l.C {
		if m == me {
			continue
		}
		if err := rk.postRecv(m); err != nil {
			return 0, err
		}
		pending++
	}
	slot := make([]int, rk.l.C)
	// poll applies every chunk that has arrived.
	poll := func() error {
		for m, r := range rk.recvReqs {
			if r == nil {
				continue
			}
			t := time.Now()
			done, n, err := r.Test()
			wait += time.Since(t)
			if err != nil {
				return fmt.Errorf("receive from grid column %d: %w", m, err)
			}
			if !done {
				continue
			}
			rk.recvReqs[m] = nil
			buf := rk.recvBufs[m][:n]
			if n < 1 || int(buf[0]&^lastChunk)*2 != n-1 {
				return fmt.Errorf("fold message of %d words from grid column %d has header %#x", n, m, buf[0])
			}
			t = time.Now()
			if err := rk.eng.ApplyFold(m, buf[1:]); err != nil {
				return err
			}
			apply += time.Since(t)
			if buf[0]&lastChunk != 0 {
				pending--
			} else if err := rk.postRecv(m); err != nil {
				return err
			}
		}
		return nil
	}
	// send ships out[m] (and, when last, the end flag) to grid column m.
	send := func(m int, last bool) error {
		pairs := rk.out[m]
		for first := true; first || len(pairs) > 0; first = false {
			k := min(len(pairs)/2, rk.opt.FoldChunk)
			end := last && k*2 == len(pairs)
			if k == 0 && !end {
				break
			}
			s := slot[m]
			slot[m] ^= 1
			if r := rk.sendReqs[m][s]; r != nil {
				for {
					t := time.Now()
					done, _, err := r.Test()
					wait += time.Since(t)
					if err != nil {
						return fmt.Errorf("send to grid column %d: %w", m, err)
					}
					if done {
						break
					}
					if err := poll(); err != nil {
						return err
					}
					runtime.Gosched()
				}
				rk.sendReqs[m][s] = nil
			}
			buf := rk.sendBufs[m][s]
			buf[0] = uint32(k)
			if end {
				buf[0] |= lastChunk
			}
			copy(buf[1:], pairs[:2*k])
			pairs = pairs[2*k:]
			t := time.Now()
			r, err := c.Isend(comm.Host(buf[:1+2*k]), m, tagFold)
			wait += time.Since(t)
			if err != nil {
				return fmt.Errorf("send to grid column %d: %w", m, err)
			}
			rk.sendReqs[m][s] = r
			sent += int64(4 * (1 + 2*k))
		}
		rk.out[m] = rk.out[m][:0]
		return nil
	}
	for start := 0; start < n; {
		for m := range rk.out {
			rk.out[m] = rk.out[m][:0]
		}
		t := time.Now()
		next, err := rk.eng.GatherFilter(start, rk.out)
		kernel += time.Since(t)
		if err != nil {
			return 0, fmt.Errorf("gather and filter from CQ list entry %d: %w", start, err)
		}
		if next <= start {
			return 0, fmt.Errorf("gather and filter made no progress at CQ list entry %d", start)
		}
		start = next
		for m := range rk.out {
			if m != me && len(rk.out[m]) > 0 {
				if err := send(m, false); err != nil {
					return 0, err
				}
			}
		}
		if err := poll(); err != nil {
			return 0, err
		}
	}
	for m := range rk.out {
		if m != me {
			if err := send(m, true); err != nil {
				return 0, err
			}
		}
	}
	for {
		if err := poll(); err != nil {
			return 0, err
		}
		busy := pending > 0
		for m := range rk.sendReqs {
			for s, r := range rk.sendReqs[m] {
				if r == nil {
					continue
				}
				t := time.Now()
				done, _, err := r.Test()
				wait += time.Since(t)
				if err != nil {
					return 0, fmt.Errorf("send to grid column %d: %w", m, err)
				}
				if done {
					rk.sendReqs[m][s] = nil
				} else {
					busy = true
				}
			}
		}
		if !busy {
			break
		}
		runtime.Gosched()
	}
	times[PhaseKernelGather] += kernel.Seconds()
	times[PhaseKernelFold] += apply.Seconds()
	times[PhaseWaitFold] += wait.Seconds()
	return sent, nil
}

func (rk *Rank) postRecv(m int) error {
	r, err := rk.grid.Row.Irecv(comm.Host(rk.recvBufs[m]), m, tagFold)
	if err != nil {
		return fmt.Errorf("post receive from grid column %d: %w", m, err)
	}
	rk.recvReqs[m] = r
	return nil
}

// Parents gathers every vertex's parent on world rank 0 into dst (length N
// there; nil elsewhere). Collective. Rank r owns vertex block r.
func (rk *Rank) Parents(dst []int64) error {
	lo, hi := rk.l.BlockRange(rk.grid.World.Rank())
	own := make([]int64, hi-lo)
	if err := rk.eng.Parents(own); err != nil {
		return err
	}
	if err := comm.GathervInto(rk.grid.World, own, dst, 0); err != nil {
		return fmt.Errorf("gather parents: %w", err)
	}
	return nil
}

// Close releases the device exchange and the engine. Any fold request is
// complete after a search. Collective when the device path is set up.
func (rk *Rank) Close() error {
	var err error
	if rk.dx != nil {
		err = rk.dx.close()
		rk.dx = nil
	}
	return errors.Join(err, rk.eng.Close())
}
