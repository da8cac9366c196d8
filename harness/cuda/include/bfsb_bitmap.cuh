// bfsb_bitmap.cuh: vertex bitmaps in device memory (visited sets, frontier
// queues as bitmaps), one bit per vertex in 32-bit words, for all bfsbench
// CUDA libraries. Bit v lives in word v/32 at position v%32, so a warp
// reading words w..w+31 covers 1024 consecutive vertices in one 128-byte
// transaction.
#ifndef BFSB_BITMAP_CUH
#define BFSB_BITMAP_CUH

#include <cuda_runtime.h>
#include <stdint.h>

namespace bfsb {

// BitmapWords is the number of 32-bit words for n bits.
__host__ __device__ inline int64_t BitmapWords(int64_t n) { return (n + 31) / 32; }

// BitmapTest reports whether bit v is set (a plain load: use it where the
// bitmap is not written during the kernel, or where a stale answer is
// harmless).
__device__ __forceinline__ bool BitmapTest(const uint32_t* bm, uint64_t v) {
  return (bm[v >> 5] >> (v & 31)) & 1u;
}

// BitmapTestRO is BitmapTest through the read-only data cache (__ldg): only
// for bitmaps that no thread writes during the kernel.
__device__ __forceinline__ bool BitmapTestRO(const uint32_t* __restrict__ bm, uint64_t v) {
  return (__ldg(&bm[v >> 5]) >> (v & 31)) & 1u;
}

// BitmapSet sets bit v atomically and returns true when this call set it
// (the bit was clear before), so exactly one of several racing callers wins.
__device__ __forceinline__ bool BitmapSet(uint32_t* bm, uint64_t v) {
  const uint32_t mask = 1u << (v & 31);
  return (atomicOr(&bm[v >> 5], mask) & mask) == 0;
}

// BitmapTestAndSet skips the atomic when a plain load already shows the bit
// set ("test and test-and-set"); it returns true only for the call that set
// the bit.
__device__ __forceinline__ bool BitmapTestAndSet(uint32_t* bm, uint64_t v) {
  const uint32_t mask = 1u << (v & 31);
  if (bm[v >> 5] & mask) return false;
  return (atomicOr(&bm[v >> 5], mask) & mask) == 0;
}

// BitmapCountKernel adds the number of set bits of words[0..nwords) to
// *count (which the caller zeroes first). Launch it with any grid of blocks
// of a multiple of 32 threads: it
// strides over the words, and each warp adds its sum with one atomic. (A
// template, so that every library that includes this header may launch it
// without relocatable device code.)
template <typename Word = uint32_t>
__global__ void BitmapCountKernel(const Word* __restrict__ words, int64_t nwords,
                                  unsigned long long* count) {
  unsigned long long local = 0;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += stride) {
    local += __popc(words[i]);
  }
  for (int off = 16; off > 0; off >>= 1) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0 && local != 0) atomicAdd(count, local);
}

}  // namespace bfsb

#endif  // BFSB_BITMAP_CUH
