// Command merrill is the merrill bfsbench plugin: the multi-GPU BFS of
// Mitsuishi, Suzuki, Hayashi, Kan and Amano, "Breadth First Search on
// Cost-efficient Multi-GPU Systems" (HEART 2015; ACM SIGARCH Computer
// Architecture News 43(4), 2015), with the neighbour gathering of Merrill,
// Garland and Grimshaw, "Scalable GPU Graph Traversal" (PPoPP 2012), on a
// CPU backend (Go) and a CUDA backend (cuda/merrill.cu). See README.md and
// package mgbfs.
package main

import "github.com/bfsbench/bfsbench/harness/sdk"

func main() { sdk.Serve(plugin{}) }
