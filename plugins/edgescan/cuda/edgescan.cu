// edgescan.cu: the CUDA kernels of the edgescan variant.
//
// The paper: [Titan] (docs/papers.md), "the article" below; its sections
// "The format of the data used", "The implementation of the algorithm on
// the GPU" and "Analysis of the results" give the kernel, its
// optimisations and their ablation.
//
// The article's algorithm is Bellman-Ford-like: levels[] holds one uint8 per
// vertex, 255 ("unvisited") everywhere but the root (0). Iteration `iter`
// launches one thread per edge of the whole edge list (startV[k], endV[k],
// each undirected edge once); a thread checks both directions:
//
//   if (levels[st] == iter) { if (levels[en] > iter) levels_NR[en] = iter + 1; }
//   else if (levels[en] == iter) { if (levels[st] > iter) levels_NR[st] = iter + 1; }
//
// and a thread that wrote sets modif[0] = iter. The host loops while the
// flag equals the iteration just run. The article's optimisations, each a
// kernel option here (edgescan.h):
//   - restrict_loads: read levels through `const __restrict__` (here also
//     __ldg, the read-only data cache) and write through a second, plain
//     alias levels_NR to the same memory. With restrict_loads off, the
//     kernel reads and writes through the plain alias alone, so the
//     compiler must use coherent loads.
//     Why reading stale values is harmless: within an iteration the only
//     write is iter + 1 over 255, and every test compares with iter, for
//     which 255 and iter + 1 answer alike (both > iter, neither == iter).
//   - edge permutation for cache locality: done on the host (prepare.go),
//     the kernel just scans the arrays in the order given.
//   - packed16: two 16-bit ids in one 32-bit word (dst << 16 | src) when
//     every vertex id fits, halving the bytes read per edge.
//
// Parents, which the article does not produce but Graph500 validation
// needs: the thread that writes a level also writes parents[v] = the edge's
// other end. Several threads may race for v in one iteration; every one of
// them writes the same level and a parent whose level is iter, so whichever
// 4-byte store lands last is a valid BFS-tree parent (a benign race; aligned
// 32-bit stores do not tear).
//
// Our own choices, beside the article (the "tuned" preset; the "paper"
// preset turns them off):
//   - edges_per_thread (1, 2, 4): a thread handles that many consecutive
//     edges loaded as one vector (uint2/uint4), and issues all their level
//     loads before any comparison, for more loads in flight; 1 is the
//     article's one thread per edge. The arrays are padded with (0, 0)
//     self-loops to a multiple of 4 edges; a self-loop never changes a level.
//   - source_loads: eager (the article) loads both ends' levels for every
//     edge. lazy loads levels[en] first and levels[st] only when en's level
//     is >= iter (in the frontier or unvisited); when en was visited before
//     this iteration the edge cannot act in either direction. summary also
//     keeps a frontier summary, a bitmap with one bit per group of 64
//     vertices marking the groups holding frontier vertices (32 KB at scale
//     24, so it stays in L1): when en is unvisited, the edge acts only if
//     st is in the frontier, so if st's group bit is clear the random
//     levels[st] load is skipped. The summary of the next frontier is built
//     by the threads that write a level (atomicOr), and the summaries
//     rotate. Same results, fewer random loads.
//   - write_check: before writing a level and a parent, read the level
//     again from L2 (__ldcg) and skip the writes when another thread has
//     already claimed the vertex in this iteration. The article's kernel
//     writes once per (frontier, unvisited) edge, which in the iterations
//     with a large frontier means tens of millions of random stores.
//   - the "modified" flag is written once per warp (a vote) rather than by
//     every writing thread, so the big iterations do not queue millions of
//     stores on one address; each warp also adds its claims to a counter,
//     the next frontier's size (up to races), which picks the kernel of the
//     next iteration.
//   - edge words are loaded with __ldcs (streaming, evict-first), so the
//     edge stream does not push levels out of L2.
//   - the dense kernel (tile_bits > 0), for the iterations with a large
//     frontier, where the article's kernel makes a random level load per
//     edge and a random write per discovered vertex and frontier
//     neighbour. The edges are grouped in tiles of 2^18 x 2^18 vertices
//     (prepare.go); before the iteration BuildState packs each vertex's
//     state into 2 bits (in the frontier; unvisited); a block per tile
//     chunk copies the states of its tile's two vertex ranges into shared
//     memory (128 KB) and streams the tile's edges, testing both ends
//     there. A vertex is claimed once per block (an atomicAnd on its
//     shared unvisited bit); the claim reaches the other blocks through an
//     atomicAnd without return on the global states, which blocks starting
//     later copy; the block writes the parent, and the next iteration's
//     BuildState commits the claimed vertices' levels in one streaming pass
//     instead of a random store each. A thread's next batch of edges loads
//     while it tests the current one. Every iteration still reads the whole
//     edge list, so the bound is the article's. The host runs the dense
//     kernel while the frontier grows and while it holds at least
//     dense_frontier of the vertices, the article's scan otherwise (the
//     scan is faster for the first and the last, small frontiers).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "bfsb_abi.h"
#include "bfsb_check.cuh"
#include "bfsb_timer.cuh"
#include "bfsb_warp.cuh"
#include "edgescan.h"

namespace {

constexpr uint32_t kUnvisited = 255;

// Load reads edge group g (EPT consecutive 32-bit words) as one vector.
__device__ __forceinline__ void Load(const uint32_t* __restrict__ p, int64_t g, uint32_t (&o)[1]) {
  o[0] = __ldcs(p + g);
}
__device__ __forceinline__ void Load(const uint32_t* __restrict__ p, int64_t g, uint32_t (&o)[2]) {
  uint2 v = __ldcs(reinterpret_cast<const uint2*>(p) + g);
  o[0] = v.x;
  o[1] = v.y;
}
__device__ __forceinline__ void Load(const uint32_t* __restrict__ p, int64_t g, uint32_t (&o)[4]) {
  uint4 v = __ldcs(reinterpret_cast<const uint4*>(p) + g);
  o[0] = v.x;
  o[1] = v.y;
  o[2] = v.z;
  o[3] = v.w;
}

// LoadLevel reads levels[v]: through the read-only cache when RO (the
// pointer is the const __restrict__ one), else a plain coherent load
// through the writable alias.
template <bool RO>
__device__ __forceinline__ uint32_t LoadLevel(const uint8_t* __restrict__ levels,
                                              const uint8_t* levels_nr, uint32_t v) {
  if (RO) return __ldg(levels + v);
  return levels_nr[v];
}

// Modes of the source-side load (source_loads; a kernel template
// parameter): the values of EDGESCAN_SOURCE_* in edgescan.h.
constexpr int kEager = EDGESCAN_SOURCE_EAGER;      // the article: load both ends' levels for every edge
constexpr int kLazy = EDGESCAN_SOURCE_LAZY;        // load levels[st] only when levels[en] >= iter
constexpr int kSummary = EDGESCAN_SOURCE_SUMMARY;  // lazy, and also skip levels[st] when en is
                                                   // unvisited and st's group of 64 vertices has
                                                   // no frontier vertex

// Frontier summary: one bit per group of 2^kGroupShift vertices, set when
// some vertex of the group is in the frontier. 32 KB at scale 24, so it
// stays in L1 while the random levels[st] loads would miss.
constexpr int kGroupShift = 6;

__device__ __forceinline__ uint32_t SummaryWord(uint32_t v) { return v >> (kGroupShift + 5); }
__device__ __forceinline__ uint32_t SummaryBit(uint32_t v) { return 1u << ((v >> kGroupShift) & 31); }

// Claim writes level iter + 1 and parent `from` for vertex x. With
// write_check it first reads x's level from L2 (__ldcg, bypassing the
// possibly stale L1/read-only copy) and leaves x alone when another thread
// has already claimed it in this iteration, so that the big iterations do
// not write the same vertex once per frontier neighbour. In summary mode it
// also marks x's group in the next frontier's summary, testing the word in
// L2 first: a group's bit is set by its first claim, and millions of
// atomics on the few thousand summary words would queue on each other.
// It returns 1 when it wrote, else 0 (the count of claims is the next
// frontier's size, up to races).
template <bool SUMMARY>
__device__ __forceinline__ uint32_t Claim(uint32_t x, uint32_t from, uint8_t* levels_nr,
                                          int32_t* parents, uint32_t* next_sum, uint32_t iter,
                                          bool wcheck) {
  if (wcheck && __ldcg(levels_nr + x) != kUnvisited) return 0;
  levels_nr[x] = (uint8_t)(iter + 1);
  parents[x] = (int32_t)from;
  if (SUMMARY) {
    uint32_t* w = &next_sum[SummaryWord(x)];
    if ((__ldcg(w) & SummaryBit(x)) == 0) atomicOr(w, SummaryBit(x));
  }
  return 1;
}

// kCountSlots is the number of claim counters per iteration: a block adds
// to slot blockIdx % kCountSlots, so that the warps of a big iteration do
// not all queue on one address; the host sums them. modif holds the
// "modified" flag, then two sets of counters: iteration iter counts in set
// iter & 1 and its block 0 zeroes the other set for the next iteration
// (the host has copied it out before this kernel was launched), so that no
// iteration needs a memset.
constexpr int kCountSlots = 32;
constexpr int kModifWords = 1 + 2 * kCountSlots;

// CountSet is the counter set of iteration iter in modif.
__device__ __forceinline__ uint32_t* CountSet(uint32_t* modif, uint32_t iter) {
  return modif + 1 + (iter & 1) * kCountSlots;
}

// ClearNextCounts zeroes iteration iter + 1's counters (block 0's first
// kCountSlots threads; every kernel of an iteration with a grid calls it).
__device__ __forceinline__ void ClearNextCounts(uint32_t* modif, uint32_t iter) {
  if (blockIdx.x == 0 && threadIdx.x < kCountSlots) CountSet(modif, iter + 1)[threadIdx.x] = 0;
}

// Report ends a kernel: a warp that claimed any vertex sets the "modified"
// flag modif[0] = iter (one store per warp, not per claim) and, when count
// is set (the host needs the frontier's size to pick the next kernel), adds
// its claims to its block's counter with one atomic. Every lane of the warp
// must call it.
__device__ __forceinline__ void Report(uint32_t won, uint32_t* modif, uint32_t iter, bool count) {
  won = bfsb::WarpSum(won);
  if (bfsb::LaneId() == 0 && won != 0) {
    modif[0] = iter;
    if (count) atomicAdd(&CountSet(modif, iter)[blockIdx.x % kCountSlots], won);
  }
}

// ClearSpare zeroes the third frontier summary, the next iteration's
// next_sum (the summaries rotate through three buffers: see edgescan_bfs).
__device__ __forceinline__ void ClearSpare(uint32_t* spare, int64_t words) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) spare[w] = 0;
}

template <int EPT, bool PACKED, bool RO, int MODE>
__global__ void ScanKernel(const uint32_t* __restrict__ src, const uint32_t* __restrict__ dst,
                           int64_t ngroups, const uint8_t* __restrict__ levels, uint8_t* levels_nr,
                           int32_t* parents, uint32_t* modif, uint32_t iter,
                           const uint32_t* __restrict__ cur_sum, uint32_t* next_sum,
                           uint32_t* spare_sum, int64_t sum_words, int wcheck, int count) {
  const int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  ClearNextCounts(modif, iter);
  if (MODE == kSummary) ClearSpare(spare_sum, sum_words);
  uint32_t won = 0;
  if (g < ngroups) {
    uint32_t st[EPT], en[EPT];
    if (PACKED) {
      uint32_t w[EPT];
      Load(src, g, w);
#pragma unroll
      for (int j = 0; j < EPT; ++j) {
        st[j] = w[j] & 0xffffu;
        en[j] = w[j] >> 16;
      }
    } else {
      Load(src, g, st);
      Load(dst, g, en);
    }
    uint32_t ls[EPT], le[EPT];
    bool need[EPT];
#pragma unroll
    for (int j = 0; j < EPT; ++j) le[j] = LoadLevel<RO>(levels, levels_nr, en[j]);
    if (MODE == kSummary) {
      uint32_t bits[EPT];
#pragma unroll
      for (int j = 0; j < EPT; ++j) bits[j] = le[j] > iter ? __ldg(&cur_sum[SummaryWord(st[j])]) : 0;
#pragma unroll
      for (int j = 0; j < EPT; ++j) {
        need[j] = le[j] == iter || (le[j] > iter && (bits[j] & SummaryBit(st[j])) != 0);
      }
    } else {
#pragma unroll
      for (int j = 0; j < EPT; ++j) need[j] = MODE == kEager || le[j] >= iter;
    }
#pragma unroll
    for (int j = 0; j < EPT; ++j) ls[j] = need[j] ? LoadLevel<RO>(levels, levels_nr, st[j]) : 0;
#pragma unroll
    for (int j = 0; j < EPT; ++j) {
      if (!need[j]) continue;
      if (ls[j] == iter) {
        if (le[j] > iter) {
          won += Claim<MODE == kSummary>(en[j], st[j], levels_nr, parents, next_sum, iter, wcheck);
        }
      } else if (le[j] == iter) {
        if (ls[j] > iter) {
          won += Claim<MODE == kSummary>(st[j], en[j], levels_nr, parents, next_sum, iter, wcheck);
        }
      }
    }
  }
  // Every thread of the block gets here (no early return above).
  Report(won, modif, iter, count != 0);
}

// ------------------------------------------------- the dense (tiled) kernel
//
// Our addition, for the iterations with a large frontier (see the header
// comment): the edges are grouped in tiles (prepare.go), tile (si, ei)
// holding the edges with src in vertex range si and dst in range ei, each
// range 2^tile_bits vertices. Before such an iteration BuildState packs
// every vertex's state into 2 bits (kF: in the frontier, level == iter;
// kU: unvisited), 16 vertices per word; one block per chunk of a tile then
// copies the state of its two ranges into shared memory (2 x 64 KB for
// ranges of 256K vertices) and streams its edges, testing both ends there
// instead of with random loads of levels[] from L2.

constexpr uint32_t kF = 1u;  // state bit: in the current frontier
constexpr uint32_t kU = 2u;  // state bit: unvisited

// StateOf is the 2-bit state of local vertex x in the state words s.
__device__ __forceinline__ uint32_t StateOf(const uint32_t* s, uint32_t x) {
  return (s[x >> 4] >> ((x & 15) * 2)) & 3u;
}

// BuildState writes the 2-bit states of vertices [16w, 16w + 16) into
// state[w] for w < nwords; vertices at or past nv (the last range's tail)
// get state 0, so they are never claimed. With commit, it first writes the
// claims of the previous, dense iteration into levels: the dense kernel
// records a claim only by clearing the vertex's kU bit in state (and
// writing its parent), so a vertex still at level 255 whose kU bit is
// clear was claimed and gets level iter. This turns the claims' random
// level stores into this streaming pass.
__global__ void BuildState(uint8_t* __restrict__ levels, int64_t nv, uint32_t iter,
                           uint32_t* __restrict__ state, int64_t nwords, int commit) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < nwords; w += stride) {
    const int64_t v0 = w * 16;
    const int n = v0 + 16 <= nv ? 16 : (int)max((int64_t)0, nv - v0);  // vertices of this word
    uint8_t b[16];
    if (n == 16) {
      const uint4 q = *reinterpret_cast<const uint4*>(levels + v0);
      memcpy(b, &q, 16);
    } else {
#pragma unroll
      for (int k = 0; k < 16; ++k) b[k] = k < n ? levels[v0 + k] : 0;
    }
    if (commit) {
      const uint32_t old = state[w];
      bool changed = false;
#pragma unroll
      for (int k = 0; k < 16; ++k) {
        if (k < n && b[k] == kUnvisited && ((old >> (2 * k)) & kU) == 0) {
          b[k] = (uint8_t)iter;
          changed = true;
        }
      }
      if (changed) {
        if (n == 16) {
          uint4 q;
          memcpy(&q, b, 16);
          *reinterpret_cast<uint4*>(levels + v0) = q;
        } else {
          for (int k = 0; k < n; ++k) levels[v0 + k] = b[k];
        }
      }
    }
    uint32_t st = 0;
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      const uint32_t code = (b[k] == iter ? kF : 0u) | (b[k] == kUnvisited ? kU : 0u);
      if (k < n) st |= code << (2 * k);
    }
    state[w] = st;
  }
}

// ClearU clears local vertex l's kU bit in the shared state s and reports
// whether this call cleared it: within a block each vertex is claimed at
// most once. Blocks of other tiles may still claim it too (see
// ProcessBatch).
__device__ __forceinline__ bool ClearU(uint32_t* s, uint32_t l) {
  const uint32_t mask = kU << ((l & 15) * 2);
  return (atomicAnd(&s[l >> 4], ~mask) & mask) != 0;
}

// kDenseUnroll is how many EPT-edge groups of a dense-kernel thread are in
// one batch; with the next batch loading while one is tested, twice that
// many are in flight.
constexpr int kDenseUnroll = 2;

// LoadBatch loads the kDenseUnroll groups of a dense-kernel thread, g,
// g + blockDim.x, ...; a group at or past gend becomes self-loops.
template <int EPT>
__device__ __forceinline__ void LoadBatch(const uint32_t* __restrict__ src,
                                          const uint32_t* __restrict__ dst, int64_t g, int64_t gend,
                                          uint32_t (&st)[kDenseUnroll][EPT],
                                          uint32_t (&en)[kDenseUnroll][EPT]) {
#pragma unroll
  for (int u = 0; u < kDenseUnroll; ++u) {
    const int64_t gu = g + (int64_t)u * blockDim.x;
    if (gu < gend) {
      Load(src, gu, st[u]);
      Load(dst, gu, en[u]);
    } else {
#pragma unroll
      for (int j = 0; j < EPT; ++j) st[u][j] = en[u][j] = 0;  // a self-loop: skipped
    }
  }
}

// ProcessBatch tests a thread's batch of edges against the shared states
// and claims what they discover, in three passes so that the random global
// accesses of all the batch's claims are in flight together: the tests and
// shared-memory claims (each claim rewrites its edge in place as
// (from, x)); the global claims; the parents' writes.
//
// A global claim is an atomicAnd clearing x's unvisited bit in the global
// state words gstate, issued without waiting for its old value (a RED):
// blocks starting later in the iteration copy the states into shared
// memory, so they skip the vertices already claimed (a vertex with
// frontier neighbours in many tiles is otherwise claimed once per tile).
// Every claiming block writes the parent: blocks running at the same time
// may both claim x and both write a valid parent (the benign race of the
// header comment), and the count reported is of these claims, a little
// above the frontier's size. The level is not written here: the next
// BuildState commits it from the cleared bits.
template <int EPT>
__device__ __forceinline__ uint32_t ProcessBatch(uint32_t (&st)[kDenseUnroll][EPT],
                                                 uint32_t (&en)[kDenseUnroll][EPT], uint32_t* ss,
                                                 uint32_t* se, uint32_t sbase, uint32_t ebase,
                                                 uint32_t* gstate, int32_t* parents) {
  uint32_t claimed = 0;  // bit u * EPT + j: edge (u, j) claimed x = en[u][j] from st[u][j]
#pragma unroll
  for (int u = 0; u < kDenseUnroll; ++u) {
#pragma unroll
    for (int j = 0; j < EPT; ++j) {
      const uint32_t a = st[u][j], b = en[u][j];
      if (a == b) continue;  // a padding self-loop
      const uint32_t la = a - sbase, lb = b - ebase;
      const uint32_t sa = StateOf(ss, la), sb = StateOf(se, lb);
      if ((sa & kF) && (sb & kU)) {
        if (ClearU(se, lb)) claimed |= 1u << (u * EPT + j);
      } else if ((sb & kF) && (sa & kU)) {
        if (ClearU(ss, la)) {
          st[u][j] = b;
          en[u][j] = a;
          claimed |= 1u << (u * EPT + j);
        }
      }
    }
  }
  if (claimed == 0) return 0;
#pragma unroll
  for (int u = 0; u < kDenseUnroll; ++u) {
#pragma unroll
    for (int j = 0; j < EPT; ++j) {
      const uint32_t x = en[u][j];
      if ((claimed >> (u * EPT + j)) & 1u) atomicAnd(&gstate[x >> 4], ~(kU << ((x & 15) * 2)));  // a RED
    }
  }
#pragma unroll
  for (int u = 0; u < kDenseUnroll; ++u) {
#pragma unroll
    for (int j = 0; j < EPT; ++j) {
      if ((claimed >> (u * EPT + j)) & 1u) parents[en[u][j]] = (int32_t)st[u][j];
    }
  }
  return __popc(claimed);
}

// DenseKernel is one iteration over the tiled edge list: block b handles
// chunk b (a part of one tile), its EPT-edge groups strided over the block.
// The same test as ScanKernel (an edge acts when one end is in the frontier
// and the other unvisited), with both states read from shared memory. The
// states arrive by cp.async (16-byte copies are cp.async.cg: from L2, so a
// block sees the claims published before it started) while the thread's
// first edges load. A thread loads its next batch of edges before testing
// the current one (two register buffers, the loop unrolled by two so that
// neither is copied), so its edge loads stay in flight while it tests.
template <int EPT>
__global__ void __launch_bounds__(1024)
    DenseKernel(const uint32_t* __restrict__ src, const uint32_t* __restrict__ dst,
                const edgescan_chunk* __restrict__ chunks, int tile_bits, uint32_t* state,
                int32_t* parents, uint32_t* modif, uint32_t iter) {
  extern __shared__ uint4 shared4[];
  uint32_t* sh = reinterpret_cast<uint32_t*>(shared4);
  ClearNextCounts(modif, iter);
  const edgescan_chunk c = chunks[blockIdx.x];
  const uint32_t words = 1u << (tile_bits - 4);  // state words per range
  const bool diag = c.si == c.ei;
  uint32_t* ss = sh;                     // src range
  uint32_t* se = diag ? sh : sh + words;  // dst range (the same copy on the diagonal)
  {
    const uint4* gs = reinterpret_cast<const uint4*>(state + (size_t)c.si * words);
    const uint4* ge = reinterpret_cast<const uint4*>(state + (size_t)c.ei * words);
    uint4* s4 = reinterpret_cast<uint4*>(ss);
    uint4* e4 = reinterpret_cast<uint4*>(se);
    for (uint32_t i = threadIdx.x; i < words / 4; i += blockDim.x) {
      __pipeline_memcpy_async(s4 + i, gs + i, sizeof(uint4));
      if (!diag) __pipeline_memcpy_async(e4 + i, ge + i, sizeof(uint4));
    }
    __pipeline_commit();
  }
  const uint32_t sbase = c.si << tile_bits, ebase = c.ei << tile_bits;
  const int64_t gend = c.end / EPT;
  const int64_t step = (int64_t)kDenseUnroll * blockDim.x;
  int64_t g = c.begin / EPT + threadIdx.x;
  uint32_t st[kDenseUnroll][EPT], en[kDenseUnroll][EPT];
  LoadBatch<EPT>(src, dst, g, gend, st, en);
  __pipeline_wait_prior(0);
  __syncthreads();
  uint32_t won = 0;
  uint32_t st2[kDenseUnroll][EPT], en2[kDenseUnroll][EPT];
  while (g < gend) {
    LoadBatch<EPT>(src, dst, g + step, gend, st2, en2);
    won += ProcessBatch<EPT>(st, en, ss, se, sbase, ebase, state, parents);
    g += step;
    if (g >= gend) break;
    LoadBatch<EPT>(src, dst, g + step, gend, st, en);
    won += ProcessBatch<EPT>(st2, en2, ss, se, sbase, ebase, state, parents);
    g += step;
  }
  Report(won, modif, iter, true);
}

typedef void (*DenseFn)(const uint32_t*, const uint32_t*, const edgescan_chunk*, int, uint32_t*,
                        int32_t*, uint32_t*, uint32_t);

// PickDense returns the dense kernel instance for the options, or nullptr.
DenseFn PickDense(const edgescan_options& o) {
  switch (o.edges_per_thread) {
    case 1:
      return DenseKernel<1>;
    case 2:
      return DenseKernel<2>;
    case 4:
      return DenseKernel<4>;
  }
  return nullptr;
}

// BuildSummary writes the frontier summary of level lvl from levels: bit
// (g & 31) of sum[g >> 5] is set when some vertex of group g (64 vertices)
// has level lvl. One lane per group, one ballot per word. The sparse kernel
// that follows a dense iteration needs it (the dense kernel does not build
// the summary: its claims would queue on the few summary words). It also
// zeroes the summary the scan will build, next.
__global__ void BuildSummary(const uint8_t* __restrict__ levels, int64_t nv, uint32_t lvl,
                             uint32_t* __restrict__ sum, uint32_t* __restrict__ next,
                             int64_t nwords) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t ngroups = nwords * 32;  // a multiple of 32: whole warps iterate together
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < ngroups; g += stride) {
    const int64_t v0 = g << kGroupShift;
    bool any = false;
    if (v0 + 64 <= nv) {
      const uint4* p = reinterpret_cast<const uint4*>(levels + v0);
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const uint4 w = __ldg(p + q);
        const uint32_t x[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          const uint32_t d = x[k] ^ (lvl * 0x01010101u);  // a zero byte where level == lvl
          any |= ((d - 0x01010101u) & ~d & 0x80808080u) != 0;
        }
      }
    } else {
      for (int64_t v = v0; v < nv && v < v0 + 64; ++v) any |= levels[v] == lvl;
    }
    const uint32_t bits = __ballot_sync(0xffffffffu, any);
    if ((threadIdx.x & 31) == 0) {
      sum[g >> 5] = bits;
      next[g >> 5] = 0;
    }
  }
}

// DenseSharedBytes is the dynamic shared memory of a dense block: the
// states of two ranges.
size_t DenseSharedBytes(int tile_bits) { return 2 * ((size_t)1 << (tile_bits - 4)) * sizeof(uint32_t); }

// InitRoot sets the root's level and parent, and its group in the first
// frontier summary; it zeroes the claim counters and sets the "modified"
// flag to none (no iteration number).
__global__ void InitRoot(uint8_t* levels, int32_t* parents, uint32_t* sum, uint32_t* modif,
                         int64_t root) {
  levels[root] = 0;
  parents[root] = (int32_t)root;
  sum[SummaryWord((uint32_t)root)] |= SummaryBit((uint32_t)root);
  modif[0] = 0xffffffffu;
  for (int i = 1; i < kModifWords; ++i) modif[i] = 0;
}

// Widen converts the int32 device parents to int64, -1 for the unreached
// vertices (level 255), whose parents were never written: the search does
// not initialize parents.
__global__ void Widen(const int32_t* __restrict__ in, const uint8_t* __restrict__ levels,
                      int64_t* out, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = levels[i] == kUnvisited ? -1 : in[i];
  }
}

typedef void (*ScanFn)(const uint32_t*, const uint32_t*, int64_t, const uint8_t*, uint8_t*,
                       int32_t*, uint32_t*, uint32_t, const uint32_t*, uint32_t*, uint32_t*,
                       int64_t, int, int);

template <int EPT, bool PACKED, bool RO>
ScanFn PickMode(int mode) {
  switch (mode) {
    case kEager:
      return ScanKernel<EPT, PACKED, RO, kEager>;
    case kLazy:
      return ScanKernel<EPT, PACKED, RO, kLazy>;
    case kSummary:
      return ScanKernel<EPT, PACKED, RO, kSummary>;
  }
  return nullptr;
}

template <int EPT>
ScanFn PickFlags(bool packed, bool ro, int mode) {
  if (packed) return ro ? PickMode<EPT, true, true>(mode) : PickMode<EPT, true, false>(mode);
  return ro ? PickMode<EPT, false, true>(mode) : PickMode<EPT, false, false>(mode);
}

// Pick returns the kernel instance for the options, or nullptr.
ScanFn Pick(const edgescan_options& o) {
  const bool p = o.packed16 != 0, r = o.restrict_loads != 0;
  const int mode = o.source_loads;
  switch (o.edges_per_thread) {
    case 1:
      return PickFlags<1>(p, r, mode);
    case 2:
      return PickFlags<2>(p, r, mode);
    case 4:
      return PickFlags<4>(p, r, mode);
  }
  return nullptr;
}

// Handle is what edgescan_create returns.
struct Handle {
  edgescan_options opt;
  ScanFn kernel = nullptr;
  DenseFn dense = nullptr;            // when opt.tile_bits > 0
  edgescan_chunk* chunks = nullptr;   // device chunk table
  int64_t nchunks = -1;               // -1 until edgescan_upload_tiles
  uint32_t* state = nullptr;          // 2-bit vertex states for the dense kernel
  int64_t state_words = 0;
  int64_t nv = 0, m = 0, m_pad = 0;
  uint32_t* src = nullptr;  // m_pad ids, or packed words
  uint32_t* dst = nullptr;  // m_pad ids; nullptr when packed
  uint8_t* levels = nullptr;
  int32_t* parents = nullptr;
  int64_t* parents64 = nullptr;
  uint32_t* sums = nullptr;  // three frontier summaries of sum_words each, rotating per iteration
  int64_t sum_words = 0;
  uint32_t* modif = nullptr;    // device: [0] the "modified" flag, then two sets of kCountSlots claim counters
  uint32_t* h_modif = nullptr;  // pinned host copy
  cudaStream_t stream = nullptr;
  bfsb::EventPool events;  // 0: start; 1 + 2i, 2 + 2i: iteration i
  bool searched = false;

  ~Handle() {
    if (src) cudaFree(src);
    if (dst) cudaFree(dst);
    if (levels) cudaFree(levels);
    if (parents) cudaFree(parents);
    if (parents64) cudaFree(parents64);
    if (sums) cudaFree(sums);
    if (modif) cudaFree(modif);
    if (chunks) cudaFree(chunks);
    if (state) cudaFree(state);
    if (h_modif) cudaFreeHost(h_modif);
    events.Destroy();
    if (stream) cudaStreamDestroy(stream);
  }
};

// PadEdges rounds m up to a multiple of 4, the widest vector load.
int64_t PadEdges(int64_t m) { return (m + 3) / 4 * 4; }

}  // namespace

extern "C" int32_t edgescan_abi_version(void) { return EDGESCAN_ABI_VERSION; }

extern "C" int32_t edgescan_create(const edgescan_options* opt, int64_t nv, int64_t m, void** out,
                                   char* err, int32_t errlen) {
  BFSB_REQUIRE(opt != nullptr && out != nullptr, "edgescan_create: NULL argument");
  *out = nullptr;
  BFSB_REQUIRE(nv >= 1 && nv < ((int64_t)1 << 31), "edgescan_create: nv = %lld, want 1..2^31-1",
               (long long)nv);
  BFSB_REQUIRE(m >= 0, "edgescan_create: m = %lld", (long long)m);
  BFSB_REQUIRE(!opt->packed16 || nv <= 65536,
               "edgescan_create: packed16 needs at most 65536 vertices, have %lld", (long long)nv);
  BFSB_REQUIRE(opt->threads_per_block >= 32 && opt->threads_per_block <= 1024 &&
                   opt->threads_per_block % 32 == 0,
               "edgescan_create: threads_per_block = %d, want a multiple of 32 in [32, 1024]",
               (int)opt->threads_per_block);
  BFSB_REQUIRE(opt->source_loads >= EDGESCAN_SOURCE_EAGER &&
                   opt->source_loads <= EDGESCAN_SOURCE_SUMMARY,
               "edgescan_create: source_loads = %d, want %d (eager), %d (lazy) or %d (summary)",
               (int)opt->source_loads, EDGESCAN_SOURCE_EAGER, EDGESCAN_SOURCE_LAZY,
               EDGESCAN_SOURCE_SUMMARY);
  ScanFn kernel = Pick(*opt);
  BFSB_REQUIRE(kernel != nullptr, "edgescan_create: edges_per_thread = %d, want 1, 2 or 4",
               (int)opt->edges_per_thread);
  BFSB_REQUIRE(opt->tile_bits == 0 || (opt->tile_bits >= 12 && opt->tile_bits <= 18),
               "edgescan_create: tile_bits = %d, want 0 (no tiles) or 12..18", (int)opt->tile_bits);
  BFSB_REQUIRE(opt->tile_bits == 0 || !opt->packed16,
               "edgescan_create: tiles need unpacked edges (packed16 is set)");
  BFSB_REQUIRE(opt->tile_bits == 0 || (opt->tile_threads >= 32 && opt->tile_threads <= 1024 &&
                                       opt->tile_threads % 32 == 0),
               "edgescan_create: tile_threads = %d, want a multiple of 32 in [32, 1024]",
               (int)opt->tile_threads);
  BFSB_REQUIRE(opt->dense_min_frontier >= 0, "edgescan_create: dense_min_frontier = %d, want >= 0",
               (int)opt->dense_min_frontier);
  BFSB_CHECK(cudaSetDevice(opt->device));
  Handle* h = new Handle();
  h->opt = *opt;
  h->kernel = kernel;
  h->nv = nv;
  h->m = m;
  h->m_pad = PadEdges(m);
  // From here a failure must free h: run the allocations in a lambda.
  auto alloc = [&]() -> int32_t {
    const size_t words = (size_t)(h->m_pad > 0 ? h->m_pad : 4);
    BFSB_CHECK(cudaMalloc(&h->src, words * sizeof(uint32_t)));
    if (!opt->packed16) BFSB_CHECK(cudaMalloc(&h->dst, words * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->levels, (size_t)nv));
    BFSB_CHECK(cudaMalloc(&h->parents, (size_t)nv * sizeof(int32_t)));
    BFSB_CHECK(cudaMalloc(&h->parents64, (size_t)nv * sizeof(int64_t)));
    h->sum_words = (nv + (1 << (kGroupShift + 5)) - 1) >> (kGroupShift + 5);
    BFSB_CHECK(cudaMalloc(&h->sums, 3 * (size_t)h->sum_words * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->modif, kModifWords * sizeof(uint32_t)));
    BFSB_CHECK(cudaMallocHost(&h->h_modif, kModifWords * sizeof(uint32_t)));
    if (opt->tile_bits > 0) {
      h->dense = PickDense(*opt);
      const int64_t ranges = (nv + ((int64_t)1 << opt->tile_bits) - 1) >> opt->tile_bits;
      h->state_words = ranges << (opt->tile_bits - 4);
      BFSB_CHECK(cudaMalloc(&h->state, (size_t)h->state_words * sizeof(uint32_t)));
      BFSB_CHECK(cudaFuncSetAttribute(h->dense, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)DenseSharedBytes(opt->tile_bits)));
    }
    BFSB_CHECK(cudaStreamCreateWithFlags(&h->stream, cudaStreamNonBlocking));
    BFSB_CHECK(h->events.Create(1 + 2 * EDGESCAN_MAX_ITERS));
    return 0;
  };
  int32_t rc = alloc();
  if (rc != 0) {
    delete h;
    return rc;
  }
  *out = h;
  return 0;
}

extern "C" int32_t edgescan_upload(void* hv, const uint32_t* src, const uint32_t* dst, char* err,
                                   int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr, "edgescan_upload: NULL handle");
  BFSB_REQUIRE(src != nullptr || h->m == 0, "edgescan_upload: NULL src");
  BFSB_REQUIRE(h->opt.packed16 || dst != nullptr || h->m == 0, "edgescan_upload: NULL dst");
  BFSB_CHECK(cudaSetDevice(h->opt.device));
  const size_t bytes = (size_t)h->m * sizeof(uint32_t);
  const size_t pad = (size_t)(h->m_pad - h->m) * sizeof(uint32_t);
  if (bytes > 0) BFSB_CHECK(cudaMemcpy(h->src, src, bytes, cudaMemcpyHostToDevice));
  if (pad > 0) BFSB_CHECK(cudaMemset((char*)h->src + bytes, 0, pad));
  if (!h->opt.packed16) {
    if (bytes > 0) BFSB_CHECK(cudaMemcpy(h->dst, dst, bytes, cudaMemcpyHostToDevice));
    if (pad > 0) BFSB_CHECK(cudaMemset((char*)h->dst + bytes, 0, pad));
  }
  /* Every copy and fill done when it returns: the caller times the upload
   * by its clock around this call (the case info's upload_s). */
  BFSB_CHECK(cudaDeviceSynchronize());
  return 0;
}

extern "C" int32_t edgescan_upload_tiles(void* hv, const edgescan_chunk* chunks, int64_t n,
                                         char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && (chunks != nullptr || n == 0) && n >= 0,
               "edgescan_upload_tiles: NULL or negative argument");
  BFSB_REQUIRE(h->opt.tile_bits > 0, "edgescan_upload_tiles: the handle has no tiles (tile_bits = 0)");
  BFSB_REQUIRE(n < ((int64_t)1 << 31), "edgescan_upload_tiles: %lld chunks exceed the grid limit",
               (long long)n);
  const int64_t ranges = h->state_words >> (h->opt.tile_bits - 4);
  for (int64_t i = 0; i < n; ++i) {
    const edgescan_chunk& c = chunks[i];
    BFSB_REQUIRE(c.begin >= 0 && c.begin <= c.end && c.end <= h->m_pad && c.begin % 4 == 0 &&
                     c.end % 4 == 0 && c.si < ranges && c.ei < ranges,
                 "edgescan_upload_tiles: chunk %lld = [%lld, %lld) ranges (%u, %u) is outside the "
                 "%lld padded edges and %lld ranges, or not aligned to 4 edges",
                 (long long)i, (long long)c.begin, (long long)c.end, c.si, c.ei,
                 (long long)h->m_pad, (long long)ranges);
  }
  BFSB_CHECK(cudaSetDevice(h->opt.device));
  if (h->chunks) {
    BFSB_CHECK(cudaFree(h->chunks));
    h->chunks = nullptr;
  }
  if (n > 0) {
    BFSB_CHECK(cudaMalloc(&h->chunks, (size_t)n * sizeof(edgescan_chunk)));
    BFSB_CHECK(cudaMemcpy(h->chunks, chunks, (size_t)n * sizeof(edgescan_chunk),
                          cudaMemcpyHostToDevice));
  }
  h->nchunks = n;
  return 0;
}

extern "C" int32_t edgescan_bfs(void* hv, int64_t root, float* iter_ms, int32_t* dense,
                                int32_t* iters, float* total_ms, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && iter_ms != nullptr && dense != nullptr && iters != nullptr &&
                   total_ms != nullptr,
               "edgescan_bfs: NULL argument");
  BFSB_REQUIRE(h->opt.tile_bits == 0 || h->nchunks >= 0,
               "edgescan_bfs: tiles are on but edgescan_upload_tiles was not called");
  BFSB_REQUIRE(root >= 0 && root < h->nv, "edgescan_bfs: root %lld out of range [0, %lld)",
               (long long)root, (long long)h->nv);
  BFSB_CHECK(cudaSetDevice(h->opt.device));
  cudaStream_t s = h->stream;
  const int tpb = h->opt.threads_per_block;
  const int64_t ngroups = h->m_pad / h->opt.edges_per_thread;
  const int64_t blocks64 = (ngroups + tpb - 1) / tpb;
  BFSB_REQUIRE(blocks64 < ((int64_t)1 << 31), "edgescan_bfs: %lld blocks exceed the grid limit",
               (long long)blocks64);
  const unsigned blocks = (unsigned)(blocks64 > 0 ? blocks64 : 1);

  // Per search: levels to 255, the flag to "none" with both counter sets
  // zeroed, summaries 0 and 1 zeroed (then the root's bit). Parents are
  // not initialized: Widen maps the unreached vertices to -1. Nothing is
  // reset per iteration (the counters and summaries rotate).
  BFSB_CHECK(h->events.Record(0, s));
  BFSB_CHECK(cudaMemsetAsync(h->levels, (int)kUnvisited, (size_t)h->nv, s));
  BFSB_CHECK(cudaMemsetAsync(h->sums, 0, 2 * (size_t)h->sum_words * sizeof(uint32_t), s));
  InitRoot<<<1, 1, 0, s>>>(h->levels, h->parents, h->sums, h->modif, root);
  BFSB_CHECK_LAUNCH("InitRoot");
  int32_t n = 0;
  uint32_t frontier = 1;  // the root
  uint32_t prev_frontier = 0;
  bool prev_dense = false;
  const int tt = h->opt.tile_threads;
  for (uint32_t iter = 0;; ++iter) {
    BFSB_CHECK(h->events.Record(1 + 2 * iter, s));
    // The summaries rotate: iteration iter reads cur (its frontier) and
    // builds next, which is zero at its start; the scan zeroes spare, the
    // next iteration's next (after a dense iteration, BuildSummary zeroes
    // next as it rebuilds cur).
    uint32_t* cur = h->sums + (iter % 3) * h->sum_words;
    uint32_t* next = h->sums + ((iter + 1) % 3) * h->sum_words;
    uint32_t* spare = h->sums + ((iter + 2) % 3) * h->sum_words;
    // The dense kernel's cost is near the stream's in every iteration, the
    // scan's grows with the vertices an iteration discovers, which the
    // frontier's size predicts poorly on the way up (a few hubs discover
    // millions): dense while growing, then while the frontier is large.
    const bool growing = frontier > 1 && frontier > prev_frontier;
    const bool use_dense =
        h->dense != nullptr && (frontier >= (uint32_t)h->opt.dense_min_frontier ||
                                (h->opt.dense_growing && growing));
    dense[iter] = use_dense ? 1 : 0;
    // After a dense iteration, BuildState commits its claims to levels
    // first, before either kernel reads them.
    const bool commit = prev_dense;
    if (use_dense || commit) {
      const int64_t sb = (h->state_words + 255) / 256;
      BuildState<<<(unsigned)min(sb, (int64_t)65535), 256, 0, s>>>(h->levels, h->nv, iter, h->state,
                                                                   h->state_words, commit);
      BFSB_CHECK_LAUNCH("BuildState");
    }
    if (use_dense) {
      if (h->nchunks > 0) {
        h->dense<<<(unsigned)h->nchunks, tt, DenseSharedBytes(h->opt.tile_bits), s>>>(
            h->src, h->dst, h->chunks, h->opt.tile_bits, h->state, h->parents, h->modif, iter);
        BFSB_CHECK_LAUNCH("DenseKernel");
      }
    } else {
      // The scan builds the next frontier's summary as it claims; the dense
      // kernel does not, so a scan after it rebuilds its own from levels.
      if (prev_dense && h->opt.source_loads == EDGESCAN_SOURCE_SUMMARY) {
        const int64_t sb = (h->sum_words * 32 + 255) / 256;
        BuildSummary<<<(unsigned)min(sb, (int64_t)65535), 256, 0, s>>>(h->levels, h->nv, iter, cur,
                                                                       next, h->sum_words);
        BFSB_CHECK_LAUNCH("BuildSummary");
      }
      h->kernel<<<blocks, tpb, 0, s>>>(h->src, h->dst, ngroups, h->levels, h->levels, h->parents,
                                       h->modif, iter, cur, next, spare, h->sum_words,
                                       h->opt.write_check, h->dense != nullptr);
      BFSB_CHECK_LAUNCH("ScanKernel");
    }
    prev_dense = use_dense;
    BFSB_CHECK(h->events.Record(2 + 2 * iter, s));
    BFSB_CHECK(cudaMemcpyAsync(h->h_modif, h->modif, kModifWords * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, s));
    BFSB_CHECK(cudaStreamSynchronize(s));
    n = (int32_t)iter + 1;
    prev_frontier = frontier;
    frontier = 0;
    const uint32_t* counts = h->h_modif + 1 + (iter & 1) * kCountSlots;
    for (int i = 0; i < kCountSlots; ++i) frontier += counts[i];
    if (*h->h_modif != iter) break;
    // Iteration iter writes level iter + 1 and 255 is the unvisited marker:
    // the last iteration, 254, may only confirm that nothing is left.
    if (iter == EDGESCAN_MAX_ITERS - 1) {
      return bfsb::Errf(err, errlen, BFSB_EINVAL,
                        "edgescan_bfs: the search from %lld is deeper than %d levels, the most "
                        "uint8 levels can hold",
                        (long long)root, EDGESCAN_MAX_ITERS - 1);
    }
  }
  for (int32_t i = 0; i < n; ++i) BFSB_CHECK(h->events.ElapsedMs(1 + 2 * i, 2 + 2 * i, &iter_ms[i]));
  BFSB_CHECK(h->events.ElapsedMs(0, 2 * n, total_ms));
  *iters = n;
  h->searched = true;
  return 0;
}

extern "C" int32_t edgescan_parents(void* hv, int64_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && dst != nullptr, "edgescan_parents: NULL argument");
  BFSB_REQUIRE(h->searched, "edgescan_parents: no search has run");
  BFSB_CHECK(cudaSetDevice(h->opt.device));
  Widen<<<1024, 256, 0, h->stream>>>(h->parents, h->levels, h->parents64, h->nv);
  BFSB_CHECK_LAUNCH("Widen");
  BFSB_CHECK(cudaMemcpyAsync(dst, h->parents64, (size_t)h->nv * sizeof(int64_t),
                             cudaMemcpyDeviceToHost, h->stream));
  BFSB_CHECK(cudaStreamSynchronize(h->stream));
  return 0;
}

extern "C" int32_t edgescan_levels(void* hv, uint8_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && dst != nullptr, "edgescan_levels: NULL argument");
  BFSB_REQUIRE(h->searched, "edgescan_levels: no search has run");
  BFSB_CHECK(cudaSetDevice(h->opt.device));
  BFSB_CHECK(cudaMemcpyAsync(dst, h->levels, (size_t)h->nv, cudaMemcpyDeviceToHost, h->stream));
  BFSB_CHECK(cudaStreamSynchronize(h->stream));
  return 0;
}

extern "C" void edgescan_destroy(void* hv) { delete (Handle*)hv; }
