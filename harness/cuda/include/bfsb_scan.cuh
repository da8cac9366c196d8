// bfsb_scan.cuh: device-wide prefix scan and stream compaction for all
// bfsbench CUDA libraries,
// through CUB (shipped with the CUDA toolkit; the
// Debian toolkit takes it from libcub-dev).
//
// CUB's device algorithms need temporary device storage whose size they
// report in a first, dry call. Scratch keeps one growing buffer so that a
// search loop does not allocate per level: it grows on demand and is never
// shrunk. Every function returns the cudaError_t of the first failing call;
// wrap it in BFSB_CHECK.
#ifndef BFSB_SCAN_CUH
#define BFSB_SCAN_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>

namespace bfsb {

// Scratch is a reusable temporary buffer for CUB calls.
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { Free(); }

  // Reserve makes the buffer at least bytes long.
  cudaError_t Reserve(size_t bytes) {
    if (bytes <= size_) return cudaSuccess;
    Free();
    cudaError_t e = cudaMalloc(&ptr_, bytes);
    if (e != cudaSuccess) {
      ptr_ = nullptr;
      return e;
    }
    size_ = bytes;
    return cudaSuccess;
  }

  void* Ptr() const { return ptr_; }
  size_t Size() const { return size_; }

  void Free() {
    if (ptr_ != nullptr) cudaFree(ptr_);
    ptr_ = nullptr;
    size_ = 0;
  }

 private:
  void* ptr_ = nullptr;
  size_t size_ = 0;
};

// ExclusiveSum writes out[i] = in[0] + ... + in[i-1] (out[0] = 0) for
// i < n. in and out may be the same array. The sum is accumulated in In's
// type by CUB 1.x (CUDA 11) and may be wider in later CUB: choose an In wide
// enough for the total (e.g. read 32-bit counts through a 64-bit
// transform iterator where totals can pass 2^32).
template <typename In, typename Out>
cudaError_t ExclusiveSum(Scratch& scratch, const In* in, Out* out, int n, cudaStream_t s) {
  size_t bytes = 0;
  cudaError_t e = cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, s);
  if (e != cudaSuccess) return e;
  if ((e = scratch.Reserve(bytes)) != cudaSuccess) return e;
  bytes = scratch.Size();
  return cub::DeviceScan::ExclusiveSum(scratch.Ptr(), bytes, in, out, n, s);
}

// SelectIndices writes first + i for every i < n with flags[i] != 0 to
// out, in increasing order, and their number to *count (device memory):
// a stream compaction in one pass, by CUB's DeviceSelect::Flagged (a scan
// of the flags with a decoupled look-back that scatters as it goes;
// Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", NVIDIA NVR-2016-002).
template <typename Index, typename Flag, typename Count>
cudaError_t SelectIndices(Scratch& scratch, Index first, const Flag* flags, Index* out, Count* count, int n,
                          cudaStream_t s) {
  const thrust::counting_iterator<Index> in(first);
  size_t bytes = 0;
  cudaError_t e = cub::DeviceSelect::Flagged(nullptr, bytes, in, flags, out, count, n, s);
  if (e != cudaSuccess) return e;
  if ((e = scratch.Reserve(bytes)) != cudaSuccess) return e;
  bytes = scratch.Size();
  return cub::DeviceSelect::Flagged(scratch.Ptr(), bytes, in, flags, out, count, n, s);
}

}  // namespace bfsb

#endif  // BFSB_SCAN_CUH
