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
func ForAligned(n, align int64, f func(lo, hi int64)) {
	if n <= 0 {
		return
	}
	workers := int64(runtime.GOMAXPROCS(0))
	chunk := (n + workers*8 - 1) / (workers * 8)
	chunk = max((chunk+align-1)/align*align, align)
	if workers == 1 || chunk >= n {
		f(0, n)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := int64(0); w < workers; w++ {
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
