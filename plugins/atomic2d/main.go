// Command atomic2d is the atomic2d bfsbench plugin: the 2D-partitioned
// distributed BFS of [Bisson] (docs/papers.md): Algorithms 2 and 3 with the
// bitmap messages of §5, on
// a CPU backend (Go kernels with sync/atomic) and a CUDA backend
// (cuda/atomic2d.cu).
//
// It only serves: the harness starts it through go-plugin
// (`bfsbench run CONFIG.toml`).
package main

import "github.com/bfsbench/bfsbench/harness/sdk"

func main() { sdk.Serve(plugin{}) }
