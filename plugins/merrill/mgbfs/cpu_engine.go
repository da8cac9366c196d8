package mgbfs

// cpu_engine.go: the CPU backend, Algorithm 2 with Go kernels on the same
// partitions, in the same circular order. The partitions run concurrently,
// one goroutine each, with workers/P goroutines inside each kernel. Peer
// copies (peer = copy) are copies of the other partitions' queues into
// receive buffers before the gathers; overlap has no meaning here.

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

const none = ^uint32(0) // Vector's -1

type cpuPart struct {
	*Part
	label   []int64
	visited []uint8
	vec     []uint32 // scatter_parents
	flags   []uint8  // scatter_parents: 1 for the vertices UpdateLabels visited this level
	queue   [2][]uint32
	recv    [][]uint32 // per gather slot k (peer = copy)
	mu      sync.Mutex
	pairs   []uint64 // expand_contract: the edge queue, (v << 32 | u)
}

type cpuEngine struct {
	pt      *Partition
	opt     Options
	workers int // per partition
	parts   []*cpuPart
	cur     int
}

// NewCPUEngine returns the CPU backend of pt (workers goroutines in all,
// ≤ 0: GOMAXPROCS).
func NewCPUEngine(pt *Partition, opt Options, workers int) Engine {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := &cpuEngine{pt: pt, opt: opt, workers: max(1, workers/pt.P)}
	maxloc := int64(0)
	for i := range pt.Parts {
		maxloc = max(maxloc, pt.Parts[i].Hi-pt.Parts[i].Lo)
	}
	for i := range pt.Parts {
		p := &pt.Parts[i]
		nl := p.Hi - p.Lo
		cp := &cpuPart{Part: p, label: make([]int64, nl), visited: make([]uint8, nl),
			queue: [2][]uint32{make([]uint32, nl), make([]uint32, nl)}}
		if opt.Expand == ExpandScatter {
			cp.vec = make([]uint32, nl)
			cp.flags = make([]uint8, nl)
		}
		if pt.P > 1 && opt.Peer == PeerCopy {
			cp.recv = make([][]uint32, pt.P)
			for k := 1; k < pt.P; k++ {
				cp.recv[k] = make([]uint32, maxloc)
			}
		}
		e.parts = append(e.parts, cp)
	}
	return e
}

func (e *cpuEngine) Reset(root int64) error {
	e.cur = 0
	for _, p := range e.parts {
		for i := range p.label {
			p.label[i] = -1
			p.visited[i] = 0
		}
		for i := range p.vec {
			p.vec[i] = none
		}
		if root >= p.Lo && root < p.Hi {
			p.label[root-p.Lo] = root
			p.visited[root-p.Lo] = 1
			p.queue[0][0] = uint32(root)
		}
	}
	return nil
}

func (e *cpuEngine) Level(order [][]int, qlen []int64) (LevelResult, error) {
	np := len(e.parts)
	lr := LevelResult{NextQLen: make([]int64, np), NextEdges: make([]int64, np), Times: make([][nTimes]float64, np)}
	var wg sync.WaitGroup
	for i := range e.parts {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			lr.NextQLen[i], lr.NextEdges[i], lr.Times[i] = e.level(i, order[i], qlen)
		}(i)
	}
	wg.Wait()
	e.cur ^= 1
	return lr, nil
}

// level is one level of partition i.
func (e *cpuEngine) level(i int, order []int, qlen []int64) (nq, edges int64, t [nTimes]float64) {
	p := e.parts[i]
	cur := e.cur
	t0 := time.Now()
	if e.opt.Expand == ExpandScatter && e.opt.VectorReset == ResetMemset {
		for v := range p.vec {
			p.vec[v] = none // Initialize Vector_i to -1
		}
	}
	t1 := time.Now()
	t[tReset] = t1.Sub(t0).Seconds()
	// Peer copies of the other partitions' queues (this level's buffers
	// are not written by anyone until the next level).
	srcs := make([][]uint32, len(order))
	for k, j := range order {
		q := e.parts[j].queue[cur][:qlen[j]]
		if j != i && e.opt.Peer == PeerCopy {
			n := copy(p.recv[k], q)
			q = p.recv[k][:n]
		}
		srcs[k] = q
	}
	t2 := time.Now()
	t[tCopy] = t2.Sub(t1).Seconds()
	// GatherNeighbors.
	for _, q := range srcs {
		if e.opt.Expand == ExpandScatter {
			e.gatherScatter(p, q)
		} else {
			e.gatherExpand(p, q)
		}
	}
	t3 := time.Now()
	t[tGather] = t3.Sub(t2).Seconds()
	next := p.queue[cur^1]
	if e.opt.Expand == ExpandScatter {
		edges = e.update(p)
		t4 := time.Now()
		t[tUpdate] = t4.Sub(t3).Seconds()
		nq = e.convert(p, next)
		t[tConvert] = time.Since(t4).Seconds()
	} else {
		nq, edges = e.contract(p, next)
		t[tUpdate] = time.Since(t3).Seconds()
	}
	return nq, edges, t
}

// gatherScatter is GatherNeighbors with scattered parents: Vector[v] ← u
// for every edge (u → v) of every u of q (atomic stores: several u may
// write one v, and any of them is a valid parent).
func (e *cpuEngine) gatherScatter(p *cpuPart, q []uint32) {
	check := e.opt.VisitedCheck
	chunks(int64(len(q)), e.workers, func(a, b int64) {
		for _, u := range q[a:b] {
			for _, v := range p.Col[p.RowPtr[u]:p.RowPtr[u+1]] {
				if check && p.visited[v] != 0 {
					continue
				}
				atomic.StoreUint32(&p.vec[v], u)
			}
		}
	})
}

// gatherExpand is the expansion of expand-contract: every unvisited
// neighbour is appended with its parent to the edge queue.
func (e *cpuEngine) gatherExpand(p *cpuPart, q []uint32) {
	chunks(int64(len(q)), e.workers, func(a, b int64) {
		var local []uint64
		for _, u := range q[a:b] {
			for _, v := range p.Col[p.RowPtr[u]:p.RowPtr[u+1]] {
				if p.visited[v] == 0 {
					local = append(local, uint64(v)<<32|uint64(u))
				}
			}
		}
		p.mu.Lock()
		p.pairs = append(p.pairs, local...)
		p.mu.Unlock()
	})
}

// contract claims each v of the edge queue once (compare-and-swap on
// Label), sets Visited and enqueues it.
func (e *cpuEngine) contract(p *cpuPart, next []uint32) (int64, int64) {
	pairs := p.pairs
	var n, edges atomic.Int64
	chunks(int64(len(pairs)), e.workers, func(a, b int64) {
		var d int64
		for _, x := range pairs[a:b] {
			v, u := uint32(x>>32), uint32(x)
			if atomic.CompareAndSwapInt64(&p.label[v], -1, int64(u)) {
				next[n.Add(1)-1] = uint32(p.Lo) + v
				d += int64(e.pt.Deg[p.Lo+int64(v)])
			}
		}
		edges.Add(d)
	})
	p.pairs = pairs[:0]
	nq := n.Load()
	for _, g := range next[:nq] {
		p.visited[int64(g)-p.Lo] = 1
	}
	return nq, edges.Load()
}

// update is UpdateLabels (§5.4.1), as the CUDA backend's UpdateKernel:
// flags marks the new vertices, whose full degrees it sums (the next
// level's edges examined); with vector_reset = update their entries of
// Vector go back to -1 too.
func (e *cpuEngine) update(p *cpuPart) int64 {
	reset := e.opt.VectorReset == ResetUpdate
	var edges atomic.Int64
	chunks(int64(len(p.vec)), e.workers, func(a, b int64) {
		var d int64
		for id := a; id < b; id++ {
			c := p.vec[id]
			p.flags[id] = 0
			if c == none {
				continue
			}
			if p.visited[id] != 0 {
				p.vec[id] = none
				continue
			}
			p.label[id] = int64(c)
			p.visited[id] = 1
			p.flags[id] = 1
			d += int64(e.pt.Deg[p.Lo+id])
			if reset {
				p.vec[id] = none
			}
		}
		edges.Add(d)
	})
	return edges.Load()
}

// convert is ConvertVtoQ (§5.4.2): the new vertices, in order, into next.
// An exclusive scan of the per-block counts of flags gives each block its
// place in the queue.
func (e *cpuEngine) convert(p *cpuPart, next []uint32) int64 {
	n := int64(len(p.flags))
	const block = 1 << 14
	nb := (n + block - 1) / block
	counts := make([]int64, nb+1)
	chunks(nb, e.workers, func(a, b int64) {
		for k := a; k < b; k++ {
			c := int64(0)
			for _, f := range p.flags[k*block : min((k+1)*block, n)] {
				c += int64(f)
			}
			counts[k+1] = c
		}
	})
	for k := int64(0); k < nb; k++ {
		counts[k+1] += counts[k]
	}
	chunks(nb, e.workers, func(a, b int64) {
		for k := a; k < b; k++ {
			o := counts[k]
			for id := k * block; id < min((k+1)*block, n); id++ {
				if p.flags[id] != 0 {
					next[o] = uint32(p.Lo + id)
					o++
				}
			}
		}
	})
	return counts[nb]
}

func (e *cpuEngine) Parents(dst []int64) error {
	for _, p := range e.parts {
		copy(dst[p.Lo:p.Hi], p.label)
	}
	return nil
}

func (e *cpuEngine) Close() error {
	e.parts = nil
	return nil
}
