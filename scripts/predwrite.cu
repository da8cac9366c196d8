// predwrite.cu: what a bottom-up level's predecessor writes cost, on
// device 0 (results/diropt-1000, "`pred_clean`, built and measured").
//
// diropt's bottom-up levels at scale 25 find 5-12 M rows each, spread over
// the 2^25 rows (the generator's labels are random), and write each one's
// 4-byte predecessor: a warp writes the found rows of its word of 32 rows,
// a part of one 128-byte line, and nearly every 32-byte sector of the
// 128 MiB pred array gets a part written. The program runs a level-like
// pass (a warp per word of an `open` bitmap, four words a warp at once, a
// lane per row: the open row's packed word, then its in_queue bit, then
// the write) over open rows at three densities, with the writes made
// four ways, L2 flushed before each run (medians of 10, CUDA events):
//
//   none      no pred write (the pass's loads alone)
//   partial   pred[v] = u for each open row that hit: the level's writes
//   full      every lane of a word with a hit writes its row, open or not
//             (whole lines: what a write costs without the sectors'
//             other rows to keep)
//   compare   pred[v] loaded with the packed word, written where it
//             differs from u (pred prefilled with u on 90 % of the rows)
//
//   make -f mk/cuda.mk cuda && bin/predwrite
#include <stdint.h>

#include <random>
#include <vector>

#include "measure.cuh"

namespace {

constexpr int64_t kN = int64_t{1} << 25;  // scale 25's rows
constexpr int64_t kWords = kN / 32;
constexpr uint32_t kMask = (1u << 26) - 1;
constexpr int kBuWords = 4;

enum Mode { kNone, kPartial, kFull, kCompare };

template <int kMode>
__global__ void Level(const uint32_t* __restrict__ open, const uint32_t* __restrict__ fdeg,
                      const uint32_t* __restrict__ in_queue, uint32_t* pred, uint32_t* sink) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  uint32_t acc = 0;
  for (int64_t w0 = warp * kBuWords; w0 < kWords; w0 += warps * kBuWords) {
    uint32_t u[kBuWords], old[kBuWords];
    bool o[kBuWords], hit[kBuWords];
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
      const uint32_t v = (uint32_t)((w0 + j) * 32 + lane);
      o[j] = (__ldg(&open[w0 + j]) >> lane) & 1u;
      u[j] = o[j] ? __ldcs(&fdeg[v]) & kMask : 0u;
      old[j] = kMode == kCompare && o[j] ? pred[v] : 0u;
    }
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) hit[j] = o[j] && ((__ldg(&in_queue[u[j] >> 5]) >> (u[j] & 31)) & 1u);
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
      const uint32_t v = (uint32_t)((w0 + j) * 32 + lane);
      if (kMode == kNone) acc ^= hit[j] ? u[j] : 0u;
      if (kMode == kPartial && hit[j]) pred[v] = u[j];
      if (kMode == kFull && __any_sync(0xffffffffu, hit[j])) pred[v] = hit[j] ? u[j] : v;
      if (kMode == kCompare && hit[j] && old[j] != u[j]) pred[v] = u[j];
    }
  }
  if (kMode == kNone && acc == 0x9e3779b9u) sink[0] = acc;  // keeps the loads
}

}  // namespace

int main() {
  const cudaDeviceProp prop = Device0();
  std::mt19937_64 rng(25);
  std::vector<uint32_t> fdeg(kN), inq(kWords), pre(kN);
  for (int64_t i = 0; i < kN; i++) fdeg[i] = (uint32_t)(rng() % kN) | (3u << 26);
  for (int64_t i = 0; i < kWords; i++) inq[i] = (uint32_t)rng() | (uint32_t)rng();  // 3/4 of bits set
  for (int64_t i = 0; i < kN; i++) pre[i] = rng() % 10 == 0 ? 0u : fdeg[i] & kMask;
  uint32_t *d_open, *d_fdeg, *d_inq, *d_pred, *d_pre, *d_sink, *d_flush;
  const size_t flush = size_t{256} << 20;
  CHECK(cudaMalloc(&d_open, 4 * kWords));
  CHECK(cudaMalloc(&d_fdeg, 4 * kN));
  CHECK(cudaMalloc(&d_inq, 4 * kWords));
  CHECK(cudaMalloc(&d_pred, 4 * kN));
  CHECK(cudaMalloc(&d_pre, 4 * kN));
  CHECK(cudaMalloc(&d_sink, 4));
  CHECK(cudaMalloc(&d_flush, flush));
  CHECK(cudaMemcpy(d_fdeg, fdeg.data(), 4 * kN, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_inq, inq.data(), 4 * kWords, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_pre, pre.data(), 4 * kN, cudaMemcpyHostToDevice));
  const int tpb = 256, blocks = prop.multiProcessorCount * 4;
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  // Run times one mode's pass: pred restored from pre and L2 flushed
  // before each of 10 runs; the median, µs.
  auto run = [&](int mode) {
    std::vector<double> us;
    for (int i = 0; i < 10; i++) {
      CHECK(cudaMemcpy(d_pred, d_pre, 4 * kN, cudaMemcpyDeviceToDevice));
      CHECK(cudaMemset(d_flush, i, flush));
      CHECK(cudaEventRecord(a));
      switch (mode) {
        case kNone: Level<kNone><<<blocks, tpb>>>(d_open, d_fdeg, d_inq, d_pred, d_sink); break;
        case kPartial: Level<kPartial><<<blocks, tpb>>>(d_open, d_fdeg, d_inq, d_pred, d_sink); break;
        case kFull: Level<kFull><<<blocks, tpb>>>(d_open, d_fdeg, d_inq, d_pred, d_sink); break;
        default: Level<kCompare><<<blocks, tpb>>>(d_open, d_fdeg, d_inq, d_pred, d_sink); break;
      }
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, a, b));
      us.push_back(ms * 1e3);
    }
    return Median(us);
  };
  printf("%s: %lld rows, L2 flushed before each run, medians of 10, us\n", prop.name, (long long)kN);
  printf("%-8s %8s %8s %8s %8s %8s\n", "density", "open M", "none", "partial", "full", "compare");
  for (double p : {0.05, 0.23, 0.35}) {
    std::vector<uint32_t> open(kWords);
    int64_t cnt = 0;
    for (int64_t w = 0; w < kWords; w++) {
      uint32_t x = 0;
      for (int l = 0; l < 32; l++) {
        if ((double)(rng() >> 11) * 0x1.0p-53 < p) x |= 1u << l;
      }
      open[w] = x;
      cnt += __builtin_popcount(x);
    }
    CHECK(cudaMemcpy(d_open, open.data(), 4 * kWords, cudaMemcpyHostToDevice));
    const double t0 = run(kNone), t1 = run(kPartial), t2 = run(kFull), t3 = run(kCompare);
    printf("%-8.2f %8.2f %8.1f %8.1f %8.1f %8.1f\n", p, (double)cnt / 1e6, t0, t1, t2, t3);
    // Check compare's result: every open row that hit holds u.
    std::vector<uint32_t> got(kN);
    CHECK(cudaMemcpy(got.data(), d_pred, 4 * kN, cudaMemcpyDeviceToHost));
    for (int64_t v = 0; v < kN; v += 997) {
      const uint32_t u = fdeg[v] & kMask;
      const bool hit = ((open[v >> 5] >> (v & 31)) & 1u) && ((inq[u >> 5] >> (u & 31)) & 1u);
      if (hit && got[v] != u) {
        fprintf(stderr, "predwrite: row %lld: pred %u, want %u\n", (long long)v, got[v], u);
        return 1;
      }
    }
  }
  cudaFree(d_open);
  cudaFree(d_fdeg);
  cudaFree(d_inq);
  cudaFree(d_pred);
  cudaFree(d_pre);
  cudaFree(d_sink);
  cudaFree(d_flush);
  return 0;
}
