package commtest

// staged.go runs the suite against a device communicator: Staged wraps
// one (comm.NCCLComm) as a Comm over host slices, copying every buffer to
// device memory before the call and back after it, so that the cases
// above exercise the device path unchanged.

import (
	"errors"
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
)

// DeviceCases are the cases a device communicator passes: all but those
// that rely on MPI's tag matching or on receive buffers longer than the
// message (NCCL has neither; see comm's device.go). PointToPointInOrder
// and OverlappedRoundsExact check the same exchanges within those rules.
var DeviceCases = deviceCases()

func deviceCases() []Case {
	var out []Case
	for _, c := range Cases {
		switch c.Name {
		case "PointToPoint", "OverlappedRounds":
			continue
		}
		out = append(out, c)
	}
	return out
}

// Staged wraps d so that the cases' host buffers travel as device
// buffers: each call copies its host buffers into fresh device memory on
// d's device, calls d, synchronizes, copies the received data back and
// frees the device memory.
func Staged(d *comm.NCCLComm) comm.Comm { return &staged{d: d, rt: d.Runtime()} }

type staged struct {
	d  *comm.NCCLComm
	rt *cuda.Runtime
}

// hostBytes is what the host buffers of the cases provide.
type hostBytes interface {
	comm.Buffer
	Bytes() []byte
}

// devCopy is a device copy of one host buffer.
type devCopy struct {
	host []byte
	dev  comm.DeviceBuffer
}

// up copies host buffer b into device memory (nil stays nil).
func (s *staged) up(b comm.Buffer) (*devCopy, comm.Buffer, error) {
	if b == nil {
		return nil, nil, nil
	}
	h, ok := b.(hostBytes)
	if !ok {
		return nil, nil, fmt.Errorf("staged: buffer of type %T is not a host buffer", b)
	}
	raw := h.Bytes()
	p, err := s.rt.Malloc(s.d.DeviceOrdinal(), len(raw))
	if err != nil {
		return nil, nil, err
	}
	if err := s.rt.CopyToDevice(p, raw); err != nil {
		s.rt.Free(p)
		return nil, nil, err
	}
	dc := &devCopy{host: raw, dev: comm.Device(p, b.Len(), b.Datatype())}
	return dc, dc.dev, nil
}

// down copies the device data back into the host buffer (n elements) and
// frees the device memory.
func (s *staged) down(dc *devCopy, n int) error {
	if dc == nil {
		return nil
	}
	err := s.rt.CopyFromDevice(dc.host[:n*dc.dev.Type.Size()], dc.dev.Ptr)
	return errors.Join(err, s.rt.Free(dc.dev.Ptr))
}

// call stages bufs, runs f on the device copies, waits, and copies every
// buffer back (the send buffers too: they must come back unchanged).
func (s *staged) call(f func(dev []comm.Buffer) error, bufs ...comm.Buffer) error {
	copies := make([]*devCopy, len(bufs))
	dev := make([]comm.Buffer, len(bufs))
	var err error
	for i, b := range bufs {
		if copies[i], dev[i], err = s.up(b); err != nil {
			break
		}
	}
	if err == nil {
		err = f(dev)
	}
	if err == nil {
		err = s.d.Sync()
	}
	for _, dc := range copies {
		if dc != nil {
			err = errors.Join(err, s.down(dc, dc.dev.N))
		}
	}
	return err
}

func (s *staged) Rank() int { return s.d.Rank() }
func (s *staged) Size() int { return s.d.Size() }

func (s *staged) Split(color, key int) (comm.Comm, error) {
	sub, err := s.d.Split(color, key)
	if err != nil || sub == nil {
		return nil, err
	}
	return Staged(sub.(*comm.NCCLComm)), nil
}

func (s *staged) Barrier() error { return s.d.Barrier() }

func (s *staged) Allreduce(buf comm.Buffer, op comm.Op) error {
	return s.call(func(d []comm.Buffer) error { return s.d.Allreduce(d[0], op) }, buf)
}

func (s *staged) Bcast(buf comm.Buffer, root int) error {
	return s.call(func(d []comm.Buffer) error { return s.d.Bcast(d[0], root) }, buf)
}

func (s *staged) Allgather(send, recv comm.Buffer) error {
	return s.call(func(d []comm.Buffer) error { return s.d.Allgather(d[0], d[1]) }, send, recv)
}

func (s *staged) Allgatherv(send, recv comm.Buffer, counts, displs []int) error {
	return s.call(func(d []comm.Buffer) error { return s.d.Allgatherv(d[0], d[1], counts, displs) }, send, recv)
}

func (s *staged) Alltoall(send, recv comm.Buffer) error {
	return s.call(func(d []comm.Buffer) error { return s.d.Alltoall(d[0], d[1]) }, send, recv)
}

func (s *staged) Alltoallv(send comm.Buffer, scounts, sdispls []int, recv comm.Buffer, rcounts, rdispls []int) error {
	return s.call(func(d []comm.Buffer) error {
		return s.d.Alltoallv(d[0], scounts, sdispls, d[1], rcounts, rdispls)
	}, send, recv)
}

func (s *staged) Gatherv(send, recv comm.Buffer, counts, displs []int, root int) error {
	return s.call(func(d []comm.Buffer) error { return s.d.Gatherv(d[0], d[1], counts, displs, root) }, send, recv)
}

// stagedRequest copies a receive back (and frees the device memory) when
// the device request completes.
type stagedRequest struct {
	s    *staged
	r    comm.Request
	dc   *devCopy
	recv bool
	fin  bool
	err  error
}

func (q *stagedRequest) complete(n int, err error) (int, error) {
	if q.fin {
		return q.dc.dev.N, q.err
	}
	q.fin = true
	if !q.recv {
		n = 0
	}
	q.err = errors.Join(err, q.s.down(q.dc, n))
	return n, q.err
}

func (q *stagedRequest) Wait() (int, error) {
	n, err := q.r.Wait()
	return q.complete(n, err)
}

func (q *stagedRequest) Test() (bool, int, error) {
	done, n, err := q.r.Test()
	if !done {
		return false, 0, err
	}
	n, err = q.complete(n, err)
	return true, n, err
}

func (s *staged) p2p(buf comm.Buffer, peer, tag int, send bool) (comm.Request, error) {
	dc, dev, err := s.up(buf)
	if err != nil {
		return nil, err
	}
	var r comm.Request
	if send {
		r, err = s.d.Isend(dev, peer, tag)
	} else {
		r, err = s.d.Irecv(dev, peer, tag)
	}
	if err != nil {
		s.rt.Free(dc.dev.Ptr)
		return nil, err
	}
	return &stagedRequest{s: s, r: r, dc: dc, recv: !send}, nil
}

func (s *staged) Isend(buf comm.Buffer, dest, tag int) (comm.Request, error) {
	return s.p2p(buf, dest, tag, true)
}

func (s *staged) Irecv(buf comm.Buffer, src, tag int) (comm.Request, error) {
	return s.p2p(buf, src, tag, false)
}

func (s *staged) Abort(err error) { s.d.Abort(err) }
func (s *staged) Close() error    { return s.d.Close() }
