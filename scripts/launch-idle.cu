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
// and prints, per idle time, the medians over the tries of the device
// times 0→1 (the start), 1→2 (the scan) and 2→3 (one small launch), the
// host time the enqueue took and that of its first call (event 0). With
// the GPU kept busy, the three device times are the work's; after an idle
// period, what they gain is the wake-up a search pays before its first
// level. Three ways of idling separate the host's share from the GPU's:
//
//   sleep  the host sleeps (as a plugin waiting for its next request),
//   spin   the host spins on its clock instead (its core never idles),
//   gated  before the idle period the host blocks the stream behind a
//          gate (a host function on a second stream, spinning until
//          opened, that the stream waits for); after it, the host
//          enqueues the same work and opens the gate, so that the GPU
//          finds all of it queued: 0→1 is the GPU's own time for the start
//          after the idle period (a waiting stream may keep the GPU from
//          idling as deeply).
//
//   make -f mk/cuda.mk cuda && bin/launch-idle      (mk/cuda.mk builds every scripts/*.cu)
#include <stdint.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "measure.cuh"

namespace {

__global__ void One(unsigned long long* x) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *x += 1;
}

__global__ void ScanLike(const uint32_t* __restrict__ a, int64_t words, unsigned long long* sink) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  uint32_t acc = 0;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) acc |= a[w];
  if (acc == 0xdeadbeefu) atomicAdd(sink, 1ull);  // never true: keeps the loads
}

// Spin busy-waits for us microseconds on the host's clock.
void Spin(double us) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() < us) {
  }
}

// Gate blocks the stream it is enqueued on (a host function) until
// gate_open is set.
std::atomic<int> gate_open{0};
void CUDART_CB Gate(void*) {
  while (gate_open.load() == 0) std::this_thread::yield();
}

}  // namespace

int main() {
  const cudaDeviceProp prop = Device0();
  const ResetBitmaps r;
  unsigned long long* x;
  CHECK(cudaMalloc(&x, 8));
  cudaStream_t s, s2;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t ev[4], gate;
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  CHECK(cudaEventCreateWithFlags(&gate, cudaEventDisableTiming));
  const int blocks = prop.multiProcessorCount * 8, tpb = 256;
  printf("%s, %d SMs; medians of the tries (µs)\n", prop.name, prop.multiProcessorCount);
  printf("%6s %10s %6s %10s %10s %10s %12s %12s\n", "idle", "ms", "tries", "start", "scan", "launch", "host enqueue",
         "first call");
  const char* modes[] = {"sleep", "spin", "gated"};
  const double idles[] = {0, 10, 200, 2000};
  for (double idle : idles) {
    const int tries = idle >= 200 ? 11 : 21;
    std::vector<double> t01[3], t12[3], t23[3], host[3], first[3];
    for (int k = 0; k <= tries; ++k) {
      for (int m = 0; m < 3; ++m) {
        if (m == 2) {
          gate_open.store(0);
          CHECK(cudaLaunchHostFunc(s2, Gate, nullptr));
          CHECK(cudaEventRecord(gate, s2));
          CHECK(cudaStreamWaitEvent(s, gate, 0));
        }
        if (m == 1) {
          Spin(1e3 * idle);
        } else {
          Idle(1e3 * idle);  // idle is in ms
        }
        const auto h0 = std::chrono::steady_clock::now();
        CHECK(cudaEventRecord(ev[0], s));
        const auto h01 = std::chrono::steady_clock::now();
        r.Launch(blocks, tpb, s);
        One<<<1, 32, 0, s>>>(x);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev[1], s));
        ScanLike<<<blocks, tpb, 0, s>>>(r.a, kResetWords, x);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev[2], s));
        One<<<1, 32, 0, s>>>(x);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev[3], s));
        const auto h1 = std::chrono::steady_clock::now();
        if (m == 2) gate_open.store(1);
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaStreamSynchronize(s2));
        if (k == 0) continue;  // the first try of each idle time is a warm-up
        float ms[3];
        for (int i = 0; i < 3; ++i) CHECK(cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]));
        t01[m].push_back(1e3 * ms[0]);
        t12[m].push_back(1e3 * ms[1]);
        t23[m].push_back(1e3 * ms[2]);
        host[m].push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
        first[m].push_back(std::chrono::duration<double, std::micro>(h01 - h0).count());
      }
    }
    for (int m = 0; m < 3; ++m) {
      printf("%6s %10g %6d %10.1f %10.1f %10.1f %12.1f %12.1f\n", modes[m], idle, tries, Median(t01[m]),
             Median(t12[m]), Median(t23[m]), Median(host[m]), Median(first[m]));
    }
  }
  CHECK(cudaFree(x));
  return 0;
}
