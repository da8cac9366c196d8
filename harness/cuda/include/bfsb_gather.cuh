// bfsb_gather.cuh: load-balanced neighbour gathering, written once for the
// bfsbench CUDA libraries (merrill, ueno: BlockGather and the HugeQueue;
// diropt, whose top-down step is [Krajecki]'s warp per in_queue word, the
// HugeQueue for its long lists).
//
// Reference: [Merrill] (docs/papers.md), §4, "neighbor gathering". Each
// thread of a block
// brings at most one adjacency list (a source vertex and its edge range
// [begin, end) in a CSR column array); the block then expands all of them
// with three strategies, by list length:
//
//   1. CTA   lists of >= kThreads edges: the threads holding one compete for
//            the block, the winner's list is read by the whole block
//            (coalesced, kThreads edges a step); repeated until none is left.
//   2. warp  lists of >= 32 edges: the same contest inside each warp (by
//            ballot), the winner's list read by the warp, 32 edges a step.
//   3. scan  the rest (< 32 edges each): a block-wide exclusive scan of the
//            lengths gives each list its ranks in the block's combined
//            leftover; the ranks are packed into shared memory kThreads at a
//            time, and thread t then takes the t-th edge of the window, so
//            that short lists are read as densely as long ones
//            ("fine-grained, scan-based gathering").
//
// ThreadGather is the baseline without balancing (each thread reads its
// own list serially), for ablations (e.g. `gather = thread_per_vertex`).
//
// Lists too long for one block (this project's addition, not Merrill et
// al.'s, who expand a list by one CTA at most): when a level's frontier
// holds a few hubs, a few blocks read 10^5-10^6 edges each while the rest
// of the GPU idles. A gathering kernel that takes lists of at least kHuge
// edges out of BlockGather pushes them on a HugeQueue instead (Take), and
// HugeKernel, launched after it on the same stream, expands every queued
// list in chunks of kHugeChunk edges, one chunk a block step, over the
// whole grid. ueno, merrill and diropt use it (diropt's device loop calls
// HugeExpand, HugeKernel's body, from a kernel it launches anyway).
//
// API (stable; see the example below):
//
//   template <int kThreads, typename V, typename E> class BlockGather
//     kThreads: threads per block, a multiple of 32, at most 1024; the block
//               must be launched with exactly kThreads threads.
//     V: the source-vertex type handed through to the visitor (uint32_t,
//        int64_t, ...); E: the edge-index type (int64_t for offsets past
//        2^32, uint32_t otherwise). Lists must be shorter than 2^31 edges.
//     Storage: the shared memory it needs (kThreads * (sizeof(E) + sizeof(V))
//              plus a few words); declare one `__shared__` per block.
//
//     ForEachEdge(active, src, begin, end, col, visit)
//        calls visit(src, e, col[e]) exactly once for every edge index e of
//        every active thread's list [begin, end), on some thread of the
//        block, in no defined order. Only threads with a valid edge call the
//        visitor, so it must not use warp-synchronous collectives; use
//        plain atomics there.
//     ForEachEdgeSync(active, src, begin, end, col, visit)
//        the same, but visit(valid, src, e, dst) is called by all 32 lanes of
//        a warp together (valid false: src/e/dst meaningless, do nothing but
//        take part), so the visitor may use bfsb_warp.cuh collectives
//        (WarpReserve, WarpAppend) to append what it finds.
//
//   ThreadGather(active, src, begin, end, col, visit)
//        the serial baseline: visit(src, e, col[e]) for the thread's own list.
//
// Both BlockGather calls are block-synchronous (they contain __syncthreads):
// every thread of the block must call them, the same number of times, so a
// grid-stride loop over a queue must be block-uniform (step the block's
// base, and pass active = false past the end of the queue). col is read
// through the read-only path (__ldg). The visitor is copied by value; a
// __device__ lambda or a small functor struct both work.
//
// Example (the "scattering parents" gather of the merrill variant: each
// frontier vertex u writes itself as the parent candidate of every neighbour
// it reaches; duplicate writes to one v are harmless, any of them is right):
//
//   struct ScatterParent {            // a functor: mk/cuda.mk builds without
//     int64_t* cand;                  // --extended-lambda, so no __device__ lambdas
//     __device__ void operator()(uint32_t u, int64_t /*e*/, uint32_t v) const {
//       cand[v] = u;                  // Vector_i[v] <- u
//     }
//   };
//   template <int kT>
//   __global__ void Gather(const uint32_t* queue, uint32_t n, const int64_t* rowptr,
//                          const uint32_t* col, int64_t* cand) {
//     using G = bfsb::BlockGather<kT, uint32_t, int64_t>;
//     __shared__ typename G::Storage smem;
//     G g(smem);
//     for (uint32_t base = blockIdx.x * kT; base < n; base += gridDim.x * kT) {
//       const uint32_t i = base + threadIdx.x;   // base is block-uniform
//       const bool active = i < n;
//       const uint32_t u = active ? queue[i] : 0;
//       const int64_t b = active ? rowptr[u] : 0, e = active ? rowptr[u + 1] : 0;
//       g.ForEachEdge(active, u, b, e, col, ScatterParent{cand});
//     }
//   }
//
// (Lambdas defined inside device code, e.g. [&](uint32_t u, int64_t e,
// uint32_t v) { ... } in the kernel body, need no flag and work too.)
#ifndef BFSB_GATHER_CUH
#define BFSB_GATHER_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include <type_traits>

#include "bfsb_warp.cuh"

namespace bfsb {

// ThreadGather calls visit(src, e, col[e]) for e in [begin, end) of this
// thread's own list, serially (no balancing).
template <typename V, typename E, typename Col, typename Visit>
__device__ __forceinline__ void ThreadGather(bool active, V src, E begin, E end,
                                             const Col* __restrict__ col, Visit visit) {
  if (!active) return;
  for (E e = begin; e < end; ++e) visit(src, e, __ldg(&col[e]));
}

// BlockGather is the Merrill CTA + warp + scan gather of one block.
template <int kThreads, typename V, typename E>
class BlockGather {
  static_assert(kThreads % 32 == 0 && kThreads >= 32 && kThreads <= 1024,
                "BlockGather: kThreads must be a multiple of 32 in [32, 1024]");
  static constexpr int kWarps = kThreads / 32;

 public:
  // Storage is the block's shared memory for the gather.
  struct Storage {
    E slot_edge[kThreads];  // scan phase: edge index of window slot t
    V slot_src[kThreads];   // scan phase: its source vertex
    E cta_begin, cta_end;   // CTA phase: the winning list
    V cta_src;
    int owner;                     // CTA phase: the winning thread, -1 for none
    uint32_t warp_total[kWarps];  // scan phase: per-warp sums, then offsets
    uint32_t total;
  };

  __device__ explicit BlockGather(Storage& s) : s_(s) {}

  // ForEachEdge calls visit(src, e, dst) for every edge of every active
  // thread's list, on threads that hold an edge.
  template <typename Col, typename Visit>
  __device__ __forceinline__ void ForEachEdge(bool active, V src, E begin, E end,
                                              const Col* __restrict__ col, Visit visit) {
    Run(active, src, begin, end, col, [&](bool valid, V s, E e, Col d) {
      if (valid) visit(s, e, d);
    });
  }

  // ForEachEdgeSync calls visit(valid, src, e, dst) on all lanes of a warp
  // together; valid says whether this lane holds an edge.
  template <typename Col, typename Visit>
  __device__ __forceinline__ void ForEachEdgeSync(bool active, V src, E begin, E end,
                                                  const Col* __restrict__ col, Visit visit) {
    Run(active, src, begin, end, col, visit);
  }

 private:
  template <typename Col, typename Visit>
  __device__ __forceinline__ void Run(bool active, V src, E begin, E end,
                                      const Col* __restrict__ col, Visit visit) {
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    if (!active) end = begin;

    // 1. CTA: whole-block expansion of lists of at least kThreads edges.
    while (true) {
      if (tid == 0) s_.owner = -1;
      __syncthreads();
      if (end - begin >= (E)kThreads) s_.owner = tid;  // any winner will do
      __syncthreads();
      const int owner = s_.owner;
      if (owner < 0) break;  // block-uniform
      if (tid == owner) {
        s_.cta_src = src;
        s_.cta_begin = begin;
        s_.cta_end = end;
        end = begin;  // handed to the block
      }
      __syncthreads();
      const V csrc = s_.cta_src;
      const E cb = s_.cta_begin, ce = s_.cta_end;
      // s_.cta_* is next written after two more barriers: no barrier here.
      for (E e0 = cb; e0 < ce; e0 += kThreads) {  // block-uniform trip count
        const E e = e0 + tid;
        const bool valid = e < ce;
        visit(valid, csrc, e, valid ? __ldg(&col[e]) : Col(0));
      }
    }

    // 2. Warp: warp-wide expansion of lists of at least 32 edges.
    while (true) {
      const uint32_t want = __ballot_sync(kFullWarp, end - begin >= (E)32);
      if (want == 0) break;  // warp-uniform
      const int leader = __ffs(want) - 1;
      const V wsrc = __shfl_sync(kFullWarp, src, leader);
      const E wb = __shfl_sync(kFullWarp, begin, leader);
      const E we = __shfl_sync(kFullWarp, end, leader);
      if (lane == leader) end = begin;
      for (E e0 = wb; e0 < we; e0 += 32) {  // warp-uniform trip count
        const E e = e0 + lane;
        const bool valid = e < we;
        visit(valid, wsrc, e, valid ? __ldg(&col[e]) : Col(0));
      }
    }

    // 3. Scan: the leftover lists (< 32 edges each) packed densely.
    const uint32_t len = (uint32_t)(end - begin);
    const uint32_t incl = WarpInclusiveSum(len);
    if (lane == 31) s_.warp_total[tid >> 5] = incl;
    __syncthreads();
    if (tid < 32) {
      const uint32_t w = tid < kWarps ? s_.warp_total[tid] : 0;
      const uint32_t wincl = WarpInclusiveSum(w);
      if (tid < kWarps) s_.warp_total[tid] = wincl - w;  // exclusive offsets
      if (tid == 31) s_.total = wincl;
    }
    __syncthreads();
    const uint32_t rank = s_.warp_total[tid >> 5] + incl - len;
    const uint32_t total = s_.total;
    for (uint32_t w = 0; w < total; w += kThreads) {  // block-uniform
      const uint32_t lo = rank > w ? rank : w;
      const uint32_t hi = rank + len < w + kThreads ? rank + len : w + kThreads;
      for (uint32_t r = lo; r < hi; ++r) {
        s_.slot_edge[r - w] = begin + (E)(r - rank);
        s_.slot_src[r - w] = src;
      }
      __syncthreads();
      const bool valid = w + tid < total;
      const E e = valid ? s_.slot_edge[tid] : E(0);
      const V ssrc = valid ? s_.slot_src[tid] : V(0);
      visit(valid, ssrc, e, valid ? __ldg(&col[e]) : Col(0));
      __syncthreads();
    }
  }

  Storage& s_;
};

// Lists of at least kHuge edges go to the HugeQueue; HugeKernel expands
// them kHugeChunk edges a block step. ueno measured kHuge = 4096 at scale 25
// on an H200 (its gathering floor and search); merrill takes the same.
constexpr int64_t kHuge = 4096;
constexpr int64_t kHugeChunk = 1024;
constexpr int kHugeChunkBits = 40;  // HugeQueue::ctl: lists << 40 | chunks

// HugeList is one queued list: its source, its edges [b, e), and its first
// chunk in the queue's chunk numbering.
template <typename V>
struct HugeList {
  int64_t b, e, first;
  V src;
};

// HugeQueue is where a gathering kernel queues the lists of at least kHuge
// edges. One 64-bit atomicAdd on ctl reserves a list's slot and its
// chunks, so the slots are in the order of their chunks (HugeKernel's
// binary search relies on it). ctl must be zero before the pushing launch;
// Cap(edges) slots hold every list of a CSR of that many edges once.
template <typename V>
struct HugeQueue {
  HugeList<V>* lists;
  int64_t cap;
  unsigned long long* ctl;
  uint32_t* error;     // error_bit is or'ed in where a push finds no slot
  uint32_t error_bit;  // (which cannot happen while each list is pushed once)
  // min_edges is the shortest list Take queues: kHuge, or a variant's
  // own threshold (diropt's td_big).
  int64_t min_edges = kHuge;

  // Cap is the slots that hold every list of at least min_edges edges of a
  // CSR of that many edges once.
  static int64_t Cap(int64_t edges, int64_t min_edges = kHuge) { return edges / min_edges + 1; }

  __device__ __forceinline__ void Push(V src, int64_t b, int64_t e) const {
    const int64_t chunks = (e - b + kHugeChunk - 1) / kHugeChunk;
    const unsigned long long old = atomicAdd(ctl, (1ull << kHugeChunkBits) | (unsigned long long)chunks);
    const int64_t at = (int64_t)(old >> kHugeChunkBits);
    if (at >= cap) {
      atomicOr(error, error_bit);
      return;
    }
    lists[at] = HugeList<V>{b, e, (int64_t)(old & ((1ull << kHugeChunkBits) - 1)), src};
  }

  // Take pushes the list [b, e) of src where it has at least min_edges
  // edges and says whether it did; the caller then leaves it out of its
  // own gathering. A queue without slots (lists null) takes nothing.
  __device__ __forceinline__ bool Take(V src, int64_t b, int64_t e) const {
    if (lists == nullptr || e - b < min_edges) return false;
    Push(src, b, e);
    return true;
  }
};

// HugeAcc is a HugeKernel visitor's accumulator: its Acc type where it
// declares one, else uint32_t.
template <class Visit, class = void>
struct HugeAcc {
  using type = uint32_t;
};
template <class Visit>
struct HugeAcc<Visit, std::void_t<typename Visit::Acc>> {
  using type = typename Visit::Acc;
};

// HugeExpand is HugeKernel's body, for a kernel that expands the queue
// in a launch of its own making (diropt's bottom-up kernel on a top-down
// level of its device loop): every block of the grid calls it, with
// `threads` its block size and cur in its shared memory. See HugeKernel.
template <typename V, typename Col, class Visit>
__device__ __forceinline__ void HugeExpand(const HugeQueue<V>& q, const Col* __restrict__ col, const Visit& vis,
                                           int threads, HugeList<V>& cur) {
  const unsigned long long c = *q.ctl;
  // No slot past cap is read (a push past it set the error bit instead).
  const int64_t n = min((int64_t)(c >> kHugeChunkBits), q.cap);
  const int64_t chunks = (int64_t)(c & ((1ull << kHugeChunkBits) - 1));
  typename HugeAcc<Visit>::type acc{};
  for (int64_t k = blockIdx.x; k < chunks; k += gridDim.x) {  // block-uniform
    if (threadIdx.x == 0) {  // the last list whose first chunk is <= k
      int64_t lo = 0, hi = n - 1;
      while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        if (q.lists[mid].first <= k) lo = mid; else hi = mid - 1;
      }
      cur = q.lists[lo];
    }
    __syncthreads();
    const int64_t b = cur.b + (k - cur.first) * kHugeChunk;
    const int64_t e = min(b + kHugeChunk, cur.e);
    const V src = cur.src;
    __syncthreads();  // cur is rewritten next step
    for (int64_t x = b + threadIdx.x; x < e; x += threads) vis(src, __ldg(&col[x]), acc);
  }
  vis.Flush(acc);
}

// HugeKernel expands every list queued on q: vis(src, col[e], acc) for each
// of their edges e, with a per-thread accumulator acc (the visitor's Acc, or
// uint32_t; value-initialized) that vis.Flush(acc) receives once at the
// end, on every thread. Launch it with kThreads threads a block and as many
// blocks as the GPU holds; a block takes chunks k, k + gridDim.x, ... of the
// queue's numbering. A queue whose ctl is zero costs one load a block.
template <int kThreads, typename V, typename Col, class Visit>
__global__ void __launch_bounds__(kThreads)
    HugeKernel(HugeQueue<V> q, const Col* __restrict__ col, Visit vis) {
  __shared__ HugeList<V> cur;
  HugeExpand(q, col, vis, kThreads, cur);
}

}  // namespace bfsb

#endif  // BFSB_GATHER_CUH
