// launch-idle.cu: how long the start of a search takes on one GPU after the
// GPU has been idle for a while, against the same start right after
// another.
//
// diropt's 1×1 search spends 50-100 µs between its start event and its
// level 0 (results/diropt-1000): the reset kernel and the loop's start
// kernel run there, and the host enqueues level 0 behind them. A search
// follows an idle period (the previous search's parents travel to the
// harness, which validates them on the CPU). This program separates the
// causes. After the host sleeps for a given time (the GPU idle), it
// enqueues, as fast as it can:
//
//   event 0; a reset-like kernel writing 3 bitmaps of 2^25 bits (12 MiB);
//   a one-thread kernel; event 1; a kernel reading one 2^25-bit bitmap
//   (a level's scan of in_queue); event 2; a one-thread kernel; event 3
//
// and prints, per idle time, the medians over 21 tries of the device
// times 0→1 (the start), 1→2 (the scan) and 2→3 (one small launch), and
// the host time the enqueue took. With the GPU kept busy, the three device
// times are the work's; after an idle period, what they gain is the
// wake-up a search pays before its first level.
//
//   make -f mk/cuda.mk cuda && bin/launch-idle      (mk/cuda.mk builds every scripts/*.cu)
#include <stdint.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "measure.cuh"

namespace {

constexpr int64_t kWords = (int64_t{1} << 25) / 32;  // a scale-25 bitmap

__global__ void ResetLike(uint32_t* a, uint32_t* b, uint32_t* c, int64_t words) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) {
    a[w] = 0;
    b[w] = 0;
    c[w] = (uint32_t)w;
  }
}

__global__ void One(unsigned long long* x) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *x += 1;
}

__global__ void ScanLike(const uint32_t* __restrict__ a, int64_t words, unsigned long long* sink) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  uint32_t acc = 0;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) acc |= a[w];
  if (acc == 0xdeadbeefu) atomicAdd(sink, 1ull);  // never true: keeps the loads
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  CHECK(cudaSetDevice(0));
  uint32_t *a, *b, *c;
  unsigned long long* x;
  CHECK(cudaMalloc(&a, 4 * kWords));
  CHECK(cudaMalloc(&b, 4 * kWords));
  CHECK(cudaMalloc(&c, 4 * kWords));
  CHECK(cudaMalloc(&x, 8));
  CHECK(cudaMemset(a, 0, 4 * kWords));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t ev[4];
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  const int blocks = prop.multiProcessorCount * 8, tpb = 256;
  printf("%s, %d SMs; medians of 21 tries (µs)\n", prop.name, prop.multiProcessorCount);
  printf("%10s %10s %10s %10s %12s\n", "idle ms", "start", "scan", "launch", "host enqueue");
  const double idles[] = {0, 0.1, 1, 10, 50, 200};
  for (double idle : idles) {
    std::vector<double> t01, t12, t23, host;
    for (int k = 0; k < 22; ++k) {
      Idle(1e3 * idle);  // idle is in ms
      const auto h0 = std::chrono::steady_clock::now();
      CHECK(cudaEventRecord(ev[0], s));
      ResetLike<<<blocks, tpb, 0, s>>>(a, b, c, kWords);
      CHECK(cudaGetLastError());
      One<<<1, 32, 0, s>>>(x);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(ev[1], s));
      ScanLike<<<blocks, tpb, 0, s>>>(a, kWords, x);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(ev[2], s));
      One<<<1, 32, 0, s>>>(x);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(ev[3], s));
      const auto h1 = std::chrono::steady_clock::now();
      CHECK(cudaStreamSynchronize(s));
      if (k == 0) continue;  // the first try of each idle time is a warm-up
      float ms[3];
      for (int i = 0; i < 3; ++i) CHECK(cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]));
      t01.push_back(1e3 * ms[0]);
      t12.push_back(1e3 * ms[1]);
      t23.push_back(1e3 * ms[2]);
      host.push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
    }
    printf("%10g %10.1f %10.1f %10.1f %12.1f\n", idle, Median(t01), Median(t12), Median(t23), Median(host));
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(x));
  return 0;
}
