// Package mgbfs is the algorithm of the merrill variant: the multi-GPU BFS
// of [Mitsuishi], Algorithm 2, whose neighbour gathering is that of
// [Merrill] (docs/papers.md).
//
// One process drives p partitions (one per GPU where there are enough
// GPUs). The graph is split 1D by destination: partition i owns the
// vertices [Lo[i], Lo[i+1]) and holds the edges (u → v) whose v it owns,
// as a CSR over every u. Per level every partition gathers every
// partition's queue (its own first, then the others in the circular
// left-right order of the paper's §5.3), scattering parents into its
// Vector (Fig. 3), then runs UpdateLabels and ConvertVtoQ.
//
//   - partition.go: the 1D partition and its CSRs;
//   - search.go: the level loop (Algorithm 2), the circular left-right
//     order and the per-level report;
//   - engine.go: the backend interface the loop drives;
//   - cpu_engine.go: the CPU backend (the same algorithm with Go kernels);
//   - cuda_engine.go: the CUDA backend over ../cuda/merrill.cu.
package mgbfs
