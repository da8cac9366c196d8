package comm

// local.go implements Comm for ranks that are goroutines of one process
// (the embedded launcher, and most tests). Collectives meet at a barrier,
// read each other's buffers directly and meet again before returning, so
// no rank writes a buffer another is still reading. Point-to-point sends
// are never buffered: a send completes only when the matching receive has
// copied it (MPI's rendezvous protocol), so code that would deadlock under
// MPI deadlocks here too instead of passing tests by luck.

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// NewLocal creates an in-process world of n ranks and returns one Comm per
// rank; hand Comm i to the goroutine that plays rank i.
func NewLocal(n int) ([]Comm, error) {
	if n < 1 {
		return nil, fmt.Errorf("comm: a local world needs at least 1 rank, got %d", n)
	}
	w := &localWorld{abortCh: make(chan struct{})}
	g := newLocalGroup(w, n)
	out := make([]Comm, n)
	for r := range out {
		out[r] = &localComm{g: g, rank: r}
	}
	return out, nil
}

// RunLocal runs f on n goroutine ranks of a new in-process world and waits
// for all of them. The first rank to fail aborts the world, so that ranks
// blocked in an exchange with it return instead of hanging; RunLocal then
// returns that first error, naming the rank.
func RunLocal(n int, f func(c Comm) error) error {
	comms, err := NewLocal(n)
	if err != nil {
		return err
	}
	return RunRanks(comms, f)
}

// RunRanks runs f once per Comm, concurrently, as RunLocal does, on an
// existing in-process world.
func RunRanks(comms []Comm, f func(c Comm) error) error {
	var mu sync.Mutex
	var first, firstAborted error
	fail := func(r int, err error) {
		mu.Lock()
		defer mu.Unlock()
		err = fmt.Errorf("rank %d: %w", r, err)
		switch {
		case !errors.Is(err, ErrAborted):
			if first == nil {
				first = err
			}
		case firstAborted == nil:
			firstAborted = err
		}
	}
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					fail(r, fmt.Errorf("panic: %v", p))
					c.Abort(fmt.Errorf("rank %d panicked", r))
				}
			}()
			if err := f(c); err != nil {
				fail(r, err)
				c.Abort(fmt.Errorf("rank %d failed", r))
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return firstAborted // only when every failure was an abort from outside
}

// localWorld is what all communicators split from one NewLocal share: the
// abort signal.
type localWorld struct {
	abortOnce sync.Once
	abortErr  error
	abortCh   chan struct{} // closed by Abort
}

func (w *localWorld) aborted() error {
	select {
	case <-w.abortCh:
		return fmt.Errorf("%w: %w", ErrAborted, w.abortErr)
	default:
		return nil
	}
}

// localGroup is one communicator's shared state.
type localGroup struct {
	w     *localWorld
	size  int
	bar   barrier
	slots []collArgs // each rank's arguments to the current collective
	split []splitOut // written by rank 0 during a Split
	mail  []mailbox  // [src*size+dst]
}

func newLocalGroup(w *localWorld, n int) *localGroup {
	return &localGroup{
		w:     w,
		size:  n,
		bar:   barrier{n: n, ch: make(chan struct{})},
		slots: make([]collArgs, n),
		mail:  make([]mailbox, n*n),
	}
}

// splitOut is one rank's result of a Split.
type splitOut struct {
	g    *localGroup
	rank int
}

// barrier is a reusable barrier of n parties that an abort breaks.
type barrier struct {
	mu    sync.Mutex
	n     int
	count int
	ch    chan struct{} // closed when the current round completes
	round atomic.Uint64 // completed rounds, for the waiters' spin
}

// barrierSpin is how long a party that is not the last spins before it
// parks on the round's channel. A parked goroutine, locked to its OS
// thread as a rank driving a GPU is, wakes only when the scheduler gets
// that thread running again (tens to hundreds of µs after the last
// arrival on the machines measured), which the ranks of a 2 ms GPU search
// would pay at every host collective: the barrier before the search's
// clock, the search time's reduction. The spin does not yield (a locked
// goroutine that yields parks its thread too), so it runs only where
// every party can hold a processor and one is left over (GOMAXPROCS > n):
// on a small machine the parties park at once, as before.
const barrierSpin = 2 * time.Millisecond

func (b *barrier) wait(w *localWorld) error {
	b.mu.Lock()
	ch := b.ch
	round := b.round.Load()
	b.count++
	if b.count == b.n {
		b.count = 0
		b.ch = make(chan struct{})
		b.round.Add(1)
		close(ch)
		b.mu.Unlock()
		return w.aborted()
	}
	b.mu.Unlock()
	if runtime.GOMAXPROCS(0) > b.n {
		for start, i := time.Now(), 0; ; i++ {
			if b.round.Load() != round {
				return w.aborted()
			}
			if i%1024 == 1023 && (w.aborted() != nil || time.Since(start) > barrierSpin) {
				break
			}
		}
	}
	select {
	case <-ch:
		return w.aborted()
	case <-w.abortCh:
		return w.aborted()
	}
}

// collArgs is one rank's side of a collective call.
type collArgs struct {
	name             string
	dt               Datatype
	send, recv       []byte
	sendLen, recvLen int // in elements
	counts, displs   []int
	rcounts, rdispls []int
	op               Op
	root             int
	color, key       int
}

type localComm struct {
	g    *localGroup
	rank int
}

func (c *localComm) Rank() int { return c.rank }
func (c *localComm) Size() int { return c.g.size }

// Abort implements Comm.
func (c *localComm) Abort(err error) {
	w := c.g.w
	w.abortOnce.Do(func() {
		if err == nil {
			err = errors.New("aborted without a reason")
		}
		w.abortErr = err
		close(w.abortCh)
	})
}

// Close implements Comm; in-process communicators hold nothing.
func (c *localComm) Close() error { return c.g.w.aborted() }

// collective runs one collective call: deposit args, meet, let check
// (which sees every rank's args, so every rank reaches the same verdict)
// validate, let work read the others' buffers, meet again.
func (c *localComm) collective(a collArgs, check func(all []collArgs) error, work func(all []collArgs)) error {
	g := c.g
	if err := g.w.aborted(); err != nil {
		return fmt.Errorf("comm: %s: %w", a.name, err)
	}
	g.slots[c.rank] = a
	if err := g.bar.wait(g.w); err != nil {
		return fmt.Errorf("comm: %s: %w", a.name, err)
	}
	err := checkSameCall(g.slots)
	if err == nil && check != nil {
		err = check(g.slots)
	}
	if err == nil && work != nil {
		work(g.slots)
	}
	if berr := g.bar.wait(g.w); berr != nil && err == nil {
		err = berr
	}
	if err != nil {
		return fmt.Errorf("comm: %s: %w", a.name, err)
	}
	return nil
}

// checkSameCall reports ranks that called different collectives or with
// different datatypes (undefined behaviour under MPI).
func checkSameCall(all []collArgs) error {
	for r, a := range all {
		if a.name != all[0].name {
			return fmt.Errorf("rank 0 called %s but rank %d called %s", all[0].name, r, a.name)
		}
		if a.dt != all[0].dt {
			return fmt.Errorf("rank 0 passed %s but rank %d passed %s", all[0].dt, r, a.dt)
		}
	}
	return nil
}

// args builds a collArgs from host buffers, checking that send and recv
// (when both given) have one datatype.
func (c *localComm) args(name string, send, recv Buffer) (collArgs, error) {
	a := collArgs{name: name}
	var err error
	if a.send, err = hostBytes(name, send); err != nil {
		return a, err
	}
	if a.recv, err = hostBytes(name, recv); err != nil {
		return a, err
	}
	switch {
	case send != nil:
		a.dt, a.sendLen = send.Datatype(), send.Len()
	case recv != nil:
		a.dt = recv.Datatype()
	}
	if recv != nil {
		a.recvLen = recv.Len()
		if send != nil && recv.Datatype() != send.Datatype() {
			return a, fmt.Errorf("comm: %s: send is %s but recv is %s", name, send.Datatype(), recv.Datatype())
		}
	}
	return a, nil
}

func (c *localComm) Split(color, key int) (Comm, error) {
	a := collArgs{name: "split", color: color, key: key}
	g := c.g
	err := c.collective(a, nil, func(all []collArgs) {
		if c.rank == 0 {
			g.split = splitGroups(g.w, all)
		}
	})
	if err != nil {
		return nil, err
	}
	// Rank 0 wrote g.split before the second meeting. The next Split can
	// overwrite it only after its own first meeting, which every rank
	// reaches after reading its entry here.
	out := g.split[c.rank]
	if out.g == nil {
		return nil, nil
	}
	return &localComm{g: out.g, rank: out.rank}, nil
}

// splitGroups forms the new groups of a Split: one per colour (≥ 0),
// members ordered by (key, old rank).
func splitGroups(w *localWorld, all []collArgs) []splitOut {
	out := make([]splitOut, len(all))
	byColor := map[int][]int{}
	for r, x := range all {
		if x.color >= 0 {
			byColor[x.color] = append(byColor[x.color], r)
		}
	}
	for _, members := range byColor {
		sort.SliceStable(members, func(i, j int) bool { return all[members[i]].key < all[members[j]].key })
		ng := newLocalGroup(w, len(members))
		for newRank, r := range members {
			out[r] = splitOut{g: ng, rank: newRank}
		}
	}
	return out
}
