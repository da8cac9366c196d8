// measure.cuh: what the stand-alone measurement programs of scripts/*.cu
// share: CHECK, which ends the program on a failed CUDA call with its
// place and message, Idle, which leaves the GPU idle for a while, Median,
// Device0, ResetLike with its bitmaps (ResetBitmaps), the writes of a
// diropt search's reset at scale 25, and LaunchPdl with PdlWaitThenLet,
// a programmatic dependent launch as diropt's device loop makes them.
#pragma once

#include <stdint.h>

#include <algorithm>
#include <vector>

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

// Idle sleeps the host for us microseconds (none for us <= 0).
static inline void Idle(double us) {
  if (us <= 0) return;
  const time_t s = (time_t)(us / 1e6);
  struct timespec ts = {s, (long)((us - (double)s * 1e6) * 1e3)};
  nanosleep(&ts, nullptr);
}

// Median is the middle value of v (the upper one of an even count).
static inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// kResetWords is a scale-25 bitmap's words.
constexpr int64_t kResetWords = (int64_t{1} << 25) / 32;

// ResetLike writes what diropt's ResetKernel writes at scale 25: three
// bitmaps of words words (12 MiB at kResetWords), grid-stride.
static __global__ void ResetLike(uint32_t* a, uint32_t* b, uint32_t* c, int64_t words) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) {
    a[w] = 0;
    b[w] = 0;
    c[w] = (uint32_t)w;
  }
}

// ResetBitmaps are the three bitmaps ResetLike writes (a zeroed once), in
// device memory for the program's life.
struct ResetBitmaps {
  uint32_t *a = nullptr, *b = nullptr, *c = nullptr;
  ResetBitmaps() {
    CHECK(cudaMalloc(&a, 4 * kResetWords));
    CHECK(cudaMalloc(&b, 4 * kResetWords));
    CHECK(cudaMalloc(&c, 4 * kResetWords));
    CHECK(cudaMemset(a, 0, 4 * kResetWords));
  }
  ~ResetBitmaps() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  ResetBitmaps(const ResetBitmaps&) = delete;
  ResetBitmaps& operator=(const ResetBitmaps&) = delete;
  // Launch enqueues ResetLike over them on stream s.
  void Launch(int blocks, int tpb, cudaStream_t s) const {
    ResetLike<<<blocks, tpb, 0, s>>>(a, b, c, kResetWords);
    CHECK(cudaGetLastError());
  }
};

// Device0 selects device 0 and returns its properties.
static inline cudaDeviceProp Device0() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  CHECK(cudaSetDevice(0));
  return prop;
}

// PdlWaitThenLet begins a kernel that LaunchPdl launched, as diropt's
// PdlStart does: it waits for the kernel before it in the stream
// (griddepcontrol.wait), then lets the next launch's blocks be scheduled.
static __device__ __forceinline__ void PdlWaitThenLet() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// LaunchPdl launches k<<<grid, block, 0, s>>>(args...) as a programmatic
// dependent launch (Hopper): its blocks may be scheduled while the kernel
// before it runs, and wait on the GPU for its end (PdlWaitThenLet).
template <typename... Params, typename... Args>
static cudaError_t LaunchPdl(cudaStream_t s, int grid, int block, void (*k)(Params...), Args... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((unsigned)grid);
  cfg.blockDim = dim3((unsigned)block);
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, k, args...);
}
