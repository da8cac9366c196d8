// measure.cuh: what the stand-alone measurement programs of scripts/*.cu
// share: CHECK, which ends the program on a failed CUDA call with its
// place and message, Idle, which leaves the GPU idle for a while, Median,
// and ResetLike, the writes of a diropt search's reset at scale 25.
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
