//go:build mpi

package comm

// mpi.go is bfsbench's own thin cgo binding to the system's MPI (mpi.h,
// libmpi; written and tested against Open MPI), covering only the calls
// Comm needs. It is built with `-tags mpi`, with the compiler and linker
// flags from the MPI compiler wrapper passed through the environment, so
// that no machine path appears in the source:
//
//	CGO_CFLAGS="$(mpicc --showme:compile)" CGO_LDFLAGS="$(mpicc --showme:link)" go build -tags mpi
//
// Threads: Go moves goroutines between OS threads, so MPI is initialised
// with MPI_THREAD_MULTIPLE. Where the library grants only
// MPI_THREAD_SERIALIZED, every call is serialised by a process-wide lock
// (enough for one goroutine per rank using MPI at a time, which is what
// Comm's contract asks; waits poll so that they do not hold the lock).
//
// Memory: collectives pass Go buffers to C for the call's duration only,
// which cgo allows (they hold no Go pointers). Isend and Irecv leave the
// buffer with MPI after returning, so it is pinned (runtime.Pinner) until
// the request completes.

/*
#include <stdlib.h>
#include <mpi.h>

static MPI_Datatype bfs_dt(int d) {
	switch (d) {
	case 0: return MPI_UINT8_T;
	case 1: return MPI_INT32_T;
	case 2: return MPI_UINT32_T;
	case 3: return MPI_INT64_T;
	case 4: return MPI_UINT64_T;
	default: return MPI_DOUBLE;
	}
}

static MPI_Op bfs_op(int o) {
	switch (o) {
	case 0: return MPI_SUM;
	case 1: return MPI_MAX;
	case 2: return MPI_MIN;
	default: return MPI_BOR;
	}
}

static MPI_Comm bfs_world(void) { return MPI_COMM_WORLD; }
static MPI_Comm bfs_null_comm(void) { return MPI_COMM_NULL; }
static void *bfs_in_place(void) { return MPI_IN_PLACE; }
static int bfs_undefined(void) { return MPI_UNDEFINED; }

static int bfs_init(int *provided) {
	int done = 0;
	MPI_Initialized(&done);
	if (done) {
		return MPI_Query_thread(provided);
	}
	int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, provided);
	if (rc == MPI_SUCCESS) {
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	}
	return rc;
}

static int bfs_thread_multiple(void) { return MPI_THREAD_MULTIPLE; }
static int bfs_thread_serialized(void) { return MPI_THREAD_SERIALIZED; }

static int bfs_finalize(void) {
	int done = 0;
	MPI_Finalized(&done);
	if (done) return MPI_SUCCESS;
	return MPI_Finalize();
}

static int bfs_wait(MPI_Request *req, int dt, int *count) {
	MPI_Status st;
	int rc = MPI_Wait(req, &st);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Get_count(&st, bfs_dt(dt), count);
}

static int bfs_test(MPI_Request *req, int dt, int *flag, int *count) {
	MPI_Status st;
	int rc = MPI_Test(req, flag, &st);
	if (rc != MPI_SUCCESS || !*flag) return rc;
	return MPI_Get_count(&st, bfs_dt(dt), count);
}

static void bfs_error_string(int code, char *buf, int cap) {
	int n = 0;
	if (MPI_Error_string(code, buf, &n) != MPI_SUCCESS || n >= cap) buf[0] = 0;
	else buf[n] = 0;
}
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"unsafe"
)

// MPIBuilt reports whether this binary carries the MPI binding.
const MPIBuilt = true

var mpiState struct {
	once     sync.Once
	world    *mpiComm
	err      error
	serial   bool       // library granted only MPI_THREAD_SERIALIZED
	mu       sync.Mutex // held around calls when serial
	finished bool
}

// MPIWorld initialises MPI on first use (MPI_Init_thread) and returns
// MPI_COMM_WORLD. The process must have been started by mpirun (or be a
// singleton the MPI library accepts).
func MPIWorld() (Comm, error) {
	s := &mpiState
	s.once.Do(func() {
		// Open MPI installs handlers for SIGSEGV and friends unless told
		// not to; they would replace the Go runtime's, which turns nil
		// dereferences into panics. Keep Go's unless the user chose.
		if _, set := os.LookupEnv("OMPI_MCA_opal_signal"); !set {
			os.Setenv("OMPI_MCA_opal_signal", "")
		}
		var provided C.int
		if rc := C.bfs_init(&provided); rc != C.MPI_SUCCESS {
			s.err = fmt.Errorf("comm: MPI_Init_thread: %s", mpiError(rc))
			return
		}
		switch {
		case provided >= C.bfs_thread_multiple():
		case provided >= C.bfs_thread_serialized():
			s.serial = true
		default:
			s.err = fmt.Errorf("comm: the MPI library grants thread level %d; bfsbench needs MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE", int(provided))
			return
		}
		s.world = &mpiComm{c: C.bfs_world(), world: true}
		var rank, size C.int
		C.MPI_Comm_rank(s.world.c, &rank)
		C.MPI_Comm_size(s.world.c, &size)
		s.world.rank, s.world.size = int(rank), int(size)
	})
	if s.err != nil {
		return nil, s.err
	}
	return s.world, nil
}

// MPIFinalize shuts MPI down (MPI_Finalize) if it was initialised. Every
// rank must call it before exiting normally; no Comm may be used after.
func MPIFinalize() error {
	s := &mpiState
	if s.world == nil || s.finished {
		return nil
	}
	s.finished = true
	if rc := C.bfs_finalize(); rc != C.MPI_SUCCESS {
		return fmt.Errorf("comm: MPI_Finalize: %s", mpiError(rc))
	}
	return nil
}

// lock serialises MPI calls when the library is not thread-safe.
func lock() func() {
	if !mpiState.serial {
		return func() {}
	}
	mpiState.mu.Lock()
	return mpiState.mu.Unlock
}

func mpiError(rc C.int) string {
	buf := make([]byte, 512) // ≥ MPI_MAX_ERROR_STRING in Open MPI and MPICH
	C.bfs_error_string(rc, (*C.char)(unsafe.Pointer(&buf[0])), C.int(len(buf)))
	msg := C.GoString((*C.char)(unsafe.Pointer(&buf[0])))
	if msg == "" {
		return fmt.Sprintf("MPI error %d", int(rc))
	}
	return msg
}

type mpiComm struct {
	c          C.MPI_Comm
	rank, size int
	world      bool
}

func (m *mpiComm) Rank() int { return m.rank }
func (m *mpiComm) Size() int { return m.size }

func (m *mpiComm) check(op string, rc C.int) error {
	if rc != C.MPI_SUCCESS {
		return fmt.Errorf("comm: MPI %s: %s", op, mpiError(rc))
	}
	return nil
}

// mpiBuf is a host buffer as MPI wants it.
type mpiBuf struct {
	p   unsafe.Pointer
	n   C.int
	dt  C.MPI_Datatype
	d   Datatype
	set bool // false for a nil Buffer (no datatype)
}

func toMPI(op string, b Buffer) (mpiBuf, error) {
	if b == nil {
		return mpiBuf{}, nil
	}
	bytes, err := hostBytes(op, b)
	if err != nil {
		return mpiBuf{}, err
	}
	if b.Len() > math.MaxInt32 {
		return mpiBuf{}, fmt.Errorf("comm: %s: %d elements exceed MPI's int count; split the message", op, b.Len())
	}
	out := mpiBuf{n: C.int(b.Len()), dt: C.bfs_dt(C.int(b.Datatype())), d: b.Datatype(), set: true}
	if len(bytes) > 0 {
		out.p = unsafe.Pointer(&bytes[0])
	}
	return out, nil
}

func pair(op string, send, recv Buffer) (mpiBuf, mpiBuf, error) {
	s, err := toMPI(op, send)
	if err != nil {
		return s, s, err
	}
	r, err := toMPI(op, recv)
	if err != nil {
		return s, r, err
	}
	if send != nil && recv != nil && send.Datatype() != recv.Datatype() {
		return s, r, fmt.Errorf("comm: %s: send is %s but recv is %s", op, send.Datatype(), recv.Datatype())
	}
	// A nil side takes the other's datatype: MPI wants a valid one.
	switch {
	case !s.set && r.set:
		s.dt, s.d = r.dt, r.d
	case s.set && !r.set:
		r.dt, r.d = s.dt, s.d
	case !s.set && !r.set:
		return s, r, fmt.Errorf("comm: %s: no buffer given", op)
	}
	return s, r, nil
}

// cInts converts counts or displacements; nil stays nil.
func cInts(op string, xs []int) ([]C.int, error) {
	if xs == nil {
		return nil, nil
	}
	out := make([]C.int, len(xs))
	for i, x := range xs {
		if x < 0 || x > math.MaxInt32 {
			return nil, fmt.Errorf("comm: %s: count or displacement %d out of MPI's int range", op, x)
		}
		out[i] = C.int(x)
	}
	return out, nil
}

func ptr(xs []C.int) *C.int {
	if len(xs) == 0 {
		return nil
	}
	return &xs[0]
}

func (m *mpiComm) layout(op string, xs ...[]int) ([][]C.int, error) {
	out := make([][]C.int, len(xs))
	for i, x := range xs {
		if x != nil && len(x) != m.size {
			return nil, fmt.Errorf("comm: %s: %d counts or displacements for %d ranks", op, len(x), m.size)
		}
		c, err := cInts(op, x)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func (m *mpiComm) Split(color, key int) (Comm, error) {
	col := C.int(color)
	if color < 0 {
		col = C.bfs_undefined()
	}
	var nc C.MPI_Comm
	defer lock()()
	if err := m.check("Comm_split", C.MPI_Comm_split(m.c, col, C.int(key), &nc)); err != nil {
		return nil, err
	}
	if nc == C.bfs_null_comm() {
		return nil, nil
	}
	C.MPI_Comm_set_errhandler(nc, C.MPI_ERRORS_RETURN)
	var rank, size C.int
	C.MPI_Comm_rank(nc, &rank)
	C.MPI_Comm_size(nc, &size)
	return &mpiComm{c: nc, rank: int(rank), size: int(size)}, nil
}

func (m *mpiComm) Barrier() error {
	defer lock()()
	return m.check("Barrier", C.MPI_Barrier(m.c))
}

func (m *mpiComm) Allreduce(buf Buffer, op Op) error {
	b, err := toMPI("allreduce", buf)
	if err != nil {
		return err
	}
	if err := checkOp(b.d, op); err != nil {
		return fmt.Errorf("comm: allreduce: %w", err)
	}
	defer lock()()
	return m.check("Allreduce", C.MPI_Allreduce(C.bfs_in_place(), b.p, b.n, b.dt, C.bfs_op(C.int(op)), m.c))
}

func (m *mpiComm) Bcast(buf Buffer, root int) error {
	b, err := toMPI("bcast", buf)
	if err != nil {
		return err
	}
	if root < 0 || root >= m.size {
		return fmt.Errorf("comm: bcast: root %d out of range [0, %d)", root, m.size)
	}
	defer lock()()
	return m.check("Bcast", C.MPI_Bcast(b.p, b.n, b.dt, C.int(root), m.c))
}

func (m *mpiComm) Allgather(send, recv Buffer) error {
	s, r, err := pair("allgather", send, recv)
	if err != nil {
		return err
	}
	if int(r.n) != int(s.n)*m.size {
		return fmt.Errorf("comm: allgather: recv holds %d elements, want %d·%d", r.n, s.n, m.size)
	}
	defer lock()()
	return m.check("Allgather", C.MPI_Allgather(s.p, s.n, s.dt, r.p, s.n, r.dt, m.c))
}

func (m *mpiComm) Allgatherv(send, recv Buffer, counts, displs []int) error {
	s, r, err := pair("allgatherv", send, recv)
	if err != nil {
		return err
	}
	l, err := m.layout("allgatherv", counts, displs)
	if err != nil {
		return err
	}
	if err := checkLayout(counts, displs, m.size, int(r.n)); err != nil {
		return fmt.Errorf("comm: allgatherv: %w", err)
	}
	if counts[m.rank] != int(s.n) {
		return fmt.Errorf("comm: allgatherv: this rank sends %d elements but counts[%d] = %d", s.n, m.rank, counts[m.rank])
	}
	defer lock()()
	return m.check("Allgatherv", C.MPI_Allgatherv(s.p, s.n, s.dt, r.p, ptr(l[0]), ptr(l[1]), r.dt, m.c))
}

func (m *mpiComm) Alltoall(send, recv Buffer) error {
	s, r, err := pair("alltoall", send, recv)
	if err != nil {
		return err
	}
	if int(s.n)%m.size != 0 || s.n != r.n {
		return fmt.Errorf("comm: alltoall: send %d and recv %d elements; want equal multiples of %d", s.n, r.n, m.size)
	}
	per := s.n / C.int(m.size)
	defer lock()()
	return m.check("Alltoall", C.MPI_Alltoall(s.p, per, s.dt, r.p, per, r.dt, m.c))
}

func (m *mpiComm) Alltoallv(send Buffer, scounts, sdispls []int, recv Buffer, rcounts, rdispls []int) error {
	s, r, err := pair("alltoallv", send, recv)
	if err != nil {
		return err
	}
	l, err := m.layout("alltoallv", scounts, sdispls, rcounts, rdispls)
	if err != nil {
		return err
	}
	if err := checkLayout(scounts, sdispls, m.size, int(s.n)); err != nil {
		return fmt.Errorf("comm: alltoallv send: %w", err)
	}
	if err := checkLayout(rcounts, rdispls, m.size, int(r.n)); err != nil {
		return fmt.Errorf("comm: alltoallv recv: %w", err)
	}
	defer lock()()
	return m.check("Alltoallv", C.MPI_Alltoallv(s.p, ptr(l[0]), ptr(l[1]), s.dt, r.p, ptr(l[2]), ptr(l[3]), r.dt, m.c))
}

func (m *mpiComm) Gatherv(send, recv Buffer, counts, displs []int, root int) error {
	s, r, err := pair("gatherv", send, recv)
	if err != nil {
		return err
	}
	if root < 0 || root >= m.size {
		return fmt.Errorf("comm: gatherv: root %d out of range [0, %d)", root, m.size)
	}
	var l [][]C.int
	if m.rank == root {
		if l, err = m.layout("gatherv", counts, displs); err != nil {
			return err
		}
		if err := checkLayout(counts, displs, m.size, int(r.n)); err != nil {
			return fmt.Errorf("comm: gatherv: %w", err)
		}
	} else {
		l = [][]C.int{nil, nil}
	}
	defer lock()()
	return m.check("Gatherv", C.MPI_Gatherv(s.p, s.n, s.dt, r.p, ptr(l[0]), ptr(l[1]), r.dt, C.int(root), m.c))
}

// mpiReq is a pending MPI_Request with its pinned buffer.
type mpiReq struct {
	req    C.MPI_Request
	d      Datatype
	send   bool
	n      int // elements sent (for sends)
	pin    runtime.Pinner
	done   bool
	result int
	err    error
}

func (m *mpiComm) p2p(op string, buf Buffer, peer, tag int) (*mpiReq, mpiBuf, error) {
	if buf == nil {
		return nil, mpiBuf{}, fmt.Errorf("comm: %s: nil buffer", op)
	}
	b, err := toMPI(op, buf)
	if err != nil {
		return nil, b, err
	}
	if peer < 0 || peer >= m.size {
		return nil, b, fmt.Errorf("comm: %s: rank %d out of range [0, %d)", op, peer, m.size)
	}
	if tag < 0 {
		return nil, b, fmt.Errorf("comm: %s: negative tag %d", op, tag)
	}
	r := &mpiReq{d: b.d, send: op == "isend", n: int(b.n)}
	if b.p != nil {
		r.pin.Pin(b.p)
	}
	return r, b, nil
}

func (m *mpiComm) Isend(buf Buffer, dest, tag int) (Request, error) {
	r, b, err := m.p2p("isend", buf, dest, tag)
	if err != nil {
		return nil, err
	}
	// r lives in Go memory; MPI writes the request handle only during the
	// call, so passing &r.req is allowed.
	defer lock()()
	if err := m.check("Isend", C.MPI_Isend(b.p, b.n, b.dt, C.int(dest), C.int(tag), m.c, &r.req)); err != nil {
		r.pin.Unpin()
		return nil, err
	}
	return r, nil
}

func (m *mpiComm) Irecv(buf Buffer, src, tag int) (Request, error) {
	r, b, err := m.p2p("irecv", buf, src, tag)
	if err != nil {
		return nil, err
	}
	defer lock()()
	if err := m.check("Irecv", C.MPI_Irecv(b.p, b.n, b.dt, C.int(src), C.int(tag), m.c, &r.req)); err != nil {
		r.pin.Unpin()
		return nil, err
	}
	return r, nil
}

func (r *mpiReq) complete(count C.int, rc C.int, what string) {
	r.done = true
	r.pin.Unpin()
	if rc != C.MPI_SUCCESS {
		r.err = fmt.Errorf("comm: MPI %s: %s", what, mpiError(rc))
		return
	}
	r.result = int(count)
	if r.send {
		r.result = r.n
	}
}

func (r *mpiReq) Wait() (int, error) {
	if r.done {
		return r.result, r.err
	}
	if mpiState.serial { // poll, so the lock is not held while waiting
		for {
			if done, n, err := r.Test(); done {
				return n, err
			}
			runtime.Gosched()
		}
	}
	var count C.int
	rc := C.bfs_wait(&r.req, C.int(r.d), &count)
	r.complete(count, rc, "Wait")
	return r.result, r.err
}

func (r *mpiReq) Test() (bool, int, error) {
	if r.done {
		return true, r.result, r.err
	}
	var flag, count C.int
	unlock := lock()
	rc := C.bfs_test(&r.req, C.int(r.d), &flag, &count)
	unlock()
	if rc != C.MPI_SUCCESS || flag != 0 {
		r.complete(count, rc, "Test")
		return true, r.result, r.err
	}
	return false, 0, nil
}

// Abort terminates the whole MPI job (MPI_Abort); it does not return.
func (m *mpiComm) Abort(err error) {
	fmt.Fprintf(os.Stderr, "bfsbench: MPI rank %d aborting the job: %v\n", m.rank, err)
	C.MPI_Abort(m.c, 1)
	os.Exit(1) // MPI_Abort should not return; make sure
}

// Close frees a communicator made by Split; the world is left alone.
func (m *mpiComm) Close() error {
	if m.world || m.c == C.bfs_null_comm() {
		return nil
	}
	defer lock()()
	err := m.check("Comm_free", C.MPI_Comm_free(&m.c))
	m.c = C.bfs_null_comm()
	return err
}
