// Command merrill is the merrill bfsbench plugin: the multi-GPU BFS of
// [Mitsuishi], with the neighbour gathering of [Merrill] (docs/papers.md),
// on a CPU backend (Go) and a CUDA backend (cuda/merrill.cu). See README.md and
// package mgbfs.
package main

import "github.com/bfsbench/bfsbench/harness/sdk"

func main() { sdk.Serve(plugin{}) }
