// Package ubfs is the algorithm of the ueno variant, the distributed BFS of
// [1] = [Ueno] (docs/papers.md) over the R×C grid of harness/partition
// (vertex block k = jR+i on P(i,j), the paper's k = (j−1)·R + i with
// 1-based i, j). Comments cite [1] by
// section, Algorithm and Figure 3's task number:
//
//   - rank.go: one level of Figure 3 per iteration, in Go: the expand of
//     Algorithm III (tasks 1–3, all-reduce |NQ|, bitmap above α·n, else
//     sorted, delta-coded, SIMD-VLQ-coded lists), the CQ list (task 4),
//     gathering and filtering in parts bounded by the edge buffer (tasks
//     5–6), and the fold (tasks 7–8) sent in chunks over non-blocking
//     point-to-point messages while the next part is gathered, each chunk
//     applied by its receiver as it arrives (the host path);
//   - device_exchange.go: the exchanges between device buffers over NCCL
//     (exchange = device), the fold in rounds of one part;
//   - engine.go: the per-rank compute backend the loop drives;
//   - cpu_engine.go: the CPU backend (Go kernels, sync/atomic);
//   - cuda_engine.go: the CUDA backend over ../cuda/ueno.cu;
//   - api.go: building a rank from the shared 2D partition.
//
// Bitmaps are stored per vertex block, each block padded to whole 32-bit
// words (BlockWords): CQ holds R blocks (n/C bits), SV C blocks (n/R bits),
// NQ and VISITED the own block (n/P bits).
package ubfs
