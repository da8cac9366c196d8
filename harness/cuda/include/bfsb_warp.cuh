// bfsb_warp.cuh: warp- and block-wide collectives for all bfsbench CUDA
// libraries, written once and called from the variants' kernels (in the
// manner of CUB's WarpReduce / WarpScan, much smaller):
//
//   WarpSum           every lane gets the sum of x over the warp
//   WarpInclusiveSum  each lane gets the sum of x over lanes 0..itself
//   WarpReserve       each lane reserves n slots of one queue, one atomic per warp
//   WarpAppend        each lane reserves one slot of one of several queues,
//                     one atomic per warp and distinct queue
//   BlockAppend       WarpAppend into counters in shared memory, then one
//                     global atomic per block round and queue
//
// Every function is warp-synchronous: all 32 lanes of the warp must call it
// together (launch blocks of a multiple of 32 threads and keep the loops
// around the calls warp-uniform). Counters are 32-bit.
#ifndef BFSB_WARP_CUH
#define BFSB_WARP_CUH

#include <cuda_runtime.h>
#include <stdint.h>

namespace bfsb {

constexpr uint32_t kFullWarp = 0xffffffffu;

// LaneId is the thread's lane in its warp.
__device__ __forceinline__ int LaneId() { return threadIdx.x & 31; }

// LaneMaskLt has the bits of the lanes below this one set.
__device__ __forceinline__ uint32_t LaneMaskLt() {
  uint32_t m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

// WarpSum returns the sum of x over the warp's 32 lanes, to every lane
// (one redux instruction from sm_80 on, a butterfly of shuffles before).
__device__ __forceinline__ uint32_t WarpSum(uint32_t x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(kFullWarp, x);
#else
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(kFullWarp, x, off);
  return x;
#endif
}

// WarpInclusiveSum returns x summed over lanes 0 to this lane.
__device__ __forceinline__ uint32_t WarpInclusiveSum(uint32_t x) {
  const int lane = LaneId();
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const uint32_t y = __shfl_up_sync(kFullWarp, x, off);
    if (lane >= off) x += y;
  }
  return x;
}

// WarpReserve reserves n consecutive slots for each lane (n may be 0) in
// the queue whose length is *count: the warp's total is added with one
// atomicAdd, and each lane gets the first of its slots. Lanes get their
// slots in lane order.
__device__ __forceinline__ uint32_t WarpReserve(uint32_t* count, uint32_t n) {
  const uint32_t incl = WarpInclusiveSum(n);
  const uint32_t total = __shfl_sync(kFullWarp, incl, 31);
  uint32_t base = 0;
  if (LaneId() == 0 && total != 0) base = atomicAdd(count, total);
  return __shfl_sync(kFullWarp, base, 0) + incl - n;
}

// WarpAppend reserves one slot of queue `queue` (its length is
// counts[queue]) for each lane with queue >= 0, and returns the lane's
// slot; lanes with queue < 0 ask for nothing (their result is meaningless).
// The lanes asking for the same queue share one atomicAdd. With single set,
// every asking lane must ask for queue 0, and a ballot groups them without
// matching.
__device__ __forceinline__ uint32_t WarpAppend(int queue, uint32_t* counts, bool single) {
  const uint32_t want = __ballot_sync(kFullWarp, queue >= 0);
  if (want == 0) return 0;
  const uint32_t peers = single ? want : __match_any_sync(kFullWarp, queue);
  const int leader = __ffs(peers) - 1;
  uint32_t base = 0;
  if (queue >= 0 && LaneId() == leader) base = atomicAdd(&counts[queue], (uint32_t)__popc(peers));
  base = __shfl_sync(kFullWarp, base, leader);
  return base + __popc(peers & LaneMaskLt());
}

// BlockAppend appends to nq global queues a whole block at a time, so that
// a queue's global counter sees one atomic per block and round instead of
// one per warp: in a round, the warps reserve slots in the block's own
// counters in shared memory (Warp), then Commit reserves the block's total
// of each queue in the global counters, and a lane's slot in queue q is
// Base(q) + what Warp returned. It uses SharedWords(nq) words of shared
// memory. Init and Commit synchronize the block: every thread of it must
// call them, the same number of times.
class BlockAppend {
 public:
  __host__ __device__ static size_t SharedWords(uint32_t nq) { return 2 * (size_t)nq; }

  __device__ BlockAppend(uint32_t* shared, uint32_t nq) : count_(shared), base_(shared + nq), nq_(nq) {}

  // Init zeroes the block's counters (once, before the first round).
  __device__ void Init() {
    for (uint32_t q = threadIdx.x; q < nq_; q += blockDim.x) count_[q] = 0;
    __syncthreads();
  }

  // Warp is WarpAppend on the block's counters: the lane's slot among the
  // block's slots of queue `queue` in this round.
  __device__ uint32_t Warp(int queue, bool single) { return WarpAppend(queue, count_, single); }

  // Commit ends a round: it reserves each queue's slots of the round in
  // counts (global), and resets the block's counters for the next round.
  __device__ void Commit(uint32_t* counts) {
    __syncthreads();
    for (uint32_t q = threadIdx.x; q < nq_; q += blockDim.x) {
      const uint32_t n = count_[q];
      base_[q] = n != 0 ? atomicAdd(&counts[q], n) : 0;
      count_[q] = 0;
    }
    __syncthreads();
  }

  // Base is where the block's slots of the last committed round start in
  // queue q.
  __device__ uint32_t Base(int q) const { return base_[q]; }

 private:
  uint32_t* count_;
  uint32_t* base_;
  uint32_t nq_;
};

}  // namespace bfsb

#endif  // BFSB_WARP_CUH
