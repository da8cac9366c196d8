// common.cu: the part of the bfsb_abi.h C ABI that every bfsbench CUDA
// library exports (ABI version, device count and query, bandwidth
// measurement). mk/cuda.mk compiles it into each variant's library, so the
// Go loader can ask any variant's library about the device it runs on.
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "bfsb_abi.h"
#include "bfsb_check.cuh"
#include "bfsb_timer.cuh"
#include "bfsb_warp.cuh"

namespace {

// FillKernel writes a non-zero pattern, so that bandwidth is never measured
// on zeros (which some memory paths compress).
__global__ void FillKernel(uint32_t* p, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    p[i] = (uint32_t)(i * 2654435761u) | 1u;
  }
}

// ReadKernel streams n 16-byte words and adds their sum to a sink word,
// one atomic per warp, so that the loads cannot be optimized away.
__global__ void ReadKernel(const uint4* __restrict__ p, int64_t n, uint32_t* sink) {
  uint32_t acc = 0;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint4 v = __ldcs(&p[i]);
    acc += v.x + v.y + v.z + v.w;
  }
  acc = bfsb::WarpSum(acc);
  if (bfsb::LaneId() == 0) atomicAdd(&sink[blockIdx.x & 1023], acc);
}

float Median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Buffers frees its device pointers on every return path.
struct Buffers {
  void* a = nullptr;
  void* b = nullptr;
  uint32_t* sink = nullptr;
  ~Buffers() {
    if (a) cudaFree(a);
    if (b) cudaFree(b);
    if (sink) cudaFree(sink);
  }
};

}  // namespace

extern "C" int32_t bfsb_abi_version(void) { return BFSB_ABI_VERSION; }

extern "C" int32_t bfsb_device_count(int32_t* count, char* err, int32_t errlen) {
  BFSB_REQUIRE(count != nullptr, "bfsb_device_count: count is NULL");
  int n = 0;
  BFSB_CHECK(cudaGetDeviceCount(&n));
  *count = n;
  return 0;
}

extern "C" int32_t bfsb_device_query(int32_t device, bfsb_device_info* out, char* err,
                                     int32_t errlen) {
  BFSB_REQUIRE(out != nullptr, "bfsb_device_query: out is NULL");
  memset(out, 0, sizeof(*out));
  // Only fields and attributes present from CUDA 11.8 to 13 are used: CUDA
  // 13 removed several cudaDeviceProp fields (clock rates among them).
  cudaDeviceProp prop;
  BFSB_CHECK(cudaGetDeviceProperties(&prop, device));
  strncpy(out->name, prop.name, sizeof(out->name) - 1);
  int v = 0;
  BFSB_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, device));
  out->sm_count = v;
  BFSB_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, device));
  out->cc_major = v;
  BFSB_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMinor, device));
  out->cc_minor = v;
  BFSB_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, device));
  out->l2_bytes = v;
  BFSB_CHECK(cudaDriverGetVersion(&v));
  out->driver_version = v;
  BFSB_CHECK(cudaRuntimeGetVersion(&v));
  out->runtime_version = v;
  BFSB_CHECK(cudaSetDevice(device));
  size_t free_b = 0, total_b = 0;
  BFSB_CHECK(cudaMemGetInfo(&free_b, &total_b));
  out->free_bytes = (int64_t)free_b;
  out->total_bytes = (int64_t)total_b;
  return 0;
}

extern "C" int32_t bfsb_copy_bandwidth(int32_t device, int64_t bytes, int32_t reps,
                                       double* copy_gbs, double* read_gbs, char* err,
                                       int32_t errlen) {
  BFSB_REQUIRE(bytes >= (1 << 20) && bytes % 16 == 0,
               "bfsb_copy_bandwidth: bytes = %lld, want a multiple of 16 of at least 1 MiB",
               (long long)bytes);
  BFSB_REQUIRE(reps >= 1, "bfsb_copy_bandwidth: reps = %d, want >= 1", (int)reps);
  BFSB_REQUIRE(copy_gbs != nullptr && read_gbs != nullptr, "bfsb_copy_bandwidth: NULL output");
  BFSB_CHECK(cudaSetDevice(device));
  Buffers buf;
  BFSB_CHECK(cudaMalloc(&buf.a, (size_t)bytes));
  BFSB_CHECK(cudaMalloc(&buf.b, (size_t)bytes));
  BFSB_CHECK(cudaMalloc(&buf.sink, 1024 * sizeof(uint32_t)));
  FillKernel<<<1024, 256>>>((uint32_t*)buf.a, bytes / 4);
  BFSB_CHECK_LAUNCH("FillKernel");
  FillKernel<<<1024, 256>>>((uint32_t*)buf.b, bytes / 4);
  BFSB_CHECK_LAUNCH("FillKernel");
  int sms = 0;
  BFSB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  bfsb::EventPool ev;
  BFSB_CHECK(ev.Create(2));
  std::vector<float> copy_ms, read_ms;
  for (int r = 0; r <= reps; ++r) {  // r == 0 is the warm-up
    BFSB_CHECK(ev.Record(0, 0));
    BFSB_CHECK(cudaMemcpyAsync(buf.b, buf.a, (size_t)bytes, cudaMemcpyDeviceToDevice, 0));
    BFSB_CHECK(ev.Record(1, 0));
    BFSB_CHECK(ev.Synchronize(1));
    float ms = 0;
    BFSB_CHECK(ev.ElapsedMs(0, 1, &ms));
    if (r > 0) copy_ms.push_back(ms);
    BFSB_CHECK(ev.Record(0, 0));
    ReadKernel<<<sms * 8, 256>>>((const uint4*)buf.a, bytes / 16, buf.sink);
    BFSB_CHECK_LAUNCH("ReadKernel");
    BFSB_CHECK(ev.Record(1, 0));
    BFSB_CHECK(ev.Synchronize(1));
    BFSB_CHECK(ev.ElapsedMs(0, 1, &ms));
    if (r > 0) read_ms.push_back(ms);
  }
  *copy_gbs = 2.0 * (double)bytes / (Median(copy_ms) * 1e-3) / 1e9;
  *read_gbs = (double)bytes / (Median(read_ms) * 1e-3) / 1e9;
  return 0;
}
