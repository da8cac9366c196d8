// Command edgescan is the edgescan bfsbench plugin: BFS by scanning the
// whole edge list every iteration, after [Titan] (docs/papers.md), with a
// CPU and a CUDA backend.
//
// It only serves: the harness starts it through go-plugin
// (`bfsbench run CONFIG.toml`).
package main

import "github.com/bfsbench/bfsbench/harness/sdk"

func main() { sdk.Serve(plugin{}) }
