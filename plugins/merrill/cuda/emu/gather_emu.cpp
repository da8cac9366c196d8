// gather_emu.cpp: checks bfsb::BlockGather (both entry points),
// bfsb::ThreadGather, and BlockGather with the lists of at least
// bfsb::kHuge edges left to bfsb::HugeQueue and bfsb::HugeKernel (a grid
// of two blocks), of harness/cuda/include/bfsb_gather.cuh on the host,
// through the emulation of cuda_runtime.h beside it: one block of kT
// threads, several grid-stride rounds, adjacency lists of 0 to 3·kHuge
// entries; every edge must be visited exactly once, from its own row, with
// its own destination. Built and run by ../../gather_emu_test.go (g++,
// C++20); exits 1 on a mismatch. Also run by mg_gather_selftest on a GPU.
#define BFSB_WARP_CUH  // bfsb_warp.cuh's pieces the gather needs, emulated:
#include "cuda_runtime.h"
namespace bfsb {
constexpr uint32_t kFullWarp = 0xffffffffu;
inline int LaneId() { return threadIdx.x & 31; }
inline uint32_t WarpInclusiveSum(uint32_t x) {
  const int lane = LaneId();
  for (int off = 1; off < 32; off <<= 1) {
    const uint32_t y = __shfl_up_sync(kFullWarp, x, off);
    if (lane >= off) x += y;
  }
  return x;
}
inline uint32_t WarpSum(uint32_t x) { return __shfl_sync(kFullWarp, WarpInclusiveSum(x), 31); }
}  // namespace bfsb
#include "bfsb_gather.cuh"

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

// HugeVisit is HugeKernel's visitor: dst = 7e + 1 gives the edge back.
struct HugeVisit {
  std::atomic<uint32_t>* hits;
  uint32_t* srcs;
  std::atomic<int>* bad;
  void operator()(uint32_t u, uint32_t v, uint32_t& acc) const {
    ++acc;
    const int64_t e = (v - 1) / 7;
    hits[e]++;
    srcs[e] = u;
  }
  void Flush(uint32_t acc) const {
    if (acc > (1u << 30)) (*bad)++;
  }
};

template <int kT>
int Check(int mode, int64_t n) {
  std::vector<int64_t> rp(n + 1, 0);
  uint64_t x = 88172645463325252ull + (uint64_t)n;
  for (int64_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const int64_t cls = (int64_t)(x % 100), r = (int64_t)((x >> 8) % 100000);
    const int64_t len = cls < 50 ? r % 32 : cls < 80 ? r % kT : cls < 98 ? r % (4 * kT + 1) : r % (3 * bfsb::kHuge);
    rp[i + 1] = rp[i] + len;
  }
  const int64_t m = rp[n];
  std::vector<uint32_t> col(m + 1);
  for (int64_t e = 0; e < m; ++e) col[e] = (uint32_t)(e * 7 + 1);
  std::vector<std::atomic<uint32_t>> hits(m + 1);
  std::vector<uint32_t> srcs(m + 1);
  std::atomic<int> bad{0};
  std::vector<bfsb::HugeList<uint32_t>> lists(bfsb::HugeQueue<uint32_t>::Cap(m));
  unsigned long long ctl = 0;
  uint32_t overflow = 0;
  const bfsb::HugeQueue<uint32_t> hq{lists.data(), (int64_t)lists.size(), &ctl, &overflow, 1u};
  std::barrier<> block(kT);
  std::vector<std::barrier<>*> warps;
  for (int w = 0; w < kT / 32; ++w) warps.push_back(emu_warp_bar[w] = new std::barrier<>(32));
  emu_block_bar = &block;
  using G = bfsb::BlockGather<kT, uint32_t, int64_t>;
  static typename G::Storage smem;
  std::vector<std::thread> th;
  for (int t = 0; t < kT; ++t) {
    th.emplace_back([&, t] {
      emu_tid = {(unsigned)t, 0, 0};
      G g(smem);
      auto visit3 = [&](uint32_t u, int64_t e, uint32_t v) {
        hits[e]++;
        srcs[e] = u;
        if (v != (uint32_t)(e * 7 + 1)) bad++;
      };
      auto visit4 = [&](bool valid, uint32_t u, int64_t e, uint32_t v) {
        if (bfsb::WarpSum(valid ? 1 : 0) > 32) bad++;  // every lane takes part
        if (valid) visit3(u, e, v);
      };
      for (int64_t base = 0; base < n; base += kT) {
        const int64_t i = base + t;
        bool active = i < n;
        const int64_t b = active ? rp[i] : 0, e = active ? rp[i + 1] : 0;
        if (mode == 3 && active && hq.Take((uint32_t)i, b, e)) active = false;
        if (mode == 0 || mode == 3) g.ForEachEdge(active, (uint32_t)i, b, e, col.data(), visit3);
        if (mode == 1) g.ForEachEdgeSync(active, (uint32_t)i, b, e, col.data(), visit4);
        if (mode == 2) bfsb::ThreadGather(active, (uint32_t)i, b, e, col.data(), visit3);
      }
      if (mode != 3) return;
      for (unsigned bid = 0; bid < 2; ++bid) {  // HugeKernel on a grid of two blocks
        __syncthreads();
        if (t == 0) emu_bid.x = bid, emu_gdim.x = 2;
        __syncthreads();
        bfsb::HugeKernel<kT>(hq, col.data(), HugeVisit{hits.data(), srcs.data(), &bad});
      }
    });
  }
  for (auto& t : th) t.join();
  for (auto* w : warps) delete w;
  emu_bid.x = 0, emu_gdim.x = 1;
  if (overflow != 0) bad++;
  int64_t wrong = 0;
  for (int64_t u = 0; u < n; ++u) {
    for (int64_t e = rp[u]; e < rp[u + 1]; ++e) {
      if (hits[e] != 1 || srcs[e] != (uint32_t)u) wrong++;
    }
  }
  printf("threads %d mode %d rows %lld edges %lld, huge lists %llu: wrong %lld, bad %d\n", kT, mode, (long long)n,
         (long long)m, mode == 3 ? ctl >> bfsb::kHugeChunkBits : 0ull, (long long)wrong, bad.load());
  return wrong == 0 && bad == 0 ? 0 : 1;
}

int main() {
  int fail = 0;
  for (int mode = 0; mode < 4; ++mode) {
    for (int64_t n : {1, 100, 3000}) {
      fail |= Check<256>(mode, n);
      fail |= Check<64>(mode, n);
    }
  }
  return fail;
}
