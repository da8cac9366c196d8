/* ueno.h: the C ABI of libueno.so, the CUDA backend of the ueno variant:
 * the distributed BFS of [Ueno] (docs/papers.md), §V.
 *
 * One handle is one processor P(i,j)'s search state on one GPU: its local
 * matrix (column offsets, 64-bit, into the local rows of each edge), the
 * bitmaps CQ (R blocks), SV (C blocks), NQ and VISITED (the own block),
 * each block padded to whole 32-bit words, PRED (64-bit global ids of the
 * own block), the CQ list and its edge counts (task 4), the bounded edge
 * buffer (task 5) and the filtered output per grid column (task 6). The
 * level loop runs in Go (plugins/ueno/ubfs/rank.go); the exchanged data are
 * staged through host memory.
 *
 * Errors follow bfsb_abi.h: an int32 status (0 = success) and a message in
 * the caller's buffer (err, errlen), always the last two arguments. Every
 * function selects the handle's device first. Kernel times are measured
 * with CUDA events and summed per kind (UENO_T_*) until ueno_counters. */
#ifndef BFSBENCH_UENO_H
#define BFSBENCH_UENO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UENO_ABI_VERSION 4

/* Kernel-time kinds of ueno_counters (a fused gather and filter counts as
 * UENO_T_FILTER). */
enum { UENO_T_EXPAND = 0, UENO_T_CQLIST, UENO_T_GATHER, UENO_T_FILTER, UENO_T_FOLD, UENO_T_COUNT };

/* SV update methods (Algorithm V). */
enum { UENO_SV_A = 0, UENO_SV_B = 1, UENO_SV_C = 2 };

/* One rank's shape and settings; all int64 so the Go mirror has no padding. */
typedef struct ueno_params {
  int64_t device;            /* CUDA device ordinal */
  int64_t r, c, i, j;        /* grid and this processor */
  int64_t block;             /* B, vertices per vertex block */
  int64_t nnz;               /* local edges */
  int64_t edge_buffer;       /* task 5's buffer, edges */
  int64_t sv_update;         /* UENO_SV_* */
  int64_t list_cap;          /* most values in one received compressed NQ
                                list (min(block, alpha*n)) */
  int64_t threads_per_block; /* kernels other than the gather (which is
                                compiled for 256 threads) */
  int64_t device_exchange;   /* 1: allocate the device buffers the NCCL
                                exchanges read and write (ueno_dev_ptrs) */
  int64_t fused;             /* 1: tasks 5 and 6 in one kernel (FusedKernel);
                                0: gathered into the buffer, then filtered */
} ueno_params;

/* Device addresses for the device path of the exchanges (NCCL): the NQ
 * bitmap, CQ (R blocks, the column all-gather's target), sv_in (C blocks,
 * the row all-gather's target), the own coded NQ, the all-gathered coded
 * parts (streams_cap bytes), the fold output (C regions of out_cap pairs,
 * region m for grid column m). All uint64 (device pointers and counts). */
typedef struct ueno_dev {
  uint64_t nq, cq, sv_in, stream, streams, streams_cap, out, out_cap;
} ueno_dev;

int32_t ueno_abi_version(void);

/* ueno_create uploads col_ptr[r*block+1] and row_idx[nnz] and allocates the
 * search state. */
int32_t ueno_create(const ueno_params* p, const int64_t* col_ptr, const uint32_t* row_idx,
                    void** out, char* err, int32_t errlen);

/* ueno_reset clears VISITED, NQ, SV and PRED (-1); root_off >= 0 marks the
 * own vertex at that offset visited and in NQ, its predecessor root. */
int32_t ueno_reset(void* h, int64_t root_off, int64_t root, char* err, int32_t errlen);

/* ueno_nq_count stores |NQ| in *n (task 1's operand). */
int32_t ueno_nq_count(void* h, int64_t* n, char* err, int32_t errlen);

/* ueno_nq_bitmap copies the NQ bitmap (words of one block) into dst. */
int32_t ueno_nq_bitmap(void* h, uint32_t* dst, char* err, int32_t errlen);

/* ueno_nq_encode lists NQ by offset (a scan), delta-codes it and codes it
 * in SIMD VLQ (§V-B, §V-C), copying the stream into dst (cap bytes; dst
 * NULL: the stream stays in device memory, ueno_dev.stream) and its length
 * into *nbytes. */
int32_t ueno_nq_encode(void* h, uint8_t* dst, int64_t cap, int64_t* nbytes, char* err,
                       int32_t errlen);

/* ueno_load_part loads one received NQ part into CQ block `block`
 * (target 0: replaces it) or SV block `block` (target 1: ORed in): a
 * bitmap (bitmap non-null) or n values coded in nbytes of stream; both in
 * host memory, or in device memory when on_device is 1. */
int32_t ueno_load_part(void* h, int32_t target, int64_t block, const uint32_t* bitmap,
                       const uint8_t* stream, int64_t n, int64_t nbytes, int32_t on_device,
                       char* err, int32_t errlen);

/* ueno_clear_nq empties NQ (Algorithm II line 10). */
int32_t ueno_clear_nq(void* h, char* err, int32_t errlen);

/* ueno_cq_list is task 4: the non-empty CQ words by count and scan, with the
 * edges before each entry; *len gets the list length. */
int32_t ueno_cq_list(void* h, int64_t* len, char* err, int32_t errlen);

/* ueno_gather_filter is tasks 5-6 from list entry start: as many entries as
 * fit in the edge buffer (at least one; the buffer grows for a single entry
 * that does not fit) are gathered (Merrill's CTA+warp+scan) and filtered
 * through SV; edges to the own grid column are applied at once (task 8).
 * *next gets the next entry, counts[m] the pairs left for grid column m. */
int32_t ueno_gather_filter(void* h, int64_t start, int64_t* next, uint32_t* counts, char* err,
                           int32_t errlen);

/* ueno_fold_out copies the counts[m] pairs (target offset, source local
 * column) for grid column m into dst. */
int32_t ueno_fold_out(void* h, int64_t m, uint32_t* dst, int64_t npairs, char* err,
                      int32_t errlen);

/* ueno_apply_fold is task 8 for npairs pairs received from grid column src
 * (pairs in host memory, or in device memory when on_device is 1). */
int32_t ueno_apply_fold(void* h, int64_t src, const uint32_t* pairs, int64_t npairs,
                        int32_t on_device, char* err, int32_t errlen);

/* ueno_dev_ptrs fills *d (sv_in and streams are 0 without device_exchange). */
int32_t ueno_dev_ptrs(void* h, ueno_dev* d, char* err, int32_t errlen);

/* ueno_recv_ptr makes the device receive buffer of the fold hold npairs
 * pairs and stores its address in *ptr. */
int32_t ueno_recv_ptr(void* h, int64_t npairs, uint64_t* ptr, char* err, int32_t errlen);

/* ueno_parents copies the own block's first n parents into dst. */
int32_t ueno_parents(void* h, int64_t* dst, int64_t n, char* err, int32_t errlen);

/* ueno_counters copies and clears the kernel times (ms[UENO_T_COUNT]) and
 * the bytes copied host to device and back. */
int32_t ueno_counters(void* h, double* ms, int64_t* h2d, int64_t* d2h, char* err, int32_t errlen);

/* ueno_floor times, reps times after a warm-up, one pass over every local
 * edge reading its target and testing its SV bit (the least per-edge work
 * of gathering and filtering) and stores the median in *ms. gather 0: the
 * edges are read as one array (the floor); 1: every local column's list is
 * expanded by task 5's Merrill gathering (the gathering floor). */
int32_t ueno_floor(void* h, int32_t gather, int32_t reps, double* ms, char* err, int32_t errlen);

/* ueno_vlq_encode codes n values in SIMD VLQ on device `device`: *nbytes
 * gets the length, dst (cap bytes) the stream, *ms the encoding's time
 * (CUDA events, the median of reps >= 1 runs, copies excluded). */
int32_t ueno_vlq_encode(int64_t device, const uint32_t* vals, int64_t n, uint8_t* dst,
                        int64_t cap, int64_t* nbytes, int32_t reps, double* ms, char* err,
                        int32_t errlen);

/* ueno_vlq_decode decodes n values from nbytes of stream into dst, timed
 * the same way; a corrupt stream is an error. */
int32_t ueno_vlq_decode(int64_t device, const uint8_t* src, int64_t nbytes, int64_t n,
                        uint32_t* dst, int32_t reps, double* ms, char* err, int32_t errlen);

void ueno_destroy(void* h);

#ifdef __cplusplus
}
#endif

#endif /* BFSBENCH_UENO_H */
