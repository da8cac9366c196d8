// Package commtest is the conformance suite every Comm implementation
// passes: each case is the body one rank runs, checking what it received
// against values every rank can compute from (rank, size). The in-process
// communicator runs it in comm's tests; the MPI one runs it in
// internal/mpitest under mpirun; the device communicator (NCCL) runs
// DeviceCases through Staged (staged.go) in comm's nccl_test.go.
package commtest

import (
	"errors"
	"fmt"
	"slices"

	"github.com/bfsbench/bfsbench/harness/comm"
)

// Case is one conformance check, run by every rank of a world.
type Case struct {
	Name string
	Run  func(c comm.Comm) error
}

// Cases are the checks that hold for any world size ≥ 1.
var Cases = []Case{
	{"RankSize", rankSize},
	{"Barrier", barrier},
	{"Allreduce", allreduce},
	{"Bcast", bcast},
	{"Allgatherv", allgatherv},
	{"Alltoall", alltoall},
	{"Alltoallv", alltoallv},
	{"Gatherv", gatherv},
	{"SliceHelpers", sliceHelpers},
	{"Split", split},
	{"Grid", grid},
	{"PointToPoint", pointToPoint},
	{"PointToPointInOrder", pointToPointInOrder},
	{"OverlappedRounds", overlappedRounds},
	{"OverlappedRoundsExact", overlappedRoundsExact},
	{"LargeMessage", largeMessage},
}

func expectEqual[T comparable](what string, got, want []T) error {
	if !slices.Equal(got, want) {
		if len(got) > 16 || len(want) > 16 {
			return fmt.Errorf("%s: got %d elements, want %d (first difference at %d)", what, len(got), len(want), firstDiff(got, want))
		}
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}

func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func rankSize(c comm.Comm) error {
	n := c.Size()
	if c.Rank() < 0 || c.Rank() >= n {
		return fmt.Errorf("rank %d out of [0, %d)", c.Rank(), n)
	}
	all := make([]int64, n)
	if err := c.Allgather(comm.Host([]int64{int64(c.Rank())}), comm.Host(all)); err != nil {
		return err
	}
	want := make([]int64, n)
	for i := range want {
		want[i] = int64(i)
	}
	return expectEqual("allgather of ranks", all, want)
}

func barrier(c comm.Comm) error {
	for range 5 {
		if err := c.Barrier(); err != nil {
			return err
		}
	}
	return nil
}

func allreduce(c comm.Comm) error {
	r, n := int64(c.Rank()), int64(c.Size())
	// int64: sum, max, min of (r, -r, r*r), bitwise or of 1<<r.
	x := []int64{r, -r, r * r}
	if err := comm.AllreduceSlice(c, x, comm.Sum); err != nil {
		return err
	}
	sq := (n - 1) * n * (2*n - 1) / 6
	if err := expectEqual("int64 sum", x, []int64{n * (n - 1) / 2, -n * (n - 1) / 2, sq}); err != nil {
		return err
	}
	x = []int64{r, -r}
	if err := comm.AllreduceSlice(c, x, comm.Max); err != nil {
		return err
	}
	if err := expectEqual("int64 max", x, []int64{n - 1, 0}); err != nil {
		return err
	}
	x = []int64{r, -r}
	if err := comm.AllreduceSlice(c, x, comm.Min); err != nil {
		return err
	}
	if err := expectEqual("int64 min", x, []int64{0, -(n - 1)}); err != nil {
		return err
	}
	u := []uint64{1 << uint(r), 0}
	if err := comm.AllreduceSlice(c, u, comm.Or); err != nil {
		return err
	}
	if err := expectEqual("uint64 or", u, []uint64{1<<uint(n) - 1, 0}); err != nil {
		return err
	}
	w := []uint32{uint32(r) + 1, 7}
	if err := comm.AllreduceSlice(c, w, comm.Sum); err != nil {
		return err
	}
	if err := expectEqual("uint32 sum", w, []uint32{uint32(n * (n + 1) / 2), uint32(7 * n)}); err != nil {
		return err
	}
	b := []byte{byte(1 << (r % 8))}
	if err := comm.AllreduceSlice(c, b, comm.Or); err != nil {
		return err
	}
	var wantB byte
	for i := range n {
		wantB |= 1 << (i % 8)
	}
	if err := expectEqual("byte or", b, []byte{wantB}); err != nil {
		return err
	}
	f := []float64{float64(r) / 2}
	if err := comm.AllreduceSlice(c, f, comm.Max); err != nil {
		return err
	}
	if err := expectEqual("float64 max", f, []float64{float64(n-1) / 2}); err != nil {
		return err
	}
	i32 := []int32{int32(-r)}
	if err := comm.AllreduceSlice(c, i32, comm.Min); err != nil {
		return err
	}
	if err := expectEqual("int32 min", i32, []int32{int32(1 - n)}); err != nil {
		return err
	}
	got, err := comm.AllreduceInt64(c, 1, comm.Sum)
	if err != nil {
		return err
	}
	return expectEqual("AllreduceInt64", []int64{got}, []int64{n})
}

func bcast(c comm.Comm) error {
	for root := range c.Size() {
		buf := make([]uint32, 5)
		if c.Rank() == root {
			for i := range buf {
				buf[i] = uint32(1000*root + i)
			}
		}
		if err := comm.BcastSlice(c, buf, root); err != nil {
			return err
		}
		want := make([]uint32, 5)
		for i := range want {
			want[i] = uint32(1000*root + i)
		}
		if err := expectEqual(fmt.Sprintf("bcast from %d", root), buf, want); err != nil {
			return err
		}
	}
	return nil
}

// contribution is what rank r sends in the v-collectives: r%3 elements
// (some ranks send nothing), each naming the rank and its position.
func contribution(r int) []uint32 {
	out := make([]uint32, r%3)
	for k := range out {
		out[k] = uint32(100*r + k)
	}
	return out
}

func allgatherv(c comm.Comm) error {
	n := c.Size()
	counts := make([]int, n)
	var want []uint32
	for r := range n {
		counts[r] = len(contribution(r))
		want = append(want, contribution(r)...)
	}
	displs, total := comm.Displs(counts)
	recv := make([]uint32, total)
	if err := c.Allgatherv(comm.Host(contribution(c.Rank())), comm.Host(recv), counts, displs); err != nil {
		return err
	}
	return expectEqual("allgatherv", recv, want)
}

func alltoall(c comm.Comm) error {
	n, me := c.Size(), c.Rank()
	send := make([]int64, 2*n) // two elements for each destination
	for d := range n {
		send[2*d], send[2*d+1] = int64(me*n+d), -int64(me*n+d)
	}
	recv := make([]int64, 2*n)
	if err := c.Alltoall(comm.Host(send), comm.Host(recv)); err != nil {
		return err
	}
	want := make([]int64, 2*n)
	for s := range n {
		want[2*s], want[2*s+1] = int64(s*n+me), -int64(s*n+me)
	}
	return expectEqual("alltoall", recv, want)
}

// message is what rank s sends to rank d in the all-to-all checks: (s+2d)%4
// elements encoding (s, d, k).
func message(s, d, n int) []uint64 {
	out := make([]uint64, (s+2*d)%4)
	for k := range out {
		out[k] = uint64((s*n+d)*10 + k)
	}
	return out
}

func alltoallv(c comm.Comm) error {
	n, me := c.Size(), c.Rank()
	var send []uint64
	scounts := make([]int, n)
	for d := range n {
		m := message(me, d, n)
		scounts[d] = len(m)
		send = append(send, m...)
	}
	sdispls, _ := comm.Displs(scounts)
	rcounts := make([]int, n)
	var want []uint64
	for s := range n {
		m := message(s, me, n)
		rcounts[s] = len(m)
		want = append(want, m...)
	}
	rdispls, total := comm.Displs(rcounts)
	// Receive into a larger buffer at shifted displacements, to check that
	// displacements are honoured and nothing else is written.
	recv := make([]uint64, total+n)
	for i := range recv {
		recv[i] = ^uint64(0)
	}
	for s := range rdispls {
		rdispls[s] += s
	}
	if err := c.Alltoallv(comm.Host(send), scounts, sdispls, comm.Host(recv), rcounts, rdispls); err != nil {
		return err
	}
	var got []uint64
	for s := range n {
		got = append(got, recv[rdispls[s]:rdispls[s]+rcounts[s]]...)
		if s > 0 && recv[rdispls[s]-1] != ^uint64(0) {
			return fmt.Errorf("alltoallv wrote the gap before block %d", s)
		}
	}
	if err := expectEqual("alltoallv", got, want); err != nil {
		return err
	}
	// The helper that exchanges counts itself.
	got, rc, err := comm.AlltoallvSlice(c, send, scounts)
	if err != nil {
		return err
	}
	if err := expectEqual("AlltoallvSlice counts", rc, rcounts); err != nil {
		return err
	}
	return expectEqual("AlltoallvSlice", got, want)
}

func gatherv(c comm.Comm) error {
	n := c.Size()
	for _, root := range []int{0, n - 1} {
		counts := make([]int, n)
		var want []int64
		for r := range n {
			for _, x := range contribution(r) {
				want = append(want, int64(x))
			}
			counts[r] = len(contribution(r))
		}
		mine := make([]int64, 0)
		for _, x := range contribution(c.Rank()) {
			mine = append(mine, int64(x))
		}
		var recv []int64
		var displs []int
		if c.Rank() == root {
			var total int
			displs, total = comm.Displs(counts)
			recv = make([]int64, total)
		}
		var rb comm.Buffer
		if recv != nil {
			rb = comm.Host(recv)
		}
		if err := c.Gatherv(comm.Host(mine), rb, counts, displs, root); err != nil {
			return err
		}
		if c.Rank() == root {
			if err := expectEqual(fmt.Sprintf("gatherv to %d", root), recv, want); err != nil {
				return err
			}
		}
	}
	return nil
}

func sliceHelpers(c comm.Comm) error {
	n := c.Size()
	var want []uint32
	wantCounts := make([]int, n)
	for r := range n {
		want = append(want, contribution(r)...)
		wantCounts[r] = len(contribution(r))
	}
	got, counts, err := comm.AllgathervSlice(c, contribution(c.Rank()))
	if err != nil {
		return err
	}
	if err := expectEqual("AllgathervSlice", got, want); err != nil {
		return err
	}
	if err := expectEqual("AllgathervSlice counts", counts, wantCounts); err != nil {
		return err
	}
	// GathervInto: straight into the root's buffer; a buffer of the wrong
	// length (one too long) is an error on the root, and nobody hangs.
	var dst []uint32
	if c.Rank() == 0 {
		dst = make([]uint32, len(want))
	}
	if err := comm.GathervInto(c, contribution(c.Rank()), dst, 0); err != nil {
		return err
	}
	if c.Rank() == 0 {
		if err := expectEqual("GathervInto", dst, want); err != nil {
			return err
		}
		dst = make([]uint32, len(want)+1)
	}
	err = comm.GathervInto(c, contribution(c.Rank()), dst, 0)
	if (err != nil) != (c.Rank() == 0) {
		return fmt.Errorf("GathervInto with a wrong buffer on the root: rank %d got %v", c.Rank(), err)
	}
	return nil
}

func split(c comm.Comm) error {
	n, me := c.Size(), c.Rank()
	// Two colours by parity, ordered by descending rank; the last rank
	// opts out when n > 2.
	color := me % 2
	if n > 2 && me == n-1 {
		color = -1
	}
	sub, err := c.Split(color, -me)
	if err != nil {
		return err
	}
	if color < 0 {
		if sub != nil {
			return errors.New("split with a negative colour returned a communicator")
		}
		return nil
	}
	var members []int64
	for r := n - 1; r >= 0; r-- {
		if r%2 == color && !(n > 2 && r == n-1) {
			members = append(members, int64(r))
		}
	}
	all := make([]int64, sub.Size())
	if err := sub.Allgather(comm.Host([]int64{int64(me)}), comm.Host(all)); err != nil {
		return err
	}
	if err := expectEqual(fmt.Sprintf("split colour %d members", color), all, members); err != nil {
		return err
	}
	return sub.Close()
}

func grid(c comm.Comm) error {
	n := c.Size()
	r := 1
	for d := 1; d*d <= n; d++ {
		if n%d == 0 {
			r = d
		}
	}
	g, err := comm.NewGrid(c, r, n/r)
	if err != nil {
		return err
	}
	if comm.GridRank(g.I, g.J, g.R) != c.Rank() {
		return fmt.Errorf("P(%d,%d) is not world rank %d", g.I, g.J, c.Rank())
	}
	if g.Row.Size() != g.C || g.Col.Size() != g.R || g.Row.Rank() != g.J || g.Col.Rank() != g.I {
		return fmt.Errorf("row %d/%d, col %d/%d for P(%d,%d) of %d×%d", g.Row.Rank(), g.Row.Size(), g.Col.Rank(), g.Col.Size(), g.I, g.J, g.R, g.C)
	}
	row := make([]int64, g.C)
	if err := g.Row.Allgather(comm.Host([]int64{int64(c.Rank())}), comm.Host(row)); err != nil {
		return err
	}
	col := make([]int64, g.R)
	if err := g.Col.Allgather(comm.Host([]int64{int64(c.Rank())}), comm.Host(col)); err != nil {
		return err
	}
	wantRow, wantCol := make([]int64, g.C), make([]int64, g.R)
	for j := range wantRow {
		wantRow[j] = int64(comm.GridRank(g.I, j, g.R))
	}
	for i := range wantCol {
		wantCol[i] = int64(comm.GridRank(i, g.J, g.R))
	}
	if err := expectEqual("grid row", row, wantRow); err != nil {
		return err
	}
	if err := expectEqual("grid column", col, wantCol); err != nil {
		return err
	}
	return g.Close()
}

// pointToPoint: every rank sends two tagged messages to every rank
// (itself included); receives are posted in the opposite tag order, so
// matching must go by tag.
func pointToPoint(c comm.Comm) error {
	n, me := c.Size(), c.Rank()
	var reqs []comm.Request
	recvs := make([][2][]int32, n)
	for s := range n {
		for tag := 1; tag >= 0; tag-- {
			recvs[s][tag] = make([]int32, 8) // longer than any message
			rq, err := c.Irecv(comm.Host(recvs[s][tag]), s, tag)
			if err != nil {
				return err
			}
			reqs = append(reqs, rq)
		}
	}
	sends := make([][2][]int32, n)
	var sreqs []comm.Request
	for d := range n {
		for tag := range 2 {
			m := make([]int32, 1+(me+d+tag)%5)
			for k := range m {
				m[k] = int32(me*1000 + d*10 + tag*100 + k)
			}
			sends[d][tag] = m
			rq, err := c.Isend(comm.Host(m), d, tag)
			if err != nil {
				return err
			}
			sreqs = append(sreqs, rq)
		}
	}
	// Wait for receives in posting order, checking counts.
	i := 0
	for s := range n {
		for tag := 1; tag >= 0; tag-- {
			got, err := reqs[i].Wait()
			i++
			if err != nil {
				return err
			}
			want := make([]int32, 1+(s+me+tag)%5)
			for k := range want {
				want[k] = int32(s*1000 + me*10 + tag*100 + k)
			}
			if err := expectEqual(fmt.Sprintf("message from %d tag %d", s, tag), recvs[s][tag][:got], want); err != nil {
				return err
			}
		}
	}
	// Test must report completed sends as done.
	for _, rq := range sreqs {
		for {
			done, _, err := rq.Test()
			if err != nil {
				return err
			}
			if done {
				break
			}
		}
	}
	return comm.WaitAll(sreqs)
}

// pointToPointInOrder: every rank sends two messages (tags 0 then 1) to
// every rank, itself included, and receives them in the order they were
// sent, each into a buffer of exactly the message's length: what holds
// for every communicator, NCCL's (no tag matching) included.
func pointToPointInOrder(c comm.Comm) error {
	n, me := c.Size(), c.Rank()
	length := func(s, d, tag int) int { return 1 + (s+2*d+tag)%5 }
	var rreqs, sreqs []comm.Request
	recvs := make([][2][]int64, n)
	for s := range n {
		for tag := range 2 {
			recvs[s][tag] = make([]int64, length(s, me, tag))
			rq, err := c.Irecv(comm.Host(recvs[s][tag]), s, tag)
			if err != nil {
				return err
			}
			rreqs = append(rreqs, rq)
		}
	}
	for d := range n {
		for tag := range 2 {
			m := make([]int64, length(me, d, tag))
			for k := range m {
				m[k] = int64(me*1000 + d*10 + tag*100 + k)
			}
			rq, err := c.Isend(comm.Host(m), d, tag)
			if err != nil {
				return err
			}
			sreqs = append(sreqs, rq)
		}
	}
	i := 0
	for s := range n {
		for tag := range 2 {
			got, err := rreqs[i].Wait()
			i++
			if err != nil {
				return err
			}
			want := make([]int64, length(s, me, tag))
			for k := range want {
				want[k] = int64(s*1000 + me*10 + tag*100 + k)
			}
			if err := expectEqual(fmt.Sprintf("message from %d tag %d", s, tag), recvs[s][tag][:got], want); err != nil {
				return err
			}
		}
	}
	return comm.WaitAll(sreqs)
}

// overlappedRoundsExact is overlappedRounds with receive buffers of
// exactly each message's length (empty ones included).
func overlappedRoundsExact(c comm.Comm) error {
	n, me := c.Size(), c.Rank()
	right, left := (me+1)%n, (me+n-1)%n
	const rounds = 6
	length := func(r, k int) int { return (r + k) % (rounds + 1) }
	var bufs [2][]uint32
	post := func(k int) (comm.Request, error) {
		bufs[k%2] = make([]uint32, length(left, k))
		return c.Irecv(comm.Host(bufs[k%2]), left, 7)
	}
	next, err := post(0)
	if err != nil {
		return err
	}
	for k := range rounds {
		msg := make([]uint32, length(me, k))
		for i := range msg {
			msg[i] = uint32(me*100 + k*10 + i)
		}
		sreq, err := c.Isend(comm.Host(msg), right, 7)
		if err != nil {
			return err
		}
		got, err := next.Wait()
		if err != nil {
			return err
		}
		want := make([]uint32, length(left, k))
		for i := range want {
			want[i] = uint32(left*100 + k*10 + i)
		}
		if err := expectEqual(fmt.Sprintf("round %d from %d", k, left), bufs[k%2][:got], want); err != nil {
			return err
		}
		if k+1 < rounds {
			if next, err = post(k + 1); err != nil {
				return err
			}
		}
		if _, err := sreq.Wait(); err != nil {
			return err
		}
	}
	return nil
}

// overlappedRounds is the pattern of [Bisson] §3.3:
// receives for round k+1 are posted before round k's sends complete; each
// rank sends to its right neighbour and receives from its left, over
// several rounds, with messages of varying length (some empty).
func overlappedRounds(c comm.Comm) error {
	n, me := c.Size(), c.Rank()
	right, left := (me+1)%n, (me+n-1)%n
	const rounds = 6
	bufs := [2][]uint32{make([]uint32, rounds+1), make([]uint32, rounds+1)}
	post := func(k int) (comm.Request, error) { return c.Irecv(comm.Host(bufs[k%2]), left, 7) }
	next, err := post(0)
	if err != nil {
		return err
	}
	for k := range rounds {
		msg := make([]uint32, (me+k)%(rounds+1))
		for i := range msg {
			msg[i] = uint32(me*100 + k*10 + i)
		}
		sreq, err := c.Isend(comm.Host(msg), right, 7)
		if err != nil {
			return err
		}
		cur := next
		got, err := cur.Wait()
		if err != nil {
			return err
		}
		want := make([]uint32, (left+k)%(rounds+1))
		for i := range want {
			want[i] = uint32(left*100 + k*10 + i)
		}
		if err := expectEqual(fmt.Sprintf("round %d from %d", k, left), bufs[k%2][:got], want); err != nil {
			return err
		}
		if k+1 < rounds {
			if next, err = post(k + 1); err != nil {
				return err
			}
		}
		if _, err := sreq.Wait(); err != nil {
			return err
		}
	}
	return nil
}

// largeMessage moves 8 MiB per rank through Alltoallv and point-to-point,
// beyond any eager limit, so rendezvous transfers are exercised.
func largeMessage(c comm.Comm) error {
	n, me := c.Size(), c.Rank()
	const per = 1 << 17 // uint64 elements per destination: 1 MiB
	send := make([]uint64, per*n)
	for i := range send {
		send[i] = uint64(me)<<40 | uint64(i)
	}
	scounts := make([]int, n)
	for i := range scounts {
		scounts[i] = per
	}
	got, _, err := comm.AlltoallvSlice(c, send, scounts)
	if err != nil {
		return err
	}
	for s := range n {
		for k := 0; k < per; k += 4099 {
			want := uint64(s)<<40 | uint64(me*per+k)
			if got[s*per+k] != want {
				return fmt.Errorf("large alltoallv from %d at %d: got %#x want %#x", s, k, got[s*per+k], want)
			}
		}
	}
	right, left := (me+1)%n, (me+n-1)%n
	recv := make([]uint64, len(send))
	rq, err := c.Irecv(comm.Host(recv), left, 3)
	if err != nil {
		return err
	}
	sq, err := c.Isend(comm.Host(send), right, 3)
	if err != nil {
		return err
	}
	if err := comm.WaitAll([]comm.Request{rq, sq}); err != nil {
		return err
	}
	if recv[len(recv)-1] != uint64(left)<<40|uint64(len(recv)-1) {
		return fmt.Errorf("large message from %d: last element %#x", left, recv[len(recv)-1])
	}
	return nil
}
