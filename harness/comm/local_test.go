package comm_test

// local_test.go: the conformance suite on the in-process communicator for
// several world sizes, and the failure behaviour only it can promise
// (errors on every rank, abort unblocking the others).

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/comm/internal/commtest"
)

func TestLocalConformance(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 6, 16} {
		for _, tc := range commtest.Cases {
			t.Run(fmt.Sprintf("%s/n=%d", tc.Name, n), func(t *testing.T) {
				t.Parallel()
				runWithDeadline(t, n, tc.Run)
			})
		}
	}
}

// runWithDeadline runs f on n local ranks and fails (rather than hangs)
// when they deadlock.
func runWithDeadline(t *testing.T, n int, f func(c comm.Comm) error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- comm.RunLocal(n, f) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ranks deadlocked")
	}
}

func TestNewLocalRejectsEmptyWorld(t *testing.T) {
	if _, err := comm.NewLocal(0); err == nil {
		t.Fatal("NewLocal(0) succeeded")
	}
}

// A bad collective fails on every rank with the same error, and none hangs.
func TestLocalCollectiveErrorsOnEveryRank(t *testing.T) {
	cases := []struct {
		name string
		f    func(c comm.Comm) error
		want string
	}{
		{"allreduce lengths differ", func(c comm.Comm) error {
			return c.Allreduce(comm.Host(make([]int64, 1+c.Rank())), comm.Sum)
		}, "elements"},
		{"or on floats", func(c comm.Comm) error {
			return c.Allreduce(comm.Host([]float64{1}), comm.Or)
		}, "not defined"},
		{"datatypes differ", func(c comm.Comm) error {
			if c.Rank() == 0 {
				return c.Bcast(comm.Host([]int64{1}), 0)
			}
			return c.Bcast(comm.Host([]uint64{1}), 0)
		}, "passed"},
		{"different collectives", func(c comm.Comm) error {
			if c.Rank() == 0 {
				return c.Barrier()
			}
			return c.Bcast(comm.Host([]int64{1}), 0)
		}, "called"},
		{"root out of range", func(c comm.Comm) error {
			return c.Bcast(comm.Host([]int64{1}), 9)
		}, "out of range"},
		{"allgatherv counts wrong", func(c comm.Comm) error {
			counts := []int{1, 1, 1}
			displs, total := comm.Displs(counts)
			return c.Allgatherv(comm.Host(make([]int32, 2)), comm.Host(make([]int32, total)), counts, displs)
		}, "expects"},
		{"alltoallv recv counts disagree", func(c comm.Comm) error {
			sc := []int{1, 1, 1}
			rc := []int{1, 2, 1}
			sd, _ := comm.Displs(sc)
			rd, rt := comm.Displs(rc)
			return c.Alltoallv(comm.Host(make([]uint32, 3)), sc, sd, comm.Host(make([]uint32, rt)), rc, rd)
		}, "expects"},
		{"gatherv block outside buffer", func(c comm.Comm) error {
			var recv comm.Buffer
			if c.Rank() == 0 {
				recv = comm.Host(make([]int64, 2))
			}
			return c.Gatherv(comm.Host([]int64{1}), recv, []int{1, 1, 1}, []int{0, 1, 2}, 0)
		}, "outside"},
		{"send and recv types differ", func(c comm.Comm) error {
			return c.Allgather(comm.Host([]int64{1}), comm.Host(make([]uint64, 3)))
		}, "recv is"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			comms, err := comm.NewLocal(3)
			if err != nil {
				t.Fatal(err)
			}
			errs := make(chan error, 3)
			for _, c := range comms {
				go func() { errs <- tc.f(c) }()
			}
			for range 3 {
				select {
				case err := <-errs:
					if err == nil || !strings.Contains(err.Error(), tc.want) {
						t.Errorf("got %v, want an error containing %q", err, tc.want)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("a rank hung")
				}
			}
		})
	}
}

// A rank that fails aborts the world: ranks blocked waiting for it return
// ErrAborted, and RunLocal reports the failing rank's own error.
func TestLocalAbortUnblocksOthers(t *testing.T) {
	boom := errors.New("boom")
	done := make(chan error, 1)
	go func() {
		done <- comm.RunLocal(4, func(c comm.Comm) error {
			if c.Rank() == 2 {
				return boom
			}
			if c.Rank() == 1 { // blocked in a receive from rank 2
				rq, err := c.Irecv(comm.Host(make([]int64, 1)), 2, 0)
				if err != nil {
					return err
				}
				_, err = rq.Wait()
				return err
			}
			return c.Barrier()
		})
	}()
	select {
	case err := <-done:
		if !errors.Is(err, boom) || !strings.Contains(err.Error(), "rank 2") {
			t.Fatalf("got %v, want rank 2's boom", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("abort did not unblock the other ranks")
	}
}

func TestLocalAbortedOperationsFail(t *testing.T) {
	comms, _ := comm.NewLocal(2)
	comms[0].Abort(errors.New("stop"))
	for _, c := range comms {
		if err := c.Barrier(); !errors.Is(err, comm.ErrAborted) {
			t.Errorf("rank %d barrier after abort: %v", c.Rank(), err)
		}
		if _, err := c.Isend(comm.Host([]int64{1}), 0, 0); !errors.Is(err, comm.ErrAborted) {
			t.Errorf("rank %d isend after abort: %v", c.Rank(), err)
		}
	}
}

func TestLocalPanicIsReported(t *testing.T) {
	err := comm.RunLocal(2, func(c comm.Comm) error {
		if c.Rank() == 1 {
			panic("kaput")
		}
		return c.Barrier()
	})
	if err == nil || !strings.Contains(err.Error(), "rank 1: panic: kaput") {
		t.Fatalf("got %v", err)
	}
}

func TestLocalPointToPointErrors(t *testing.T) {
	comms, _ := comm.NewLocal(2)
	a, b := comms[0], comms[1]
	// Truncation: both sides fail.
	rq, err := b.Irecv(comm.Host(make([]int32, 1)), 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	sq, err := a.Isend(comm.Host([]int32{1, 2}), 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rq.Wait(); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("receive: got %v, want truncated", err)
	}
	if _, err := sq.Wait(); err == nil {
		t.Error("send of a truncated message succeeded")
	}
	// Type mismatch.
	rq, _ = b.Irecv(comm.Host(make([]uint32, 2)), 0, 6)
	sq, _ = a.Isend(comm.Host([]int32{1}), 1, 6)
	if _, err := rq.Wait(); err == nil {
		t.Error("receiving int32 into uint32 succeeded")
	}
	sq.Wait()
	// Bad arguments fail at once.
	for name, f := range map[string]func() error{
		"rank":     func() error { _, err := a.Isend(comm.Host([]int32{1}), 2, 0); return err },
		"tag":      func() error { _, err := a.Irecv(comm.Host([]int32{1}), 1, -1); return err },
		"nil":      func() error { _, err := a.Isend(nil, 1, 0); return err },
		"non-host": func() error { _, err := a.Isend(fakeDevice{}, 1, 0); return err },
	} {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A send does not complete before its receive is posted (no buffering).
func TestLocalSendIsRendezvous(t *testing.T) {
	comms, _ := comm.NewLocal(2)
	sq, err := comms[0].Isend(comm.Host([]int64{42}), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if done, _, _ := sq.Test(); done {
		t.Fatal("send completed with no receive posted")
	}
	buf := make([]int64, 1)
	rq, _ := comms[1].Irecv(comm.Host(buf), 0, 0)
	if err := comm.WaitAll([]comm.Request{sq, rq}); err != nil || buf[0] != 42 {
		t.Fatalf("got %v, %v", buf, err)
	}
}

// fakeDevice stands for a device buffer a host communicator cannot use.
type fakeDevice struct{}

func (fakeDevice) Datatype() comm.Datatype { return comm.Uint32 }
func (fakeDevice) Len() int                { return 1 }

func TestDatatypeOfNamedTypes(t *testing.T) {
	type vid uint32
	type level int32
	type mask uint8
	type f float64
	type w int64
	type u uint64
	cases := []struct {
		got, want comm.Datatype
	}{
		{comm.Host([]vid{}).Datatype(), comm.Uint32},
		{comm.Host([]level{}).Datatype(), comm.Int32},
		{comm.Host([]mask{}).Datatype(), comm.Byte},
		{comm.Host([]f{}).Datatype(), comm.Float64},
		{comm.Host([]w{}).Datatype(), comm.Int64},
		{comm.Host([]u{}).Datatype(), comm.Uint64},
		{comm.Host([]uint32{}).Datatype(), comm.Uint32},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %s want %s", i, c.got, c.want)
		}
	}
}

func TestNewGridRejectsBadShape(t *testing.T) {
	err := comm.RunLocal(4, func(c comm.Comm) error {
		_, err := comm.NewGrid(c, 3, 2)
		if err == nil {
			return errors.New("3×2 grid on 4 ranks accepted")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAlltoallvSliceInto: rank r sends r+1 copies of 10·r+d to each rank d;
// a long enough buffer receives in place, a short one is replaced.
func TestAlltoallvSliceInto(t *testing.T) {
	const n = 3
	err := comm.RunLocal(n, func(c comm.Comm) error {
		r := c.Rank()
		var send []int32
		counts := make([]int, n)
		for d := 0; d < n; d++ {
			for k := 0; k <= r; k++ {
				send = append(send, int32(10*r+d))
			}
			counts[d] = r + 1
		}
		for _, size := range []int{100, 2} {
			buf := make([]int32, size)
			recv, rc, err := comm.AlltoallvSliceInto(c, send, counts, buf)
			if err != nil {
				return err
			}
			var want []int32
			for s := 0; s < n; s++ {
				if rc[s] != s+1 {
					return fmt.Errorf("rank %d: %d from rank %d, want %d", r, rc[s], s, s+1)
				}
				for k := 0; k <= s; k++ {
					want = append(want, int32(10*s+r))
				}
			}
			if fmt.Sprint(recv) != fmt.Sprint(want) {
				return fmt.Errorf("rank %d: received %v, want %v", r, recv, want)
			}
			if inPlace := &recv[0] == &buf[0]; inPlace != (size >= len(want)) {
				return fmt.Errorf("rank %d, buffer of %d for %d: received in place %v", r, size, len(want), inPlace)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A world whose ranks wait in collectives that no rank left can complete
// fails at once (localWorld's deadlock check) instead of hanging: a rank
// that returned while another waits in a barrier for it, and ranks in
// different collectives (one in its column's gather, the others in a
// reduction over the world, as a 2×2 grid's ranks that disagree on a
// level would be).
func TestLocalDeadlockFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		f    func(c comm.Comm) error
		want []string // the collectives a waiting rank may name (RunLocal returns one rank's error)
	}{
		{"a rank returned", 2, func(c comm.Comm) error {
			if c.Rank() == 0 {
				return nil
			}
			return c.Barrier()
		}, []string{"barrier"}},
		{"crossed collectives", 4, func(c comm.Comm) error {
			col, err := c.Split(c.Rank()%2, c.Rank())
			if err != nil {
				return err
			}
			if c.Rank() == 1 {
				return col.Allgather(comm.Host([]int64{1}), comm.Host(make([]int64, 2)))
			}
			return c.Allreduce(comm.Host([]int64{1}), comm.Sum)
		}, []string{"allreduce", "allgather"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- comm.RunLocal(tc.n, tc.f) }()
			select {
			case err := <-done:
				named := false
				for _, op := range tc.want {
					named = named || (err != nil && strings.Contains(strings.ToLower(err.Error()), op))
				}
				if err == nil || !errors.Is(err, comm.ErrAborted) || !strings.Contains(err.Error(), "deadlock") || !named {
					t.Fatalf("got %v, want an aborted %v naming the deadlock", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the deadlock was not detected: the ranks hung")
			}
		})
	}
}

// The deadlock check aborts nothing that could go on: a rank that returns
// early while the others keep meeting in a group without it, and the
// ranks of a 2×2 grid meeting in their rows, columns and the world in
// turn, a RunRanks call at a time, with uneven delays (the check once
// counted a released party as still waiting while it reached its next
// barrier, and aborted such worlds).
func TestLocalNoFalseDeadlock(t *testing.T) {
	err := comm.RunLocal(4, func(c comm.Comm) error {
		color := 1
		if c.Rank() == 0 {
			color = 0
		}
		rest, err := c.Split(color, c.Rank())
		if err != nil {
			return err
		}
		if c.Rank() == 0 {
			return nil
		}
		for i := range 2000 {
			if i%(c.Rank()+1) == 0 {
				time.Sleep(time.Microsecond)
			}
			if err := rest.Barrier(); err != nil {
				return fmt.Errorf("barrier %d: %w", i, err)
			}
		}
		buf := []int64{int64(c.Rank())}
		return rest.Allreduce(comm.Host(buf), comm.Sum)
	})
	if err != nil {
		t.Fatal(err)
	}

	comms, err := comm.NewLocal(4)
	if err != nil {
		t.Fatal(err)
	}
	rows, cols := make([]comm.Comm, 4), make([]comm.Comm, 4)
	if err := comm.RunRanks(comms, func(c comm.Comm) error {
		r := c.Rank()
		var err error
		if rows[r], err = c.Split(r/2, r%2); err != nil {
			return err
		}
		cols[r], err = c.Split(r%2, r/2)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for call := range 1500 {
		err := comm.RunRanks(comms, func(c comm.Comm) error {
			r := c.Rank()
			if err := c.Barrier(); err != nil {
				return err
			}
			for step := range 4 {
				if (call+step+r)%5 == 0 {
					time.Sleep(time.Duration((call*7+r*13)%40) * time.Microsecond)
				}
				if err := cols[r].Allgather(comm.Host([]int64{1}), comm.Host(make([]int64, 2))); err != nil {
					return err
				}
				if err := rows[r].Allreduce(comm.Host([]int64{1}), comm.Sum); err != nil {
					return err
				}
				if err := c.Allreduce(comm.Host([]int64{1, 2}), comm.Sum); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("call %d: %v", call, err)
		}
	}
}
