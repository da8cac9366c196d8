/* atomic2d.h: the C ABI of libatomic2d.so, the CUDA backend of the atomic2d
 * variant: the 2D-partitioned BFS with atomic-based frontier expansion of
 * [Bisson] (docs/papers.md). One handle is one rank's
 * search state on one GPU: its local CSC block, the level and predecessor
 * (packed in one 64-bit word per local row) and the visited bitmap over every
 * local row (§3.1), the per-column output
 * queues of Algorithm 3 and the scratch for exclusive scans and message
 * packing. The Go side (plugins/atomic2d/bfs2d/cuda_engine.go) binds these
 * symbols by name and runs Algorithm 2 over them, exchanging the expand
 * and fold messages through pinned host memory (the host path) or device
 * buffers (the device path, NCCL). Every message, query and answer buffer
 * argument below may be pinned host or device memory (the copies use
 * cudaMemcpyDefault). Errors follow bfsb_abi.h (status return, message in
 * the caller's err buffer).
 *
 * Messages: the wire format of bfs2d/message.go — one header word (count,
 * or 0x80000000|count for a bitmap) then the payload (offsets within the
 * block, or a bitmap of block_n bits). The device functions below take and
 * produce payloads; the Go side writes and parses the header.
 *
 * Every function is called from one host thread at a time per handle but
 * may be called from different threads over a handle's life (Go moves
 * goroutines between threads): each selects the handle's device first. */
#ifndef BFSBENCH_ATOMIC2D_H
#define BFSBENCH_ATOMIC2D_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define A2D_ABI_VERSION 10

/* Predecessor encoding on the device (as in bfs2d/kernels_cpu.go): a local
 * column, or A2D_PRED_REMOTE|m for a vertex learnt of from grid column m in
 * the fold exchange, or A2D_PRED_NONE. */
#define A2D_PRED_NONE 0xFFFFFFFFu
#define A2D_PRED_REMOTE 0x80000000u

/* One rank's shape and options; all int64 so the Go mirror has no padding. */
typedef struct a2d_params {
  int64_t device;            /* CUDA device ordinal */
  int64_t R, C, I, J;        /* grid and this rank's position P(I,J) */
  int64_t block_n;           /* vertices per vertex block (n) */
  int64_t own_len;           /* vertices of the own block (≤ block_n) */
  int64_t local_rows;        /* C·n */
  int64_t local_cols;        /* R·n */
  int64_t nnz;               /* local CSC entries */
  int64_t edges_per_thread;  /* 1..8 (§3.4.1) */
  int64_t threads_per_block; /* multiple of 32 in [64, 1024] */
  int64_t append_block;      /* output queue slots of the expansion
                                (Algorithm 3 line 10): 0 = one atomic on
                                dst_cnt per discovered vertex, as written;
                                1 = one per block round and queue (the warps
                                add in shared memory) */
} a2d_params;

/* a2d_abi_version returns A2D_ABI_VERSION. */
int32_t a2d_abi_version(void);

/* a2d_device_bytes stores in *bytes the device memory a handle with these
 * params allocates (for a memory-need check before a2d_create). */
int32_t a2d_device_bytes(const a2d_params* p, int64_t* bytes, char* err, int32_t errlen);

/* a2d_create allocates a handle's device memory and uploads the local CSC:
 * col_off[local_cols+1] offsets into row_idx[nnz] (local rows). */
int32_t a2d_create(const a2d_params* p, const uint32_t* col_off, const uint32_t* row_idx,
                   void** out, char* err, int32_t errlen);

/* a2d_reset is Algorithm 2 lines 1-10: levels and predecessors set to -1 /
 * A2D_PRED_NONE, bitmap cleared; when root_row ≥ 0 (an own local row) the
 * root is marked and becomes the frontier. *nfront is 0 or 1. */
int32_t a2d_reset(void* h, int64_t root_row, int64_t* nfront, char* err, int32_t errlen);

/* a2d_frontier_payload writes the own frontier (nfront vertices, as offsets
 * from the own first column) to dst, as a list (bitmap = 0; dst holds
 * nfront words) or as a bitmap of block_n bits (bitmap = 1; dst holds
 * ⌈block_n/32⌉ words). With dst in host memory it returns once dst holds
 * the payload; with dst in device memory it returns at once, the copy
 * enqueued on the handle's stream (a2d_stream), as with a2d_fold_payload. */
int32_t a2d_frontier_payload(void* h, int32_t bitmap, uint32_t* dst, char* err, int32_t errlen);

/* a2d_frontier_begin starts all_front with the own frontier. */
int32_t a2d_frontier_begin(void* h, char* err, int32_t errlen);

/* a2d_frontier_add appends a received expand payload from grid row r to
 * all_front: count offsets (bitmap = 0) or a bitmap of block_n bits with
 * count bits set (bitmap = 1); each offset o becomes local column r·n+o.
 * It returns without waiting for the device; a bitmap whose set bits are
 * not count fails the level's a2d_expand_end (a2d_fold_add: a2d_update). */
int32_t a2d_frontier_add(void* h, int64_t r, int32_t bitmap, const uint32_t* payload, int64_t count,
                         char* err, int32_t errlen);

/* a2d_expand runs expand_frontier (Algorithm 3) at level lvl over
 * all_front: degree gather, exclusive scan (CUB), the kernel with
 * edges_per_thread consecutive edges per thread. counts[C] receives
 * dst_cnt, *edges the number of edges scanned. */
int32_t a2d_expand(void* h, int32_t lvl, uint32_t* counts, int64_t* edges, char* err,
                   int32_t errlen);

/* The expansion in parts, for the device path's overlap of the expand
 * exchange with the expansion of the own frontier ([1] §3.3's overlap of
 * communication with computation): a2d_expand_begin clears dst_cnt;
 * a2d_expand_range enqueues Algorithm 3 over all_front[from, to) (0 ≤ from
 * ≤ to ≤ the entries a2d_frontier_begin and a2d_frontier_add put there) and
 * returns without waiting; a2d_expand_end waits for the parts and stores
 * dst_cnt in counts[C] and the edges scanned by every part in *edges.
 * begin, the ranges of [0, n) in any split, then end, do what one
 * a2d_expand does (which is those three calls). */
int32_t a2d_expand_begin(void* h, char* err, int32_t errlen);
int32_t a2d_expand_range(void* h, int32_t lvl, int64_t from, int64_t to, char* err, int32_t errlen);
int32_t a2d_expand_end(void* h, uint32_t* counts, int64_t* edges, char* err, int32_t errlen);

/* a2d_frontier_count stores the entries of all_front in *nall. */
int32_t a2d_frontier_count(void* h, int64_t* nall, char* err, int32_t errlen);

/* a2d_fold_payload writes dst_verts[m] (counts[m] local rows of block m, as
 * offsets from m·n) to dst as a list or a bitmap (see
 * a2d_frontier_payload). */
int32_t a2d_fold_payload(void* h, int64_t m, int32_t bitmap, uint32_t* dst, char* err,
                         int32_t errlen);

/* a2d_fold_begin empties the fold-received list. */
int32_t a2d_fold_begin(void* h, char* err, int32_t errlen);

/* a2d_fold_add appends a fold payload received from grid column m. */
int32_t a2d_fold_add(void* h, int64_t m, int32_t bitmap, const uint32_t* payload, int64_t count,
                     char* err, int32_t errlen);

/* a2d_update runs update_frontier (§3.5) at level lvl over the received
 * vertices and stores the new own frontier size in *nfront. */
int32_t a2d_update(void* h, int32_t lvl, int64_t* nfront, char* err, int32_t errlen);

/* a2d_remote_queries gathers, per grid column m, the own rows whose
 * predecessor is A2D_PRED_REMOTE|m: counts[C] receives their numbers and
 * rows (room for own_len) the rows, column after column. The device
 * keeps them for a2d_finalize. */
int32_t a2d_remote_queries(void* h, uint32_t* counts, uint32_t* rows, char* err, int32_t errlen);

/* a2d_lookup_preds answers n queries: out[k] = pred[rows[k]] (pinned host or device arrays).
 * It fails, naming the first such query, when a row is not a local row or
 * its predecessor is not one this rank found (checked on the device). */
int32_t a2d_lookup_preds(void* h, const uint32_t* rows, int64_t n, uint32_t* out, char* err,
                         int32_t errlen);

/* a2d_finalize builds the own parents (int64, global ids, -1 unreached) on
 * the device: local predecessors directly, remote ones from answers (pinned host or device memory,
 * in the order of a2d_remote_queries' rows; n of them). */
int32_t a2d_finalize(void* h, const uint32_t* answers, int64_t n, char* err, int32_t errlen);

/* a2d_parents copies the own parents (own_len int64) to host dst. */
int32_t a2d_parents(void* h, int64_t* dst, char* err, int32_t errlen);

/* a2d_levels copies the own levels (own_len int32) to host dst. */
int32_t a2d_levels(void* h, int32_t* dst, char* err, int32_t errlen);

/* a2d_host_alloc allocates words uint32 of pinned host memory (at least
 * one) into *ptr, freed by a2d_destroy: the host buffers of the exchanged
 * messages and of the predecessor exchange, so that their copies to and
 * from the device run at the link's speed (pageable memory goes through a
 * staging copy). */
int32_t a2d_host_alloc(void* h, int64_t words, uint32_t** ptr, char* err, int32_t errlen);

/* Test-floor modes of a2d_test_floor. */
#define A2D_FLOOR_STREAM 0 /* read every row index, no bitmap test */
#define A2D_FLOOR_THREAD 1 /* read and test, 4 consecutive edges per lane */
#define A2D_FLOOR_WARP 2   /* read and test, consecutive edges across lanes */

/* a2d_test_floor times one pass over all nnz local edges, in CSC order and
 * perfectly balanced, doing the least per edge that Algorithm 3 does: read
 * the row index (line 4) and, but in A2D_FLOOR_STREAM, load the visited
 * bitmap word of that row as the test of lines 5-6 does (a plain load; the
 * bitmap is left as the last search left it). No search, atomic or write:
 * a lower bound on the expansion time of one search, whose levels together
 * test every edge of the root's component once. *ms receives the median
 * of reps timed passes (CUDA events, after one warm-up), *unvisited the
 * number of tested rows whose bit was clear (so the loads are kept). */
int32_t a2d_test_floor(void* h, int32_t mode, int32_t reps, float* ms, uint64_t* unvisited, char* err,
                       int32_t errlen);

/* a2d_stream stores the handle's CUDA stream (cudaStream_t), on which
 * every function above enqueues its work, in *stream: the device path's
 * exchanges order themselves against it with events. */
int32_t a2d_stream(void* h, uintptr_t* stream, char* err, int32_t errlen);

/* a2d_exchange_stream stores in *stream a second stream of the handle,
 * non-blocking and of the device's highest priority, created by the first
 * call and destroyed by a2d_destroy: the device path's exchanges run there,
 * so that the block scheduler starts their kernels ahead of the
 * expansion's waiting blocks when both are ready. */
int32_t a2d_exchange_stream(void* h, uintptr_t* stream, char* err, int32_t errlen);

/* a2d_destroy frees everything the handle holds. NULL is allowed. */
void a2d_destroy(void* h);

#ifdef __cplusplus
}
#endif

#endif /* BFSBENCH_ATOMIC2D_H */
