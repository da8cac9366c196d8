// selftest.cu: bfsb_selftest (bfsb_abi.h), a check of the shared device
// primitives of harness/cuda/include (prefix scan and compaction through
// CUB, bitmap set/test/count) against a host computation on pseudo-random
// input. Compiled into every variant's library, so `gpu-check` can run it on
// the device the variants use.
#include <cuda_runtime.h>
#include <stdint.h>

#include <vector>

#include "bfsb_abi.h"
#include "bfsb_bitmap.cuh"
#include "bfsb_check.cuh"
#include "bfsb_scan.cuh"

namespace {

// DeviceArray owns one cudaMalloc'd array.
template <typename T>
struct DeviceArray {
  T* p = nullptr;
  ~DeviceArray() {
    if (p) cudaFree(p);
  }
  cudaError_t Alloc(int64_t n) { return cudaMalloc(&p, (size_t)(n > 0 ? n : 1) * sizeof(T)); }
};

// IsMultipleOf3 is the predicate of the CompactIf check.
struct IsMultipleOf3 {
  __host__ __device__ bool operator()(const uint32_t& x) const { return x % 3 == 0; }
};

// SetBitsKernel sets bit vals[i] % nbits for every i and counts the calls
// that found the bit clear.
__global__ void SetBitsKernel(const uint32_t* vals, int64_t n, uint32_t nbits, uint32_t* bm,
                              unsigned long long* won) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uint32_t v = vals[i] % nbits;
    bool mine = (i & 1) ? bfsb::BitmapSet(bm, v) : bfsb::BitmapTestAndSet(bm, v);
    if (mine) atomicAdd(won, 1ull);
  }
}

// TestBitsKernel writes out[v] = BitmapTest(v) for every v < nbits.
__global__ void TestBitsKernel(const uint32_t* bm, uint32_t nbits, uint8_t* out) {
  int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nbits) out[v] = bfsb::BitmapTestRO(bm, (uint64_t)v) ? 1 : 0;
}

}  // namespace

extern "C" int32_t bfsb_selftest(int32_t device, int64_t n, char* err, int32_t errlen) {
  // n is bounded so that the scan's 32-bit total (values below 1000) cannot
  // overflow.
  BFSB_REQUIRE(n >= 1 && n <= (1 << 22), "bfsb_selftest: n = %lld, want 1..2^22", (long long)n);
  BFSB_CHECK(cudaSetDevice(device));
  // Host input: xorshift32 values.
  std::vector<uint32_t> vals(n);
  uint32_t x = 2463534242u;
  for (int64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    vals[i] = x;
  }
  const int ni = (int)n;
  cudaStream_t s = 0;
  bfsb::Scratch scratch;
  DeviceArray<uint32_t> d_vals, d_small, d_out32, d_bm;
  DeviceArray<uint32_t> d_sum;
  DeviceArray<uint8_t> d_flags, d_bits;
  DeviceArray<int> d_count;
  DeviceArray<unsigned long long> d_won;
  BFSB_CHECK(d_vals.Alloc(n));
  BFSB_CHECK(d_small.Alloc(n));
  BFSB_CHECK(d_out32.Alloc(n));
  BFSB_CHECK(d_sum.Alloc(n));
  BFSB_CHECK(d_flags.Alloc(n));
  BFSB_CHECK(d_count.Alloc(1));
  BFSB_CHECK(d_won.Alloc(2));
  BFSB_CHECK(cudaMemcpy(d_vals.p, vals.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));

  // 1. Exclusive prefix sum of small values (value % 1000).
  std::vector<uint32_t> small(n);
  std::vector<uint8_t> flags(n);
  for (int64_t i = 0; i < n; ++i) {
    small[i] = vals[i] % 1000;
    flags[i] = (uint8_t)(vals[i] & 1);
  }
  BFSB_CHECK(cudaMemcpy(d_small.p, small.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  BFSB_CHECK(cudaMemcpy(d_flags.p, flags.data(), n, cudaMemcpyHostToDevice));
  BFSB_CHECK(bfsb::ExclusiveSum(scratch, d_small.p, d_sum.p, ni, s));
  std::vector<uint32_t> sum(n);
  BFSB_CHECK(cudaMemcpy(sum.data(), d_sum.p, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  uint32_t acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (sum[i] != acc) {
      return bfsb::Errf(err, errlen, BFSB_EINTERNAL,
                        "selftest ExclusiveSum: out[%lld] = %llu, want %llu", (long long)i,
                        (unsigned long long)sum[i], (unsigned long long)acc);
    }
    acc += small[i];
  }

  // 2. Compaction by flags (odd values), then by predicate (multiples of 3).
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0) {
      BFSB_CHECK(bfsb::CompactFlagged(scratch, d_vals.p, d_flags.p, d_out32.p, d_count.p, ni, s));
    } else {
      BFSB_CHECK(bfsb::CompactIf(scratch, d_vals.p, d_out32.p, d_count.p, ni, IsMultipleOf3(), s));
    }
    int count = 0;
    BFSB_CHECK(cudaMemcpy(&count, d_count.p, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<uint32_t> out(count > 0 ? count : 1);
    BFSB_CHECK(cudaMemcpy(out.data(), d_out32.p, (size_t)count * sizeof(uint32_t),
                          cudaMemcpyDeviceToHost));
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      bool keep = pass == 0 ? flags[i] != 0 : IsMultipleOf3()(vals[i]);
      if (!keep) continue;
      if (k >= count || out[k] != vals[i]) {
        return bfsb::Errf(err, errlen, BFSB_EINTERNAL,
                          "selftest %s: element %lld of %d is wrong or missing",
                          pass == 0 ? "CompactFlagged" : "CompactIf", (long long)k, count);
      }
      ++k;
    }
    if (k != count) {
      return bfsb::Errf(err, errlen, BFSB_EINTERNAL, "selftest %s: kept %d, want %lld",
                        pass == 0 ? "CompactFlagged" : "CompactIf", count, (long long)k);
    }
  }

  // 3. Bitmap: set vals[i] % nbits (with repeats), count winners and bits,
  // then test every bit against the host's set.
  const uint32_t nbits = (uint32_t)(n < 64 ? 64 : n);
  const int64_t words = bfsb::BitmapWords(nbits);
  BFSB_CHECK(d_bm.Alloc(words));
  BFSB_CHECK(d_bits.Alloc(nbits));
  BFSB_CHECK(cudaMemset(d_bm.p, 0, words * sizeof(uint32_t)));
  BFSB_CHECK(cudaMemset(d_won.p, 0, 2 * sizeof(unsigned long long)));
  SetBitsKernel<<<(unsigned)((n + 255) / 256), 256>>>(d_vals.p, n, nbits, d_bm.p, d_won.p);
  BFSB_CHECK_LAUNCH("SetBitsKernel");
  bfsb::BitmapCountKernel<<<64, 256>>>(d_bm.p, words, d_won.p + 1);
  BFSB_CHECK_LAUNCH("BitmapCountKernel");
  TestBitsKernel<<<(unsigned)((nbits + 255) / 256), 256>>>(d_bm.p, nbits, d_bits.p);
  BFSB_CHECK_LAUNCH("TestBitsKernel");
  unsigned long long won[2];
  BFSB_CHECK(cudaMemcpy(won, d_won.p, sizeof(won), cudaMemcpyDeviceToHost));
  std::vector<uint8_t> bits(nbits), want(nbits, 0);
  BFSB_CHECK(cudaMemcpy(bits.data(), d_bits.p, nbits, cudaMemcpyDeviceToHost));
  unsigned long long distinct = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t v = vals[i] % nbits;
    if (!want[v]) ++distinct;
    want[v] = 1;
  }
  if (won[0] != distinct || won[1] != distinct) {
    return bfsb::Errf(err, errlen, BFSB_EINTERNAL,
                      "selftest bitmap: %llu winning sets and %llu bits counted, want %llu",
                      won[0], won[1], distinct);
  }
  for (uint32_t v = 0; v < nbits; ++v) {
    if (bits[v] != want[v]) {
      return bfsb::Errf(err, errlen, BFSB_EINTERNAL, "selftest BitmapTest(%u) = %d, want %d", v,
                        bits[v], want[v]);
    }
  }
  BFSB_CHECK(cudaDeviceSynchronize());
  return 0;
}
