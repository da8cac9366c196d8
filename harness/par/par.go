// Package par holds the one parallel loop the CPU code of bfsbench uses:
// split [0, n) into chunks and run them on GOMAXPROCS goroutines, chunks
// handed out dynamically so skewed work (power-law degrees) balances.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f on disjoint chunks [lo, hi) covering [0, n), in parallel.
func For(n int64, f func(lo, hi int64)) { ForAligned(n, 1, f) }

// ForAligned is For with every chunk boundary a multiple of align (e.g. 64,
// so that each chunk owns whole words of a bitmap).
func ForAligned(n, align int64, f func(lo, hi int64)) { ForWorkers(n, align, 0, f) }

// ForWorkers is ForAligned on a given number of goroutines (workers ≤ 0:
// GOMAXPROCS), for ranks of one process that share the cores.
func ForWorkers(n, align int64, workers int, f func(lo, hi int64)) {
	if n <= 0 {
		return
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	w := int64(workers)
	chunk := (n + w*8 - 1) / (w * 8)
	chunk = max((chunk+align-1)/align*align, align)
	if w == 1 || chunk >= n {
		f(0, n)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n {
					return
				}
				f(lo, min(lo+chunk, n))
			}
		}()
	}
	wg.Wait()
}
