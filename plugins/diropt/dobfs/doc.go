// Package dobfs is the algorithm of the diropt variant: the
// direction-optimizing BFS of [Krajecki], which runs the 2D parallel BFS of
// [Checconi] with the direction switching of [Beamer] (all cited in
// docs/papers.md), keeping each block in both CSR and CSC and the queues as
// bitmaps.
//
//   - graph.go: a processor's block in CSR (top-down) and CSC (bottom-up),
//     duplicates removed, lists optionally ordered by neighbour degree;
//   - bits.go: the in_queue, out_queue and visited bitmaps;
//   - leaves.go: the leaves step (1×1): the vertices of degree 1 left out
//     of the levels and given their parents after the last one;
//   - rank.go: the level loop (Algorithm 2 with Beamer's switching rule),
//     its exchanges over harness/comm and the per-level report;
//   - device_loop.go: the same loop resident on the GPU (CUDA: 1×1, and
//     2D with device exchanges);
//   - device_exchange.go: the 2D exchanges between device buffers (NCCL);
//   - engine.go: the backend interface the loop drives;
//   - cpu_engine.go: the CPU backend (Algorithm 3 and the bottom-up step
//     in Go);
//   - cuda_engine.go: the CUDA backend over ../cuda/diropt.cu.
package dobfs
