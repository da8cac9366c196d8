package comm

// device.go is the device communicator: Comm over NCCL, whose buffers are
// device pointers (DeviceBuffer), for the exchanges between GPUs that the
// GPU machines' Open MPI (not CUDA-aware) cannot make without staging
// through host memory.
//
// # Construction
//
// NewNCCL builds one over an existing host communicator (Local or MPI)
// with the same ranks, collectively: rank 0 calls ncclGetUniqueId and
// broadcasts the 128-byte id over the host communicator, then every rank
// calls ncclCommInitRankScalable. Split does the same over the host
// communicator's Split, so a grid's row and column communicators
// (NewDeviceGrid) are NCCL communicators of their own. The same code runs
// for goroutine ranks in one process and for mpirun ranks (the id travels
// over MPI), on one node or several.
//
// # Threads
//
// Every rank makes its NCCL calls from its own goroutine, locked to its
// OS thread for the length of each call with the rank's device current
// (cudaSetDevice): NCCL groups (ncclGroupStart/End) and the current device
// are per thread. Ranks of one process initialise concurrently, each from
// its own thread, as NCCL allows ("called by different threads/processes
// or use ncclGroupStart/ncclGroupEnd"); that is the same path as one rank
// per process under mpirun, and keeps one goroutine per rank, as Comm's
// contract has it.
//
// # Streams and completion
//
// Operations on device buffers are enqueued on the communicator's stream
// (the caller's, given to NewNCCL) and return at once: their results are
// ordered before later work on that stream; Sync waits for them (checking
// NCCL's asynchronous errors while it waits). Isend and Irecv are queued
// and issued together, as one NCCL group, by the first Wait or Test (or
// the next collective), so that the sends and receives of a round
// progress together; Wait waits for an event recorded after that group.
// Unlike MPI, NCCL
// matches point-to-point messages per peer in the order they were posted
// (tags are not matched) and a receive's buffer must be exactly the
// length of the message: device code knows both.
//
// Host buffers (Slice) are accepted by every operation too: they go over
// the host communicator, so helpers such as Agree and AllgathervSlice work
// on a device communicator unchanged. One call may not mix the two.
//
// Or has no NCCL reduction; Allreduce with Or is staged through the host.
//
// NCCL ≥ 2.30 lets a communicator hold several ranks on one GPU; with an
// older NCCL, NewNCCL returns ErrSharedGPU for such a group (before any
// NCCL call), and SelectExchange chooses the host path there.

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"

	"github.com/bfsbench/bfsbench/harness/cuda"
)

// DeviceBuffer is a run of N elements of Type at device address Ptr.
type DeviceBuffer struct {
	Ptr  uintptr
	N    int
	Type Datatype
}

// Device wraps a device pointer as a Buffer of n elements of type dt.
func Device(ptr uintptr, n int, dt Datatype) DeviceBuffer {
	return DeviceBuffer{Ptr: ptr, N: n, Type: dt}
}

// Len is the number of elements.
func (b DeviceBuffer) Len() int { return b.N }

// Datatype is the element type.
func (b DeviceBuffer) Datatype() Datatype { return b.Type }

// Bytes is the buffer's size in bytes.
func (b DeviceBuffer) Bytes() int { return b.N * b.Type.Size() }

// Sub is the view of n elements from element off.
func (b DeviceBuffer) Sub(off, n int) DeviceBuffer {
	return DeviceBuffer{Ptr: b.Ptr + uintptr(off*b.Type.Size()), N: n, Type: b.Type}
}

// ErrSharedGPU is returned by NewNCCL when ranks of the group share a GPU
// and the NCCL library cannot hold them in one communicator.
var ErrSharedGPU = errors.New("ranks share a GPU")

// NCCLComm is one rank's device communicator (see the file comment).
type NCCLComm struct {
	host   Comm
	owns   bool // host was made by Split and is closed with this one
	rt     *cuda.Runtime
	nl     *ncclLib
	comm   uintptr // ncclComm_t
	dev    int
	stream uintptr
	rank   int
	size   int

	pending []p2p // Isend/Irecv not yet issued
}

// p2p is a queued Isend or Irecv.
type p2p struct {
	send bool
	buf  DeviceBuffer
	peer int
	req  *ncclRequest
}

// NewNCCL builds a device communicator over host (same ranks, same
// order) for this rank's device dev (a CUDA ordinal) and stream (a
// cudaStream_t on dev; 0 for the legacy default stream). Collective over
// host: every rank calls it, each from its own goroutine. A failure on one
// rank before the NCCL call (NCCL or the runtime missing, ranks sharing a
// GPU) is agreed on, so that every rank returns an error.
func NewNCCL(host Comm, dev int, stream uintptr) (*NCCLComm, error) {
	c, err := prepareNCCL(host, dev, stream)
	if err := Agree(host, err); err != nil {
		return nil, fmt.Errorf("comm: device communicator: %w", err)
	}
	if err := c.init(); err != nil {
		return nil, fmt.Errorf("comm: device communicator (rank %d of %d, device %d): %w", c.rank, c.size, dev, err)
	}
	return c, nil
}

// prepareNCCL loads the libraries and checks that the group's GPUs are
// distinct where NCCL needs them to be. Collective (one allgather).
func prepareNCCL(host Comm, dev int, stream uintptr) (*NCCLComm, error) {
	c := &NCCLComm{host: host, dev: dev, stream: stream, rank: host.Rank(), size: host.Size()}
	rt, rterr := cuda.LoadRuntime()
	nl, nlerr := loadNCCL()
	key := uint64(0)
	if rterr == nil {
		bus, err := rt.PCIBusID(dev)
		if err != nil {
			rterr = err
		}
		hn, _ := os.Hostname()
		h := fnv.New64a()
		h.Write([]byte(hn + "/" + bus))
		key = h.Sum64()
	}
	keys := make([]uint64, host.Size())
	if err := host.Allgather(Host([]uint64{key}), Host(keys)); err != nil {
		return nil, err
	}
	if err := errors.Join(rterr, nlerr); err != nil {
		return nil, err
	}
	c.rt, c.nl = rt, nl
	if nl.version < ncclSharedGPUVersion {
		for i := range keys {
			for j := range i {
				if keys[i] == keys[j] {
					return nil, fmt.Errorf("%w: ranks %d and %d use one GPU, and NCCL %s holds one rank per GPU in a communicator (2.30 lifts that); use exchange = \"host\", or as many GPUs as ranks",
						ErrSharedGPU, j, i, ncclVersionString(nl.version))
				}
			}
		}
	}
	return c, nil
}

// init distributes a unique id from rank 0 over the host communicator and
// creates the NCCL communicator.
func (c *NCCLComm) init() error {
	id := make([]byte, ncclUniqueIDBytes)
	var err error
	if c.rank == 0 {
		err = c.nl.check("ncclGetUniqueId", 0, c.nl.getUniqueID(&id[0]))
	}
	if err := Agree(c.host, err); err != nil {
		return err
	}
	if err := c.host.Bcast(Host(id), 0); err != nil {
		return fmt.Errorf("broadcasting the NCCL id: %w", err)
	}
	err = c.rt.OnDevice(c.dev, func() error {
		return c.nl.check("ncclCommInitRankScalable", 0, c.nl.initRankScal(&c.comm, int32(c.size), int32(c.rank), 1, &id[0], 0))
	})
	return err
}

// Rank implements Comm.
func (c *NCCLComm) Rank() int { return c.rank }

// Size implements Comm.
func (c *NCCLComm) Size() int { return c.size }

// HostComm is the host communicator the device one was built over.
func (c *NCCLComm) HostComm() Comm { return c.host }

// DeviceOrdinal is the CUDA device of this rank.
func (c *NCCLComm) DeviceOrdinal() int { return c.dev }

// Stream is the cudaStream_t operations are enqueued on.
func (c *NCCLComm) Stream() uintptr { return c.stream }

// Runtime is the CUDA runtime the communicator uses.
func (c *NCCLComm) Runtime() *cuda.Runtime { return c.rt }

// Sync issues queued point-to-point operations and waits until the
// stream's work is done, failing (instead of hanging) when NCCL reports an
// asynchronous error, e.g. a peer that died.
func (c *NCCLComm) Sync() error { return c.WaitStream(c.stream) }

// WaitStream is Sync for another stream s of the communicator's device,
// one whose work waits (through events) for operations of this
// communicator: it issues queued point-to-point operations and waits until
// s is done, failing instead of hanging when NCCL reports an asynchronous
// error. A caller that enqueued an exchange and the work that consumes it
// waits once, here, rather than for the exchange and then for the rest.
func (c *NCCLComm) WaitStream(s uintptr) error {
	if err := c.flush(); err != nil {
		return err
	}
	return c.rt.OnDevice(c.dev, func() error { return c.rt.WaitStream(s, c.asyncError) })
}

func (c *NCCLComm) asyncError() error {
	var r int32
	if err := c.nl.check("ncclCommGetAsyncError", c.comm, c.nl.commGetAsyncErr(c.comm, &r)); err != nil {
		return err
	}
	return c.nl.check("NCCL (asynchronous)", c.comm, r)
}

// do runs f with the rank's device current on a locked thread, after
// issuing queued point-to-point operations.
func (c *NCCLComm) do(f func() error) error {
	if c.comm == 0 {
		return errors.New("comm: device communicator is closed")
	}
	if err := c.flush(); err != nil {
		return err
	}
	return c.rt.OnDevice(c.dev, f)
}

// Group enqueues the collectives f calls on c as one NCCL group
// (ncclGroupStart/End): one launch, and one wait between the GPUs, for all
// of them. f calls this communicator's device collectives only.
func (c *NCCLComm) Group(f func() error) error {
	return c.do(func() error { return c.group(f) })
}

// group runs f between ncclGroupStart and ncclGroupEnd (on do's thread).
func (c *NCCLComm) group(f func() error) error {
	if err := c.nl.check("ncclGroupStart", c.comm, c.nl.groupStart()); err != nil {
		return err
	}
	err := f()
	if e := c.nl.check("ncclGroupEnd", c.comm, c.nl.groupEnd()); err == nil {
		err = e
	}
	return err
}

// sendRecv are the NCCL calls of a group, with the element type decided.
func (c *NCCLComm) send(b DeviceBuffer, n, peer int, dt int32) error {
	if n == 0 {
		return nil
	}
	return c.nl.check(fmt.Sprintf("ncclSend(%d elements to %d)", n, peer), c.comm, c.nl.send(b.Ptr, uint64(n), dt, int32(peer), c.comm, c.stream))
}

func (c *NCCLComm) recv(b DeviceBuffer, n, peer int, dt int32) error {
	if n == 0 {
		return nil
	}
	return c.nl.check(fmt.Sprintf("ncclRecv(%d elements from %d)", n, peer), c.comm, c.nl.recv(b.Ptr, uint64(n), dt, int32(peer), c.comm, c.stream))
}

// copyOwn enqueues this rank's own block of an exchange (device to device).
func (c *NCCLComm) copyOwn(dst, src DeviceBuffer, n int) error {
	return c.rt.CopyAsync(dst.Ptr, src.Ptr, n*src.Type.Size(), c.stream)
}

// bufKind sorts an operation's buffers: all host (true), all device
// (false, with the device buffers), or an error for a mix or another type.
func bufKind(op string, bufs ...Buffer) (host bool, dev []DeviceBuffer, err error) {
	var nHost, nDev int
	dev = make([]DeviceBuffer, len(bufs))
	for i, b := range bufs {
		switch x := b.(type) {
		case nil:
		case DeviceBuffer:
			dev[i] = x
			nDev++
		case hostBuffer:
			nHost++
		default:
			return false, nil, fmt.Errorf("comm: %s: buffer of type %T is neither a device buffer (comm.Device) nor a host one (comm.Host)", op, b)
		}
	}
	if nHost > 0 && nDev > 0 {
		return false, nil, fmt.Errorf("comm: %s: host and device buffers mixed in one call", op)
	}
	if nDev > 0 {
		var dt Datatype = -1
		for i, b := range bufs {
			if b == nil {
				continue
			}
			if dt >= 0 && dev[i].Type != dt {
				return false, nil, fmt.Errorf("comm: %s: send is %s but recv is %s", op, dt, dev[i].Type)
			}
			dt = dev[i].Type
		}
	}
	return nDev == 0, dev, nil
}

// checkVector checks v-collective counts and displacements against a
// buffer of length n.
func checkVector(op, what string, counts, displs []int, size, n int) error {
	if len(counts) != size || len(displs) != size {
		return fmt.Errorf("comm: %s: %d %s counts and %d displacements for %d ranks", op, len(counts), what, len(displs), size)
	}
	for i := range counts {
		if counts[i] < 0 || displs[i] < 0 || displs[i]+counts[i] > n {
			return fmt.Errorf("comm: %s: %s block %d [%d, +%d) outside a buffer of %d", op, what, i, displs[i], counts[i], n)
		}
	}
	return nil
}

// Split implements Comm: the host communicator is split, and each new
// group gets an NCCL communicator of its own (collective), on this one's
// device and stream.
func (c *NCCLComm) Split(color, key int) (Comm, error) {
	if err := c.Sync(); err != nil {
		return nil, err
	}
	sub, err := c.host.Split(color, key)
	if err != nil || sub == nil {
		return nil, err
	}
	nc, err := NewNCCL(sub, c.dev, c.stream)
	if err != nil {
		sub.Close()
		return nil, err
	}
	nc.owns = true
	return nc, nil
}

// Barrier implements Comm: the stream's work is done on every rank when
// it returns.
func (c *NCCLComm) Barrier() error {
	if err := c.Sync(); err != nil {
		return err
	}
	return c.host.Barrier()
}

// Allreduce implements Comm (in place; Or is staged through the host).
func (c *NCCLComm) Allreduce(buf Buffer, op Op) error {
	host, dev, err := bufKind("allreduce", buf)
	if err != nil {
		return err
	}
	if host {
		return c.host.Allreduce(buf, op)
	}
	b := dev[0]
	dt, err := ncclType(b.Type)
	if err != nil {
		return fmt.Errorf("comm: allreduce: %w", err)
	}
	nop, ok := ncclOp(op)
	if !ok {
		if op == Or && b.Type == Float64 {
			return fmt.Errorf("comm: allreduce: or is not defined on %s", b.Type)
		}
		if op != Or {
			return fmt.Errorf("comm: allreduce: unknown operation %v", op)
		}
		return c.allreduceStaged(b, op)
	}
	return c.do(func() error {
		return c.nl.check("ncclAllReduce", c.comm, c.nl.allReduce(b.Ptr, b.Ptr, uint64(b.N), dt, nop, c.comm, c.stream))
	})
}

// allreduceStaged reduces b through host memory and the host communicator.
func (c *NCCLComm) allreduceStaged(b DeviceBuffer, op Op) error {
	if err := c.Sync(); err != nil {
		return err
	}
	h := hostSlice(b.Type, b.N)
	raw := h.(hostBuffer).Bytes()
	if err := c.rt.CopyFromDevice(raw, b.Ptr); err != nil {
		return err
	}
	if err := c.host.Allreduce(h, op); err != nil {
		return err
	}
	return c.rt.CopyToDevice(b.Ptr, raw)
}

// hostSlice makes a host buffer of n elements of dt.
func hostSlice(dt Datatype, n int) Buffer {
	switch dt {
	case Byte:
		return Host(make([]uint8, n))
	case Int32:
		return Host(make([]int32, n))
	case Uint32:
		return Host(make([]uint32, n))
	case Int64:
		return Host(make([]int64, n))
	case Uint64:
		return Host(make([]uint64, n))
	default:
		return Host(make([]float64, n))
	}
}

// Bcast implements Comm.
func (c *NCCLComm) Bcast(buf Buffer, root int) error {
	host, dev, err := bufKind("bcast", buf)
	if err != nil {
		return err
	}
	if host {
		return c.host.Bcast(buf, root)
	}
	if root < 0 || root >= c.size {
		return fmt.Errorf("comm: bcast: root %d out of range [0, %d)", root, c.size)
	}
	b := dev[0]
	dt, err := ncclType(b.Type)
	if err != nil {
		return fmt.Errorf("comm: bcast: %w", err)
	}
	return c.do(func() error {
		return c.nl.check("ncclBroadcast", c.comm, c.nl.broadcast(b.Ptr, b.Ptr, uint64(b.N), dt, int32(root), c.comm, c.stream))
	})
}

// Allgather implements Comm.
func (c *NCCLComm) Allgather(send, recv Buffer) error {
	host, dev, err := bufKind("allgather", send, recv)
	if err != nil {
		return err
	}
	if host {
		return c.host.Allgather(send, recv)
	}
	s, r := dev[0], dev[1]
	if r.N != s.N*c.size {
		return fmt.Errorf("comm: allgather: recv holds %d elements, want %d·%d", r.N, s.N, c.size)
	}
	dt, err := ncclType(s.Type)
	if err != nil {
		return fmt.Errorf("comm: allgather: %w", err)
	}
	return c.do(func() error {
		return c.nl.check("ncclAllGather", c.comm, c.nl.allGather(s.Ptr, r.Ptr, uint64(s.N), dt, c.comm, c.stream))
	})
}

// Allgatherv implements Comm: one NCCL group of sends and receives.
func (c *NCCLComm) Allgatherv(send, recv Buffer, counts, displs []int) error {
	host, dev, err := bufKind("allgatherv", send, recv)
	if err != nil {
		return err
	}
	if host {
		return c.host.Allgatherv(send, recv, counts, displs)
	}
	s, r := dev[0], dev[1]
	if err := checkVector("allgatherv", "recv", counts, displs, c.size, r.N); err != nil {
		return err
	}
	me := c.rank
	if s.N != counts[me] {
		return fmt.Errorf("comm: allgatherv: rank %d sends %d elements, counts say %d", me, s.N, counts[me])
	}
	dt, err := ncclType(s.Type)
	if err != nil {
		return fmt.Errorf("comm: allgatherv: %w", err)
	}
	return c.do(func() error {
		if err := c.copyOwn(r.Sub(displs[me], counts[me]), s, counts[me]); err != nil {
			return err
		}
		return c.group(func() error {
			for p := range c.size {
				if p == me {
					continue
				}
				if err := c.send(s, counts[me], p, dt); err != nil {
					return err
				}
				if err := c.recv(r.Sub(displs[p], counts[p]), counts[p], p, dt); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// Alltoall implements Comm.
func (c *NCCLComm) Alltoall(send, recv Buffer) error {
	host, dev, err := bufKind("alltoall", send, recv)
	if err != nil {
		return err
	}
	if host {
		return c.host.Alltoall(send, recv)
	}
	s, r := dev[0], dev[1]
	if s.N%c.size != 0 || r.N != s.N {
		return fmt.Errorf("comm: alltoall: send %d and recv %d elements for %d ranks", s.N, r.N, c.size)
	}
	k := s.N / c.size
	counts := make([]int, c.size)
	displs := make([]int, c.size)
	for i := range counts {
		counts[i], displs[i] = k, i*k
	}
	return c.Alltoallv(s, counts, displs, r, counts, displs)
}

// Alltoallv implements Comm: one NCCL group of sends and receives.
func (c *NCCLComm) Alltoallv(send Buffer, scounts, sdispls []int, recv Buffer, rcounts, rdispls []int) error {
	host, dev, err := bufKind("alltoallv", send, recv)
	if err != nil {
		return err
	}
	if host {
		return c.host.Alltoallv(send, scounts, sdispls, recv, rcounts, rdispls)
	}
	s, r := dev[0], dev[1]
	if err := checkVector("alltoallv", "send", scounts, sdispls, c.size, s.N); err != nil {
		return err
	}
	if err := checkVector("alltoallv", "recv", rcounts, rdispls, c.size, r.N); err != nil {
		return err
	}
	me := c.rank
	if scounts[me] != rcounts[me] {
		return fmt.Errorf("comm: alltoallv: rank %d sends itself %d elements but expects %d", me, scounts[me], rcounts[me])
	}
	dt, err := ncclType(s.Type)
	if err != nil {
		return fmt.Errorf("comm: alltoallv: %w", err)
	}
	return c.do(func() error {
		if err := c.copyOwn(r.Sub(rdispls[me], rcounts[me]), s.Sub(sdispls[me], scounts[me]), scounts[me]); err != nil {
			return err
		}
		return c.group(func() error {
			for p := range c.size {
				if p == me {
					continue
				}
				if err := c.send(s.Sub(sdispls[p], scounts[p]), scounts[p], p, dt); err != nil {
					return err
				}
				if err := c.recv(r.Sub(rdispls[p], rcounts[p]), rcounts[p], p, dt); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// Gatherv implements Comm.
func (c *NCCLComm) Gatherv(send, recv Buffer, counts, displs []int, root int) error {
	host, dev, err := bufKind("gatherv", send, recv)
	if err != nil {
		return err
	}
	if host {
		return c.host.Gatherv(send, recv, counts, displs, root)
	}
	if root < 0 || root >= c.size {
		return fmt.Errorf("comm: gatherv: root %d out of range [0, %d)", root, c.size)
	}
	s, r := dev[0], dev[1]
	me := c.rank
	if len(counts) != c.size {
		return fmt.Errorf("comm: gatherv: %d counts for %d ranks", len(counts), c.size)
	}
	if s.N != counts[me] {
		return fmt.Errorf("comm: gatherv: rank %d sends %d elements, counts say %d", me, s.N, counts[me])
	}
	if me == root {
		if recv == nil {
			return errors.New("comm: gatherv: no receive buffer on the root")
		}
		if err := checkVector("gatherv", "recv", counts, displs, c.size, r.N); err != nil {
			return err
		}
	}
	dt, err := ncclType(s.Type)
	if err != nil {
		return fmt.Errorf("comm: gatherv: %w", err)
	}
	return c.do(func() error {
		if me != root {
			return c.group(func() error { return c.send(s, counts[me], root, dt) })
		}
		if err := c.copyOwn(r.Sub(displs[me], counts[me]), s, counts[me]); err != nil {
			return err
		}
		return c.group(func() error {
			for p := range c.size {
				if p != me {
					if err := c.recv(r.Sub(displs[p], counts[p]), counts[p], p, dt); err != nil {
						return err
					}
				}
			}
			return nil
		})
	})
}

// ncclRequest is a queued or issued Isend/Irecv.
type ncclRequest struct {
	c    *NCCLComm
	n    int
	mark *flushMark // set when issued
	done bool
	err  error
}

// flushMark is the event recorded on the stream after one group of
// point-to-point operations: their requests complete when it does.
type flushMark struct {
	ev   uintptr
	refs int // requests of the group not yet finished
}

// finish records the request's outcome and releases its share of the
// group's event.
func (r *ncclRequest) finish(err error) {
	r.done, r.err = true, err
	if m := r.mark; m != nil {
		m.refs--
		if m.refs == 0 && m.ev != 0 {
			r.c.rt.EventDestroy(m.ev)
			m.ev = 0
		}
	}
}

// Wait implements Request: it issues the queued operations, if this one
// is among them, and waits for the group this one was issued in.
func (r *ncclRequest) Wait() (int, error) {
	if r.done {
		return r.n, r.err
	}
	if r.mark == nil {
		if err := r.c.flush(); err != nil {
			return r.n, r.err
		}
	}
	err := r.c.rt.OnDevice(r.c.dev, func() error { return r.c.rt.WaitEvent(r.mark.ev, r.c.asyncError) })
	r.finish(err)
	return r.n, r.err
}

// Test implements Request.
func (r *ncclRequest) Test() (bool, int, error) {
	if r.done {
		return true, r.n, r.err
	}
	if r.mark == nil {
		if err := r.c.flush(); err != nil {
			return true, r.n, r.err
		}
	}
	var fin bool
	err := r.c.rt.OnDevice(r.c.dev, func() error {
		var err error
		fin, err = r.c.rt.EventDone(r.mark.ev)
		if err == nil && !fin {
			err = r.c.asyncError()
		}
		return err
	})
	if err != nil || fin {
		r.finish(err)
	}
	return r.done, r.n, r.err
}

func (c *NCCLComm) p2p(op string, buf Buffer, peer, tag int, send bool) (Request, error) {
	host, dev, err := bufKind(op, buf)
	if err != nil {
		return nil, err
	}
	if host {
		if send {
			return c.host.Isend(buf, peer, tag)
		}
		return c.host.Irecv(buf, peer, tag)
	}
	if peer < 0 || peer >= c.size {
		return nil, fmt.Errorf("comm: %s: rank %d out of range [0, %d)", op, peer, c.size)
	}
	if tag < 0 {
		return nil, fmt.Errorf("comm: %s: negative tag %d", op, tag)
	}
	if _, err := ncclType(dev[0].Type); err != nil {
		return nil, fmt.Errorf("comm: %s: %w", op, err)
	}
	r := &ncclRequest{c: c, n: dev[0].N}
	c.pending = append(c.pending, p2p{send: send, buf: dev[0], peer: peer, req: r})
	return r, nil
}

// Isend implements Comm (queued; see the file comment).
func (c *NCCLComm) Isend(buf Buffer, dest, tag int) (Request, error) {
	return c.p2p("isend", buf, dest, tag, true)
}

// Irecv implements Comm (queued; the buffer's length is the message's).
func (c *NCCLComm) Irecv(buf Buffer, src, tag int) (Request, error) {
	return c.p2p("irecv", buf, src, tag, false)
}

// flush issues the queued point-to-point operations as one group and
// records an event after it for their requests. A send or receive to
// this rank itself is matched with the first queued counterpart and done
// as a device copy.
func (c *NCCLComm) flush() error {
	if len(c.pending) == 0 {
		return nil
	}
	ops := c.pending
	c.pending = nil
	mark := &flushMark{refs: len(ops)}
	err := c.rt.OnDevice(c.dev, func() error {
		var selfSends, selfRecvs []p2p
		err := c.group(func() error {
			for _, o := range ops {
				dt, _ := ncclType(o.buf.Type)
				var err error
				switch {
				case o.peer == c.rank && o.send:
					selfSends = append(selfSends, o)
				case o.peer == c.rank:
					selfRecvs = append(selfRecvs, o)
				case o.send:
					err = c.send(o.buf, o.buf.N, o.peer, dt)
				default:
					err = c.recv(o.buf, o.buf.N, o.peer, dt)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil && len(selfSends) != len(selfRecvs) {
			err = fmt.Errorf("comm: %d sends to self but %d receives from self issued together", len(selfSends), len(selfRecvs))
		}
		for k := 0; err == nil && k < len(selfSends); k++ {
			s, r := selfSends[k], selfRecvs[k]
			if r.buf.N != s.buf.N {
				err = fmt.Errorf("comm: a message of %d elements to self received into %d", s.buf.N, r.buf.N)
				break
			}
			err = c.copyOwn(r.buf, s.buf, s.buf.N)
		}
		if err != nil {
			return err
		}
		if mark.ev, err = c.eventOnThread(); err != nil {
			return err
		}
		return c.rt.EventRecord(mark.ev, c.stream)
	})
	for _, o := range ops {
		o.req.mark = mark
		if err != nil {
			o.req.finish(err)
		}
	}
	return err
}

// eventOnThread creates a synchronization event on the current device.
func (c *NCCLComm) eventOnThread() (uintptr, error) {
	return c.rt.EventCreateHere(false)
}

// Abort implements Comm: the NCCL communicator is aborted (its pending
// operations end) and the host communicator aborted with err.
func (c *NCCLComm) Abort(err error) {
	if c.comm != 0 {
		c.rt.OnDevice(c.dev, func() error { c.nl.commAbort(c.comm); return nil })
		c.comm = 0
	}
	c.host.Abort(err)
}

// Close implements Comm: the stream is drained and the NCCL communicator
// destroyed; a communicator made by Split closes its host communicator
// too. Collective.
func (c *NCCLComm) Close() error {
	if c.comm == 0 {
		return nil
	}
	err := c.Sync()
	derr := c.rt.OnDevice(c.dev, func() error {
		return c.nl.check("ncclCommDestroy", 0, c.nl.commDestroy(c.comm))
	})
	c.comm = 0
	err = errors.Join(err, derr)
	if c.owns {
		err = errors.Join(err, c.host.Close())
	}
	return err
}

// ----- The grid's device communicators -----

// DeviceGrid holds a rank's NCCL communicators along its grid row and
// column (the fold and the expand exchanges of the 2D algorithms), built
// over a host Grid.
type DeviceGrid struct {
	Row, Col *NCCLComm
}

// NewDeviceGrid builds the row and column NCCL communicators of g for
// this rank's device and stream. Collective over g.World.
func NewDeviceGrid(g *Grid, dev int, stream uintptr) (*DeviceGrid, error) {
	// Every rank learns whether all rows succeeded before the columns
	// start, so that none waits in an initialisation a failed rank skips.
	row, err := NewNCCL(g.Row, dev, stream)
	if err := Agree(g.World, err); err != nil {
		if row != nil {
			row.Close()
		}
		return nil, fmt.Errorf("grid row: %w", err)
	}
	col, err := NewNCCL(g.Col, dev, stream)
	if err := Agree(g.World, err); err != nil {
		row.Close()
		if col != nil {
			col.Close()
		}
		return nil, fmt.Errorf("grid column: %w", err)
	}
	return &DeviceGrid{Row: row, Col: col}, nil
}

// Close destroys both communicators (collective); the host grid stays.
func (d *DeviceGrid) Close() error {
	return errors.Join(d.Row.Close(), d.Col.Close())
}

var _ Comm = (*NCCLComm)(nil)
