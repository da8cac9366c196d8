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
// Both directions work on tiles, so that a kernel has many loads in flight
// and the device-wide scan between passes is short (one entry per tile).
// Each direction is two passes around that scan rather than one pass with a
// decoupled look-back: a scan of one entry per tile costs little next to
// the passes, and needs no inter-block protocol.
//
// Encoding (VlqEncode): a tile is 64 groups (2048 values), 8 per warp of a
// 256-thread block; a warp issues the loads of its 8 groups together.
// VlqTileBytesKernel sums each tile's coded length, an exclusive scan (CUB)
// of those sums gives each tile's offset, and VlqEncodeKernel reads the
// values again, finds each warp's offset in its tile from the warp totals
// of the block, and writes its groups one after another, round by round: a
// ballot of the lanes that still have a byte, each lane's slot the popcount
// of the lanes below it (the encoding twin of Algorithm IV). The values are
// read twice and the bytes written once; the scan covers n/2048 sums.
//
// Decoding (VlqDecode) is Algorithm IV, a warp per group. So that groups
// decode in parallel, their start offsets are found first: a byte without
// its MSB ends a value, every group ends with its 32nd such byte (the last
// round holds only last bytes), so group g > 0 starts after the byte where
// the count of such bytes reaches 32g. The stream is cut into tiles of 8
// KiB from in's address rounded down to 16 (so tile 0 may begin up to 15
// bytes before the stream), read as uint4 where a whole 16 bytes lie in the
// stream. VlqTileCountKernel counts each tile's last bytes, an
// exclusive scan (CUB) of the counts gives the count before each tile, and
// VlqDecodeKernel copies its tile and the 160 bytes after it (a group's
// most) to shared memory, scans the counts of its threads' 32-byte pieces
// (a piece holds at most one group start, as 32 bytes end at most 32
// values), records the starts of the groups whose 32g-th last byte lies in
// the tile (and group 0 in tile 0), and decodes those groups from shared
// memory. The stream is read
// about twice and the values written once; the scan covers nbytes/8192
// counts.
// The decoder never reads outside [0, nbytes); a stream that ends early
// (fewer than n last bytes, or a group running past the end) or holds a
// value of more than 5 bytes sets *error (it checks no more than that:
// harness/vlq's decoder is the strict one).
//
// The kernels are templates on the width (only 32 is instantiated), so that
// several .cu files of one library may include this header.
//
// Limits: fewer than 2^32 bytes a stream. Buffers and sizes:
//   VlqEncode: out holds VlqMaxBytes(n) bytes; tmp holds
//     VlqEncodeTmpWords(n) uint32; the coded length is left in
//     tmp[VlqEncodeTiles(n)] (device).
//   VlqDecode: tmp holds VlqDecodeTmpWords(nbytes) uint32; *error (device)
//     must be 0 before the call.
#ifndef BFSB_VLQ_CUH
#define BFSB_VLQ_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "bfsb_scan.cuh"
#include "bfsb_warp.cuh"

namespace bfsb {

constexpr int kVlqWidth = 32;                                   // SIMD width: a warp
constexpr int kVlqThreads = 256;                                // threads a block, both directions
constexpr int kVlqWarps = kVlqThreads / 32;                     // warps a block
constexpr int kVlqWarpGroups = 8;                               // encoding: groups a warp loads together
constexpr int kVlqTileVals = kVlqWarps * kVlqWarpGroups * kVlqWidth;  // encoding: values a tile (2048)
constexpr int kVlqPiece = 32;                                   // decoding: stream bytes a thread
constexpr int kVlqTileBytes = kVlqThreads * kVlqPiece;          // decoding: stream bytes a tile (8 KiB)
constexpr int kVlqHalo = 5 * kVlqWidth;                         // decoding: a group's most bytes (160)
// Blocks an SM should hold of the kernels light on registers (a full SM of
// 2048 threads, for the most loads in flight); VlqDecodeKernel is left to
// the compiler, as this bound makes it spill.
constexpr int kVlqMinBlocks = 2048 / kVlqThreads;

__host__ __device__ inline int64_t VlqGroups(int64_t n) { return (n + kVlqWidth - 1) / kVlqWidth; }
__host__ __device__ inline int64_t VlqMaxBytes(int64_t n) { return 5 * n; }
// VlqEncodeTiles is the number of encoding tiles of n values.
__host__ __device__ inline int64_t VlqEncodeTiles(int64_t n) { return (n + kVlqTileVals - 1) / kVlqTileVals; }
__host__ __device__ inline int64_t VlqEncodeTmpWords(int64_t n) { return VlqEncodeTiles(n) + 1; }
// VlqDecodeTmpWords bounds the decoding tiles of nbytes bytes, plus one,
// whatever the stream's alignment (up to 15 bytes before it share its
// first tile).
__host__ __device__ inline int64_t VlqDecodeTmpWords(int64_t nbytes) {
  return (nbytes + 15 + kVlqTileBytes - 1) / kVlqTileBytes + 1;
}

// VlqLen is the number of bytes of v's coding (1..5).
__device__ __forceinline__ uint32_t VlqLen(uint32_t v) {
  return v < (1u << 7) ? 1 : v < (1u << 14) ? 2 : v < (1u << 21) ? 3 : v < (1u << 28) ? 4 : 5;
}

// VlqLoadTile loads this thread's kVlqWarpGroups values of encoding tile t
// (value (64t + 8w + j)·32 + lane for warp w, j < 8; 0 past n) and returns
// the sum of their lengths. The loads are issued before any is used.
__device__ __forceinline__ uint32_t VlqLoadTile(const uint32_t* __restrict__ vals, int64_t n, int64_t t,
                                                uint32_t (&v)[kVlqWarpGroups], uint32_t (&len)[kVlqWarpGroups]) {
  const int64_t i0 = (t * (kVlqWarps * kVlqWarpGroups) + (threadIdx.x / 32) * kVlqWarpGroups) * kVlqWidth + LaneId();
#pragma unroll
  for (int j = 0; j < kVlqWarpGroups; ++j) {
    const int64_t i = i0 + j * kVlqWidth;
    v[j] = i < n ? __ldg(&vals[i]) : 0;
  }
  uint32_t sum = 0;
#pragma unroll
  for (int j = 0; j < kVlqWarpGroups; ++j) {
    len[j] = i0 + j * kVlqWidth < n ? VlqLen(v[j]) : 0;
    sum += len[j];
  }
  return sum;
}

// VlqTileBytesKernel: bytes[t] = the coded length of encoding tile t;
// bytes[tiles] = 0.
template <int kW>
__global__ void __launch_bounds__(kVlqThreads, kVlqMinBlocks)
    VlqTileBytesKernel(const uint32_t* __restrict__ vals, int64_t n, int64_t tiles, uint32_t* __restrict__ bytes) {
  static_assert(kW == kVlqWidth, "SIMD width is the warp");
  __shared__ uint32_t warp_sum[kVlqWarps];
  if (blockIdx.x == 0 && threadIdx.x == 0) bytes[tiles] = 0;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {  // block-uniform
    uint32_t v[kVlqWarpGroups], len[kVlqWarpGroups];
    const uint32_t sum = WarpSum(VlqLoadTile(vals, n, t, v, len));
    if (LaneId() == 0) warp_sum[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
      uint32_t s = 0;
#pragma unroll
      for (int w = 0; w < kVlqWarps; ++w) s += warp_sum[w];
      bytes[t] = s;
    }
    __syncthreads();  // warp_sum is reused
  }
}

// VlqEncodeKernel writes encoding tile t at offset[t] (an exclusive scan of
// VlqTileBytesKernel's sums), its groups in order (Figure 4's order within
// each).
template <int kW>
__global__ void __launch_bounds__(kVlqThreads, kVlqMinBlocks)
    VlqEncodeKernel(const uint32_t* __restrict__ vals, int64_t n, int64_t tiles, const uint32_t* __restrict__ offset,
                    uint8_t* __restrict__ out) {
  __shared__ uint32_t warp_sum[kVlqWarps];
  const int warp = threadIdx.x / 32;
  const uint32_t below = LaneMaskLt();
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {  // block-uniform
    uint32_t v[kVlqWarpGroups], len[kVlqWarpGroups];
    const uint32_t sum = WarpSum(VlqLoadTile(vals, n, t, v, len));
    if (LaneId() == 0) warp_sum[warp] = sum;
    __syncthreads();
    uint32_t off = offset[t];  // the warp's first byte: the tile's, then the warps before it
    for (int w = 0; w < warp; ++w) off += warp_sum[w];
#pragma unroll
    for (int j = 0; j < kVlqWarpGroups; ++j) {  // group 64t + 8·warp + j
#pragma unroll
      for (uint32_t k = 0; k < 5; ++k) {
        const uint32_t flags = __ballot_sync(kFullWarp, len[j] > k);
        if (flags == 0) break;  // warp-uniform
        if (len[j] > k) {
          uint8_t b = (uint8_t)((v[j] >> (7 * k)) & 0x7f);
          if (k + 1 < len[j]) b |= 0x80;
          out[off + __popc(flags & below)] = b;
        }
        off += __popc(flags);  // after the last round, off is where the next group starts
      }
    }
    __syncthreads();  // warp_sum is reused
  }
}

// VlqLoadChunk returns the 16 bytes of the stream at in - a + 16k (a =
// in's misalignment, so the address is 16-aligned), as one uint4 load when
// all lie in [0, nbytes); bytes outside it read as 0x80 (not a last byte)
// and are not loaded.
__device__ __forceinline__ uint4 VlqLoadChunk(const uint8_t* __restrict__ in, int64_t nbytes, int a, int64_t k) {
  const int64_t p = 16 * k - a;  // stream offset of the chunk's first byte
  if (p >= 0 && p + 16 <= nbytes) return __ldg(reinterpret_cast<const uint4*>(in + p));
  uint32_t w[4] = {0x80808080u, 0x80808080u, 0x80808080u, 0x80808080u};
#pragma unroll
  for (int b = 0; b < 16; ++b) {
    const int64_t q = p + b;
    if (q >= 0 && q < nbytes) {
      const int sh = 8 * (b & 3);
      w[b >> 2] = (w[b >> 2] & ~(0xffu << sh)) | ((uint32_t)in[q] << sh);
    }
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

// VlqLastBytes is the number of bytes with the MSB clear in x.
__device__ __forceinline__ uint32_t VlqLastBytes(uint4 x) {
  constexpr uint32_t m = 0x80808080u;
  return 16 - __popc(x.x & m) - __popc(x.y & m) - __popc(x.z & m) - __popc(x.w & m);
}

// VlqTileCountKernel: cnt[t] = the last bytes (MSB clear) of decoding tile
// t, the stream's bytes [8192t - a, 8192t + 8192 - a) with a = in's
// misalignment; cnt[tiles] = 0.
template <int kW>
__global__ void __launch_bounds__(kVlqThreads, kVlqMinBlocks)
    VlqTileCountKernel(const uint8_t* __restrict__ in, int64_t nbytes, int a, int64_t tiles, uint32_t* __restrict__ cnt) {
  constexpr int kChunks = kVlqTileBytes / 16 / kVlqThreads;  // uint4 a thread (2)
  __shared__ uint32_t warp_sum[kVlqWarps];
  if (blockIdx.x == 0 && threadIdx.x == 0) cnt[tiles] = 0;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {  // block-uniform
    uint4 x[kChunks];
#pragma unroll
    for (int r = 0; r < kChunks; ++r) x[r] = VlqLoadChunk(in, nbytes, a, t * (kVlqTileBytes / 16) + r * kVlqThreads + threadIdx.x);
    uint32_t c = 0;
#pragma unroll
    for (int r = 0; r < kChunks; ++r) c += VlqLastBytes(x[r]);
    c = WarpSum(c);
    if (LaneId() == 0) warp_sum[threadIdx.x / 32] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
      uint32_t s = 0;
#pragma unroll
      for (int w = 0; w < kVlqWarps; ++w) s += warp_sum[w];
      cnt[t] = s;
    }
    __syncthreads();  // warp_sum is reused
  }
}

// VlqDecodeKernel decodes the groups that start in decoding tile t: with
// before[t] the last bytes before the tile (an exclusive scan of
// VlqTileCountKernel's counts; before[tiles] is the stream's total), group
// g > 0 starts after the last byte numbered 32g (from 1), and group 0 at
// byte 0, in tile 0. Each group is Algorithm IV.
template <int kW>
__global__ void __launch_bounds__(kVlqThreads)
    VlqDecodeKernel(const uint8_t* __restrict__ in, int64_t nbytes, int a, int64_t tiles, int64_t n,
                    const uint32_t* __restrict__ before, uint32_t* __restrict__ out, uint32_t* __restrict__ error) {
  constexpr int kSpan = kVlqTileBytes + kVlqHalo;  // bytes staged: the tile and a group's most after it
  constexpr int kChunks = kSpan / 16;              // 522
  constexpr int kLoads = (kChunks + kVlqThreads - 1) / kVlqThreads;
  static_assert(kSpan % 16 == 0, "staged bytes in whole uint4");
  __shared__ uint4 stage4[kChunks];
  __shared__ uint32_t start[kVlqTileBytes / kVlqPiece + 1];  // a group per piece, and group 0
  __shared__ uint32_t warp_sum[kVlqWarps];
  const uint8_t* stage = reinterpret_cast<const uint8_t*>(stage4);
  const int warp = threadIdx.x / 32, lane = LaneId();
  const uint32_t mask = LaneMaskLt();  // line 2
  const int64_t groups = VlqGroups(n);
  if (blockIdx.x == 0 && threadIdx.x == 0 && (int64_t)before[tiles] < n) atomicOr(error, 1u);  // too few values
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {  // block-uniform
    // Stage bytes [0, kSpan) of the tile: the stream's [8192t - a, ...).
    uint4 x[kLoads];
#pragma unroll
    for (int r = 0; r < kLoads; ++r) {
      const int k = r * kVlqThreads + threadIdx.x;
      if (k < kChunks) x[r] = VlqLoadChunk(in, nbytes, a, t * (kVlqTileBytes / 16) + k);
    }
#pragma unroll
    for (int r = 0; r < kLoads; ++r) {
      const int k = r * kVlqThreads + threadIdx.x;
      if (k < kChunks) stage4[k] = x[r];
    }
    __syncthreads();
    // This thread's piece, bytes [32·tid, 32·tid + 32): its last bytes are
    // numbered (b, b + c] in the stream.
    const uint4 p0 = stage4[2 * threadIdx.x], p1 = stage4[2 * threadIdx.x + 1];
    const uint32_t c = VlqLastBytes(p0) + VlqLastBytes(p1);
    const uint32_t incl = WarpInclusiveSum(c);
    if (lane == 31) warp_sum[warp] = incl;
    __syncthreads();
    uint32_t tile_cnt = 0, warp_before = 0;
#pragma unroll
    for (int w = 0; w < kVlqWarps; ++w) {
      if (w < warp) warp_before += warp_sum[w];
      tile_cnt += warp_sum[w];
    }
    const uint32_t tile_before = before[t];
    const uint32_t b = tile_before + warp_before + incl - c;
    // Groups starting in the tile: g0 (0 in tile 0) up to g1, exclusive.
    const int64_t g0 = t == 0 ? 0 : (int64_t)(tile_before / 32) + 1;
    const int64_t g1_all = (int64_t)((tile_before + tile_cnt) / 32) + 1;
    const int64_t g1 = g1_all < groups ? g1_all : groups;
    const uint32_t m = (b + c) / 32 * 32;  // the piece's one multiple of 32 in (b, b + c], if m > b
    if (m > b && (int64_t)(m / 32) < groups) {
      const uint32_t w4[8] = {p0.x, p0.y, p0.z, p0.w, p1.x, p1.y, p1.z, p1.w};
      uint32_t need = m - b;  // 1..c: the rank of that last byte among the piece's
      int at = 0;             // its byte in the piece
#pragma unroll
      for (int i = 0; i < 32; ++i) {
        if (need > 0 && (w4[i / 4] >> (8 * (i % 4) + 7) & 1) == 0 && --need == 0) at = i;
      }
      start[m / 32 - g0] = kVlqPiece * threadIdx.x + at + 1;
    }
    if (t == 0 && threadIdx.x == 0) start[0] = a;  // group 0: the stream's byte 0
    __syncthreads();
    // Staged byte p is the stream's byte 8192t - a + p; those from lim on
    // are past the stream.
    const int64_t lim64 = nbytes + a - t * kVlqTileBytes;
    const int lim = lim64 < kSpan ? (int)lim64 : kSpan;
    for (int64_t g = g0 + warp; g < g1; g += kVlqWarps) {  // warp-uniform
      const int s = start[g - g0];
      const bool whole = s + kVlqHalo <= lim;  // every byte the group may read is in the stream
      const int64_t i = g * kW + lane;
      int offset = s;  // line 3
      uint32_t v = 0;
      bool more = i < n;
#pragma unroll
      for (int j = 0; j < 35; j += 7) {                        // line 5
        const uint32_t flags = __ballot_sync(kFullWarp, more);  // line 6
        if (flags == 0) break;                                  // warp-uniform
        if (more) {
          const int pos = offset + __popc(mask & flags);        // line 7
          if (!whole && pos >= lim) {
            atomicOr(error, 1u);
            more = false;
          } else {
            const uint32_t byte = stage[pos];                   // line 8
            v |= (byte & 0x7f) << j;                            // line 9
            more = (byte & 0x80) != 0;                          // line 12
          }
        }
        offset += __popc(flags);                                // line 10
      }
      if (__ballot_sync(kFullWarp, more) != 0 && lane == 0) atomicOr(error, 2u);  // > 5 bytes
      if (i < n) out[i] = v;                                    // line 14
    }
    __syncthreads();  // stage4, start and warp_sum are reused
  }
}

// Grid size for a grid-stride kernel over `tiles` tiles, a block each.
inline int VlqBlocks(int64_t tiles) {
  if (tiles < 1) return 1;
  return tiles > 65535 ? 65535 : (int)tiles;
}

// VlqEncode codes vals[0:n] (device) into out (device); the length lands in
// tmp[VlqEncodeTiles(n)].
inline cudaError_t VlqEncode(Scratch& scratch, const uint32_t* vals, int64_t n, uint8_t* out,
                             uint32_t* tmp, cudaStream_t s) {
  const int64_t tiles = VlqEncodeTiles(n);
  VlqTileBytesKernel<kVlqWidth><<<VlqBlocks(tiles), kVlqThreads, 0, s>>>(vals, n, tiles, tmp);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  if ((e = ExclusiveSum(scratch, tmp, tmp, (int)(tiles + 1), s)) != cudaSuccess) return e;
  if (tiles == 0) return cudaSuccess;
  VlqEncodeKernel<kVlqWidth><<<VlqBlocks(tiles), kVlqThreads, 0, s>>>(vals, n, tiles, tmp, out);
  return cudaGetLastError();
}

// VlqDecode decodes n values from in[0:nbytes] (device) into out (device).
inline cudaError_t VlqDecode(Scratch& scratch, const uint8_t* in, int64_t nbytes, int64_t n,
                             uint32_t* out, uint32_t* tmp, uint32_t* error, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  const int a = (int)(reinterpret_cast<uintptr_t>(in) & 15);  // tiles are 16-aligned in memory
  int64_t tiles = (a + nbytes + kVlqTileBytes - 1) / kVlqTileBytes;
  if (tiles < 1) tiles = 1;  // tile 0 reports an empty stream
  const int blocks = VlqBlocks(tiles);
  VlqTileCountKernel<kVlqWidth><<<blocks, kVlqThreads, 0, s>>>(in, nbytes, a, tiles, tmp);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  if ((e = ExclusiveSum(scratch, tmp, tmp, (int)(tiles + 1), s)) != cudaSuccess) return e;
  VlqDecodeKernel<kVlqWidth><<<blocks, kVlqThreads, 0, s>>>(in, nbytes, a, tiles, n, tmp, out, error);
  return cudaGetLastError();
}

}  // namespace bfsb

#endif  // BFSB_VLQ_CUH
