// ueno.cu: the CUDA backend of the ueno variant (C ABI in ueno.h), the GPU
// side of
//
//   [1] [Ueno] (docs/papers.md),
//
// one processor P(i,j) of its §V, Figure 3's tasks by number:
//   tasks 2-3  NqListKernel + DeltaKernel + bfsb::VlqEncode (the compressed
//              expand, §V-B/C; the list is sorted by construction: a scan
//              over the NQ bitmap), bfsb::VlqDecode + SetBitsKernel on the
//              receiving side, OrKernel for bitmaps (SV, §V-F-2);
//   task 4     CqFlagKernel + scan + CqListKernel (§V-D): the non-empty CQ
//              words and the edges of each, scanned into offsets;
//   task 5     GatherKernel: Merrill's CTA+warp+scan gathering
//              (bfsb_gather.cuh) of a part of the CQ list into the bounded
//              edge buffer; PartKernel picks the part (§V-E: "terminates the
//              GPU kernel for gathering edges once the buffer is filled out,
//              and afterward it again conducts the edge gathering");
//   task 6     FilterKernel<A|B|C>: Algorithm V on SV (§V-F), as its own
//              kernel (§V-E: the paper found two kernels faster than one);
//              FusedKernel<A|B|C> + HugeKernel do tasks 5 and 6 in one
//              pass, balanced over the GPU (not the paper's choice:
//              gather_filter = fused; see "balanced gathering" below);
//   task 8     ApplyKernel (received chunks) and the own column's edges in
//              FilterKernel: VISITED, PRED and NQ.
//
// Bitmaps are per vertex block, each padded to wb = ceil(B/32) words.
// Local column lc (CQ) is vertex (jR + lc/B)·B + lc%B; local row lr (SV,
// edge targets) is vertex ((lr/B)·R + i)·B + lr%B, owned by P(i, lr/B).

#include <algorithm>
#include <vector>

#include "bfsb_check.cuh"
#include "bfsb_gather.cuh"
#include "bfsb_scan.cuh"
#include "bfsb_timer.cuh"
#include "bfsb_vlq.cuh"
#include "bfsb_warp.cuh"
#include "ueno.h"

namespace {

constexpr int kGatherThreads = 256;

// kGridWaves: the fused kernels' grid is this many times what the GPU holds
// at once, so that blocks that finish early take more shares. At scale 25
// on an H200, 1, 2, 4 and 8 gave 44.3, 44.4, 44.6 and 46.4 GTEPS (the
// gathering floor 7.77, 7.76, 7.65 and 7.45 ms).
constexpr int kGridWaves = 8;

struct Handle {
  ueno_params p;
  int64_t wb = 0;        // words per block bitmap
  int64_t cq_words = 0;  // R·wb
  cudaStream_t s = nullptr;
  bfsb::Scratch scratch;
  bfsb::EventPool ev;  // 0, 1: a call's kernels; 2..: floor
  int64_t* col_ptr = nullptr;
  uint32_t* row_idx = nullptr;
  uint32_t *cq = nullptr, *sv = nullptr, *visited = nullptr, *nq = nullptr;
  int64_t* pred = nullptr;
  uint32_t* list = nullptr;     // task 4: CQ word indices
  uint32_t* flags = nullptr;    // cq_words + 1: flags, then positions
  int64_t* edges = nullptr;     // cq_words + 1: edges per entry, then offsets
  int64_t list_len = 0;
  // task 5's bounded buffer and task 6's output
  int64_t cap = 0;
  uint32_t *buf_u = nullptr, *buf_v = nullptr;
  uint2* out = nullptr;         // C·cap pairs
  uint32_t* out_cnt = nullptr;  // C
  int64_t* part = nullptr;      // PartKernel's result: end, edges
  uint32_t* recv = nullptr;     // received fold pairs
  int64_t recv_cap = 0;
  // the expand's codec buffers
  uint8_t* stream = nullptr;    // 5·list_cap + 8 bytes
  uint32_t *vals = nullptr, *vals2 = nullptr;  // list_cap + 1
  uint32_t* vtmp = nullptr;     // VlqDecode/Encode temporaries
  uint32_t* part_bits = nullptr;  // a received bitmap (wb)
  uint32_t* sv_in = nullptr;      // device path: the row's NQ bitmaps (C·wb)
  uint8_t* streams = nullptr;     // device path: the all-gathered coded parts
  int64_t streams_cap = 0;
  uint32_t* err_flag = nullptr;
  unsigned long long* counter = nullptr;
  // the fused kernels' persistent grid and queue of the longest lists
  int grid = 0;
  bfsb::HugeList<uint32_t>* huge = nullptr;
  int64_t huge_cap = 0;
  unsigned long long* huge_ctl = nullptr;
  double ms[UENO_T_COUNT] = {};
  int64_t h2d = 0, d2h = 0;

  ~Handle() {
    cudaSetDevice((int)p.device);
    void* ptrs[] = {col_ptr, row_idx, cq, sv, visited, nq, pred, list, flags, edges, buf_u, buf_v,
                    out, out_cnt, part, recv, stream, vals, vals2, vtmp, part_bits, err_flag, huge, huge_ctl,
                    counter, sv_in, streams};
    for (void* q : ptrs) {
      if (q != nullptr) cudaFree(q);
    }
    scratch.Free();
    ev.Destroy();
    if (s != nullptr) cudaStreamDestroy(s);
  }
};

int Blocks(int64_t threads, int tpb) {
  int64_t b = (threads + tpb - 1) / tpb;
  return (int)std::max<int64_t>(1, std::min<int64_t>(b, 1 << 20));
}

// BlockShift is log2(block) where block is a power of two below 2^32, else -1.
int32_t BlockShift(int64_t block) {
  if (block <= 0 || block >= (int64_t(1) << 32) || (block & (block - 1)) != 0) return -1;
  int32_t k = 0;
  while ((int64_t(1) << k) < block) ++k;
  return k;
}

// ---- reset, counts ----------------------------------------------------

__global__ void RootKernel(uint32_t* visited, uint32_t* nq, int64_t* pred, int64_t off, int64_t root) {
  visited[off / 32] |= 1u << (off % 32);
  nq[off / 32] |= 1u << (off % 32);
  pred[off] = root;
}

// CountKernel adds the set bits of words[0:n] to *count.
__global__ void CountKernel(const uint32_t* __restrict__ words, int64_t n, unsigned long long* count) {
  uint32_t c = 0;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x)
    c += __popc(words[k]);
  c = bfsb::WarpSum(c);
  if (bfsb::LaneId() == 0 && c != 0) atomicAdd(count, (unsigned long long)c);
}

// ---- tasks 2-3: the compressed expand -----------------------------------

// PopcKernel: cnt[w] = popc(words[w]) for w < n, cnt[n] = 0.
__global__ void PopcKernel(const uint32_t* __restrict__ words, int64_t n, uint32_t* cnt) {
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k <= n; k += (int64_t)gridDim.x * blockDim.x)
    cnt[k] = k < n ? __popc(words[k]) : 0;
}

// NqListKernel writes the offsets of NQ's set bits, in increasing order, at
// the scanned positions pos (Algorithm III line 5: the sorted list).
__global__ void NqListKernel(const uint32_t* __restrict__ words, int64_t n, const uint32_t* __restrict__ pos,
                             uint32_t* list) {
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x) {
    uint32_t x = words[k], at = pos[k];
    while (x != 0) {
      const int b = __ffs(x) - 1;
      x &= x - 1;
      list[at++] = (uint32_t)(32 * k + b);
    }
  }
}

// DeltaKernel: d[0] = v[0], d[k] = v[k] - v[k-1].
__global__ void DeltaKernel(const uint32_t* __restrict__ v, int64_t n, uint32_t* d) {
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x)
    d[k] = k == 0 ? v[0] : v[k] - v[k - 1];
}

// SetBitsKernel sets the bits of offsets v[0:n] in block (flags offsets past
// the block).
__global__ void SetBitsKernel(const uint32_t* __restrict__ v, int64_t n, int64_t block, uint32_t* bits,
                              uint32_t* error) {
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x) {
    const uint32_t o = v[k];
    if ((int64_t)o >= block) {
      atomicOr(error, 4u);
      continue;
    }
    atomicOr(&bits[o / 32], 1u << (o % 32));
  }
}

// OrKernel: dst[k] |= src[k].
__global__ void OrKernel(const uint32_t* __restrict__ src, int64_t n, uint32_t* dst) {
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x)
    dst[k] |= src[k];
}

// ---- task 4: the CQ list -------------------------------------------------

// CqFlagKernel: flag[w] = (cq[w] != 0) for w < n, flag[n] = 0.
__global__ void CqFlagKernel(const uint32_t* __restrict__ cq, int64_t n, uint32_t* flag) {
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w <= n; w += (int64_t)gridDim.x * blockDim.x)
    flag[w] = w < n ? (cq[w] != 0) : 0;
}

// CqListKernel lists the non-empty words at their scanned positions with
// the edges of their vertices.
__global__ void CqListKernel(const uint32_t* __restrict__ cq, int64_t n, const uint32_t* __restrict__ pos,
                             int64_t wb, int64_t block, const int64_t* __restrict__ col_ptr, uint32_t* list,
                             int64_t* edges) {
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < n; w += (int64_t)gridDim.x * blockDim.x) {
    uint32_t x = cq[w];
    if (x == 0) continue;
    const int64_t base = (w / wb) * block + 32 * (w % wb);
    int64_t e = 0;
    while (x != 0) {
      const int b = __ffs(x) - 1;
      x &= x - 1;
      e += col_ptr[base + b + 1] - col_ptr[base + b];
    }
    list[pos[w]] = (uint32_t)w;
    edges[pos[w]] = e;
  }
}

// ---- tasks 5-6: gathering and filtering --------------------------------

// PartKernel (one thread): the part from entry start is [start, end), end
// the last entry whose edges fit in cap (at least start+1); part[0] = end,
// part[1] = its edges.
__global__ void PartKernel(const int64_t* __restrict__ offs, int64_t len, int64_t start, int64_t cap,
                           int64_t* part) {
  const int64_t limit = offs[start] + cap;
  int64_t lo = start + 1, hi = len;  // the answer is in [lo, hi]
  if (offs[lo] > limit) {
    hi = lo;
  } else {
    while (lo < hi) {
      const int64_t mid = (lo + hi + 1) / 2;
      if (offs[mid] <= limit) lo = mid; else hi = mid - 1;
    }
  }
  part[0] = hi;
  part[1] = offs[hi] - offs[start];
}

// AppendEdge is the gather's visitor: one slot of the edge buffer per
// edge, reserved a warp at a time.
struct AppendEdge {
  uint32_t* count;
  uint32_t* bu;
  uint32_t* bv;
  __device__ void operator()(bool valid, uint32_t u, int64_t /*e*/, uint32_t v) const {
    const uint32_t at = bfsb::WarpReserve(count, valid ? 1u : 0u);
    if (valid) {
      bu[at] = u;
      bv[at] = v;
    }
  }
};

// GatherKernel is task 5 over list entries [start, end): 32 threads per
// entry, thread b holding the edge list of bit b of its CQ word, expanded
// by Merrill's CTA+warp+scan gathering into the buffer.
__global__ void __launch_bounds__(kGatherThreads)
    GatherKernel(const uint32_t* __restrict__ list, int64_t start, int64_t end, const uint32_t* __restrict__ cq,
                 int64_t wb, int64_t block, const int64_t* __restrict__ col_ptr,
                 const uint32_t* __restrict__ row_idx, uint32_t* count, uint32_t* bu, uint32_t* bv) {
  using G = bfsb::BlockGather<kGatherThreads, uint32_t, int64_t>;
  __shared__ typename G::Storage smem;
  G g(smem);
  const int64_t n = (end - start) * 32;
  for (int64_t base = (int64_t)blockIdx.x * kGatherThreads; base < n;
       base += (int64_t)gridDim.x * kGatherThreads) {  // block-uniform
    const int64_t t = base + threadIdx.x;
    bool active = t < n;
    uint32_t lc = 0;
    int64_t b = 0, e = 0;
    if (active) {
      const uint32_t w = list[start + t / 32];
      const int bit = (int)(t % 32);
      active = (cq[w] >> bit) & 1u;
      lc = (uint32_t)((w / wb) * block + 32 * (w % wb) + bit);
      if (active) {
        b = col_ptr[lc];
        e = col_ptr[lc + 1];
      }
    }
    g.ForEachEdgeSync(active, lc, b, e, row_idx, AppendEdge{count, bu, bv});
  }
}

// Visit is task 8 for one edge to an own vertex: the first to set its
// VISITED bit writes PRED and NQ.
__device__ __forceinline__ void Visit(uint32_t* visited, uint32_t* nq, int64_t* pred, uint32_t o,
                                      int64_t parent) {
  const uint32_t mask = 1u << (o % 32);
  if (visited[o / 32] & mask) return;
  if (atomicOr(&visited[o / 32], mask) & mask) return;
  pred[o] = parent;
  atomicOr(&nq[o / 32], mask);
}

// SvWord reads the SV word for the test of methods B and C. The bits only
// ever go from clear to set during a level, so a stale cached copy is safe:
// a set bit read is truly set, and a clear one is decided by the atomicOr
// (B) or taken as the method's accepted race (C). (A volatile load, which
// goes to L2 every time, and the read-only path measured within 1 % of
// this at scale 25 on an H200.)
__device__ __forceinline__ uint32_t SvWord(const uint32_t* w) { return __ldca(w); }

// SplitRow splits local row v into its SV block m = v / B and offset
// o = v % B, by a shift where B is a power of two (shift >= 0), else by a
// 32-bit division (a 64-bit one per edge costs more than its loads).
__device__ __forceinline__ void SplitRow(uint32_t v, int32_t shift, int64_t block, uint32_t* m, uint32_t* o) {
  if (shift >= 0) {
    *m = v >> shift;
    *o = v & ((1u << shift) - 1u);
  } else {
    *m = (uint32_t)(v / (uint32_t)block);
    *o = v - *m * (uint32_t)block;
  }
}

// FilterArgs are what task 6 reads and writes.
struct FilterArgs {
  uint32_t* sv;
  int64_t wb, block, r, j;
  int32_t shift;  // log2(block) where block is a power of two, else -1
  uint32_t* visited;
  uint32_t* nq;
  int64_t* pred;
  uint2* out;  // C regions of cap pairs
  int64_t cap;
  uint32_t* out_cnt;
};

// FilterEdge is task 6 (Algorithm V, method kMethod) for edge u -> v: the
// edge survives when v's SV bit was clear and this thread set it;
// survivors to the own grid column j are applied at once (task 8), the
// others appended to out[m] (pairs: target offset, source column).
template <int kMethod>
__device__ __forceinline__ void FilterEdge(const FilterArgs& a, uint32_t u, uint32_t v) {
  uint32_t m, o;
  SplitRow(v, a.shift, a.block, &m, &o);
  uint32_t* w = &a.sv[m * a.wb + o / 32];
  const uint32_t mask = 1u << (o % 32);
  bool s;
  if (kMethod == UENO_SV_A) {  // (A) test-and-set
    s = !(atomicOr(w, mask) & mask);
  } else if (kMethod == UENO_SV_B) {  // (B) test, then test-and-set
    s = false;
    if ((SvWord(w) & mask) == 0) s = !(atomicOr(w, mask) & mask);
  } else {  // (C) test and set, no atomics
    s = false;
    if ((SvWord(w) & mask) == 0) {  // the write re-reads L2's word to lose fewer bits
      *(volatile uint32_t*)w = *(volatile uint32_t*)w | mask;
      s = true;
    }
  }
  if (!s) return;
  if (m == a.j) {
    Visit(a.visited, a.nq, a.pred, o, (a.j * a.r + u / a.block) * a.block + u % a.block);
  } else {
    const uint32_t at = atomicAdd(&a.out_cnt[m], 1u);
    a.out[m * a.cap + at] = make_uint2(o, u);
  }
}

// FilterKernel is task 6 over the n gathered edges, as its own kernel
// (§V-E: the paper's choice, two kernels faster than one on its GPUs).
template <int kMethod>
__global__ void FilterKernel(const uint32_t* __restrict__ bu, const uint32_t* __restrict__ bv, int64_t n,
                             FilterArgs a) {
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x)
    FilterEdge<kMethod>(a, bu[k], bv[k]);
}

// ---- balanced gathering (gather_filter = fused) ---------------------------
//
// The fused kernel gathers a part of the CQ list in two steps, so that no
// block is left with far more edges than the others:
//
//   1. FusedKernel: a persistent grid; block b takes the CQ-list entries
//      whose first edge falls in its 1/G share of the part's edges (a
//      binary search in task 4's scanned edge offsets), compacts the
//      active vertices of those words 256 at a time, and expands them with
//      Merrill's CTA+warp+scan gathering. A list of at least bfsb::kHuge
//      edges is not expanded there but queued (bfsb::HugeQueue).
//   2. bfsb::HugeKernel: the queued lists cut into chunks of
//      bfsb::kHugeChunk edges, one chunk per block step, over the whole grid.
//
// Before, with a block per 8 CQ words: at scale 25 level 2's frontier is
// about 11 000 hubs, which left a few hundred blocks each expanding several
// lists of 10^5-10^6 edges one after the other (24 ms for the level), and
// level 3's 7.8 M vertices gave each block about 60 active vertices, so
// that its fixed costs dominated. Merrill et al. expand a list by one CTA
// at most; the grid-wide step for the longest lists is this project's.

// The longest lists go to a bfsb::HugeQueue (bfsb_gather.cuh), of local
// columns; its error bit in err_flag is 16.
using HugeQueue = bfsb::HugeQueue<uint32_t>;
constexpr uint32_t kHugeError = 16u;

// FilterVisitor filters each gathered edge where it is found (task 6).
template <int kMethod>
struct FilterVisitor {
  FilterArgs a;
  __device__ __forceinline__ void operator()(uint32_t u, uint32_t v, uint32_t& /*c*/) const {
    FilterEdge<kMethod>(a, u, v);
  }
  __device__ __forceinline__ void Flush(uint32_t /*c*/) const {}
};

// ClearCounter is the floors' visitor: it counts the edges whose target's
// SV bit is clear, so that the loads cannot be optimized away.
struct ClearCounter {
  const uint32_t* sv;
  int64_t wb, block;
  int32_t shift;
  unsigned long long* sink;
  __device__ __forceinline__ void operator()(uint32_t /*u*/, uint32_t v, uint32_t& c) const {
    uint32_t m, o;
    SplitRow(v, shift, block, &m, &o);
    c += (__ldg(&sv[m * wb + o / 32]) >> (o % 32)) & 1u ? 0u : 1u;
  }
  __device__ __forceinline__ void Flush(uint32_t c) const {
    c = bfsb::WarpSum(c);
    if (bfsb::LaneId() == 0 && c != 0) atomicAdd(sink, (unsigned long long)c);
  }
};

using Gather = bfsb::BlockGather<kGatherThreads, uint32_t, int64_t>;

// LowerBound is the first i in [lo, hi) with offs[i] >= x, else hi.
__device__ __forceinline__ int64_t LowerBound(const int64_t* __restrict__ offs, int64_t lo, int64_t hi, int64_t x) {
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (offs[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// BlockShare sets range[0:2] to the entries [lo, hi) of offs[start:end]
// whose first edge lies in block blockIdx.x's share of the edges. Every
// entry with edges falls in exactly one block's share.
__device__ __forceinline__ void BlockShare(const int64_t* __restrict__ offs, int64_t start, int64_t end,
                                           int64_t* range) {
  if (threadIdx.x < 2) {
    const int64_t e0 = offs[start], total = offs[end] - e0;
    const int64_t x = e0 + total * (int64_t)(blockIdx.x + threadIdx.x) / gridDim.x;
    range[threadIdx.x] = LowerBound(offs, start, end, x);
  }
  __syncthreads();
}

// ExpandBatch expands the lists of the block's active threads (local
// column lc each), queueing those of bfsb::kHuge edges or more. Block-synchronous.
template <class Visit>
__device__ __forceinline__ void ExpandBatch(Gather& g, bool active, uint32_t lc, const int64_t* __restrict__ col_ptr,
                                            const uint32_t* __restrict__ row_idx, const HugeQueue& hq,
                                            const Visit& vis, uint32_t& c) {
  int64_t b = 0, e = 0;
  if (active) {
    b = col_ptr[lc];
    e = col_ptr[lc + 1];
    if (hq.Take(lc, b, e)) active = false;
  }
  g.ForEachEdge(active, lc, b, e, row_idx, [&](uint32_t u, int64_t, uint32_t v) { vis(u, v, c); });
}

// FusedKernel is tasks 5 and 6 in one kernel (gather_filter = fused, not
// the paper's choice) over list entries [start, end): step 1 above.
template <int kMethod>
__global__ void __launch_bounds__(kGatherThreads)
    FusedKernel(const uint32_t* __restrict__ list, int64_t start, int64_t end, const int64_t* __restrict__ edges,
                const uint32_t* __restrict__ cq, const int64_t* __restrict__ col_ptr,
                const uint32_t* __restrict__ row_idx, HugeQueue hq, FilterArgs a) {
  constexpr int kWarps = kGatherThreads / 32;
  __shared__ typename Gather::Storage smem;
  __shared__ uint32_t queue[2 * kGatherThreads];  // compacted active columns
  __shared__ uint32_t warp_n[kWarps];
  __shared__ int64_t range[2];
  Gather g(smem);
  const FilterVisitor<kMethod> vis{a};
  uint32_t c = 0;
  BlockShare(edges, start, end, range);
  const int64_t lo = range[0], hi = range[1];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int qn = 0;  // block-uniform
  for (int64_t base = lo; base < hi; base += kWarps) {  // a CQ word per warp, block-uniform
    const int64_t ent = base + warp;
    bool active = false;
    uint32_t lc = 0;
    if (ent < hi) {
      const uint32_t w = list[ent];
      active = (cq[w] >> lane) & 1u;
      lc = (uint32_t)((w / a.wb) * a.block + 32 * (w % a.wb) + lane);
    }
    const uint32_t bal = __ballot_sync(bfsb::kFullWarp, active);
    if (lane == 0) warp_n[warp] = __popc(bal);
    __syncthreads();
    uint32_t off = 0, tot = 0;
    for (int k = 0; k < kWarps; ++k) {
      const uint32_t n = warp_n[k];
      off += k < warp ? n : 0;
      tot += n;
    }
    if (active) queue[qn + off + __popc(bal & bfsb::LaneMaskLt())] = lc;
    __syncthreads();
    qn += (int)tot;
    if (qn >= kGatherThreads) {
      ExpandBatch(g, true, queue[threadIdx.x], col_ptr, row_idx, hq, vis, c);
      __syncthreads();
      if ((int)threadIdx.x < qn - kGatherThreads) queue[threadIdx.x] = queue[kGatherThreads + threadIdx.x];
      __syncthreads();
      qn -= kGatherThreads;
    }
  }
  if (qn > 0) {
    const bool active = (int)threadIdx.x < qn;
    ExpandBatch(g, active, active ? queue[threadIdx.x] : 0u, col_ptr, row_idx, hq, vis, c);
  }
}


// ApplyKernel is task 8 for n pairs received from grid column src.
__global__ void ApplyKernel(const uint2* __restrict__ pairs, int64_t n, int64_t src, int64_t r, int64_t block,
                            uint32_t* visited, uint32_t* nq, int64_t* pred, uint32_t* error) {
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x) {
    const uint2 pr = pairs[k];
    if ((int64_t)pr.x >= block || (int64_t)pr.y >= r * block) {
      atomicOr(error, 8u);
      continue;
    }
    Visit(visited, nq, pred, pr.x, (src * r + pr.y / block) * block + pr.y % block);
  }
}

// FloorKernel is the flat floor: every local edge's target read and its
// SV bit tested, an edge a thread; the count of clear bits goes to the
// visitor's sink so that nothing is optimized away. (Four consecutive edges
// a thread, by one 16-byte load, measured 10.9 ms against 10.5 at scale 25.)
__global__ void FloorKernel(const uint32_t* __restrict__ row_idx, int64_t nnz, ClearCounter vis) {
  uint32_t c = 0;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += (int64_t)gridDim.x * blockDim.x)
    vis(0, __ldg(&row_idx[k]), c);
  vis.Flush(c);
}

// GatherFloorKernel is step 1 of the gathering floor: every local column's
// list expanded as FusedKernel expands the CQ list's (the same shares,
// batches and queue; every column active, so no compaction), each target's
// SV bit tested as FloorKernel does. HugeKernel<ClearCounter> is step 2.
// Together they are what tasks 5 and 6 cost at least when every edge of
// the block is gathered once, as a top-down search does over its levels.
__global__ void __launch_bounds__(kGatherThreads)
    GatherFloorKernel(int64_t ncols, const int64_t* __restrict__ col_ptr, const uint32_t* __restrict__ row_idx,
                      HugeQueue hq, ClearCounter vis) {
  __shared__ typename Gather::Storage smem;
  __shared__ int64_t range[2];
  Gather g(smem);
  uint32_t c = 0;
  BlockShare(col_ptr, 0, ncols, range);
  const int64_t lo = range[0], hi = range[1];
  for (int64_t base = lo; base < hi; base += kGatherThreads) {  // block-uniform
    const int64_t t = base + threadIdx.x;
    ExpandBatch(g, t < hi, (uint32_t)t, col_ptr, row_idx, hq, vis, c);
  }
  vis.Flush(c);
}

// ---- helpers ----------------------------------------------------------

#define SET_DEVICE(h) BFSB_CHECK(cudaSetDevice((int)(h)->p.device))

int32_t Begin(Handle* h, char* err, int32_t errlen) {
  BFSB_CHECK(h->ev.Record(0, h->s));
  return 0;
}

// End records the call's end, waits for it and adds the kernels' time.
int32_t End(Handle* h, int kind, char* err, int32_t errlen) {
  BFSB_CHECK(h->ev.Record(1, h->s));
  BFSB_CHECK(h->ev.Synchronize(1));
  float ms = 0;
  BFSB_CHECK(h->ev.ElapsedMs(0, 1, &ms));
  h->ms[kind] += ms;
  return 0;
}

int32_t ReadErrorFlag(Handle* h, const char* what, char* err, int32_t errlen) {
  uint32_t e = 0;
  BFSB_CHECK(cudaMemcpyAsync(&e, h->err_flag, 4, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  h->d2h += 4;
  if (e != 0) return bfsb::Errf(err, errlen, BFSB_EINVAL, "%s: corrupt input (flags %#x)", what, e);
  return 0;
}

// Grow makes the edge buffer and the output hold at least n edges.
int32_t Grow(Handle* h, int64_t n, char* err, int32_t errlen) {
  if (n <= h->cap) return 0;
  if (h->buf_u) BFSB_CHECK(cudaFree(h->buf_u));
  if (h->buf_v) BFSB_CHECK(cudaFree(h->buf_v));
  if (h->out) BFSB_CHECK(cudaFree(h->out));
  h->buf_u = h->buf_v = nullptr;
  h->out = nullptr;
  BFSB_CHECK(cudaMalloc(&h->buf_u, n * sizeof(uint32_t)));
  BFSB_CHECK(cudaMalloc(&h->buf_v, n * sizeof(uint32_t)));
  BFSB_CHECK(cudaMalloc(&h->out, h->p.c * n * sizeof(uint2)));
  h->cap = n;
  return 0;
}


}  // namespace

extern "C" {

int32_t ueno_abi_version(void) { return UENO_ABI_VERSION; }

int32_t ueno_create(const ueno_params* p, const int64_t* col_ptr, const uint32_t* row_idx, void** out, char* err,
                    int32_t errlen) {
  BFSB_REQUIRE(p && col_ptr && out, "ueno_create: null argument");
  BFSB_REQUIRE(p->r >= 1 && p->c >= 1 && p->block >= 1 && p->nnz >= 0 && p->edge_buffer >= 32,
               "ueno_create: bad shape");
  BFSB_REQUIRE(p->sv_update >= UENO_SV_A && p->sv_update <= UENO_SV_C, "ueno_create: sv_update %lld",
               (long long)p->sv_update);
  BFSB_REQUIRE(p->threads_per_block >= 64 && p->threads_per_block <= 1024 && p->threads_per_block % 32 == 0,
               "ueno_create: threads_per_block %lld", (long long)p->threads_per_block);
  *out = nullptr;
  BFSB_CHECK(cudaSetDevice((int)p->device));
  Handle* h = new Handle();
  h->p = *p;
  h->wb = (p->block + 31) / 32;
  h->cq_words = p->r * h->wb;
  const int64_t cols = p->r * p->block;
  const int64_t lc = std::max<int64_t>(1, std::min(p->list_cap, p->block));
  int32_t st = [&]() -> int32_t {
    BFSB_CHECK(cudaStreamCreateWithFlags(&h->s, cudaStreamNonBlocking));
    BFSB_CHECK(h->ev.Create(2));
    BFSB_CHECK(cudaMalloc(&h->col_ptr, (cols + 1) * sizeof(int64_t)));
    BFSB_CHECK(cudaMalloc(&h->row_idx, std::max<int64_t>(1, p->nnz) * sizeof(uint32_t)));
    BFSB_CHECK(cudaMemcpy(h->col_ptr, col_ptr, (cols + 1) * sizeof(int64_t), cudaMemcpyHostToDevice));
    if (p->nnz > 0)
      BFSB_CHECK(cudaMemcpy(h->row_idx, row_idx, p->nnz * sizeof(uint32_t), cudaMemcpyHostToDevice));
    BFSB_CHECK(cudaMalloc(&h->cq, h->cq_words * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->sv, p->c * h->wb * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->visited, h->wb * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->nq, h->wb * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->pred, p->block * sizeof(int64_t)));
    BFSB_CHECK(cudaMalloc(&h->list, h->cq_words * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->flags, (h->cq_words + 1) * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->edges, (h->cq_words + 1) * sizeof(int64_t)));
    BFSB_CHECK(cudaMalloc(&h->out_cnt, p->c * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->part, 2 * sizeof(int64_t)));
    BFSB_CHECK(cudaMalloc(&h->stream, bfsb::VlqMaxBytes(lc) + 8));
    BFSB_CHECK(cudaMalloc(&h->vals, (lc + 1) * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->vals2, (lc + 1) * sizeof(uint32_t)));
    const int64_t tmp = std::max<int64_t>(
        {h->wb + 1, bfsb::VlqEncodeTmpWords(lc), bfsb::VlqDecodeTmpWords(bfsb::VlqMaxBytes(lc))});
    BFSB_CHECK(cudaMalloc(&h->vtmp, tmp * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->part_bits, h->wb * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->err_flag, sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->counter, sizeof(unsigned long long)));
    h->huge_cap = HugeQueue::Cap(p->nnz);  // a list is queued at most once a launch
    BFSB_CHECK(cudaMalloc(&h->huge, h->huge_cap * sizeof(*h->huge)));
    BFSB_CHECK(cudaMalloc(&h->huge_ctl, sizeof(unsigned long long)));
    int sms = 0, per_sm = 0;
    BFSB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, (int)p->device));
    BFSB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, FusedKernel<UENO_SV_B>, kGatherThreads, 0));
    h->grid = kGridWaves * sms * std::max(1, per_sm);
    if (p->device_exchange) {
      BFSB_CHECK(cudaMalloc(&h->sv_in, p->c * h->wb * sizeof(uint32_t)));
      h->streams_cap = std::max(p->r, p->c) * (bfsb::VlqMaxBytes(lc) + 8);
      BFSB_CHECK(cudaMalloc(&h->streams, h->streams_cap));
    }
    BFSB_CHECK(cudaMemset(h->sv, 0, p->c * h->wb * sizeof(uint32_t)));  // the floor reads it
    BFSB_CHECK(cudaMemset(h->visited, 0, h->wb * sizeof(uint32_t)));
    BFSB_CHECK(cudaMemset(h->nq, 0, h->wb * sizeof(uint32_t)));
    return Grow(h, p->edge_buffer, err, errlen);
  }();
  if (st != 0) {
    delete h;
    return st;
  }
  *out = h;
  return 0;
}

int32_t ueno_reset(void* hv, int64_t root_off, int64_t root, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  BFSB_CHECK(cudaMemsetAsync(h->sv, 0, h->p.c * h->wb * 4, h->s));
  BFSB_CHECK(cudaMemsetAsync(h->visited, 0, h->wb * 4, h->s));
  BFSB_CHECK(cudaMemsetAsync(h->nq, 0, h->wb * 4, h->s));
  BFSB_CHECK(cudaMemsetAsync(h->pred, 0xff, h->p.block * 8, h->s));
  if (root_off >= 0) {
    BFSB_REQUIRE(root_off < h->p.block, "ueno_reset: root offset %lld", (long long)root_off);
    RootKernel<<<1, 1, 0, h->s>>>(h->visited, h->nq, h->pred, root_off, root);
    BFSB_CHECK_LAUNCH("RootKernel");
  }
  for (double& m : h->ms) m = 0;
  h->h2d = h->d2h = 0;
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

int32_t ueno_nq_count(void* hv, int64_t* n, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  if (int32_t st = Begin(h, err, errlen)) return st;
  BFSB_CHECK(cudaMemsetAsync(h->counter, 0, 8, h->s));
  CountKernel<<<Blocks(h->wb, 256), 256, 0, h->s>>>(h->nq, h->wb, h->counter);
  BFSB_CHECK_LAUNCH("CountKernel");
  unsigned long long c = 0;
  BFSB_CHECK(cudaMemcpyAsync(&c, h->counter, 8, cudaMemcpyDeviceToHost, h->s));
  if (int32_t st = End(h, UENO_T_EXPAND, err, errlen)) return st;
  h->d2h += 8;
  *n = (int64_t)c;
  return 0;
}

int32_t ueno_nq_bitmap(void* hv, uint32_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  BFSB_CHECK(cudaMemcpyAsync(dst, h->nq, h->wb * 4, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  h->d2h += h->wb * 4;
  return 0;
}

int32_t ueno_nq_encode(void* hv, uint8_t* dst, int64_t cap, int64_t* nbytes, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  const int tpb = (int)h->p.threads_per_block;
  if (int32_t st = Begin(h, err, errlen)) return st;
  uint32_t* pos = h->vtmp;  // wb + 1
  PopcKernel<<<Blocks(h->wb + 1, tpb), tpb, 0, h->s>>>(h->nq, h->wb, pos);
  BFSB_CHECK_LAUNCH("PopcKernel");
  BFSB_CHECK(bfsb::ExclusiveSum(h->scratch, pos, pos, (int)(h->wb + 1), h->s));
  uint32_t n = 0;
  BFSB_CHECK(cudaMemcpyAsync(&n, pos + h->wb, 4, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  h->d2h += 4;
  const int64_t lc = std::max<int64_t>(1, std::min(h->p.list_cap, h->p.block));
  BFSB_REQUIRE((int64_t)n <= lc, "ueno_nq_encode: %u vertices in NQ, the list buffers hold %lld", n,
               (long long)lc);
  NqListKernel<<<Blocks(h->wb, tpb), tpb, 0, h->s>>>(h->nq, h->wb, pos, h->vals);
  BFSB_CHECK_LAUNCH("NqListKernel");
  DeltaKernel<<<Blocks(n, tpb), tpb, 0, h->s>>>(h->vals, n, h->vals2);
  BFSB_CHECK_LAUNCH("DeltaKernel");
  BFSB_CHECK(bfsb::VlqEncode(h->vals2, n, h->stream, h->vtmp, h->s));
  uint32_t len = 0;
  BFSB_CHECK(cudaMemcpyAsync(&len, bfsb::VlqEncodedLength(h->vtmp, n), 4, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  h->d2h += 4;
  if (dst != nullptr) {
    BFSB_REQUIRE((int64_t)len <= cap, "ueno_nq_encode: %u bytes, buffer %lld", len, (long long)cap);
    BFSB_CHECK(cudaMemcpyAsync(dst, h->stream, len, cudaMemcpyDeviceToHost, h->s));
    h->d2h += len;
  }
  if (int32_t st = End(h, UENO_T_EXPAND, err, errlen)) return st;
  *nbytes = len;
  return 0;
}

int32_t ueno_load_part(void* hv, int32_t target, int64_t block, const uint32_t* bitmap, const uint8_t* stream,
                       int64_t n, int64_t nbytes, int32_t on_device, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  const int tpb = (int)h->p.threads_per_block;
  BFSB_REQUIRE(target == 0 ? block < h->p.r : block < h->p.c, "ueno_load_part: block %lld", (long long)block);
  uint32_t* dst = (target == 0 ? h->cq : h->sv) + block * h->wb;
  if (int32_t st = Begin(h, err, errlen)) return st;
  const cudaMemcpyKind kind = on_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
  if (bitmap != nullptr) {
    if (target == 0) {
      if (bitmap != dst) BFSB_CHECK(cudaMemcpyAsync(dst, bitmap, h->wb * 4, kind, h->s));
    } else {
      const uint32_t* src = bitmap;
      if (!on_device) {
        BFSB_CHECK(cudaMemcpyAsync(h->part_bits, bitmap, h->wb * 4, kind, h->s));
        src = h->part_bits;
      }
      OrKernel<<<Blocks(h->wb, tpb), tpb, 0, h->s>>>(src, h->wb, dst);
      BFSB_CHECK_LAUNCH("OrKernel");
    }
    if (!on_device) h->h2d += h->wb * 4;
    return End(h, UENO_T_EXPAND, err, errlen);
  }
  const int64_t lc = std::max<int64_t>(1, std::min(h->p.list_cap, h->p.block));
  BFSB_REQUIRE(n >= 0 && n <= lc && nbytes >= 0 && nbytes <= bfsb::VlqMaxBytes(lc),
               "ueno_load_part: %lld values in %lld bytes, buffers hold %lld", (long long)n, (long long)nbytes,
               (long long)lc);
  if (target == 0) BFSB_CHECK(cudaMemsetAsync(dst, 0, h->wb * 4, h->s));
  if (n > 0) {
    BFSB_CHECK(cudaMemsetAsync(h->err_flag, 0, 4, h->s));
    const uint8_t* in = stream;
    if (!on_device) {
      BFSB_CHECK(cudaMemcpyAsync(h->stream, stream, nbytes, cudaMemcpyHostToDevice, h->s));
      h->h2d += nbytes;
      in = h->stream;
    }
    BFSB_CHECK(bfsb::VlqDecode(in, nbytes, n, h->vals, h->vtmp, h->err_flag, h->s));
    // Delta decoding: an inclusive prefix sum.
    size_t bytes = 0;
    BFSB_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, h->vals, h->vals2, (int)n, h->s));
    BFSB_CHECK(h->scratch.Reserve(bytes));
    bytes = h->scratch.Size();
    BFSB_CHECK(cub::DeviceScan::InclusiveSum(h->scratch.Ptr(), bytes, h->vals, h->vals2, (int)n, h->s));
    SetBitsKernel<<<Blocks(n, tpb), tpb, 0, h->s>>>(h->vals2, n, h->p.block, dst, h->err_flag);
    BFSB_CHECK_LAUNCH("SetBitsKernel");
    if (int32_t st = ReadErrorFlag(h, "ueno_load_part", err, errlen)) return st;
  }
  return End(h, UENO_T_EXPAND, err, errlen);
}

int32_t ueno_clear_nq(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  BFSB_CHECK(cudaMemsetAsync(h->nq, 0, h->wb * 4, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

int32_t ueno_cq_list(void* hv, int64_t* len, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  const int tpb = (int)h->p.threads_per_block;
  const int64_t n = h->cq_words;
  if (int32_t st = Begin(h, err, errlen)) return st;
  CqFlagKernel<<<Blocks(n + 1, tpb), tpb, 0, h->s>>>(h->cq, n, h->flags);
  BFSB_CHECK_LAUNCH("CqFlagKernel");
  BFSB_CHECK(bfsb::ExclusiveSum(h->scratch, h->flags, h->flags, (int)(n + 1), h->s));
  CqListKernel<<<Blocks(n, tpb), tpb, 0, h->s>>>(h->cq, n, h->flags, h->wb, h->p.block, h->col_ptr, h->list,
                                                 h->edges);
  BFSB_CHECK_LAUNCH("CqListKernel");
  uint32_t l = 0;
  BFSB_CHECK(cudaMemcpyAsync(&l, h->flags + n, 4, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  h->d2h += 4;
  BFSB_CHECK(cudaMemsetAsync(h->edges + l, 0, 8, h->s));
  BFSB_CHECK(bfsb::ExclusiveSum(h->scratch, h->edges, h->edges, (int)(l + 1), h->s));
  h->list_len = l;
  *len = l;
  return End(h, UENO_T_CQLIST, err, errlen);
}

}  // extern "C"

namespace {

// LaunchFused launches the fused gathering and filtering of list entries
// [start, end) with SV method kMethod: FusedKernel, then HugeKernel.
template <int kMethod>
void LaunchFused(Handle* h, int64_t start, int64_t end, const HugeQueue& hq, const FilterArgs& fa) {
  FusedKernel<kMethod><<<h->grid, kGatherThreads, 0, h->s>>>(h->list, start, end, h->edges, h->cq, h->col_ptr,
                                                             h->row_idx, hq, fa);
  bfsb::HugeKernel<kGatherThreads><<<h->grid, kGatherThreads, 0, h->s>>>(hq, h->row_idx, FilterVisitor<kMethod>{fa});
}

}  // namespace

extern "C" {

int32_t ueno_gather_filter(void* hv, int64_t start, int64_t* next, uint32_t* counts, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  BFSB_REQUIRE(start >= 0 && start < h->list_len, "ueno_gather_filter: start %lld of %lld", (long long)start,
               (long long)h->list_len);
  const int tpb = (int)h->p.threads_per_block;
  if (int32_t st = Begin(h, err, errlen)) return st;
  // The part. Fused on a one-column grid, every survivor is applied inside
  // the kernel and nothing is buffered, so the part is the rest of the list
  // (one launch a level, no round trip to choose it).
  int64_t end = h->list_len, ne = 0;
  if (!(h->p.fused && h->p.c == 1)) {
    PartKernel<<<1, 1, 0, h->s>>>(h->edges, h->list_len, start, h->p.edge_buffer, h->part);
    BFSB_CHECK_LAUNCH("PartKernel");
    int64_t part[2];
    BFSB_CHECK(cudaMemcpyAsync(part, h->part, 16, cudaMemcpyDeviceToHost, h->s));
    BFSB_CHECK(cudaStreamSynchronize(h->s));
    h->d2h += 16;
    end = part[0];
    ne = part[1];
    if (int32_t st = Grow(h, ne, err, errlen)) return st;  // one entry beyond the buffer
  }
  BFSB_CHECK(cudaMemsetAsync(h->counter, 0, 8, h->s));
  BFSB_CHECK(cudaMemsetAsync(h->out_cnt, 0, h->p.c * 4, h->s));
  const FilterArgs fa{h->sv,      h->wb,   h->p.block, h->p.r, h->p.j, BlockShift(h->p.block), h->visited,
                      h->nq,      h->pred, h->out,     h->cap, h->out_cnt};
  if (h->p.fused) {
    const HugeQueue hq{h->huge, h->huge_cap, h->huge_ctl, h->err_flag, kHugeError};
    BFSB_CHECK(cudaMemsetAsync(h->huge_ctl, 0, 8, h->s));
    switch (h->p.sv_update) {
      case UENO_SV_A:
        LaunchFused<UENO_SV_A>(h, start, end, hq, fa);
        break;
      case UENO_SV_B:
        LaunchFused<UENO_SV_B>(h, start, end, hq, fa);
        break;
      default:
        LaunchFused<UENO_SV_C>(h, start, end, hq, fa);
    }
    BFSB_CHECK_LAUNCH("FusedKernel, HugeKernel");
    unsigned long long ctl = 0;
    BFSB_CHECK(cudaMemcpyAsync(counts, h->out_cnt, h->p.c * 4, cudaMemcpyDeviceToHost, h->s));
    BFSB_CHECK(cudaMemcpyAsync(&ctl, h->huge_ctl, 8, cudaMemcpyDeviceToHost, h->s));
    if (int32_t st = End(h, UENO_T_FILTER, err, errlen)) return st;
    h->d2h += h->p.c * 4 + 8;
    BFSB_REQUIRE((int64_t)(ctl >> bfsb::kHugeChunkBits) <= h->huge_cap,
                 "ueno_gather_filter: %lld long lists queued, room for %lld", (long long)(ctl >> bfsb::kHugeChunkBits),
                 (long long)h->huge_cap);
    *next = end;
    return 0;
  }
  const int gb = Blocks((end - start) * 32, kGatherThreads);
  GatherKernel<<<gb, kGatherThreads, 0, h->s>>>(h->list, start, end, h->cq, h->wb, h->p.block, h->col_ptr,
                                               h->row_idx, (uint32_t*)h->counter, h->buf_u, h->buf_v);
  BFSB_CHECK_LAUNCH("GatherKernel");
  if (int32_t st = End(h, UENO_T_GATHER, err, errlen)) return st;
  if (int32_t st = Begin(h, err, errlen)) return st;
  const int fb = Blocks(ne, tpb);
  switch (h->p.sv_update) {
    case UENO_SV_A:
      FilterKernel<UENO_SV_A><<<fb, tpb, 0, h->s>>>(h->buf_u, h->buf_v, ne, fa);
      break;
    case UENO_SV_B:
      FilterKernel<UENO_SV_B><<<fb, tpb, 0, h->s>>>(h->buf_u, h->buf_v, ne, fa);
      break;
    default:
      FilterKernel<UENO_SV_C><<<fb, tpb, 0, h->s>>>(h->buf_u, h->buf_v, ne, fa);
  }
  BFSB_CHECK_LAUNCH("FilterKernel");
  BFSB_CHECK(cudaMemcpyAsync(counts, h->out_cnt, h->p.c * 4, cudaMemcpyDeviceToHost, h->s));
  if (int32_t st = End(h, UENO_T_FILTER, err, errlen)) return st;
  h->d2h += h->p.c * 4;
  *next = end;
  return 0;
}

int32_t ueno_fold_out(void* hv, int64_t m, uint32_t* dst, int64_t npairs, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  BFSB_REQUIRE(m >= 0 && m < h->p.c && npairs >= 0 && npairs <= h->cap, "ueno_fold_out: %lld pairs for %lld",
               (long long)npairs, (long long)m);
  if (npairs == 0) return 0;
  BFSB_CHECK(cudaMemcpyAsync(dst, h->out + m * h->cap, npairs * 8, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  h->d2h += npairs * 8;
  return 0;
}

// GrowRecv makes the fold's device receive buffer hold n pairs.
static int32_t GrowRecv(Handle* h, int64_t n, char* err, int32_t errlen) {
  if (n <= h->recv_cap) return 0;
  if (h->recv) BFSB_CHECK(cudaFree(h->recv));
  h->recv = nullptr;
  h->recv_cap = 0;
  BFSB_CHECK(cudaMalloc(&h->recv, n * 8));
  h->recv_cap = n;
  return 0;
}

int32_t ueno_apply_fold(void* hv, int64_t src, const uint32_t* pairs, int64_t npairs, int32_t on_device,
                        char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  BFSB_REQUIRE(src >= 0 && src < h->p.c && npairs >= 0, "ueno_apply_fold: bad source %lld", (long long)src);
  if (npairs == 0) return 0;
  const int tpb = (int)h->p.threads_per_block;
  const uint32_t* in = pairs;
  if (!on_device) {
    if (int32_t st = GrowRecv(h, npairs, err, errlen)) return st;
    in = h->recv;
  }
  if (int32_t st = Begin(h, err, errlen)) return st;
  BFSB_CHECK(cudaMemsetAsync(h->err_flag, 0, 4, h->s));
  if (!on_device) {
    BFSB_CHECK(cudaMemcpyAsync(h->recv, pairs, npairs * 8, cudaMemcpyHostToDevice, h->s));
    h->h2d += npairs * 8;
  }
  ApplyKernel<<<Blocks(npairs, tpb), tpb, 0, h->s>>>((const uint2*)in, npairs, src, h->p.r, h->p.block,
                                                      h->visited, h->nq, h->pred, h->err_flag);
  BFSB_CHECK_LAUNCH("ApplyKernel");
  if (int32_t st = ReadErrorFlag(h, "ueno_apply_fold", err, errlen)) return st;
  return End(h, UENO_T_FOLD, err, errlen);
}

int32_t ueno_dev_ptrs(void* hv, ueno_dev* d, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  d->nq = (uint64_t)h->nq;
  d->cq = (uint64_t)h->cq;
  d->sv_in = (uint64_t)h->sv_in;
  d->stream = (uint64_t)h->stream;
  d->streams = (uint64_t)h->streams;
  d->streams_cap = (uint64_t)h->streams_cap;
  d->out = (uint64_t)h->out;
  d->out_cap = (uint64_t)h->cap;
  return 0;
}

int32_t ueno_recv_ptr(void* hv, int64_t npairs, uint64_t* ptr, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  if (int32_t st = GrowRecv(h, std::max<int64_t>(1, npairs), err, errlen)) return st;
  *ptr = (uint64_t)h->recv;
  return 0;
}

int32_t ueno_parents(void* hv, int64_t* dst, int64_t n, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  BFSB_REQUIRE(n >= 0 && n <= h->p.block, "ueno_parents: %lld of %lld", (long long)n, (long long)h->p.block);
  BFSB_CHECK(cudaMemcpy(dst, h->pred, n * 8, cudaMemcpyDeviceToHost));
  return 0;
}

int32_t ueno_counters(void* hv, double* ms, int64_t* h2d, int64_t* d2h, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  for (int k = 0; k < UENO_T_COUNT; ++k) {
    ms[k] = h->ms[k];
    h->ms[k] = 0;
  }
  *h2d = h->h2d;
  *d2h = h->d2h;
  h->h2d = h->d2h = 0;
  return 0;
}

int32_t ueno_floor(void* hv, int32_t gather, int32_t reps, double* ms, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  SET_DEVICE(h);
  BFSB_REQUIRE(reps >= 1, "ueno_floor: reps %d", reps);
  const int tpb = (int)h->p.threads_per_block;
  const int64_t ncols = h->p.r * h->p.block;
  const ClearCounter vis{h->sv, h->wb, h->p.block, BlockShift(h->p.block), h->counter};
  float x = 0;
  BFSB_CHECK(bfsb::MedianMs(h->ev, 0, 1, h->s, reps, [&] {
    if (gather) {
      cudaError_t e = cudaMemsetAsync(h->huge_ctl, 0, 8, h->s);
      if (e != cudaSuccess) return e;
      const HugeQueue hq{h->huge, h->huge_cap, h->huge_ctl, h->err_flag, kHugeError};
      GatherFloorKernel<<<h->grid, kGatherThreads, 0, h->s>>>(ncols, h->col_ptr, h->row_idx, hq, vis);
      bfsb::HugeKernel<kGatherThreads><<<h->grid, kGatherThreads, 0, h->s>>>(hq, h->row_idx, vis);
    } else {
      FloorKernel<<<Blocks(h->p.nnz, tpb), tpb, 0, h->s>>>(h->row_idx, h->p.nnz, vis);
    }
    return cudaGetLastError();  // the floor kernel's launch
  }, &x));
  *ms = x;
  return 0;
}

int32_t ueno_vlq_encode(int64_t device, const uint32_t* vals, int64_t n, uint8_t* dst, int64_t cap,
                        int64_t* nbytes, int32_t reps, double* ms, char* err, int32_t errlen) {
  BFSB_REQUIRE(n >= 0 && reps >= 1 && vals != nullptr && dst != nullptr, "ueno_vlq_encode: bad arguments");
  BFSB_CHECK(cudaSetDevice((int)device));
  uint32_t *d_vals = nullptr, *d_tmp = nullptr;
  uint8_t* d_out = nullptr;
  bfsb::EventPool ev;
  cudaStream_t s = nullptr;
  auto cleanup = [&]() {
    if (d_vals) cudaFree(d_vals);
    if (d_tmp) cudaFree(d_tmp);
    if (d_out) cudaFree(d_out);
    ev.Destroy();
    if (s) cudaStreamDestroy(s);
  };
  int32_t st = [&]() -> int32_t {
    BFSB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    BFSB_CHECK(ev.Create(2));
    BFSB_CHECK(cudaMalloc(&d_vals, std::max<int64_t>(1, n) * 4));
    BFSB_CHECK(cudaMalloc(&d_tmp, bfsb::VlqEncodeTmpWords(n) * 4));
    BFSB_CHECK(cudaMalloc(&d_out, std::max<int64_t>(1, bfsb::VlqMaxBytes(n))));
    BFSB_CHECK(cudaMemcpy(d_vals, vals, n * 4, cudaMemcpyHostToDevice));
    float x = 0;
    BFSB_CHECK(bfsb::MedianMs(ev, 0, 1, s, reps, [&] { return bfsb::VlqEncode(d_vals, n, d_out, d_tmp, s); },
                              &x));
    *ms = x;
    uint32_t len = 0;
    BFSB_CHECK(cudaMemcpy(&len, bfsb::VlqEncodedLength(d_tmp, n), 4, cudaMemcpyDeviceToHost));
    BFSB_REQUIRE((int64_t)len <= cap, "ueno_vlq_encode: %u bytes, buffer %lld", len, (long long)cap);
    BFSB_CHECK(cudaMemcpy(dst, d_out, len, cudaMemcpyDeviceToHost));
    *nbytes = len;
    return 0;
  }();
  cleanup();
  return st;
}

int32_t ueno_vlq_decode(int64_t device, const uint8_t* src, int64_t nbytes, int64_t n, uint32_t* dst, int32_t reps,
                        double* ms, char* err, int32_t errlen) {
  BFSB_REQUIRE(n >= 0 && nbytes >= 0 && reps >= 1 && dst != nullptr, "ueno_vlq_decode: bad arguments");
  BFSB_CHECK(cudaSetDevice((int)device));
  uint32_t *d_vals = nullptr, *d_tmp = nullptr, *d_err = nullptr;
  uint8_t* d_in = nullptr;
  bfsb::EventPool ev;
  cudaStream_t s = nullptr;
  auto cleanup = [&]() {
    if (d_vals) cudaFree(d_vals);
    if (d_tmp) cudaFree(d_tmp);
    if (d_err) cudaFree(d_err);
    if (d_in) cudaFree(d_in);
    ev.Destroy();
    if (s) cudaStreamDestroy(s);
  };
  int32_t st = [&]() -> int32_t {
    BFSB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    BFSB_CHECK(ev.Create(2));
    BFSB_CHECK(cudaMalloc(&d_vals, std::max<int64_t>(1, n) * 4));
    BFSB_CHECK(cudaMalloc(&d_tmp, bfsb::VlqDecodeTmpWords(nbytes) * 4));
    BFSB_CHECK(cudaMalloc(&d_err, 4));
    BFSB_CHECK(cudaMalloc(&d_in, std::max<int64_t>(1, nbytes)));
    if (nbytes > 0) BFSB_CHECK(cudaMemcpy(d_in, src, nbytes, cudaMemcpyHostToDevice));
    BFSB_CHECK(cudaMemset(d_err, 0, 4));
    float x = 0;
    BFSB_CHECK(bfsb::MedianMs(
        ev, 0, 1, s, reps, [&] { return bfsb::VlqDecode(d_in, nbytes, n, d_vals, d_tmp, d_err, s); }, &x));
    *ms = x;
    uint32_t e = 0;
    BFSB_CHECK(cudaMemcpy(&e, d_err, 4, cudaMemcpyDeviceToHost));
    BFSB_REQUIRE(e == 0, "ueno_vlq_decode: corrupt stream (flags %#x)", e);
    if (n > 0) BFSB_CHECK(cudaMemcpy(dst, d_vals, n * 4, cudaMemcpyDeviceToHost));
    return 0;
  }();
  cleanup();
  return st;
}

void ueno_destroy(void* hv) { delete (Handle*)hv; }

}  // extern "C"
