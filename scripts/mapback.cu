// mapback.cu: the least a search pays, on device 0, to give its parents in
// the input's vertex ids after running on vertices relabelled by degree
// (results/diropt-1000, "The limits": the price of a full relabelling).
//
// A relabelled search (hubs first, new ids in degree order) ends with its
// predecessors in new ids; Graph500 asks for parents in the input's ids.
// The generator's labels are a random permutation of the degree order, so
// the end must write parents[orig[v]] = orig[pred[v]] for every vertex v
// the search reached: a scatter, one 32-byte sector written for each
// 4-byte parent, whether fused into the levels' writes or a pass of its
// own. The leaves' parents are fixed (set once at construction) and the
// isolated vertices are never reached, so at scale 25 (seed [2, 3]) that
// is the 17.05 M reached vertices less the 4.23 M leaves: 12.8 M rows,
// new ids [0, k). The program times, medians of 20 runs with CUDA events:
//
//   copy      parents[v] = pred[v], v < k: what the present layout writes,
//             coalesced (its pred array, in the input's ids)
//   scatter   parents[orig[v]] = pred[v], v < k: the scatter alone
//   map hubs  parents[orig[v]] = orig[pred[v]], v < k, each pred one of
//             the 4,096 first ids (a hub: the bottom-up first check's
//             parent, orig's entries for it cached)
//   map any   the same, each pred any of [0, k) (no parent cached)
//   gather    parents[o] = orig[pred[neu[o]]] over the input's ids o < n:
//             the pass over the input's side instead (neu = orig^-1; the
//             isolated vertices' parents written too, as a reset would)
//
//   make -f mk/cuda.mk cuda && bin/mapback
#include <stdint.h>

#include <algorithm>
#include <random>
#include <vector>

#include "measure.cuh"

namespace {

constexpr int64_t kN = int64_t{1} << 25;  // scale 25's vertices
constexpr int64_t kK = 12823000;          // its reached rows less the leaves (above)

__global__ void Copy(const uint32_t* __restrict__ pred, int64_t k, uint32_t* parents) {
  const int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < k) parents[v] = pred[v];
}

__global__ void Scatter(const uint32_t* __restrict__ pred, const uint32_t* __restrict__ orig, int64_t k,
                        uint32_t* parents) {
  const int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < k) parents[orig[v]] = pred[v];
}

__global__ void Map(const uint32_t* __restrict__ pred, const uint32_t* __restrict__ orig, int64_t k,
                    uint32_t* parents) {
  const int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < k) parents[orig[v]] = orig[pred[v]];
}

__global__ void Gather(const uint32_t* __restrict__ pred, const uint32_t* __restrict__ orig,
                       const uint32_t* __restrict__ neu, int64_t n, int64_t k, uint32_t* parents) {
  const int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= n) return;
  const uint32_t v = neu[o];
  parents[o] = v < k ? orig[pred[v]] : 0xffffffffu;
}

// Time runs f 20 times after a warm-up and returns the median, µs.
template <typename F>
double Time(F f) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  f();
  CHECK(cudaGetLastError());
  std::vector<double> us;
  for (int i = 0; i < 20; i++) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    us.push_back(ms * 1e3);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return Median(us);
}

}  // namespace

int main() {
  const cudaDeviceProp prop = Device0();
  std::mt19937_64 rng(25);
  std::vector<uint32_t> orig(kN), neu(kN), hubs(kK), any(kK);
  for (int64_t i = 0; i < kN; i++) orig[i] = (uint32_t)i;
  std::shuffle(orig.begin(), orig.end(), rng);
  for (int64_t i = 0; i < kN; i++) neu[orig[i]] = (uint32_t)i;
  for (int64_t i = 0; i < kK; i++) {
    hubs[i] = (uint32_t)(rng() % 4096);
    any[i] = (uint32_t)(rng() % kK);
  }
  uint32_t *d_orig, *d_neu, *d_hubs, *d_any, *d_parents;
  CHECK(cudaMalloc(&d_orig, 4 * kN));
  CHECK(cudaMalloc(&d_neu, 4 * kN));
  CHECK(cudaMalloc(&d_hubs, 4 * kK));
  CHECK(cudaMalloc(&d_any, 4 * kK));
  CHECK(cudaMalloc(&d_parents, 4 * kN));
  CHECK(cudaMemcpy(d_orig, orig.data(), 4 * kN, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_neu, neu.data(), 4 * kN, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_hubs, hubs.data(), 4 * kK, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_any, any.data(), 4 * kK, cudaMemcpyHostToDevice));
  const int tpb = 256;
  const int gk = (int)((kK + tpb - 1) / tpb), gn = (int)((kN + tpb - 1) / tpb);
  printf("%s: n %lld, k %lld reached rows, medians of 20 runs, us\n", prop.name, (long long)kN, (long long)kK);
  printf("copy      %8.1f\n", Time([&] { Copy<<<gk, tpb>>>(d_hubs, kK, d_parents); }));
  printf("scatter   %8.1f\n", Time([&] { Scatter<<<gk, tpb>>>(d_hubs, d_orig, kK, d_parents); }));
  printf("map hubs  %8.1f\n", Time([&] { Map<<<gk, tpb>>>(d_hubs, d_orig, kK, d_parents); }));
  printf("map any   %8.1f\n", Time([&] { Map<<<gk, tpb>>>(d_any, d_orig, kK, d_parents); }));
  printf("gather    %8.1f\n", Time([&] { Gather<<<gn, tpb>>>(d_hubs, d_orig, d_neu, kN, kK, d_parents); }));
  // Check the last pass (gather), every 9973rd row: its parent at its input id.
  std::vector<uint32_t> got(kN);
  CHECK(cudaMemcpy(got.data(), d_parents, 4 * kN, cudaMemcpyDeviceToHost));
  for (int64_t v = 0; v < kK; v += 9973) {
    if (got[orig[v]] != orig[hubs[v]]) {
      fprintf(stderr, "mapback: row %lld: parent %u, want %u\n", (long long)v, got[orig[v]], orig[hubs[v]]);
      return 1;
    }
  }
  cudaFree(d_orig);
  cudaFree(d_neu);
  cudaFree(d_hubs);
  cudaFree(d_any);
  cudaFree(d_parents);
  return 0;
}
