// Command edgescan is the edgescan bfsbench plugin: BFS by scanning the
// whole edge list every iteration, after an article on parallelizing BFS
// on a single GTX Titan (Kepler) with a Bellman-Ford-style edge scan (the
// article names no author; docs/papers.md), with a CPU and a CUDA backend.
//
// It only serves: the harness starts it through go-plugin
// (`bfsbench run CONFIG.toml`).
package main

import "github.com/bfsbench/bfsbench/harness/sdk"

func main() { sdk.Serve(plugin{}) }
