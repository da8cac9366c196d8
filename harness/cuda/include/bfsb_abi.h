/* bfsb_abi.h: the C ABI every bfsbench CUDA library exports, whatever the
 * variant. The Go loader (package harness/cuda) binds these symbols by name.
 *
 * Error convention (all variants, all exported functions): a function
 * returns an int status, 0 for success. On failure it returns a non-zero
 * status (the cudaError_t value when a CUDA call failed, BFSB_EINVAL or
 * BFSB_EINTERNAL otherwise) and writes a NUL-terminated message into the
 * caller's buffer err[0..errlen): the failing call's name first, then what
 * CUDA said, e.g. "cudaMalloc(levels, 16777216 bytes): out of memory
 * (cudaErrorMemoryAllocation)". The buffer is the caller's, so the
 * convention is safe from any thread. */
#ifndef BFSB_ABI_H
#define BFSB_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this common ABI; the loader refuses a library of another. */
#define BFSB_ABI_VERSION 3

/* Statuses that are not CUDA errors. CUDA's own codes are below 10000. */
#define BFSB_EINVAL 10001    /* a bad argument from the caller */
#define BFSB_EINTERNAL 10002 /* a failed self-check or host allocation */

/* Device facts, filled by bfsb_device_query. Fixed-size fields only, laid
 * out without padding, so that the Go side can mirror it exactly. */
typedef struct bfsb_device_info {
  char name[256];
  int64_t total_bytes;   /* cudaMemGetInfo total */
  int64_t free_bytes;    /* cudaMemGetInfo free, when queried */
  int64_t l2_bytes;      /* L2 cache size */
  int32_t sm_count;      /* multiprocessors */
  int32_t cc_major;      /* compute capability */
  int32_t cc_minor;
  int32_t driver_version;  /* cudaDriverGetVersion, e.g. 13000 */
  int32_t runtime_version; /* cudaRuntimeGetVersion of the library's runtime */
  int32_t reserved[3];     /* zero; keeps the size a multiple of 8 */
} bfsb_device_info;

/* bfsb_abi_version returns BFSB_ABI_VERSION. */
int32_t bfsb_abi_version(void);

/* bfsb_device_count stores the number of CUDA devices in *count. Without a
 * driver or a device it fails, and err says what the runtime found. */
int32_t bfsb_device_count(int32_t* count, char* err, int32_t errlen);

/* bfsb_device_query fills *out for device `device`. */
int32_t bfsb_device_query(int32_t device, bfsb_device_info* out, char* err, int32_t errlen);

/* bfsb_copy_bandwidth measures device memory bandwidth on `device` with
 * two buffers of `bytes` bytes each, filled with a non-zero pattern first:
 * *copy_gbs is a device-to-device cudaMemcpy counted as bytes read plus
 * bytes written, *read_gbs a read-only streaming kernel (bytes read), both
 * in GB/s (1e9 bytes per second), each the median of `reps` timed runs
 * after one warm-up, timed with CUDA events. */
int32_t bfsb_copy_bandwidth(int32_t device, int64_t bytes, int32_t reps, double* copy_gbs,
                            double* read_gbs, char* err, int32_t errlen);

/* bfsb_selftest runs the shared device primitives (the device-wide
 * exclusive scan of bfsb_scan.cuh, the warp and block collectives of
 * bfsb_warp.cuh) on `n` pseudo-random inputs on `device` and compares them
 * with a host computation. It fails with a message naming the first
 * mismatch. */
int32_t bfsb_selftest(int32_t device, int64_t n, char* err, int32_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* BFSB_ABI_H */
