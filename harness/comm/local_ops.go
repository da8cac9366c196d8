package comm

// local_ops.go: the in-process communicator's collectives and
// point-to-point operations (see local.go for the protocol). Every check
// looks at all ranks' arguments, so a bad call fails on every rank with the
// same error instead of leaving some ranks waiting.

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/par"
)

// bigCopy is copy for message data: one goroutine copies up to 4 MiB at
// memcpy speed, and larger messages (a scale-26 predecessor exchange moves
// 33 MB a rank) are split over every core with par.For.
func bigCopy(dst, src []byte) {
	const serial = 4 << 20
	n := min(len(dst), len(src))
	if n <= serial {
		copy(dst, src)
		return
	}
	par.ForAligned(int64(n), 64, func(lo, hi int64) { copy(dst[lo:hi], src[lo:hi]) })
}

func (c *localComm) Barrier() error {
	return c.collective(collArgs{name: "barrier"}, nil, nil)
}

func (c *localComm) Allreduce(buf Buffer, op Op) error {
	a, err := c.args("allreduce", buf, nil)
	if err != nil {
		return err
	}
	a.op = op
	var result []byte
	err = c.collective(a, func(all []collArgs) error {
		if err := checkOp(a.dt, op); err != nil {
			return err
		}
		for r, x := range all {
			if x.sendLen != a.sendLen || x.op != op {
				return fmt.Errorf("rank %d passed %d elements and %s, rank %d passed %d and %s", r, x.sendLen, x.op, c.rank, a.sendLen, op)
			}
		}
		return nil
	}, func(all []collArgs) {
		// Reduce into a private buffer: other ranks still read ours.
		result = make([]byte, len(a.send))
		copy(result, all[0].send)
		for _, x := range all[1:] {
			reduceBytes(a.dt, op, result, x.send)
		}
	})
	if err != nil {
		return err
	}
	copy(a.send, result) // every rank has finished reading ours
	return nil
}

func (c *localComm) Bcast(buf Buffer, root int) error {
	a, err := c.args("bcast", buf, nil)
	if err != nil {
		return err
	}
	a.root = root
	return c.collective(a, func(all []collArgs) error {
		if err := c.checkRoot(all); err != nil {
			return err
		}
		for r, x := range all {
			if x.sendLen != all[root].sendLen {
				return fmt.Errorf("root %d passes %d elements but rank %d passes %d", root, all[root].sendLen, r, x.sendLen)
			}
		}
		return nil
	}, func(all []collArgs) {
		if c.rank != root {
			copy(a.send, all[root].send)
		}
	})
}

func (c *localComm) Allgather(send, recv Buffer) error {
	a, err := c.args("allgather", send, recv)
	if err != nil {
		return err
	}
	n := c.g.size
	return c.collective(a, func(all []collArgs) error {
		for r, x := range all {
			if x.sendLen != all[0].sendLen || x.recvLen != n*all[0].sendLen {
				return fmt.Errorf("rank %d sends %d into %d elements; want every rank to send %d into %d", r, x.sendLen, x.recvLen, all[0].sendLen, n*all[0].sendLen)
			}
		}
		return nil
	}, func(all []collArgs) {
		for r, x := range all {
			bigCopy(a.recv[r*len(x.send):], x.send)
		}
	})
}

func (c *localComm) Allgatherv(send, recv Buffer, counts, displs []int) error {
	a, err := c.args("allgatherv", send, recv)
	if err != nil {
		return err
	}
	a.counts, a.displs = counts, displs
	es := a.dt.Size()
	return c.collective(a, func(all []collArgs) error {
		for r, x := range all {
			if err := checkLayout(x.counts, x.displs, len(all), x.recvLen); err != nil {
				return fmt.Errorf("rank %d: %w", r, err)
			}
			for s := range all {
				if x.counts[s] != all[s].sendLen {
					return fmt.Errorf("rank %d expects %d elements from rank %d, which sends %d", r, x.counts[s], s, all[s].sendLen)
				}
			}
		}
		return nil
	}, func(all []collArgs) {
		for s, x := range all {
			bigCopy(a.recv[displs[s]*es:], x.send)
		}
	})
}

func (c *localComm) Alltoall(send, recv Buffer) error {
	a, err := c.args("alltoall", send, recv)
	if err != nil {
		return err
	}
	n := c.g.size
	es := a.dt.Size()
	return c.collective(a, func(all []collArgs) error {
		for r, x := range all {
			if x.sendLen%n != 0 || x.sendLen != all[0].sendLen || x.recvLen != x.sendLen {
				return fmt.Errorf("rank %d sends %d and receives %d elements; want the same multiple of %d on every rank", r, x.sendLen, x.recvLen, n)
			}
		}
		return nil
	}, func(all []collArgs) {
		chunk := a.sendLen / n * es
		for s, x := range all {
			bigCopy(a.recv[s*chunk:(s+1)*chunk], x.send[c.rank*chunk:])
		}
	})
}

func (c *localComm) Alltoallv(send Buffer, scounts, sdispls []int, recv Buffer, rcounts, rdispls []int) error {
	a, err := c.args("alltoallv", send, recv)
	if err != nil {
		return err
	}
	a.counts, a.displs, a.rcounts, a.rdispls = scounts, sdispls, rcounts, rdispls
	es := a.dt.Size()
	return c.collective(a, func(all []collArgs) error {
		for r, x := range all {
			if err := checkLayout(x.counts, x.displs, len(all), x.sendLen); err != nil {
				return fmt.Errorf("rank %d send: %w", r, err)
			}
			if err := checkLayout(x.rcounts, x.rdispls, len(all), x.recvLen); err != nil {
				return fmt.Errorf("rank %d recv: %w", r, err)
			}
		}
		for r, x := range all {
			for s := range all {
				if x.rcounts[s] != all[s].counts[r] {
					return fmt.Errorf("rank %d expects %d elements from rank %d, which sends it %d", r, x.rcounts[s], s, all[s].counts[r])
				}
			}
		}
		return nil
	}, func(all []collArgs) {
		for s, x := range all {
			n := rcounts[s] * es
			from := x.displs[c.rank] * es
			bigCopy(a.recv[rdispls[s]*es:rdispls[s]*es+n], x.send[from:from+n])
		}
	})
}

func (c *localComm) Gatherv(send, recv Buffer, counts, displs []int, root int) error {
	a, err := c.args("gatherv", send, recv)
	if err != nil {
		return err
	}
	a.counts, a.displs, a.root = counts, displs, root
	es := a.dt.Size()
	return c.collective(a, func(all []collArgs) error {
		if err := c.checkRoot(all); err != nil {
			return err
		}
		x := all[root]
		if err := checkLayout(x.counts, x.displs, len(all), x.recvLen); err != nil {
			return fmt.Errorf("root %d: %w", root, err)
		}
		for s := range all {
			if x.counts[s] != all[s].sendLen {
				return fmt.Errorf("root %d expects %d elements from rank %d, which sends %d", root, x.counts[s], s, all[s].sendLen)
			}
		}
		return nil
	}, func(all []collArgs) {
		if c.rank != root {
			return
		}
		for s, x := range all {
			bigCopy(a.recv[displs[s]*es:], x.send)
		}
	})
}

// checkRoot checks that every rank names the same, valid root.
func (c *localComm) checkRoot(all []collArgs) error {
	root := all[0].root
	if root < 0 || root >= len(all) {
		return fmt.Errorf("root %d out of range [0, %d)", root, len(all))
	}
	for r, x := range all {
		if x.root != root {
			return fmt.Errorf("rank 0 names root %d but rank %d names %d", root, r, x.root)
		}
	}
	return nil
}

// checkLayout checks per-rank counts and displacements against a buffer
// of length n (in elements).
func checkLayout(counts, displs []int, ranks, n int) error {
	if len(counts) != ranks || len(displs) != ranks {
		return fmt.Errorf("%d counts and %d displacements for %d ranks", len(counts), len(displs), ranks)
	}
	for i := range counts {
		if counts[i] < 0 || displs[i] < 0 || displs[i]+counts[i] > n {
			return fmt.Errorf("block %d (displacement %d, count %d) outside a buffer of %d elements", i, displs[i], counts[i], n)
		}
	}
	return nil
}

// checkOp rejects bitwise or on floating-point data.
func checkOp(dt Datatype, op Op) error {
	switch op {
	case Sum, Max, Min:
		return nil
	case Or:
		if dt == Float64 {
			return fmt.Errorf("op or is not defined on %s", dt)
		}
		return nil
	}
	return fmt.Errorf("unknown reduction %s", op)
}

// reduceBytes applies op element-wise: acc = acc op x.
func reduceBytes(dt Datatype, op Op, acc, x []byte) {
	switch dt {
	case Byte:
		reduceInts(op, acc, x)
	case Int32:
		reduceInts(op, view[int32](acc), view[int32](x))
	case Uint32:
		reduceInts(op, view[uint32](acc), view[uint32](x))
	case Int64:
		reduceInts(op, view[int64](acc), view[int64](x))
	case Uint64:
		reduceInts(op, view[uint64](acc), view[uint64](x))
	case Float64:
		reduceNums(op, view[float64](acc), view[float64](x))
	}
}

type integer interface {
	~uint8 | ~int32 | ~uint32 | ~int64 | ~uint64
}

func reduceInts[T integer](op Op, acc, x []T) {
	if op == Or {
		for i := range acc {
			acc[i] |= x[i]
		}
		return
	}
	reduceNums(op, acc, x)
}

func reduceNums[T Elem](op Op, acc, x []T) {
	for i := range acc {
		switch op {
		case Sum:
			acc[i] += x[i]
		case Max:
			acc[i] = max(acc[i], x[i])
		case Min:
			acc[i] = min(acc[i], x[i])
		}
	}
}

// view reinterprets host bytes as elements of T.
func view[T Elem](b []byte) []T {
	if len(b) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(z)))
}

// ----- Point-to-point -----

// mailbox holds the unmatched sends and receives from one rank to another.
type mailbox struct {
	mu    sync.Mutex
	sends []*localReq
	recvs []*localReq
}

// localReq is one side of a point-to-point transfer.
type localReq struct {
	w    *localWorld
	dt   Datatype
	tag  int
	buf  []byte
	done chan struct{}
	n    int
	err  error
}

func (r *localReq) finish(n int, err error) {
	r.n, r.err = n, err
	close(r.done)
}

func (r *localReq) Wait() (int, error) {
	select {
	case <-r.done:
		return r.n, r.err
	default:
	}
	select {
	case <-r.done:
		return r.n, r.err
	case <-r.w.abortCh:
		return 0, r.w.aborted()
	}
}

func (r *localReq) Test() (bool, int, error) {
	select {
	case <-r.done:
		return true, r.n, r.err
	default:
	}
	if err := r.w.aborted(); err != nil {
		return true, 0, err
	}
	return false, 0, nil
}

// match copies a send into a receive and completes both.
func match(s, r *localReq) {
	switch {
	case s.dt != r.dt:
		err := fmt.Errorf("comm: message of %s received into a %s buffer", s.dt, r.dt)
		s.finish(0, err)
		r.finish(0, err)
	case len(s.buf) > len(r.buf):
		err := fmt.Errorf("comm: message of %d elements received into a buffer of %d (truncated)", len(s.buf)/s.dt.Size(), len(r.buf)/r.dt.Size())
		s.finish(0, err)
		r.finish(0, err)
	default:
		bigCopy(r.buf, s.buf)
		n := len(s.buf) / s.dt.Size()
		s.finish(n, nil)
		r.finish(n, nil)
	}
}

func (c *localComm) p2p(op string, buf Buffer, peer, tag int) (*localReq, *mailbox, error) {
	if err := c.g.w.aborted(); err != nil {
		return nil, nil, fmt.Errorf("comm: %s: %w", op, err)
	}
	b, err := hostBytes(op, buf)
	if err != nil {
		return nil, nil, err
	}
	if buf == nil {
		return nil, nil, fmt.Errorf("comm: %s: nil buffer", op)
	}
	if peer < 0 || peer >= c.g.size {
		return nil, nil, fmt.Errorf("comm: %s: rank %d out of range [0, %d)", op, peer, c.g.size)
	}
	if tag < 0 {
		return nil, nil, fmt.Errorf("comm: %s: negative tag %d", op, tag)
	}
	req := &localReq{w: c.g.w, dt: buf.Datatype(), tag: tag, buf: b, done: make(chan struct{})}
	src, dst := c.rank, peer
	if op == "irecv" {
		src, dst = peer, c.rank
	}
	return req, &c.g.mail[src*c.g.size+dst], nil
}

func (c *localComm) Isend(buf Buffer, dest, tag int) (Request, error) {
	req, mb, err := c.p2p("isend", buf, dest, tag)
	if err != nil {
		return nil, err
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	for i, r := range mb.recvs {
		if r.tag == tag {
			mb.recvs = append(mb.recvs[:i], mb.recvs[i+1:]...)
			match(req, r)
			return req, nil
		}
	}
	mb.sends = append(mb.sends, req)
	return req, nil
}

func (c *localComm) Irecv(buf Buffer, src, tag int) (Request, error) {
	req, mb, err := c.p2p("irecv", buf, src, tag)
	if err != nil {
		return nil, err
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	for i, s := range mb.sends {
		if s.tag == tag {
			mb.sends = append(mb.sends[:i], mb.sends[i+1:]...)
			match(s, req)
			return req, nil
		}
	}
	mb.recvs = append(mb.recvs, req)
	return req, nil
}
