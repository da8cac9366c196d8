// Command edgescan is the edgescan bfsbench plugin: BFS by scanning the
// whole edge list every iteration, after seed 002 (a single-GPU
// Bellman-Ford-style BFS on a GTX Titan), with a CPU and a CUDA backend.
//
// The harness starts it through go-plugin (`bfsbench run CONFIG.toml`).
// `edgescan gpucheck [flags]` instead runs it in-process on generated
// Graph500 graphs and validates every search (see harness/cuda/gpucheck).
package main

import (
	"os"

	"github.com/bfsbench/bfsbench/harness/cuda/gpucheck"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "gpucheck" {
		os.Exit(gpucheck.Main(plugin{}, os.Args[2:], os.Stdout, os.Stderr))
	}
	sdk.Serve(plugin{})
}
