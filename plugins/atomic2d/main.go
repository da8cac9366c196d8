// Command atomic2d is the atomic2d bfsbench plugin: the 2D-partitioned
// distributed BFS of seed 000 (Bisson, Bernaschi and Mastrostefano,
// "Parallel Distributed Breadth First Search on the Kepler Architecture"),
// Algorithms 2 and 3 with the bitmap messages of §5, on a CPU backend (Go
// kernels with sync/atomic) and a CUDA backend (cuda/atomic2d.cu).
//
// The harness starts it through go-plugin (`bfsbench run CONFIG.toml`).
// `atomic2d gpucheck [flags]` runs the shared one-process check
// (harness/cuda/gpucheck); `atomic2d gridcheck [flags]` runs the same kind
// of check over R×C grids of in-process ranks (gridcheck.go).
package main

import (
	"os"

	"github.com/bfsbench/bfsbench/harness/cuda/gpucheck"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "gpucheck":
			os.Exit(gpucheck.Main(plugin{}, os.Args[2:], os.Stdout, os.Stderr))
		case "gridcheck":
			os.Exit(gridcheckMain(os.Args[2:], os.Stdout, os.Stderr))
		}
	}
	sdk.Serve(plugin{})
}
