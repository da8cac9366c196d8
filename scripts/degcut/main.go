// Command degcut counts, on the CPU, the CSC entries a bottom-up level 2
// examines with and without a degree cut, to decide whether the cut is
// worth building into diropt. It was built from these counts and
// measured slower (results/diropt-1000, "The degree cut"): the model's
// price of a top-down entry did not hold for the cut's top-down part.
//
// The cut: with each vertex's list ordered by neighbour degree, highest
// first (diropt's `order = "degree"`), the frontier vertices of degree
// below 2^k are expanded top-down first, and each unvisited row then scans
// its list only up to its first entry of degree below 2^k, since every
// frontier vertex it could still find lies before it. The level costs
// the low-degree frontier's edges (top-down) plus the cut scans, against
// the full bottom-up scan (every row to its first frontier neighbour, or
// its list's end) and against top-down alone (m_f).
//
// It also counts the split level (plugins/diropt/dobfs/split.go, built
// from these counts): for each bound D, the tails top-down (the frontier's
// entries of degree 2 to D-1; leaves, last in every list, stop the count)
// and the rows of degree at least D bottom-up, with how many such rows
// are unvisited, in millions; then the marked rows' scans, which the
// split's bottom-up side makes too (the rows of degree below D with a
// frontier neighbour, each to its first frontier neighbour), with how many
// rows are marked. The tails, the rows of degree D or more and the marked
// rows' scans are what the CUDA split level counts as entries examined.
//
// And the rows that miss (unvisited rows with no frontier neighbour, which
// a plain bottom-up level 2 scans to their lists' end) by degree: rows and
// entries, in millions, against the rows found and their entries.
//
// Last, the entries the CUDA kernel loads and tests (its edges_examined),
// which exceed the scans above: a row's first check reads entry 0, the
// lane's own scan entries 1 to bu_serial-1 in batches of bu_batch, and the
// warp's help the rest in steps of 32·bu_batch, each step testing all its
// entries before it knows which hit (loads). For the tuned kernel (serial
// 4, batch 2: steps of 64) and for steps of 32, plain and split (D = 64).
//
// And, for pred_lines (lines, below), level 3's rows that lie in sectors
// of pred a bottom-up or a split level 2 writes whole, and the split's
// chunks that bu_compact explores a lane a row (none of whose sectors it
// writes whole).
//
// And the dependent round trips of the bottom-up kernel's warps (chains,
// below), plain and with bu_queue: the waits a warp makes in turn, which
// bound a level whose warps wait on memory rather than on L2's request
// rate (a big-frontier level 2: results/diropt-1000's profile).
//
// For random roots (or those of -root) of the Graph500 graph (seed [2, 3], edge factor
// 16; self-loops and duplicates removed; leaves, rows of degree 1, left
// out as diropt's `leaves` does), it prints for level 2 (its frontier the
// vertices two steps from the root) n_f, m_f, m_u, the bottom-up entries,
// and for each k the cut's top-down and bottom-up entries, in millions
// (a row the top-down part reaches is not scanned).
//
// With -leaves it counts only the leaves step's groups (leafGroups).
//
//	go run ./scripts/degcut -scale 25 -roots 8   (about 9 minutes and 13 GB)
//	go run ./scripts/degcut -scale 25 -root 33338285,7222815
//	go run ./scripts/degcut -scale 23 -leaves
package main

import (
	"container/heap"
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

// graph is a symmetric CSR without self-loops or duplicate edges, each
// list ordered by neighbour degree, highest first (ties by id): diropt's
// 1×1 lists with order = "degree". It is built here, not by diropt's
// construction (partition.Build2D, dobfs.BuildBlock), which needs more
// than 23 GB at scale 25 where this needs 13; at scale 20 both give the
// same counts.
type graph struct {
	off []int64
	adj []int32
}

func (g *graph) deg(v int32) int64    { return g.off[v+1] - g.off[v] }
func (g *graph) list(v int32) []int32 { return g.adj[g.off[v]:g.off[v+1]] }
func (g *graph) vertices() int32      { return int32(len(g.off) - 1) }

func build(scale int) *graph {
	n := int64(1) << scale
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	off := make([]int64, n+1)
	for _, e := range edges {
		if e.V0 != e.V1 {
			off[e.V0+1]++
			off[e.V1+1]++
		}
	}
	for v := int64(0); v < n; v++ {
		off[v+1] += off[v]
	}
	adj := make([]int32, off[n])
	pos := slices.Clone(off[:n])
	for _, e := range edges {
		if e.V0 != e.V1 {
			adj[pos[e.V0]] = int32(e.V1)
			pos[e.V0]++
			adj[pos[e.V1]] = int32(e.V0)
			pos[e.V1]++
		}
	}
	// Remove duplicates, compacting the lists in place.
	var w int64
	for v := int64(0); v < n; v++ {
		l := adj[off[v]:off[v+1]]
		slices.Sort(l)
		l = slices.Compact(l)
		off[v] = w
		w += int64(copy(adj[w:], l))
	}
	off[n] = w
	g := &graph{off: off, adj: adj[:w]}
	for v := int32(0); v < g.vertices(); v++ {
		slices.SortFunc(g.list(v), func(a, b int32) int {
			if da, db := g.deg(a), g.deg(b); da != db {
				return int(db - da)
			}
			return int(a - b)
		})
	}
	return g
}

func main() {
	scale := flag.Int("scale", 22, "Graph500 scale")
	roots := flag.Int("roots", 10, "search keys (random vertices with a neighbour)")
	rootList := flag.String("root", "", "comma-separated search keys instead of random ones")
	leavesOnly := flag.Bool("leaves", false, "count only the leaves step's groups (leafGroups) and stop")
	level1 := flag.Bool("level1", false, "print only level 1's lists by length (level1Lists) for each root")
	flag.Parse()
	g := build(*scale)
	n := g.vertices()
	fmt.Printf("scale %d: %d CSC entries\n", *scale, len(g.adj))
	if *leavesOnly {
		leafGroups(g)
		return
	}
	ks := []int{6, 8, 9, 10, 11, 12}
	ds := []int64{8, 16, 32, 64, 128, 256}
	rng := rand.New(rand.NewSource(1))
	level := make([]int8, n)
	claimed := make([]uint8, n) // bit i: a neighbour of the frontier below 2^ks[i]
	found2 := make([]bool, n)   // found at level 2: an unvisited row with a frontier neighbour (lines)
	var given []int32
	for _, f := range strings.Split(*rootList, ",") {
		if r, err := strconv.Atoi(f); err == nil {
			given = append(given, int32(r))
		}
	}
	if len(given) > 0 {
		*roots = len(given)
	}
	if *level1 {
		level1Lists(g, given)
		return
	}
	for ri := range *roots {
		var root int32
		if len(given) > 0 {
			root = given[ri]
		} else {
			root = int32(rng.Int63n(int64(n)))
			for g.deg(root) == 0 {
				root = int32(rng.Int63n(int64(n)))
			}
		}
		for i := range level {
			level[i] = -1
		}
		level[root] = 0
		front := []int32{root}
		for lv := int8(0); lv < 2; lv++ { // top-down to level 2's frontier
			var next []int32
			for _, v := range front {
				for _, u := range g.list(v) {
					if level[u] < 0 {
						level[u] = lv + 1
						next = append(next, u)
					}
				}
			}
			front = next
		}
		var mf, mu, bu int64
		splitTD := make([]int64, len(ds))
		splitBU := make([]int64, len(ds))
		splitRows := make([]int64, len(ds))
		markedBU := make([]int64, len(ds))
		markedRows := make([]int64, len(ds))
		degClass := []int64{4, 8, 16, 64, 1 << 62} // rows of degree 2-3, 4-7, 8-15, 16-63, 64+
		missRows := make([]int64, len(degClass))
		missBU := make([]int64, len(degClass))
		var hitRows, hitBU int64
		helpSteps := []int{64, 32}
		const splitD = 64 // the tuned split's D, ds[splitDi]
		splitDi := slices.Index(ds, splitD)
		loadsBU := make([]int64, len(helpSteps))
		loadsSplit := make([]int64, len(helpSteps))
		cutTD := make([]int64, len(ks))
		cutBU := make([]int64, len(ks))
		clear(claimed)
		clear(found2)
		for _, v := range front {
			mf += g.deg(v)
			for _, u := range g.list(v) {
				du := g.deg(u)
				if du <= 1 {
					break // leaves sit at the list's end
				}
				for i, d := range ds {
					if du < d {
						splitTD[i]++
					}
				}
			}
			for i, k := range ks {
				if g.deg(v) < 1<<k {
					cutTD[i] += g.deg(v)
					for _, u := range g.list(v) {
						claimed[u] |= 1 << i
					}
				}
			}
		}
		for v := int32(0); v < n; v++ {
			if level[v] >= 0 || g.deg(v) <= 1 {
				continue
			}
			l := g.list(v)
			mu += int64(len(l))
			scan, hit := int64(len(l)), false
			for i, u := range l {
				if level[u] == 2 {
					scan, hit = int64(i+1), true
					break
				}
			}
			bu += scan
			for i, st := range helpSteps {
				c := loads(int64(len(l)), scan, hit, st)
				loadsBU[i] += c
				if g.deg(v) >= splitD || hit {
					loadsSplit[i] += c
				}
			}
			if hit {
				found2[v] = true
				hitRows++
				hitBU += scan
			} else {
				c := 0
				for int64(len(l)) >= degClass[c] {
					c++
				}
				missRows[c]++
				missBU[c] += scan
			}
			for i, d := range ds {
				switch {
				case g.deg(v) >= d:
					splitBU[i] += scan
					splitRows[i]++
				case hit:
					markedBU[i] += scan
					markedRows[i]++
				}
			}
			for i, k := range ks {
				if claimed[v]&(1<<i) != 0 {
					continue
				}
				var c int64
				for _, u := range l[:scan] {
					if g.deg(u) < 1<<k {
						break
					}
					c++
				}
				cutBU[i] += c
			}
		}
		m := func(x int64) float64 { return float64(x) / 1e6 }
		fmt.Printf("root %d: n_f %d, m_f %.1f, m_u %.1f, bottom-up %.1f; cut top-down+bottom-up:", root, len(front), m(mf), m(mu), m(bu))
		for i, k := range ks {
			fmt.Printf(" 2^%d %.1f+%.1f", k, m(cutTD[i]), m(cutBU[i]))
		}
		fmt.Println()
		fmt.Printf("  split by row degree D, top-down tail + bottom-up rows >= D (rows):")
		for i, d := range ds {
			fmt.Printf(" %d %.1f+%.1f (%.1f)", d, m(splitTD[i]), m(splitBU[i]), m(splitRows[i]))
		}
		fmt.Println()
		fmt.Printf("  split's marked rows' scans by D (rows):")
		for i, d := range ds {
			fmt.Printf(" %d %.1f (%.2f)", d, m(markedBU[i]), m(markedRows[i]))
		}
		fmt.Println()
		fmt.Printf("  bottom-up rows found %.2f (entries %.1f); rows that miss by degree, rows (entries):", m(hitRows), m(hitBU))
		for c, name := range []string{"2-3", "4-7", "8-15", "16-63", "64+"} {
			fmt.Printf(" %s %.2f (%.1f)", name, m(missRows[c]), m(missBU[c]))
		}
		fmt.Println()
		fmt.Printf("  the kernel's loads, plain bottom-up / split 64 (tails included), by help step:")
		for i, st := range helpSteps {
			fmt.Printf(" %d: %.1f / %.1f", st, m(loadsBU[i]), m(loadsSplit[i]+splitTD[splitDi]))
		}
		fmt.Println()
		c := chains(g, level)
		k := func(x int64) float64 { return float64(x) / 1e3 }
		fmt.Printf("  round trips a warp waits for in turn, summed over the %d warps (K), plain / bu_queue: %.1f / %.1f"+
			" (first checks %.1f, the lanes' scans %.1f / %.1f, the warp's help %.1f; %.3f M rows queued);"+
			" the most of one warp %d / %d\n",
			chainWarps, k(c.plain), k(c.queue), k(c.first), k(c.scanPlain), k(c.scanQueue), k(c.help), m(c.queued),
			c.maxPlain, c.maxQueue)
		lc := lines(g, level, found2, splitD)
		fmt.Printf("  pred_lines at level 2 (D = %d): level 3's rows %.2f M; in sectors written whole by a bottom-up"+
			" level 2 %.2f M (%.0f %%), by a split one %.2f M (%.0f %%); the split's chunks of 1,024 rows:"+
			" %d with an open row, %d of them of 256 open rows or fewer (bu_compact: no sector whole)\n",
			splitD, m(lc.level3), m(lc.bottomUp), 100*float64(lc.bottomUp)/float64(max(lc.level3, 1)),
			m(lc.split), 100*float64(lc.split)/float64(max(lc.level3, 1)), lc.openChunks, lc.compactChunks)
		b := balance(g, level)
		fmt.Printf("  bu_queue's chunks, a chunk's queue scanned at its end: round trips a warp, mean %.1f;"+
			" the most of one warp, chunks by grid stride %d, each chunk to the first free warp %d"+
			" (its take free) / %d (a take two round trips)\n", b.mean, b.static, b.dynamic, b.dynamicTake)
	}
}

// balanceCount is what balance counts, in round trips.
type balanceCount struct {
	mean                 float64 // a warp's, every chunk's waits over chainWarps
	static               int64   // the most of one warp, chunks by grid stride (the kernel's loop)
	dynamic, dynamicTake int64   // the most of one warp, each chunk taken by the first warp free, free or at two round trips a take
}

// finish is a min-heap of the warps' finish times (balance).
type finish []int64

func (h finish) Len() int           { return len(h) }
func (h finish) Less(i, j int) bool { return h[i] < h[j] }
func (h finish) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *finish) Push(x any)        { *h = append(*h, x.(int64)) }
func (h *finish) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// balance prices, in chains' round trips, how bu_queue's level 2 spreads
// its chunks of 1,024 rows over its chainWarps warps: each chunk's waits
// (its groups' first checks, its CompactRows rounds, its queued rows
// scanned 128 at a time at the chunk's end, a partial round included,
// where chains carries a warp's queue on to its next chunk), summed by
// warp as the kernel's grid-stride loop takes them, against the chunks
// taken in order by whichever warp is free first (a counter a warp takes
// its next chunk from: free where the take is issued a chunk ahead, else a
// round trip's two waits). Built as bu_take and measured, the take did not
// make those levels faster (results/diropt-1000, take-25): the count
// prices a warp's waits alone, not the request throughput the warps share.
func balance(g *graph, level []int8) balanceCount {
	n := int64(g.vertices())
	chunks := (n + 1023) / 1024
	cost := make([]int64, chunks)
	scan := func(rows [][2]int64) int64 { // rows' rounds of 128: 2 a batch round of the slowest, 2 a help step
		var w int64
		for i := 0; i < len(rows); i += 128 {
			var r int64
			for _, p := range rows[i:min(i+128, len(rows))] {
				r = max(r, p[0])
				w += 2 * p[1]
			}
			w += 2 * r
		}
		return w
	}
	for ch := int64(0); ch < chunks; ch++ {
		base := ch * 1024
		var open, queued [][2]int64
		for v := base; v < min(base+1024, n); v++ {
			o, r, st, q := openRow(g, level, v)
			if !o {
				continue
			}
			open = append(open, [2]int64{r, st})
			if q {
				queued = append(queued, [2]int64{r, st})
			}
		}
		switch {
		case len(open) == 0:
		case len(open) <= 256: // CompactRows: a round of 128 rows waits twice for its checks, then scans
			for i := 0; i < len(open); i += 128 {
				cost[ch] += 2 + scan(open[i:min(i+128, len(open))])
			}
		default:
			for g0 := base; g0 < min(base+1024, n); g0 += 128 {
				for v := g0; v < min(g0+128, n); v++ {
					if level[v] < 0 && g.deg(int32(v)) > 1 {
						cost[ch] += 2 // the group's first checks
						break
					}
				}
			}
			cost[ch] += scan(queued)
		}
	}
	var b balanceCount
	var sum int64
	per := make([]int64, chainWarps)
	for ch, c := range cost {
		per[int64(ch)%chainWarps] += c
		sum += c
	}
	b.mean = float64(sum) / chainWarps
	b.static = slices.Max(per)
	for _, take := range []int64{0, 2} {
		h := make(finish, chainWarps)
		heap.Init(&h)
		for _, c := range cost {
			t := heap.Pop(&h).(int64)
			heap.Push(&h, t+take+c)
		}
		most := slices.Max(h)
		if take == 0 {
			b.dynamic = most
		} else {
			b.dynamicTake = most
		}
	}
	return b
}

// loads is the entries the CUDA bottom-up kernel loads and tests for a row
// of n entries whose scan ends after scan entries (at its first frontier
// neighbour if hit, else at its end): the first check (entry 0), the
// lane's own scan of entries 1-3 in batches of 2 (bu_serial 4, bu_batch
// 2), then the warp's help in steps of step entries, each loaded whole.
func loads(n, scan int64, hit bool, step int) int64 {
	const serial, batch = 4, 2
	c := int64(1)
	for b := int64(1); b < min(n, serial) && b < scan; b += batch {
		c += min(batch, min(n, serial)-b)
	}
	if !hit && n <= serial || scan <= serial {
		return c
	}
	for b := int64(serial); b < n; b += int64(step) {
		c += min(int64(step), n-b)
		if b+int64(step) >= scan && hit {
			break
		}
	}
	return c
}

// chainWarps is the tuned kernel's resident warps on an H200 (132 SMs, 4
// blocks of 256 threads an SM at 64 registers): the grid-stride loop's
// warps, each with its own queue under bu_queue.
const chainWarps = 132 * 4 * 8

// chainCount is what chains counts, in round trips (one wait for memory:
// a load whose value the next step needs).
type chainCount struct {
	plain, queue         int64 // every wait, plain and with bu_queue
	first                int64 // the first checks' (both): the offsets and first entry, then the bit
	scanPlain, scanQueue int64 // the lanes' own scans: two a batch round
	help                 int64 // the warp's help (both): two a step of 64, one list at a time
	queued               int64 // rows bu_queue queues
	maxPlain, maxQueue   int64 // the most of one warp, plain and with bu_queue
}

// rowScan is one row's part of a bottom-up level after its first check
// (bu_serial 4, bu_batch 2, help steps of 64): the batch rounds of its
// lane's own scan of entries 1-3, and the warp's help steps after them.
// queue says whether bu_queue queues it (it missed, with more entries).
func rowScan(n, scan int64, hit bool) (rounds, steps int64, queue bool) {
	const serial, batch, step = 4, 2, 64
	if n <= 1 || (hit && scan == 1) {
		return 0, 0, false
	}
	own := min(n, serial) - 1 // entries 1 .. min(n, serial)-1
	if hit && scan-1 <= own {
		own = scan - 1 // it stops at its hit
	}
	rounds = (own + batch - 1) / batch
	if (hit && scan <= serial) || n <= serial {
		return rounds, 0, true
	}
	rest := n - serial
	if hit {
		rest = scan - serial
	}
	return rounds, (rest + step - 1) / step, true
}

// openRow reports whether row v is open on the bottom-up level after the
// frontier (level[u] == 2): unvisited, of degree 2 or more (leaves and
// isolated rows are visited at the reset); and for an open row its scan
// (rowScan: batch rounds, help steps, whether bu_queue queues it), to its
// first frontier neighbour or its list's end.
func openRow(g *graph, level []int8, v int64) (open bool, rounds, steps int64, queue bool) {
	if level[v] >= 0 || g.deg(int32(v)) <= 1 {
		return false, 0, 0, false
	}
	l := g.list(int32(v))
	scan, hit := int64(len(l)), false
	for i, u := range l {
		if level[u] == 2 {
			scan, hit = int64(i+1), true
			break
		}
	}
	rounds, steps, queue = rowScan(int64(len(l)), scan, hit)
	return true, rounds, steps, queue
}

// chains counts, for the bottom-up level after the frontier (level[u] ==
// 2) of the plain tuned kernel and of bu_queue, the round trips each warp
// waits for in turn, summed over the warps. A warp takes chunks of 32
// words (1,024 rows) in a grid-stride loop over chainWarps warps. A chunk
// of at most 256 open rows (unvisited, degree 2 or more: leaves and
// isolated rows are visited at the reset) runs CompactRows, 128 rows a
// round, alike in both. Otherwise each group of 4 words with an open row
// waits twice for its first check; plain, then for its lanes' own scans
// (two a batch round, as many rounds as its slowest row) and the warp's
// help on each pending list in turn (two a step); with bu_queue the rows
// that missed are queued, and once 128 or more wait the warp scans them
// 128 at a time, the same waits a round.
func chains(g *graph, level []int8) chainCount {
	var c chainCount
	n := int64(g.vertices())
	type pend struct{ rounds, steps int64 }
	round := func(rows []pend) (int64, int64) { // a round of 128 rows: scan waits, help waits
		var r, h int64
		for _, p := range rows {
			r = max(r, p.rounds)
			h += 2 * p.steps
		}
		return 2 * r, h
	}
	flush := func(q []pend) {
		for i := 0; i < len(q); i += 128 {
			r, h := round(q[i:min(i+128, len(q))])
			c.scanQueue += r
			c.queue += r + h
		}
	}
	rowOf := func(v int64) (open bool, p pend, queue bool) {
		open, r, s, queue := openRow(g, level, v)
		return open, pend{r, s}, queue
	}
	chunks := (n + 1023) / 1024
	for w := int64(0); w < chainWarps; w++ {
		plain0, queue0 := c.plain, c.queue
		var q []pend
		for ch := w; ch < chunks; ch += chainWarps {
			base := ch * 1024
			var open []pend // the chunk's open rows in order, and which of them scan on
			var scans []bool
			for v := base; v < min(base+1024, n); v++ {
				if o, p, s := rowOf(v); o {
					open = append(open, p)
					scans = append(scans, s)
				}
			}
			if len(open) == 0 {
				continue
			}
			if len(open) <= 256 { // CompactRows, alike in both
				for i := 0; i < len(open); i += 128 {
					r, h := round(open[i:min(i+128, len(open))])
					c.first += 2
					c.scanPlain += r
					c.scanQueue += r
					c.help += h
					c.plain += 2 + r + h
					c.queue += 2 + r + h
				}
				continue
			}
			for g0 := base; g0 < min(base+1024, n); g0 += 128 {
				var rows []pend
				any := false
				for v := g0; v < min(g0+128, n); v++ {
					o, p, s := rowOf(v)
					any = any || o
					if s {
						rows = append(rows, p)
					}
				}
				if !any {
					continue
				}
				r, h := round(rows)
				c.first += 2
				c.scanPlain += r
				c.help += h
				c.plain += 2 + r + h
				c.queue += 2 // its scans wait when the queue is scanned (flush)
				c.queued += int64(len(rows))
				q = append(q, rows...)
				if len(q) >= 128 {
					flush(q)
					q = q[:0]
				}
			}
		}
		flush(q)
		c.maxPlain = max(c.maxPlain, c.plain-plain0)
		c.maxQueue = max(c.maxQueue, c.queue-queue0)
	}
	return c
}

// linesCount is what lines counts.
type linesCount struct {
	level3, bottomUp, split   int64 // level 3's rows: all, and those in sectors a level 2 wrote whole
	openChunks, compactChunks int64 // the split's chunks with an open row, and of them those bu_compact explores
}

// lines counts, for level 2 (level: the levels 0 and 1 set, the frontier
// at 2; found2: the rows level 2 finds, main's scan), the rows level 3 finds (unvisited after level 2, with a
// neighbour level 2 found) that lie in a sector of pred (8 rows) that
// level 2 writes whole under pred_lines: a sector with no row visited
// before level 2 but leaves and isolated rows. A bottom-up level 2
// (bu_queue's) writes every such sector; a split one (split_lines,
// d16d16a) only in the words it explores (a word with an open row: an
// unvisited row of degree at least d, or one with a frontier neighbour)
// of a chunk of 32 words with more than 256 open rows, since bu_compact
// explores the others a lane a row (results/diropt-1000, split_lines).
func lines(g *graph, level []int8, found2 []bool, d int64) linesCount {
	var c linesCount
	n := int64(g.vertices())
	skip := func(v int64) bool { return g.deg(int32(v)) <= 1 }
	pre := func(v int64) bool { return level[v] >= 0 && level[v] < 2 && !skip(v) } // visited before level 2, not skip's
	open := func(v int64) bool { return level[v] < 0 && !skip(v) && (g.deg(int32(v)) >= d || found2[v]) }
	for c0 := int64(0); c0 < n; c0 += 1024 {
		c1 := min(c0+1024, n)
		var cnt int64
		for v := c0; v < c1; v++ {
			if open(v) {
				cnt++
			}
		}
		compact := cnt > 0 && cnt <= 256
		if cnt > 0 {
			c.openChunks++
		}
		if compact {
			c.compactChunks++
		}
		for w := c0; w < c1; w += 32 {
			wordOpen := false
			for v := w; v < min(w+32, c1); v++ {
				wordOpen = wordOpen || open(v)
			}
			for s := w; s < min(w+32, c1); s += 8 {
				whole := true
				for v := s; v < min(s+8, c1); v++ {
					whole = whole && !pre(v)
				}
				for v := s; v < min(s+8, c1); v++ {
					if level[v] >= 0 || skip(v) || found2[v] {
						continue
					}
					l3 := false
					for _, u := range g.list(int32(v)) {
						if found2[u] {
							l3 = true
							break
						}
					}
					if !l3 {
						continue
					}
					c.level3++
					if whole {
						c.bottomUp++
						if wordOpen && !compact {
							c.split++
						}
					}
				}
			}
		}
	}
	return c
}

// leafGroups prints what diropt's leaves step (LeafPass in
// plugins/diropt/cuda/diropt.cu) reads after every search: the leaves
// (rows of degree 1), their groups by neighbour (one a neighbour that is
// not a leaf; one a leaf whose neighbour is a leaf too, the two-vertex
// components, which every search clears) and those components' leaves.
func leafGroups(g *graph) {
	n := g.vertices()
	var isolated, leaves, groups, pairLeaves int64
	head := make([]bool, n) // a non-leaf neighbour already counted as a group
	for v := int32(0); v < n; v++ {
		switch g.deg(v) {
		case 0:
			isolated++
		case 1:
			leaves++
			w := g.list(v)[0]
			if g.deg(w) == 1 {
				pairLeaves++
			} else if !head[w] {
				head[w] = true
				groups++
			}
		}
	}
	fmt.Printf("isolated %d, leaves %d, groups by a neighbour that is not a leaf %d, leaves in two-vertex components %d (a group each)\n",
		isolated, leaves, groups, pairLeaves)
}

// level1Lists prints, for each root, level 1's lists (the root's
// neighbours' lists, every entry, leaves too, as the top-down level reads
// them) by length: those of td_big (1,024) entries or more, which diropt
// queues for bfsb::HugeExpand over the whole GPU, those of 32-1,023
// entries, each read by one warp (the longest of them, its chain of
// steps), and the rest, each read by one lane.
func level1Lists(g *graph, roots []int32) {
	fmt.Println("root\tn_f1\tm_f1\tbig\tbig_entries\twarp\twarp_entries\twarp_max\tlane\tlane_entries")
	for _, r := range roots {
		var nbig, ebig, nwarp, ewarp, wmax, nlane, elane int64
		for _, u := range g.list(r) {
			switch d := g.deg(u); {
			case d >= 1024:
				nbig, ebig = nbig+1, ebig+d
			case d >= 32:
				nwarp, ewarp, wmax = nwarp+1, ewarp+d, max(wmax, d)
			default:
				nlane, elane = nlane+1, elane+d
			}
		}
		fmt.Printf("%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", r, g.deg(r), ebig+ewarp+elane, nbig, ebig, nwarp, ewarp, wmax, nlane, elane)
	}
}
