/* merrill.h: the C ABI of libmerrill.so, the CUDA backend of the merrill
 * variant: the multi-GPU BFS of [Mitsuishi], Algorithm 2, with the
 * neighbour gathering of [Merrill] (docs/papers.md).
 *
 * One handle drives p partitions, each on one CUDA device (partitions may
 * share a device). Partition i owns the vertices [lo[i], lo[i+1]) and holds
 * the edges (u -> v) whose v it owns, as a CSR over every u (row offsets of
 * n+1 entries, columns local: v - lo[i]). Per partition: Label (int64
 * parents), Visited (uint8), Vector (uint32 parent candidates), two Queue
 * buffers (uint32 global ids, one read by everyone this level, one written),
 * two receive buffers for peer copies, a compute and a copy stream.
 *
 * The level loop runs in Go (plugins/merrill/mgbfs/search.go); mg_level runs
 * one level of Algorithm 2 on every partition and returns when it is done.
 *
 * Errors follow bfsb_abi.h: an int32 status (0 = success) and a message in
 * the caller's buffer (err, errlen), always the last two arguments. */
#ifndef BFSBENCH_MERRILL_H
#define BFSBENCH_MERRILL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_ABI_VERSION 2

/* Gathering (mg_params.gather). */
#define MG_GATHER_MERRILL 0 /* CTA + warp + scan (bfsb_gather.cuh) */
#define MG_GATHER_THREAD 1  /* one thread per frontier vertex */

/* Expansion (mg_params.expand). */
#define MG_EXPAND_SCATTER 0  /* scattering parents into Vector (Fig. 3) */
#define MG_EXPAND_CONTRACT 1 /* Merrill's expand-contract: an edge queue of
                                (v, u) pairs, then a contraction that claims
                                each v once (Table 4's "Merrill's BFS") */

/* Phase slots of mg_level's times (seconds, per partition). */
#define MG_T_GATHER 0 /* the gather kernels (sum over the queues) */
#define MG_T_UPDATE 1 /* UpdateLabels (expand_contract: the contraction) */
#define MG_T_CONVERT 2 /* ConvertVtoQ: the scan that enqueues */
#define MG_T_COPY 3   /* peer copies on the copy stream (sum) */
#define MG_T_WAIT 4   /* the compute stream's time between its gathers: waiting for copies */
#define MG_T_RESET 5  /* Vector <- -1 at the level's start (vector_reset = memset) */
#define MG_NTIMES 6

/* The case's shape and settings; all int64 so the Go mirror has no padding. */
typedef struct mg_params {
  int64_t nparts;        /* p */
  int64_t n;             /* vertices of the graph (< 2^32) */
  int64_t gather;        /* MG_GATHER_* */
  int64_t overlap;       /* 1: copies on the copy stream overlap the gathers */
  int64_t peer;          /* 0: cudaMemcpyPeerAsync into receive buffers; 1: the
                            gather kernel reads the other partitions' queues
                            in place (peer access) */
  int64_t expand;        /* MG_EXPAND_* */
  int64_t visited_check; /* 1: the scatter skips v already visited */
  int64_t vector_reset;  /* 0: memset Vector each level (Algorithm 2);
                            1: UpdateLabels resets every entry it reads */
  int64_t huge_lists;    /* MG_GATHER_MERRILL, scatter: 0, a list of any
                            length expanded by one CTA (Merrill et al.);
                            1, lists of at least bfsb::kHuge edges cut into
                            chunks over the whole GPU (bfsb::HugeKernel) */
} mg_params;

int32_t mg_abi_version(void);

/* mg_create allocates the handle: devices[i] is partition i's CUDA device,
 * lo (p+1 entries) the ranges, nnz[i] partition i's CSR entries. */
int32_t mg_create(const mg_params* p, const int32_t* devices, const int64_t* lo, const int64_t* nnz,
                  void** out, char* err, int32_t errlen);

/* mg_load uploads partition part's CSR (rowptr: n+1 entries; col: nnz local
 * columns) and the full degrees of its own vertices (deg: lo[i+1]-lo[i]). */
int32_t mg_load(void* h, int32_t part, const int64_t* rowptr, const uint32_t* col,
                const uint32_t* deg, char* err, int32_t errlen);

/* mg_reset starts a search from root: Label <- -1, Visited <- 0,
 * Vector <- -1 everywhere; the owner's Queue <- {root}, Label[root] <- root,
 * Visited[root] <- 1. */
int32_t mg_reset(void* h, int64_t root, char* err, int32_t errlen);

/* mg_level runs one level on every partition: partition i gathers the
 * queues order[i*p + 0..p-1] (order[i*p] == i: its own first), of qlen[j]
 * vertices each, then UpdateLabels and ConvertVtoQ into its next queue.
 * It writes, per partition, the next queue's length, the sum of the full
 * degrees of its vertices (the next level's edges examined) and the
 * MG_NTIMES phase times (times[i*MG_NTIMES + slot]). Returns when every
 * partition's level is complete. */
int32_t mg_level(void* h, const int32_t* order, const int64_t* qlen, int64_t* next_qlen,
                 int64_t* next_edges, double* times, char* err, int32_t errlen);

/* mg_parents copies every partition's Label into dst[lo[i]..lo[i+1]). */
int32_t mg_parents(void* h, int64_t* dst, char* err, int32_t errlen);

/* mg_floor times the measured floor on partition 0 (FloorKernel, and
 * bfsb::HugeKernel with huge_lists): the median of reps passes, in seconds.
 * With visited_check (scatter_parents) every vertex is set visited first,
 * so that the floor reads and tests every edge and writes nothing. */
int32_t mg_floor(void* h, int32_t reps, double* seconds, char* err, int32_t errlen);

/* mg_gather_selftest checks bfsb_gather.cuh on device: every edge of a
 * random CSR of n rows (lengths spread from 0 to 3·bfsb::kHuge) is visited
 * exactly once by BlockGather and by ThreadGather, through ForEachEdge and
 * ForEachEdgeSync, and by BlockGather with the lists of at least kHuge
 * edges left to HugeQueue and HugeKernel. */
int32_t mg_gather_selftest(int32_t device, int64_t n, char* err, int32_t errlen);

void mg_destroy(void* h);

#ifdef __cplusplus
}
#endif

#endif /* BFSBENCH_MERRILL_H */
