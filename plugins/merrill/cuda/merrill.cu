// merrill.cu: the CUDA backend of the merrill variant (C ABI in merrill.h).
//
// [1] = [Mitsuishi], Algorithm 2, on p partitions 1D by destination; the
// gathering of [2] = [Merrill], written once in
// harness/cuda/include/bfsb_gather.cuh (both cited in docs/papers.md).
//
// Data of partition i (owning the vertices [lo, hi), nloc = hi - lo), with
// the paper's names:
//   rowptr, col  CSR of the edges (u -> v) with v owned: rowptr over every
//                u (n+1 int64), col the local v (uint32)
//   Label        int64 parents, -1 unvisited (the paper's 8-byte vector-type
//                array, copied to the host by mg_parents as it is)
//   Visited      uint8, 1 visited
//   Vector       uint32 parent candidates, kNone = -1. The paper's Vector
//                is 8 bytes; 32-bit ids suffice below 2^32 vertices and
//                halve the random writes of the scatter.
//   Queue[2]     uint32 global ids of the own frontier: Queue[cur] is read
//                by every partition this level, Queue[cur^1] is written by
//                ConvertVtoQ (double buffered, since others may still read
//                the current one)
//   recv[2]      receive buffers of the peer copies (UVA-MCP in [1])
//   flags        uint8, 1 for the vertices UpdateLabels visited this
//                level: ConvertVtoQ's input
//
// A level (mg_level) on partition i, on its compute stream `comp`:
//   Vector <- -1                         (Algorithm 2 line "Initialize Vector_i")
//   GatherNeighbors over Queue_j for j in the circular left-right order,
//     own first (§5.3, Fig. 4); each remote queue is copied by
//     cudaMemcpyPeerAsync on the copy stream into recv[k&1] while comp
//     gathers the previous one; comp waits on the copy's event, the copy
//     stream on the gather that last read the buffer (events, no device
//     synchronisation). [1] synchronises both streams with
//     cudaStreamSynchronize after each kernel and copy; events give the
//     same order without stalling the host.
//   [huge_lists] bfsb::HugeKernel: the lists of at least bfsb::kHuge edges,
//     which the gathers queued instead of expanding them, in chunks over
//     the whole GPU (not in [1] or [2]: bfsb_gather.cuh)
//   UpdateLabels (§5.4.1), which also sums the new vertices' degrees;
//   ConvertVtoQ (§5.4.2): the scan of the flags and the enqueue in one
//     pass (bfsb::SelectIndices). [1] scans, then enqueues; that second
//     pass over Vector, with a same-address atomicAdd per warp for the
//     degrees, made a large level's ConvertVtoQ several times a small
//     level's.

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "bfsb_abi.h"
#include "bfsb_check.cuh"
#include "bfsb_gather.cuh"
#include "bfsb_scan.cuh"
#include "bfsb_warp.cuh"
#include "merrill.h"

namespace {

constexpr int kThreads = 256;          // threads per block of every kernel
constexpr uint32_t kNone = 0xffffffffu;  // Vector's -1
constexpr int kMaxParts = 64;

using Gather = bfsb::BlockGather<kThreads, uint32_t, int64_t>;
using HugeQueue = bfsb::HugeQueue<uint32_t>;

// WarpSum64 is the sum of x over the warp, to every lane.
__device__ __forceinline__ unsigned long long WarpSum64(unsigned long long x) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(bfsb::kFullWarp, x, off);
  return x;
}

// ScatterParent is Algorithm 2's inner statement Vector_i[C[offset]] <- u
// (scattering parents, Fig. 3): several u writing one v leave one of them,
// any of which is a valid parent, with no sort and no filter. With check
// set it first reads Visited[v] and skips visited v (not in [1]: fewer
// random writes once most vertices are visited).
struct ScatterParent {
  uint32_t* vec;
  const uint8_t* visited;
  bool check;
  __device__ __forceinline__ void operator()(uint32_t u, int64_t, uint32_t v) const {
    if (check && visited[v]) return;
    vec[v] = u;
  }
};

// HugeScatter is ScatterParent as bfsb::HugeKernel's visitor.
struct HugeScatter {
  ScatterParent f;
  __device__ __forceinline__ void operator()(uint32_t u, uint32_t v, uint32_t& /*acc*/) const { f(u, 0, v); }
  __device__ __forceinline__ void Flush(uint32_t /*acc*/) const {}
};

// GatherKernel is GatherNeighbors for one queue (scatter_parents). The
// Merrill gather leaves the lists of at least bfsb::kHuge edges to
// bfsb::HugeKernel where hq.lists is set (huge_lists).
template <bool kMerrill>
__global__ void __launch_bounds__(kThreads) GatherKernel(const uint32_t* __restrict__ queue, uint32_t qlen,
                                                         const int64_t* __restrict__ rowptr,
                                                         const uint32_t* __restrict__ col, uint32_t* vec,
                                                         const uint8_t* __restrict__ visited, int check,
                                                         HugeQueue hq) {
  __shared__ Gather::Storage smem;
  Gather g(smem);
  const ScatterParent f{vec, visited, check != 0};
  for (uint32_t base = blockIdx.x * kThreads; base < qlen; base += gridDim.x * kThreads) {
    const uint32_t i = base + threadIdx.x;
    bool active = i < qlen;
    const uint32_t u = active ? queue[i] : 0;
    const int64_t b = active ? rowptr[u] : 0, e = active ? rowptr[u + 1] : 0;
    if (kMerrill) {
      if (active && hq.Take(u, b, e)) active = false;
      g.ForEachEdge(active, u, b, e, col, f);
    } else {
      bfsb::ThreadGather(active, u, b, e, col, f);
    }
  }
}

// AppendEdge is the expansion of Merrill's expand-contract BFS [2]: each
// neighbour not yet visited is appended, with its parent, to the edge
// queue (one atomic per warp and step).
struct AppendEdge {
  const uint8_t* visited;
  uint2* eq;
  uint32_t* count;
  __device__ __forceinline__ void operator()(bool valid, uint32_t u, int64_t, uint32_t v) const {
    const bool want = valid && !visited[v];
    const uint32_t slot = bfsb::WarpReserve(count, want ? 1u : 0u);
    if (want) eq[slot] = make_uint2(v, u);
  }
};

// AppendEdgeAtomic is AppendEdge for thread_per_vertex (one atomic per edge).
struct AppendEdgeAtomic {
  const uint8_t* visited;
  uint2* eq;
  uint32_t* count;
  __device__ __forceinline__ void operator()(uint32_t u, int64_t, uint32_t v) const {
    if (!visited[v]) eq[atomicAdd(count, 1u)] = make_uint2(v, u);
  }
};

// ExpandKernel is the expansion for one queue (expand_contract).
template <bool kMerrill>
__global__ void __launch_bounds__(kThreads) ExpandKernel(const uint32_t* __restrict__ queue, uint32_t qlen,
                                                         const int64_t* __restrict__ rowptr,
                                                         const uint32_t* __restrict__ col,
                                                         const uint8_t* __restrict__ visited, uint2* eq,
                                                         uint32_t* ecount) {
  __shared__ Gather::Storage smem;
  Gather g(smem);
  for (uint32_t base = blockIdx.x * kThreads; base < qlen; base += gridDim.x * kThreads) {
    const uint32_t i = base + threadIdx.x;
    const bool active = i < qlen;
    const uint32_t u = active ? queue[i] : 0;
    const int64_t b = active ? rowptr[u] : 0, e = active ? rowptr[u + 1] : 0;
    if (kMerrill) {
      g.ForEachEdgeSync(active, u, b, e, col, AppendEdge{visited, eq, ecount});
    } else {
      bfsb::ThreadGather(active, u, b, e, col, AppendEdgeAtomic{visited, eq, ecount});
    }
  }
}

// ContractKernel is the contraction of expand-contract: the first pair to
// claim v (compare-and-swap on Label) sets its parent and enqueues it.
// [2] also culls duplicates with warp and history hashes before the
// visited test; the CAS alone keeps the result exact.
__global__ void __launch_bounds__(kThreads) ContractKernel(const uint2* __restrict__ eq, const uint32_t* ecount,
                                                           int64_t* label, uint8_t* visited,
                                                           const uint32_t* __restrict__ deg, int64_t lo,
                                                           uint32_t* queue, uint32_t* qcount,
                                                           unsigned long long* edges) {
  const uint32_t n = *ecount;
  for (uint32_t base = blockIdx.x * kThreads; base < n; base += gridDim.x * kThreads) {
    const uint32_t i = base + threadIdx.x;
    bool claim = false;
    uint32_t v = 0;
    if (i < n) {
      const uint2 pr = eq[i];
      v = pr.x;
      if (!visited[v] &&
          atomicCAS(reinterpret_cast<unsigned long long*>(&label[v]), ~0ull, (unsigned long long)pr.y) == ~0ull) {
        visited[v] = 1;
        claim = true;
      }
    }
    const uint32_t slot = bfsb::WarpReserve(qcount, claim ? 1u : 0u);
    if (claim) queue[slot] = (uint32_t)(lo + v);
    const unsigned long long s = WarpSum64(claim ? deg[v] : 0);
    if (bfsb::LaneId() == 0 && s != 0) atomicAdd(edges, s);
  }
}

// UpdateKernel is UpdateLabels (§5.4.1). Algorithm 2 as printed tests
// "Vector[id] is not negative" and then updates Label in the else branch,
// which would copy -1; §5.4.1's text is what is meant and what this does:
// a gathered, unvisited id takes its Label and Visited; a gathered, visited
// id has its Vector entry reset so that ConvertVtoQ skips it. flags[id] is
// 1 for the new vertices (ConvertVtoQ's input). With reset set it also
// sets the new vertices' entries back to -1, so that no memset is needed
// at the next level. The new vertices' full degrees (the next level's
// edges examined) are summed by the block and added to *edges once.
__global__ void __launch_bounds__(kThreads) UpdateKernel(uint32_t* vec, int64_t* label, uint8_t* visited,
                                                         uint8_t* flags, const uint32_t* __restrict__ deg,
                                                         int64_t nloc, unsigned long long* edges, int reset) {
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  unsigned long long d = 0;
  for (int64_t id = blockIdx.x * (int64_t)kThreads + threadIdx.x; id < nloc; id += (int64_t)gridDim.x * kThreads) {
    const uint32_t c = vec[id];
    uint8_t f = 0;
    if (c != kNone) {
      if (visited[id]) {
        vec[id] = kNone;
      } else {
        label[id] = c;
        visited[id] = 1;
        f = 1;
        d += deg[id];
        if (reset) vec[id] = kNone;
      }
    }
    flags[id] = f;
  }
  d = Reduce(tmp).Sum(d);
  if (threadIdx.x == 0 && d != 0) atomicAdd(edges, d);
}

// SetRootKernel is Algorithm 2's initialisation on the root's owner.
__global__ void SetRootKernel(int64_t* label, uint8_t* visited, uint32_t* queue, int64_t lroot, int64_t root) {
  label[lroot] = root;
  visited[lroot] = 1;
  queue[0] = (uint32_t)root;
}

// FloorKernel is the measured floor: one Merrill gather of every adjacency
// list of the partition, scattering parents (no queue is read: u is the
// thread's index), the longest through bfsb::HugeKernel as a search's
// levels take them (huge_lists). Every edge of a search's component is
// gathered once over its levels, so no scatter-parents search can do less.
// With visited_check the scatter tests Visited first, and mg_floor sets
// every vertex visited: each edge is then read and tested and nothing is
// written, the least a search that skips visited targets can do per edge
// (it must still write a parent candidate for each target it finds
// unvisited, so this floor is below what any such search reaches).
__global__ void __launch_bounds__(kThreads) FloorKernel(int64_t n, const int64_t* __restrict__ rowptr,
                                                        const uint32_t* __restrict__ col, uint32_t* vec,
                                                        HugeQueue hq, ScatterParent f) {
  __shared__ Gather::Storage smem;
  Gather g(smem);
  for (int64_t base = blockIdx.x * (int64_t)kThreads; base < n; base += (int64_t)gridDim.x * kThreads) {
    const int64_t i = base + threadIdx.x;
    bool active = i < n;
    const int64_t b = active ? rowptr[i] : 0, e = active ? rowptr[i + 1] : 0;
    if (active && hq.Take((uint32_t)i, b, e)) active = false;
    g.ForEachEdge(active, (uint32_t)i, b, e, col, f);
  }
}

// GatherTestKernel checks bfsb_gather.cuh: kMode 0 BlockGather::ForEachEdge,
// 1 BlockGather::ForEachEdgeSync, 2 ThreadGather. Each visit counts the
// edge and records its source; a wrong dst is counted in bad.
struct TestVisit {
  const int64_t* rowptr;
  uint32_t* hits;
  uint32_t* srcs;
  uint32_t* bad;
  __device__ __forceinline__ void operator()(uint32_t u, int64_t e, uint32_t v) const {
    atomicAdd(&hits[e], 1u);
    srcs[e] = u;
    if (v != (uint32_t)(e * 7 + 1)) atomicAdd(bad, 1u);
  }
  __device__ __forceinline__ void operator()(bool valid, uint32_t u, int64_t e, uint32_t v) const {
    const uint32_t k = bfsb::WarpSum(valid ? 1u : 0u);  // a collective, as a real visitor may use
    if (k > 32) atomicAdd(bad, 1u);
    if (valid) (*this)(u, e, v);
  }
};

// HugeTestVisit is TestVisit as bfsb::HugeKernel's visitor (dst = 7e + 1
// gives the edge index back).
struct HugeTestVisit {
  TestVisit f;
  __device__ __forceinline__ void operator()(uint32_t u, uint32_t v, uint32_t& acc) const {
    ++acc;
    f(u, (int64_t)((v - 1) / 7), v);
  }
  __device__ __forceinline__ void Flush(uint32_t acc) const {
    if (acc > 1u << 30) atomicAdd(f.bad, 1u);  // uses the accumulator as a visitor may
  }
};

// kMode 3 is kMode 0 with the lists of at least bfsb::kHuge edges queued
// on hq (bfsb::HugeKernel expands them after the launch).
template <int kMode>
__global__ void __launch_bounds__(kThreads) GatherTestKernel(int64_t n, const int64_t* __restrict__ rowptr,
                                                             const uint32_t* __restrict__ col, TestVisit f,
                                                             HugeQueue hq) {
  __shared__ Gather::Storage smem;
  Gather g(smem);
  for (int64_t base = blockIdx.x * (int64_t)kThreads; base < n; base += (int64_t)gridDim.x * kThreads) {
    const int64_t i = base + threadIdx.x;
    bool active = i < n;
    const int64_t b = active ? rowptr[i] : 0, e = active ? rowptr[i + 1] : 0;
    if (kMode == 3 && active && hq.Take((uint32_t)i, b, e)) active = false;
    if (kMode == 0 || kMode == 3) {
      g.ForEachEdge(active, (uint32_t)i, b, e, col, f);
    } else if (kMode == 1) {
      g.ForEachEdgeSync(active, (uint32_t)i, b, e, col, f);
    } else {
      bfsb::ThreadGather(active, (uint32_t)i, b, e, col, f);
    }
  }
}

// Part is one partition's device state.
struct Part {
  int dev = 0;
  int sms = 1;
  int64_t lo = 0, hi = 0, nloc = 0, nnz = 0;
  int64_t* rowptr = nullptr;
  uint32_t* col = nullptr;
  uint32_t* deg = nullptr;
  int64_t* label = nullptr;
  uint8_t* visited = nullptr;
  uint32_t* vec = nullptr;
  uint8_t* flags = nullptr;
  uint32_t* queue[2] = {nullptr, nullptr};
  uint32_t* recv[2] = {nullptr, nullptr};
  uint2* eq = nullptr;
  // [0] queue length, [1] edge-queue length, [2..3] edges (u64), [4..5]
  // the HugeQueue's ctl (u64), [6] its error flag; zeroed every level
  uint32_t* cnt = nullptr;
  uint32_t* hcnt = nullptr;  // pinned copy of cnt
  bfsb::HugeList<uint32_t>* huge = nullptr;  // huge_lists: the HugeQueue's slots
  int64_t huge_cap = 0;
  int huge_grid = 0;  // HugeKernel's blocks: as many as the GPU holds
  cudaStream_t comp = nullptr, copy = nullptr;
  cudaEvent_t start = nullptr, begin = nullptr, gathered = nullptr, updated = nullptr, converted = nullptr;
  cudaEvent_t hstart = nullptr;  // HugeKernel's start (its end: gathered)
  cudaEvent_t kstart[kMaxParts] = {}, kend[kMaxParts] = {}, cstart[kMaxParts] = {}, cend[kMaxParts] = {};
  bfsb::Scratch scratch;
};

struct Handle {
  mg_params p{};
  Part* parts = nullptr;
  int cur = 0;  // the Queue buffer read this level
};

constexpr int kCnt = 8;  // Part::cnt's words
unsigned long long* EdgesOf(Part& P) { return reinterpret_cast<unsigned long long*>(P.cnt + 2); }

// Huge is partition P's HugeQueue where the handle gathers with huge_lists,
// else one with no slots (the gathers then queue nothing).
HugeQueue Huge(Part& P) {
  return HugeQueue{P.huge, P.huge_cap, reinterpret_cast<unsigned long long*>(P.cnt + 4), P.cnt + 6, 1u};
}

int Blocks(const Part& P, int64_t work) {
  const int64_t b = (work + kThreads - 1) / kThreads;
  return (int)std::max<int64_t>(1, std::min<int64_t>(b, (int64_t)P.sms * 8));
}

// Sec stores the time from event a to event b in *s, in seconds.
cudaError_t Sec(cudaEvent_t a, cudaEvent_t b, double* s) {
  float ms = 0;
  const cudaError_t e = cudaEventElapsedTime(&ms, a, b);
  *s = ms * 1e-3;
  return e;
}

// FloorPasses times reps passes of FloorKernel on P (after one warm-up).
int32_t FloorPasses(Part& P, int64_t n, uint32_t* vec, bool check, int reps, double* sec, char* err,
                    int32_t errlen) {
  const ScatterParent f{vec, P.visited, check};
  if (check && P.nloc > 0) BFSB_CHECK(cudaMemsetAsync(P.visited, 1, (size_t)P.nloc, P.comp));  // all visited
  for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up
    if (P.nloc > 0) BFSB_CHECK(cudaMemsetAsync(vec, 0xff, (size_t)P.nloc * sizeof(uint32_t), P.comp));
    BFSB_CHECK(cudaMemsetAsync(P.cnt, 0, kCnt * sizeof(uint32_t), P.comp));
    BFSB_CHECK(cudaEventRecord(P.start, P.comp));
    FloorKernel<<<Blocks(P, n), kThreads, 0, P.comp>>>(n, P.rowptr, P.col, vec, Huge(P), f);
    BFSB_CHECK_LAUNCH("FloorKernel");
    if (P.huge != nullptr) {
      bfsb::HugeKernel<kThreads><<<P.huge_grid, kThreads, 0, P.comp>>>(Huge(P), P.col, HugeScatter{f});
      BFSB_CHECK_LAUNCH("HugeKernel");
    }
    BFSB_CHECK(cudaEventRecord(P.begin, P.comp));
    BFSB_CHECK(cudaEventSynchronize(P.begin));
    if (r > 0) BFSB_CHECK(Sec(P.start, P.begin, &sec[r - 1]));
  }
  return 0;
}

void FreePart(Part& P) {
  if (cudaSetDevice(P.dev) != cudaSuccess) return;
  void* ptrs[] = {P.rowptr, P.col, P.deg, P.label, P.visited, P.vec, P.flags, P.queue[0], P.queue[1],
                  P.recv[0], P.recv[1], P.eq, P.cnt, P.huge};
  for (void* x : ptrs) {
    if (x != nullptr) cudaFree(x);
  }
  if (P.hcnt != nullptr) cudaFreeHost(P.hcnt);
  cudaEvent_t evs[] = {P.start, P.begin, P.gathered, P.updated, P.converted, P.hstart};
  for (cudaEvent_t e : evs) {
    if (e != nullptr) cudaEventDestroy(e);
  }
  for (int k = 0; k < kMaxParts; ++k) {
    cudaEvent_t ks[] = {P.kstart[k], P.kend[k], P.cstart[k], P.cend[k]};
    for (cudaEvent_t e : ks) {
      if (e != nullptr) cudaEventDestroy(e);
    }
  }
  if (P.comp != nullptr) cudaStreamDestroy(P.comp);
  if (P.copy != nullptr) cudaStreamDestroy(P.copy);
  P.scratch.Free();
}

void Destroy(Handle* h) {
  if (h == nullptr) return;
  if (h->parts != nullptr) {
    for (int64_t i = 0; i < h->p.nparts; ++i) FreePart(h->parts[i]);
    delete[] h->parts;
  }
  delete h;
}

int32_t Create(const mg_params* p, const int32_t* devices, const int64_t* lo, const int64_t* nnz, Handle* h,
               char* err, int32_t errlen) {
  const int np = (int)p->nparts;
  h->parts = new Part[np];
  int ndev = 0;
  BFSB_CHECK(cudaGetDeviceCount(&ndev));
  for (int i = 0; i < np; ++i) {
    BFSB_REQUIRE(devices[i] >= 0 && devices[i] < ndev, "partition %d: device %d, the runtime sees %d", i,
                 devices[i], ndev);
    h->parts[i].dev = devices[i];
  }
  // Peer access between distinct devices (UVA-MAP in [1]); peer copies use
  // it when present and are staged by the driver otherwise.
  for (int i = 0; i < np; ++i) {
    for (int j = 0; j < np; ++j) {
      const int a = h->parts[i].dev, b = h->parts[j].dev;
      if (a == b) continue;
      int can = 0;
      BFSB_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) {
        BFSB_REQUIRE(p->peer == 0,
                     "peer = access: device %d cannot access device %d's memory (cudaDeviceCanAccessPeer = 0); "
                     "use peer = copy",
                     a, b);
        continue;
      }
      BFSB_CHECK(cudaSetDevice(a));
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();
      } else {
        BFSB_CHECK(e);
      }
    }
  }
  int64_t maxloc = 0;
  for (int i = 0; i < np; ++i) maxloc = std::max(maxloc, lo[i + 1] - lo[i]);
  const size_t n1 = (size_t)(p->n + 1);
  for (int i = 0; i < np; ++i) {
    Part& P = h->parts[i];
    P.lo = lo[i];
    P.hi = lo[i + 1];
    P.nloc = P.hi - P.lo;
    P.nnz = nnz[i];
    const size_t nl = (size_t)std::max<int64_t>(P.nloc, 1);
    BFSB_CHECK(cudaSetDevice(P.dev));
    BFSB_CHECK(cudaDeviceGetAttribute(&P.sms, cudaDevAttrMultiProcessorCount, P.dev));
    BFSB_CHECK(cudaMalloc(&P.rowptr, n1 * sizeof(int64_t)));
    BFSB_CHECK(cudaMalloc(&P.col, (size_t)std::max<int64_t>(P.nnz, 1) * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&P.deg, nl * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&P.label, nl * sizeof(int64_t)));
    BFSB_CHECK(cudaMalloc(&P.visited, nl));
    BFSB_CHECK(cudaMalloc(&P.queue[0], nl * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&P.queue[1], nl * sizeof(uint32_t)));
    if (np > 1 && p->peer == 0) {
      BFSB_CHECK(cudaMalloc(&P.recv[0], (size_t)maxloc * sizeof(uint32_t)));
      BFSB_CHECK(cudaMalloc(&P.recv[1], (size_t)maxloc * sizeof(uint32_t)));
    }
    if (p->expand == MG_EXPAND_SCATTER) {
      BFSB_CHECK(cudaMalloc(&P.vec, nl * sizeof(uint32_t)));
      BFSB_CHECK(cudaMalloc(&P.flags, nl));
    } else {
      BFSB_REQUIRE(P.nnz < (int64_t)0xffffffffLL, "expand_contract: partition %d has %lld edges, at most 2^32-1",
                   i, (long long)P.nnz);
      BFSB_CHECK(cudaMalloc(&P.eq, (size_t)std::max<int64_t>(P.nnz, 1) * sizeof(uint2)));
    }
    BFSB_CHECK(cudaMalloc(&P.cnt, kCnt * sizeof(uint32_t)));
    BFSB_CHECK(cudaHostAlloc(&P.hcnt, kCnt * sizeof(uint32_t), cudaHostAllocDefault));
    // The HugeQueue: the floor gathers every list of the partition once, a
    // level each of its queues' lists, and each vertex is in one queue.
    if (p->huge_lists != 0 && p->gather == MG_GATHER_MERRILL && p->expand == MG_EXPAND_SCATTER) {
      P.huge_cap = HugeQueue::Cap(P.nnz);
      BFSB_CHECK(cudaMalloc(&P.huge, (size_t)P.huge_cap * sizeof(*P.huge)));
      int per_sm = 0;
      BFSB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, bfsb::HugeKernel<kThreads, uint32_t, uint32_t, HugeScatter>, kThreads, 0));
      P.huge_grid = P.sms * std::max(1, per_sm);
    }
    // Size the scratch of ConvertVtoQ's compaction (flags all zero: it
    // selects nothing) before the search, which allocates nothing.
    if (P.flags != nullptr && P.nloc > 0) {
      BFSB_CHECK(cudaMemset(P.flags, 0, nl));
      BFSB_CHECK(bfsb::SelectIndices(P.scratch, (uint32_t)P.lo, P.flags, P.queue[1], P.cnt, (int)P.nloc,
                                     (cudaStream_t)0));
    }
    BFSB_CHECK(cudaStreamCreateWithFlags(&P.comp, cudaStreamNonBlocking));
    BFSB_CHECK(cudaStreamCreateWithFlags(&P.copy, cudaStreamNonBlocking));
    cudaEvent_t* evs[] = {&P.start, &P.begin, &P.gathered, &P.updated, &P.converted, &P.hstart};
    for (cudaEvent_t* e : evs) BFSB_CHECK(cudaEventCreate(e));
    for (int k = 0; k < np; ++k) {
      BFSB_CHECK(cudaEventCreate(&P.kstart[k]));
      BFSB_CHECK(cudaEventCreate(&P.kend[k]));
      BFSB_CHECK(cudaEventCreate(&P.cstart[k]));
      BFSB_CHECK(cudaEventCreate(&P.cend[k]));
    }
    // The scratch-sizing compaction above ran on the legacy stream; the
    // search runs on non-blocking streams.
    BFSB_CHECK(cudaDeviceSynchronize());
  }
  return 0;
}

}  // namespace

extern "C" {

int32_t mg_abi_version(void) { return MG_ABI_VERSION; }

int32_t mg_create(const mg_params* p, const int32_t* devices, const int64_t* lo, const int64_t* nnz, void** out,
                  char* err, int32_t errlen) {
  *out = nullptr;
  BFSB_REQUIRE(p->nparts >= 1 && p->nparts <= kMaxParts, "nparts = %lld, want 1..%d", (long long)p->nparts,
               kMaxParts);
  BFSB_REQUIRE(p->n >= 1 && p->n < (int64_t)0xffffffffLL, "n = %lld, want 1..2^32-2", (long long)p->n);
  for (int64_t i = 0; i < p->nparts; ++i) {
    BFSB_REQUIRE(lo[i] <= lo[i + 1] && lo[i + 1] - lo[i] < (int64_t)0x7fffffffLL, "bad range of partition %lld",
                 (long long)i);
  }
  BFSB_REQUIRE(lo[0] == 0 && lo[p->nparts] == p->n, "ranges must cover [0, n)");
  Handle* h = new Handle;
  h->p = *p;
  const int32_t st = Create(p, devices, lo, nnz, h, err, errlen);
  if (st != 0) {
    Destroy(h);
    return st;
  }
  *out = h;
  return 0;
}

int32_t mg_load(void* hv, int32_t part, const int64_t* rowptr, const uint32_t* col, const uint32_t* deg,
                char* err, int32_t errlen) {
  Handle* h = static_cast<Handle*>(hv);
  BFSB_REQUIRE(part >= 0 && part < h->p.nparts, "partition %d out of range", part);
  Part& P = h->parts[part];
  BFSB_CHECK(cudaSetDevice(P.dev));
  BFSB_CHECK(cudaMemcpy(P.rowptr, rowptr, (size_t)(h->p.n + 1) * sizeof(int64_t), cudaMemcpyHostToDevice));
  if (P.nnz > 0) BFSB_CHECK(cudaMemcpy(P.col, col, (size_t)P.nnz * sizeof(uint32_t), cudaMemcpyHostToDevice));
  if (P.nloc > 0) BFSB_CHECK(cudaMemcpy(P.deg, deg, (size_t)P.nloc * sizeof(uint32_t), cudaMemcpyHostToDevice));
  return 0;
}

int32_t mg_reset(void* hv, int64_t root, char* err, int32_t errlen) {
  Handle* h = static_cast<Handle*>(hv);
  BFSB_REQUIRE(root >= 0 && root < h->p.n, "root %lld out of range", (long long)root);
  h->cur = 0;
  for (int64_t i = 0; i < h->p.nparts; ++i) {
    Part& P = h->parts[i];
    BFSB_CHECK(cudaSetDevice(P.dev));
    if (P.nloc == 0) continue;
    BFSB_CHECK(cudaMemsetAsync(P.label, 0xff, (size_t)P.nloc * sizeof(int64_t), P.comp));
    BFSB_CHECK(cudaMemsetAsync(P.visited, 0, (size_t)P.nloc, P.comp));
    if (P.vec != nullptr) BFSB_CHECK(cudaMemsetAsync(P.vec, 0xff, (size_t)P.nloc * sizeof(uint32_t), P.comp));
    if (root >= P.lo && root < P.hi) {
      SetRootKernel<<<1, 1, 0, P.comp>>>(P.label, P.visited, P.queue[0], root - P.lo, root);
      BFSB_CHECK_LAUNCH("SetRootKernel");
    }
  }
  // Other partitions read the root's queue from their own streams.
  for (int64_t i = 0; i < h->p.nparts; ++i) {
    BFSB_CHECK(cudaSetDevice(h->parts[i].dev));
    BFSB_CHECK(cudaStreamSynchronize(h->parts[i].comp));
  }
  return 0;
}

int32_t mg_level(void* hv, const int32_t* order, const int64_t* qlen, int64_t* next_qlen, int64_t* next_edges,
                 double* times, char* err, int32_t errlen) {
  Handle* h = static_cast<Handle*>(hv);
  const mg_params& p = h->p;
  const int np = (int)p.nparts;
  const int cur = h->cur, nxt = cur ^ 1;
  const bool merrill = p.gather == MG_GATHER_MERRILL;
  const bool scatter = p.expand == MG_EXPAND_SCATTER;
  for (int i = 0; i < np; ++i) {
    Part& P = h->parts[i];
    BFSB_REQUIRE(order[i * np] == i, "order of partition %d must start with itself", i);
    BFSB_CHECK(cudaSetDevice(P.dev));
    BFSB_CHECK(cudaEventRecord(P.start, P.comp));
    // Initialize Vector_i to -1 (Algorithm 2), unless ConvertVtoQ did.
    if (scatter && p.vector_reset == 0 && P.nloc > 0) {
      BFSB_CHECK(cudaMemsetAsync(P.vec, 0xff, (size_t)P.nloc * sizeof(uint32_t), P.comp));
    }
    BFSB_CHECK(cudaMemsetAsync(P.cnt, 0, kCnt * sizeof(uint32_t), P.comp));
    BFSB_CHECK(cudaEventRecord(P.begin, P.comp));
    // GatherNeighbors, own queue first, then the circular left-right order.
    for (int k = 0; k < np; ++k) {
      const int j = order[i * np + k];
      BFSB_REQUIRE(j >= 0 && j < np, "order[%d] = %d out of range", i * np + k, j);
      const uint32_t nj = (uint32_t)qlen[j];
      const uint32_t* src = nullptr;
      if (j == i) {
        src = P.queue[cur];
      } else if (p.peer != 0) {
        src = h->parts[j].queue[cur];  // UVA-MAP: read in place
      } else {
        uint32_t* buf = P.recv[k & 1];
        cudaStream_t cs = p.overlap ? P.copy : P.comp;
        // recv[k&1] was last read by the gather of queue k-2 (k-2 >= 1).
        if (p.overlap && k >= 3) BFSB_CHECK(cudaStreamWaitEvent(P.copy, P.kend[k - 2], 0));
        BFSB_CHECK(cudaEventRecord(P.cstart[k], cs));
        if (nj > 0) {
          BFSB_CHECK(cudaMemcpyPeerAsync(buf, P.dev, h->parts[j].queue[cur], h->parts[j].dev,
                                         (size_t)nj * sizeof(uint32_t), cs));
        }
        BFSB_CHECK(cudaEventRecord(P.cend[k], cs));
        if (p.overlap) BFSB_CHECK(cudaStreamWaitEvent(P.comp, P.cend[k], 0));
        src = buf;
      }
      BFSB_CHECK(cudaEventRecord(P.kstart[k], P.comp));
      if (nj > 0) {
        const int blocks = Blocks(P, nj);
        if (scatter) {
          if (merrill) {
            GatherKernel<true><<<blocks, kThreads, 0, P.comp>>>(src, nj, P.rowptr, P.col, P.vec, P.visited,
                                                                (int)p.visited_check, Huge(P));
          } else {
            GatherKernel<false><<<blocks, kThreads, 0, P.comp>>>(src, nj, P.rowptr, P.col, P.vec, P.visited,
                                                                 (int)p.visited_check, Huge(P));
          }
          BFSB_CHECK_LAUNCH("GatherKernel");
        } else {
          if (merrill) {
            ExpandKernel<true><<<blocks, kThreads, 0, P.comp>>>(src, nj, P.rowptr, P.col, P.visited, P.eq,
                                                                P.cnt + 1);
          } else {
            ExpandKernel<false><<<blocks, kThreads, 0, P.comp>>>(src, nj, P.rowptr, P.col, P.visited, P.eq,
                                                                 P.cnt + 1);
          }
          BFSB_CHECK_LAUNCH("ExpandKernel");
        }
      }
      BFSB_CHECK(cudaEventRecord(P.kend[k], P.comp));
    }
    // The lists the gathers queued, over the whole GPU (with huge_lists off
    // they queue none, and nothing is launched).
    BFSB_CHECK(cudaEventRecord(P.hstart, P.comp));
    if (scatter && P.huge != nullptr) {
      bfsb::HugeKernel<kThreads><<<P.huge_grid, kThreads, 0, P.comp>>>(
          Huge(P), P.col, HugeScatter{{P.vec, P.visited, p.visited_check != 0}});
      BFSB_CHECK_LAUNCH("HugeKernel");
    }
    BFSB_CHECK(cudaEventRecord(P.gathered, P.comp));
    if (scatter) {
      if (P.nloc > 0) {
        UpdateKernel<<<Blocks(P, P.nloc), kThreads, 0, P.comp>>>(P.vec, P.label, P.visited, P.flags, P.deg,
                                                                 P.nloc, EdgesOf(P), (int)p.vector_reset);
        BFSB_CHECK_LAUNCH("UpdateKernel");
      }
      BFSB_CHECK(cudaEventRecord(P.updated, P.comp));
      if (P.nloc > 0) {
        BFSB_CHECK(bfsb::SelectIndices(P.scratch, (uint32_t)P.lo, P.flags, P.queue[nxt], P.cnt, (int)P.nloc,
                                       P.comp));
      }
      BFSB_CHECK(cudaEventRecord(P.converted, P.comp));
    } else {
      ContractKernel<<<P.sms * 8, kThreads, 0, P.comp>>>(P.eq, P.cnt + 1, P.label, P.visited, P.deg, P.lo,
                                                         P.queue[nxt], P.cnt, EdgesOf(P));
      BFSB_CHECK_LAUNCH("ContractKernel");
      BFSB_CHECK(cudaEventRecord(P.updated, P.comp));
      BFSB_CHECK(cudaEventRecord(P.converted, P.comp));
    }
    BFSB_CHECK(cudaMemcpyAsync(P.hcnt, P.cnt, kCnt * sizeof(uint32_t), cudaMemcpyDeviceToHost, P.comp));
  }
  for (int i = 0; i < np; ++i) {
    Part& P = h->parts[i];
    BFSB_CHECK(cudaSetDevice(P.dev));
    BFSB_CHECK(cudaStreamSynchronize(P.comp));
    BFSB_CHECK(cudaStreamSynchronize(P.copy));
    next_qlen[i] = P.hcnt[0];
    unsigned long long e = 0, ctl = 0;
    memcpy(&e, P.hcnt + 2, sizeof(e));
    memcpy(&ctl, P.hcnt + 4, sizeof(ctl));
    next_edges[i] = (int64_t)e;
    BFSB_REQUIRE(P.hcnt[6] == 0, "partition %d: %llu long lists queued, room for %lld", i,
                 ctl >> bfsb::kHugeChunkBits, (long long)P.huge_cap);
    double* t = times + (size_t)i * MG_NTIMES;
    double gather = 0, copy = 0, x = 0, span = 0;
    for (int k = 0; k < np; ++k) {
      BFSB_CHECK(Sec(P.kstart[k], P.kend[k], &x));
      gather += x;
      if (order[i * np + k] != i && p.peer == 0) {
        BFSB_CHECK(Sec(P.cstart[k], P.cend[k], &x));
        copy += x;
      }
    }
    BFSB_CHECK(Sec(P.begin, P.gathered, &span));
    BFSB_CHECK(Sec(P.hstart, P.gathered, &x));
    gather += x;
    t[MG_T_GATHER] = gather;
    t[MG_T_COPY] = copy;
    t[MG_T_WAIT] = std::max(0.0, span - gather - (p.overlap ? 0.0 : copy));
    BFSB_CHECK(Sec(P.gathered, P.updated, &t[MG_T_UPDATE]));
    BFSB_CHECK(Sec(P.updated, P.converted, &t[MG_T_CONVERT]));
    BFSB_CHECK(Sec(P.start, P.begin, &t[MG_T_RESET]));
  }
  h->cur = nxt;
  return 0;
}

int32_t mg_parents(void* hv, int64_t* dst, char* err, int32_t errlen) {
  Handle* h = static_cast<Handle*>(hv);
  for (int64_t i = 0; i < h->p.nparts; ++i) {
    Part& P = h->parts[i];
    if (P.nloc == 0) continue;
    BFSB_CHECK(cudaSetDevice(P.dev));
    BFSB_CHECK(cudaMemcpy(dst + P.lo, P.label, (size_t)P.nloc * sizeof(int64_t), cudaMemcpyDeviceToHost));
  }
  return 0;
}

int32_t mg_floor(void* hv, int32_t reps, double* seconds, char* err, int32_t errlen) {
  Handle* h = static_cast<Handle*>(hv);
  BFSB_REQUIRE(reps >= 1, "reps = %d", reps);
  Part& P = h->parts[0];
  BFSB_CHECK(cudaSetDevice(P.dev));
  uint32_t* vec = P.vec;
  if (vec == nullptr) {  // expand_contract has no Vector: borrow a scratch one
    BFSB_CHECK(cudaMalloc(&vec, (size_t)std::max<int64_t>(P.nloc, 1) * sizeof(uint32_t)));
  }
  std::vector<double> sec((size_t)reps);
  // The visited test is the scatter's (expand_contract's floor stays the
  // plain scatter, as before).
  const bool check = h->p.visited_check != 0 && h->p.expand == MG_EXPAND_SCATTER;
  const int32_t st = FloorPasses(P, h->p.n, vec, check, reps, sec.data(), err, errlen);
  if (vec != P.vec) cudaFree(vec);
  if (st != 0) return st;
  std::sort(sec.begin(), sec.end());
  *seconds = sec[sec.size() / 2];
  // Vector is left scattered and Visited set: mg_reset sets both back
  // before a search.
  return 0;
}

int32_t mg_gather_selftest(int32_t device, int64_t n, char* err, int32_t errlen) {
  BFSB_REQUIRE(n >= 1 && n < (1 << 24), "n = %lld", (long long)n);
  BFSB_CHECK(cudaSetDevice(device));
  std::vector<int64_t> rowptr((size_t)n + 1, 0);
  int64_t longest = 0;
  uint64_t x = 88172645463325252ull;
  for (int64_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const int64_t cls = (int64_t)(x % 100), r = (int64_t)((x >> 8) % 100000);
    const int64_t len = cls < 50 ? r % 32 : cls < 80 ? r % kThreads : cls < 98 ? r % (4 * kThreads + 1)
                                                                             : r % (3 * bfsb::kHuge);
    rowptr[(size_t)i + 1] = rowptr[(size_t)i] + len;
    longest = std::max(longest, len);
  }
  const int64_t m = rowptr[(size_t)n];
  std::vector<uint32_t> col((size_t)std::max<int64_t>(m, 1));
  for (int64_t e = 0; e < m; ++e) col[(size_t)e] = (uint32_t)(e * 7 + 1);
  int64_t* drow = nullptr;
  uint32_t *dcol = nullptr, *hits = nullptr, *srcs = nullptr, *bad = nullptr, *ctl = nullptr;
  bfsb::HugeList<uint32_t>* lists = nullptr;
  const int64_t cap = HugeQueue::Cap(m);
  BFSB_CHECK(cudaMalloc(&drow, rowptr.size() * sizeof(int64_t)));
  BFSB_CHECK(cudaMalloc(&dcol, col.size() * sizeof(uint32_t)));
  BFSB_CHECK(cudaMalloc(&hits, col.size() * sizeof(uint32_t)));
  BFSB_CHECK(cudaMalloc(&srcs, col.size() * sizeof(uint32_t)));
  BFSB_CHECK(cudaMalloc(&bad, sizeof(uint32_t)));
  BFSB_CHECK(cudaMalloc(&ctl, 4 * sizeof(uint32_t)));  // the queue's ctl (u64), its error flag
  BFSB_CHECK(cudaMalloc(&lists, (size_t)cap * sizeof(*lists)));
  BFSB_CHECK(cudaMemcpy(drow, rowptr.data(), rowptr.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
  BFSB_CHECK(cudaMemcpy(dcol, col.data(), col.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  std::vector<uint32_t> hh(col.size()), hs(col.size());
  int32_t st = 0;
  for (int mode = 0; mode < 4 && st == 0; ++mode) {
    BFSB_CHECK(cudaMemset(hits, 0, col.size() * sizeof(uint32_t)));
    BFSB_CHECK(cudaMemset(bad, 0, sizeof(uint32_t)));
    BFSB_CHECK(cudaMemset(ctl, 0, 4 * sizeof(uint32_t)));
    const TestVisit f{drow, hits, srcs, bad};
    const HugeQueue hq{lists, cap, reinterpret_cast<unsigned long long*>(ctl), ctl + 2, 1u};
    const int blocks = (int)std::min<int64_t>((n + kThreads - 1) / kThreads, 64);  // several rounds per block
    if (mode == 0) GatherTestKernel<0><<<blocks, kThreads>>>(n, drow, dcol, f, hq);
    if (mode == 1) GatherTestKernel<1><<<blocks, kThreads>>>(n, drow, dcol, f, hq);
    if (mode == 2) GatherTestKernel<2><<<blocks, kThreads>>>(n, drow, dcol, f, hq);
    if (mode == 3) {
      GatherTestKernel<3><<<blocks, kThreads>>>(n, drow, dcol, f, hq);
      bfsb::HugeKernel<kThreads><<<blocks, kThreads>>>(hq, dcol, HugeTestVisit{f});
    }
    BFSB_CHECK_LAUNCH("GatherTestKernel");
    BFSB_CHECK(cudaDeviceSynchronize());
    uint32_t nbad = 0, hctl[4] = {};
    BFSB_CHECK(cudaMemcpy(&nbad, bad, sizeof(uint32_t), cudaMemcpyDeviceToHost));
    BFSB_CHECK(cudaMemcpy(hctl, ctl, sizeof(hctl), cudaMemcpyDeviceToHost));
    if (hctl[2] != 0) st = bfsb::Errf(err, errlen, BFSB_EINTERNAL, "gather mode %d: the HugeQueue overflowed", mode);
    if (mode == 3 && longest >= bfsb::kHuge && hctl[1] == 0 && st == 0) {  // lists << 40: the high word
      st = bfsb::Errf(err, errlen, BFSB_EINTERNAL, "gather mode 3: no list was queued (the test needs some)");
    }
    BFSB_CHECK(cudaMemcpy(hh.data(), hits, hh.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    BFSB_CHECK(cudaMemcpy(hs.data(), srcs, hs.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    if (nbad != 0) st = bfsb::Errf(err, errlen, BFSB_EINTERNAL, "gather mode %d: %u wrong destinations", mode, nbad);
    for (int64_t u = 0; u < n && st == 0; ++u) {
      for (int64_t e = rowptr[(size_t)u]; e < rowptr[(size_t)u + 1]; ++e) {
        if (hh[(size_t)e] != 1 || hs[(size_t)e] != (uint32_t)u) {
          st = bfsb::Errf(err, errlen, BFSB_EINTERNAL,
                          "gather mode %d: edge %lld of row %lld visited %u times, source %u", mode, (long long)e,
                          (long long)u, hh[(size_t)e], hs[(size_t)e]);
          break;
        }
      }
    }
  }
  cudaFree(drow);
  cudaFree(dcol);
  cudaFree(hits);
  cudaFree(srcs);
  cudaFree(bad);
  cudaFree(ctl);
  cudaFree(lists);
  return st;
}

void mg_destroy(void* h) { Destroy(static_cast<Handle*>(h)); }

}  // extern "C"
