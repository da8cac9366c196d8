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
	w := &localWorld{abortCh: make(chan struct{}), size: n}
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
// existing in-process world. Given the whole world, it also tells the
// world which ranks have returned from f, so that a collective no rank
// left can complete fails at once instead of hanging (localWorld's
// deadlock check).
func RunRanks(comms []Comm, f func(c Comm) error) error {
	w := wholeWorld(comms)
	if w != nil {
		w.start()
	}
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
			err := f(c)
			if err != nil {
				fail(r, err)
				c.Abort(fmt.Errorf("rank %d failed", r))
			}
			if w != nil {
				w.leave()
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
// abort signal, and the deadlock check's counts.
//
// The deadlock check: a barrier completes only when every rank of its
// group arrives, so once every rank of the world is either waiting in a
// barrier (a collective of the world or of a group split from it) or has
// returned from RunRanks' function, no arrival can complete any of them.
// Ranks whose collectives disagree (one in its column's gather while the
// others reduce over the world, or one done with the search while the
// others are not) reach that state; the check aborts the world there, so
// each waiting rank returns an error naming its collective instead of
// hanging until a timeout. A rank waiting in a point-to-point transfer,
// or not waiting at all (computing, or not yet started), counts as able
// to arrive, so the check never aborts a world that could go on, given
// one goroutine a rank, as NewLocal asks (a rank waiting in two barriers
// at once from two goroutines would count twice).
type localWorld struct {
	abortOnce sync.Once
	abortErr  error
	abortCh   chan struct{} // closed by Abort

	mu       sync.Mutex
	size     int // ranks in the world
	waiting  int // ranks waiting in a barrier
	returned int // ranks returned from RunRanks' function (0 outside RunRanks)
}

// wholeWorld returns the world of comms where they are all of it, one
// Comm a rank, else nil.
func wholeWorld(comms []Comm) *localWorld {
	var w *localWorld
	seen := map[int]bool{}
	for _, c := range comms {
		lc, ok := c.(*localComm)
		if !ok || (w != nil && lc.g.w != w) || lc.g.size != lc.g.w.size || seen[lc.rank] {
			return nil
		}
		w = lc.g.w
		seen[lc.rank] = true
	}
	if w == nil || len(seen) != w.size {
		return nil
	}
	return w
}

// start begins a RunRanks call: no rank has returned yet.
func (w *localWorld) start() {
	w.mu.Lock()
	w.returned = 0
	w.mu.Unlock()
}

// leave notes a rank's return from RunRanks' function.
func (w *localWorld) leave() {
	w.mu.Lock()
	w.returned++
	stuck := w.stuck()
	w.mu.Unlock()
	if stuck {
		w.abortStuck()
	}
}

// stuck reports (w.mu held) whether no barrier of the world can complete.
func (w *localWorld) stuck() bool {
	return w.waiting > 0 && w.waiting+w.returned == w.size
}

func (w *localWorld) abortStuck() {
	w.mu.Lock()
	waiting, returned := w.waiting, w.returned
	w.mu.Unlock()
	w.abort(fmt.Errorf("deadlock: each of the world's %d ranks waits in a collective or has returned (%d waiting, %d returned), so none of those collectives can complete", w.size, waiting, returned))
}

func (w *localWorld) abort(err error) {
	w.abortOnce.Do(func() {
		if err == nil {
			err = errors.New("aborted without a reason")
		}
		w.abortErr = err
		close(w.abortCh)
	})
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
		// The round's other parties wait no longer: uncounted before
		// they are released, so that none counts again at its next
		// barrier while still counted here.
		w.mu.Lock()
		w.waiting -= b.n - 1
		w.mu.Unlock()
		b.count = 0
		b.ch = make(chan struct{})
		b.round.Add(1)
		close(ch)
		b.mu.Unlock()
		return w.aborted()
	}
	w.mu.Lock()
	w.waiting++
	stuck := w.stuck()
	w.mu.Unlock()
	b.mu.Unlock()
	if stuck {
		w.abortStuck()
	}
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
func (c *localComm) Abort(err error) { c.g.w.abort(err) }

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
