// peer-idle.cu: how long a small copy between two GPUs takes after the GPUs
// have been idle for a while, against the same copy within one GPU.
//
// Three multi-GPU variants show a slow first transfer in each search
// (diropt's first column exchange, ueno's first all-gather, merrill's first
// peer copy: 0.1-0.2 ms against 0.01-0.04 ms later in the same search). A
// search follows an idle period: the harness validates the previous one on
// the CPU. This program separates the causes: after the host sleeps for a
// given time (both GPUs idle), it times one 4-byte cudaMemcpyPeerAsync from
// GPU 1 to GPU 0 and, separately, one 4-byte device-to-device copy on GPU 0,
// each between CUDA events, and prints the median and the largest of 21
// tries per idle time.
//
//   make cuda && bin/peer-idle      (mk/cuda.mk builds every scripts/*.cu)
#include <algorithm>
#include <vector>

#include "measure.cuh"

int main() {
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  if (n < 2) {
    fprintf(stderr, "peer-idle: %d GPU(s); it needs two\n", n);
    return 1;
  }
  int can = 0;
  CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
  void *src = nullptr, *dst = nullptr, *local = nullptr;
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&src, 4));
  CHECK(cudaMemset(src, 1, 4));
  CHECK(cudaSetDevice(0));
  if (can) CHECK(cudaDeviceEnablePeerAccess(1, 0));
  CHECK(cudaMalloc(&dst, 4));
  CHECK(cudaMalloc(&local, 4));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  printf("peer access %d\n", can);
  printf("idle_us,peer_median_us,peer_max_us,local_median_us,local_max_us\n");
  const double idles[] = {0, 10, 100, 1000, 10000, 100000, 1000000};
  for (double idle : idles) {
    std::vector<float> peer, loc;
    for (int rep = 0; rep < 21; ++rep) {
      for (int kind = 0; kind < 2; ++kind) {
        Idle(idle);
        CHECK(cudaEventRecord(e0, s));
        if (kind == 0) {
          CHECK(cudaMemcpyPeerAsync(dst, 0, src, 1, 4, s));
        } else {
          CHECK(cudaMemcpyAsync(local, dst, 4, cudaMemcpyDeviceToDevice, s));
        }
        CHECK(cudaEventRecord(e1, s));
        CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        (kind == 0 ? peer : loc).push_back(ms * 1000);
      }
    }
    std::sort(peer.begin(), peer.end());
    std::sort(loc.begin(), loc.end());
    printf("%.0f,%.1f,%.1f,%.1f,%.1f\n", idle, peer[peer.size() / 2], peer.back(), loc[loc.size() / 2], loc.back());
  }
  return 0;
}
