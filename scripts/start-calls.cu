// start-calls.cu: what the host's runtime calls before a search's level 2
// cost on one GPU after the GPU has been idle, and which of them a search
// could do without.
//
// bin/launch-idle's `gated` rows show that the GPU itself does a search's
// start (the reset's 12 MiB and a launch) in about 8 µs after any idle
// period, while the same work enqueued call by call after an idle period
// takes 45 µs: the host's calls, not the GPU, set the time of a search's
// first levels. This program enqueues what diropt's 1×1 device loop
// enqueues up to level 2 (dob_reset, dob_loop_begin, dob_loop_explore;
// cuda/diropt.cu), with kernels that return at once so that only the
// calls are timed, in five ways:
//
//   now       event 0; reset; per level (0, 1, 2): cudaSetDevice, the
//             top-down and bottom-up launches (programmatic dependent
//             launches, as `pdl`), an event: the calls diropt makes today
//   noset     the same without the cudaSetDevice calls
//   noevent   without the events of levels 0 and 1 (level 2's ends it)
//   lean      without both
//   graph     event 0, then one launch of a CUDA graph holding the reset
//             and the three levels' launches, then level 2's event
//
// and prints, per way, the medians over 15 tries after the host slept
// 300 ms (a validation's idle GPU; launch-idle shows the start's cost
// flat from 200 ms) and after no sleep: the device time from event 0 to
// level 2's event, and the host time of the calls.
//
//   make -f mk/cuda.mk cuda && bin/start-calls      (mk/cuda.mk builds every scripts/*.cu)
#include <stdint.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "measure.cuh"

namespace {

// Explore stands for TopDownKernel and BottomUpKernel on a level that is
// not theirs: a programmatic dependent launch that returns at once.
__global__ void Explore(const int* gate) {
  PdlWaitThenLet();
  if (*gate != 0 && threadIdx.x == 0) __trap();
}

cudaError_t LaunchExplore(cudaStream_t s, const int* gate, int grid) { return LaunchPdl(s, grid, 256, Explore, gate); }

}  // namespace

int main() {
  const cudaDeviceProp prop = Device0();
  const ResetBitmaps r;
  int* gate;
  CHECK(cudaMalloc(&gate, sizeof(int)));
  CHECK(cudaMemset(gate, 0, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t ev0, ev[3];
  CHECK(cudaEventCreate(&ev0));
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  const int grid = prop.multiProcessorCount * 4;  // the reset's and each level's blocks

  // The graph: the reset and three levels' launches, captured once.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  r.Launch(grid, 256, s);
  for (int l = 0; l < 3; ++l) {
    CHECK(LaunchExplore(s, gate, grid));
    CHECK(LaunchExplore(s, gate, grid));
  }
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
  CHECK(cudaGraphUpload(exec, s));
  CHECK(cudaStreamSynchronize(s));

  const char* ways[] = {"now", "noset", "noevent", "lean", "graph"};
  constexpr int kWays = 5, kTries = 15;
  printf("%s, %d SMs; medians of %d tries (µs): event 0 to level 2's event (device), the calls (host)\n", prop.name,
         prop.multiProcessorCount, kTries);
  printf("%8s %8s %10s %10s\n", "way", "idle ms", "device", "host");
  for (double idle : {0.0, 300.0}) {
    std::vector<double> dev[kWays], host[kWays];
    for (int k = 0; k <= kTries; ++k) {
      for (int w = 0; w < kWays; ++w) {
        const bool set = w == 0 || w == 2, events = w == 0 || w == 1;
        Idle(1e3 * idle);
        const auto h0 = std::chrono::steady_clock::now();
        CHECK(cudaEventRecord(ev0, s));
        if (w == 4) {
          CHECK(cudaGraphLaunch(exec, s));
        } else {
          if (set) CHECK(cudaSetDevice(0));
          r.Launch(grid, 256, s);
          for (int l = 0; l < 3; ++l) {
            if (set) CHECK(cudaSetDevice(0));
            CHECK(LaunchExplore(s, gate, grid));
            CHECK(LaunchExplore(s, gate, grid));
            if (events && l < 2) CHECK(cudaEventRecord(ev[l], s));
          }
        }
        CHECK(cudaEventRecord(ev[2], s));
        const auto h1 = std::chrono::steady_clock::now();
        CHECK(cudaStreamSynchronize(s));
        if (k == 0) continue;  // the first try of each way is a warm-up
        float ms;
        CHECK(cudaEventElapsedTime(&ms, ev0, ev[2]));
        dev[w].push_back(1e3 * ms);
        host[w].push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
      }
    }
    for (int w = 0; w < kWays; ++w) {
      printf("%8s %8g %10.1f %10.1f\n", ways[w], idle, Median(dev[w]), Median(host[w]));
    }
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(gate));
  return 0;
}
