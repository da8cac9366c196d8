// Package comm is bfsbench's communicator layer: the message-passing
// operations the distributed BFS variants are written against, with an
// in-process implementation (ranks are goroutines of one process; the
// embedded default, and what tests use) and an Open MPI implementation
// (build tag mpi: a thin cgo binding to the system's libmpi).
//
// The operations are those the papers' 2D algorithms use (docs/papers.md):
//
//   - expand ([Bisson] §2.2 Algorithm 1 line 13; [Ueno] §V): each processor gathers the frontiers of the
//     processors in its grid column: Allgatherv on the column communicator;
//   - fold ([Bisson] line 17): discovered vertices go to their owners
//     in the same grid row: Alltoallv on the row communicator, or, to
//     overlap the exchange with computation (Bisson et al. §3.3: "start
//     send operations; wait for completion of receive operations posted in
//     the previous round; post non-blocking receive operations for the next
//     round"; Ueno and Suzumura §V-A: fold sent in chunks while the next
//     chunk is computed), Isend and Irecv with Wait;
//   - the end-of-level test (is any frontier non-empty?): Allreduce;
//   - collecting the predecessor array on rank 0 for validation: Gatherv.
//
// # Semantics
//
// They follow MPI's, so that code tested over the in-process communicator
// behaves the same under mpirun:
//
//   - A Comm is used by one goroutine at a time (its rank's). Different
//     ranks' Comms are used concurrently.
//   - Collective operations must be called by every rank of the
//     communicator, in the same order, with matching datatypes and counts.
//   - Counts and displacements are in elements, not bytes.
//   - A buffer handed to Isend or Irecv must not be touched until the
//     request's Wait (or a Test that reports completion) returns.
//   - A send may not complete until the matching receive is posted (the
//     in-process implementation never buffers sends, so code that would
//     deadlock under MPI's rendezvous protocol deadlocks in tests too).
//   - Messages between one pair of ranks with one tag arrive in the order
//     they were sent.
//
// # Buffers, and device memory
//
// Every operation takes Buffer values, not Go slices. Host code wraps its
// slices with Slice (e.g. comm.Slice[uint32](front)); the generic helpers
// below (AllreduceSlice, ...) do the wrapping for the common calls. The
// host implementations (Local, MPI) accept Slice buffers only and return
// an error for any other Buffer.
//
// A device-buffer communicator (NCCL between GPUs, which the GPU machines
// use because their Open MPI is not CUDA-aware) fits behind the same
// interface: the CUDA layer defines its own Buffer type (a device pointer,
// a Datatype and a length, with a Sub method for views); the NCCL Comm
// accepts those buffers and hands their device pointers to NCCL; counts
// and displacements stay host integers, as NCCL's grouped send/receive
// calls want them. Alltoallv and Allgatherv become ncclGroupStart, one
// ncclSend/ncclRecv per peer, ncclGroupEnd; Isend/Irecv become grouped
// calls on a stream whose Request.Wait synchronizes the stream. Nothing in
// this interface assumes the bytes are addressable by the CPU.
package comm

import (
	"errors"
	"fmt"
	"unsafe"
)

// ErrNoMPI is returned by MPIWorld in binaries built without MPI.
var ErrNoMPI = errors.New("this binary was built without MPI (build with `make MPI=1`, i.e. `go build -tags mpi` with CGO_CFLAGS=\"$(mpicc --showme:compile)\" CGO_LDFLAGS=\"$(mpicc --showme:link)\"), so launcher = \"mpirun\" is unavailable; use launcher = \"embedded\"")

// Comm is one rank's handle on a communicator (a group of ranks that
// exchange messages), as MPI_Comm is. Methods return an error rather than
// panic: for bad arguments (wrong counts, unsupported buffer, bad rank),
// for a communicator that was aborted, and for transport failures.
type Comm interface {
	// Rank is this rank's number in the communicator, 0 ≤ Rank < Size.
	Rank() int
	// Size is the number of ranks in the communicator.
	Size() int

	// Split partitions the communicator, as MPI_Comm_split: ranks that pass
	// the same color form a new communicator, ordered by key, ties broken
	// by rank in this one. Collective. A negative color means "no new
	// communicator" and returns nil. Use Grid for the R×C processor grid.
	Split(color, key int) (Comm, error)

	// Barrier returns once every rank has entered it.
	Barrier() error

	// Allreduce combines buf element-wise over all ranks with op and
	// leaves the result in every rank's buf (in place). Every rank passes
	// the same datatype and length.
	Allreduce(buf Buffer, op Op) error

	// Bcast copies root's buf into every other rank's buf (same length on
	// all ranks).
	Bcast(buf Buffer, root int) error

	// Allgather concatenates every rank's send (all of one length n) into
	// every rank's recv (length n·Size), in rank order.
	Allgather(send, recv Buffer) error

	// Allgatherv is the expand exchange: rank i's send (counts[i]
	// elements) lands at recv[displs[i]:displs[i]+counts[i]] on every
	// rank. counts and displs are the same on all ranks.
	Allgatherv(send, recv Buffer, counts, displs []int) error

	// Alltoall sends the i-th of Size equal chunks of send to rank i and
	// stores the chunk received from rank i as the i-th chunk of recv
	// (e.g. the per-destination counts before an Alltoallv).
	Alltoall(send, recv Buffer) error

	// Alltoallv is the fold exchange: send[sdispls[i]:+scounts[i]] goes to
	// rank i, and what rank i sends lands at recv[rdispls[i]:+rcounts[i]].
	// rcounts[i] must equal rank i's scounts[this rank].
	Alltoallv(send Buffer, scounts, sdispls []int, recv Buffer, rcounts, rdispls []int) error

	// Gatherv collects every rank's send on root: rank i's send (counts[i]
	// elements) lands at recv[displs[i]:+counts[i]]. recv, counts and
	// displs matter only on root; other ranks may pass nil.
	Gatherv(send, recv Buffer, counts, displs []int, root int) error

	// Isend starts sending buf to rank dest with tag (≥ 0) and returns at
	// once. buf must stay untouched until the request completes.
	Isend(buf Buffer, dest, tag int) (Request, error)
	// Irecv starts receiving a message from rank src with tag (≥ 0) into
	// buf, which must be at least as long as the message. Wait reports
	// how many elements arrived.
	Irecv(buf Buffer, src, tag int) (Request, error)

	// Abort ends communication for every rank of the world this
	// communicator belongs to, after a failure that would otherwise leave
	// other ranks blocked forever. In-process, every pending and later
	// operation of every rank fails with an error wrapping err (and
	// ErrAborted). Under MPI the whole job is terminated (MPI_Abort) and
	// Abort does not return.
	Abort(err error)

	// Close releases a communicator made by Split (MPI_Comm_free).
	// Collective. Closing the world communicator is a no-op: the process's
	// MPI lifetime is managed by the MPI implementation's Init/Finalize.
	Close() error
}

// Request is a pending non-blocking operation (MPI_Request).
type Request interface {
	// Wait blocks until the operation completes and returns the number of
	// elements sent or received.
	Wait() (int, error)
	// Test reports whether the operation has completed, without blocking;
	// when it has, n is as Wait's and the request is finished (calling
	// Wait afterwards returns the same result at once).
	Test() (done bool, n int, err error)
}

// WaitAll waits for every request and returns the first error, naming the
// request's index. nil requests are skipped.
func WaitAll(reqs []Request) error {
	var first error
	for i, r := range reqs {
		if r == nil {
			continue
		}
		if _, err := r.Wait(); err != nil && first == nil {
			first = fmt.Errorf("request %d: %w", i, err)
		}
	}
	return first
}

// ErrAborted is wrapped by the errors of operations cut short by Abort.
var ErrAborted = errors.New("communicator aborted")

// Op is a reduction operation for Allreduce.
type Op int

// Reduction operations. Or (bitwise) applies to integer datatypes only.
const (
	Sum Op = iota
	Max
	Min
	Or
)

func (o Op) String() string {
	switch o {
	case Sum:
		return "sum"
	case Max:
		return "max"
	case Min:
		return "min"
	case Or:
		return "or"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Datatype is the element type of a Buffer.
type Datatype int

// The element types the communicators carry.
const (
	Byte Datatype = iota // uint8
	Int32
	Uint32
	Int64
	Uint64
	Float64
)

// Size is the size of one element in bytes.
func (d Datatype) Size() int {
	switch d {
	case Byte:
		return 1
	case Int32, Uint32:
		return 4
	case Int64, Uint64, Float64:
		return 8
	}
	return 0
}

func (d Datatype) String() string {
	switch d {
	case Byte:
		return "byte"
	case Int32:
		return "int32"
	case Uint32:
		return "uint32"
	case Int64:
		return "int64"
	case Uint64:
		return "uint64"
	case Float64:
		return "float64"
	}
	return fmt.Sprintf("Datatype(%d)", int(d))
}

// Buffer is a run of Len elements of one Datatype that a communicator
// sends from or receives into. Host memory is Slice; a device
// communicator defines its own Buffer type (see the package comment).
type Buffer interface {
	Datatype() Datatype
	Len() int
}

// Elem is the set of Go element types a host Slice may hold.
type Elem interface {
	~uint8 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float64
}

// Slice is a host buffer: a Go slice viewed as a Buffer. Convert with
// comm.Slice[uint32](s), or let type inference do it: comm.Host(s).
type Slice[T Elem] []T

// Host wraps a Go slice as a Buffer.
func Host[T Elem](s []T) Slice[T] { return Slice[T](s) }

// Len is the number of elements.
func (s Slice[T]) Len() int { return len(s) }

// Datatype is the element type of T.
func (s Slice[T]) Datatype() Datatype {
	var z T
	switch any(z).(type) {
	case uint8:
		return Byte
	case int32:
		return Int32
	case uint32:
		return Uint32
	case int64:
		return Int64
	case uint64:
		return Uint64
	case float64:
		return Float64
	}
	// A named type (~T): decide by size and kind through a conversion.
	return datatypeOf[T]()
}

// datatypeOf classifies element types defined as ~uint8, ~int32, ...
func datatypeOf[T Elem]() Datatype {
	var z T
	size := unsafe.Sizeof(z)
	neg := T(0)
	neg--                  // wraps to the maximum for unsigned types
	isFloat := T(1)/2 != 0 // 0.5 for floats, 0 for integers
	switch {
	case isFloat:
		return Float64
	case size == 1:
		return Byte
	case size == 4 && neg < 0:
		return Int32
	case size == 4:
		return Uint32
	case neg < 0:
		return Int64
	default:
		return Uint64
	}
}

// Bytes is the host buffer's memory, for implementations that move bytes.
func (s Slice[T]) Bytes() []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// hostBuffer is what the host implementations need from a Buffer: its
// memory as bytes. Slice implements it.
type hostBuffer interface {
	Buffer
	Bytes() []byte
}

// hostBytes returns b's memory, or an error naming the operation when b is
// not a host buffer.
func hostBytes(op string, b Buffer) ([]byte, error) {
	if b == nil {
		return nil, nil
	}
	h, ok := b.(hostBuffer)
	if !ok {
		return nil, fmt.Errorf("comm: %s: buffer of type %T is not a host buffer (wrap Go slices with comm.Host)", op, b)
	}
	return h.Bytes(), nil
}

// ----- Generic helpers for host slices -----

// AllreduceSlice is Allreduce on a Go slice.
func AllreduceSlice[T Elem](c Comm, s []T, op Op) error { return c.Allreduce(Host(s), op) }

// BcastSlice is Bcast on a Go slice.
func BcastSlice[T Elem](c Comm, s []T, root int) error { return c.Bcast(Host(s), root) }

// AllreduceInt64 reduces one value over all ranks and returns the result.
func AllreduceInt64(c Comm, x int64, op Op) (int64, error) {
	b := []int64{x}
	err := c.Allreduce(Host(b), op)
	return b[0], err
}

// Agree makes every rank fail when one does: each rank passes its own
// error (nil for success) and all learn, with one allreduce, whether any
// rank failed. A failed rank gets its own error back, the others an error
// saying another rank failed. Under MPI this keeps ranks that succeeded
// from waiting forever in an exchange with a rank that gave up.
// Collective.
func Agree(c Comm, err error) error {
	flag := int64(0)
	if err != nil {
		flag = 1
	}
	anyFailed, rerr := AllreduceInt64(c, flag, Max)
	switch {
	case err != nil:
		return err
	case rerr != nil:
		return rerr
	case anyFailed != 0:
		return errors.New("another rank failed")
	}
	return nil
}

// Displs returns displacements for counts laid end to end (exclusive
// prefix sum) and their total.
func Displs(counts []int) (displs []int, total int) {
	displs = make([]int, len(counts))
	for i, n := range counts {
		displs[i] = total
		total += n
	}
	return displs, total
}

// AllgathervSlice gathers every rank's send on every rank, exchanging the
// counts first: it returns the concatenation in rank order and the
// per-rank counts. It costs one Allgather more than Allgatherv with known
// counts.
func AllgathervSlice[T Elem](c Comm, send []T) (recv []T, counts []int, err error) {
	n := []int64{int64(len(send))}
	all := make([]int64, c.Size())
	if err := c.Allgather(Host(n), Host(all)); err != nil {
		return nil, nil, fmt.Errorf("allgatherv counts: %w", err)
	}
	counts = make([]int, len(all))
	for i, x := range all {
		counts[i] = int(x)
	}
	displs, total := Displs(counts)
	recv = make([]T, total)
	if err := c.Allgatherv(Host(send), Host(recv), counts, displs); err != nil {
		return nil, nil, err
	}
	return recv, counts, nil
}

// AlltoallvSlice sends send[sdispls[i]:+scounts[i]] to rank i, exchanging
// the counts first, and returns what arrived, in rank order, with the
// per-source counts.
func AlltoallvSlice[T Elem](c Comm, send []T, scounts []int) (recv []T, rcounts []int, err error) {
	return AlltoallvSliceInto(c, send, scounts, nil)
}

// AlltoallvSliceInto is AlltoallvSlice receiving into buf[:total] when buf
// is long enough, else into a new slice: a caller that exchanges often
// keeps one buffer (or a pinned one, for copies to a device).
func AlltoallvSliceInto[T Elem](c Comm, send []T, scounts []int, buf []T) (recv []T, rcounts []int, err error) {
	p := c.Size()
	if len(scounts) != p {
		return nil, nil, fmt.Errorf("alltoallv: %d send counts for %d ranks", len(scounts), p)
	}
	sc := make([]int64, p)
	for i, n := range scounts {
		sc[i] = int64(n)
	}
	rc := make([]int64, p)
	if err := c.Alltoall(Host(sc), Host(rc)); err != nil {
		return nil, nil, fmt.Errorf("alltoallv counts: %w", err)
	}
	rcounts = make([]int, p)
	for i, x := range rc {
		rcounts[i] = int(x)
	}
	sdispls, stotal := Displs(scounts)
	if stotal > len(send) {
		return nil, nil, fmt.Errorf("alltoallv: send counts total %d > buffer length %d", stotal, len(send))
	}
	rdispls, rtotal := Displs(rcounts)
	if len(buf) >= rtotal {
		recv = buf[:rtotal]
	} else {
		recv = make([]T, rtotal)
	}
	if err := c.Alltoallv(Host(send), scounts, sdispls, Host(recv), rcounts, rdispls); err != nil {
		return nil, nil, err
	}
	return recv, rcounts, nil
}

// GathervInto collects every rank's send into dst on root, in rank order,
// with no copy in between; dst must be exactly as long as all the sends
// together (it is ignored on the other ranks). On one rank it copies send.
// Collective: a root whose dst has the wrong length still takes part, then
// returns the error.
func GathervInto[T Elem](c Comm, send, dst []T, root int) error {
	if c.Size() == 1 {
		if len(dst) != len(send) {
			return fmt.Errorf("gatherv: a buffer of %d for %d elements", len(dst), len(send))
		}
		copy(dst, send)
		return nil
	}
	var short error
	err := gatherv(c, send, root, func(total int) []T {
		if total == len(dst) {
			return dst
		}
		short = fmt.Errorf("gatherv: a buffer of %d for %d elements", len(dst), total)
		return make([]T, total)
	})
	if err != nil {
		return err
	}
	return short
}

// gatherv exchanges the counts, then gathers every rank's send on root
// into the buffer recv returns for the total (called on root only).
func gatherv[T Elem](c Comm, send []T, root int, recv func(total int) []T) error {
	n := []int64{int64(len(send))}
	all := make([]int64, c.Size())
	if err := c.Allgather(Host(n), Host(all)); err != nil {
		return fmt.Errorf("gatherv counts: %w", err)
	}
	counts := make([]int, len(all))
	for i, x := range all {
		counts[i] = int(x)
	}
	if c.Rank() != root {
		return c.Gatherv(Host(send), nil, counts, nil, root)
	}
	displs, total := Displs(counts)
	return c.Gatherv(Host(send), Host(recv(total)), counts, displs, root)
}

// ----- The R×C processor grid -----

// Grid is a rank's place in the R×C processor grid of [Bisson] §2.2
// (after Yoo et al.): processor P(i,j) is grid row I, grid
// column J.
//
// Choice (the paper does not fix the rank order): world rank = J·R + I
// (column-major), so that rank r owns vertex block jR+i = r, and the
// vertex blocks, gathered in rank order, are the vertices in order.
type Grid struct {
	R, C  int
	I, J  int  // this rank's grid row and column
	World Comm // all R·C ranks
	Row   Comm // the C ranks of grid row I, ordered by J (fold exchange)
	Col   Comm // the R ranks of grid column J, ordered by I (expand exchange)
}

// NewGrid splits world (of size R·C) into row and column communicators.
// Collective over world.
func NewGrid(world Comm, r, c int) (*Grid, error) {
	if r < 1 || c < 1 || r*c != world.Size() {
		return nil, fmt.Errorf("comm: grid %d×%d does not match %d ranks", r, c, world.Size())
	}
	g := &Grid{R: r, C: c, World: world}
	g.I, g.J = GridCoords(world.Rank(), r)
	var err error
	if g.Row, err = world.Split(g.I, g.J); err != nil {
		return nil, fmt.Errorf("comm: grid row split: %w", err)
	}
	if g.Col, err = world.Split(g.J, g.I); err != nil {
		return nil, fmt.Errorf("comm: grid column split: %w", err)
	}
	return g, nil
}

// GridRank is the world rank of P(i,j) in a grid of r rows.
func GridRank(i, j, r int) int { return j*r + i }

// GridCoords is the (i,j) of a world rank in a grid of r rows.
func GridCoords(rank, r int) (i, j int) { return rank % r, rank / r }

// Close releases the row and column communicators (collective).
func (g *Grid) Close() error {
	err1 := g.Row.Close()
	err2 := g.Col.Close()
	return errors.Join(err1, err2)
}
