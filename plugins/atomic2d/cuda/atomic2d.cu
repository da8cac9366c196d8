// atomic2d.cu: the CUDA kernels of one rank of the 2D-partitioned search
// of [1] = [Bisson] (docs/papers.md), and the C ABI of atomic2d.h around
// them. Comments name [1]'s steps by
// Algorithm and line number and keep its names (cumul, bmap, dst_verts,
// dst_cnt, all_front):
//
//   - expand_frontier (Algorithm 3, §3.4): cumulative degrees of all_front
//     by an exclusive scan (CUB), then one thread per group of K consecutive
//     frontier edges (§3.4.1), its first edge found by binsearch_maxle and
//     the next ones by a linear advance; the K edges are processed
//     interleaved (each step issued for all K before the next, so their
//     loads are in flight together); test then atomicOr on the visited
//     bitmap, a slot in the per-column output queue, level and predecessor
//     writes;
//   - update_frontier (§3.5): one thread per vertex received in the fold
//     exchange, the sender's grid column stored as a temporary predecessor;
//   - bitmap messages (§5): packing a vertex list into a bitmap and a
//     warp-centric unpacking kernel (popcount, warp scan);
//   - the delayed predecessor exchange's device side (queries, lookups,
//     final parents);
//   - the test floor (FloorKernel, not in [1]): one balanced pass of
//     row-index reads and bitmap tests over every local edge, the least
//     that Algorithm 3's levels do together, to measure how far the
//     expansion is from it.
//
// The warp and block collectives (WarpAppend, WarpReserve, WarpSum,
// BlockAppend) are the shared ones of harness/cuda/include/bfsb_warp.cuh.
//
// Choices [1] leaves open, made here:
//   - The output queue slots of Algorithm 3 line 10 are reserved as the
//     append option says (a2d_params.append_block): "thread" is line 10 as
//     written, one atomic increment of dst_cnt[tgtj] per discovered vertex
//     (the paper preset); "block" (the tuned preset) reserves them for a
//     whole block at a time: the warps add their winners to counters in
//     shared memory, one atomic per warp and destination column, and one
//     atomic per block round and column reserves the block's slots in
//     dst_cnt (bfsb::BlockAppend). On a 1×1 grid every winner goes to one
//     counter, one L2 address whose atomics are served one at a time.
//   - The expansion grid is persistent (as many blocks as fit on the GPU,
//     striding over the edge groups), so that the host need not read the
//     scan's total before the launch: one host synchronization per level,
//     for the output counts.
//   - The bitmap test before the atomicOr (Algorithm 3 line 6, and the
//     update) is a plain load, which on sm_90 may be served from L1 and
//     return a stale word while the atomics update L2. That is correct: a
//     stale zero only costs an atomic (the atomicOr decides who wins), and
//     bits never clear during a search.
//   - Level and predecessor of a local row share one 64-bit word (level in
//     the high half, predecessor in the low half) instead of two arrays, so
//     that discovering a vertex is one 8-byte store: on HBM with ECC a
//     partial-sector store costs a read-modify-write of the whole 32-byte
//     sector, and two arrays would pay it twice per vertex.
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <new>
#include <vector>

#include "atomic2d.h"
#include "bfsb_check.cuh"
#include "bfsb_scan.cuh"
#include "bfsb_timer.cuh"
#include "bfsb_warp.cuh"

namespace {

constexpr uint32_t kFull = 0xffffffffu;

using bfsb::BlockAppend;
using bfsb::WarpAppend;

// ---------------------------------------------------------------- helpers

// MaxLE is binsearch_maxle of Algorithm 3: the largest k in [0, n-1] with
// a[k] ≤ x, for non-decreasing a with a[0] ≤ x.
__device__ __forceinline__ uint32_t MaxLE(const uint32_t* __restrict__ a, uint32_t n, uint32_t x) {
  uint32_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const uint32_t mid = (lo + hi + 1) >> 1;
    if (__ldg(&a[mid]) <= x) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// ---------------------------------------------------------------- kernels

// LP packs a level and a predecessor into one word.
__host__ __device__ __forceinline__ uint64_t LP(int32_t level, uint32_t pred) {
  return ((uint64_t)(uint32_t)level << 32) | pred;
}
__host__ __device__ __forceinline__ uint32_t PredOf(uint64_t lp) { return (uint32_t)lp; }
__host__ __device__ __forceinline__ int32_t LevelOf(uint64_t lp) { return (int32_t)(lp >> 32); }

// ResetRootKernel marks the root (Algorithm 2 lines 6-9).
__global__ void ResetRootKernel(uint64_t* lp, uint32_t* bmap, uint32_t* front, uint32_t* cnt,
                                uint32_t row, uint32_t col) {
  lp[row] = LP(0, col);  // the root is its own predecessor (a local column)
  bmap[row >> 5] |= 1u << (row & 31);
  front[0] = col;
  *cnt = 1;
}

// SubCopyKernel writes dst[k] = src[k] - sub (vertices to message offsets).
__global__ void SubCopyKernel(uint32_t* __restrict__ dst, const uint32_t* __restrict__ src,
                              uint32_t n, uint32_t sub) {
  for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
    dst[k] = src[k] - sub;
  }
}

// AddKernel adds add to a[0..n) in place (message offsets to vertices).
__global__ void AddKernel(uint32_t* a, uint32_t n, uint32_t add) {
  for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
    a[k] += add;
  }
}

// AccumulateKernel adds *x to *acc (the edges scanned by the parts of one
// expansion, a2d_expand_range).
__global__ void AccumulateKernel(unsigned long long* acc, const uint32_t* x) { *acc += *x; }

// PackKernel sets bit src[k]-sub of bm for every k (list to bitmap, §5).
__global__ void PackKernel(const uint32_t* __restrict__ src, uint32_t n, uint32_t sub,
                           uint32_t* bm) {
  for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
    const uint32_t x = src[k] - sub;
    atomicOr(&bm[x >> 5], 1u << (x & 31));
  }
}

// UnpackKernel appends add+b for every set bit b of bm[0..nwords) to out at
// *cursor (bitmap to list, §5): one word per lane, the lanes' slots
// reserved by popcount with one atomicAdd per warp (WarpReserve: a warp
// scan of the popcounts).
__global__ void UnpackKernel(const uint32_t* __restrict__ bm, uint32_t nwords, uint32_t* out,
                             uint32_t* cursor, uint32_t add) {
  for (uint32_t base = blockIdx.x * blockDim.x; base < nwords; base += gridDim.x * blockDim.x) {
    const uint32_t i = base + threadIdx.x;
    uint32_t w = i < nwords ? bm[i] : 0;
    uint32_t pos = bfsb::WarpReserve(cursor, __popc(w));
    while (w != 0) {
      const int b = __ffs(w) - 1;
      w &= w - 1;
      out[pos++] = add + i * 32 + (uint32_t)b;
    }
  }
}

// kCheckWords is the payload check's size: whether a received bitmap
// disagreed with its vertex count, and the first such pair of numbers.
constexpr int64_t kCheckWords = 3;

// CheckCountKernel compares the vertices UnpackKernel appended (*cursor)
// with the count the payload's sender gave, and records the first
// disagreement in check[0..3): {1, held, count}. Append enqueues it in
// place of a host round trip; the level's one synchronization (ExpandEnd,
// or Update for the fold) reads the check (TakeCheck).
__global__ void CheckCountKernel(const uint32_t* cursor, uint32_t count, uint32_t* check) {
  if (*cursor != count && check[0] == 0) {
    check[0] = 1;
    check[1] = *cursor;
    check[2] = count;
  }
}

// DegreesKernel writes the degree of each all_front vertex into deg[k] and
// deg[n] = 0, so that an exclusive scan over n+1 entries leaves the total
// in deg[n].
__global__ void DegreesKernel(const uint32_t* __restrict__ front, uint32_t n,
                              const uint32_t* __restrict__ col_off, uint32_t* deg) {
  for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k <= n; k += gridDim.x * blockDim.x) {
    uint32_t d = 0;
    if (k < n) {
      const uint32_t u = front[k];
      d = __ldg(&col_off[u + 1]) - __ldg(&col_off[u]);
    }
    deg[k] = d;
  }
}

// ExpandArgs are expand_frontier's inputs.
struct ExpandArgs {
  const uint32_t* col_off;  // CSC
  const uint32_t* row_idx;
  const uint32_t* front;  // all_front (local columns)
  const uint32_t* cumul;  // exclusive scan of degrees, nfront+1 entries
  uint32_t nfront;
  uint32_t* bmap;
  uint64_t* lp;   // level and predecessor per local row
  uint32_t* out;  // dst_verts: C blocks of block_n
  uint32_t* cnt;  // dst_cnt
  uint32_t block_n, C, J, row0, col0;
  int32_t lvl;
};

// Column holds what the expansion needs of frontier column c: its edges
// [start, end) in the scan, its vertex u (line 3) and u's first CSC entry.
struct Column {
  uint32_t c, start, end, u, off;
};

// LoadColumn reads column c's entries; the four loads are independent but
// the last (col_off[u]), so they are in flight together.
__device__ __forceinline__ Column LoadColumn(const ExpandArgs& a, uint32_t c) {
  Column k;
  k.c = c;
  k.start = __ldg(&a.cumul[c]);
  k.end = __ldg(&a.cumul[c + 1]);
  k.u = __ldg(&a.front[c]);
  k.off = __ldg(&a.col_off[k.u]);
  return k;
}

// ExpandKernel is Algorithm 3 with K consecutive edges per thread
// (§3.4.1). BLK (append = block) selects how the output queue slots of
// line 10 are reserved: without it, line 10 as written, one atomicAdd on
// dst_cnt[tgtj] per discovered vertex; with it, a bfsb::BlockAppend over
// the C queues: the warps add their winners to the block's counters in
// shared memory and, once per round of the block, one thread per queue
// adds the block's total to dst_cnt.
template <int K, bool BLK>
__global__ void ExpandKernel(ExpandArgs a) {
  extern __shared__ uint32_t shared[];  // BLK: BlockAppend::SharedWords(C)
  BlockAppend block(shared, a.C);
  if (BLK) block.Init();
  const uint32_t total = a.cumul[a.nfront];
  const uint64_t groups = ((uint64_t)total + K - 1) / K;
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  const bool single = a.C == 1;
  // The loop bound is uniform across the block, so whole warps iterate
  // together (BlockAppend needs all 32 lanes of a warp, and every warp).
  for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < groups; base += stride) {
    const uint64_t t = base + threadIdx.x;  // line 1: gid, of the group's first edge
    uint32_t u[K], v[K];
    bool valid[K];
    if (t < groups) {
      const uint32_t first = (uint32_t)(t * K);
      // Line 2: one binary search, for the group's first edge; line 3: k.u.
      Column k = LoadColumn(a, MaxLE(a.cumul, a.nfront, first));
#pragma unroll
      for (int i = 0; i < K; ++i) {
        const uint32_t e = first + i;
        valid[i] = e < total;
        if (valid[i]) {
          // §3.4.1: the group overlaps the next column(s).
          while (e >= k.end) k = LoadColumn(a, k.c + 1);
        }
        u[i] = k.u;
        v[i] = k.off + (e - k.start);  // line 4: col[u] + gid - cumul[k]
      }
    } else {
#pragma unroll
      for (int i = 0; i < K; ++i) {
        valid[i] = false;
        u[i] = 0;
        v[i] = 0;
      }
    }
    // Line 4, interleaved: K independent loads of row[] in flight.
#pragma unroll
    for (int i = 0; i < K; ++i) v[i] = valid[i] ? __ldg(&a.row_idx[v[i]]) : 0;
    // Lines 5-6: the test (a plain load: see the header comment).
    uint32_t w[K];
#pragma unroll
    for (int i = 0; i < K; ++i) w[i] = valid[i] ? a.bmap[v[i] >> 5] : kFull;
    // Lines 7-8: atomicOr; only the thread that set the bit goes on.
    bool won[K];
#pragma unroll
    for (int i = 0; i < K; ++i) {
      const uint32_t m = 1u << (v[i] & 31);
      won[i] = false;
      if (valid[i] && (w[i] & m) == 0) won[i] = (atomicOr(&a.bmap[v[i] >> 5], m) & m) == 0;
    }
    // Line 9: tgtj, the grid column owning v; line 10: off, its slot in
    // dst_verts[tgtj].
    int tgt[K];
    uint32_t slot[K];
#pragma unroll
    for (int i = 0; i < K; ++i) {
      tgt[i] = won[i] ? (single ? 0 : (int)(v[i] / a.block_n)) : -1;
      if (BLK) {
        slot[i] = block.Warp(tgt[i], single);
      } else {
        slot[i] = won[i] ? atomicAdd(&a.cnt[tgt[i]], 1u) : 0;
      }
    }
    if (BLK) {
      // The block's slots of this round are [0, n_q) of queue q: reserve
      // them in dst_cnt, then offset every slot by the block's base.
      block.Commit(a.cnt);
#pragma unroll
      for (int i = 0; i < K; ++i) {
        if (won[i]) slot[i] += block.Base(tgt[i]);
      }
    }
    // Lines 11-17.
#pragma unroll
    for (int i = 0; i < K; ++i) {
      if (won[i]) {
        if ((uint32_t)tgt[i] != a.J) {
          a.out[(uint64_t)tgt[i] * a.block_n + slot[i]] = v[i];  // line 12
          a.lp[v[i]] = LP(-1, u[i]);                             // line 17
        } else {
          a.out[(uint64_t)a.J * a.block_n + slot[i]] = v[i] - a.row0 + a.col0;  // line 14: ROW2COL
          a.lp[v[i]] = LP(a.lvl, u[i]);                                      // lines 15, 17
        }
      }
    }
  }
}

// FloorKernel is the test floor (a2d_test_floor): each warp takes 32·K
// consecutive local edges a round; MODE A2D_FLOOR_THREAD gives lane l the
// edges l·K..l·K+K-1 of them (ExpandKernel's order), A2D_FLOOR_WARP the
// edges l, l+32, ... (consecutive across lanes), A2D_FLOOR_STREAM reads the
// row indices in the warp order and tests nothing. The K loads of a step
// are issued together, as in ExpandKernel. Counts the tested rows whose bit
// is clear into *sink (and, for STREAM, the odd rows), so no load is dead.
template <int MODE>
__global__ void FloorKernel(const uint32_t* __restrict__ row_idx, uint64_t nnz, const uint32_t* bmap,
                            unsigned long long* sink) {
  constexpr int K = 4;
  const int lane = threadIdx.x & 31;
  const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
  uint32_t n = 0;
  for (uint64_t base = warp * 32 * K; base < nnz; base += warps * 32 * K) {
    uint32_t v[K];
    bool ok[K];
#pragma unroll
    for (int i = 0; i < K; ++i) {
      const uint64_t e = MODE == A2D_FLOOR_THREAD ? base + (uint64_t)lane * K + i : base + lane + 32 * i;
      ok[i] = e < nnz;
      v[i] = ok[i] ? __ldg(&row_idx[e]) : 0;
    }
    if (MODE == A2D_FLOOR_STREAM) {
#pragma unroll
      for (int i = 0; i < K; ++i) n += ok[i] ? (v[i] & 1) : 0;
    } else {
      uint32_t w[K];
#pragma unroll
      for (int i = 0; i < K; ++i) w[i] = ok[i] ? bmap[v[i] >> 5] : kFull;
#pragma unroll
      for (int i = 0; i < K; ++i) n += ((w[i] >> (v[i] & 31)) & 1) ^ 1;
    }
  }
  n = bfsb::WarpSum(n);
  if (lane == 0 && n != 0) atomicAdd(sink, (unsigned long long)n);
}

// UpdateArgs are update_frontier's inputs.
struct UpdateArgs {
  const uint32_t* recv;  // offsets within the own block
  uint32_t nrecv;
  const uint32_t* segs;  // C+1 segment starts: recv from grid column m
  uint32_t C;
  uint32_t* bmap;
  uint64_t* lp;
  uint32_t* front;  // dst_verts[J]
  uint32_t* cnt;    // &dst_cnt[J]
  uint32_t row0, col0;
  int32_t lvl;
};

// UpdateKernel is the frontier update of §3.5: one thread per received
// vertex, the bitmap tested with a plain load as in ExpandKernel.
__global__ void UpdateKernel(UpdateArgs a) {
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t base = blockIdx.x * blockDim.x; base < a.nrecv; base += stride) {
    const uint32_t t = base + threadIdx.x;
    bool won = false;
    uint32_t v = 0;
    if (t < a.nrecv) {
      v = a.row0 + a.recv[t];
      const uint32_t m = 1u << (v & 31);
      if ((a.bmap[v >> 5] & m) == 0) won = (atomicOr(&a.bmap[v >> 5], m) & m) == 0;
      if (won) {
        const uint32_t sender = MaxLE(a.segs, a.C, t);
        a.lp[v] = LP(a.lvl, A2D_PRED_REMOTE | sender);  // the sender holds the predecessor
      }
    }
    const uint32_t slot = WarpAppend(won ? 0 : -1, a.cnt, true);
    if (won) a.front[slot] = v - a.row0 + a.col0;
  }
}

// RemoteQueriesKernel appends every own row whose predecessor is held by
// grid column m to out block m, one atomic per warp and column (WarpAppend:
// on a 1×2 grid every query goes to one counter, and an atomic per row
// queued millions of them on its address).
__global__ void RemoteQueriesKernel(const uint64_t* __restrict__ lp, uint32_t row0, uint32_t own_len,
                                    uint32_t* out, uint32_t block_n, uint32_t* cnt) {
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t base = blockIdx.x * blockDim.x; base < own_len; base += stride) {  // warp-uniform
    const uint32_t o = base + threadIdx.x;
    int m = -1;
    if (o < own_len) {
      const uint32_t p = PredOf(lp[row0 + o]);
      if (p != A2D_PRED_NONE && (p & A2D_PRED_REMOTE) != 0) m = (int)(p & ~A2D_PRED_REMOTE);
    }
    const uint32_t slot = WarpAppend(m, cnt, false);
    if (m >= 0) out[(uint64_t)m * block_n + slot] = row0 + o;
  }
}

// LookupKernel replaces each queried local row by its predecessor; a row
// past local_rows, or one whose predecessor is not a local column (none, or
// held by a peer), lowers *bad to its query's index.
__global__ void LookupKernel(uint32_t* rows, uint32_t n, const uint64_t* __restrict__ lp, uint32_t local_rows,
                             uint32_t* bad) {
  for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
    const uint32_t r = rows[k];
    const uint32_t p = r < local_rows ? PredOf(lp[r]) : A2D_PRED_NONE;
    if (p == A2D_PRED_NONE || (p & A2D_PRED_REMOTE) != 0) atomicMin(bad, k);
    rows[k] = p;
  }
}

// FinalizeKernel turns own predecessors into global parents: -1 unreached,
// -2 remote (overwritten by ScatterAnswersKernel).
__global__ void FinalizeKernel(const uint64_t* __restrict__ lp, uint32_t row0, uint32_t own_len,
                               int64_t col_base, int64_t* parents) {
  for (uint32_t o = blockIdx.x * blockDim.x + threadIdx.x; o < own_len; o += gridDim.x * blockDim.x) {
    const uint32_t p = PredOf(lp[row0 + o]);
    int64_t g;
    if (p == A2D_PRED_NONE) {
      g = -1;
    } else if (p & A2D_PRED_REMOTE) {
      g = -2;
    } else {
      g = col_base + p;
    }
    parents[o] = g;
  }
}

// ScatterAnswersKernel writes the parents answered by grid column m.
__global__ void ScatterAnswersKernel(const uint32_t* __restrict__ rows, const uint32_t* __restrict__ ans,
                                     uint32_t n, uint32_t row0, int64_t col_base, int64_t* parents) {
  for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
    parents[rows[k] - row0] = col_base + ans[k];
  }
}

// ---------------------------------------------------------------- handle

struct Handle {
  a2d_params p{};
  int sms = 0;
  int tpb = 256;
  int expand_blocks = 0;  // persistent grid of the expansion kernel
  cudaStream_t s = nullptr;
  cudaStream_t xs = nullptr;  // the exchange stream (a2d_exchange_stream), or none
  uint32_t* col_off = nullptr;
  uint32_t* row_idx = nullptr;
  uint64_t* lp = nullptr;  // level << 32 | predecessor, per local row
  uint32_t* bmap = nullptr;
  uint32_t* out = nullptr;  // C·n
  uint32_t* cnt = nullptr;  // C counters, one cursor, then the payload check (CheckCountKernel)
  uint32_t* all_front = nullptr;
  uint32_t* cumul = nullptr;
  uint32_t* recv = nullptr;
  uint32_t* segs = nullptr;
  uint32_t* stage = nullptr;  // bitmap of block_n bits
  int64_t* parents = nullptr;
  unsigned long long* edges = nullptr;  // edges scanned by the current expansion's parts
  std::vector<uint32_t*> host;  // pinned host buffers (a2d_host_alloc)
  bfsb::Scratch scratch;
  int64_t nfront = 0;
  int64_t nall = 0;
  int64_t nrecv = 0;
  std::vector<uint32_t> hsegs;     // C+1
  std::vector<uint32_t> hcounts;   // C: dst_cnt after expansion
  std::vector<uint32_t> hcnt;      // cnt_words(): cnt read back at a level's synchronization
  std::vector<uint32_t> hqcounts;  // C: remote query counts

  uint32_t* cursor() const { return cnt + p.C; }
  uint32_t* check() const { return cnt + p.C + 1; }
  int64_t cnt_words() const { return p.C + 1 + kCheckWords; }
  int64_t bitmap_words() const { return (p.block_n + 31) / 32; }
  int64_t recv_cap() const { return (p.C > 1 ? p.C - 1 : 1) * p.block_n; }
  uint32_t row0() const { return (uint32_t)(p.J * p.block_n); }
  uint32_t col0() const { return (uint32_t)(p.I * p.block_n); }

  ~Handle() {
    cudaSetDevice((int)p.device);
    void* ptrs[] = {col_off, row_idx, lp, bmap, out, cnt, all_front, cumul, recv, segs, stage, parents, edges};
    for (void* q : ptrs) {
      if (q != nullptr) cudaFree(q);
    }
    for (uint32_t* q : host) {
      if (q != nullptr) cudaFreeHost(q);
    }
    scratch.Free();
    if (s != nullptr) cudaStreamDestroy(s);
    if (xs != nullptr) cudaStreamDestroy(xs);
  }
};

int GridFor(const Handle* h, int64_t n) {
  int64_t b = (n + h->tpb - 1) / h->tpb;
  const int64_t cap = (int64_t)h->sms * 8;
  if (b > cap) b = cap;
  return b < 1 ? 1 : (int)b;
}

int64_t DeviceBytes(const a2d_params* p) {
  const int64_t n = p->block_n;
  int64_t b = 0;
  b += 4 * (p->local_cols + 1) + 4 * p->nnz;                 // CSC
  b += 8 * p->local_rows + 4 * ((p->local_rows + 31) / 32);  // level+pred, bitmap
  b += 4 * p->C * n + 4 * (p->C + 1 + kCheckWords);           // out, cnt, cursor, check
  b += 4 * p->local_cols + 4 * (p->local_cols + 1);           // all_front, cumul
  b += 4 * (p->C > 1 ? p->C - 1 : 1) * n + 4 * (p->C + 1);     // recv, segs
  b += 4 * ((n + 31) / 32) + 8 * p->own_len + 8;              // stage, parents, edges
  b += 64 << 20;                                              // CUB scratch and slack
  return b;
}

// ExpandFn is one instance of ExpandKernel.
using ExpandFn = void (*)(ExpandArgs);

// ExpandKernelFor is the instance for the handle's edges_per_thread (1..8,
// checked by a2d_create) and append mode. (A function-local table: CUDA
// 11.8's nvcc emits no device code for kernels named only in a static
// constexpr member of a class template, so the library would lack them.)
ExpandFn ExpandKernelFor(const Handle* h) {
  static const ExpandFn kKernels[2][8] = {
      {ExpandKernel<1, false>, ExpandKernel<2, false>, ExpandKernel<3, false>, ExpandKernel<4, false>,
       ExpandKernel<5, false>, ExpandKernel<6, false>, ExpandKernel<7, false>, ExpandKernel<8, false>},
      {ExpandKernel<1, true>, ExpandKernel<2, true>, ExpandKernel<3, true>, ExpandKernel<4, true>,
       ExpandKernel<5, true>, ExpandKernel<6, true>, ExpandKernel<7, true>, ExpandKernel<8, true>},
  };
  return kKernels[h->p.append_block ? 1 : 0][h->p.edges_per_thread - 1];
}

// ExpandShared is the dynamic shared memory of the expansion: with append
// = block, BlockAppend's counters and bases per output queue.
size_t ExpandShared(const Handle* h) {
  return h->p.append_block ? BlockAppend::SharedWords((uint32_t)h->p.C) * sizeof(uint32_t) : 0;
}

cudaError_t LaunchExpand(Handle* h, const ExpandArgs& a) {
  ExpandKernelFor(h)<<<h->expand_blocks, h->tpb, ExpandShared(h), h->s>>>(a);
  return cudaGetLastError();
}

// SetExpandBlocks sizes the persistent expansion grid for the kernel
// instance the handle's options select.
cudaError_t SetExpandBlocks(Handle* h) {
  int per_sm = 0;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ExpandKernelFor(h), h->tpb,
                                                                ExpandShared(h));
  if (e != cudaSuccess) return e;
  h->expand_blocks = (per_sm < 1 ? 1 : per_sm) * h->sms;
  return cudaSuccess;
}

// OnDevice reports whether p is device memory (not pinned host memory).
bool OnDevice(const void* p) {
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();  // clear it: unknown memory is treated as host memory
    return false;
  }
  return a.type == cudaMemoryTypeDevice;
}

// Payload writes count vertices of src (device), minus sub, to dst (pinned
// host or device memory: the copy's direction follows from the address)
// as a list or a bitmap of block_n bits. For host memory it returns once
// dst holds the payload (the host sends it next); for device memory it
// returns at once, the payload ordered on the handle's stream (the device
// path's exchange stream waits for it with an event).
int32_t Payload(Handle* h, const uint32_t* src, int64_t count, uint32_t sub, int32_t bitmap,
                uint32_t* dst, char* err, int32_t errlen) {
  const bool on_device = OnDevice(dst);
  if (!bitmap) {
    if (count == 0) return 0;
    SubCopyKernel<<<GridFor(h, count), h->tpb, 0, h->s>>>(h->cumul, src, (uint32_t)count, sub);
    BFSB_CHECK_LAUNCH("SubCopyKernel");
    BFSB_CHECK(cudaMemcpyAsync(dst, h->cumul, 4 * count, cudaMemcpyDefault, h->s));
  } else {
    // Packed in place where dst is device memory, else staged.
    uint32_t* bm = on_device ? dst : h->stage;
    BFSB_CHECK(cudaMemsetAsync(bm, 0, 4 * h->bitmap_words(), h->s));
    if (count > 0) {
      PackKernel<<<GridFor(h, count), h->tpb, 0, h->s>>>(src, (uint32_t)count, sub, bm);
      BFSB_CHECK_LAUNCH("PackKernel");
    }
    if (!on_device) BFSB_CHECK(cudaMemcpyAsync(dst, h->stage, 4 * h->bitmap_words(), cudaMemcpyDefault, h->s));
  }
  if (!on_device) BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

// ExpandBegin is the start of expand_frontier: dst_cnt[] = 0 and no edge
// scanned yet.
int32_t ExpandBegin(Handle* h, char* err, int32_t errlen) {
  BFSB_CHECK(cudaMemsetAsync(h->cnt, 0, 4 * h->p.C, h->s));  // dst_cnt[] = 0
  BFSB_CHECK(cudaMemsetAsync(h->edges, 0, sizeof(*h->edges), h->s));
  return 0;
}

// ExpandRange enqueues expand_frontier (Algorithm 3) over all_front[from,
// to): degree gather, exclusive scan (CUB), the kernel, and the range's
// edges added to h->edges. Ranges of one level may be expanded one after
// the other: Algorithm 3 treats every frontier edge alike, whatever the
// order (the atomicOr on the bitmap picks one parent of the level's
// frontier per vertex), so the parts together do what one pass over the
// whole of all_front does.
int32_t ExpandRange(Handle* h, int32_t lvl, int64_t from, int64_t to, char* err, int32_t errlen) {
  BFSB_REQUIRE(from >= 0 && from <= to && to <= h->nall, "expansion of all_front[%lld, %lld) of %lld",
               (long long)from, (long long)to, (long long)h->nall);
  const int64_t nf = to - from;
  if (nf == 0) return 0;
  const uint32_t* front = h->all_front + from;
  DegreesKernel<<<GridFor(h, nf + 1), h->tpb, 0, h->s>>>(front, (uint32_t)nf, h->col_off, h->cumul);
  BFSB_CHECK_LAUNCH("DegreesKernel");
  BFSB_CHECK(bfsb::ExclusiveSum(h->scratch, h->cumul, h->cumul, (int)(nf + 1), h->s));
  ExpandArgs a;
  a.col_off = h->col_off;
  a.row_idx = h->row_idx;
  a.front = front;
  a.cumul = h->cumul;
  a.nfront = (uint32_t)nf;
  a.bmap = h->bmap;
  a.lp = h->lp;
  a.out = h->out;
  a.cnt = h->cnt;
  a.block_n = (uint32_t)h->p.block_n;
  a.C = (uint32_t)h->p.C;
  a.J = (uint32_t)h->p.J;
  a.row0 = h->row0();
  a.col0 = h->col0();
  a.lvl = lvl;
  BFSB_CHECK(LaunchExpand(h, a));
  AccumulateKernel<<<1, 1, 0, h->s>>>(h->edges, h->cumul + nf);
  BFSB_CHECK_LAUNCH("AccumulateKernel");
  return 0;
}

// ReadCnt enqueues the copy of cnt (the counters, the cursor and the
// payload check) to h->hcnt; TakeCheck reads it after the stream's
// synchronization.
cudaError_t ReadCnt(Handle* h) {
  return cudaMemcpyAsync(h->hcnt.data(), h->cnt, 4 * h->cnt_words(), cudaMemcpyDeviceToHost, h->s);
}

// TakeCheck reports the payload check read by ReadCnt (CheckCountKernel)
// and clears it on the device for the next level.
int32_t TakeCheck(Handle* h, const char* what, char* err, int32_t errlen) {
  const uint32_t* c = h->hcnt.data() + h->p.C + 1;
  if (c[0] == 0) return 0;
  BFSB_CHECK(cudaMemsetAsync(h->check(), 0, 4 * kCheckWords, h->s));
  return ::bfsb::Errf(err, errlen, BFSB_EINVAL, "a received %s bitmap payload held %u vertices, its count says %u",
                      what, c[1], c[2]);
}

// ExpandEnd waits for the expansion and reads dst_cnt and the edges
// scanned: the level's one host synchronization, which also reads the
// check of the bitmap payloads appended to all_front (Append).
int32_t ExpandEnd(Handle* h, uint32_t* counts, int64_t* edges, char* err, int32_t errlen) {
  unsigned long long total = 0;
  BFSB_CHECK(cudaMemcpyAsync(&total, h->edges, sizeof(total), cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(ReadCnt(h));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  if (int32_t st = TakeCheck(h, "expand", err, errlen); st != 0) return st;
  memcpy(h->hcounts.data(), h->hcnt.data(), 4 * h->p.C);
  memcpy(counts, h->hcounts.data(), 4 * h->p.C);
  *edges = (int64_t)total;
  h->nfront = h->hcounts[h->p.J];
  return 0;
}

// Append copies a received payload (pinned host or device memory) to
// dst+*n (device) as vertices (offset + add) and advances *n by count,
// without waiting: a bitmap's number of set bits is checked against count
// on the device (CheckCountKernel), and the level's synchronization
// reports a disagreement (TakeCheck). A device bitmap is unpacked where it
// lies; a host one is copied to the stage first.
int32_t Append(Handle* h, uint32_t* dst, int64_t* n, int64_t cap, int32_t bitmap,
               const uint32_t* payload, int64_t count, uint32_t add, char* err, int32_t errlen) {
  BFSB_REQUIRE(count >= 0 && *n + count <= cap, "received %lld vertices, %lld already held, room for %lld",
               (long long)count, (long long)*n, (long long)cap);
  if (count == 0) return 0;
  if (!bitmap) {
    BFSB_CHECK(cudaMemcpyAsync(dst + *n, payload, 4 * count, cudaMemcpyDefault, h->s));
    if (add != 0) {
      AddKernel<<<GridFor(h, count), h->tpb, 0, h->s>>>(dst + *n, (uint32_t)count, add);
      BFSB_CHECK_LAUNCH("AddKernel");
    }
  } else {
    const int64_t nw = h->bitmap_words();
    const uint32_t* bm = payload;
    if (!OnDevice(payload)) {
      BFSB_CHECK(cudaMemcpyAsync(h->stage, payload, 4 * nw, cudaMemcpyDefault, h->s));
      bm = h->stage;
    }
    BFSB_CHECK(cudaMemsetAsync(h->cursor(), 0, 4, h->s));
    UnpackKernel<<<GridFor(h, nw), h->tpb, 0, h->s>>>(bm, (uint32_t)nw, dst + *n, h->cursor(), add);
    BFSB_CHECK_LAUNCH("UnpackKernel");
    CheckCountKernel<<<1, 1, 0, h->s>>>(h->cursor(), (uint32_t)count, h->check());
    BFSB_CHECK_LAUNCH("CheckCountKernel");
  }
  *n += count;
  return 0;
}

}  // namespace

extern "C" {

int32_t a2d_abi_version(void) { return A2D_ABI_VERSION; }

int32_t a2d_device_bytes(const a2d_params* p, int64_t* bytes, char* err, int32_t errlen) {
  BFSB_REQUIRE(p != nullptr && bytes != nullptr, "a2d_device_bytes: null argument");
  *bytes = DeviceBytes(p);
  return 0;
}

int32_t a2d_create(const a2d_params* p, const uint32_t* col_off, const uint32_t* row_idx, void** out,
                   char* err, int32_t errlen) {
  BFSB_REQUIRE(p != nullptr && out != nullptr && col_off != nullptr, "a2d_create: null argument");
  BFSB_REQUIRE(p->R >= 1 && p->C >= 1 && p->I >= 0 && p->I < p->R && p->J >= 0 && p->J < p->C,
               "a2d_create: bad grid position P(%lld,%lld) of %lldx%lld", (long long)p->I, (long long)p->J,
               (long long)p->R, (long long)p->C);
  BFSB_REQUIRE(p->block_n >= 1 && p->local_rows == p->C * p->block_n && p->local_cols == p->R * p->block_n &&
                   p->local_rows < (1ll << 31) && p->local_cols < (1ll << 31),
               "a2d_create: inconsistent shape (block_n %lld, rows %lld, cols %lld)", (long long)p->block_n,
               (long long)p->local_rows, (long long)p->local_cols);
  BFSB_REQUIRE(p->nnz >= 0 && p->nnz < (1ll << 32), "a2d_create: %lld local edges exceed 32-bit offsets",
               (long long)p->nnz);
  BFSB_REQUIRE(p->edges_per_thread >= 1 && p->edges_per_thread <= 8, "edges_per_thread %lld outside 1..8",
               (long long)p->edges_per_thread);
  BFSB_REQUIRE(p->threads_per_block >= 64 && p->threads_per_block <= 1024 && p->threads_per_block % 32 == 0,
               "threads_per_block %lld: want a multiple of 32 in [64, 1024]", (long long)p->threads_per_block);
  BFSB_REQUIRE(p->append_block == 0 || p->append_block == 1, "append_block %lld: want 0 (thread) or 1 (block)",
               (long long)p->append_block);
  BFSB_CHECK(cudaSetDevice((int)p->device));
  Handle* h = new (std::nothrow) Handle();
  BFSB_REQUIRE(h != nullptr, "a2d_create: host allocation failed");
  h->p = *p;
  h->tpb = (int)p->threads_per_block;
  h->hsegs.assign(p->C + 1, 0);
  h->hcounts.assign(p->C, 0);
  h->hcnt.assign(h->cnt_words(), 0);
  h->hqcounts.assign(p->C, 0);
  int32_t st = [&]() -> int32_t {
    BFSB_CHECK(cudaDeviceGetAttribute(&h->sms, cudaDevAttrMultiProcessorCount, (int)p->device));
    BFSB_CHECK(cudaStreamCreateWithFlags(&h->s, cudaStreamNonBlocking));
    const int64_t n = p->block_n;
    BFSB_CHECK(cudaMalloc(&h->col_off, 4 * (p->local_cols + 1)));
    BFSB_CHECK(cudaMalloc(&h->row_idx, 4 * (p->nnz > 0 ? p->nnz : 1)));
    BFSB_CHECK(cudaMalloc(&h->lp, 8 * p->local_rows));
    BFSB_CHECK(cudaMalloc(&h->bmap, 4 * ((p->local_rows + 31) / 32)));
    BFSB_CHECK(cudaMalloc(&h->out, 4 * p->C * n));
    BFSB_CHECK(cudaMalloc(&h->cnt, 4 * h->cnt_words()));
    BFSB_CHECK(cudaMalloc(&h->all_front, 4 * p->local_cols));
    BFSB_CHECK(cudaMalloc(&h->cumul, 4 * (p->local_cols + 1)));
    BFSB_CHECK(cudaMalloc(&h->recv, 4 * h->recv_cap()));
    BFSB_CHECK(cudaMalloc(&h->segs, 4 * (p->C + 1)));
    BFSB_CHECK(cudaMalloc(&h->stage, 4 * h->bitmap_words()));
    BFSB_CHECK(cudaMalloc(&h->parents, 8 * (p->own_len > 0 ? p->own_len : 1)));
    BFSB_CHECK(cudaMalloc(&h->edges, sizeof(*h->edges)));
    // A clear bitmap, so that a test floor timed before the first search
    // reads defined memory.
    BFSB_CHECK(cudaMemset(h->bmap, 0, 4 * ((p->local_rows + 31) / 32)));
    BFSB_CHECK(cudaMemcpy(h->col_off, col_off, 4 * (p->local_cols + 1), cudaMemcpyHostToDevice));
    if (p->nnz > 0) BFSB_CHECK(cudaMemcpy(h->row_idx, row_idx, 4 * p->nnz, cudaMemcpyHostToDevice));
    BFSB_CHECK(SetExpandBlocks(h));
    // Size CUB's scratch once, for the largest scan.
    size_t bytes = 0;
    BFSB_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, h->cumul, h->cumul, (int)(p->local_cols + 1), h->s));
    BFSB_CHECK(h->scratch.Reserve(bytes));
    return 0;
  }();
  if (st != 0) {
    delete h;
    return st;
  }
  *out = h;
  return 0;
}

int32_t a2d_reset(void* hv, int64_t root_row, int64_t* nfront, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr, "a2d_reset: null handle");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  // Level -1 and A2D_PRED_NONE: all ones.
  BFSB_CHECK(cudaMemsetAsync(h->lp, 0xff, 8 * h->p.local_rows, h->s));
  BFSB_CHECK(cudaMemsetAsync(h->bmap, 0, 4 * ((h->p.local_rows + 31) / 32), h->s));
  BFSB_CHECK(cudaMemsetAsync(h->cnt, 0, 4 * h->cnt_words(), h->s));
  h->nfront = 0;
  if (root_row >= 0) {
    BFSB_REQUIRE(root_row >= h->row0() && root_row < h->row0() + h->p.own_len, "root row %lld is not an own row",
                 (long long)root_row);
    const uint32_t row = (uint32_t)root_row;
    ResetRootKernel<<<1, 1, 0, h->s>>>(h->lp, h->bmap, h->out + h->p.J * h->p.block_n, h->cnt + h->p.J, row,
                                       row - h->row0() + h->col0());
    BFSB_CHECK_LAUNCH("ResetRootKernel");
    h->nfront = 1;
  }
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  *nfront = h->nfront;
  return 0;
}

int32_t a2d_frontier_payload(void* hv, int32_t bitmap, uint32_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  return Payload(h, h->out + h->p.J * h->p.block_n, h->nfront, h->col0(), bitmap, dst, err, errlen);
}

int32_t a2d_frontier_begin(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (h->nfront > 0) {
    BFSB_CHECK(cudaMemcpyAsync(h->all_front, h->out + h->p.J * h->p.block_n, 4 * h->nfront,
                               cudaMemcpyDeviceToDevice, h->s));
  }
  h->nall = h->nfront;
  return 0;
}

int32_t a2d_frontier_add(void* hv, int64_t r, int32_t bitmap, const uint32_t* payload, int64_t count, char* err,
                         int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(r >= 0 && r < h->p.R && r != h->p.I, "frontier from grid row %lld", (long long)r);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  return Append(h, h->all_front, &h->nall, h->p.local_cols, bitmap, payload, count, (uint32_t)(r * h->p.block_n),
                err, errlen);
}

int32_t a2d_expand(void* hv, int32_t lvl, uint32_t* counts, int64_t* edges, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  int32_t st = ExpandBegin(h, err, errlen);
  if (st == 0) st = ExpandRange(h, lvl, 0, h->nall, err, errlen);
  if (st == 0) st = ExpandEnd(h, counts, edges, err, errlen);
  return st;
}

int32_t a2d_expand_begin(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr, "a2d_expand_begin: null handle");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  return ExpandBegin(h, err, errlen);
}

int32_t a2d_expand_range(void* hv, int32_t lvl, int64_t from, int64_t to, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr, "a2d_expand_range: null handle");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  return ExpandRange(h, lvl, from, to, err, errlen);
}

int32_t a2d_expand_end(void* hv, uint32_t* counts, int64_t* edges, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && counts != nullptr && edges != nullptr, "a2d_expand_end: null argument");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  return ExpandEnd(h, counts, edges, err, errlen);
}

int32_t a2d_frontier_count(void* hv, int64_t* nall, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && nall != nullptr, "a2d_frontier_count: null argument");
  *nall = h->nall;
  return 0;
}

int32_t a2d_fold_payload(void* hv, int64_t m, int32_t bitmap, uint32_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(m >= 0 && m < h->p.C && m != h->p.J, "fold payload for grid column %lld", (long long)m);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  return Payload(h, h->out + m * h->p.block_n, h->hcounts[m], (uint32_t)(m * h->p.block_n), bitmap, dst, err,
                 errlen);
}

int32_t a2d_fold_begin(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  h->nrecv = 0;
  for (auto& x : h->hsegs) x = 0;
  return 0;
}

int32_t a2d_fold_add(void* hv, int64_t m, int32_t bitmap, const uint32_t* payload, int64_t count, char* err,
                     int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(m >= 0 && m < h->p.C && m != h->p.J, "fold message from grid column %lld", (long long)m);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  // Segments must be added in increasing m; segment m starts where the
  // list stands now, and every later segment start follows it.
  for (int64_t x = m; x <= h->p.C; ++x) h->hsegs[x] = (uint32_t)h->nrecv;
  int32_t st = Append(h, h->recv, &h->nrecv, h->recv_cap(), bitmap, payload, count, 0, err, errlen);
  if (st != 0) return st;
  for (int64_t x = m + 1; x <= h->p.C; ++x) h->hsegs[x] = (uint32_t)h->nrecv;
  return 0;
}

int32_t a2d_update(void* hv, int32_t lvl, int64_t* nfront, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (h->nrecv > 0) {
    BFSB_CHECK(cudaMemcpyAsync(h->segs, h->hsegs.data(), 4 * (h->p.C + 1), cudaMemcpyHostToDevice, h->s));
    UpdateArgs a;
    a.recv = h->recv;
    a.nrecv = (uint32_t)h->nrecv;
    a.segs = h->segs;
    a.C = (uint32_t)h->p.C;
    a.bmap = h->bmap;
    a.lp = h->lp;
    a.front = h->out + h->p.J * h->p.block_n;
    a.cnt = h->cnt + h->p.J;
    a.row0 = h->row0();
    a.col0 = h->col0();
    a.lvl = lvl;
    UpdateKernel<<<GridFor(h, h->nrecv), h->tpb, 0, h->s>>>(a);
    BFSB_CHECK_LAUNCH("UpdateKernel");
    BFSB_CHECK(ReadCnt(h));
    BFSB_CHECK(cudaStreamSynchronize(h->s));
    if (int32_t st = TakeCheck(h, "fold", err, errlen); st != 0) return st;
    h->nfront = h->hcnt[h->p.J];
  }
  *nfront = h->nfront;
  return 0;
}

int32_t a2d_remote_queries(void* hv, uint32_t* counts, uint32_t* rows, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  BFSB_CHECK(cudaMemsetAsync(h->cnt, 0, 4 * h->p.C, h->s));
  if (h->p.own_len > 0) {
    RemoteQueriesKernel<<<GridFor(h, h->p.own_len), h->tpb, 0, h->s>>>(h->lp, h->row0(), (uint32_t)h->p.own_len,
                                                                      h->out, (uint32_t)h->p.block_n, h->cnt);
    BFSB_CHECK_LAUNCH("RemoteQueriesKernel");
  }
  BFSB_CHECK(cudaMemcpyAsync(h->hqcounts.data(), h->cnt, 4 * h->p.C, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  int64_t off = 0;
  for (int64_t m = 0; m < h->p.C; ++m) {
    const int64_t c = h->hqcounts[m];
    if (c > 0) {
      BFSB_CHECK(cudaMemcpyAsync(rows + off, h->out + m * h->p.block_n, 4 * c, cudaMemcpyDefault, h->s));
    }
    off += c;
  }
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  memcpy(counts, h->hqcounts.data(), 4 * h->p.C);
  return 0;
}

int32_t a2d_lookup_preds(void* hv, const uint32_t* rows, int64_t n, uint32_t* out, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(n >= 0 && n <= h->recv_cap(), "%lld predecessor queries, room for %lld", (long long)n,
               (long long)h->recv_cap());
  if (n == 0) return 0;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  BFSB_CHECK(cudaMemcpyAsync(h->recv, rows, 4 * n, cudaMemcpyDefault, h->s));
  BFSB_CHECK(cudaMemsetAsync(h->cursor(), 0xff, 4, h->s));
  LookupKernel<<<GridFor(h, n), h->tpb, 0, h->s>>>(h->recv, (uint32_t)n, h->lp, (uint32_t)h->p.local_rows,
                                                  h->cursor());
  BFSB_CHECK_LAUNCH("LookupKernel");
  uint32_t bad = 0;
  BFSB_CHECK(cudaMemcpyAsync(&bad, h->cursor(), 4, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  if (bad != 0xffffffffu) {
    // rows may be device memory: read the offending query from there.
    uint32_t row = 0;
    BFSB_CHECK(cudaMemcpy(&row, rows + bad, 4, cudaMemcpyDefault));
    BFSB_REQUIRE(false, "predecessor query %u of %lld, for local row %u of %lld: %s", bad, (long long)n, row,
                 (long long)h->p.local_rows,
                 row >= h->p.local_rows ? "no such row" : "a vertex this rank did not discover");
  }
  BFSB_CHECK(cudaMemcpyAsync(out, h->recv, 4 * n, cudaMemcpyDefault, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

int32_t a2d_host_alloc(void* hv, int64_t words, uint32_t** ptr, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && ptr != nullptr, "a2d_host_alloc: null argument");
  BFSB_REQUIRE(words >= 0 && words < (1ll << 34), "a2d_host_alloc: %lld words", (long long)words);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  uint32_t* q = nullptr;
  BFSB_CHECK(cudaHostAlloc(&q, 4 * (words > 0 ? words : 1), cudaHostAllocPortable));
  try {
    h->host.push_back(q);
  } catch (...) {
    cudaFreeHost(q);
    BFSB_REQUIRE(false, "a2d_host_alloc: host allocation failed");
  }
  *ptr = q;
  return 0;
}

int32_t a2d_finalize(void* hv, const uint32_t* answers, int64_t n, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  const int64_t stride_cols = h->p.R * h->p.block_n;  // vertices per column block
  if (h->p.own_len > 0) {
    FinalizeKernel<<<GridFor(h, h->p.own_len), h->tpb, 0, h->s>>>(h->lp, h->row0(), (uint32_t)h->p.own_len,
                                                                 h->p.J * stride_cols, h->parents);
    BFSB_CHECK_LAUNCH("FinalizeKernel");
  }
  int64_t want = 0;
  for (int64_t m = 0; m < h->p.C; ++m) want += h->hqcounts[m];
  BFSB_REQUIRE(n == want, "%lld predecessor answers for %lld queries", (long long)n, (long long)want);
  if (n > 0) {
    BFSB_CHECK(cudaMemcpyAsync(h->all_front, answers, 4 * n, cudaMemcpyDefault, h->s));
    int64_t off = 0;
    for (int64_t m = 0; m < h->p.C; ++m) {
      const int64_t c = h->hqcounts[m];
      if (c > 0) {
        ScatterAnswersKernel<<<GridFor(h, c), h->tpb, 0, h->s>>>(h->out + m * h->p.block_n, h->all_front + off,
                                                                (uint32_t)c, h->row0(), m * stride_cols, h->parents);
        BFSB_CHECK_LAUNCH("ScatterAnswersKernel");
      }
      off += c;
    }
  }
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

int32_t a2d_parents(void* hv, int64_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (h->p.own_len > 0) {
    BFSB_CHECK(cudaMemcpyAsync(dst, h->parents, 8 * h->p.own_len, cudaMemcpyDeviceToHost, h->s));
  }
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

int32_t a2d_levels(void* hv, int32_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (h->p.own_len > 0) {
    std::vector<uint64_t> lp(h->p.own_len);
    BFSB_CHECK(cudaMemcpyAsync(lp.data(), h->lp + h->row0(), 8 * h->p.own_len, cudaMemcpyDeviceToHost, h->s));
    BFSB_CHECK(cudaStreamSynchronize(h->s));
    for (int64_t o = 0; o < h->p.own_len; ++o) dst[o] = LevelOf(lp[o]);
  }
  return 0;
}

int32_t a2d_test_floor(void* hv, int32_t mode, int32_t reps, float* ms, uint64_t* unvisited, char* err,
                       int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && ms != nullptr && unvisited != nullptr, "a2d_test_floor: null argument");
  BFSB_REQUIRE(mode == A2D_FLOOR_STREAM || mode == A2D_FLOOR_THREAD || mode == A2D_FLOOR_WARP,
               "a2d_test_floor: mode %d", (int)mode);
  BFSB_REQUIRE(reps >= 1 && reps <= 1000, "a2d_test_floor: %d repetitions, want 1..1000", (int)reps);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  using FloorFn = void (*)(const uint32_t*, uint64_t, const uint32_t*, unsigned long long*);
  const FloorFn kernels[3] = {FloorKernel<A2D_FLOOR_STREAM>, FloorKernel<A2D_FLOOR_THREAD>,
                              FloorKernel<A2D_FLOOR_WARP>};
  const FloorFn k = kernels[mode];
  int per_sm = 0;
  BFSB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, h->tpb, 0));
  const int blocks = (per_sm < 1 ? 1 : per_sm) * h->sms;
  // The sink: the (8-byte aligned) start of the scan buffer, free between
  // searches.
  unsigned long long* sink = (unsigned long long*)h->cumul;
  bfsb::EventPool ev;
  BFSB_CHECK(ev.Create(2));
  std::vector<float> runs;
  unsigned long long n = 0;
  for (int r = 0; r <= reps; ++r) {  // r == 0 is the warm-up
    BFSB_CHECK(cudaMemsetAsync(sink, 0, sizeof(*sink), h->s));
    BFSB_CHECK(ev.Record(0, h->s));
    k<<<blocks, h->tpb, 0, h->s>>>(h->row_idx, (uint64_t)h->p.nnz, h->bmap, sink);
    BFSB_CHECK_LAUNCH("FloorKernel");
    BFSB_CHECK(ev.Record(1, h->s));
    BFSB_CHECK(cudaMemcpyAsync(&n, sink, sizeof(n), cudaMemcpyDeviceToHost, h->s));
    BFSB_CHECK(cudaStreamSynchronize(h->s));
    float t = 0;
    BFSB_CHECK(ev.ElapsedMs(0, 1, &t));
    if (r > 0) runs.push_back(t);
  }
  std::sort(runs.begin(), runs.end());
  *ms = runs[runs.size() / 2];
  *unvisited = n;
  return 0;
}

int32_t a2d_stream(void* hv, uintptr_t* stream, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && stream != nullptr, "a2d_stream: null argument");
  *stream = (uintptr_t)h->s;
  return 0;
}

int32_t a2d_exchange_stream(void* hv, uintptr_t* stream, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && stream != nullptr, "a2d_exchange_stream: null argument");
  if (h->xs == nullptr) {
    BFSB_CHECK(cudaSetDevice((int)h->p.device));
    int least = 0, greatest = 0;
    BFSB_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    BFSB_CHECK(cudaStreamCreateWithPriority(&h->xs, cudaStreamNonBlocking, greatest));
  }
  *stream = (uintptr_t)h->xs;
  return 0;
}

void a2d_destroy(void* hv) { delete (Handle*)hv; }

}  // extern "C"
