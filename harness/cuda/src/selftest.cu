// selftest.cu: bfsb_selftest (bfsb_abi.h), a check of the shared device
// primitives of harness/cuda/include that the variants' kernels call: the
// device-wide exclusive scan (bfsb_scan.cuh) and the warp and block
// collectives (bfsb_warp.cuh), against a host computation on pseudo-random
// input. Compiled into every variant's library, so that the primitives are
// checked on the device the variants run on.
#include <cuda_runtime.h>
#include <stdint.h>

#include <algorithm>
#include <vector>

#include "bfsb_abi.h"
#include "bfsb_check.cuh"
#include "bfsb_scan.cuh"
#include "bfsb_warp.cuh"

namespace {

// kQueues is the number of queues the append checks use.
constexpr int kQueues = 3;

// DeviceArray owns one cudaMalloc'd array.
template <typename T>
struct DeviceArray {
  T* p = nullptr;
  ~DeviceArray() {
    if (p) cudaFree(p);
  }
  cudaError_t Alloc(int64_t n) { return cudaMalloc(&p, (size_t)(n > 0 ? n : 1) * sizeof(T)); }
};

// Small is the value lane i contributes to the sums: below 1000.
__host__ __device__ inline uint32_t Small(uint32_t x) { return x % 1000; }

// QueueOf is the queue element i asks for in the append checks (-1: none).
__host__ __device__ inline int QueueOf(uint32_t x) { return (x & 3) == 3 ? -1 : (int)((x >> 2) % kQueues); }

// Slots is how many slots element i reserves in the WarpReserve check.
__host__ __device__ inline uint32_t Slots(uint32_t x) { return (x >> 8) % 3; }

// WarpKernel runs every collective of bfsb_warp.cuh over vals[0..n), with
// a grid-stride loop whose bound is warp-uniform (elements past n take
// part with 0, no queue and no slots): sum[i] = WarpSum of its warp,
// scan[i] = WarpInclusiveSum; WarpAppend puts i into queues[q*n ..] (counts
// counts[0..3)), BlockAppend into queues[(3+q)*n ..] (counts[3..6)), and
// WarpReserve writes i into Slots(vals[i]) slots of reserved (count
// counts[6]).
__global__ void WarpKernel(const uint32_t* vals, uint32_t n, uint32_t* sum, uint32_t* scan,
                           uint32_t* queues, uint32_t* reserved, uint32_t* counts) {
  extern __shared__ uint32_t shared[];
  bfsb::BlockAppend block(shared, kQueues);
  block.Init();
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t base = blockIdx.x * blockDim.x; base < n; base += stride) {
    const uint32_t i = base + threadIdx.x;
    const bool in = i < n;
    const uint32_t x = in ? vals[i] : 0;
    const uint32_t s = bfsb::WarpSum(in ? Small(x) : 0);
    const uint32_t c = bfsb::WarpInclusiveSum(in ? Small(x) : 0);
    const int q = in ? QueueOf(x) : -1;
    const uint32_t slot = bfsb::WarpAppend(q, counts, false);
    const uint32_t bslot = block.Warp(q, false);
    const uint32_t k = in ? Slots(x) : 0;
    const uint32_t r = bfsb::WarpReserve(counts + 2 * kQueues, k);
    block.Commit(counts + kQueues);
    if (!in) continue;
    sum[i] = s;
    scan[i] = c;
    if (q >= 0) {
      queues[(uint64_t)q * n + slot] = i;
      queues[(uint64_t)(kQueues + q) * n + block.Base(q) + bslot] = i;
    }
    for (uint32_t j = 0; j < k; ++j) reserved[r + j] = i;
  }
}

// SameSet reports whether got, in any order, holds exactly the sorted
// elements of want.
bool SameSet(std::vector<uint32_t> got, std::vector<uint32_t> want) {
  std::sort(got.begin(), got.end());
  return got == want;
}

}  // namespace

extern "C" int32_t bfsb_selftest(int32_t device, int64_t n, char* err, int32_t errlen) {
  // n is bounded so that the scan's 32-bit total (values below 1000) cannot
  // overflow.
  BFSB_REQUIRE(n >= 1 && n <= (1 << 22), "bfsb_selftest: n = %lld, want 1..2^22", (long long)n);
  BFSB_CHECK(cudaSetDevice(device));
  // Host input: xorshift32 values.
  std::vector<uint32_t> vals(n), small(n);
  uint32_t x = 2463534242u;
  for (int64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    vals[i] = x;
    small[i] = Small(x);
  }
  const uint32_t nu = (uint32_t)n;
  bfsb::Scratch scratch;
  DeviceArray<uint32_t> d_vals, d_small, d_sum, d_scan, d_queues, d_reserved, d_counts;
  BFSB_CHECK(d_vals.Alloc(n));
  BFSB_CHECK(d_small.Alloc(n));
  BFSB_CHECK(d_sum.Alloc(n));
  BFSB_CHECK(d_scan.Alloc(n));
  BFSB_CHECK(d_queues.Alloc(2 * kQueues * n));
  BFSB_CHECK(d_reserved.Alloc(2 * n));
  BFSB_CHECK(d_counts.Alloc(2 * kQueues + 1));
  BFSB_CHECK(cudaMemcpy(d_vals.p, vals.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  BFSB_CHECK(cudaMemcpy(d_small.p, small.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));

  // 1. Device-wide exclusive prefix sum, in place.
  BFSB_CHECK(bfsb::ExclusiveSum(scratch, d_small.p, d_small.p, (int)n, 0));
  std::vector<uint32_t> got(n);
  BFSB_CHECK(cudaMemcpy(got.data(), d_small.p, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  uint32_t acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (got[i] != acc) {
      return bfsb::Errf(err, errlen, BFSB_EINTERNAL, "selftest ExclusiveSum: out[%lld] = %u, want %u",
                        (long long)i, got[i], acc);
    }
    acc += small[i];
  }

  // 2. The warp and block collectives, with 4 waves of 256-thread blocks.
  BFSB_CHECK(cudaMemset(d_counts.p, 0, (2 * kQueues + 1) * sizeof(uint32_t)));
  const unsigned blocks = (unsigned)std::max<int64_t>(1, (n + 1023) / 1024);
  WarpKernel<<<blocks, 256, bfsb::BlockAppend::SharedWords(kQueues) * sizeof(uint32_t)>>>(
      d_vals.p, nu, d_sum.p, d_scan.p, d_queues.p, d_reserved.p, d_counts.p);
  BFSB_CHECK_LAUNCH("WarpKernel");
  std::vector<uint32_t> sum(n), scan(n), queues(2 * kQueues * n), reserved(2 * n),
      counts(2 * kQueues + 1);
  BFSB_CHECK(cudaMemcpy(sum.data(), d_sum.p, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  BFSB_CHECK(cudaMemcpy(scan.data(), d_scan.p, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  BFSB_CHECK(cudaMemcpy(queues.data(), d_queues.p, queues.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  BFSB_CHECK(cudaMemcpy(reserved.data(), d_reserved.p, reserved.size() * sizeof(uint32_t),
                        cudaMemcpyDeviceToHost));
  BFSB_CHECK(cudaMemcpy(counts.data(), d_counts.p, counts.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  for (int64_t w = 0; w < n; w += 32) {
    uint32_t total = 0, incl = 0;
    const int64_t end = std::min<int64_t>(n, w + 32);
    for (int64_t i = w; i < end; ++i) total += small[i];
    for (int64_t i = w; i < end; ++i) {
      incl += small[i];
      if (sum[i] != total || scan[i] != incl) {
        return bfsb::Errf(err, errlen, BFSB_EINTERNAL,
                          "selftest WarpSum/WarpInclusiveSum: element %lld got %u/%u, want %u/%u",
                          (long long)i, sum[i], scan[i], total, incl);
      }
    }
  }
  std::vector<std::vector<uint32_t>> want(kQueues);
  uint32_t want_slots = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int q = QueueOf(vals[i]);
    if (q >= 0) want[q].push_back((uint32_t)i);
    want_slots += Slots(vals[i]);
  }
  for (int q = 0; q < kQueues; ++q) {
    const char* names[2] = {"WarpAppend", "BlockAppend"};
    for (int b = 0; b < 2; ++b) {
      const uint32_t c = counts[b * kQueues + q];
      const uint32_t* p = queues.data() + (size_t)(b * kQueues + q) * n;
      if (c != want[q].size() || !SameSet(std::vector<uint32_t>(p, p + c), want[q])) {
        return bfsb::Errf(err, errlen, BFSB_EINTERNAL,
                          "selftest %s: queue %d holds %u elements, want %zu, or not the right ones",
                          names[b], q, c, want[q].size());
      }
    }
  }
  // WarpReserve: each element's slots are consecutive and every slot is
  // written once.
  std::vector<uint32_t> seen(n, 0);
  bool ok = counts[2 * kQueues] == want_slots;
  for (uint32_t k = 0; ok && k < want_slots;) {
    const uint32_t i = reserved[k];
    const uint32_t s = i < nu ? Slots(vals[i]) : 0;
    ok = s > 0 && seen[i] == 0 && k + s <= want_slots;
    for (uint32_t j = 0; ok && j < s; ++j) ok = reserved[k + j] == i;
    if (ok) seen[i] = 1;
    k += s;
  }
  if (!ok) {
    return bfsb::Errf(err, errlen, BFSB_EINTERNAL,
                      "selftest WarpReserve: %u slots reserved, want %u, or an element's slots are "
                      "not its own and consecutive",
                      counts[2 * kQueues], want_slots);
  }
  BFSB_CHECK(cudaDeviceSynchronize());
  return 0;
}
