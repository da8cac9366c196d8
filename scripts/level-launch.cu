// level-launch.cu: what a level of diropt's 1×1 device loop pays for its
// launches, and what a CUDA graph that launches only the level's own
// direction would pay instead.
//
// The device loop enqueues, for every level, a launch of each direction
// (TopDownKernel and BottomUpKernel), since the host does not know the
// direction the device will choose; the one not chosen returns at once.
// Added to level 3, such a launch cost 3 µs of a search on an H200 at
// scale 25 (results/diropt-1000, "What a launch costs"). This program
// times chains of L levels, each level a grid the size of a bottom-up
// launch (blocks of 256 threads, all resident, each block's thread 0
// writing a word), in these forms:
//
//   one       one launch a level, each a programmatic dependent launch
//             (PDL) of the one before, as the device loop launches them;
//   two       two launches a level, the first returning at once: the
//             device loop's levels (two minus one is an idle launch's price);
//   plain, plain2  one's and two's chains as plain launches (no PDL);
//   graph, graph2  plain's and plain2's chains captured as a CUDA graph;
//   graphpdl, graphpdl2  one's and two's captured (programmatic edges);
//   switch    a CUDA graph whose every level is a SWITCH conditional node
//             (CUDA 12.8) with two bodies, one kernel each, the level's
//             kernel setting the next level's condition on the device
//             (cudaGraphSetConditional), as EndLevel would set the next
//             direction: only the chosen body runs;
//   tail      each level's last block to finish (as EndLevel's) launches
//             the next level's kernel from the device into the tail-launch
//             stream (CUDA 12's dynamic parallelism, CDP2): it runs once
//             the level's grid has ended, and only the chosen kernel is
//             launched (two kernels, the direction alternating by pairs);
//   devgraph  the same with device graph launch: two graphs of one kernel
//             node each, instantiated for device launch, the last block
//             tail-launching (cudaStreamGraphTailLaunch) the next level's.
//
// It prints, for each form, the median over the tries of the chain's
// device time a level (CUDA events around the whole chain), with levels
// that do no work and with levels whose kernels each work 20 µs (less
// the 20 µs: what the launches add to such a level). Built without
// CUDA 12.8's conditional nodes, it leaves out switch; without CUDA 12's
// device runtime (relocatable device code, mk/cuda.mk), tail and devgraph.
// After each chain of tail and devgraph it checks that every level ran
// (a count the last blocks keep) and that no device launch failed.
//
//   make -f mk/cuda.mk cuda && bin/level-launch      (mk/cuda.mk builds every scripts/*.cu)
#include <stdint.h>

#include <functional>
#include <string>
#include <vector>

#include "measure.cuh"

namespace {

constexpr int kThreads = 256;
constexpr int kLevels = 64;
constexpr int kTries = 30;

// g_work_ns is how long a level's kernel works (each block's thread 0
// spinning on the global timer): 0, then kWorkNs.
__device__ uint64_t g_work_ns;
constexpr uint64_t kWorkNs = 20000;

// Work spins thread 0 of the block for g_work_ns.
__device__ void Work() {
  if (threadIdx.x != 0 || g_work_ns == 0) return;
  uint64_t t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); while (t - t0 < g_work_ns);
}

// Level is a level's launch: each block's thread 0 writes its word.
__global__ void __launch_bounds__(1024, 1) Level(uint32_t* words, uint32_t level) {
  PdlWaitThenLet();
  Work();
  if (threadIdx.x == 0) words[blockIdx.x] = level;
}

// Idle is the launch of the direction a level did not take.
__global__ void __launch_bounds__(1024, 1) Idle(uint32_t* words, uint32_t level) {
  PdlWaitThenLet();
  if (level == 0xffffffffu) words[blockIdx.x] = level;  // never: keeps the argument
}

// Chain times one chain (enqueue, between two events) in ms.
template <typename Enqueue>
double Chain(cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1, Enqueue enqueue) {
  CHECK(cudaEventRecord(e0, s));
  enqueue();
  CHECK(cudaEventRecord(e1, s));
  CHECK(cudaEventSynchronize(e1));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  return ms;
}

// Capture returns enqueue's launches on s as an instantiated CUDA graph.
template <typename Enqueue>
cudaGraphExec_t Capture(cudaStream_t s, Enqueue enqueue) {
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  enqueue();
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiateWithFlags(&x, g, 0));
  CHECK(cudaGraphDestroy(g));
  return x;
}

#if CUDART_VERSION >= 12000
// Dir is the direction the chains take at level l: alternating by pairs.
constexpr __host__ __device__ unsigned Dir(int l) { return (unsigned)((l / 2) & 1); }
#endif

#if CUDART_VERSION >= 12000 && defined(__CUDACC_RDC__)
#define LEVEL_LAUNCH_DEVICE 1
// Tally is what the tail and devgraph chains keep on the device: the
// blocks of the running level that arrived (the last one decides, as
// EndLevel), the levels that ran, the level the devgraph chain is at
// (its graphs' kernel arguments are fixed), the first failed device
// launch's error, and the two graphs.
struct Tally {
  unsigned arrived;
  unsigned levels;
  unsigned level;
  int err;
  cudaGraphExec_t graph[2];
};

// Arrive counts the block in; it returns true in the level's last block
// (thread 0), after resetting the count for the next level.
__device__ bool Arrive(Tally* t) {
  __syncthreads();
  if (threadIdx.x != 0) return false;
  __threadfence();
  if (atomicAdd(&t->arrived, 1) != gridDim.x - 1) return false;
  t->arrived = 0;
  t->levels++;
  return true;
}

// Tail is a level of the tail form, D its direction's kernel.
template <int D>
__global__ void __launch_bounds__(1024, 1) Tail(uint32_t* words, uint32_t level, Tally* t) {
  Work();
  if (threadIdx.x == 0) words[blockIdx.x] = level;
  if (!Arrive(t) || level + 1 >= kLevels) return;
  if (Dir(level + 1) == 0) {
    Tail<0><<<gridDim.x, blockDim.x, 0, cudaStreamTailLaunch>>>(words, level + 1, t);
  } else {
    Tail<1><<<gridDim.x, blockDim.x, 0, cudaStreamTailLaunch>>>(words, level + 1, t);
  }
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess && t->err == 0) t->err = (int)e;
}

// GraphLevel is a level of the devgraph form (the kernel node of both
// graphs): its level is the tally's, which its last block advances.
__global__ void __launch_bounds__(1024, 1) GraphLevel(uint32_t* words, Tally* t) {
  const uint32_t level = t->level;
  Work();
  if (threadIdx.x == 0) words[blockIdx.x] = level;
  if (!Arrive(t)) return;
  if (level + 1 >= kLevels) {
    t->level = 0;  // ready for the next chain
    return;
  }
  t->level = level + 1;
  const cudaError_t e = cudaGraphLaunch(t->graph[Dir(level + 1)], cudaStreamGraphTailLaunch);
  if (e != cudaSuccess && t->err == 0) t->err = (int)e;
}

// DeviceGraph is a graph of one GraphLevel node, instantiated for device
// launch and uploaded.
cudaGraphExec_t DeviceGraph(int grid, uint32_t* words, Tally* t, cudaStream_t s) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  void* args[] = {&words, &t};
  cudaKernelNodeParams k = {};
  k.func = (void*)GraphLevel;
  k.gridDim = dim3(grid);
  k.blockDim = dim3(kThreads);
  k.kernelParams = args;
  cudaGraphNode_t n;
  CHECK(cudaGraphAddKernelNode(&n, g, nullptr, 0, &k));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagDeviceLaunch));
  CHECK(cudaGraphUpload(x, s));
  CHECK(cudaGraphDestroy(g));
  return x;
}

// CheckTally ends the program if the chain just timed left a level out or
// a device launch failed, then clears the count of levels.
void CheckTally(const char* form, Tally* t) {
  Tally h;
  CHECK(cudaMemcpy(&h, t, sizeof h, cudaMemcpyDeviceToHost));
  if (h.err != 0 || h.levels != (unsigned)kLevels) {
    fprintf(stderr, "%s: %u of %d levels ran at the chain's end event; device launch error %d (%s)\n", form,
            h.levels, kLevels, h.err, cudaGetErrorString((cudaError_t)h.err));
    exit(1);
  }
  CHECK(cudaMemset(&t->levels, 0, sizeof h.levels));
}
#endif

#if CUDART_VERSION >= 12080
// Switch is a level's kernel in the switch form: it writes its words, and
// its block 0 sets the next level's condition (next_dir, the direction the
// next level takes) where there is a next level.
__global__ void __launch_bounds__(1024, 1) Switch(uint32_t* words, uint32_t level, cudaGraphConditionalHandle next,
                                                  int has_next, unsigned next_dir) {
  Work();
  if (threadIdx.x == 0) words[blockIdx.x] = level;
  if (has_next && blockIdx.x == 0 && threadIdx.x == 0) cudaGraphSetConditional(next, next_dir);
}

// Start sets level 0's condition.
__global__ void Start(cudaGraphConditionalHandle first, unsigned dir) { cudaGraphSetConditional(first, dir); }

// AddNode is cudaGraphAddNode in the form of the CUDA in use (13 added the
// edges' data).
cudaError_t AddNode(cudaGraphNode_t* node, cudaGraph_t g, const cudaGraphNode_t* deps, size_t n,
                    cudaGraphNodeParams* p) {
#if CUDART_VERSION >= 13000
  return cudaGraphAddNode(node, g, deps, nullptr, n, p);
#else
  return cudaGraphAddNode(node, g, deps, n, p);
#endif
}

// SwitchGraph builds the switch form's chain: Start, then kLevels SWITCH
// nodes of two bodies (0 top-down, 1 bottom-up: the same kernel here),
// the directions alternating by pairs of levels.
cudaGraphExec_t SwitchGraph(int grid, uint32_t* words) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  std::vector<cudaGraphConditionalHandle> h(kLevels);
  for (auto& x : h) CHECK(cudaGraphConditionalHandleCreate(&x, g, 0, 0));
  const auto dir = Dir;
  cudaGraphNode_t prev;
  {
    cudaKernelNodeParams k = {};
    unsigned d0 = dir(0);
    void* args[] = {&h[0], &d0};
    k.func = (void*)Start;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    k.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&prev, g, nullptr, 0, &k));
  }
  for (int l = 0; l < kLevels; ++l) {
    cudaGraphNodeParams c = {};
    c.type = cudaGraphNodeTypeConditional;
    c.conditional.handle = h[l];
    c.conditional.type = cudaGraphCondTypeSwitch;
    c.conditional.size = 2;
    cudaGraphNode_t node;
    CHECK(AddNode(&node, g, &prev, 1, &c));
    for (int b = 0; b < 2; ++b) {
      uint32_t level = (uint32_t)l;
      cudaGraphConditionalHandle next = l + 1 < kLevels ? h[l + 1] : h[l];
      int has_next = l + 1 < kLevels;
      unsigned next_dir = dir(l + 1);
      void* args[] = {&words, &level, &next, &has_next, &next_dir};
      cudaKernelNodeParams k = {};
      k.func = (void*)Switch;
      k.gridDim = dim3(grid);
      k.blockDim = dim3(kThreads);
      k.kernelParams = args;
      cudaGraphNode_t kn;
      CHECK(cudaGraphAddKernelNode(&kn, c.conditional.phGraph_out[b], nullptr, 0, &k));
    }
    prev = node;
  }
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiateWithFlags(&x, g, 0));
  CHECK(cudaGraphDestroy(g));
  return x;
}
#endif

}  // namespace

int main() {
  const cudaDeviceProp prop = Device0();
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Level, kThreads, 0));
  const int grid = per_sm * prop.multiProcessorCount;  // all resident, as a bottom-up launch
  uint32_t* words;
  CHECK(cudaMalloc(&words, 4 * (size_t)grid));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));

  void (*const level)(uint32_t*, uint32_t) = Level;  // typed: LaunchPdl deduces from the pointer
  void (*const idle)(uint32_t*, uint32_t) = Idle;
  const auto one = [&] {
    for (int l = 0; l < kLevels; ++l) CHECK(LaunchPdl(s, grid, kThreads, level, words, (uint32_t)l));
  };
  const auto two = [&] {
    for (int l = 0; l < kLevels; ++l) {
      CHECK(LaunchPdl(s, grid, kThreads, idle, words, (uint32_t)l));
      CHECK(LaunchPdl(s, grid, kThreads, level, words, (uint32_t)l));
    }
  };
  const auto plain = [&] {
    for (int l = 0; l < kLevels; ++l) Level<<<grid, kThreads, 0, s>>>(words, (uint32_t)l);
    CHECK(cudaGetLastError());
  };
  const auto plain2 = [&] {
    for (int l = 0; l < kLevels; ++l) {
      Idle<<<grid, kThreads, 0, s>>>(words, (uint32_t)l);
      Level<<<grid, kThreads, 0, s>>>(words, (uint32_t)l);
    }
    CHECK(cudaGetLastError());
  };
  // The graph forms: the stream forms' chains captured, each launched as
  // one graph (captured programmatic dependent launches become
  // programmatic edges).
  const auto launcher = [&](cudaGraphExec_t x) { return [=] { CHECK(cudaGraphLaunch(x, s)); }; };
  struct Form {
    const char* name;
    std::function<void()> enqueue;
    std::vector<double> ms;
  };
  std::vector<Form> forms = {
      {"one", one, {}},
      {"two", two, {}},
      {"plain", plain, {}},
      {"plain2", plain2, {}},
      {"graph", launcher(Capture(s, plain)), {}},
      {"graph2", launcher(Capture(s, plain2)), {}},
      {"graphpdl", launcher(Capture(s, one)), {}},
      {"graphpdl2", launcher(Capture(s, two)), {}},
  };
#if CUDART_VERSION >= 12080
  forms.push_back({"switch", launcher(SwitchGraph(grid, words)), {}});
#endif
#ifdef LEVEL_LAUNCH_DEVICE
  Tally* tally;
  CHECK(cudaMalloc(&tally, sizeof(Tally)));
  CHECK(cudaMemset(tally, 0, sizeof(Tally)));
  {
    cudaGraphExec_t g[2] = {DeviceGraph(grid, words, tally, s), DeviceGraph(grid, words, tally, s)};
    CHECK(cudaMemcpy(&tally->graph, g, sizeof g, cudaMemcpyHostToDevice));
  }
  cudaGraphExec_t first;  // level 0's graph, to launch from the host
  CHECK(cudaMemcpy(&first, &tally->graph[Dir(0)], sizeof first, cudaMemcpyDeviceToHost));
  const auto tail = [&] {
    Tail<Dir(0)><<<grid, kThreads, 0, s>>>(words, 0, tally);
    CHECK(cudaGetLastError());
  };
  forms.push_back({"tail", tail, {}});
  forms.push_back({"devgraph", launcher(first), {}});
#endif
  printf("%s, %d SMs: chains of %d levels, a grid of %d blocks of %d threads a launch, %d tries\n", prop.name,
         prop.multiProcessorCount, kLevels, grid, kThreads, kTries);
  std::vector<std::vector<double>> us(forms.size());  // [form][pass]: µs a level
  for (const uint64_t work : {uint64_t{0}, kWorkNs}) {
    CHECK(cudaMemcpyToSymbol(g_work_ns, &work, sizeof work));
    for (int t = 0; t < kTries + 1; ++t) {  // the first try warms up and is dropped
      for (auto& f : forms) {
        const double ms = Chain(s, e0, e1, f.enqueue);
#ifdef LEVEL_LAUNCH_DEVICE
        const std::string n = f.name;
        if (n == "tail" || n == "devgraph") CheckTally(f.name, tally);
#endif
        if (t > 0) f.ms.push_back(ms);
      }
    }
    for (size_t i = 0; i < forms.size(); ++i) {
      us[i].push_back(1e3 * Median(forms[i].ms) / kLevels - 1e-3 * (double)work);
      forms[i].ms.clear();
    }
  }
  printf("| form | µs a level (median) | µs a level beyond %.0f µs of work |\n|---|---:|---:|\n", 1e-3 * kWorkNs);
  for (size_t i = 0; i < forms.size(); ++i) printf("| %s | %.2f | %.2f |\n", forms[i].name, us[i][0], us[i][1]);
#if CUDART_VERSION < 12080
  printf("(switch left out: built with CUDA %d, before 12.8's SWITCH nodes)\n", CUDART_VERSION);
#endif
#ifndef LEVEL_LAUNCH_DEVICE
  printf("(tail and devgraph left out: built with CUDA %d, without CUDA 12's device runtime)\n", CUDART_VERSION);
#endif
  return 0;
}
