// cuda_runtime.h (host emulation): the few CUDA names that
// harness/cuda/include/bfsb_gather.cuh uses, emulated on the host with one OS
// thread per CUDA thread of one block, barriers for __syncthreads and for
// the warp-synchronous intrinsics, so that gather_emu.cpp can check the
// gather's CTA/warp/scan logic and its HugeQueue/HugeKernel on machines
// without a GPU. The blocks of a grid run one after another (blockIdx,
// gridDim); __shared__ variables are function statics, one for all. Test only: never
// on an nvcc include path (mk/cuda.mk adds plugins/merrill/cuda, not emu/).
#pragma once
#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstring>
#include <strings.h>
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __restrict__
#define __launch_bounds__(n)
#define __shared__ static
struct emu_uint3 { unsigned x, y, z; };
inline thread_local emu_uint3 emu_tid;
inline emu_uint3 emu_bid{0, 0, 0}, emu_gdim{1, 1, 1};
#define threadIdx emu_tid
#define blockIdx emu_bid
#define gridDim emu_gdim
template <class T> T min(T a, T b) { return b < a ? b : a; }
template <class T> T atomicAdd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <class T> T atomicOr(T* p, T v) { return std::atomic_ref<T>(*p).fetch_or(v); }
inline std::barrier<>* emu_block_bar;
inline std::barrier<>* emu_warp_bar[32];
inline uint64_t emu_x[1024];
inline void __syncthreads() { emu_block_bar->arrive_and_wait(); }
inline int emu_lane() { return emu_tid.x & 31; }
inline std::barrier<>& emu_wb() { return *emu_warp_bar[emu_tid.x >> 5]; }
inline unsigned __ballot_sync(unsigned, int pred) {
  emu_x[emu_tid.x] = pred ? 1 : 0;
  emu_wb().arrive_and_wait();
  unsigned r = 0;
  int base = emu_tid.x & ~31;
  for (int l = 0; l < 32; ++l) r |= (emu_x[base + l] ? 1u : 0u) << l;
  emu_wb().arrive_and_wait();
  return r;
}
template <class T> T __shfl_sync(unsigned, T v, int src) {
  uint64_t b = 0; memcpy(&b, &v, sizeof(T));
  emu_x[emu_tid.x] = b;
  emu_wb().arrive_and_wait();
  uint64_t r = emu_x[(emu_tid.x & ~31) + src];
  emu_wb().arrive_and_wait();
  T out; memcpy(&out, &r, sizeof(T)); return out;
}
template <class T> T __shfl_up_sync(unsigned, T v, int off) {
  uint64_t b = 0; memcpy(&b, &v, sizeof(T));
  emu_x[emu_tid.x] = b;
  emu_wb().arrive_and_wait();
  uint64_t r = emu_lane() >= off ? emu_x[emu_tid.x - off] : b;
  emu_wb().arrive_and_wait();
  T out; memcpy(&out, &r, sizeof(T)); return out;
}
inline int __ffs(unsigned x) { return ffs((int)x); }
template <class T> T __ldg(const T* p) { return *p; }
