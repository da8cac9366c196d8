// bfsb_vlq.cuh: the SIMD variable-length quantity (VLQ) codec on the GPU,
// for all bfsbench CUDA libraries.
//
// Reference: Koji Ueno, Toyotaro Suzumura, "Parallel Distributed Breadth
// First Search on GPU", HiPC 2013, pp. 314-323, §V-C, Algorithm IV and
// Figure 4. The format is harness/vlq's (Go) with SIMD width 32: values
// (uint32) in groups of 32, a warp per group; round k writes byte k of
// every value of the group that has one, in value order; base-128 VLQ,
// least significant 7 bits first, MSB set when another byte follows. The
// bytes are identical to vlq.Append(nil, vals, 32).
//
// Encoding (VlqEncode): a warp per group sums its values' lengths, an
// exclusive scan (CUB) gives each group's offset, and a warp per group
// writes its bytes round by round: a ballot of the lanes that still have a
// byte, each lane's slot the popcount of the lanes below it (the encoding
// twin of Algorithm IV).
//
// Decoding (VlqDecode) is Algorithm IV, a warp per group. So that groups
// decode in parallel, their start offsets are found first: a byte without
// its MSB ends a value, every group ends with its 32nd such byte (the last
// round holds only last bytes), so group g ends after the byte where the
// count of such bytes reaches 32(g+1). A thread counts them in 16 bytes of
// the stream, an exclusive scan (CUB) of the counts gives each 16 bytes'
// start, and a second pass over the bytes writes the ends: the stream is
// read three times in all, and one 32-bit count per 16 bytes is written
// and scanned.
// The decoder never reads outside [0, nbytes); a stream that ends early or
// holds a value of more than 5 bytes sets *error (it checks no more than
// that: harness/vlq's decoder is the strict one).
//
// The kernels are templates on the width (only 32 is instantiated), so that
// several .cu files of one library may include this header.
//
// Limits: fewer than 2^32 bytes a stream. Buffers and sizes:
//   VlqEncode: out holds VlqMaxBytes(n) bytes; tmp holds VlqGroups(n) + 1
//     uint32; the coded length is left in tmp[VlqGroups(n)] (device).
//   VlqDecode: tmp holds VlqChunks(nbytes) + 1 + VlqGroups(n) uint32;
//     *error (device) must be 0 before the call.
#ifndef BFSB_VLQ_CUH
#define BFSB_VLQ_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "bfsb_scan.cuh"
#include "bfsb_warp.cuh"

namespace bfsb {

constexpr int kVlqWidth = 32;  // SIMD width: a warp

__host__ __device__ inline int64_t VlqGroups(int64_t n) { return (n + kVlqWidth - 1) / kVlqWidth; }
__host__ __device__ inline int64_t VlqMaxBytes(int64_t n) { return 5 * n; }

// VlqLen is the number of bytes of v's coding (1..5).
__device__ __forceinline__ uint32_t VlqLen(uint32_t v) {
  return v < (1u << 7) ? 1 : v < (1u << 14) ? 2 : v < (1u << 21) ? 3 : v < (1u << 28) ? 4 : 5;
}

// VlqGroupBytesKernel: bytes[g] = the coded length of group g; bytes[G] = 0.
template <int kW>
__global__ void VlqGroupBytesKernel(const uint32_t* __restrict__ vals, int64_t n,
                                    uint32_t* __restrict__ bytes) {
  static_assert(kW == kVlqWidth, "SIMD width is the warp");
  const int64_t groups = VlqGroups(n);
  const int64_t warp0 = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
  const int lane = LaneId();
  for (int64_t g = warp0; g <= groups; g += warps) {  // warp-uniform
    const int64_t i = g * kW + lane;
    const uint32_t len = i < n ? VlqLen(vals[i]) : 0;
    const uint32_t sum = WarpSum(len);
    if (lane == 0) bytes[g] = sum;
  }
}

// VlqEncodeKernel writes group g at offset[g] (Figure 4's order).
template <int kW>
__global__ void VlqEncodeKernel(const uint32_t* __restrict__ vals, int64_t n,
                                const uint32_t* __restrict__ offset, uint8_t* __restrict__ out) {
  const int64_t groups = VlqGroups(n);
  const int64_t warp0 = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
  const int lane = LaneId();
  const uint32_t below = LaneMaskLt();
  for (int64_t g = warp0; g < groups; g += warps) {
    const int64_t i = g * kW + lane;
    const uint32_t v = i < n ? vals[i] : 0;
    const uint32_t len = i < n ? VlqLen(v) : 0;
    uint32_t off = offset[g];
    for (uint32_t k = 0; k < 5; ++k) {
      const uint32_t flags = __ballot_sync(kFullWarp, len > k);
      if (flags == 0) break;  // warp-uniform
      if (len > k) {
        uint8_t b = (uint8_t)((v >> (7 * k)) & 0x7f);
        if (k + 1 < len) b |= 0x80;
        out[off + __popc(flags & below)] = b;
      }
      off += __popc(flags);
    }
  }
}

constexpr int kVlqChunk = 16;  // stream bytes a thread scans for last bytes

__host__ __device__ inline int64_t VlqChunks(int64_t nbytes) { return (nbytes + kVlqChunk - 1) / kVlqChunk; }

// VlqChunkCountKernel: cnt[t] = the last bytes (MSB clear) among the
// stream's bytes [16t, 16t+16); cnt[chunks] = 0.
template <int kW>
__global__ void VlqChunkCountKernel(const uint8_t* __restrict__ in, int64_t nbytes, uint32_t* __restrict__ cnt) {
  const int64_t chunks = VlqChunks(nbytes);
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t <= chunks;
       t += (int64_t)gridDim.x * blockDim.x) {
    uint32_t c = 0;
    const int64_t lo = t * kVlqChunk, hi = lo + kVlqChunk < nbytes ? lo + kVlqChunk : nbytes;
    for (int64_t i = lo; i < hi; ++i) c += (__ldg(&in[i]) & 0x80) == 0;
    cnt[t] = c;
  }
}

// VlqChunkEndsKernel: with base[t] the last bytes before chunk t (an
// exclusive scan of VlqChunkCountKernel's counts), ends[g] = the offset
// after group g: the byte where the count of ended values reaches 32(g+1),
// or n for the last group.
template <int kW>
__global__ void VlqChunkEndsKernel(const uint8_t* __restrict__ in, int64_t nbytes,
                                   const uint32_t* __restrict__ base, int64_t n,
                                   uint32_t* __restrict__ ends) {
  const int64_t chunks = VlqChunks(nbytes);
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < chunks;
       t += (int64_t)gridDim.x * blockDim.x) {
    uint64_t c = base[t];  // values ended before this chunk
    const int64_t lo = t * kVlqChunk, hi = lo + kVlqChunk < nbytes ? lo + kVlqChunk : nbytes;
    for (int64_t i = lo; i < hi && (int64_t)c < n; ++i) {
      if (__ldg(&in[i]) & 0x80) continue;
      ++c;
      if (c % kW == 0 || (int64_t)c == n) ends[(c - 1) / kW] = (uint32_t)(i + 1);
    }
  }
}

// VlqDecodeKernel is Algorithm IV for group g, starting at ends[g-1].
template <int kW>
__global__ void VlqDecodeKernel(const uint8_t* __restrict__ in, int64_t nbytes, int64_t n,
                                const uint32_t* __restrict__ ends, uint32_t* __restrict__ out,
                                uint32_t* __restrict__ error) {
  const int64_t groups = VlqGroups(n);
  const int64_t warp0 = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
  const int lane = LaneId();
  const uint32_t mask = LaneMaskLt();  // line 2
  for (int64_t g = warp0; g < groups; g += warps) {
    const int64_t i = g * kW + lane;
    int64_t offset = g == 0 ? 0 : (int64_t)ends[g - 1];  // line 3
    uint32_t v = 0;
    bool more = i < n;
    for (int j = 0; j < 35; j += 7) {                            // line 5
      const uint32_t flags = __ballot_sync(kFullWarp, more);     // line 6
      if (flags == 0) break;                                     // warp-uniform
      if (more) {
        const int64_t pos = offset + __popc(mask & flags);       // line 7
        if (pos >= nbytes) {
          atomicOr(error, 1u);
          more = false;
        } else {
          const uint32_t b = in[pos];                            // line 8
          v |= (b & 0x7f) << j;                                  // line 9
          more = (b & 0x80) != 0;                                // line 12
        }
      }
      offset += __popc(flags);                                   // line 10
    }
    if (__ballot_sync(kFullWarp, more) != 0 && lane == 0) atomicOr(error, 2u);  // > 5 bytes
    if (i < n) out[i] = v;                                       // line 14
  }
}

// Grid size for a grid-stride kernel over `warps` warps of 256 threads.
inline int VlqBlocks(int64_t warps) {
  int64_t b = (warps * 32 + 255) / 256;
  if (b < 1) b = 1;
  if (b > 65535) b = 65535;
  return (int)b;
}

// VlqEncode codes vals[0:n] (device) into out (device); the length lands in
// tmp[VlqGroups(n)].
inline cudaError_t VlqEncode(Scratch& scratch, const uint32_t* vals, int64_t n, uint8_t* out,
                             uint32_t* tmp, cudaStream_t s) {
  const int64_t groups = VlqGroups(n);
  VlqGroupBytesKernel<kVlqWidth><<<VlqBlocks(groups + 1), 256, 0, s>>>(vals, n, tmp);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  if ((e = ExclusiveSum(scratch, tmp, tmp, (int)(groups + 1), s)) != cudaSuccess) return e;
  if (groups == 0) return cudaSuccess;
  VlqEncodeKernel<kVlqWidth><<<VlqBlocks(groups), 256, 0, s>>>(vals, n, tmp, out);
  return cudaGetLastError();
}

// VlqDecode decodes n values from in[0:nbytes] (device) into out (device).
inline cudaError_t VlqDecode(Scratch& scratch, const uint8_t* in, int64_t nbytes, int64_t n,
                             uint32_t* out, uint32_t* tmp, uint32_t* error, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  const int64_t chunks = VlqChunks(nbytes);
  uint32_t* base = tmp;               // chunks + 1
  uint32_t* ends = tmp + chunks + 1;  // groups
  const int64_t groups = VlqGroups(n);
  cudaError_t e = cudaMemsetAsync(ends, 0xff, groups * sizeof(uint32_t), s);
  if (e != cudaSuccess) return e;
  const int blocks = VlqBlocks((chunks + 1 + 31) / 32);
  VlqChunkCountKernel<kVlqWidth><<<blocks, 256, 0, s>>>(in, nbytes, base);
  if ((e = cudaGetLastError()) != cudaSuccess) return e;
  if ((e = ExclusiveSum(scratch, base, base, (int)(chunks + 1), s)) != cudaSuccess) return e;
  VlqChunkEndsKernel<kVlqWidth><<<blocks, 256, 0, s>>>(in, nbytes, base, n, ends);
  if ((e = cudaGetLastError()) != cudaSuccess) return e;
  VlqDecodeKernel<kVlqWidth><<<VlqBlocks(groups), 256, 0, s>>>(in, nbytes, n, ends, out, error);
  return cudaGetLastError();
}

}  // namespace bfsb

#endif  // BFSB_VLQ_CUH
