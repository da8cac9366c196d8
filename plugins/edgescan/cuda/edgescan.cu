// edgescan.cu: the CUDA kernels of the edgescan variant, after seed 002
// ("BFS on the GPU", single GTX Titan article), section "The
// implementation of the algorithm on the GPU".
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
// Our own choices, beside the article:
//   - edges_per_thread (1, 2, 4): a thread handles that many consecutive
//     edges loaded as one vector (uint2/uint4), and issues all their level
//     loads before any comparison, for more loads in flight; 1 is the
//     article's one thread per edge. The arrays are padded with (0, 0)
//     self-loops to a multiple of 4 edges; a self-loop never changes a level.
//   - lazy_source: load levels[en] first and levels[st] only when en's level
//     is >= iter (in the frontier or unvisited); when en was visited before
//     this iteration the edge cannot act in either direction. Same results,
//     fewer random loads in the later iterations.
//   - frontier_summary (implies lazy_source): a bitmap with one bit per
//     group of 64 vertices marks the groups holding frontier vertices (32 KB
//     at scale 24, so it stays in L1). When en is unvisited, the edge acts
//     only if st is in the frontier: if st's group bit is clear, the random
//     levels[st] load is skipped. It filters most edges in the iterations
//     with a small frontier. The summary of the next frontier is built by
//     the threads that write a level (atomicOr), and the two alternate.
//   - write_check: before writing a level and a parent, read the level
//     again from L2 (__ldcg) and skip the writes when another thread has
//     already claimed the vertex in this iteration. The article's kernel
//     writes once per (frontier, unvisited) edge, which in the iterations
//     with a large frontier means tens of millions of random stores.
//   - the "modified" flag is written once per warp (a vote) rather than by
//     every writing thread, so the big iterations do not queue millions of
//     stores on one address.
//   - edge words are loaded with __ldcs (streaming, evict-first), so the
//     edge stream does not push levels out of L2.
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "bfsb_abi.h"
#include "bfsb_check.cuh"
#include "bfsb_timer.cuh"
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

// Modes of the source-side load (kernel template parameter).
enum SourceMode {
  kEager = 0,    // the article: load both ends' levels for every edge
  kLazy = 1,     // lazy_source: load levels[st] only when levels[en] >= iter
  kSummary = 2,  // lazy_source + frontier_summary: also skip levels[st] when en
                 // is unvisited and st's group of 64 vertices has no frontier vertex
};

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
// also marks x's group in the next frontier's summary.
template <bool SUMMARY>
__device__ __forceinline__ bool Claim(uint32_t x, uint32_t from, uint8_t* levels_nr,
                                      int32_t* parents, uint32_t* next_sum, uint32_t iter,
                                      bool wcheck) {
  if (wcheck && __ldcg(levels_nr + x) != kUnvisited) return false;
  levels_nr[x] = (uint8_t)(iter + 1);
  parents[x] = (int32_t)from;
  if (SUMMARY) atomicOr(&next_sum[SummaryWord(x)], SummaryBit(x));
  return true;
}

// ScanKernel is one iteration of the article's kernel over ngroups groups
// of EPT edges.
template <int EPT, bool PACKED, bool RO, int MODE>
__global__ void ScanKernel(const uint32_t* __restrict__ src, const uint32_t* __restrict__ dst,
                           int64_t ngroups, const uint8_t* __restrict__ levels, uint8_t* levels_nr,
                           int32_t* parents, uint32_t* modif, uint32_t iter,
                           const uint32_t* __restrict__ cur_sum, uint32_t* next_sum, int wcheck) {
  const int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  bool wrote = false;
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
          wrote |= Claim<MODE == kSummary>(en[j], st[j], levels_nr, parents, next_sum, iter, wcheck);
        }
      } else if (le[j] == iter) {
        if (ls[j] > iter) {
          wrote |= Claim<MODE == kSummary>(st[j], en[j], levels_nr, parents, next_sum, iter, wcheck);
        }
      }
    }
  }
  // Every thread of the block reaches the vote (no early return above).
  if (__any_sync(0xffffffffu, wrote) && (threadIdx.x & 31) == 0) *modif = iter;
}

// InitRoot sets the root's level and parent, and its group in the first
// frontier summary.
__global__ void InitRoot(uint8_t* levels, int32_t* parents, uint32_t* sum, int64_t root) {
  levels[root] = 0;
  parents[root] = (int32_t)root;
  sum[SummaryWord((uint32_t)root)] |= SummaryBit((uint32_t)root);
}

// Widen converts the int32 device parents to int64.
__global__ void Widen(const int32_t* __restrict__ in, int64_t* out, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = in[i];
  }
}

typedef void (*ScanFn)(const uint32_t*, const uint32_t*, int64_t, const uint8_t*, uint8_t*,
                       int32_t*, uint32_t*, uint32_t, const uint32_t*, uint32_t*, int);

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
  const int mode = o.frontier_summary ? kSummary : o.lazy_source ? kLazy : kEager;
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
  int64_t nv = 0, m = 0, m_pad = 0;
  uint32_t* src = nullptr;  // m_pad ids, or packed words
  uint32_t* dst = nullptr;  // m_pad ids; nullptr when packed
  uint8_t* levels = nullptr;
  int32_t* parents = nullptr;
  int64_t* parents64 = nullptr;
  uint32_t* sum[2] = {nullptr, nullptr};  // frontier summaries, alternating per iteration
  int64_t sum_words = 0;
  uint32_t* modif = nullptr;    // device flag
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
    if (sum[0]) cudaFree(sum[0]);
    if (sum[1]) cudaFree(sum[1]);
    if (modif) cudaFree(modif);
    if (h_modif) cudaFreeHost(h_modif);
    events.Destroy();
    if (stream) cudaStreamDestroy(stream);
  }
};

// PadEdges rounds m up to a multiple of 4, the widest vector load.
int64_t PadEdges(int64_t m) { return (m + 3) / 4 * 4; }

}  // namespace

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
  ScanFn kernel = Pick(*opt);
  BFSB_REQUIRE(kernel != nullptr, "edgescan_create: edges_per_thread = %d, want 1, 2 or 4",
               (int)opt->edges_per_thread);
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
    BFSB_CHECK(cudaMalloc(&h->sum[0], (size_t)h->sum_words * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->sum[1], (size_t)h->sum_words * sizeof(uint32_t)));
    BFSB_CHECK(cudaMalloc(&h->modif, sizeof(uint32_t)));
    BFSB_CHECK(cudaMallocHost(&h->h_modif, sizeof(uint32_t)));
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
  return 0;
}

extern "C" int32_t edgescan_bfs(void* hv, int64_t root, float* iter_ms, int32_t* iters,
                                float* total_ms, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && iter_ms != nullptr && iters != nullptr && total_ms != nullptr,
               "edgescan_bfs: NULL argument");
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

  BFSB_CHECK(h->events.Record(0, s));
  BFSB_CHECK(cudaMemsetAsync(h->levels, (int)kUnvisited, (size_t)h->nv, s));
  BFSB_CHECK(cudaMemsetAsync(h->parents, 0xff, (size_t)h->nv * sizeof(int32_t), s));  // -1
  BFSB_CHECK(cudaMemsetAsync(h->modif, 0xff, sizeof(uint32_t), s));
  const size_t sum_bytes = (size_t)h->sum_words * sizeof(uint32_t);
  BFSB_CHECK(cudaMemsetAsync(h->sum[0], 0, sum_bytes, s));
  InitRoot<<<1, 1, 0, s>>>(h->levels, h->parents, h->sum[0], root);
  BFSB_CHECK_LAUNCH("InitRoot");
  int32_t n = 0;
  for (uint32_t iter = 0;; ++iter) {
    BFSB_CHECK(h->events.Record(1 + 2 * iter, s));
    uint32_t* cur = h->sum[iter & 1];
    uint32_t* next = h->sum[(iter + 1) & 1];
    if (h->opt.frontier_summary) BFSB_CHECK(cudaMemsetAsync(next, 0, sum_bytes, s));
    h->kernel<<<blocks, tpb, 0, s>>>(h->src, h->dst, ngroups, h->levels, h->levels, h->parents,
                                     h->modif, iter, cur, next, h->opt.write_check);
    BFSB_CHECK_LAUNCH("ScanKernel");
    BFSB_CHECK(h->events.Record(2 + 2 * iter, s));
    BFSB_CHECK(cudaMemcpyAsync(h->h_modif, h->modif, sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
    BFSB_CHECK(cudaStreamSynchronize(s));
    n = (int32_t)iter + 1;
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
  Widen<<<1024, 256, 0, h->stream>>>(h->parents, h->parents64, h->nv);
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
