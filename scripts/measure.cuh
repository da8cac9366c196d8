// measure.cuh: what the stand-alone measurement programs of scripts/*.cu
// share: CHECK, which ends the program on a failed CUDA call with its
// place and message, and Idle, which leaves the GPU idle for a while.
#pragma once

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
