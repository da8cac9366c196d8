/* edgescan.h: the C ABI of libedgescan.so, the CUDA backend of the edgescan
 * variant: BFS by scanning the whole edge list every iteration, Bellman-Ford
 * style, on one GPU, after an untitled, unsigned web article (2014, read in
 * English translation) on parallelizing breadth-first search on one NVIDIA
 * GTX Titan (see edgescan.cu). The Go side (plugins/edgescan/gpu.go) binds
 * these symbols by name; the errors follow bfsb_abi.h (status return,
 * message in the caller's err buffer).
 *
 * Life of a handle: edgescan_create (allocates everything; the caller has
 * checked the memory need first), edgescan_upload (the prepared edge
 * arrays, once), then per search edgescan_bfs and edgescan_parents, and
 * finally edgescan_destroy. */
#ifndef BFSBENCH_EDGESCAN_H
#define BFSBENCH_EDGESCAN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EDGESCAN_ABI_VERSION 5

/* Most iterations a search may run: levels are uint8 and 255 means
 * unvisited, so the deepest level is 254, and iteration 254 may only
 * confirm that nothing is left (if it finds more, edgescan_bfs fails). */
#define EDGESCAN_MAX_ITERS 255

/* source_loads values: how the scan kernel loads the source's level. EAGER:
 * both ends' levels for every edge (the article). LAZY: the source's only
 * when the destination's level can make the edge act. SUMMARY: LAZY, and
 * not when the destination is unvisited and no vertex of the source's group
 * of 64 is in the frontier (a one-bit-per-group frontier summary). */
#define EDGESCAN_SOURCE_EAGER 0
#define EDGESCAN_SOURCE_LAZY 1
#define EDGESCAN_SOURCE_SUMMARY 2

/* Kernel options, all int32 so that the Go mirror needs no padding. */
typedef struct edgescan_options {
  int32_t device;            /* CUDA device ordinal */
  int32_t restrict_loads;    /* 1: read levels through the read-only cache (const __restrict__ + __ldg) */
  int32_t packed16;          /* 1: edges arrive as one array of (dst << 16 | src) words */
  int32_t edges_per_thread;  /* 1, 2 or 4 consecutive edges per thread, loaded as one vector */
  int32_t threads_per_block; /* a multiple of 32 in [32, 1024] */
  int32_t source_loads;      /* EDGESCAN_SOURCE_EAGER, _LAZY or _SUMMARY */
  int32_t write_check;       /* 1: re-read a level from L2 before writing it, skip vertices already claimed */
  int32_t tile_bits;         /* 0: no tiles; else the edges come grouped in tiles of 2^tile_bits x 2^tile_bits
                                vertices and the dense kernel may run (edgescan_upload_tiles) */
  int32_t tile_threads;      /* dense kernel: threads per block, a multiple of 32 in [32, 1024] */
  int32_t dense_min_frontier;/* with tiles: an iteration whose frontier has at least this many vertices
                                runs the dense kernel (0: every iteration) */
  int32_t dense_growing;     /* with tiles: 1: also run the dense kernel while the frontier grows
                                (more than 1 vertex, more than in the previous iteration) */
} edgescan_options;

/* One tile chunk: edges [begin, end) of the arrays (begin and end multiples
 * of 4) all have src in vertex range si (src >> tile_bits == si) and dst in
 * range ei, except padding self-loops. The dense kernel runs one block per
 * chunk. */
typedef struct edgescan_chunk {
  int64_t begin, end;
  uint32_t si, ei;
} edgescan_chunk;

/* edgescan_abi_version returns EDGESCAN_ABI_VERSION: the Go side refuses a
 * library built from another version of this header (struct layouts). */
int32_t edgescan_abi_version(void);

/* edgescan_create allocates the device arrays for nv vertices and m edges
 * (m after any self-loops were dropped) and returns a handle in *out. nv
 * must be below 2^31 (parents are stored as int32 on the device). */
int32_t edgescan_create(const edgescan_options* opt, int64_t nv, int64_t m, void** out, char* err,
                        int32_t errlen);

/* edgescan_upload copies the edge arrays to the device: src[m] and dst[m]
 * vertex ids, or, when packed16 is set, the packed words in src and dst
 * NULL. The order of the arrays is the order the kernel scans. It returns
 * once the copies are complete on the device (the caller times it). */
int32_t edgescan_upload(void* h, const uint32_t* src, const uint32_t* dst, char* err,
                        int32_t errlen);

/* edgescan_upload_tiles copies the chunk table (n chunks covering every
 * edge once) for the dense kernel; required when tile_bits > 0. */
int32_t edgescan_upload_tiles(void* h, const edgescan_chunk* chunks, int64_t n, char* err,
                              int32_t errlen);

/* edgescan_bfs searches from root. On return *iters is the number of
 * iterations (kernel launches) run, iter_ms[i] the time of iteration i's
 * kernel (CUDA events; iter_ms must hold EDGESCAN_MAX_ITERS), and *total_ms
 * the device time from the start of initialization to the end of the last
 * iteration (events on the same stream), which includes the host's reads of
 * the "modified" flag between iterations. dense[i] is 1 when iteration i
 * ran the dense (tiled) kernel, else 0 (it must hold EDGESCAN_MAX_ITERS). */
int32_t edgescan_bfs(void* h, int64_t root, float* iter_ms, int32_t* dense, int32_t* iters,
                     float* total_ms, char* err, int32_t errlen);

/* edgescan_parents copies the last search's parents to dst[nv] as int64:
 * dst[root] = root, -1 for unreached vertices. */
int32_t edgescan_parents(void* h, int64_t* dst, char* err, int32_t errlen);

/* edgescan_levels copies the last search's levels to dst[nv] (255 for
 * unreached vertices); for tests and diagnostics. */
int32_t edgescan_levels(void* h, uint8_t* dst, char* err, int32_t errlen);

/* edgescan_destroy frees everything the handle holds. NULL is allowed. */
void edgescan_destroy(void* h);

#ifdef __cplusplus
}
#endif

#endif /* BFSBENCH_EDGESCAN_H */
