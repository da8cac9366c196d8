// Command diropt is the diropt bfsbench plugin: the direction-optimizing
// BFS of [Krajecki] (docs/papers.md), on a CPU backend (Go) and a CUDA backend
// (cuda/diropt.cu). See README.md and package dobfs.
package main

import "github.com/bfsbench/bfsbench/harness/sdk"

func main() { sdk.Serve(plugin{}) }
