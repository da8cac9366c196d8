// Command ueno is the ueno bfsbench plugin: the distributed BFS of [Ueno]
// (docs/papers.md; §V: 2D partition with CQ, NQ and VISITED
// bitmaps, expand compressed by SIMD VLQ, CQ list, Merrill gathering into
// a bounded buffer, shared-visited filtering, fold in chunks), on a CPU
// backend and a CUDA backend (cuda/ueno.cu).
//
// It only serves: the harness starts it through go-plugin
// (`bfsbench run CONFIG.toml`).
package main

import "github.com/bfsbench/bfsbench/harness/sdk"

func main() { sdk.Serve(plugin{}) }
