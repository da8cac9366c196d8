// bfsb_vlq.cuh: the SIMD variable-length quantity (VLQ) codec on the GPU,
// for all bfsbench CUDA libraries.
//
// Reference: [Ueno] (docs/papers.md), §V-C, Algorithm IV and Figure 4. The format is harness/vlq's (Go) with SIMD width 32: values
// (uint32) in groups of 32, a warp per group; round k writes byte k of
// every value of the group that has one, in value order; base-128 VLQ,
// least significant 7 bits first, MSB set when another byte follows. The
// bytes are identical to vlq.Append(nil, vals, 32).
//
// Both directions work on tiles, each one pass with a decoupled look-back
// (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", NVIDIA NVR-2016-002): a block takes the next tile (an atomic
// counter, so every earlier tile is held by a running block), computes the
// tile's total, publishes it, and sums the totals (or the first inclusive
// prefix) of the tiles before it from their published status words
// (VlqTilePrefix). So the input is read once and no kernel runs between
// two passes. Each status word packs a flag and a 32-bit count in 64 bits,
// written and read whole.
//
// Encoding (VlqEncode): a tile is 64 groups (2048 values), 8 per warp of a
// 256-thread block; a warp issues the loads of its 8 groups together. The
// block sums the tile's coded length, its offset comes from the look-back,
// each warp's offset in the tile from the warp totals, and each warp
// writes its groups one after another, round by round: a ballot of the
// lanes that still have a byte, each lane's slot the popcount of the lanes
// below it (the encoding twin of Algorithm IV). The last tile writes the
// stream's length.
//
// Decoding (VlqDecode) is Algorithm IV, a warp per group. So that groups
// decode in parallel, their start offsets are found first: a byte without
// its MSB ends a value, every group ends with its 32nd such byte (the last
// round holds only last bytes), so group g > 0 starts after the byte where
// the count of such bytes reaches 32g. The stream is cut into tiles of 8
// KiB from in's address rounded down to 16 (so tile 0 may begin up to 15
// bytes before the stream), read as uint4 where a whole 16 bytes lie in the
// stream. VlqDecodeKernel copies a tile and the 160 bytes after it (a
// group's most) to shared memory, counts the last bytes of its threads'
// 32-byte pieces (a piece holds at most one group start, as 32 bytes end
// at most 32 values), gets the count before the tile from the look-back,
// records the starts of the groups whose 32g-th last byte lies in the tile
// (and group 0 in tile 0), and decodes those groups from shared memory. The
// stream is read once (and the 160 bytes after each tile twice) and the
// values written once.
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
//     VlqEncodeTmpWords(n) uint32, 8-byte aligned; the coded length is left
//     in *VlqEncodedLength(tmp, n) (device).
//   VlqDecode: tmp holds VlqDecodeTmpWords(nbytes) uint32, 8-byte aligned;
//     *error (device) must be 0 before the call.
#ifndef BFSB_VLQ_CUH
#define BFSB_VLQ_CUH

#include <cuda_runtime.h>
#include <stdint.h>

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
// 2048 threads, for the most loads in flight); VlqDecodeKernel has its
// own, as this bound makes it spill.
constexpr int kVlqMinBlocks = 2048 / kVlqThreads;
// VlqDecodeKernel's blocks an SM: 6 (40 registers with nvcc 11.8, no
// spill). On an H200 it measured no better than no bound (46 registers, 5
// blocks an SM): within 1 point of the copy bandwidth (results/ueno-vlq-h200).
constexpr int kVlqDecodeMinBlocks = 6;

__host__ __device__ inline int64_t VlqGroups(int64_t n) { return (n + kVlqWidth - 1) / kVlqWidth; }
__host__ __device__ inline int64_t VlqMaxBytes(int64_t n) { return 5 * n; }
// VlqEncodeTiles is the number of encoding tiles of n values.
__host__ __device__ inline int64_t VlqEncodeTiles(int64_t n) { return (n + kVlqTileVals - 1) / kVlqTileVals; }
// Look-back scratch: a 64-bit status word per tile, then the tile counter
// and (encoding) the coded length.
__host__ __device__ inline int64_t VlqEncodeTmpWords(int64_t n) { return 2 * VlqEncodeTiles(n) + 2; }
__host__ __device__ inline uint32_t* VlqEncodedLength(uint32_t* tmp, int64_t n) {
  return tmp + 2 * VlqEncodeTiles(n) + 1;
}
// VlqDecodeTiles bounds the decoding tiles of nbytes bytes whatever the
// stream's alignment (up to 15 bytes before it share its first tile).
__host__ __device__ inline int64_t VlqDecodeTiles(int64_t nbytes) {
  const int64_t t = (nbytes + 15 + kVlqTileBytes - 1) / kVlqTileBytes;
  return t < 1 ? 1 : t;
}
__host__ __device__ inline int64_t VlqDecodeTmpWords(int64_t nbytes) { return 2 * VlqDecodeTiles(nbytes) + 2; }

// A tile's status word: its flag in bits 62-63 (0 nothing yet, kVlqAggregate
// the tile's own total, kVlqPrefix the total of tiles 0..t) over the count.
constexpr int kVlqAggregate = 1, kVlqPrefix = 2;
__device__ __forceinline__ unsigned long long VlqStatus(int flag, uint32_t count) {
  return (unsigned long long)flag << 62 | count;
}

// VlqNextTile returns the next tile for the block, to every thread (it
// ends with a barrier): tiles are taken in order, so the tiles before
// this one are all held by running blocks.
__device__ __forceinline__ int64_t VlqNextTile(uint32_t* counter) {
  __shared__ uint32_t tile;
  if (threadIdx.x == 0) tile = atomicAdd(counter, 1u);
  __syncthreads();
  return tile;
}

// VlqTilePrefix is the decoupled look-back, by one warp: it publishes
// tile t's total agg, returns the sum of the totals of tiles 0..t-1 to
// every lane, and publishes the inclusive prefix. It reads the status words
// of 32 earlier tiles at a time, waits while one of them before the first
// published prefix has published nothing, and stops at that prefix.
__device__ __forceinline__ uint32_t VlqTilePrefix(unsigned long long* status, int64_t t, uint32_t agg) {
  const int lane = LaneId();
  if (lane == 0) atomicExch(&status[t], VlqStatus(t == 0 ? kVlqPrefix : kVlqAggregate, agg));
  uint32_t before = 0;
  for (int64_t j = t - 1; j >= 0; j -= 32) {  // warp-uniform
    const int64_t k = j - lane;
    unsigned long long w;
    uint32_t pre;
    for (;;) {
      w = k >= 0 ? *reinterpret_cast<volatile unsigned long long*>(&status[k]) : VlqStatus(kVlqPrefix, 0);
      pre = __ballot_sync(kFullWarp, (w >> 62) == kVlqPrefix);
      const uint32_t none = __ballot_sync(kFullWarp, (w >> 62) == 0);
      const uint32_t need = pre != 0 ? pre ^ (pre - 1) : kFullWarp;  // lanes up to the first prefix
      if ((none & need) == 0) break;
    }
    const int stop = pre != 0 ? __ffs(pre) - 1 : 31;
    before += WarpSum(lane <= stop ? (uint32_t)w : 0u);
    if (pre != 0) break;
  }
  if (lane == 0 && t > 0) atomicExch(&status[t], VlqStatus(kVlqPrefix, before + agg));
  return before;
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

// VlqEncodeKernel codes the tiles in the order the blocks take them: the
// tile's length, its offset from the look-back, then its groups in order
// (Figure 4's order within each). The last tile writes the total length.
template <int kW>
__global__ void __launch_bounds__(kVlqThreads, kVlqMinBlocks)
    VlqEncodeKernel(const uint32_t* __restrict__ vals, int64_t n, int64_t tiles, unsigned long long* status,
                    uint32_t* counter, uint32_t* length, uint8_t* __restrict__ out) {
  static_assert(kW == kVlqWidth, "SIMD width is the warp");
  __shared__ uint32_t warp_sum[kVlqWarps];
  __shared__ uint32_t tile_off;
  const int warp = threadIdx.x / 32;
  const uint32_t below = LaneMaskLt();
  for (;;) {
    const int64_t t = VlqNextTile(counter);
    if (t >= tiles) break;  // block-uniform
    uint32_t v[kVlqWarpGroups], len[kVlqWarpGroups];
    const uint32_t sum = WarpSum(VlqLoadTile(vals, n, t, v, len));
    if (LaneId() == 0) warp_sum[warp] = sum;
    __syncthreads();
    if (warp == 0) {
      const uint32_t total = WarpSum(LaneId() < kVlqWarps ? warp_sum[LaneId()] : 0u);
      const uint32_t before = VlqTilePrefix(status, t, total);
      if (LaneId() == 0) {
        tile_off = before;
        if (t == tiles - 1) *length = before + total;
      }
    }
    __syncthreads();
    uint32_t off = tile_off;  // the warp's first byte: the tile's, then the warps before it
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
    __syncthreads();  // warp_sum, tile_off and the tile number are reused
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

// VlqLastMask is the last-byte mask of the 32 bytes p0, p1 (a decoding
// piece): bit i is set when byte i has its MSB clear. Per word, the four
// inverted MSBs (bits 7, 15, 23, 31) are gathered into bits 28-31 by one
// multiply (x·(1 + 2^7 + 2^14 + 2^21) puts each at a distinct position, so
// no carries).
__device__ __forceinline__ uint32_t VlqLastMask(uint4 p0, uint4 p1) {
  const uint32_t w[8] = {p0.x, p0.y, p0.z, p0.w, p1.x, p1.y, p1.z, p1.w};
  uint32_t m = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) m |= ((~w[i] & 0x80808080u) * 0x00204081u >> 28) << (4 * i);
  return m;
}

// VlqNthBit is the position of the k-th lowest set bit of x (k from 1 to
// popc(x)), by halving: five popcounts instead of a loop over the bits.
__device__ __forceinline__ int VlqNthBit(uint32_t x, uint32_t k) {
  int at = 0;
#pragma unroll
  for (int w = 16; w > 0; w >>= 1) {
    const uint32_t low = __popc(x & ((1u << w) - 1));
    if (k > low) {
      k -= low;
      x >>= w;
      at += w;
    }
  }
  return at;
}

// VlqDecodeFull is Algorithm IV for a full group (32 values) whose bytes,
// from p, all lie in the staged stream: round 0 holds a byte of every lane,
// round k the bytes of the lanes whose round k-1 byte had its MSB set
// (flags), in lane order. Returns this lane's value; a value of more than
// five bytes sets *error. Bytes are read sign-extended, so that "another
// byte follows" is one comparison.
__device__ __forceinline__ uint32_t VlqDecodeFull(const int8_t* p, uint32_t lt, uint32_t* error) {
  const int lane = LaneId();
  int32_t x = p[lane];
  uint32_t v = x & 0x7f;
  uint32_t flags = __ballot_sync(kFullWarp, x < 0);
  int off = kVlqWidth;
#pragma unroll
  for (int j = 7; j < 35; j += 7) {
    if (flags == 0) return v;  // warp-uniform
    x = (flags >> lane & 1) ? p[off + __popc(flags & lt)] : 0;
    v |= (uint32_t)(x & 0x7f) << j;
    off += __popc(flags);
    flags = __ballot_sync(kFullWarp, x < 0);
  }
  if (flags != 0 && lane == 0) atomicOr(error, 2u);  // > 5 bytes
  return v;
}

// VlqDecodeKernel decodes the groups that start in each decoding tile t,
// in the order the blocks take the tiles: with tile_before the last bytes
// before the tile (the look-back over the tiles' counts), group g > 0
// starts after the last byte numbered 32g (from 1), and group 0 at byte 0,
// in tile 0. Each group is Algorithm IV. The last tile checks that the
// stream holds n values.
template <int kW>
__global__ void __launch_bounds__(kVlqThreads, kVlqDecodeMinBlocks)
    VlqDecodeKernel(const uint8_t* __restrict__ in, int64_t nbytes, int a, int64_t tiles, int64_t n,
                    unsigned long long* status, uint32_t* counter, uint32_t* __restrict__ out,
                    uint32_t* __restrict__ error) {
  constexpr int kSpan = kVlqTileBytes + kVlqHalo;  // bytes staged: the tile and a group's most after it
  constexpr int kChunks = kSpan / 16;              // 522
  constexpr int kLoads = (kChunks + kVlqThreads - 1) / kVlqThreads;
  static_assert(kSpan % 16 == 0, "staged bytes in whole uint4");
  __shared__ uint4 stage4[kChunks];
  __shared__ uint32_t start[kVlqTileBytes / kVlqPiece + 1];  // a group per piece, and group 0
  __shared__ uint32_t warp_sum[kVlqWarps];
  __shared__ uint32_t shared_before;
  const uint8_t* stage = reinterpret_cast<const uint8_t*>(stage4);
  const int warp = threadIdx.x / 32, lane = LaneId();
  const uint32_t mask = LaneMaskLt();  // line 2
  const int64_t groups = VlqGroups(n);
  for (;;) {
    const int64_t t = VlqNextTile(counter);
    if (t >= tiles) break;  // block-uniform
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
    const uint32_t last = VlqLastMask(stage4[2 * threadIdx.x], stage4[2 * threadIdx.x + 1]);
    const uint32_t c = __popc(last);
    const uint32_t incl = WarpInclusiveSum(c);
    if (lane == 31) warp_sum[warp] = incl;
    __syncthreads();
    uint32_t tile_cnt = 0, warp_before = 0;
#pragma unroll
    for (int w = 0; w < kVlqWarps; ++w) {
      if (w < warp) warp_before += warp_sum[w];
      tile_cnt += warp_sum[w];
    }
    if (warp == 0) {
      const uint32_t before = VlqTilePrefix(status, t, tile_cnt);
      if (lane == 0) {
        shared_before = before;
        if (t == tiles - 1 && (int64_t)(before + tile_cnt) < n) atomicOr(error, 1u);  // too few values
      }
    }
    __syncthreads();
    const uint32_t tile_before = shared_before;
    const uint32_t b = tile_before + warp_before + incl - c;
    // Groups starting in the tile: g0 (0 in tile 0) up to g1, exclusive.
    const int64_t g0 = t == 0 ? 0 : (int64_t)(tile_before / 32) + 1;
    const int64_t g1_all = (int64_t)((tile_before + tile_cnt) / 32) + 1;
    const int64_t g1 = g1_all < groups ? g1_all : groups;
    const uint32_t m = (b + c) / 32 * 32;  // the piece's one multiple of 32 in (b, b + c], if m > b
    if (m > b && (int64_t)(m / 32) < groups) {  // that last byte is the (m - b)-th of the piece's
      start[m / 32 - g0] = kVlqPiece * threadIdx.x + VlqNthBit(last, m - b) + 1;
    }
    if (t == 0 && threadIdx.x == 0) start[0] = a;  // group 0: the stream's byte 0
    __syncthreads();
    // Staged byte p is the stream's byte 8192t - a + p; those from lim on
    // are past the stream.
    const int64_t lim64 = nbytes + a - t * kVlqTileBytes;
    const int lim = lim64 < kSpan ? (int)lim64 : kSpan;
    // The common case, a full group whose bytes all lie in the stream, is
    // decoded with no bounds to check and tile-relative 32-bit indices.
    const int full = (int)((n / kW < g1 ? n / kW : g1) - g0);  // groups g0 .. g0 + full - 1 are full
    uint32_t* const tile_out = out + g0 * kW + lane;
    for (int64_t g = g0 + warp; g < g1; g += kVlqWarps) {  // warp-uniform
      const int k = (int)(g - g0);
      const int s = start[k];
      const bool whole = s + kVlqHalo <= lim;  // every byte the group may read is in the stream
      if (whole && k < full) {
        tile_out[k * kW] = VlqDecodeFull(reinterpret_cast<const int8_t*>(stage) + s, mask, error);
        continue;
      }
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

// VlqBlocks is a persistent grid for `tiles` tiles: as many blocks as the
// device holds at once (per_sm a multiprocessor), each taking tiles until
// none is left, so that no block is launched for a single tile.
inline cudaError_t VlqBlocks(int64_t tiles, int per_sm, int* blocks) {
  int dev = 0, sms = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e != cudaSuccess) return e;
  const int64_t most = (int64_t)sms * per_sm;
  *blocks = (int)(tiles < 1 ? 1 : tiles < most ? tiles : most);
  return cudaSuccess;
}

// VlqEncode codes vals[0:n] (device) into out (device); the length lands in
// *VlqEncodedLength(tmp, n).
inline cudaError_t VlqEncode(const uint32_t* vals, int64_t n, uint8_t* out, uint32_t* tmp, cudaStream_t s) {
  const int64_t tiles = VlqEncodeTiles(n);
  cudaError_t e = cudaMemsetAsync(tmp, 0, VlqEncodeTmpWords(n) * sizeof(uint32_t), s);
  if (e != cudaSuccess || tiles == 0) return e;
  int blocks = 0;
  if ((e = VlqBlocks(tiles, kVlqMinBlocks, &blocks)) != cudaSuccess) return e;
  auto* status = reinterpret_cast<unsigned long long*>(tmp);
  VlqEncodeKernel<kVlqWidth><<<blocks, kVlqThreads, 0, s>>>(vals, n, tiles, status, tmp + 2 * tiles,
                                                             VlqEncodedLength(tmp, n), out);
  return cudaGetLastError();
}

// VlqDecode decodes n values from in[0:nbytes] (device) into out (device).
inline cudaError_t VlqDecode(const uint8_t* in, int64_t nbytes, int64_t n, uint32_t* out, uint32_t* tmp,
                             uint32_t* error, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  const int a = (int)(reinterpret_cast<uintptr_t>(in) & 15);  // tiles are 16-aligned in memory
  int64_t tiles = (a + nbytes + kVlqTileBytes - 1) / kVlqTileBytes;
  if (tiles < 1) tiles = 1;  // tile 0 reports an empty stream
  cudaError_t e = cudaMemsetAsync(tmp, 0, (2 * tiles + 2) * sizeof(uint32_t), s);
  if (e != cudaSuccess) return e;
  int blocks = 0;
  if ((e = VlqBlocks(tiles, kVlqDecodeMinBlocks, &blocks)) != cudaSuccess) return e;
  auto* status = reinterpret_cast<unsigned long long*>(tmp);
  VlqDecodeKernel<kVlqWidth><<<blocks, kVlqThreads, 0, s>>>(in, nbytes, a, tiles, n, status, tmp + 2 * tiles,
                                                             out, error);
  return cudaGetLastError();
}

}  // namespace bfsb

#endif  // BFSB_VLQ_CUH
