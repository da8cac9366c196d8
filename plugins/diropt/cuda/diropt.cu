// diropt.cu: the CUDA kernels of the diropt variant, after
//
//   [1] [Krajecki] (§IV: Algorithms 2 and 3);
//   [2] [Beamer];
//   [3] [Checconi];
//   [4] [Merrill] (warp-based neighbour gathering);
//
// every one cited in docs/papers.md.
//
// Data (one processor P(i,j) of the R×C grid, 32-bit local ids):
//   td_off, td_adj   CSR: local column u -> its local rows (top-down)
//   bu_off, bu_adj   CSC: local row v -> its local columns (bottom-up);
//                    on a 1×1 grid the same arrays as the CSR
//   first            with bu_first: bu_adj[bu_off[v]] for each row v with
//                    a neighbour, dense (4 bytes a row, read coalesced by
//                    a bottom-up level's first check; see BottomUp)
//   deg              with bu_deg: each row's degree in a byte, 255 for
//                    255 or more (read by the first check of level bu_deg
//                    instead of the offsets; see BottomUp)
//   fdeg             with bu_deg_packed (instead of deg, where a block has
//                    at most 2^26 columns): each row's first entry in 26
//                    bits and its degree in 6 above them, 63 for 63 or
//                    more (level bu_deg's first check, one load a row)
//   cut, low         with split (1×1): each vertex's tail, its first CSC
//                    entry of degree below D, and a bitmap of the rows of
//                    degree below D (the split level, dobfs/split.go)
//   in_queue         bitmap over local columns: the frontier
//   out_queue        bitmap over local rows: the next frontier
//   visited          bitmap over local rows, reset to `isolated` (rows
//                    without neighbours, never scanned) plus the root
//   pred             per local row: the local column it was found from
//                    (valid where visited; the search's output on 1×1)
//   parents          the own block's int64 parents (2D: WritePred's target;
//                    1×1: made from pred and visited by dob_parents)
//   ctr              two sets of counters, used by alternate levels: the
//                    kernel of level L zeroes the set of level L+1, so no
//                    launch is spent on zeroing
//
// Kernels:
//   TopDownKernel      Algorithm 3 of [1]: a warp per 32-bit word of
//                      in_queue (a warp reads 32 words in one load and takes
//                      the non-empty ones in turn), released by an empty
//                      word; the lanes with a
//                      set bit publish their lists and the warp gathers them
//                      one after the other ([4]'s warp gathering); the
//                      visited test from L2 (the paper's texture read, made
//                      coherent: see Visit); the
//                      atomicOr on visited decides who writes the
//                      predecessor, so predecessors are unique. With
//                      td_lane (ours) a lane per word instead, four words a
//                      lane, its short lists alone (TopDownLanes). Lists of at
//                      least td_big entries are queued on a bfsb::HugeQueue
//                      for
//   bfsb::HugeKernel   a block per chunk of 1024 entries over the whole
//                      GPU (CTA gathering; bfsb_gather.cuh).
//   BottomUpKernel     a warp per 32-bit word of visited, a lane per vertex
//                      (kBuWords words a warp at a time, their loads issued
//                      together):
//                      each unvisited vertex scans its CSC list for a
//                      neighbour in in_queue and stops at the first (its
//                      first entry from `first` with bu_first); after
//                      bu_serial entries alone, the rest of a long list is
//                      scanned by the whole warp, 32 entries a step (64 with
//                      bu_batch 2), stopping at the first hit. The warp owns
//                      its words of visited and out_queue, so it writes them
//                      without atomics (but for bu_compact's chunks, whose
//                      rows, a lane each, it ORs in with atomics).
//   MergeKernel        2D: assigned <- out_queue \ prefix, visited |= union.
//   RowScanKernel, OwnBitsKernel, PlaceBitsKernel, PackPredKernel,
//   WritePredKernel    2D, device exchanges: the bit work around the NCCL
//                      operations (row union, own block out, in_queue in,
//                      WritePred's send and receive sides).
//   InitLoopKernel, StartLoopKernel, DecideKernel, CountsKernel   (2D) the
//                      device loop's state, its switching rule (level 0's
//                      too) and the counts it allreduces.
//   ResetKernel        a search's reset, in one launch (1×1: with the
//                      loop's start, InitLoopKernel's and StartLoopKernel's
//                      work).
//   GateKernel         gated (1×1): the next search's start waits for its
//                      root (below).
//   SplitBottomUpKernel  split (1×1, level 2 only): a split level's long
//                      tails, marked over the whole GPU (bfsb::HugeExpand),
//                      then, behind a grid barrier, its bottom-up side
//                      (BottomUp over the rows of degree D or more and the
//                      marked ones).
//   ResetRootKernel, ScatterParentsKernel, ParentsKernel, FloorKernel,
//   FirstKernel and CutKernel (fill `first`, `cut` and `low` once, at
//   dob_create).
//
// Launches per level on a 1×1 grid (the device loop: dob_loop_*,
// dobfs/device_loop.go): TopDownKernel and BottomUpKernel, each returning
// at once unless the device chose its direction (except that on a
// top-down level BottomUpKernel expands the lists TopDownKernel queued
// with td_big, bfsb::HugeKernel's work; with split, level 2 launches
// SplitBottomUpKernel between them, and a split level's top-down side
// runs in TopDownKernel, its long tails' marks and its bottom-up side in
// SplitBottomUpKernel); BottomUpKernel's last block to
// finish then decides the next level (EndLevel: the switching rule,
// DecideKernel's work on 2D grids), so a level is two launches and one
// CUDA event (its end; a level's time runs from the one before's end).
// With dev_clock (ours) only level 0 ends with an event: the later levels
// are timed by the device's clock at their decisions (EndLevel's stamp in
// LevelRec), so that no event stands between two launches and each is a
// programmatic dependent launch (pdl).
// No round trip: the host waits once per batch of levels, polling a flag
// in pinned memory that the last level sets, and the search starts with
// one launch (ResetKernel, which also starts the loop). (A host loop,
// reading each level's counts back, measured the same on one H200 and
// 4.6 % slower on two: results/diropt-device-loop.)
// The queues rotate through three buffers (in_queue, out_queue, spare):
// a top-down level needs a clean out_queue and leaves its in_queue empty
// (each warp clears the word it read), a bottom-up level writes every
// word of its out_queue and leaves its in_queue as it was, so the level
// after a bottom-up one clears that in_queue, the spare, which becomes
// the out_queue of the level after it (EndLevel).
//
// Gated start (gated, ours, 1×1): a search's first calls come right after
// the harness validated the one before, and a runtime call is then 3-10
// times as slow as warm; the GPU waited for them, not the reverse
// (results/diropt-1000: level 0 was about 75 µs of which the GPU's own
// work, a 12 MB reset and a launch, is under 10). So after a search's
// parents are read (dob_loop_arm) the next search's reset and first
// levels are queued on the stream behind GateKernel, one thread that
// polls a word of pinned memory; dob_reset records the search's start on
// a second stream, then writes the root beside that word and sets it.
// Nothing the search computes happens before its start: the queued work
// is launches, which read the root only once the gate opens, as a
// persistent kernel would wait for it. The enqueuing's host time falls
// between searches (in the harness's parents transfer time). (The
// driver's own wait on memory, cuStreamWaitValue32, measured 2.9 ms from
// the gate's opening to level 0's end on an H200: its channel waits a
// timeslice.) With gate_clock (gated 2) the start event is queued on the
// stream behind GateKernel too, so the clock starts once the GPU has the
// root rather than when dob_reset's call to record it reaches the GPU:
// after the validation that call took about 23 µs of the host, which the
// clock counted in part (results/diropt-1000). With dev_end (gated 3) no
// event is recorded: the search's time is the device's clock from
// GateKernel's reading of the root (GateRoot::open_ns) to the decision of
// the level that ends the search (LoopState::end_ns, after the leaves'
// pass), where the parent array is complete in device memory, the end the
// design gives a search; the host's wait for the end flag and its record
// of the end event are out of it, as they are for a variant whose end
// event follows its last kernel on the stream, and the reset is again a
// programmatic dependent launch behind the gate. With loop_graph (ours,
// with dev_end) the queued launches are captured as one CUDA graph and
// launched as one (ArmGraph): the GPU takes a graph's chain of launches
// faster than the stream's. Under Nsight Compute,
// which serializes launches, the gate would wait forever: profile with
// gated off.
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <new>
#include <vector>

#include "bfsb_abi.h"
#include "bfsb_check.cuh"
#include "bfsb_gather.cuh"
#include "bfsb_timer.cuh"
#include "diropt.h"

namespace {

constexpr unsigned kFull = 0xffffffffu;

// kNone marks a row WritePred does not send (pred_send, pred_recv).
constexpr uint32_t kNone = 0xffffffffu;

// kLeafNeighbour marks, in a leaf pair's second word, a neighbour that is
// a leaf itself (a component of two vertices; see LeafPass).
constexpr uint32_t kLeafNeighbour = 0x80000000u;

// Counters of one level (one set of the two in ctr).
struct Counters {
  unsigned long long found;    // vertices put in out_queue
  unsigned long long degrees;  // the sum of their CSC degrees
  unsigned long long edges;    // adjacency entries read
  unsigned long long nbig;     // the BigQueue's ctl: lists << 40 | chunks queued for bfsb::HugeKernel
  // With leaves: nonzero when a vertex of the level's frontier has a leaf
  // neighbour (a top-down level counts it: FrontierLeaves; after a
  // bottom-up last level, the leaves' launch), so that the tree has a
  // level of leaves below the last level's frontier.
  unsigned long long leafy;
  unsigned long long leaves;  // with leaves: the leaves the search reached (LeafPass)
};

__device__ __forceinline__ unsigned long long WarpSum(unsigned long long x) {
  for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(kFull, x, off);
  return x;
}

// AddCounts adds the warp's counts to c (lane 0, one atomic per counter)
// and zeroes the next level's set (block 0, thread 0).
__device__ __forceinline__ void AddCounts(Counters* c, Counters* next, unsigned long long f,
                                          unsigned long long d, unsigned long long e) {
  f = WarpSum(f);
  d = WarpSum(d);
  e = WarpSum(e);
  if ((threadIdx.x & 31) == 0) {
    if (f) atomicAdd(&c->found, f);
    if (d) atomicAdd(&c->degrees, d);
    if (e) atomicAdd(&c->edges, e);
  }
  if (next != nullptr && blockIdx.x == 0 && threadIdx.x == 0) {
    next->found = next->degrees = next->edges = next->nbig = next->leafy = next->leaves = 0;
  }
}

// FrontierLeaves (with leaves; has_leaf nullptr: none) finds whether a
// top-down level's frontier has a vertex with a leaf neighbour (has_leaf:
// the rows with one, a row's bit at its column's place on 1×1): a lane
// loads u's word of has_leaf with u's offsets (Word), so that the load
// adds no wait, and tests it after u's list (Add; TopDown, a warp per
// word, tests a whole word with its in_queue word instead); the warp then
// marks c->leafy once (Mark).
struct FrontierLeaves {
  const uint32_t* __restrict__ has_leaf;
  uint32_t any = 0;
  __device__ __forceinline__ uint32_t Word(uint32_t u) const { return has_leaf ? __ldg(&has_leaf[u >> 5]) : 0u; }
  __device__ __forceinline__ void Add(uint32_t word, uint32_t u) { any |= (word >> (u & 31)) & 1u; }
  __device__ __forceinline__ void Mark(Counters* c) const {
    if (__any_sync(kFull, any != 0) && (threadIdx.x & 31) == 0) c->leafy = 1;
  }
};

// LoopState is the device-resident level loop's state (dob_loop_*): the
// switching rule's inputs for the next level and the direction it chose,
// kept on the device so that no level waits for the host. Kernels of an
// exploration take a pointer to it (gate; nullptr when the host drives the
// levels) and return at once when the level is not theirs.
struct LoopState {
  int dir;   // the next level's direction (0 top-down, 1 bottom-up, kSplitDir split)
  int done;  // 1 once a level found no vertex: later levels do nothing
  long long nf, prev_nf, mf, mu;  // n_f, the previous n_f, m_f, m_u
  long long level;                // levels completed
  int prev_dir;                   // the last completed level's direction (0 before level 0)
  // 1×1: the root's local row (LeafPass skips it; level 0's
  // TopDownKernel reads only its span of in_queue), else -1. With leaves:
  // whether they still wait for their parents after a bottom-up last level
  // (the next launch's EndLevel gives them: LeafPass) and how many of them
  // the search reached (dob_loop_sync reads it).
  // deep: the tree has a level of leaves below the last level's frontier
  // (so one level more than the loop's).
  int leaf_pending, deep;
  long long root, leaves;
  // leaf_ns: where the leaves' pass ran in the last level's own launch
  // (EndLevel), its device time (%globaltimer, ns) that dob_loop_sync
  // moves from that level to the search's end; else 0.
  long long leaf_ns;
  // start_ns: with dev_clock 2 (reset_stamp), the device's clock at the
  // reset's first instruction (ResetKernel, %globaltimer, ns), from which
  // dob_loop_sync times level 0.
  long long start_ns;
  // gate_ns and end_ns: with gated 3 (dev_end), the device's clock when
  // GateKernel read the root (GateRoot::open_ns) and at the decision of
  // the level that ended the search (EndLevel's last block, after the
  // leaves' pass): the search's time (dob_finish); else 0.
  long long gate_ns, end_ns;
  // gated: 1 a cancelled start (the queued launches do nothing), 2 a
  // start that read a stale root (dob_loop_sync reports it), else 0.
  int gate;
};

// GateRoot is a gated start's gate and root, in pinned host memory mapped
// into the device's address space (dob_loop_arm, dob_reset): the host
// writes the root, then seq, then gate, which GateKernel polls; it copies
// the struct into device memory for ResetKernel.
struct GateRoot {
  uint32_t gate;    // GateKernel waits until it equals the armed sequence number
  uint32_t seq;     // the sequence number the root was written for
  uint32_t cancel;  // 1: a cancelled start (Disarm)
  uint32_t pad;
  long long row, col, own, global;
  long long open_ns;  // GateKernel's copy: the device's clock when it read the root (gated 3)
};

// LevelRec is what DecideKernel records about a completed level (ring slot
// level % kLoopSlots): its direction, n_f, m_f and the adjacency entries
// read (over the grid); on 1×1 EndLevel adds the device's clock at the
// level's decision (%globaltimer, ns), which dev_clock times the levels by.
struct LevelRec {
  long long dir, nf, mf, edges;
  long long stamp;
};

// kLoopSlots bounds the levels enqueued between two dob_loop_sync calls:
// the ring of LevelRec and the event slots.
constexpr int kLoopSlots = 32;

// PdlStart begins a kernel of the 1×1 device loop under programmatic
// dependent launch (pdl; ours, Hopper's griddepcontrol): it waits until
// the kernel before it in the stream has completed and its writes are
// visible (at once where this launch did not ask for the overlap), then
// lets the next launch's blocks be scheduled, so that they wait on the
// GPU for this kernel's end instead of being launched after it.
// PdlLaunchDependents is its second half alone (GateKernel, which waits
// for no kernel).
__device__ __forceinline__ void PdlLaunchDependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void PdlStart() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  PdlLaunchDependents();
}

// Skip reports whether a kernel of direction dir stays out of this level.
__device__ __forceinline__ bool Skip(const LoopState* gate, int dir) {
  return gate != nullptr && (gate->done || gate->dir != dir);
}

// kSplitDir is LoopState::dir for a split level (dobfs/split.go; ours):
// top-down over the frontier's tails and bottom-up over the rows of
// degree at least D, in the same level.
constexpr int kSplitDir = 2;

// SplitLevel reports whether the device loop's level is a split one.
__device__ __forceinline__ bool SplitLevel(const LoopState* gate) {
  return gate != nullptr && !gate->done && gate->dir == kSplitDir;
}

// Mark is a split level's top-down side for an entry v of a frontier
// vertex's tail (dobfs/split.go): v's bit in out_queue, an atomicOr whose
// result nobody waits for, for the level's bottom-up side to find.
__device__ __forceinline__ void Mark(uint32_t* out_queue, uint32_t v) { atomicOr(&out_queue[v >> 5], 1u << (v & 31)); }

// Visit is Algorithm 3 lines 36-39 for neighbour v of frontier vertex u:
// the visited test (a stale word only costs an atomic: bits never clear
// during a search), then atomicOr on visited; the
// thread whose atomicOr set the bit adds v to out_queue and writes its
// predecessor. eager (td_eager; ours): no test, the atomicOr at once and
// v's offsets loaded beside it (Visits says why).
__device__ __forceinline__ void Visit(uint32_t v, uint32_t u, uint32_t* visited, uint32_t* out_queue,
                                      uint32_t* pred, const uint32_t* __restrict__ bu_off,
                                      unsigned long long& found, unsigned long long& degrees, bool eager = false) {
  const uint32_t mask = 1u << (v & 31);
  if (eager) {
    const uint32_t old = atomicOr(&visited[v >> 5], mask);
    const uint32_t b = __ldg(&bu_off[v]), e = __ldg(&bu_off[v + 1]);
    if (old & mask) return;
    atomicOr(&out_queue[v >> 5], mask);
    pred[v] = u;
    found += 1;
    degrees += e - b;
    return;
  }
  // Line 36's test reads the word from L2 (ld.global.cg), not through the
  // read-only path: a copy cached in L1 misses the bits other blocks set in
  // this level, and on a large top-down level (a few hubs reaching millions
  // of vertices) each such stale test costs a contended atomic.
  if (__ldcg(&visited[v >> 5]) & mask) return;          // line 36
  if (atomicOr(&visited[v >> 5], mask) & mask) return;  // line 37
  atomicOr(&out_queue[v >> 5], mask);                   // line 38
  pred[v] = u;
  found += 1;
  degrees += __ldg(&bu_off[v + 1]) - __ldg(&bu_off[v]);
}

// Visits is Visit for the entries x = e0 + k·step (k < kBatch, x < e) of
// u's list, each step's loads, visited tests and atomics issued for all
// of them before any is waited for (td_batch; ours): one chain of
// dependent round trips (the entry, visited, the atomicOr) per kBatch
// entries where Visit has one per entry. step is 32 for a warp reading a
// list together (lane l from e0 = b + l), 1 for a lane alone. On an H200
// at scale 25, kBatch 4 made level 1 (a few lists of up to 1,023 entries,
// each read by one warp) and a top-down level 2 faster, and the searches
// 1.6 % (2 was between; results/diropt-1000).
//
// With mark (a split level's top-down side, dobfs/split.go) each entry is
// only marked in out_queue (an atomicOr whose result nobody waits for),
// for the level's bottom-up side to find, its parent too.
//
// With eager (td_eager; ours, not in [1]) an entry is claimed without the
// visited test (line 36): the atomicOr at once, with the entry's CSC
// offsets (its degree, for m_f) loaded beside it, so that a step waits on
// two round trips (the entry, then the claim and the offsets together)
// instead of four (the entry, the test, the claim, the offsets). The test
// saves an atomic where most entries are visited already; in a level one
// step or less from the root nearly none is, and its lists are few, each
// read by one warp (or block) in a chain of steps while the rest of the GPU
// waits: there the chain is the level's time. On one H200 at scale 25
// (results/diropt-1000, eager-25) levels 0 and 1 took 6 and 16 % less
// (median ratios), and with level 2 too (tuned, td_eager 3) the top-down
// level 2s (a frontier of a few hundred to 1.4 K vertices, most of their
// entries new) 9 % less; the later top-down levels' entries are nearly all
// visited, where the test is the cheaper step.
template <int kBatch>
__device__ __forceinline__ void Visits(const uint32_t* __restrict__ td_adj, uint32_t e0, uint32_t e, uint32_t step,
                                       uint32_t u, uint32_t* visited, uint32_t* out_queue, uint32_t* pred,
                                       const uint32_t* __restrict__ bu_off, unsigned long long& found,
                                       unsigned long long& degrees, bool mark = false, bool eager = false) {
  uint32_t v[kBatch], m[kBatch], old[kBatch];
#pragma unroll
  for (int k = 0; k < kBatch; ++k) {
    const bool in = (uint64_t)e0 + (uint64_t)k * step < e;
    v[k] = in ? __ldg(&td_adj[e0 + k * step]) : 0u;
    m[k] = in ? 1u << (v[k] & 31) : 0u;
  }
  if (mark) {
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      if (m[k] != 0) atomicOr(&out_queue[v[k] >> 5], m[k]);  // Mark, with the bit in hand
    }
    return;
  }
  if (eager) {
    uint32_t b[kBatch], d[kBatch];
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      if (m[k] == 0) continue;
      old[k] = atomicOr(&visited[v[k] >> 5], m[k]);  // line 37, no test
      b[k] = __ldg(&bu_off[v[k]]);
      d[k] = __ldg(&bu_off[v[k] + 1]);
    }
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      if (m[k] == 0 || (old[k] & m[k])) continue;
      atomicOr(&out_queue[v[k] >> 5], m[k]);  // line 38
      pred[v[k]] = u;
      found += 1;
      degrees += d[k] - b[k];
    }
    return;
  }
#pragma unroll
  for (int k = 0; k < kBatch; ++k) old[k] = m[k] != 0 ? __ldcg(&visited[v[k] >> 5]) : 0u;  // line 36
#pragma unroll
  for (int k = 0; k < kBatch; ++k) {
    if (old[k] & m[k]) m[k] = 0;
    if (m[k] != 0) old[k] = atomicOr(&visited[v[k] >> 5], m[k]);  // line 37
  }
#pragma unroll
  for (int k = 0; k < kBatch; ++k) {
    if (m[k] == 0 || (old[k] & m[k])) continue;
    atomicOr(&out_queue[v[k] >> 5], m[k]);  // line 38
    pred[v[k]] = u;
    found += 1;
    degrees += __ldg(&bu_off[v[k] + 1]) - __ldg(&bu_off[v[k]]);
  }
}

// WarpLists is Algorithm 3 lines 22-42: while a lane of the warp has a
// list [beg, end) of frontier vertex u left, the warp reads the lowest such
// lane's list together (lines 23-31: the leader publishes it and takes it
// off), 32·kBatch entries a step (lines 32-41: Visit, or Visits for
// kBatch > 1).
template <int kBatch>
__device__ __forceinline__ void WarpLists(const uint32_t* __restrict__ td_adj, int lane, uint32_t beg, uint32_t end,
                                          uint32_t u, uint32_t* visited, uint32_t* out_queue, uint32_t* pred,
                                          const uint32_t* __restrict__ bu_off, unsigned long long& found,
                                          unsigned long long& degrees, bool mark = false, bool eager = false) {
  for (unsigned pending = __ballot_sync(kFull, beg < end); pending != 0;
       pending = __ballot_sync(kFull, beg < end)) {
    const int leader = __ffs(pending) - 1;
    const uint32_t gb = __shfl_sync(kFull, beg, leader);
    const uint32_t ge = __shfl_sync(kFull, end, leader);
    const uint32_t gu = __shfl_sync(kFull, u, leader);
    if (lane == leader) beg = end;
    if constexpr (kBatch == 1) {
      for (uint32_t e = gb + lane; e < ge; e += 32) {
        const uint32_t v = __ldg(&td_adj[e]);
        if (mark) {
          Mark(out_queue, v);
        } else {
          Visit(v, gu, visited, out_queue, pred, bu_off, found, degrees);
        }
      }
    } else {
      for (uint64_t e = gb + lane; e < ge; e += 32 * kBatch) {
        Visits<kBatch>(td_adj, (uint32_t)e, ge, 32, gu, visited, out_queue, pred, bu_off, found, degrees, mark, eager);
      }
    }
  }
}

// BigQueue is where TopDownKernel queues the lists of at least td_big
// entries (min_edges), for bfsb::HugeKernel to expand in chunks of
// bfsb::kHugeChunk entries over the whole GPU; its ctl is the level's
// Counters::nbig, zeroed with the level's other counts.
using BigQueue = bfsb::HugeQueue<uint32_t>;

// BigVisit is Visit as bfsb::HugeKernel's visitor: the two counts of a
// thread, added to the level's counters once at the end.
struct BigVisit {
  struct Acc {
    unsigned long long found, degrees;
  };
  uint32_t *visited, *out_queue, *pred;
  const uint32_t* bu_off;
  Counters* ctr;
  bool eager;  // td_eager's levels (Visits)
  __device__ __forceinline__ void operator()(uint32_t u, uint32_t v, Acc& acc) const {
    Visit(v, u, visited, out_queue, pred, bu_off, acc.found, acc.degrees, eager);
  }
  __device__ __forceinline__ void Flush(const Acc& acc) const { AddCounts(ctr, nullptr, acc.found, acc.degrees, 0); }
};

// MarkVisit is a split level's top-down side (Visits with mark) as
// bfsb::HugeExpand's visitor, for the tails TopDownKernel queued
// (SplitBottomUpKernel): it marks each entry in out_queue and counts nothing
// (TopDownKernel counted the entries).
struct MarkVisit {
  struct Acc {};
  uint32_t* out_queue;
  __device__ __forceinline__ void operator()(uint32_t, uint32_t v, Acc&) const { Mark(out_queue, v); }
  __device__ __forceinline__ void Flush(const Acc&) const {}
};

// kBigThreads is bfsb::HugeKernel's block size.
constexpr int kBigThreads = 256;

// TopDownKernel is Algorithm 3: a warp per word of in_queue. Each warp
// reads 32 consecutive words at once (a lane a word, one coalesced load)
// and takes the non-empty ones in turn, so empty words (lines 13-15) cost a
// 32nd of a load each instead of a load and a shuffle each; the warp clears
// the words it read (in_queue becomes the next out_queue). Lists of at
// least td_big entries are queued on big for bfsb::HugeKernel, which
// spreads them over whole blocks: a warp would read such a list alone, 32
// entries a step, while the warps with short lists finish.
__device__ __forceinline__ void TopDown(const uint32_t* __restrict__ td_off, const uint32_t* __restrict__ td_adj,
                                        const uint32_t* __restrict__ bu_off, uint32_t* in_queue, int64_t in_words,
                                        uint32_t* visited, uint32_t* out_queue, uint32_t* pred, BigQueue big,
                                        const uint32_t* __restrict__ has_leaf, Counters* ctr, Counters* next) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  unsigned long long found = 0, degrees = 0, edges = 0;
  FrontierLeaves fl{has_leaf};
  for (int64_t w0 = (((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5) * 32; w0 < in_words;
       w0 += warps * 32) {
    const uint32_t mine = w0 + lane < in_words ? in_queue[w0 + lane] : 0u;
    const uint32_t hl = w0 + lane < in_words ? fl.Word((uint32_t)(w0 + lane) * 32) & mine : 0u;
    fl.Add(hl != 0 ? 1u : 0u, 0);  // the word's vertices at once
    if (mine != 0) in_queue[w0 + lane] = 0;
    for (unsigned nonempty = __ballot_sync(kFull, mine != 0); nonempty != 0; nonempty &= nonempty - 1) {
      const int64_t w = w0 + __ffs(nonempty) - 1;
      const uint32_t word = __shfl_sync(kFull, mine, __ffs(nonempty) - 1);
      const uint32_t u = (uint32_t)(w * 32 + lane);  // line 17
      uint32_t beg = 0, end = 0;
      if ((word >> lane) & 1u) {  // lines 16-21: this lane's range
        beg = td_off[u];
        end = td_off[u + 1];
        edges += end - beg;
        if (big.Take(u, beg, end)) beg = end;  // whole-block gathering, chunk by chunk
      }
      WarpLists<1>(td_adj, lane, beg, end, u, visited, out_queue, pred, bu_off, found, degrees);  // lines 22-42
    }
  }
  fl.Mark(ctr);
  AddCounts(ctr, next, found, degrees, edges);
}

// kTdWords is how many words of in_queue a lane of TopDownLanes takes at
// once: a warp's 32·kTdWords words in kTdWords coalesced loads, so that at
// scale 25 (1 M words) a resident grid of warps reads in_queue in one
// round instead of four.
constexpr int kTdWords = 4;

// TopDownLanes is TopDown with td_lane (ours, not in [1]): a lane takes a
// word of in_queue (kTdWords of them at once, words c0 + j·32 + lane) and
// its set bits one a round, every lane at once; a list of fewer than
// lane_max entries is expanded by its lane alone, a longer one by the
// warp together (lines 22-42, as TopDown), one of at least td_big queued
// for bfsb::HugeExpand. Algorithm 3 gives each word to a warp and takes a
// word's lists one after another: on a sparse level, where most lists
// have an entry or two (level 5 at scale 25: 95 K vertices with 96 K
// entries, about 3 non-empty words in 32), each list then costs the warp
// its own chain of dependent loads (offsets, the entry, visited, the two
// atomics), one list after another; here the lists of a round wait
// together. On an H200 at scale 25 that level took 0.024 ms instead of
// 0.059, and the searches 2.5 % less (lane_max 8 and 32 the same;
// results/diropt-1000). kBatch (td_batch): Visits' entries a lane at
// once, alone and in the warp's step. The warps read in_queue's words
// from lo (a multiple of the span, kTdWords·32) to in_words: the words
// before lo are clear (level 0 of the 1×1 device loop, TopDownKernel).
//
// On a split level (split; dobfs/split.go) u's list is its tail in the
// CSC, [td_beg[u], td_end[u + 1]) = [cut[u], bu_off[u + 1]) of bu_adj,
// its entries are only marked in out_queue (Visits), and in_queue stays
// whole, for the level's bottom-up side.
template <int kBatch>
__device__ __forceinline__ void TopDownLanes(const uint32_t* __restrict__ td_beg, const uint32_t* __restrict__ td_end,
                                             const uint32_t* __restrict__ td_adj,
                                             const uint32_t* __restrict__ bu_off, uint32_t* in_queue, int64_t lo,
                                             int64_t in_words, uint32_t* visited, uint32_t* out_queue, uint32_t* pred,
                                             BigQueue big, uint32_t lane_max, const uint32_t* __restrict__ has_leaf,
                                             Counters* ctr, Counters* next, bool split, bool eager) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  const int64_t span = 32 * kTdWords;
  unsigned long long found = 0, degrees = 0, edges = 0;
  FrontierLeaves fl{has_leaf};
  for (int64_t c0 = lo + (((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5) * span; c0 < in_words;
       c0 += warps * span) {
    uint32_t words[kTdWords];
#pragma unroll
    for (int j = 0; j < kTdWords; ++j) {
      const int64_t w = c0 + j * 32 + lane;
      words[j] = w < in_words ? in_queue[w] : 0u;
    }
#pragma unroll
    for (int j = 0; j < kTdWords; ++j) {
      if (!split && words[j] != 0) in_queue[c0 + j * 32 + lane] = 0;  // in_queue becomes the next out_queue
    }
    uint32_t cur = 0;  // the bits of the lane's word in hand, and its word
    int64_t cw = 0;
    for (;;) {
      if (cur == 0) {  // the lane's next non-empty word (unrolled: words stays in registers)
#pragma unroll
        for (int j = 0; j < kTdWords; ++j) {
          if (cur == 0 && words[j] != 0) {
            cur = words[j];
            cw = c0 + j * 32 + lane;
            words[j] = 0;
          }
        }
      }
      if (!__any_sync(kFull, cur != 0)) break;
      uint32_t u = 0, beg = 0, end = 0, hl = 0;
      if (cur != 0) {  // lines 16-21 for the lane's next vertex
        u = (uint32_t)(cw * 32 + __ffs(cur) - 1);
        cur &= cur - 1;
        beg = td_beg[u];
        end = td_end[u + 1];
        hl = fl.Word(u);
        edges += end - beg;
        if (big.Take(u, beg, end)) {
          beg = end;
        } else if (end - beg < lane_max) {  // the lane alone
          for (; beg < end; beg = (uint32_t)min((uint64_t)end, (uint64_t)beg + kBatch)) {
            Visits<kBatch>(td_adj, beg, end, 1, u, visited, out_queue, pred, bu_off, found, degrees, split, eager);
          }
        }
      }
      // Lines 22-42 for the longer lists: the warp reads them together.
      WarpLists<kBatch>(td_adj, lane, beg, end, u, visited, out_queue, pred, bu_off, found, degrees, split, eager);
      fl.Add(hl, u);  // hl is 0 where the lane had no vertex
    }
  }
  fl.Mark(ctr);
  AddCounts(ctr, next, found, degrees, edges);
}

__device__ __forceinline__ bool InQueue(const uint32_t* __restrict__ in_queue, uint32_t u) {
  return (__ldg(&in_queue[u >> 5]) >> (u & 31)) & 1u;
}

// kBuWords is how many words of visited a bottom-up warp takes at once:
// their loads (visited, CSC offsets, first list entries, their in_queue
// bits) are issued together, so kBuWords memory round trips overlap where a
// word at a time would wait for each.
constexpr int kBuWords = 4;

// kFirst, the bottom-up kernels' first check: each row's CSC range from
// its offsets and its first entry from the list (kFirstList, the paper's),
// the first entry from the dense array first (kFirstDense, bu_first), or
// that with the row's degree byte instead of its offsets (kFirstDegree,
// bu_deg's level), or both in one word (kFirstPacked, bu_deg_packed).
constexpr int kFirstList = 0, kFirstDense = 1, kFirstDegree = 2, kFirstPacked = 3;

// kPackedBits is where bu_deg_packed's word (fdeg, FirstKernel) puts the
// row's degree: its first entry in the low kPackedBits bits (a column of a
// block of at most 2^26 columns: scale 26 on 1×1), the degree above them,
// kPackedSat for that many or more.
constexpr int kPackedBits = 26;
constexpr uint32_t kPackedMask = (1u << kPackedBits) - 1, kPackedSat = (1u << (32 - kPackedBits)) - 1;

// FirstEntries is the first step of a bottom-up level, shared by
// BottomUpWords, CompactRows and FloorKernel: each of a lane's kBuWords
// rows v that is open (unvisited and not isolated; the others get an
// empty range) loads its CSC range [beg, end) and first entry u, from the
// dense first array with kFirst (its loads issued with the offsets',
// streamed past L1 and L2: read once a level), else from the list once
// the offsets are in. With kFirstDegree (bu_deg) the range is [0, the row's
// degree byte) instead, the offsets left to LazyOffsets; with kFirstPacked
// (bu_deg_packed) first is fdeg, the first entry and the degree in one
// word (kPackedBits), one load a row. kWant (pred_lines, kFirstDense
// only): u is also loaded for the rows want names that are not open (in
// the same load instruction, so in the same request a line), their range
// left empty.
template <int kFirst, bool kWant = false>
__device__ __forceinline__ void FirstEntries(const uint32_t* __restrict__ bu_off,
                                             const uint32_t* __restrict__ bu_adj,
                                             const uint32_t* __restrict__ first, const uint8_t* __restrict__ deg,
                                             const uint32_t (&v)[kBuWords], const bool (&open)[kBuWords],
                                             uint32_t (&beg)[kBuWords], uint32_t (&end)[kBuWords],
                                             uint32_t (&u)[kBuWords], const bool (&want)[kBuWords]) {
  static_assert(!kWant || kFirst == kFirstDense, "kWant loads the dense first entries");
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) {
    beg[j] = end[j] = 0;
    u[j] = 0;
    if (kWant && (open[j] || want[j])) u[j] = __ldcs(&first[v[j]]);
    if (open[j]) {
      if constexpr (kFirst == kFirstPacked) {
        const uint32_t x = __ldcs(&first[v[j]]);
        u[j] = x & kPackedMask;
        end[j] = x >> kPackedBits;
        continue;
      }
      if (kFirst && !kWant) u[j] = __ldcs(&first[v[j]]);
      if (kFirst == kFirstDegree) {
        end[j] = __ldcs(&deg[v[j]]);
      } else if (kFirst) {
        beg[j] = __ldcs(&bu_off[v[j]]);
        end[j] = __ldcs(&bu_off[v[j] + 1]);
      } else {
        beg[j] = bu_off[v[j]];
        end[j] = bu_off[v[j] + 1];
      }
    }
  }
  if (!kFirst) {
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) u[j] = beg[j] < end[j] ? __ldg(&bu_adj[beg[j]]) : 0u;
  }
}

// WordRows gives a lane's kBuWords rows of the words from w0 (lane l of
// word w is row 32·w + l) and which of them are open: their bit clear in
// skip (visited, or isolated).
__device__ __forceinline__ void WordRows(int64_t w0, int lane, const uint32_t (&skip)[kBuWords],
                                         uint32_t (&v)[kBuWords], bool (&open)[kBuWords]) {
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) {
    v[j] = (uint32_t)((w0 + j) * 32 + lane);
    open[j] = !((skip[j] >> lane) & 1u);
  }
}

// BatchScan is the lanes' own scan of their lists (after the first entry,
// up to `serial` entries with the warp's help, else to the end) for
// kBatch > 1: each lane loads the next kBatch entries of each of its
// kBuWords lists at once, then their in_queue bits at once, and stops a
// list at its first hit. A scan of one entry at a time waits for two
// loads (the entry, then its bit) per entry, one list after another; here
// a lane has up to kBuWords·kBatch entries and bits in flight. Entries
// loaded past a hit in the same batch are read and counted (edges), not
// used. b[j] is where list j's scan stands (end[j] once it hit).
template <int kBatch, bool kWarpAssist>
__device__ __forceinline__ void BatchScan(const uint32_t* __restrict__ bu_adj, const uint32_t* __restrict__ in_queue,
                                          const uint32_t (&beg)[kBuWords], const uint32_t (&end)[kBuWords],
                                          uint32_t serial, uint32_t (&b)[kBuWords], bool (&hit)[kBuWords],
                                          uint32_t (&parent)[kBuWords], unsigned long long& edges) {
  uint32_t stop[kBuWords];
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) {
    stop[j] = kWarpAssist ? (uint32_t)min((uint64_t)end[j], (uint64_t)beg[j] + max(serial, 1u)) : end[j];
  }
  for (;;) {
    bool more = false;
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) more |= b[j] < stop[j];
    if (!more) break;
    uint32_t u[kBuWords][kBatch];
    bool q[kBuWords][kBatch];
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        u[j][k] = b[j] < stop[j] && (uint32_t)k < stop[j] - b[j] ? __ldg(&bu_adj[b[j] + k]) : 0u;
      }
    }
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        q[j][k] = b[j] < stop[j] && (uint32_t)k < stop[j] - b[j] && InQueue(in_queue, u[j][k]);
      }
    }
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
      if (b[j] >= stop[j]) continue;
      const uint32_t n = min((uint32_t)kBatch, stop[j] - b[j]);
      edges += n;
      bool h = false;
      uint32_t pu = 0;
#pragma unroll
      for (int k = kBatch - 1; k >= 0; --k) {
        if (q[j][k]) {
          h = true;
          pu = u[j][k];
        }
      }
      if (h) {
        hit[j] = true;
        parent[j] = pu;
        b[j] = end[j];
      } else {
        b[j] += n;
      }
    }
  }
}

// WarpAssist is the warp's help with the rest [b, e) of each lane's list
// that is still pending (a lane whose b < e): one list at a time, the
// leader's, kBatch·32 entries a step (a lane loads kBatch entries, then
// tests their bits, then the ballots), stopping at the list's first hit.
template <int kBatch>
__device__ __forceinline__ void WarpAssist(const uint32_t* __restrict__ bu_adj,
                                           const uint32_t* __restrict__ in_queue, int lane, uint32_t b, uint32_t e,
                                           bool& hit, uint32_t& parent, unsigned long long& edges) {
  for (unsigned pending = __ballot_sync(kFull, b < e); pending != 0; pending = __ballot_sync(kFull, b < e)) {
    const int leader = __ffs(pending) - 1;
    const uint32_t gb = __shfl_sync(kFull, b, leader);
    const uint32_t ge = __shfl_sync(kFull, e, leader);
    if (lane == leader) b = e;
    for (uint32_t e0 = gb; e0 < ge; e0 += kBatch * 32) {
      uint32_t u[kBatch];
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        const uint32_t x = e0 + k * 32 + lane;
        u[k] = 0;
        if (x < ge) {
          u[k] = __ldg(&bu_adj[x]);
          ++edges;
        }
      }
      bool h[kBatch];
#pragma unroll
      for (int k = 0; k < kBatch; ++k) h[k] = e0 + k * 32 + lane < ge && InQueue(in_queue, u[k]);
      unsigned hits[kBatch];
#pragma unroll
      for (int k = 0; k < kBatch; ++k) hits[k] = __ballot_sync(kFull, h[k]);
      // The first hit in list order: the lowest lane of the first batch
      // with one.
      unsigned any = 0;
#pragma unroll
      for (int k = 0; k < kBatch; ++k) any |= hits[k];
      if (any != 0) {
        uint32_t su = u[kBatch - 1];
        unsigned sh = hits[kBatch - 1];
#pragma unroll
        for (int k = kBatch - 2; k >= 0; --k) {
          if (hits[k] != 0) {
            su = u[k];
            sh = hits[k];
          }
        }
        const uint32_t first = __shfl_sync(kFull, su, __ffs(sh) - 1);
        if (lane == leader) {
          hit = true;
          parent = first;
        }
        break;
      }
    }
  }
}

// kDegSaturated is the degree byte (bu_deg) of a row of 255 neighbours or
// more, whose degree only its offsets give.
constexpr uint32_t kDegSaturated = 255;

// LazyOffsets (bu_deg; ours) loads, after the first check of rows whose
// range is [0, degree byte) (FirstEntries with kFirstDegree), the CSC offsets
// of the rows that need them: a row that missed and has more entries to
// scan, and a row that hit with a saturated byte (its degree, for m_f;
// kSat: kDegSaturated, or kPackedSat for kFirstPacked's degree).
// The others keep [0, degree), so that end - beg is the degree and a scan
// from end reads nothing.
template <uint32_t kSat>
__device__ __forceinline__ void LazyOffsets(const uint32_t* __restrict__ bu_off, const uint32_t (&v)[kBuWords],
                                            const bool (&hit)[kBuWords], uint32_t (&beg)[kBuWords],
                                            uint32_t (&end)[kBuWords]) {
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) {
    if (end[j] != 0 && (hit[j] ? end[j] == kSat : end[j] > 1)) {
      beg[j] = __ldcs(&bu_off[v[j]]);
      end[j] = __ldcs(&bu_off[v[j] + 1]);
    }
  }
}

// FirstCheck is step 1 of a bottom-up level for a lane's kBuWords rows v
// (CSC ranges [beg, end), first entries in parent): hit where the first
// entry is in in_queue, with kFirstDegree the offsets where needed
// (LazyOffsets), bs where each list's scan goes on (end once it hit),
// then, for kBatch > 1, the lanes' own scans (BatchScan). Shared by
// BottomUpWords and CompactRows. first_hits gets bit j where row j hit at
// its first entry (pred_lines' level after; unused, it costs nothing).
template <bool kWarpAssist, int kFirst, int kBatch>
__device__ __forceinline__ void FirstCheck(const uint32_t* __restrict__ bu_off, const uint32_t* __restrict__ bu_adj,
                                           const uint32_t* __restrict__ in_queue, const uint32_t (&v)[kBuWords],
                                           uint32_t (&beg)[kBuWords], uint32_t (&end)[kBuWords], uint32_t serial,
                                           uint32_t (&parent)[kBuWords], bool (&hit)[kBuWords],
                                           uint32_t (&bs)[kBuWords], unsigned long long& edges,
                                           unsigned& first_hits) {
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) {
    hit[j] = beg[j] < end[j] && InQueue(in_queue, parent[j]);
    edges += beg[j] < end[j];
    first_hits |= (unsigned)hit[j] << j;
  }
  if (kFirst == kFirstDegree) LazyOffsets<kDegSaturated>(bu_off, v, hit, beg, end);
  if (kFirst == kFirstPacked) LazyOffsets<kPackedSat>(bu_off, v, hit, beg, end);
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) bs[j] = hit[j] ? end[j] : beg[j] + (beg[j] < end[j]);
  if (kBatch > 1) BatchScan<kBatch, kWarpAssist>(bu_adj, in_queue, beg, end, serial, bs, hit, parent, edges);
}

// ScanRest is step 2 for one row of a lane, [b, e) the rest of its list
// after FirstCheck (empty once it hit): the lane alone (kBatch 1: up to
// `serial` entries with the warp's help, else to the end; kBatch > 1:
// BatchScan did it), then with kWarpAssist the warp's help (WarpAssist).
// Every lane of the warp calls it (WarpAssist's ballots). Shared by
// BottomUpWords and CompactRows. kAssist: the help's entries a step over
// 32 (kBatch but on a split level with split_help 32: SplitBottomUpKernel).
template <bool kWarpAssist, int kBatch, int kAssist = kBatch>
__device__ __forceinline__ void ScanRest(const uint32_t* __restrict__ bu_adj,
                                         const uint32_t* __restrict__ in_queue, int lane, uint32_t serial,
                                         uint32_t beg, uint32_t b, uint32_t e, bool& hit, uint32_t& parent,
                                         unsigned long long& edges) {
  const uint32_t stop =
      kBatch > 1 ? b : kWarpAssist ? (uint32_t)min((uint64_t)e, (uint64_t)beg + max(serial, 1u)) : e;
  for (; b < stop; ++b) {
    const uint32_t u = __ldg(&bu_adj[b]);
    ++edges;
    if (InQueue(in_queue, u)) {
      hit = true;
      parent = u;
      b = e;
      break;
    }
  }
  if (kWarpAssist) WarpAssist<kAssist>(bu_adj, in_queue, lane, b, e, hit, parent, edges);
}

// LinesOk is the calling warp's 32 bytes of shared memory in which a
// bottom-up chunk of pred_lines' two levels keeps each of its words'
// sectors of pred the lines level writes (or wrote) whole (PredSectors),
// a byte a word: held in a register across the chunk, the instance
// spilled.
__shared__ __align__(16) uint8_t lines_sectors[1024];  // a group's four bytes read as one word
__device__ __forceinline__ uint8_t* LinesOk() { return lines_sectors + (threadIdx.x & ~31u); }

// PredSectors (pred_lines) gives the sectors of pred (8 rows, 32 bytes)
// of a word of rows whose rows visited before the lines level, but for
// skip's (isolated rows and leaves), are pre: bit s for sector s where
// none.
__device__ __forceinline__ uint32_t PredSectors(uint32_t pre) {
  uint32_t ok = 0;
#pragma unroll
  for (int s = 0; s < 4; ++s) ok |= (uint32_t)(((pre >> (8 * s)) & 0xffu) == 0) << s;
  return ok;
}

// BottomUpWords explores the kBuWords words of rows of a bottom-up level
// from word w0, whose visited words are vis (all ones past row_words);
// see BottomUpKernel. The warp owns these words of visited and out_queue
// and writes them without atomics. With kSplit, vis also holds the rows
// a split level skips (BottomUp), which stay unvisited: visited gets the
// hits alone (an atomicOr nobody waits for).
// kLines 2 (pred_lines' level after its lines level; ours): a row that hit
// at its first entry in a sector the level before wrote whole (okg: bit
// 8j + s for sector s of word j, PredSectors) writes no pred: it holds
// that first entry already.
template <bool kWarpAssist, int kFirst, int kBatch, bool kSplit = false, int kAssist = kBatch, int kLines = 0>
__device__ __forceinline__ void BottomUpWords(const uint32_t* __restrict__ bu_off,
                                              const uint32_t* __restrict__ bu_adj,
                                              const uint32_t* __restrict__ first, const uint8_t* __restrict__ deg,
                                              const uint32_t* __restrict__ in_queue, uint32_t* visited,
                                              uint32_t* out_queue, uint32_t* pred, uint32_t serial, int lane,
                                              int64_t w0, int64_t row_words,
                                              const uint32_t (&vis)[kBuWords],
                                              unsigned long long& found, unsigned long long& degrees,
                                              unsigned long long& edges, uint32_t okg = 0) {
  uint32_t beg[kBuWords], end[kBuWords], parent[kBuWords], bs[kBuWords], rows[kBuWords];
  bool hit[kBuWords], open[kBuWords];
  WordRows(w0, lane, vis, rows, open);
  FirstEntries<kFirst>(bu_off, bu_adj, first, deg, rows, open, beg, end, parent, open);
  unsigned fh = 0;
  FirstCheck<kWarpAssist, kFirst, kBatch>(bu_off, bu_adj, in_queue, rows, beg, end, serial, parent, hit, bs, edges, fh);
  uint32_t nw = 0;  // kLines 2: bit j where row j's pred holds its parent already
  if constexpr (kLines == 2) {
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) nw |= ((fh >> j) & (okg >> (8 * j + (lane >> 3))) & 1u) << j;
  }
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) {
    if (vis[j] == kFull) {  // every vertex of the word visited (or isolated)
      if (lane == 0 && w0 + j < row_words) out_queue[w0 + j] = 0;
      continue;
    }
    ScanRest<kWarpAssist, kBatch, kAssist>(bu_adj, in_queue, lane, serial, beg[j], bs[j], end[j], hit[j], parent[j],
                                           edges);
    const unsigned hits = __ballot_sync(kFull, hit[j]);
    if (hit[j]) {
      if (!((nw >> j) & 1u)) pred[rows[j]] = parent[j];
      found += 1;
      degrees += end[j] - beg[j];
    }
    if (lane == 0) {
      out_queue[w0 + j] = hits;
      if (!kSplit) {
        visited[w0 + j] = vis[j] | hits;
      } else if (hits != 0) {
        atomicOr(&visited[w0 + j], hits);
      }
    }
  }
}

// CompactRows (bu_compact; ours, not in [1]) explores the `total`
// unvisited rows of the chunk of 32 words of visited from word c0 (lane l
// holds word c0 + l in mine, excl the unvisited rows of the words before
// it) a lane a row, kBuWords rows a lane at once (128 a round), instead of
// a warp a word: a chunk of a late bottom-up level holds a few unvisited
// rows over a few words, and BottomUp's groups of kBuWords words check
// each such group in turn, each check two round trips (the offsets and
// first entry, then the bit) for one or two rows. Rank r's row is found by
// a binary search over excl and the (r - excl)th clear bit of its word.
// The rows' scans are FirstCheck's and ScanRest's; their hits are ORed
// into visited and out_queue (zeroed for the chunk first) with atomics,
// since a round's rows share words. bu_compact 256 made level 4 0.054 ->
// 0.038 ms and level 3 0.190 -> 0.179 ms at scale 25 on an H200; 1024
// (every chunk) was slower (results/diropt-1000).
//
// kLines 2 (pred_lines' level after its lines level): as BottomUpWords's,
// where lines, LinesOk()[l] the sectors of the chunk's word l written
// whole (PredSectors).
template <bool kWarpAssist, int kFirst, int kBatch, int kAssist = kBatch, int kLines = 0>
__device__ __forceinline__ void CompactRows(const uint32_t* __restrict__ bu_off,
                                            const uint32_t* __restrict__ bu_adj,
                                            const uint32_t* __restrict__ first, const uint8_t* __restrict__ deg,
                                            const uint32_t* __restrict__ in_queue, uint32_t* visited,
                                            uint32_t* out_queue, uint32_t* pred, uint32_t serial, int lane,
                                            int64_t c0, uint32_t mine, uint32_t excl, uint32_t total,
                                            unsigned long long& found, unsigned long long& degrees,
                                            unsigned long long& edges, bool lines = false) {
  for (uint32_t r0 = 0; r0 < total; r0 += 32 * kBuWords) {
    uint32_t v[kBuWords], beg[kBuWords], end[kBuWords], parent[kBuWords], bs[kBuWords];
    bool hit[kBuWords], open[kBuWords];
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
      const uint32_t r = r0 + j * 32 + lane;
      int w = 0;  // the last lane whose excl <= r
#pragma unroll
      for (int step = 16; step > 0; step >>= 1) {
        if (__shfl_sync(kFull, excl, w + step) <= r) w += step;
      }
      const uint32_t word = __shfl_sync(kFull, mine, w), xw = __shfl_sync(kFull, excl, w);
      v[j] = (uint32_t)((c0 + w) * 32) + (uint32_t)__fns(~word, 0, (int)(r - xw) + 1);
      open[j] = r < total;
    }
    FirstEntries<kFirst>(bu_off, bu_adj, first, deg, v, open, beg, end, parent, open);
    unsigned fh = 0;
    FirstCheck<kWarpAssist, kFirst, kBatch>(bu_off, bu_adj, in_queue, v, beg, end, serial, parent, hit, bs, edges, fh);
    uint32_t nw = 0;  // kLines 2: bit j where row j's pred holds its parent already (its sector written whole)
    if (kLines == 2 && lines) {
#pragma unroll
      for (int j = 0; j < kBuWords; ++j) {
        nw |= ((fh >> j) & (LinesOk()[(v[j] >> 5) - (uint32_t)c0] >> ((v[j] & 31) >> 3)) & 1u) << j;
      }
    }
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
      ScanRest<kWarpAssist, kBatch, kAssist>(bu_adj, in_queue, lane, serial, beg[j], bs[j], end[j], hit[j], parent[j],
                                             edges);
      if (hit[j]) {
        if (!((nw >> j) & 1u)) pred[v[j]] = parent[j];
        found += 1;
        degrees += end[j] - beg[j];
        atomicOr(&visited[v[j] >> 5], 1u << (v[j] & 31));
        atomicOr(&out_queue[v[j] >> 5], 1u << (v[j] & 31));
      }
    }
  }
}

// bu_queue (ours, not in [1]; tuned: level 2): a bottom-up warp checks the
// first entries of each group's rows (QueueWords) and queues the rows that
// missed with more entries to scan in shared memory, a queue a warp,
// instead of scanning them before the next group (FirstCheck's BatchScan,
// then ScanRest); once the queue holds 32·kBuWords rows it scans them all,
// a lane a row, kBuWords rows a lane at once (QueueScan, CompactRows's
// scans). The profile of a bottom-up level 2 after a large frontier
// (results/diropt-1000, "Where the split level and the big bottom-up level
// 2 wait") found half of its stall samples in the lanes' own scans, each a
// chain of two dependent round trips a batch, with 0-4 of a warp's 32
// lanes active: the few rows a group leaves (about 12 % there) held the
// warp for every group. Queued, a warp waits for those chains once per
// 32·kBuWords missed rows, every lane busy. The rows found from the queue
// are ORed into visited and out_queue with atomics (their words' plain
// stores came before, from the same warp). bu_defer, an earlier queue,
// read the queued lists gathered (every lane an entry, a warp scan of
// their lengths) and was slower at levels 2-4 (results/diropt-1000); this
// one keeps the lanes' own scan and the warp's help, so it reads the
// entries the plain kernel reads. At scale 25 on an H200 it made the
// bottom-up level 2s 15 % faster (35 of 38 roots; queue2-25). It runs on
// one level, level bu_queue: on every plain bottom-up level (queue-25)
// levels 0, 1 and 4 were 1-4 µs slower too, levels whose launch only ends
// the level or scans a nearly full visited; one carveout for every kernel,
// so that no SM changes its split of L1 and shared memory between
// launches, shrank L1 and made levels 2-3 4 % slower (queue2-25's carveout
// cases, a trial since removed).
//
// kQueueCap is a warp's queue (rows): a group adds at most 32·kBuWords
// and the warp scans the queue once it holds 32·kBuWords or more, so it
// never holds more than twice that less one. kQueueBytes is a warp's
// share of the block's dynamic shared memory: a row and its CSC range.
// A queue of the rows alone (1 KB a warp, so that L1 keeps 64 KB more an
// SM; its scan read each row's offsets again) was slower: the bottom-up
// level 2s 0 of 38 faster, median time ratio 1.072, level 4 the same, on
// an H200 at scale 25 (results/diropt-1000, rows-25); removed.
constexpr int kQueueCap = 2 * 32 * kBuWords;
constexpr int kQueueBytes = 3 * 4 * kQueueCap;

// RowQueue is a warp's queue of missed rows (bu_queue): row v[i] with
// CSC range [beg[i], end[i]), its first entry checked; n rows.
struct RowQueue {
  uint32_t *v, *beg, *end;
  uint32_t n;
};

// WarpQueue is the calling warp's RowQueue, empty, in the block's dynamic
// shared memory (kQueueBytes a warp: LaunchBottomUp gives it).
__device__ __forceinline__ RowQueue WarpQueue() {
  extern __shared__ uint32_t bu_queue_mem[];
  uint32_t* q = bu_queue_mem + (threadIdx.x >> 5) * 3 * kQueueCap;
  return RowQueue{q, q + kQueueCap, q + 2 * kQueueCap, 0};
}

// QueueWords is BottomUpWords with bu_queue: the first check of the
// kBuWords words of rows from w0 (vis: their visited words), the words'
// out_queue and visited written with the rows it found, and the rows that
// missed with more entries queued on q, in row order. Its writes repeat
// BottomUpWords's: a kQueue branch in BottomUpWords itself changed the
// register allocation and instruction order of every bottom-up instance
// (cuobjdump -sass), and so did one helper for both (WordFound): every
// other level runs those instances as queue2-25 and the headline measured
// them, so the 8 lines stay in two copies.
//
// kLines 1 (pred_lines' lines level; ours): every row of a sector of pred
// that okg marks (no row of it visited before the level but the skip
// rows, PredSectors) is written, so that
// the sector goes back to DRAM whole instead of read first to merge a
// part: a row found, its parent; any other, its first entry (a leaf's
// pred is its one neighbour, that entry; an isolated row's is never
// read; a row still unvisited gets its pred when a later level finds it,
// and the level after, if a row of it hits at that entry, need not write
// it: BottomUpWords, CompactRows).
// okg: bit 8j + s for sector s of word j (the chunk's PredSectors, from
// shared memory). The first entries are loaded for every row of a word
// with an open row (the same load instruction a word, so no request more).
template <int kFirst, int kLines = 0>
__device__ __forceinline__ void QueueWords(const uint32_t* __restrict__ bu_off, const uint32_t* __restrict__ bu_adj,
                                           const uint32_t* __restrict__ first, const uint8_t* __restrict__ deg,
                                           const uint32_t* __restrict__ in_queue, uint32_t* visited,
                                           uint32_t* out_queue, uint32_t* pred, int lane, int64_t w0,
                                           int64_t row_words, const uint32_t (&vis)[kBuWords], RowQueue& q,
                                           unsigned long long& found, unsigned long long& degrees,
                                           unsigned long long& edges, uint32_t okg = 0) {
  static_assert(kFirst != kFirstDegree, "bu_queue is the offsets' instance (LazyOffsets is not queued)");
  uint32_t beg[kBuWords], end[kBuWords], parent[kBuWords], rows[kBuWords];
  bool hit[kBuWords], open[kBuWords], want[kBuWords];
  WordRows(w0, lane, vis, rows, open);
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) want[j] = kLines == 1 && vis[j] != kFull;
  FirstEntries<kFirst, kLines == 1>(bu_off, bu_adj, first, deg, rows, open, beg, end, parent, want);
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) {
    hit[j] = beg[j] < end[j] && InQueue(in_queue, parent[j]);
    edges += beg[j] < end[j];
  }
#pragma unroll
  for (int j = 0; j < kBuWords; ++j) {
    if (vis[j] == kFull) {  // every vertex of the word visited (or isolated)
      if (lane == 0 && w0 + j < row_words) out_queue[w0 + j] = 0;
      continue;
    }
    const unsigned hits = __ballot_sync(kFull, hit[j]);
    // kLines 1: the row's sector holds no row visited before the level but skip's
    const bool line = kLines == 1 && ((okg >> (8 * j + (lane >> 3))) & 1u);
    if (hit[j] || line) pred[rows[j]] = parent[j];
    if (hit[j]) {
      found += 1;
      degrees += end[j] - beg[j];
    }
    if (lane == 0) {
      out_queue[w0 + j] = hits;
      visited[w0 + j] = vis[j] | hits;
    }
    const bool more = !hit[j] && end[j] - beg[j] > 1;
    const unsigned m = __ballot_sync(kFull, more);
    if (more) {
      const uint32_t at = q.n + (uint32_t)__popc(m & ((1u << lane) - 1u));
      q.v[at] = rows[j];
      q.beg[at] = beg[j];
      q.end[at] = end[j];
    }
    q.n += (uint32_t)__popc(m);
  }
}

// QueueScan scans the rows queued on q (bu_queue), kBuWords rows a lane at
// once (BatchScan with the lanes' `serial` entries, then ScanRest: the
// warp's help), each from its second entry, and ORs the rows it finds
// into visited and out_queue; it leaves q empty.
template <bool kWarpAssist, int kBatch>
__device__ __forceinline__ void QueueScan(const uint32_t* __restrict__ bu_adj, const uint32_t* __restrict__ in_queue,
                                          uint32_t* visited, uint32_t* out_queue, uint32_t* pred, uint32_t serial,
                                          int lane, RowQueue& q, unsigned long long& found,
                                          unsigned long long& degrees, unsigned long long& edges) {
  __syncwarp();  // the queue's rows and the words' plain stores, before they are read and ORed
  for (uint32_t r0 = 0; r0 < q.n; r0 += 32 * kBuWords) {
    uint32_t v[kBuWords], beg[kBuWords], end[kBuWords], parent[kBuWords], bs[kBuWords];
    bool hit[kBuWords];
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
      const uint32_t r = r0 + j * 32 + lane;
      const bool in = r < q.n;
      v[j] = in ? q.v[r] : 0u;
      beg[j] = in ? q.beg[r] : 0u;
      end[j] = in ? q.end[r] : 0u;
      bs[j] = beg[j] + (beg[j] < end[j]);  // the first entry was checked
      hit[j] = false;
      parent[j] = 0;
    }
    if (kBatch > 1) BatchScan<kBatch, kWarpAssist>(bu_adj, in_queue, beg, end, serial, bs, hit, parent, edges);
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
      ScanRest<kWarpAssist, kBatch>(bu_adj, in_queue, lane, serial, beg[j], bs[j], end[j], hit[j], parent[j], edges);
      if (hit[j]) {
        pred[v[j]] = parent[j];
        found += 1;
        degrees += end[j] - beg[j];
        atomicOr(&visited[v[j] >> 5], 1u << (v[j] & 31));
        atomicOr(&out_queue[v[j] >> 5], 1u << (v[j] & 31));
      }
    }
  }
  __syncwarp();  // every lane has read the queue before it is refilled
  q.n = 0;
}

// BottomUpKernel is the CSC exploration: a warp per word of visited, a
// lane per vertex, kBuWords words a warp at a time (grid-stride). Step 1,
// for the kBuWords words together: each unvisited vertex reads its CSC
// range and its first entry and tests that entry's in_queue bit (with the
// lists ordered by degree most vertices of a large level stop here). Step
// 2, word by word: the rest of the lists that did not hit, the lane alone
// for `serial` entries and then, with kWarpAssist, the whole warp kBatch·32
// entries a step (WarpAssist), stopping at the first hit.
//
// kFirstDense (bu_first; ours, not in [1]): step 1 reads the first entry from
// the dense array `first` instead of the list. Lanes of a warp hold 32
// consecutive rows, so their first entries are one 128-byte load where
// the lists' first entries are 32 separate 32-byte sectors (the lists of
// 32 rows span a few KB): the check that ends most rows of a large level
// moves 8 bytes a row (offsets and first) instead of about 36, and its
// loads no longer wait for the offsets. The offsets are still read: a
// row that hits adds its degree to m_f (the switching rule), and one that
// misses scans the rest of its list from bu_off[v] + 1. Both streams are
// read once a level, with the streaming hint, so that they pass through
// L2 without evicting in_queue, which every check reads.
//
// kFirstDegree (bu_deg; ours): the check reads each row's degree byte (deg)
// instead of its offsets, 5 bytes a row instead of 8, and LazyOffsets
// reads the offsets only for a row that missed with more entries to scan
// or hit with a saturated byte. Only level bu_deg runs it (3 in the tuned
// preset): after a large level 2 nearly every unvisited row hits at its
// first check (level 3 at scale 25: one entry examined per row found),
// and the level streams first and the offsets for rows at a quarter of
// the density, touching nearly every sector of both. On a level whose
// rows mostly miss (level 2 after a small frontier) a row waits one
// round trip more for its offsets, and its warp with it: with the bytes
// on every level, level 3 was 9-10 % faster and level 2 9-18 % slower on
// an H200 at scale 25, and with both codes in one kernel, a branch on the
// frontier's size choosing, level 2 was still 5 % slower
// (results/diropt-1000). So the level picks the instance: the host, which
// enqueues a level's launches before its direction or frontier is known,
// knows its index.
//
// kFirstPacked (bu_deg_packed; ours, tuned on where a block has at most
// 2^26 columns): level bu_deg's check reads the first entry and the degree
// from one word a row (fdeg: the entry in the low kPackedBits bits, the
// degree, saturated at kPackedSat, above them) instead of first and the
// degree byte. At level 3 few of a word's rows are unvisited (about 5 %
// of rows at scale 25), so the byte and the entry were two sectors a row.
// Level 3 was 5 % faster (58 of 64 roots) on an H200 at scale 25
// (results/diropt-1000, packed-25).
//
// kBatch > 1 (bu_batch; ours): the lanes' own scans run as BatchScan, all
// kBuWords lists of a lane together, kBatch entries at a time, and the
// warp's help reads 64 entries a step (two a lane, both bits tested before
// the ballots) instead of 32. kBatch = 2 holds 64 registers a thread
// against 48 and made searches 3 % faster at scale 25 on an H200; 4 (85
// registers, 3 blocks of 256 threads an SM instead of 5) made them 11 %
// slower and was removed (results/diropt-1000).
//
// kSkip (bu_skip; ours): a warp takes 32 words at a time in one 128-byte
// load of visited, writes a zero out_queue word for each full one, and
// explores only the groups of kBuWords words with an unvisited row.
// Without it a warp waits for its kBuWords visited words before it knows
// there is nothing to do: on a late bottom-up level, whose rows are nearly
// all visited, about 60 such round trips a warp at scale 25 (0.07 ms for a
// level that read 20 K entries on an H200). BottomUpKernel is bounded to
// 64 registers (__launch_bounds__(1024, 1): any block size), which the
// chunk's state would otherwise take to 76 with bu_batch 2. A warp takes
// its chunks by grid stride: taken instead by the first warp free (an
// atomic a chunk, issued a chunk ahead; bu_take, de8bdfe), the bottom-up
// level 2s were no faster, level 3 5 % slower, on an H200 at scale 25
// (results/diropt-1000, take-25).
//
// kSplit (with kSkip; a split level's bottom-up side, dobfs/split.go):
// a row is explored where it is unvisited and either of degree at least D
// or marked in out_queue by the level's top-down side (a neighbour of the
// frontier of degree below D): the words of visited are loaded ORed with
// low & ~out_queue (low: the rows of degree below D). Each word's
// out_queue is then written as on any bottom-up level: its hits (the
// marked rows among them), or 0 (SplitBottomUpKernel).
//
// kLines (pred_lines; ours, with kSkip on 1×1): 1 on the lines level
// (bu_queue's, kQueue), which writes whole the sectors of pred that hold
// no row visited before it but skip's (PredSectors, QueueWords; such a
// level explores no chunk a lane a row, bu_compact, whose rows it would
// not write whole), 2 on the level after it, whose rows that hit at their
// first entry in those sectors write nothing (BottomUpWords, CompactRows)
// where `lines` says the level before was the lines level, bottom-up.
// A partial sector of pred is read from DRAM before it goes back; written
// whole, it is not. On an H200 level 3 after a bottom-up level 2 was 16 %
// faster (30 of 38 roots) at scale 25, the bottom-up level 2s 9 % faster
// at 26, and level 3 after a top-down or split level 2, where it skips
// nothing, 2-4 % slower: the kLines 2 instance spills (8 bytes of stack
// in a first build under nvcc 13) and loads a chunk's byte after its
// visited words
// (results/diropt-1000, "`reset_stamp` and `pred_lines`"). The split
// level 2 as a lines level too (split_lines, d16d16a: its words' first
// entries loaded for every row, the rows it skips written too, a compact
// chunk's sectors not whole) made the split level 2s 2 % slower (0 of 18
// faster) and level 3 after them no faster, on an H200 at scale 25
// (results/diropt-1000, splitlines-25): at the split roots nearly every
// chunk is compact, so it wrote no sector whole (degcut-lines-25); removed.
template <bool kWarpAssist, int kFirst, int kBatch, bool kSkip, bool kSplit = false, int kAssist = kBatch,
          bool kQueue = false, int kLines = 0>
__device__ __forceinline__ void BottomUp(const uint32_t* __restrict__ bu_off, const uint32_t* __restrict__ bu_adj,
                                         const uint32_t* __restrict__ first, const uint8_t* __restrict__ deg,
                                         const uint32_t* __restrict__ in_queue, uint32_t* visited,
                                         uint32_t* out_queue, uint32_t* pred, int64_t row_words, uint32_t serial,
                                         uint32_t compact, Counters* ctr, Counters* next,
                                         const uint32_t* __restrict__ low = nullptr,
                                         const uint32_t* __restrict__ skip = nullptr, uint8_t* lines_g = nullptr,
                                         bool lines = false) {
  static_assert(!kSplit || kSkip, "the split level's bottom-up side is bu_skip's");
  static_assert(!kQueue || (kSkip && !kSplit), "bu_queue is bu_skip's plain bottom-up level");
  static_assert(kLines == 0 || (kSkip && !kSplit && (kLines == 2 || kQueue)), "pred_lines: bu_skip's plain levels");
  static_assert(kLines == 0 || kBuWords == 4, "pred_lines reads a group's four words' sector bytes as one 32-bit word");
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned long long found = 0, degrees = 0, edges = 0;
  uint32_t vis[kBuWords];
  RowQueue q{};
  if (kQueue) q = WarpQueue();
  if (kSkip) {
    // 32 words a warp: lane l loads word c0 + l, and a full word's
    // out_queue word is 0; only the groups of kBuWords words with an open
    // word (a clear bit) are explored. BottomUpWords writes the out_queue
    // words of the groups it explores, full ones too; the chunk writes the
    // others.
    for (int64_t c0 = warp * 32; c0 < row_words; c0 += warps * 32) {
      const bool in = c0 + lane < row_words;
      uint32_t mine = kFull;
      if (in) {
        mine = visited[c0 + lane];
        if (kSplit) mine |= __ldcs(&low[c0 + lane]) & ~out_queue[c0 + lane];
      }
      const unsigned open = __ballot_sync(kFull, mine != kFull);
      // pred_lines: each word's sectors of pred written whole, a byte a
      // word in shared memory (no register held across the chunk: in one,
      // the instance spilled). The lines level finds them (PredSectors)
      // and keeps them in lines_g for the level after, which reads them
      // there where the level before was the lines level (lines).
      if (kLines == 1 || (kLines == 2 && lines)) {
        uint8_t ok4 = 0;
        if (kLines == 1) {
          ok4 = (uint8_t)PredSectors(in ? mine & ~__ldg(&skip[c0 + lane]) : kFull);
          if (in) lines_g[c0 + lane] = ok4;
        } else if (in) {
          ok4 = lines_g[c0 + lane];
        }
        __syncwarp();  // the last chunk's reads
        LinesOk()[lane] = ok4;
        __syncwarp();
      }
      if (kLines != 1 && compact > 0 && open != 0) {
        // bu_compact: a chunk of at most `compact` unvisited rows is
        // explored a lane a row (CompactRows).
        const uint32_t cnt = (uint32_t)__popc(~mine);
        uint32_t incl = cnt;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          const uint32_t t = __shfl_up_sync(kFull, incl, d);
          if (lane >= d) incl += t;
        }
        const uint32_t total = __shfl_sync(kFull, incl, 31);
        if (total <= compact) {
          if (in) out_queue[c0 + lane] = 0;
          __syncwarp();
          CompactRows<kWarpAssist, kFirst, kBatch, kAssist, kLines>(bu_off, bu_adj, first, deg, in_queue, visited,
                                                                    out_queue, pred, serial, lane, c0, mine,
                                                                    incl - cnt, total, found, degrees, edges, lines);
          continue;
        }
      }
      const bool explored = ((open >> (lane & ~(kBuWords - 1))) & ((1u << kBuWords) - 1)) != 0;
      if (in && !explored) out_queue[c0 + lane] = 0;
#pragma unroll 1
      for (int g = 0; g < 32; g += kBuWords) {
        if (((open >> g) & ((1u << kBuWords) - 1)) == 0) continue;
#pragma unroll
        for (int j = 0; j < kBuWords; ++j) vis[j] = __shfl_sync(kFull, mine, g + j);
        const uint32_t okg =
            kLines == 1 || (kLines == 2 && lines) ? *reinterpret_cast<const uint32_t*>(LinesOk() + g) : 0u;
        if constexpr (kQueue) {
          QueueWords<kFirst, kLines>(bu_off, bu_adj, first, deg, in_queue, visited, out_queue, pred, lane, c0 + g,
                                     row_words, vis, q, found, degrees, edges, okg);
          if (q.n >= 32 * kBuWords) {
            QueueScan<kWarpAssist, kBatch>(bu_adj, in_queue, visited, out_queue, pred, serial, lane, q, found,
                                           degrees, edges);
          }
        } else {
          BottomUpWords<kWarpAssist, kFirst, kBatch, kSplit, kAssist, kLines>(
              bu_off, bu_adj, first, deg, in_queue, visited, out_queue, pred, serial, lane, c0 + g, row_words, vis,
              found, degrees, edges, okg);
        }
      }
    }
    if (kQueue) {
      QueueScan<kWarpAssist, kBatch>(bu_adj, in_queue, visited, out_queue, pred, serial, lane, q, found, degrees,
                                     edges);
    }
  } else {
    for (int64_t w0 = warp * kBuWords; w0 < row_words; w0 += warps * kBuWords) {
#pragma unroll
      for (int j = 0; j < kBuWords; ++j) vis[j] = w0 + j < row_words ? visited[w0 + j] : kFull;
      BottomUpWords<kWarpAssist, kFirst, kBatch>(bu_off, bu_adj, first, deg, in_queue, visited, out_queue, pred, serial,
                                                 lane, w0, row_words, vis, found, degrees, edges);
    }
  }
  AddCounts(ctr, next, found, degrees, edges);
}

// The exploration's arguments, for the kernels that run TopDown and
// BottomUp.
// LeafGroups are a 1×1 block's leaves (with `leaves`) grouped by their one
// neighbour: group k is neighbour w[k] (with kLeafNeighbour where it is a
// leaf too) and its leaves v[at[k]] .. v[at[k + 1] - 1]; n groups.
struct LeafGroups {
  const uint32_t *w, *at, *v;
  int64_t n;
};

// Fold is what BottomUpKernel needs to end a level of the 1×1 device loop
// itself (EndLevel): the state its decision writes, the ring it records
// the level in, the count of blocks finished, the spare queue (row_words
// words: a 1×1 block is square), the host's end flag (mapped pinned
// memory, set when the search ends: see dob_loop_sync) and the loop's
// parameters (the rule's, as DecideKernel takes them). SplitBottomUpKernel
// gets done alone (LaunchSplit): its grid barrier's two words (GridSync),
// after EndLevel's count, so that ExploreArgs stays the size every
// exploration kernel is given.
struct Fold {
  LoopState* next;
  LevelRec* ring;
  unsigned* done;
  uint32_t* spare;
  int* host_end;
  dob_loop_params lp;
  LeafGroups leaves;  // with `leaves` (LeafPass), else none (n = 0)
};

// EndState is a level's decision (defined with Rule, below).
__device__ LoopState EndState(LoopState st, long long found, long long found_mf, long long edges, LevelRec* ring,
                              bool lead, const dob_loop_params& lp);

struct ExploreArgs {
  const uint32_t *td_off, *td_adj, *bu_off, *bu_adj, *first;
  const uint8_t* deg;  // bu_deg: each row's degree byte, else nullptr
  // split: each vertex's tail in the CSC (its first entry of degree below
  // D) and the rows of degree below D (a bitmap), else nullptr
  const uint32_t *cut, *low;
  uint32_t *in_queue, *visited, *out_queue, *pred;
  const uint32_t* has_leaf;  // with leaves: the rows with a leaf neighbour (FrontierLeaves), else nullptr
  int64_t in_words, row_words;
  uint32_t serial;
  uint32_t td_lane;
  uint32_t compact;  // bu_compact (bu_skip only)
  BigQueue big;
  Counters *ctr, *next;
  Fold fold;  // the 1×1 device loop's end of a level (EndLevel; next nullptr: none)
  // pred_lines: the rows a reset marks visited (isolated, leaves), and a
  // byte a word of rows: the sectors of pred the lines level wrote whole
  // (PredSectors), which the level after reads.
  const uint32_t* skip = nullptr;
  uint8_t* lines = nullptr;
  uint32_t td_eager = 0;  // td_eager: the first levels whose top-down visits claim at once (Visits)
};

// Eager reports whether this device-loop level's top-down visits are
// td_eager's (Visits): one of the first td_eager levels.
__device__ __forceinline__ bool Eager(const ExploreArgs& a, const LoopState* gate) {
  return gate != nullptr && gate->level < (long long)a.td_eager;
}

// LeafPass is the leaves step (ours, not in [1]; dobfs/leaves.go says why
// a search may leave them out), after the last level: a leaf v is visited
// from the reset and its predecessor is its one neighbour w from
// dob_create (LeafBitsKernel; no search writes it), so all
// the pass must do is find which leaves the search did not reach, those
// whose w it did not reach (w's visited bit; a neighbour that is a leaf
// itself, kLeafNeighbour, is reached only as the root), and clear their
// visited bits, which dob_parents reads as unreached. With the leaves
// grouped by w, that is one test a group (a hub's leaves share one): the
// pass reads two words and a visited bit a group, and a group's leaves
// only where it was not reached (few: the components the root is not in).
// A thread takes kLeafBatch groups a round, their loads issued together.
// The leaves reached are counted into ctr->leaves, the root among them
// when it is a leaf (never cleared; dobfs/rank.go takes it out). Loading
// a group's bounds with its neighbour, not only where the test failed,
// measured faster: the end 0.024 -> 0.020 ms at scale 25 on an H200, as
// the failed groups' loads then wait for nothing (results/diropt-1000).
// kClear false (the
// measured floor, LeafKernel): the tests and the count only, as where
// every leaf is reached.
constexpr int kLeafBatch = 4;
template <bool kClear>
__device__ __forceinline__ void LeafPass(const LeafGroups& g, long long root, uint32_t* visited, Counters* ctr) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  unsigned long long found = 0;
  for (int64_t k0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k0 < g.n; k0 += kLeafBatch * stride) {
    uint32_t w[kLeafBatch], beg[kLeafBatch], end[kLeafBatch], vis[kLeafBatch];
#pragma unroll
    for (int j = 0; j < kLeafBatch; ++j) {
      const int64_t k = k0 + j * stride;
      const bool in = k < g.n;
      w[j] = in ? g.w[k] : kLeafNeighbour;
      beg[j] = in ? g.at[k] : 0;
      end[j] = in ? g.at[k + 1] : 0;
    }
#pragma unroll
    for (int j = 0; j < kLeafBatch; ++j) {  // only leaves' bits are cleared: w's word needs no coherence
      const uint32_t x = w[j] & ~kLeafNeighbour;
      vis[j] = (w[j] & kLeafNeighbour) ? (uint32_t)((long long)x == root) : visited[x >> 5] >> (x & 31);
    }
#pragma unroll
    for (int j = 0; j < kLeafBatch; ++j) {
      if (vis[j] & 1u) {
        found += end[j] - beg[j];
        continue;
      }
      if constexpr (kClear) {
        for (uint32_t e = beg[j]; e < end[j]; ++e) {
          const uint32_t v = g.v[e];
          if ((long long)v == root) {
            found += 1;  // the root, a leaf whose neighbour is a leaf too
          } else {
            atomicAnd(&visited[v >> 5], ~(1u << (v & 31)));
          }
        }
      }
    }
  }
  found = WarpSum(found);
  if ((threadIdx.x & 31) == 0 && found != 0) atomicAdd(&ctr->leaves, found);
}

// EndLevel ends a level of the 1×1 device loop at the end of
// BottomUpKernel (ours, not in [1]), which every level launches last.
// Where the level before was bottom-up, the grid first clears the spare
// queue (that level's in_queue, the next level's out_queue: see the
// rotation at the top). Then the block that finishes last, once every
// block's counts are in (each thread fences its own before its block
// counts itself done), decides the next level as DecideKernel does (EndState)
// and zeroes the count for the next launch. A level thereby saves
// DecideKernel's launch, which cost 4-8 µs a level on an H200 at scale 25
// (the `switch` of results/diropt-1000's level tables before it). When
// the level found nothing, the search has ended: that block also sets the
// host's end flag (pinned memory the host polls, dob_loop_sync), after a
// system-wide fence, so that the host learns the end without a copy.
// With leaves the search ends with their pass (LeafPass, every block),
// before the last block sets the flag, so the search's time includes it.
// Where the last level is top-down (last: its TopDownKernel found
// nothing and queued no list, which every block of this launch reads
// once that kernel has ended, BottomUpKernel), the pass runs in that
// level's own launch, timed apart on the device (leaf_ns); after a
// bottom-up level, whose blocks cannot know that the level found nothing
// until the last of them ends, the level leaves the leaves pending and
// the next launch runs the pass. With the end's event on an idle stream
// (WaitEnd) the end took 0.014 ms instead of 0.023 at scale 25 on an
// H200 (results/diropt-1000).
__device__ __forceinline__ unsigned long long GlobalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ void EndLevel(const ExploreArgs& a, const LoopState* gate, bool last_td) {
  const Fold& f = a.fold;
  const bool leaf = (gate->done && gate->leaf_pending) || last_td;
  if (leaf) {
    LeafPass<true>(f.leaves, gate->root, a.visited, a.ctr);
    if (!last_td && gate->prev_dir != 0) {  // the last level's frontier (in_queue kept whole) is now the spare
      const int64_t stride = (int64_t)gridDim.x * blockDim.x;
      uint32_t any = 0;
      for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < a.row_words; w += stride) {
        any |= f.spare[w] & __ldg(&a.has_leaf[w]);
      }
      if (__any_sync(kFull, any != 0) && (threadIdx.x & 31) == 0) a.ctr->leafy = 1;
    }
  } else if (!gate->done && gate->prev_dir != 0) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < a.row_words; w += stride) f.spare[w] = 0;
  }
  // The block's counts (and clearing) before it counts itself done: the
  // barrier orders them before thread 0's fence, which makes them visible
  // to the grid with its own (cumulative: cooperative groups' grid sync
  // does the same), one fence a block instead of one a thread.
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(f.done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last || threadIdx.x != 0) return;
  __threadfence();
  *f.done = 0;
  const volatile Counters* c = a.ctr;
  LoopState st = EndState(*gate, (long long)c->found, (long long)c->degrees, (long long)c->edges, f.ring, true, f.lp);
  bool end = st.done && !gate->done;  // this level found nothing
  if (last_td) {
    st.leaf_pending = 0;
    st.leaves = (long long)c->leaves;
    st.deep = c->leafy != 0;  // the level's frontier had a leaf neighbour
    st.leaf_ns = (long long)(GlobalTimer() - *(volatile unsigned long long*)&f.next->leaf_ns);
  } else if (end && f.leaves.n > 0) {
    st.leaf_pending = 1;
    st.deep = gate->dir == 0 && c->leafy != 0;  // a top-down level counted its frontier's leaf neighbours
    end = false;
  } else if (leaf) {
    st.leaf_pending = 0;
    st.leaves = (long long)c->leaves;
    st.deep = gate->deep || c->leafy != 0;
    end = true;
  }
  // The decision's stamp (dev_clock; written on every level, one store):
  // a level that ran (not one enqueued past the end) has its record. The
  // search's end (gated 3: its time ends here, the parent array complete
  // in device memory, every block's writes before this block's count).
  const long long now = (long long)GlobalTimer();
  if (!gate->done) f.ring[gate->level % kLoopSlots].stamp = now;
  if (end) st.end_ns = now;
  *f.next = st;
  if (end && f.host_end != nullptr) {
    __threadfence_system();
    *(volatile int*)f.host_end = 1;
  }
}

// TopDownKernel and BottomUpKernel run a level in the direction the host
// chose (gate nullptr: the host loop), or, in the device loop, are both
// launched and return at once unless the device chose theirs (gate: the
// loop state). One kernel branching on the direction would save a launch
// a level, but holds the registers of both: on an H200 at scale 25 its
// bottom-up levels took 20-40 % longer.
//
// kLane: td_lane > 0 (TopDownLanes, with kBatch = td_batch).
//
// Level 0 of the 1×1 device loop (gate->root: the root's row, which is
// its column) has the root alone in in_queue: TopDownLanes reads only the
// span of words that holds its bit, from the first warp, not all of it.
// Nsight Compute, its caches flushed, timed the scan's launch at 7-11 µs
// against 5 for a level of a few vertices on an H200 at scale 25; in a
// search, its caches warm, level 0 took the same time either way
// (results/diropt-1000).
//
// On a split level (gate->dir kSplitDir, 1×1 with td_lane only: dob_create) it
// runs the level's top-down side: the frontier's tails (TopDownLanes).
template <bool kLane, int kBatch>
__global__ void TopDownKernel(ExploreArgs a, const LoopState* gate) {
  PdlStart();
  const bool split = kLane && SplitLevel(gate);
  if (!split && Skip(gate, 0)) return;
  if (kLane) {
    int64_t lo = 0, hi = a.in_words;
    if (gate != nullptr && gate->level == 0 && gate->root >= 0) {
      constexpr int64_t span = 32 * kTdWords;
      lo = (gate->root >> 5) / span * span;
      hi = min(hi, lo + span);
    }
    TopDownLanes<kBatch>(split ? a.cut : a.td_off, split ? a.bu_off : a.td_off, split ? a.bu_adj : a.td_adj,
                         a.bu_off, a.in_queue, lo, hi, a.visited, a.out_queue, a.pred, a.big, a.td_lane, a.has_leaf,
                         a.ctr, a.next, split, Eager(a, gate));
  } else {
    TopDown(a.td_off, a.td_adj, a.bu_off, a.in_queue, a.in_words, a.visited, a.out_queue, a.pred, a.big,
            a.has_leaf, a.ctr, a.next);
  }
}

// On a top-down level of the device loop (gate: the level is not done and
// its direction is top-down) BottomUpKernel is where the lists that
// TopDownKernel queued on the BigQueue (td_big) are expanded, by
// bfsb::HugeExpand, the body of bfsb::HugeKernel: the launch that would
// otherwise return at once does that level's second step, and no level
// pays for a launch of bfsb::HugeKernel (about 4 µs a level on an H200 at
// scale 25, results/diropt-1000). The host loop (gate nullptr) launches
// bfsb::HugeKernel after TopDownKernel instead.
//
// On a 1×1 grid it also ends the level (EndLevel), every level, since it
// is the level's last launch; a split level's too, whose work
// SplitBottomUpKernel did before it.
//
// kLines (pred_lines, 1×1): 1 the lines level's instance (bu_queue's), 2
// the level after's, which skips its writes only where the level before
// was bottom-up (LoopState::prev_dir 1: the lines level's instance ran;
// BottomUp).
template <bool kWarpAssist, int kFirst, int kBatch, bool kSkip, bool kQueue = false, int kLines = 0>
__global__ void __launch_bounds__(1024, 1) BottomUpKernel(ExploreArgs a, const LoopState* gate) {
  PdlStart();
  bool last_td = false;  // 1×1 with leaves: this top-down level found nothing (EndLevel)
  if (gate != nullptr && !Skip(gate, 0)) {
    if (a.fold.next != nullptr && a.fold.leaves.n > 0) {
      const volatile Counters* c = a.ctr;  // TopDownKernel's, complete (PdlStart)
      last_td = c->found == 0 && c->nbig == 0;
      if (last_td && blockIdx.x == 0 && threadIdx.x == 0) {
        a.fold.next->leaf_ns = (long long)GlobalTimer();  // the pass's start, for EndLevel's last block
      }
    }
    if (!last_td && a.big.lists != nullptr) {
      __shared__ bfsb::HugeList<uint32_t> cur;
      bfsb::HugeExpand(a.big, a.td_adj, BigVisit{a.visited, a.out_queue, a.pred, a.bu_off, a.ctr, Eager(a, gate)},
                       (int)blockDim.x,
                       cur);
    }
  } else if (!Skip(gate, 1)) {
    BottomUp<kWarpAssist, kFirst, kBatch, kSkip, false, kBatch, kQueue, kLines>(
        a.bu_off, a.bu_adj, a.first, a.deg, a.in_queue, a.visited, a.out_queue, a.pred, a.row_words, a.serial,
        a.compact, a.ctr, a.next, nullptr, a.skip, a.lines,
        kLines == 1 || (kLines == 2 && gate != nullptr && gate->prev_dir == 1));
  }
  if (a.fold.next != nullptr) EndLevel(a, gate, last_td);
}

// GridSync is a grid barrier for a kernel whose grid is resident at once
// (SplitBottomUpKernel: LaunchSplit's grid, capped at what the GPU holds
// of it): every block's writes before it are visible to every block after
// it. bar[0] counts the blocks arrived, bar[1] is the generation, which
// the last to arrive moves on after zeroing the count; the others wait
// for it. Under PDL a kernel's dependent launches are scheduled only once
// every block of it has started, so no block of the next launch takes a
// place a block of this grid waits for.
__device__ __forceinline__ void GridSync(unsigned* bar) {
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile unsigned* vb = bar;
    const unsigned gen = vb[1];  // read before arriving: the last block moves it on only after
    __threadfence();             // the block's writes (the barrier above), cumulative
    if (atomicAdd(&bar[0], 1u) == gridDim.x - 1) {
      vb[0] = 0;
      __threadfence();
      vb[1] = gen + 1;
    } else {
      while (vb[1] == gen) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

// SplitBottomUpKernel (split: launched at level 2 of the 1×1 device loop,
// between TopDownKernel and BottomUpKernel) runs a split level after its
// top-down side (TopDownKernel, which marks the tails it reads and queues
// the long ones on the BigQueue, td_big): the queued tails' marks over
// the whole grid (bfsb::HugeExpand with MarkVisit), then, behind a grid
// barrier (GridSync, only where a tail was queued), the level's bottom-up
// side (BottomUp with kSplit, bu_first's first entries and bu_skip's
// chunks). On any other level it returns at once, and BottomUpKernel,
// launched after it, explores the level and ends it, as it ends a split
// level. The marks were a kernel of their own before (SplitMarkKernel),
// a third launch at level 2 of every search, split or not. (ours)
//
// A kernel of its own, so that a level 2 that is not split runs
// the plain bottom-up instance's code: when one instance ran both (a
// branch on `low` on the plain path; f963f43), the bottom-up level 2s
// outside the split's window were 4.5 % slower on an H200 (0 of 38
// faster at scale 25; results/diropt-1000, Headline). It costs a launch
// at level 2 in every search (PDL: its blocks wait on the GPU), which
// measured nothing: against f963f43 the bottom-up level 2s were 34 of 36
// faster and the split ones the same (launch-ab-25). kAssist (split_help;
// ours): the warp's help, kAssist·32 entries a step, where the lanes' own
// scan loads kBatch entries at once: 1 with bu_batch 2 (split_help 32,
// tuned): at the small frontiers, where this side is request-bound, the
// 64-entry steps load twice the entries the scans need, and steps of 32
// 12-18 % fewer; on an H200 at scale 25 the split level 2s of the
// window were faster, 16 of 18 (results/diropt-1000, help-25).
template <bool kWarpAssist, int kBatch, int kAssist = kBatch>
__global__ void __launch_bounds__(1024, 1) SplitBottomUpKernel(ExploreArgs a, const LoopState* gate) {
  PdlStart();
  if (!SplitLevel(gate)) return;
  // TopDownKernel's queue is complete (PdlStart), and every block reads
  // the same count: the barrier is the whole grid's or none's.
  if (a.big.lists != nullptr && (*a.big.ctl & ((1ull << bfsb::kHugeChunkBits) - 1)) != 0) {
    __shared__ bfsb::HugeList<uint32_t> cur;
    bfsb::HugeExpand(a.big, a.bu_adj, MarkVisit{a.out_queue}, (int)blockDim.x, cur);
    GridSync(a.fold.done);
  }
  BottomUp<kWarpAssist, kFirstDense, kBatch, true, true, kAssist>(a.bu_off, a.bu_adj, a.first, a.deg, a.in_queue,
                                                                  a.visited, a.out_queue, a.pred, a.row_words,
                                                                  a.serial, a.compact, a.ctr, a.next, a.low);
}

// LeafBitsKernel, with leaves at dob_create, sets each leaf's bit in skip
// (isolated with the leaves: what a reset marks visited), its neighbour's
// in has_leaf (FrontierLeaves), and its predecessor: its neighbour, the
// parent of every search that reaches it (LeafPass). A thread a group.
__global__ void LeafBitsKernel(LeafGroups g, uint32_t* skip, uint32_t* has_leaf, uint32_t* pred) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < g.n; k += stride) {
    const uint32_t w = g.w[k] & ~kLeafNeighbour;
    atomicOr(&has_leaf[w >> 5], 1u << (w & 31));
    for (uint32_t e = g.at[k]; e < g.at[k + 1]; ++e) {
      const uint32_t v = g.v[e];
      atomicOr(&skip[v >> 5], 1u << (v & 31));
      pred[v] = w;
    }
  }
}

// LeafKernel is the least work of LeafPass, for the measured floor
// (dob_floor; root -1): each group's words and its neighbour's visited
// bit read, nothing cleared (a search that reaches every leaf). (With
// root a constant here, nvcc 11.8's ptxas crashed under -lineinfo.)
__global__ void LeafKernel(LeafGroups g, long long root, uint32_t* visited, Counters* ctr) {
  LeafPass<false>(g, root, visited, ctr);
}

// FirstKernel fills first (bu_first) at dob_create: each row's first CSC
// entry, 0 for a row without neighbours (never read: it is visited), and
// with deg (bu_deg) its degree byte (kDegSaturated for that many or more),
// with fdeg (bu_deg_packed) the first entry and the degree in one word
// (kPackedBits).
__global__ void FirstKernel(const uint32_t* __restrict__ bu_off, const uint32_t* __restrict__ bu_adj, int64_t rows,
                            uint32_t* first, uint8_t* deg, uint32_t* fdeg) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; v < rows; v += stride) {
    const uint32_t b = bu_off[v], e = bu_off[v + 1];
    first[v] = b < e ? bu_adj[b] : 0u;
    if (deg != nullptr) deg[v] = (uint8_t)min(e - b, kDegSaturated);
    if (fdeg != nullptr) fdeg[v] = first[v] | min(e - b, kPackedSat) << kPackedBits;
  }
}

// CutKernel fills, with split at dob_create, each row's tail (cut: the
// first entry of its CSC list, ordered by decreasing neighbour degree,
// whose degree is below d; a binary search over the list) and low (the
// rows of degree below d: those the split level finds top-down). A
// thread a row, rows rounded up to whole words (the rows past the last
// have no bit).
__global__ void CutKernel(const uint32_t* __restrict__ bu_off, const uint32_t* __restrict__ bu_adj, int64_t rows,
                          uint32_t d, uint32_t* cut, uint32_t* low) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t padded = (rows + 31) / 32 * 32;
  for (int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; v < padded; v += stride) {
    bool is_low = false;
    if (v < rows) {
      uint32_t lo = bu_off[v], hi = bu_off[v + 1];
      is_low = hi - lo < d;
      while (lo < hi) {  // the first entry of degree below d
        const uint32_t mid = lo + (hi - lo) / 2;
        const uint32_t u = bu_adj[mid];
        if (bu_off[u + 1] - bu_off[u] < d) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      cut[v] = lo;
    }
    const unsigned bits = __ballot_sync(kFull, is_low);
    if ((threadIdx.x & 31) == 0) low[v >> 5] = bits;
  }
}

// MergeKernel (2D, lines 17 and 23 of Algorithm 2): a thread per word.
// prefix == nullptr stands for an empty prefix (a one-column grid).
__global__ void MergeKernel(const uint32_t* __restrict__ out_queue, const uint32_t* __restrict__ prefix,
                            const uint32_t* __restrict__ uni, const uint32_t* __restrict__ bu_off,
                            uint32_t* level_assigned, uint32_t* all_assigned, uint32_t* visited,
                            int64_t row_words, Counters* ctr) {
  unsigned long long degrees = 0;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < row_words; w += stride) {
    const uint32_t la = prefix != nullptr ? out_queue[w] & ~prefix[w] : out_queue[w];
    level_assigned[w] = la;
    all_assigned[w] |= la;
    uint32_t u = uni[w];
    visited[w] |= u;
    for (; u != 0; u &= u - 1) {
      const uint32_t v = (uint32_t)(w * 32 + __ffs(u) - 1);
      degrees += bu_off[v + 1] - bu_off[v];
    }
  }
  AddCounts(ctr, nullptr, 0, degrees, 0);
}

// LoopInit is the start of a search's device loop: the state st and
// dob_loop_begin's parameters (the direction before level 0's rule, this
// rank's share of level 0's m_f, 1×1: the root's degree, and the rule's
// inputs). StartState (defined with Rule, below) writes it to st, and with
// `start` (1×1, whose share is the sum) also chooses level 0's direction.
struct LoopInit {
  LoopState* st;
  dob_loop_params lp;
};
__device__ void StartState(const LoopInit& in, bool start);

// ResetKernel is a search's reset (Algorithm 2 lines 1-5) in one launch:
// visited <- skip (the isolated rows, with leaves the leaves too),
// in_queue and out_queue <- 0 (with the root's bits), the all-assigned
// rows (2D), both counter sets and (1×1) the spare queue <- 0, the root's
// parent (2D: and its pred; on 1×1 ParentsKernel gives the root itself,
// so that no search writes a leaf's pred), and (1×1: init.st) the loop's
// start, InitLoopKernel's work (and the root's row in the loop state, for
// LeafPass).
// (EndLevel's count of blocks finished needs no reset: every
// BottomUpKernel of the device loop leaves it at 0, its last block
// zeroing it.)
// It replaces a copy, four memsets, ResetRootKernel and (1×1)
// InitLoopKernel. A search's first host calls come right after the CPU
// validation of the previous one, and each runtime call then takes 3-36 µs
// of host time (medians; the copy 36, the event record 24; 105 µs for the
// reset's calls in all, on an H200 host: results/diropt-reset), while the
// GPU waits for level 0. One launch saved 40-50 µs a search.
__global__ void ResetKernel(int64_t row_words, int64_t q_words, const uint32_t* __restrict__ skip,
                            uint32_t* visited, uint32_t* in_queue, uint32_t* out_queue, uint32_t* spare,
                            uint32_t* all_assigned, unsigned long long* ctr, int ctr_words, int64_t root_row,
                            int64_t root_col, int64_t root_own, int64_t root_global, uint32_t* pred, int64_t* parents,
                            LoopInit init, const GateRoot* gated, uint32_t seq, const uint32_t* __restrict__ bu_off) {
  PdlStart();
  // The reset's first instruction on the device's clock, from which
  // dev_clock 2 (reset_stamp) times level 0 (LoopState::start_ns).
  const long long start_ns = blockIdx.x == 0 && threadIdx.x == 0 ? (long long)GlobalTimer() : 0;
  if (gated != nullptr) {  // a gated start: the root GateKernel copied, read once a block
    __shared__ long long root[4];
    __shared__ int state;  // LoopState::gate
    if (threadIdx.x == 0) {
      const GateRoot* g = gated;
      root[0] = g->row;
      root[1] = g->col;
      root[2] = g->own;
      root[3] = g->global;
      state = g->seq != seq ? 2 : g->cancel != 0 ? 1 : 0;  // the host wrote seq after the root
    }
    __syncthreads();
    if (state != 0) {
      if (blockIdx.x == 0 && threadIdx.x == 0) {
        StartState(init, false);
        init.st->done = 1;  // every queued launch returns at once
        init.st->gate = state;
      }
      return;
    }
    root_row = root[0];
    root_col = root[1];
    root_own = root[2];
    root_global = root[3];
    if (blockIdx.x == 0 && threadIdx.x == 0 && root_row >= 0) {  // level 0's m_f: the root's degree
      init.lp.mf = (int64_t)(bu_off[root_row + 1] - bu_off[root_row]);
    }
  }
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (int64_t w = t; w < q_words; w += stride) {
    in_queue[w] = root_col >= 0 && w == (root_col >> 5) ? 1u << (root_col & 31) : 0u;
    out_queue[w] = 0;
    if (spare != nullptr) spare[w] = 0;
    if (w < row_words) {
      uint32_t v = skip[w];
      if (root_row >= 0 && w == (root_row >> 5)) v |= 1u << (root_row & 31);
      visited[w] = v;
      if (all_assigned != nullptr) all_assigned[w] = 0;
    }
  }
  if (t < ctr_words) ctr[t] = 0;
  if (t == 0) {
    if (root_row >= 0 && pred != nullptr) pred[root_row] = (uint32_t)root_row;
    if (root_own >= 0) parents[root_own] = root_global;
    if (init.st != nullptr) {
      StartState(init, true);
      init.st->root = root_row;
      init.st->start_ns = start_ns;
      if (gated != nullptr) init.st->gate_ns = gated->open_ns;
    }
  }
}

// GateKernel is a gated start's gate (dob_loop_arm): one thread polls the
// pinned word that dob_reset sets, then copies the root into device
// memory (root) for ResetKernel, which is scheduled behind it
// (programmatic dependent launch: its blocks wait on the GPU for this
// kernel's end, not for a launch).
__global__ void GateKernel(const GateRoot* gate, GateRoot* root, uint32_t seq) {
  PdlLaunchDependents();
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const volatile GateRoot* g = gate;
  while (g->gate != seq) __nanosleep(256);
  GateRoot r{};
  r.open_ns = (long long)GlobalTimer();
  r.gate = seq;
  r.seq = g->seq;
  r.cancel = g->cancel;
  r.row = g->row;
  r.col = g->col;
  r.own = g->own;
  r.global = g->global;
  *root = r;
}

// ResetRootKernel is Algorithm 2 lines 3-5: the root's bits and parent.
__global__ void ResetRootKernel(int64_t root_row, int64_t root_col, int64_t root_own, int64_t root_global,
                                uint32_t* visited, uint32_t* in_queue, uint32_t* pred, int64_t* parents) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  if (root_row >= 0) {
    visited[root_row >> 5] |= 1u << (root_row & 31);
    pred[root_row] = (uint32_t)root_row;
  }
  if (root_col >= 0) in_queue[root_col >> 5] |= 1u << (root_col & 31);
  if (root_own >= 0) parents[root_own] = root_global;
}

// ScatterParentsKernel is WritePred on the owner: parents[o] = p for each
// (o, p) pair.
__global__ void ScatterParentsKernel(const int64_t* __restrict__ pairs, int64_t npairs, int64_t own_len,
                                     int64_t* parents, unsigned long long* bad) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < npairs; k += stride) {
    const int64_t o = pairs[2 * k];
    if (o < 0 || o >= own_len) {
      atomicAdd(bad, 1ull);
      continue;
    }
    parents[o] = pairs[2 * k + 1];
  }
}

// ParentsKernel (1×1) makes the int64 parents from pred and visited: the
// root is its own parent (no search writes its pred: a root that is a
// leaf keeps its neighbour there for the next search), and another
// visited vertex that is not isolated has pred as parent.
__global__ void ParentsKernel(const uint32_t* __restrict__ pred, const uint32_t* __restrict__ visited,
                              const uint32_t* __restrict__ isolated, int64_t n, int64_t root, int64_t* parents) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    const uint32_t m = 1u << (v & 31);
    const bool reached = (visited[v >> 5] & m) && !(isolated[v >> 5] & m);
    parents[v] = v == root ? root : reached ? (int64_t)pred[v] : -1;
  }
}

// The device path of the 2D exchanges (dob_dev_*): small thread-per-word
// kernels around the NCCL operations the Go level loop enqueues on the
// same stream.

// RowScanKernel is Algorithm 2 lines 12-21 on the device path, after the
// row's allgather of the out_queues (row_gather: c blocks of words words,
// block k from P(i,k)): prefix = the OR of the blocks k < j (what the
// seed's chain hands P(i,j)), uni = the OR of them all (what line 21
// broadcasts).
__global__ void RowScanKernel(const uint32_t* __restrict__ row_gather, int64_t c, int64_t j, int64_t words,
                              uint32_t* prefix, uint32_t* uni) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) {
    uint32_t pre = 0, all = 0;
    for (int64_t k = 0; k < c; ++k) {
      const uint32_t x = row_gather[k * words + w];
      if (k == j) pre = all;
      all |= x;
    }
    prefix[w] = pre;
    uni[w] = all;
  }
}

// GetBits returns the n <= 32 bits of src from bit off, in the low bits.
__device__ __forceinline__ uint32_t GetBits(const uint32_t* __restrict__ src, int64_t off, int n) {
  const int64_t w = off >> 5;
  const int s = (int)(off & 31);
  uint32_t x = src[w] >> s;
  if (s != 0 && 32 - s < n) x |= src[w + 1] << (32 - s);
  return n < 32 ? x & ((1u << n) - 1) : x;
}

// OwnBitsKernel is line 24's send side: own = bits [off, off+n) of uni
// (the own block's rows), counting them into ctr->found (this rank's share
// of the next n_f).
__global__ void OwnBitsKernel(const uint32_t* __restrict__ uni, int64_t off, int64_t n, uint32_t* own,
                              Counters* ctr) {
  unsigned long long found = 0;
  const int64_t words = (n + 31) / 32;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  // Every lane runs the same trip count, so AddCounts's shuffles see the
  // whole warp.
  for (int64_t w0 = (int64_t)blockIdx.x * blockDim.x; w0 < words; w0 += stride) {
    const int64_t w = w0 + threadIdx.x;
    if (w < words) {
      const uint32_t x = GetBits(uni, off + 32 * w, (int)(n - 32 * w < 32 ? n - 32 * w : 32));
      own[w] = x;
      found += __popc(x);
    }
  }
  AddCounts(ctr, nullptr, found, 0, 0);
}

// PlaceBitsKernel is line 24's receive side where B % 32 != 0: in_queue's
// word w takes its bits from the blocks of gather (r blocks of ⌈n/32⌉
// words, block r at bit offset r·n of in_queue).
__global__ void PlaceBitsKernel(const uint32_t* __restrict__ gather, int64_t n, int64_t r, uint32_t* in_queue,
                                int64_t in_words) {
  const int64_t bw = (n + 31) / 32, total = n * r;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < in_words; w += stride) {
    uint32_t x = 0;
    const int64_t end = 32 * w + 32 < total ? 32 * w + 32 : total;
    for (int64_t b = 32 * w; b < end;) {
      const int64_t blk = b / n, o = b - blk * n;
      const int64_t room = 32 * w + 32 - b;
      const int k = (int)(room < n - o ? room : n - o);
      x |= GetBits(gather + blk * bw, o, k) << (b - 32 * w);
      b += k;
    }
    in_queue[w] = x;
  }
}

// PackPredKernel is WritePred's send side: pred_send[v] = pred[v] for the
// assigned rows, kNone for the others.
__global__ void PackPredKernel(const uint32_t* __restrict__ assigned, const uint32_t* __restrict__ pred,
                               uint32_t* pred_send, int64_t rows) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; v < rows; v += stride) {
    pred_send[v] = (assigned[v >> 5] >> (v & 31)) & 1u ? pred[v] : kNone;
  }
}

// WritePredKernel is WritePred on the owner: block m of src (B entries
// from P(i,m), whose local column x is global vertex m·local_cols + x)
// gives parents[o] for the entries that are not kNone.
__global__ void WritePredKernel(const uint32_t* __restrict__ src, int64_t blocks, int64_t first, int64_t b,
                                int64_t own_len, int64_t local_cols, int64_t* parents) {
  const int64_t n = blocks * own_len;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += stride) {
    const int64_t m = t / own_len, o = t - m * own_len;
    const uint32_t x = src[m * b + o];
    if (x != kNone) parents[o] = (first + m) * local_cols + x;
  }
}

// BuildParentsKernel makes the own block's int64 parents after a search
// whose WritePred was deferred (dob_dev_write_pred, end): from the c
// blocks of pred_recv (grid_c > 1; block m from P(i,m), local column x is
// vertex m·local_cols + x), or, on a one-column grid, whose own block is
// its rows, from pred where visited and not isolated (as ParentsKernel on
// 1×1: every vertex found is found on its owner); -1 where no block
// assigned the vertex, and the root's own parent.
__global__ void BuildParentsKernel(const uint32_t* __restrict__ pred_recv, int64_t c, int64_t b,
                                   const uint32_t* __restrict__ pred, const uint32_t* __restrict__ visited,
                                   const uint32_t* __restrict__ isolated, int64_t own_len, int64_t local_cols,
                                   int64_t root_own, int64_t root_global, int64_t* parents) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < own_len; o += stride) {
    int64_t parent = -1;
    if (pred_recv != nullptr) {
      for (int64_t m = 0; m < c; ++m) {
        const uint32_t x = pred_recv[m * b + o];
        if (x != kNone) parent = m * local_cols + x;
      }
    } else {
      const uint32_t m = 1u << (o & 31);
      if ((visited[o >> 5] & m) && !(isolated[o >> 5] & m)) parent = pred[o];
    }
    if (o == root_own) parent = root_global;
    parents[o] = parent;
  }
}

// FloorKernel is the measured floor: the least work of a bottom-up search.
// Every vertex with a neighbour must be given its parent, which takes at
// least its CSC offsets and one list entry, and that entry's in_queue bit:
// this pass does exactly that for every vertex a reset leaves unvisited
// (those not in skip: not isolated and, with leaves, not a leaf), once, in
// the bottom-up kernel's mapping (warp per word of skip, lane per vertex,
// kBuWords words a warp at a time, words with no vertex to scan skipped),
// with no search, no atomics and no writes but one per warp. A search does
// this work at least once over its levels, so the pass bounds a search's
// time from below; with leaves, LeafKernel follows it (LeafPass, which
// every search runs once). kFirstDense (bu_first): the entry comes from the
// dense first array, as the search's first check reads it, so the floor
// follows the layout the search uses; with kFirstDegree (bu_deg) the row's
// degree byte instead of its offsets, as a row that hits at the first
// check of the level bu_deg names reads (its degree, for m_f), so that
// the least work is 5 bytes a row and the bit. A search with a split level
// (split) reads no first check for the rows of degree below D it skips
// there; the pass stays the one-pass model (results/diropt-1000).
template <int kFirst>
__global__ void FloorKernel(const uint32_t* __restrict__ bu_off, const uint32_t* __restrict__ bu_adj,
                            const uint32_t* __restrict__ first, const uint8_t* __restrict__ deg,
                            const uint32_t* __restrict__ in_queue,
                            const uint32_t* __restrict__ skip, int64_t row_words, unsigned long long* sink) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  uint32_t acc = 0;
  for (int64_t w0 = (((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5) * kBuWords; w0 < row_words;
       w0 += warps * kBuWords) {
    uint32_t iso[kBuWords], v[kBuWords], beg[kBuWords], end[kBuWords], u[kBuWords];
    bool open[kBuWords];
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) iso[j] = w0 + j < row_words ? skip[w0 + j] : kFull;
    WordRows(w0, lane, iso, v, open);
    FirstEntries<kFirst>(bu_off, bu_adj, first, deg, v, open, beg, end, u, open);
#pragma unroll
    for (int j = 0; j < kBuWords; ++j) {
      if (beg[j] < end[j]) acc += (uint32_t)InQueue(in_queue, u[j]) + (end[j] - beg[j]);
    }
  }
  acc = (uint32_t)WarpSum(acc);
  if (lane == 0 && acc == 0x9e3779b9u) atomicAdd(sink, 1ull);  // keeps the loads
}

// The device-resident level loop (dob_loop_*): the kernels that replace
// the host's per-level readback and decision.

// Rule is the switching rule of [Beamer] (§4) in the same
// double arithmetic as dobfs.Rank.decide, so that the device loop and the
// host loop choose alike: the direction after a level that went `was`,
// from the rule's inputs for the next one (mode 1: top-down only, 2:
// bottom-up only).
// kSplitLevel is the one level a search may run split (dobfs.SplitLevel).
constexpr int kSplitLevel = 2;

// Rule's split window is dobfs.Rank.splitLevel's: level kSplitLevel after
// a top-down level, m_u / split_from < m_f <= m_u / split_to (lp.split_from
// 0: no split).
__device__ __forceinline__ int Rule(int was, long long nf, long long prev_nf, long long mf, long long mu,
                                    const dob_loop_params& lp, long long level) {
  if (lp.mode == 1) return 0;
  if (lp.mode == 2) return 1;
  if (lp.split_from > 0 && level == kSplitLevel && was == 0 && (double)mf > (double)mu / lp.split_from &&
      (double)mf <= (double)mu / lp.split_to) {
    return kSplitDir;
  }
  if (was == 0) return ((double)mf > (double)mu / lp.alpha && nf > prev_nf) ? 1 : 0;
  return ((double)nf < (double)lp.n / lp.beta && nf < prev_nf) ? 0 : 1;
}

// EndState is the decision that ends a level of state st (DecideKernel,
// EndLevel): with lead it records the level in its ring slot; it moves
// the rule's inputs on (the host loop's bookkeeping in dobfs/rank.go:
// prev_nf <- n_f, n_f <- found, m_f <- found_mf, m_u -= m_f), stops the
// loop when the level found nothing, and otherwise chooses the next
// level's direction by Rule. A state past the end is carried on.
__device__ LoopState EndState(LoopState st, long long found, long long found_mf, long long edges, LevelRec* ring,
                              bool lead, const dob_loop_params& lp) {
  if (st.done) return st;
  if (lead) {
    LevelRec& r = ring[st.level % kLoopSlots];
    r.dir = st.dir;
    r.nf = st.nf;
    r.mf = st.mf;
    r.edges = edges;
  }
  st.prev_nf = st.nf;
  st.nf = found;
  st.mf = found_mf;
  st.mu -= found_mf;
  st.level++;
  st.done = found == 0;
  st.prev_dir = st.dir;
  if (!st.done) st.dir = Rule(st.dir, st.nf, st.prev_nf, st.mf, st.mu, lp, st.level);
  return st;
}

// StartState starts a search's loop state: level 0 with n_f = 1 and the
// direction before the rule; with start (a 1×1 grid, whose share of m_f
// is the sum) also StartLoopKernel's work, level 0's direction.
__device__ void StartState(const LoopInit& in, bool start) {
  LoopState* st = in.st;
  st->dir = (int)in.lp.dir;
  st->done = 0;
  st->nf = 1;
  st->prev_nf = 0;
  st->level = 0;
  st->prev_dir = 0;
  st->leaf_pending = 0;
  st->deep = 0;
  st->root = -1;
  st->leaves = 0;
  st->leaf_ns = 0;
  st->start_ns = 0;
  st->gate_ns = 0;
  st->end_ns = 0;
  st->gate = 0;
  if (start) {
    st->mf = in.lp.mf;
    st->mu = in.lp.edges - in.lp.mf;
    st->dir = Rule(st->dir, st->nf, st->prev_nf, st->mf, st->mu, in.lp, 0);
  }
}

// InitLoopKernel (2D) starts a search's loop state (StartState) and puts
// this rank's share of level 0's m_f (the root's degree in this block) in
// red[1], where the grid's allreduce sums it before StartLoopKernel. A
// 1×1 grid starts its loop in ResetKernel instead.
__global__ void InitLoopKernel(LoopInit in, long long* red) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  StartState(in, false);
  red[0] = red[2] = 0;
  red[1] = in.lp.mf;
}

// StartLoopKernel chooses level 0's direction from m_f = red[1] (the
// root's degree over the grid) and m_u = edges - m_f: on the device, so
// that the host waits for no count before the first level.
__global__ void StartLoopKernel(LoopState* st, const long long* red, dob_loop_params lp) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  st->mf = red[1];
  st->mu = lp.edges - red[1];
  st->dir = Rule(st->dir, st->nf, st->prev_nf, st->mf, st->mu, lp, 0);
}

// CountsKernel (2D) packs this rank's share of the level's counts for the
// allreduce: red = {n_f's share (the own block's new vertices, counted by
// OwnBitsKernel), m_f's share (MergeKernel), the exploration's entries
// read}, and zeroes the merge's counter set, which the next exploration
// counts into. Without a merge (from_explored: a one-column grid, whose
// union is out_queue and own block its rows) the exploration's own counts
// are those shares: every vertex it found is new on its owner, counted
// once with its CSC degree, as OwnBitsKernel and MergeKernel would count it.
__global__ void CountsKernel(const Counters* explored, Counters* merged, long long* red, int from_explored) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const Counters* shares = from_explored ? explored : merged;
  red[0] = (long long)shares->found;
  red[1] = (long long)shares->degrees;
  red[2] = (long long)explored->edges;
  merged->found = merged->degrees = merged->edges = merged->nbig = 0;
}

// DecideKernel ends a level of a 2D grid's device loop: the decision
// (EndState) from the allreduced counts red ({n_f, m_f, entries read}
// over the grid), in the same double arithmetic as Rank.decide so that
// both loops choose alike. (A 1×1 grid decides in BottomUpKernel's last
// block instead: EndLevel.)
//
// The state is double-buffered: the level read cur and its successor
// reads next, so that every block can compute the decision from cur while
// block 0 writes next. The blocks need it because a top-down level needs
// a clean out_queue (`out`), which on a 2D grid keeps the level's vertices
// for the merge, and the whole grid clears it here rather than in a
// launch of its own.
__global__ void DecideKernel(const LoopState* cur, LoopState* next, const long long* red, LevelRec* ring,
                             dob_loop_params lp, uint32_t* out, int64_t out_words) {
  const bool lead = threadIdx.x == 0 && blockIdx.x == 0;
  const LoopState st = EndState(*cur, red[0], red[1], red[2], ring, lead, lp);
  if (lead) *next = st;
  if (st.done || st.dir != 0) return;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < out_words; w += stride) out[w] = 0;
}

// ExploreKernel is the type of TopDownKernel and the BottomUpKernel and
// SplitBottomUpKernel instances.
using ExploreKernel = void (*)(ExploreArgs, const LoopState*);

// BuLevel is which bottom-up launch BottomUpFor picks the instance of:
// every level's (kPlain), level bu_deg's (kDeg), the split level's
// bottom-up side (kSplit) or level bu_queue's (kQueue).
enum class BuLevel { kPlain, kDeg, kSplit, kQueue };

// BottomUpFor is the BottomUpKernel instance of p's bottom-up parameters
// (bu_serial > 0: the warp's help; bu_first; bu_batch; bu_skip), nullptr for a
// bu_batch it was not built for; for kDeg, the instance that reads the
// degree bytes (bu_deg), built with bu_first and bu_skip only; for kSplit,
// the SplitBottomUpKernel instance (a split level's bottom-up side),
// likewise, with split_help 32 and bu_batch 2 its instance whose help
// steps are 32 entries; for kQueue, the instance that queues the missed
// rows (level bu_queue), built for bu_first, bu_skip, bu_batch 2 and the
// warp's help alone; for kDeg with bu_deg_packed, the instance
// that reads the first entry and the degree in one word (kFirstPacked),
// built for those four too. With pred_lines, kQueue's instance writes
// whole sectors of pred (kLines 1), and kDeg's packed one, where bu_deg is
// the level after bu_queue, skips the writes they make redundant (kLines
// 2); a bu_deg elsewhere keeps its instance (every write made).
ExploreKernel BottomUpFor(const dob_params& p, BuLevel level = BuLevel::kPlain) {
  const bool assist = p.bu_serial > 0, first = p.bu_first != 0, skip = p.bu_skip != 0;
  const bool deg = level == BuLevel::kDeg, split = level == BuLevel::kSplit;
  if (level == BuLevel::kQueue) {
    if (!first || !skip || !assist || p.bu_batch != 2) return nullptr;
    return p.pred_lines ? BottomUpKernel<true, kFirstDense, 2, true, true, 1> : BottomUpKernel<true, kFirstDense, 2, true, true>;
  }
  // The deg and split instances exist with bu_first and bu_skip only, one
  // per bu_batch (1, 2) and warp's help (without, with).
  const auto pick = [&](ExploreKernel b1, ExploreKernel b1a, ExploreKernel b2, ExploreKernel b2a) -> ExploreKernel {
    if (!first || !skip) return nullptr;
    switch (p.bu_batch) {
      case 1: return assist ? b1a : b1;
      case 2: return assist ? b2a : b2;
    }
    return nullptr;
  };
  if (split && p.split_help == 32) {
    return first && skip && assist && p.bu_batch == 2 ? SplitBottomUpKernel<true, 2, 1> : nullptr;
  }
  if (split) {
    return pick(SplitBottomUpKernel<false, 1>, SplitBottomUpKernel<true, 1>, SplitBottomUpKernel<false, 2>,
                SplitBottomUpKernel<true, 2>);
  }
  if (deg && p.bu_deg_packed != 0) {
    if (!first || !skip || !assist || p.bu_batch != 2) return nullptr;
    return p.pred_lines && p.bu_deg == p.bu_queue + 1 ? BottomUpKernel<true, kFirstPacked, 2, true, false, 2>
                                                      : BottomUpKernel<true, kFirstPacked, 2, true>;
  }
  if (deg) {
    return pick(BottomUpKernel<false, kFirstDegree, 1, true>, BottomUpKernel<true, kFirstDegree, 1, true>,
                BottomUpKernel<false, kFirstDegree, 2, true>, BottomUpKernel<true, kFirstDegree, 2, true>);
  }
  switch ((skip ? 16 : 0) + p.bu_batch * 4 + (assist ? 2 : 0) + (first ? 1 : 0)) {
    case 4: return BottomUpKernel<false, kFirstList, 1, false>;
    case 5: return BottomUpKernel<false, kFirstDense, 1, false>;
    case 6: return BottomUpKernel<true, kFirstList, 1, false>;
    case 7: return BottomUpKernel<true, kFirstDense, 1, false>;
    case 8: return BottomUpKernel<false, kFirstList, 2, false>;
    case 9: return BottomUpKernel<false, kFirstDense, 2, false>;
    case 10: return BottomUpKernel<true, kFirstList, 2, false>;
    case 11: return BottomUpKernel<true, kFirstDense, 2, false>;
    case 20: return BottomUpKernel<false, kFirstList, 1, true>;
    case 21: return BottomUpKernel<false, kFirstDense, 1, true>;
    case 22: return BottomUpKernel<true, kFirstList, 1, true>;
    case 23: return BottomUpKernel<true, kFirstDense, 1, true>;
    case 24: return BottomUpKernel<false, kFirstList, 2, true>;
    case 25: return BottomUpKernel<false, kFirstDense, 2, true>;
    case 26: return BottomUpKernel<true, kFirstList, 2, true>;
    case 27: return BottomUpKernel<true, kFirstDense, 2, true>;
  }
  return nullptr;
}

// TopDownFor is the TopDownKernel instance of p's top-down parameters
// (td_lane > 0: TopDownLanes, td_batch), nullptr for a td_batch it was
// not built for.
ExploreKernel TopDownFor(const dob_params& p) {
  if (p.td_lane == 0) return TopDownKernel<false, 1>;
  switch (p.td_batch) {
    case 1: return TopDownKernel<true, 1>;
    case 4: return TopDownKernel<true, 4>;
  }
  return nullptr;
}

struct Handle {
  dob_params p{};
  int sms = 0;
  int tpb = 256;
  int resident = 0;  // blocks of tpb threads that fit on the GPU at once
  ExploreKernel td_kernel = nullptr;  // the TopDownKernel instance of p (td_lane)
  ExploreKernel bu_kernel = nullptr;  // the BottomUpKernel instance of p (BottomUpFor)
  ExploreKernel deg_kernel = nullptr; // bu_deg: the instance level bu_deg launches instead (degree bytes)
  ExploreKernel split_kernel = nullptr; // split: the SplitBottomUpKernel instance level 2 launches too
  int bu_resident = 0;                // blocks of bu_kernel that fit on the GPU at once
  ExploreKernel queue_kernel = nullptr; // bu_queue: the instance level bu_queue launches instead (QueueWords)
  size_t queue_smem = 0;                // queue_kernel's dynamic shared memory: kQueueBytes a warp
  cudaStream_t s = nullptr;
  uint32_t *td_off = nullptr, *td_adj = nullptr, *bu_off = nullptr, *bu_adj = nullptr;
  uint32_t* first = nullptr;  // bu_first: each row's first CSC entry
  uint8_t* deg = nullptr;     // bu_deg: each row's degree byte
  uint32_t* fdeg = nullptr;   // bu_deg_packed (instead of deg): each row's first entry and degree (kPackedBits)
  uint32_t *cut = nullptr, *low = nullptr;  // split: each row's tail, the rows of degree below D
  uint32_t *isolated = nullptr, *visited = nullptr, *in_q = nullptr, *out_q = nullptr, *pred = nullptr;
  // With leaves (1×1): the leaves grouped by neighbour (LeafPass; its
  // device arrays are freed with the others), and skip, isolated with the
  // leaves' bits (what a reset marks visited; without leaves, isolated
  // itself).
  LeafGroups leaves{};
  uint32_t* skip = nullptr;
  uint8_t* lines = nullptr;  // pred_lines: a byte a word of rows (ExploreArgs::lines)
  uint32_t* has_leaf = nullptr;  // with leaves: the rows with a leaf neighbour (FrontierLeaves)
  uint32_t* spare_q = nullptr;     // 1×1: the third queue (EndLevel)
  // 1×1: visited and the three queues in one allocation (bits), and with
  // l2_window its access-policy window (SetL2Window; all of it the
  // persisting set-aside), which Launch gives each launch too.
  uint32_t* bits = nullptr;
  bool has_window = false;
  cudaAccessPolicyWindow window{};
  unsigned* fold_done = nullptr;   // 1×1: BottomUpKernel's blocks finished (EndLevel), then the split's barrier (Fold)
  uint32_t *level_assigned = nullptr, *all_assigned = nullptr, *prefix = nullptr, *uni = nullptr;
  bfsb::HugeList<uint32_t>* big = nullptr;  // td_big: the BigQueue's slots
  uint32_t* big_err = nullptr;               // its overflow flag (cannot be set: see big_cap)
  uint32_t* hbig_err = nullptr;              // pinned readback of big_err, with the parents
  int big_grid = 0;                          // bfsb::HugeKernel's blocks: as many as the GPU holds
  int64_t* parents = nullptr;
  int64_t* pairs = nullptr;
  // The device path of the 2D exchanges (device_exchange): own and gather
  // only where B % 32 != 0 (else views into uni and in_queue).
  uint32_t *own = nullptr, *gather = nullptr, *pred_send = nullptr, *pred_recv = nullptr;
  uint32_t* row_gather = nullptr;  // grid_c > 1: the row's out_queues
  Counters* ctr = nullptr;   // two sets
  Counters* hctr = nullptr;  // pinned readback
  // The device-resident level loop (dob_loop_*): its state (two, read and
  // written by alternate levels: LoopCur, LoopNext), the ring of
  // level records, the 2D counts the allreduce sums (red), their pinned
  // readbacks, the rule's parameters, the levels enqueued since the reset
  // when the host last synchronized (loop_synced) and the current level's
  // event slot.
  LoopState* loop = nullptr;
  LevelRec* ring = nullptr;
  long long* red = nullptr;
  LoopState* hloop = nullptr;
  LevelRec* hring = nullptr;
  dob_loop_params lp{};
  int loop_synced = 0;
  bool loop_started = false;  // dob_loop_start has run since dob_loop_begin
  bool merge_skipped = false;  // the level's dob_loop_merge had nothing to do
  int loop_slot = 0;
  int loop_level = 0;  // the level being enqueued
  unsigned long long* sink = nullptr;
  std::vector<void*> host;  // pinned host buffers (dob_host_alloc)
  // 0: search start, 1: search end, 2-3: floor; from kLoopEvent0,
  // kLoopEvents per loop slot (LoopEvent).
  bfsb::EventPool ev;
  int level = 0;            // levels since the reset (picks the counter set)
  bool out_clean = true;    // out_queue is all zero
  bool ended = false;       // the search's end event is recorded (dob_loop_sync)
  int end_slot = -1;        // 1×1 device loop: the loop slot of the search's last level, once known
  float end_leaf_ms = 0;    // 1×1: the leaves' pass run in the last level's launch (LoopState::leaf_ns)
  // dev_clock (1×1): the last reported level's decision stamp (ns), and
  // the reported levels' time, which dob_finish takes from the search's.
  long long last_stamp = 0;
  double levels_ms = 0;
  // The 2D device path's parents (device_exchange): the reset leaves them
  // (parents_dirty) until a per-level WritePred writes them (-1 first) or
  // dob_parents builds them all from what the end-of-search WritePred left
  // in pred_recv (parents_deferred).
  bool parents_dirty = false, parents_deferred = false;
  int64_t root_own = -1, root_global = -1;
  // 1×1: dob_reset records the start and leaves the reset to
  // dob_loop_begin, which launches it with the loop's start (LaunchReset,
  // one launch where two were); reset_pending until then, with the root.
  bool reset_pending = false;
  int64_t reset_row = -1, reset_col = -1;
  // 1×1: the search's end flag, pinned host memory mapped into the
  // device's address space (dend), which EndLevel sets and dob_loop_sync
  // polls.
  int* hend = nullptr;
  int* dend = nullptr;
  // gated (1×1): the start's stream (s waits behind the gate), the gate
  // and root (pinned, mapped: dgroot; droot, GateKernel's copy in device
  // memory), the last armed sequence number,
  // whether a start is queued behind the closed gate (armed) and how many
  // of its levels dob_loop_explore has still to take (prequeued).
  cudaStream_t s_start = nullptr;
  GateRoot* groot = nullptr;
  GateRoot* dgroot = nullptr;
  GateRoot* droot = nullptr;
  uint32_t gate_seq = 0;
  bool armed = false;
  int prequeued = 0;
  // loop_graph: the graph of dob_loop_arm's launches, kept from one arm
  // to the next (ArmGraph).
  cudaGraphExec_t arm_exec = nullptr;
  // gated 3 (dev_end): this search is timed by the device's clock (a
  // gated start: dob_reset opened the gate), from GateKernel's stamp
  // (gate_ns) to the end's (end_ns, EndLevel), both from the final loop
  // state (dob_loop_sync).
  bool dev_timed = false;
  long long gate_ns = 0, end_ns = 0;

  int64_t row_words() const { return (p.local_rows + 31) / 32; }
  int64_t col_words() const { return (p.local_cols + 31) / 32; }
  // At most td_nnz / td_big lists have td_big entries or more, and a level
  // queues each of them once at most.
  int64_t big_cap() const { return p.td_big > 0 ? BigQueue::Cap(p.td_nnz, p.td_big) : 0; }
  // Big is the current level's BigQueue (no slots, so Take queues nothing,
  // without td_big).
  BigQueue Big() const {
    BigQueue q{big, big_cap(), &Cur()->nbig, big_err, 1u};
    q.min_edges = p.td_big > 0 ? p.td_big : INT64_MAX;
    return q;
  }
  int64_t parents_len() const { return p.own_len > 0 ? p.own_len : 1; }
  int64_t own_words() const { return (p.block + 31) / 32; }
  // Aligned: vertex blocks start on word boundaries, so own is a run of
  // uni's words and the allgather can write in_queue itself.
  bool Aligned() const { return p.block % 32 == 0; }
  // The row union: on a one-column grid out_queue itself (no exchange).
  uint32_t* Union() const { return p.grid_c > 1 ? uni : out_q; }

  ~Handle() {
    cudaSetDevice((int)p.device);
    if (bits != nullptr) visited = in_q = out_q = spare_q = nullptr;  // views into bits
    if (has_window) {
      cudaStreamAttrValue none{};
      cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &none);
      cudaCtxResetPersistingL2Cache();
      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    }
    void* ptrs[] = {td_off, td_adj, first, deg, fdeg, cut, low, isolated, visited, in_q, out_q, spare_q, bits, fold_done, pred,
                    level_assigned, all_assigned, prefix, uni, big, big_err, parents, pairs, ctr, sink, pred_send,
                    pred_recv, row_gather, loop, red, droot};
    for (void* q : ptrs) {
      if (q != nullptr) cudaFree(q);
    }
    for (const void* q : {leaves.w, leaves.at, leaves.v}) {
      if (q != nullptr) cudaFree(const_cast<void*>(q));
    }
    if (has_leaf != nullptr) cudaFree(has_leaf);
    if (skip != nullptr && skip != isolated) cudaFree(skip);
    if (lines != nullptr) cudaFree(lines);
    if (!Aligned()) {
      if (own != nullptr) cudaFree(own);
      if (gather != nullptr) cudaFree(gather);
    }
    if (p.shared == 0 && bu_off != nullptr) cudaFree(bu_off);
    if (p.shared != 1 && bu_adj != nullptr) cudaFree(bu_adj);
    if (hctr != nullptr) cudaFreeHost(hctr);
    if (hbig_err != nullptr) cudaFreeHost(hbig_err);
    if (hloop != nullptr) cudaFreeHost(hloop);
    if (hend != nullptr) cudaFreeHost(hend);
    if (groot != nullptr) cudaFreeHost(groot);
    for (void* q : host) {
      if (q != nullptr) cudaFreeHost(q);
    }
    ev.Destroy();
    if (arm_exec != nullptr) cudaGraphExecDestroy(arm_exec);
    if (s != nullptr) cudaStreamDestroy(s);
    if (s_start != nullptr) cudaStreamDestroy(s_start);
  }

  // Grid of a warp-per-word kernel over nwords words: one warp per word up
  // to the resident grid, which then strides.
  // WarpGrid is the grid of a warp per unit of work (a word, or a group of
  // words), capped at what is resident at once (grid-stride beyond).
  int WarpGrid(int64_t nwords) const {
    const int64_t b = (nwords * 32 + tpb - 1) / tpb;
    return (int)std::max<int64_t>(1, std::min<int64_t>(b, resident));
  }
  // Grid of a thread-per-item kernel.
  int ThreadGrid(int64_t n) const {
    const int64_t b = (n + tpb - 1) / tpb;
    return (int)std::max<int64_t>(1, std::min<int64_t>(b, resident));
  }
  Counters* Cur() const { return ctr + (level & 1); }
  Counters* Next() const { return ctr + ((level + 1) & 1); }
  // LoopEvent is event k of the current loop slot: 0 the level's start, 1
  // its exploration's end, 2 the row exchange's and merge's end, 3 the
  // column exchange's end (with the counts' allreduce, which travels in
  // its NCCL group), 4 the decision's end (1×1: 4 only, the level's end,
  // its exploration ending with the decision).
  int LoopEvent(int k) const { return SlotEvent(loop_slot, k); }
  // SlotEvent is event k of loop slot `slot`.
  static int SlotEvent(int slot, int k) { return kLoopEvent0 + kLoopEvents * slot + k; }
  // SplitLaunch: with split, the level being enqueued is the one that may
  // run split (kSplitLevel; its direction is decided on the device later).
  bool SplitLaunch() const { return split_kernel != nullptr && level == kSplitLevel; }
  // The loop state the level being enqueued (loop_level) reads, and the
  // one its decision writes.
  LoopState* LoopCur() const { return loop + (loop_level & 1); }
  LoopState* LoopNext() const { return loop + ((loop_level + 1) & 1); }
  // The exploration's arguments for the current level.
  ExploreArgs Args() const {
    ExploreArgs a{td_off, td_adj, bu_off, bu_adj, first, deg, cut, low, in_q, visited, out_q, pred, has_leaf, col_words(),
                  row_words(), (uint32_t)p.bu_serial, (uint32_t)p.td_lane, (uint32_t)p.bu_compact, Big(), Cur(),
                  Next(), Fold{}, skip, lines};
    a.td_eager = (uint32_t)p.td_eager;
    return a;
  }
  static constexpr int kLoopEvent0 = 4, kLoopEvents = 5;
};

int64_t DeviceBytes(const dob_params* p) {
  int64_t b = 0;
  const int64_t rw = 4 * ((p->local_rows + 31) / 32), cw = 4 * ((p->local_cols + 31) / 32);
  b += 4 * (p->local_cols + 1) + 4 * p->td_nnz;  // CSR
  if (p->shared == 0) b += 4 * (p->local_rows + 1);              // CSC offsets
  if (p->shared != 1) b += 4 * p->bu_nnz;                        // CSC entries
  b += 3 * rw + cw;                                              // isolated, visited, out_queue; in_queue
  if (p->leaves > 0) b += 2 * rw + 12 * p->leaves + 4;           // skip, has_leaf, the leaves by neighbour
  if (p->single) b += std::max(rw, cw) + 12;                     // the spare queue, EndLevel's count, the split's barrier
  b += 32 * rw;                                                  // pred (whole words)
  if (p->bu_first) b += 32 * rw;                                 // first (whole words)
  if (p->bu_deg > 0) b += p->bu_deg_packed != 0 ? 4 * p->local_rows : p->local_rows;  // deg or fdeg
  if (p->split > 0) b += 4 * p->local_rows + rw;                 // cut, low
  if (p->pred_lines) b += rw / 4;                                // lines: a byte a word
  if (!p->single) b += 4 * rw;                                   // assigned x2, prefix, union
  if (!p->single && !p->device_exchange) b += 16 * p->own_len;   // pairs (host-path WritePred)
  if (!p->single && p->device_exchange) {
    b += 8 * p->local_rows;                                      // pred_send, pred_recv
    if (p->grid_c > 1) b += p->grid_c * rw;                      // row_gather
    if (p->block % 32 != 0) b += 4 * (p->grid_r + 1) * ((p->block + 31) / 32);  // own, gather
  }
  b += 8 * (p->own_len > 0 ? p->own_len : 1);                    // parents
  if (p->td_big > 0) b += sizeof(bfsb::HugeList<uint32_t>) * BigQueue::Cap(p->td_nnz, p->td_big);  // big
  b += 4;                                                          // big_err
  b += 2 * sizeof(LoopState) + kLoopSlots * sizeof(LevelRec) + 3 * 8;  // the device loop
  return b + 2 * sizeof(Counters) + 8;
}

int32_t CheckParams(const dob_params* p, char* err, int32_t errlen) {
  BFSB_REQUIRE(p->local_rows >= 1 && p->local_cols >= 1 && p->local_rows < (1ll << 32) - 1 &&
                   p->local_cols < (1ll << 32) - 1,
               "dob: bad shape (%lld local rows, %lld local columns)", (long long)p->local_rows,
               (long long)p->local_cols);
  // The warps' list cursors are 32-bit and step up to 128 entries past a
  // list's end (WarpLists, WarpAssist): kept below 2^32 by a margin.
  constexpr int64_t kMaxNnz = (1ll << 32) - 256;
  BFSB_REQUIRE(p->td_nnz >= 0 && p->td_nnz <= kMaxNnz && p->bu_nnz >= 0 && p->bu_nnz <= kMaxNnz,
               "dob: %lld / %lld local edges exceed 32-bit offsets (at most 2^32 - 256: use a larger grid)",
               (long long)p->td_nnz, (long long)p->bu_nnz);
  BFSB_REQUIRE(p->shared >= 0 && p->shared <= 2, "dob: shared = %lld (want 0, 1 or 2)", (long long)p->shared);
  BFSB_REQUIRE(!p->shared || (p->local_rows == p->local_cols && p->td_nnz == p->bu_nnz),
               "dob: a shared CSR/CSC needs a square block");
  BFSB_REQUIRE(p->threads_per_block >= 64 && p->threads_per_block <= 1024 && p->threads_per_block % 32 == 0,
               "threads_per_block %lld: want a multiple of 32 in [64, 1024]", (long long)p->threads_per_block);
  BFSB_REQUIRE(p->td_big == 0 || p->td_big >= 32, "td_big %lld: want 0 or at least 32", (long long)p->td_big);
  BFSB_REQUIRE(p->bu_serial >= 0 && p->bu_serial < (1ll << 31), "bu_serial %lld out of range",
               (long long)p->bu_serial);
  BFSB_REQUIRE(p->grid_r >= 1 && p->grid_c >= 1 && p->grid_j >= 0 && p->grid_j < p->grid_c && p->block >= 1 &&
                   p->local_rows == p->grid_c * p->block && p->local_cols == p->grid_r * p->block,
               "dob: grid %lld×%lld (column %lld), block %lld do not match %lld local rows and %lld columns",
               (long long)p->grid_r, (long long)p->grid_c, (long long)p->grid_j, (long long)p->block,
               (long long)p->local_rows, (long long)p->local_cols);
  BFSB_REQUIRE(!p->device_exchange || !p->single, "dob: device_exchange on a 1×1 grid");
  BFSB_REQUIRE(p->bu_first == 0 || p->bu_first == 1, "dob: bu_first %lld: want 0 or 1", (long long)p->bu_first);
  BFSB_REQUIRE(p->bu_skip == 0 || p->bu_skip == 1, "dob: bu_skip %lld: want 0 or 1", (long long)p->bu_skip);
  BFSB_REQUIRE(p->td_lane >= 0 && p->td_lane <= 1024, "dob: td_lane %lld: want 0 to 1024", (long long)p->td_lane);
  BFSB_REQUIRE(TopDownFor(*p) != nullptr, "dob: td_batch %lld: want 1 or 4", (long long)p->td_batch);
  BFSB_REQUIRE(p->td_eager >= 0 && p->td_eager < (1ll << 31), "dob: td_eager %lld: want 0 to 2^31 - 1",
               (long long)p->td_eager);
  BFSB_REQUIRE(p->bu_queue == 0 || BottomUpFor(*p, BuLevel::kQueue) != nullptr,
               "dob: bu_queue needs bu_first, bu_skip, bu_batch 2 and bu_serial > 0");
  BFSB_REQUIRE(p->pred_lines == 0 || (p->pred_lines == 1 && p->single && p->bu_queue > 0),
               "dob: pred_lines %lld: want 0, or 1 on a 1×1 grid with bu_queue", (long long)p->pred_lines);
  BFSB_REQUIRE(BottomUpFor(*p) != nullptr, "dob: bu_batch %lld: want 1 or 2", (long long)p->bu_batch);
  BFSB_REQUIRE(p->bu_deg >= 0 && p->bu_deg < (1ll << 31), "dob: bu_deg %lld out of range", (long long)p->bu_deg);
  BFSB_REQUIRE(p->bu_queue >= 0 && p->bu_queue < (1ll << 31) && (p->bu_queue == 0 || p->bu_queue != p->bu_deg),
               "dob: bu_queue %lld out of range or bu_deg's level", (long long)p->bu_queue);
  BFSB_REQUIRE(p->bu_deg_packed == 0 || p->bu_deg_packed == 1, "dob: bu_deg_packed %lld: want 0 or 1",
               (long long)p->bu_deg_packed);
  BFSB_REQUIRE(p->bu_deg_packed == 0 || (p->bu_deg > 0 && BottomUpFor(*p, BuLevel::kDeg) != nullptr),
               "dob: bu_deg_packed needs bu_deg, bu_first, bu_skip, bu_batch 2 and bu_serial > 0");
  BFSB_REQUIRE(p->bu_deg_packed == 0 || p->local_cols <= (1ll << kPackedBits),
               "dob: bu_deg_packed: %lld columns, past the 2^%d a packed first entry holds", (long long)p->local_cols,
               kPackedBits);
  BFSB_REQUIRE(p->bu_deg == 0 || BottomUpFor(*p, BuLevel::kDeg) != nullptr,
               "dob: bu_deg %lld needs bu_first and bu_skip", (long long)p->bu_deg);
  BFSB_REQUIRE(p->split >= 0 && p->split < (1ll << 32), "dob: split %lld out of range", (long long)p->split);
  BFSB_REQUIRE(p->split_help == 0 || (p->split_help == 32 && (p->split == 0 || BottomUpFor(*p, BuLevel::kSplit) != nullptr)),
               "dob: split_help %lld: want 0, or 32 with bu_batch 2 and bu_serial > 0", (long long)p->split_help);
  BFSB_REQUIRE(p->split == 0 || (p->single && p->td_lane > 0 && BottomUpFor(*p, BuLevel::kSplit) != nullptr),
               "dob: split %lld needs a 1×1 grid, td_lane, bu_first and bu_skip", (long long)p->split);
  BFSB_REQUIRE(p->split == 0 || p->bu_deg != 2, "dob: split runs level 2, which bu_deg 2 names too");
  BFSB_REQUIRE(p->gated == 0 || (p->gated >= 1 && p->gated <= 3 && p->single && (p->gated != 3 || p->dev_clock == 2)),
               "dob: gated %lld: want 0, or 1 to 3 on a 1×1 grid (3 with dev_clock 2)", (long long)p->gated);
  BFSB_REQUIRE(p->loop_graph == 0 || (p->loop_graph == 1 && p->gated == 3),
               "dob: loop_graph %lld: want 0, or 1 with gated 3", (long long)p->loop_graph);
  BFSB_REQUIRE(p->dev_clock == 0 || ((p->dev_clock == 1 || p->dev_clock == 2) && p->single),
               "dob: dev_clock %lld: want 0, or 1 or 2 on a 1×1 grid", (long long)p->dev_clock);
  BFSB_REQUIRE(p->bu_compact >= 0 && p->bu_compact <= 1024, "dob: bu_compact %lld: want 0 to 1024",
               (long long)p->bu_compact);
  return 0;
}

// CleanParents gives a device-exchange handle's parents their reset state
// (-1, the root's own) before a per-level WritePred writes into them.
int32_t CleanParents(Handle* h, char* err, int32_t errlen) {
  if (!h->parents_dirty) return 0;
  BFSB_CHECK(cudaMemsetAsync(h->parents, 0xff, 8 * h->parents_len(), h->s));
  ResetRootKernel<<<1, 32, 0, h->s>>>(-1, -1, h->root_own, h->root_global, h->visited, h->in_q, h->pred, h->parents);
  BFSB_CHECK_LAUNCH("ResetRootKernel");
  h->parents_dirty = false;
  return 0;
}

// SetL2Window (l2_window; ours: CUDA's L2 persistence controls) makes the
// bitmaps, bytes at h->bits, an L2 window of persisting lines on h->s and
// in every Launch, where the whole window fits a set-aside of kL2Aside
// (and the GPU's cudaDevAttrMaxPersistingL2CacheSize): the lists, offsets
// and first entries, read once a level, then pass through the rest of L2
// without evicting in_queue and visited, which every check reads. A larger
// window gets none. The handle gives the set-aside back when destroyed.
//
// kL2Aside: on an H200 (60 MB of L2) the 16 MiB window of scale 25, all
// set aside, made searches 2 % faster; at scale 26 (32 MiB of bitmaps) all
// of it set aside made them 5 % slower (level 3 0.23 -> 0.31 ms), and half
// of it (16 MiB persisting, the other half's lines streaming) 8 % slower
// (bottom-up level 2 14 %): results/diropt-1000, window-25 and window-26.
constexpr int64_t kL2Aside = 16 << 20;
cudaError_t SetL2Window(Handle* h, int64_t bytes) {
  int max_persist = 0, max_window = 0;
  cudaError_t e = cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, (int)h->p.device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, (int)h->p.device);
  if (e != cudaSuccess) return e;
  if (bytes > std::min<int64_t>({(int64_t)max_persist, (int64_t)max_window, kL2Aside})) return cudaSuccess;  // no window
  const size_t win = (size_t)bytes;
  if ((e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, win)) != cudaSuccess) return e;
  h->window.base_ptr = h->bits;
  h->window.num_bytes = win;
  h->window.hitRatio = 1.0f;
  h->window.hitProp = cudaAccessPropertyPersisting;
  h->window.missProp = cudaAccessPropertyNormal;
  cudaStreamAttrValue v{};
  v.accessPolicyWindow = h->window;
  if ((e = cudaStreamSetAttribute(h->s, cudaStreamAttributeAccessPolicyWindow, &v)) != cudaSuccess) return e;
  h->has_window = true;
  return cudaSuccess;
}

// Launch launches kernel k on the handle's stream, grid blocks of tpb
// threads, as a programmatic dependent launch where pdl is set (its
// blocks are scheduled while the kernel before it runs; PdlStart waits
// for that kernel's end).
template <typename... Params, typename... Args>
cudaError_t LaunchSmem(Handle* h, int64_t grid, size_t smem, bool pdl, void (*k)(Params...), Args... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)grid);
  cfg.blockDim = dim3((unsigned)h->tpb);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = h->s;
  cudaLaunchAttribute attr[2];
  cfg.attrs = attr;
  if (pdl) {
    attr[cfg.numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[cfg.numAttrs++].val.programmaticStreamSerializationAllowed = 1;
  }
  if (h->has_window) {
    attr[cfg.numAttrs].id = cudaLaunchAttributeAccessPolicyWindow;
    attr[cfg.numAttrs++].val.accessPolicyWindow = h->window;
  }
  return cudaLaunchKernelEx(&cfg, k, args...);
}

// Launch is LaunchSmem without dynamic shared memory.
template <typename... Params, typename... Args>
cudaError_t Launch(Handle* h, int64_t grid, bool pdl, void (*k)(Params...), Args... args) {
  return LaunchSmem(h, grid, 0, pdl, k, args...);
}

// LaunchExplore launches an exploration kernel (TopDownKernel or
// BottomUpKernel), in the 1×1 device loop with pdl as a programmatic
// dependent launch (PdlStart): its blocks are scheduled while the kernel
// before it runs, and wait on the GPU for its end. On an H200 at scale 25
// the small levels and the end were 1-2 µs faster each, the searches 1.2 %
// without level 0 (results/diropt-1000): about one launch's wait a level,
// perhaps a level's second launch only, its first following the level's
// CUDA event.
// smem: the kernel's dynamic shared memory (bu_queue's queues).
cudaError_t LaunchExplore(Handle* h, ExploreKernel k, int grid, const ExploreArgs& a, const LoopState* gate,
                          size_t smem = 0) {
  return LaunchSmem(h, grid, smem, h->p.pdl && h->p.single && gate != nullptr, k, a, gate);
}

// LaunchTopDown enqueues a top-down exploration: TopDownKernel, then, with
// td_big in the host loop (gate nullptr), bfsb::HugeKernel for the lists
// it queued. In the device loop (gate: see TopDownKernel) the
// BottomUpKernel launched after it expands them on a top-down level.
int32_t LaunchTopDown(Handle* h, const LoopState* gate, char* err, int32_t errlen) {
  const int64_t span = h->p.td_lane > 0 ? 32 * kTdWords : 32;  // words a warp takes at once
  BFSB_CHECK(LaunchExplore(h, h->td_kernel, h->WarpGrid((h->col_words() + span - 1) / span), h->Args(), gate));
  if (h->p.td_big > 0 && gate == nullptr) {
    bfsb::HugeKernel<kBigThreads><<<h->big_grid, kBigThreads, 0, h->s>>>(
        h->Big(), h->td_adj, BigVisit{h->visited, h->out_q, h->pred, h->bu_off, h->Cur(), false});
    BFSB_CHECK_LAUNCH("HugeKernel");
  }
  return 0;
}

// LaunchBottomUp enqueues a bottom-up exploration (gate: see
// TopDownKernel), which in the 1×1 device loop also ends the level
// (EndLevel).
// BottomUpGrid is the grid of the bottom-up kernels: a warp per span of
// words of visited (BottomUp), at most what fits on the GPU at once.
int BottomUpGrid(const Handle* h) {
  const int64_t span = h->p.bu_skip ? 32 : kBuWords;  // words a warp takes at once (BottomUp)
  return std::min(h->WarpGrid((h->row_words() + span - 1) / span), h->bu_resident);
}

int32_t LaunchBottomUp(Handle* h, const LoopState* gate, char* err, int32_t errlen) {
  const int grid = BottomUpGrid(h);
  ExploreArgs a = h->Args();
  if (gate != nullptr && h->p.single) {
    a.fold = Fold{h->LoopNext(), h->ring, h->fold_done, h->spare_q, h->dend, h->lp, h->leaves};
  }
  // bu_deg: level bu_deg (by its index, known here though its direction
  // is not) runs the instance that reads the degree bytes. The levels
  // after it keep the offsets' instance: with the bytes there too
  // (bu_deg_after, a trial), bottom-up level 4 was 3 % slower (3 of 49
  // faster) at scale 25 on an H200, the searches no faster
  // (results/diropt-1000, deg-after-25).
  // bu_queue likewise: level bu_queue runs the instance that queues the
  // rows its first check missed.
  const bool deg = h->deg_kernel != nullptr && h->level == h->p.bu_deg;
  const bool queue = h->queue_kernel != nullptr && h->level == h->p.bu_queue;
  if (deg && h->fdeg != nullptr) a.first = h->fdeg;  // bu_deg_packed: kFirstPacked's first is fdeg
  BFSB_CHECK(LaunchExplore(h, deg ? h->deg_kernel : queue ? h->queue_kernel : h->bu_kernel, grid, a, gate,
                           queue ? h->queue_smem : 0));
  return 0;
}

// LaunchSplit enqueues level 2's split launch (SplitLaunch; its direction
// is decided on the device later), between TopDownKernel and
// BottomUpKernel: SplitBottomUpKernel (dobfs/split.go), on the bottom-up
// grid, which GridSync needs resident at once (bu_resident holds its
// occupancy); on a level that is not split it returns at once.
int32_t LaunchSplit(Handle* h, const LoopState* gate, char* err, int32_t errlen) {
  ExploreArgs a = h->Args();
  a.fold.done = h->fold_done + 1;  // GridSync's words (Fold)
  BFSB_CHECK(LaunchExplore(h, h->split_kernel, BottomUpGrid(h), a, gate));
  return 0;
}

// LaunchReset enqueues ResetKernel for the root at (row, column, own),
// with the loop's start where init.st is set (1×1).
// With gated (dob_loop_arm) it reads the root from GateKernel's copy
// instead, and is launched behind GateKernel.
int32_t LaunchReset(Handle* h, int64_t root_row, int64_t root_col, int64_t root_own, const LoopInit& init,
                    const GateRoot* gated, uint32_t seq, char* err, int32_t errlen) {
  const int64_t rw = h->row_words(), cw = h->col_words();
  const int64_t qw = std::max(rw, cw);
  const int ctr_words = (int)(2 * sizeof(Counters) / sizeof(unsigned long long));
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>((qw + h->tpb - 1) / h->tpb, h->resident));
  // Gated: behind GateKernel (PdlStart waits for it; with gate_clock
  // behind the start event, which GateKernel's end lets run; with dev_end
  // no event, the search's start GateKernel's stamp).
  BFSB_CHECK(Launch(h, blocks, gated != nullptr && h->p.gated != 2, ResetKernel, rw, qw, (const uint32_t*)h->skip, h->visited, h->in_q,
                    h->out_q, h->spare_q, h->p.single ? nullptr : h->all_assigned,
                    reinterpret_cast<unsigned long long*>(h->ctr), ctr_words, root_row, root_col, root_own,
                    h->root_global, h->p.single ? nullptr : h->pred, h->parents, init, gated, seq,
                    (const uint32_t*)h->bu_off));
  h->reset_pending = false;
  return 0;
}

// FlushReset launches a 1×1 reset that no dob_loop_begin took (a search
// state read without a search).
int32_t FlushReset(Handle* h, char* err, int32_t errlen) {
  if (!h->reset_pending) return 0;
  return LaunchReset(h, h->reset_row, h->reset_col, h->root_own, LoopInit{}, nullptr, 0, err, errlen);
}

// OpenGate writes the gated start's root (cancel: a cancelled start) and
// then opens the gate: the stores reach memory in program order (x86-64),
// and GateKernel reads the root only after it saw the gate open.
void OpenGate(Handle* h, int64_t row, int64_t col, int64_t own, int64_t global, bool cancel) {
  GateRoot* g = h->groot;
  g->row = row;
  g->col = col;
  g->own = own;
  g->global = global;
  g->cancel = cancel ? 1u : 0u;
  g->seq = h->gate_seq;
  std::atomic_thread_fence(std::memory_order_release);
  *(volatile uint32_t*)&g->gate = h->gate_seq;
  h->armed = false;
}

// Disarm cancels a start that dob_loop_arm queued and the next dob_reset
// did not open (any other call that uses the stream comes first): the
// queued launches run and do nothing, and the stream is waited for.
int32_t Disarm(Handle* h, char* err, int32_t errlen) {
  if (!h->armed) return 0;
  OpenGate(h, -1, -1, -1, -1, true);
  h->prequeued = 0;
  h->level = 0;
  h->loop_synced = 0;
  h->loop_started = false;
  h->ended = true;
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

// Decide enqueues DecideKernel (2D; the grid clears out_queue when the
// next level is top-down).
int32_t Decide(Handle* h, char* err, int32_t errlen) {
  const int64_t rw = h->row_words();
  DecideKernel<<<h->ThreadGrid(rw), h->tpb, 0, h->s>>>(h->LoopCur(), h->LoopNext(), h->red, h->ring, h->lp, h->out_q,
                                                       rw);
  BFSB_CHECK_LAUNCH("DecideKernel");
  return 0;
}

// BeginSearch gives the handle a new search's host state (dob_reset, and
// dob_loop_arm for the search it queues): no level enqueued, none queued
// ahead, out_queue clean, and on 1×1 the end flag down (the last search's
// device work is done: dob_loop_sync and dob_finish waited for it).
void BeginSearch(Handle* h) {
  h->level = 0;
  h->ended = false;
  h->end_slot = -1;
  h->end_leaf_ms = 0;
  h->last_stamp = 0;
  h->levels_ms = 0;
  h->out_clean = true;
  h->prequeued = 0;
  h->dev_timed = false;
  h->gate_ns = h->end_ns = 0;
  if (h->hend != nullptr) *h->hend = 0;
}

// CheckLoopParams checks the rule's parameters that dob_loop_begin and
// dob_loop_arm take (fn names the call in the error).
int32_t CheckLoopParams(const Handle* h, const char* fn, const dob_loop_params* lp, char* err, int32_t errlen) {
  BFSB_REQUIRE(lp->mode >= 0 && lp->mode <= 2 && (lp->dir == 0 || lp->dir == 1) && lp->alpha > 0 && lp->beta > 0,
               "%s: bad parameters (mode %lld, direction %lld, alpha %g, beta %g)", fn, (long long)lp->mode,
               (long long)lp->dir, lp->alpha, lp->beta);
  BFSB_REQUIRE(lp->split_from == 0 || (h->split_kernel != nullptr && lp->split_from > 0 && lp->split_to > 0),
               "%s: split_from %g, split_to %g: want both positive, with split at dob_create, or split_from 0", fn,
               lp->split_from, lp->split_to);
  return 0;
}

// EnqueueLevel enqueues one level of the device loop (dob_loop_explore,
// dob_loop_arm).
int32_t EnqueueLevel(Handle* h, char* err, int32_t errlen) {
  h->loop_level = h->level;
  h->loop_slot = h->level % kLoopSlots;
  // 1×1: one event a level, at its end (dev_clock: level 0's only,
  // below); a level starts where the one before ended (level 0: at the
  // search's start).
  if (!h->p.single) BFSB_CHECK(h->ev.Record(h->LoopEvent(0), h->s));
  if (int32_t st = LaunchTopDown(h, h->LoopCur(), err, errlen)) return st;
  if (h->SplitLaunch()) {
    if (int32_t st = LaunchSplit(h, h->LoopCur(), err, errlen)) return st;
  }
  if (int32_t st = LaunchBottomUp(h, h->LoopCur(), err, errlen)) return st;
  if (h->p.single) {  // line 24 (the queues' rotation); BottomUpKernel decided (EndLevel)
    uint32_t* in = h->in_q;
    h->in_q = h->out_q;
    h->out_q = h->spare_q;
    h->spare_q = in;
    // dev_clock: level 0's end only; the later levels are timed by their
    // decisions' stamps (dob_loop_sync), so that no event comes between
    // two launches and every launch after level 0's is a programmatic
    // dependent one (an event between two kernels ends the dependence).
    // dev_clock 2 (reset_stamp): no level's, level 0 timed from the
    // reset's stamp, so that level 1's first launch is dependent too.
    if (!h->p.dev_clock || (h->level == 0 && h->p.dev_clock == 1)) BFSB_CHECK(h->ev.Record(h->LoopEvent(4), h->s));
  } else {
    BFSB_CHECK(h->ev.Record(h->LoopEvent(1), h->s));
  }
  h->level++;
  return 0;
}

// EnqueueArmed enqueues a gated start (dob_loop_arm): GateKernel, behind
// it the reset and the loop's start (gated 2: after the start event),
// then the first levels.
int32_t EnqueueArmed(Handle* h, const dob_loop_params* lp, int32_t levels, uint32_t seq, char* err, int32_t errlen) {
  GateKernel<<<1, 32, 0, h->s>>>(h->dgroot, h->droot, seq);
  BFSB_CHECK_LAUNCH("GateKernel");
  h->gate_seq = seq;
  h->armed = true;  // from here on the stream waits: Disarm opens it
  // gated 2 (gate_clock): the search's clock starts once the GPU has its
  // root, the start event behind GateKernel (the reset then a plain
  // launch: an event between two kernels ends a programmatic dependence).
  if (h->p.gated == 2) BFSB_CHECK(h->ev.Record(0, h->s));
  if (int32_t st = LaunchReset(h, -1, -1, -1, LoopInit{h->loop, *lp}, h->droot, seq, err, errlen)) return st;
  h->loop_started = true;
  for (int k = 0; k < levels; ++k) {
    if (int32_t st = EnqueueLevel(h, err, errlen)) return st;
  }
  h->prequeued = levels;
  return 0;
}

// ArmGraph ends the capture of a gated start's launches (loop_graph) and,
// where ok (the capture has them all; else it only ends the capture),
// launches them as one CUDA graph: the graph of the arm before, updated to
// this one's arguments (the gate's sequence number, the queues' places),
// or where its shape changed (more levels) a new one. Captured
// programmatic dependent launches are programmatic edges (CUDA 12.3).
// Choice: the graph replaces the stream's launches one for one, an idle
// direction's launch included (a level's direction is still the
// device's): priced with scripts/level-launch.cu, a graph's chain of two
// launches a level cost less than the stream's, and each way of launching
// only the chosen direction from the device (a graph of SWITCH nodes, a
// device graph launch, a tail launch) more (results/diropt-1000,
// "loop_graph").
int32_t ArmGraph(Handle* h, bool ok, char* err, int32_t errlen) {
  cudaGraph_t g = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(h->s, &g);
  if (!ok) {  // the enqueue's error stands (dob_loop_arm)
    if (g != nullptr) cudaGraphDestroy(g);
    return 0;
  }
  BFSB_CHECK(ended);
  cudaError_t e = cudaSuccess;
  if (h->arm_exec != nullptr) {
#if CUDART_VERSION >= 12000
    cudaGraphExecUpdateResultInfo info;
    e = cudaGraphExecUpdate(h->arm_exec, g, &info);
#else
    cudaGraphNode_t bad;
    cudaGraphExecUpdateResult info;
    e = cudaGraphExecUpdate(h->arm_exec, g, &bad, &info);
#endif
    if (e != cudaSuccess) {  // its shape changed: instantiate anew
      (void)cudaGetLastError();
      cudaGraphExecDestroy(h->arm_exec);
      h->arm_exec = nullptr;
    }
  }
  if (h->arm_exec == nullptr) e = cudaGraphInstantiateWithFlags(&h->arm_exec, g, 0);
  cudaGraphDestroy(g);
  BFSB_CHECK(e);
  BFSB_CHECK(cudaGraphLaunch(h->arm_exec, h->s));
  return 0;
}

}  // namespace

extern "C" {

int32_t dob_abi_version(void) { return DOB_ABI_VERSION; }

int32_t dob_device_bytes(const dob_params* p, int64_t* bytes, char* err, int32_t errlen) {
  BFSB_REQUIRE(p != nullptr && bytes != nullptr, "dob_device_bytes: null argument");
  *bytes = DeviceBytes(p);
  return 0;
}

int32_t dob_create(const dob_params* p, const uint32_t* td_off, const uint32_t* td_adj, const uint32_t* bu_off,
                   const uint32_t* bu_adj, const uint32_t* isolated, const uint32_t* leaves, void** out, char* err,
                   int32_t errlen) {
  BFSB_REQUIRE(p != nullptr && out != nullptr && td_off != nullptr && isolated != nullptr,
               "dob_create: null argument");
  BFSB_REQUIRE(p->shared || bu_off != nullptr, "dob_create: no CSC offsets");
  BFSB_REQUIRE(p->shared == 1 || bu_adj != nullptr || p->bu_nnz == 0, "dob_create: no CSC entries");
  if (int32_t st = CheckParams(p, err, errlen)) return st;
  BFSB_REQUIRE(p->leaves == 0 || (p->single && leaves != nullptr && p->leaves <= p->local_rows),
               "dob_create: %lld leaf pairs (want 0, or on a 1×1 grid at most one a row, with their array)",
               (long long)p->leaves);
  if (p->leaves > 0) {  // LeafBitsKernel and LeafPass index with them
    std::vector<bool> seen(p->local_rows);
    for (int64_t k = 0; k < p->leaves; ++k) {
      const uint32_t v = leaves[2 * k], w = leaves[2 * k + 1] & ~kLeafNeighbour;
      BFSB_REQUIRE(v < p->local_rows && w < p->local_cols, "dob_create: leaf pair %lld (%u, %u) outside the block",
                   (long long)k, v, w);
      BFSB_REQUIRE(!seen[v], "dob_create: leaf %u in two pairs", v);
      seen[v] = true;
      const uint32_t pw = k > 0 ? leaves[2 * k - 1] & ~kLeafNeighbour : 0;
      BFSB_REQUIRE(k == 0 || pw < w || (pw == w && leaves[2 * k - 2] < v && leaves[2 * k - 1] == leaves[2 * k + 1]),
                   "dob_create: leaf pair %lld (%u, %u) out of order (want by neighbour, then leaf)", (long long)k,
                   v, w);
    }
  }
  BFSB_CHECK(cudaSetDevice((int)p->device));
  Handle* h = new (std::nothrow) Handle();
  BFSB_REQUIRE(h != nullptr, "dob_create: host allocation failed");
  h->p = *p;
  h->tpb = (int)p->threads_per_block;
  int32_t st = [&]() -> int32_t {
    BFSB_CHECK(cudaDeviceGetAttribute(&h->sms, cudaDevAttrMultiProcessorCount, (int)p->device));
    int per_sm = 0;
    BFSB_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, BottomUpKernel<true, kFirstList, 1, false>, h->tpb, 0));
    h->resident = std::max(1, per_sm) * h->sms;
    h->td_kernel = TopDownFor(*p);
    h->bu_kernel = BottomUpFor(*p);
    BFSB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, h->bu_kernel, h->tpb, 0));
    h->bu_resident = std::max(1, per_sm) * h->sms;
    if (p->bu_queue > 0) {  // a queue a warp (WarpQueue)
      h->queue_kernel = BottomUpFor(*p, BuLevel::kQueue);
      h->queue_smem = (size_t)(h->tpb / 32) * kQueueBytes;
      BFSB_CHECK(cudaFuncSetAttribute(h->queue_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)h->queue_smem));
      BFSB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, h->queue_kernel, h->tpb, h->queue_smem));
      h->bu_resident = std::min(h->bu_resident, std::max(1, per_sm) * h->sms);
    }
    // The instances of bu_deg's and split's levels launch on the same
    // grid: the smaller of their occupancies and bu_kernel's.
    if (p->bu_deg > 0) {
      h->deg_kernel = BottomUpFor(*p, BuLevel::kDeg);
      BFSB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, h->deg_kernel, h->tpb, 0));
      h->bu_resident = std::min(h->bu_resident, std::max(1, per_sm) * h->sms);
    }
    if (p->split > 0) {
      h->split_kernel = BottomUpFor(*p, BuLevel::kSplit);
      BFSB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, h->split_kernel, h->tpb, 0));
      h->bu_resident = std::min(h->bu_resident, std::max(1, per_sm) * h->sms);
    }
    BFSB_CHECK(cudaStreamCreateWithFlags(&h->s, cudaStreamNonBlocking));
    BFSB_CHECK(h->ev.Create(Handle::kLoopEvent0 + Handle::kLoopEvents * kLoopSlots));
    const int64_t rw = h->row_words(), cw = h->col_words();
    BFSB_CHECK(cudaMalloc(&h->td_off, 4 * (p->local_cols + 1)));
    BFSB_CHECK(cudaMalloc(&h->td_adj, 4 * std::max<int64_t>(p->td_nnz, 1)));
    BFSB_CHECK(cudaMemcpy(h->td_off, td_off, 4 * (p->local_cols + 1), cudaMemcpyHostToDevice));
    if (p->td_nnz > 0) BFSB_CHECK(cudaMemcpy(h->td_adj, td_adj, 4 * p->td_nnz, cudaMemcpyHostToDevice));
    if (p->shared != 0) {  // one offsets array for both (a vertex's list has one length in either order)
      h->bu_off = h->td_off;
    } else {
      BFSB_CHECK(cudaMalloc(&h->bu_off, 4 * (p->local_rows + 1)));
      BFSB_CHECK(cudaMemcpy(h->bu_off, bu_off, 4 * (p->local_rows + 1), cudaMemcpyHostToDevice));
    }
    if (p->shared == 1) {
      h->bu_adj = h->td_adj;
    } else {
      BFSB_CHECK(cudaMalloc(&h->bu_adj, 4 * std::max<int64_t>(p->bu_nnz, 1)));
      if (p->bu_nnz > 0) BFSB_CHECK(cudaMemcpy(h->bu_adj, bu_adj, 4 * p->bu_nnz, cudaMemcpyHostToDevice));
    }
    if (p->pred_lines) BFSB_CHECK(cudaMalloc(&h->lines, rw));
    if (p->bu_first) {
      BFSB_CHECK(cudaMalloc(&h->first, 4 * 32 * rw));  // whole words: pred_lines reads a word's every row
      if (p->bu_deg > 0 && p->bu_deg_packed != 0) {
        BFSB_CHECK(cudaMalloc(&h->fdeg, 4 * p->local_rows));
      } else if (p->bu_deg > 0) {
        BFSB_CHECK(cudaMalloc(&h->deg, p->local_rows));
      }
      FirstKernel<<<h->ThreadGrid(p->local_rows), h->tpb, 0, h->s>>>(h->bu_off, h->bu_adj, p->local_rows, h->first,
                                                                    h->deg, h->fdeg);
      BFSB_CHECK_LAUNCH("FirstKernel");
      BFSB_CHECK(cudaStreamSynchronize(h->s));
    }
    if (p->split > 0) {
      BFSB_CHECK(cudaMalloc(&h->cut, 4 * p->local_rows));
      BFSB_CHECK(cudaMalloc(&h->low, 4 * rw));
      CutKernel<<<h->ThreadGrid(32 * rw), h->tpb, 0, h->s>>>(h->bu_off, h->bu_adj, p->local_rows,
                                                             (uint32_t)p->split, h->cut, h->low);
      BFSB_CHECK_LAUNCH("CutKernel");
      BFSB_CHECK(cudaStreamSynchronize(h->s));
    }
    BFSB_CHECK(cudaMalloc(&h->isolated, 4 * rw));
    BFSB_CHECK(cudaMemcpy(h->isolated, isolated, 4 * rw, cudaMemcpyHostToDevice));
    h->skip = h->isolated;
    if (p->single) {  // rw == cw
      BFSB_CHECK(cudaMalloc(&h->bits, 4 * 4 * rw));
      h->visited = h->bits;
      h->out_q = h->bits + rw;
      h->in_q = h->bits + 2 * rw;
      h->spare_q = h->bits + 3 * rw;
      if (p->l2_window) BFSB_CHECK(SetL2Window(h, 4 * 4 * rw));
      BFSB_CHECK(cudaMalloc(&h->fold_done, 3 * 4));  // EndLevel's count, then the split's barrier (Fold)
      BFSB_CHECK(cudaMemset(h->fold_done, 0, 3 * 4));
      BFSB_CHECK(cudaHostAlloc(&h->hend, 4, cudaHostAllocMapped));
      BFSB_CHECK(cudaHostGetDevicePointer((void**)&h->dend, h->hend, 0));
      *h->hend = 0;
    } else {
      BFSB_CHECK(cudaMalloc(&h->visited, 4 * rw));
      BFSB_CHECK(cudaMalloc(&h->out_q, 4 * std::max(rw, cw)));
      BFSB_CHECK(cudaMalloc(&h->in_q, 4 * std::max(rw, cw)));
    }
    if (p->gated) {
      BFSB_CHECK(cudaStreamCreateWithFlags(&h->s_start, cudaStreamNonBlocking));
      BFSB_CHECK(cudaMalloc(&h->droot, sizeof(GateRoot)));
      BFSB_CHECK(cudaHostAlloc(&h->groot, sizeof(GateRoot), cudaHostAllocMapped));
      BFSB_CHECK(cudaHostGetDevicePointer((void**)&h->dgroot, h->groot, 0));
      memset(h->groot, 0, sizeof(GateRoot));
    }
    BFSB_CHECK(cudaMalloc(&h->pred, 4 * 32 * rw));  // whole words: pred_lines writes a sector's every row
    if (p->leaves > 0) {
      // The groups: the pairs come by neighbour (checked above), cut where
      // it changes.
      std::vector<uint32_t> gw, gat, gv(p->leaves);
      for (int64_t k = 0; k < p->leaves; ++k) {
        if (k == 0 || leaves[2 * k + 1] != leaves[2 * k - 1]) {
          gw.push_back(leaves[2 * k + 1]);
          gat.push_back((uint32_t)k);
        }
        gv[k] = leaves[2 * k];
      }
      gat.push_back((uint32_t)p->leaves);
      const int64_t ng = (int64_t)gw.size();
      uint32_t *lw = nullptr, *lat = nullptr, *lv = nullptr;
      BFSB_CHECK(cudaMalloc(&lw, 4 * ng));
      h->leaves.w = lw;
      BFSB_CHECK(cudaMalloc(&lat, 4 * (ng + 1)));
      h->leaves.at = lat;
      BFSB_CHECK(cudaMalloc(&lv, 4 * p->leaves));
      h->leaves.v = lv;
      BFSB_CHECK(cudaMemcpy(lw, gw.data(), 4 * ng, cudaMemcpyHostToDevice));
      BFSB_CHECK(cudaMemcpy(lat, gat.data(), 4 * (ng + 1), cudaMemcpyHostToDevice));
      BFSB_CHECK(cudaMemcpy(lv, gv.data(), 4 * p->leaves, cudaMemcpyHostToDevice));
      h->leaves.n = ng;
      BFSB_CHECK(cudaMalloc(&h->skip, 4 * rw));
      BFSB_CHECK(cudaMemcpy(h->skip, h->isolated, 4 * rw, cudaMemcpyDeviceToDevice));
      BFSB_CHECK(cudaMalloc(&h->has_leaf, 4 * rw));
      BFSB_CHECK(cudaMemset(h->has_leaf, 0, 4 * rw));
      LeafBitsKernel<<<h->ThreadGrid(ng), h->tpb, 0, h->s>>>(h->leaves, h->skip, h->has_leaf, h->pred);
      BFSB_CHECK_LAUNCH("LeafBitsKernel");
      BFSB_CHECK(cudaStreamSynchronize(h->s));
    }
    if (!p->single) {
      BFSB_CHECK(cudaMalloc(&h->level_assigned, 4 * rw));
      BFSB_CHECK(cudaMalloc(&h->all_assigned, 4 * rw));
      BFSB_CHECK(cudaMalloc(&h->prefix, 4 * rw));
      BFSB_CHECK(cudaMalloc(&h->uni, 4 * rw));
      if (!p->device_exchange) BFSB_CHECK(cudaMalloc(&h->pairs, 16 * h->parents_len()));
    }
    if (p->device_exchange) {
      BFSB_CHECK(cudaMalloc(&h->pred_send, 4 * p->local_rows));
      BFSB_CHECK(cudaMalloc(&h->pred_recv, 4 * p->local_rows));
      if (p->grid_c > 1) BFSB_CHECK(cudaMalloc(&h->row_gather, 4 * p->grid_c * rw));
      if (h->Aligned()) {
        h->own = h->Union() + p->grid_j * (p->block / 32);
        h->gather = h->in_q;
      } else {
        BFSB_CHECK(cudaMalloc(&h->own, 4 * h->own_words()));
        BFSB_CHECK(cudaMalloc(&h->gather, 4 * p->grid_r * h->own_words()));
      }
    }
    BFSB_CHECK(cudaMalloc(&h->parents, 8 * h->parents_len()));
    if (p->td_big > 0) {
      BFSB_CHECK(cudaMalloc(&h->big, sizeof(bfsb::HugeList<uint32_t>) * h->big_cap()));
      int per_sm = 0;
      BFSB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, bfsb::HugeKernel<kBigThreads, uint32_t, uint32_t, BigVisit>, kBigThreads, 0));
      h->big_grid = std::max(1, per_sm) * h->sms;
    }
    BFSB_CHECK(cudaMalloc(&h->big_err, 4));
    BFSB_CHECK(cudaMemset(h->big_err, 0, 4));
    BFSB_CHECK(cudaMallocHost(&h->hbig_err, 4));
    BFSB_CHECK(cudaMalloc(&h->ctr, 2 * sizeof(Counters)));
    BFSB_CHECK(cudaMalloc(&h->sink, 8));
    BFSB_CHECK(cudaMallocHost(&h->hctr, 2 * sizeof(Counters)));
    // The states and the ring in one allocation, read back in one copy.
    BFSB_CHECK(cudaMalloc(&h->loop, 2 * sizeof(LoopState) + kLoopSlots * sizeof(LevelRec)));
    h->ring = (LevelRec*)(h->loop + 2);
    BFSB_CHECK(cudaMalloc(&h->red, 3 * 8));
    BFSB_CHECK(cudaMallocHost(&h->hloop, 2 * sizeof(LoopState) + kLoopSlots * sizeof(LevelRec)));
    h->hring = (LevelRec*)(h->hloop + 2);
    BFSB_CHECK(cudaMemset(h->sink, 0, 8));
    return 0;
  }();
  if (st != 0) {
    delete h;
    return st;
  }
  *out = h;
  return 0;
}

int32_t dob_reset(void* hv, int64_t root_row, int64_t root_col, int64_t root_own, int64_t root_global, char* err,
                  int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr, "dob_reset: null handle");
  BFSB_REQUIRE(root_row < h->p.local_rows && root_col < h->p.local_cols && root_own < h->p.own_len,
               "dob_reset: root (row %lld, column %lld, own %lld) outside the block", (long long)root_row,
               (long long)root_col, (long long)root_own);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (h->armed) {  // a gated start (dob_loop_arm): the search starts, then the gate opens on its root
    // gated 2 (gate_clock): the start event is queued behind the gate (dob_loop_arm)
    if (h->p.gated == 1) BFSB_CHECK(h->ev.Record(0, h->s_start));
    h->root_own = root_own;
    h->root_global = root_global;
    OpenGate(h, root_row, root_col, root_own, root_global, false);
    // gate_clock: the search's first runtime call after the validation is
    // slow (above), and WaitEnd's record of the end on s_start would be it
    // (the end 14 µs later on an H200: results/diropt-1000, gate1-25), so
    // the end event is recorded here once, while the GPU searches; WaitEnd
    // records it again.
    if (h->p.gated == 2) BFSB_CHECK(h->ev.Record(1, h->s_start));
    // gated 3 (dev_end): no event; the device's clock from GateKernel's
    // reading of the root to the end's decision (dob_finish).
    h->dev_timed = h->p.gated == 3;
    return 0;
  }
  BFSB_CHECK(h->ev.Record(0, h->s));
  h->root_own = root_own;
  h->root_global = root_global;
  BeginSearch(h);  // prequeued 0: a gated search that failed may have left some; this one is not gated
  if (h->p.single) {  // dob_loop_begin launches the reset (see Handle)
    h->reset_row = root_row;
    h->reset_col = root_col;
    h->reset_pending = true;
    return 0;
  }
  if (h->p.device_exchange) {  // the parents wait for WritePred (see Handle)
    h->parents_dirty = true;
    h->parents_deferred = false;
    root_own = -1;
  } else {
    BFSB_CHECK(cudaMemsetAsync(h->parents, 0xff, 8 * h->parents_len(), h->s));  // -1
  }
  return LaunchReset(h, root_row, root_col, root_own, LoopInit{}, nullptr, 0, err, errlen);
}

int32_t dob_explore(void* hv, int32_t bottom_up, int64_t* counts, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && counts != nullptr, "dob_explore: null argument");
  BFSB_REQUIRE(!h->p.single && !h->p.device_exchange,
               "dob_explore: a 1×1 grid, and a 2D grid with device exchanges, run the device loop (dob_loop_*)");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  const int64_t rw = h->row_words();
  if (bottom_up) {
    if (int32_t st = LaunchBottomUp(h, nullptr, err, errlen)) return st;
  } else {
    if (!h->out_clean) BFSB_CHECK(cudaMemsetAsync(h->out_q, 0, 4 * rw, h->s));
    if (int32_t st = LaunchTopDown(h, nullptr, err, errlen)) return st;
  }
  h->out_clean = false;  // out_queue keeps this level's vertices (the merge reads them)
  BFSB_CHECK(cudaMemcpyAsync(h->hctr, h->Cur(), sizeof(Counters), cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  counts[0] = (int64_t)h->hctr->found;
  counts[1] = (int64_t)h->hctr->degrees;
  counts[2] = (int64_t)h->hctr->edges;
  h->level++;
  return 0;
}

int32_t dob_finish(void* hv, double* seconds, double* end_seconds, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && seconds != nullptr && end_seconds != nullptr, "dob_finish: null argument");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (int32_t st = FlushReset(h, err, errlen)) return st;
  float ms = 0, end_ms = 0;
  if (h->dev_timed) {  // dev_end: the device's clock (dob_loop_sync read both stamps)
    BFSB_REQUIRE(h->ended && h->gate_ns > 0 && h->end_ns > h->gate_ns,
                 "dob_finish: the search's device stamps are missing (ended %d, gate %lld ns, end %lld ns)",
                 (int)h->ended, h->gate_ns, h->end_ns);
    ms = (float)((h->end_ns - h->gate_ns) / 1e6);
  } else {
    if (!h->ended) BFSB_CHECK(h->ev.Record(1, h->s));
    h->ended = true;
    BFSB_CHECK(h->ev.Synchronize(1));
    BFSB_CHECK(h->ev.ElapsedMs(0, 1, &ms));
  }
  if (h->end_slot >= 0 && h->p.dev_clock) {
    end_ms = (float)(ms - h->levels_ms);  // the leaves' pass with it (dob_loop_sync took it from the last level)
  } else {
    if (h->end_slot >= 0) BFSB_CHECK(h->ev.ElapsedMs(Handle::SlotEvent(h->end_slot, 4), 1, &end_ms));
    end_ms += h->end_leaf_ms;  // the leaves' pass, in the last level's launch (dob_loop_sync)
  }
  *seconds = ms / 1e3;
  *end_seconds = end_ms / 1e3;
  return 0;
}

int32_t dob_stage_out(void* hv, uint32_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && dst != nullptr, "dob_stage_out: null argument");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  BFSB_CHECK(cudaMemcpyAsync(dst, h->out_q, 4 * h->row_words(), cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

int32_t dob_merge(void* hv, const uint32_t* prefix, const uint32_t* uni, int64_t* mf, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && prefix != nullptr && uni != nullptr && mf != nullptr, "dob_merge: null argument");
  BFSB_REQUIRE(!h->p.single, "dob_merge: only on a 2D grid");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  const int64_t rw = h->row_words();
  BFSB_CHECK(cudaMemcpyAsync(h->prefix, prefix, 4 * rw, cudaMemcpyHostToDevice, h->s));
  BFSB_CHECK(cudaMemcpyAsync(h->uni, uni, 4 * rw, cudaMemcpyHostToDevice, h->s));
  BFSB_CHECK(cudaMemsetAsync(h->Cur(), 0, sizeof(Counters), h->s));
  MergeKernel<<<h->ThreadGrid(rw), h->tpb, 0, h->s>>>(h->out_q, h->prefix, h->uni, h->bu_off, h->level_assigned,
                                                       h->all_assigned, h->visited, rw, h->Cur());
  BFSB_CHECK_LAUNCH("MergeKernel");
  BFSB_CHECK(cudaMemcpyAsync(h->hctr, h->Cur(), sizeof(Counters), cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  *mf = (int64_t)h->hctr->degrees;
  // The next level's kernel uses set `level`; it was zeroed by this level's
  // exploration, and is zeroed again here since the merge used it.
  BFSB_CHECK(cudaMemsetAsync(h->Cur(), 0, sizeof(Counters), h->s));
  h->out_clean = false;
  return 0;
}

int32_t dob_load_in(void* hv, const uint32_t* src, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && src != nullptr, "dob_load_in: null argument");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  BFSB_CHECK(cudaMemcpyAsync(h->in_q, src, 4 * h->col_words(), cudaMemcpyHostToDevice, h->s));
  return 0;
}

int32_t dob_assigned(void* hv, int32_t all, uint32_t* bitmap, uint32_t* pred, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && bitmap != nullptr && pred != nullptr, "dob_assigned: null argument");
  BFSB_REQUIRE(!h->p.single, "dob_assigned: only on a 2D grid");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  BFSB_CHECK(cudaMemcpyAsync(bitmap, all ? h->all_assigned : h->level_assigned, 4 * h->row_words(),
                             cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaMemcpyAsync(pred, h->pred, 4 * h->p.local_rows, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  return 0;
}

int32_t dob_write_parents(void* hv, const int64_t* pairs, int64_t npairs, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && (pairs != nullptr || npairs == 0), "dob_write_parents: null argument");
  BFSB_REQUIRE(!h->p.single && !h->p.device_exchange, "dob_write_parents: only on a 2D grid's host path");
  BFSB_REQUIRE(npairs >= 0 && npairs <= h->parents_len(), "dob_write_parents: %lld pairs for a block of %lld",
               (long long)npairs, (long long)h->p.own_len);
  if (npairs == 0) return 0;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  BFSB_CHECK(cudaMemcpyAsync(h->pairs, pairs, 16 * npairs, cudaMemcpyHostToDevice, h->s));
  BFSB_CHECK(cudaMemsetAsync(h->sink, 0, 8, h->s));
  ScatterParentsKernel<<<h->ThreadGrid(npairs), h->tpb, 0, h->s>>>(h->pairs, npairs, h->p.own_len, h->parents,
                                                                    h->sink);
  BFSB_CHECK_LAUNCH("ScatterParentsKernel");
  unsigned long long bad = 0;
  BFSB_CHECK(cudaMemcpyAsync(&bad, h->sink, 8, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  BFSB_REQUIRE(bad == 0, "dob_write_parents: %llu pairs name an offset outside the own block", bad);
  return 0;
}

int32_t dob_parents(void* hv, int64_t root, int64_t* dst, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && (dst != nullptr || h->p.own_len == 0), "dob_parents: null argument");
  if (h->p.own_len == 0) return 0;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (int32_t st = Disarm(h, err, errlen)) return st;
  if (int32_t st = FlushReset(h, err, errlen)) return st;
  if (h->p.single) {
    ParentsKernel<<<h->ThreadGrid(h->p.own_len), h->tpb, 0, h->s>>>(h->pred, h->visited, h->isolated,
                                                                     h->p.own_len, root, h->parents);
    BFSB_CHECK_LAUNCH("ParentsKernel");
  } else if (h->p.device_exchange && h->parents_deferred) {
    const bool one_col = h->p.grid_c == 1;
    BuildParentsKernel<<<h->ThreadGrid(h->p.own_len), h->tpb, 0, h->s>>>(
        one_col ? nullptr : h->pred_recv, h->p.grid_c, h->p.block, h->pred, h->visited, h->isolated,
        h->p.own_len, h->p.local_cols, h->root_own, h->root_global, h->parents);
    BFSB_CHECK_LAUNCH("BuildParentsKernel");
    h->parents_deferred = false;
    h->parents_dirty = false;
  } else if (h->p.device_exchange) {
    if (int32_t st = CleanParents(h, err, errlen)) return st;
  }
  BFSB_CHECK(cudaMemcpyAsync(dst, h->parents, 8 * h->p.own_len, cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaMemcpyAsync(h->hbig_err, h->big_err, 4, cudaMemcpyDeviceToHost, h->s));  // same wait
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  BFSB_REQUIRE(*h->hbig_err == 0, "dob_parents: a long list found no slot on the BigQueue (capacity %lld)",
               (long long)h->big_cap());
  return 0;
}

int32_t dob_l2_window(void* hv, int64_t* bytes, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && bytes != nullptr, "dob_l2_window: null argument");
  *bytes = h->has_window ? (int64_t)h->window.num_bytes : 0;
  return 0;
}

int32_t dob_l2_aside(void* hv, int32_t on, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr, "dob_l2_aside: null handle");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (int32_t st = Disarm(h, err, errlen)) return st;  // always, as Rank.CopyBandwidth expects
  if (!h->has_window) return 0;
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  if (!on) BFSB_CHECK(cudaCtxResetPersistingL2Cache());
  BFSB_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, on ? h->window.num_bytes : 0));
  return 0;
}

int32_t dob_floor(void* hv, int32_t reps, double* seconds, uint64_t* sink, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && seconds != nullptr && sink != nullptr, "dob_floor: null argument");
  BFSB_REQUIRE(reps >= 1 && reps <= 1000, "dob_floor: reps %d outside 1..1000", reps);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (int32_t st = Disarm(h, err, errlen)) return st;
  if (int32_t st = FlushReset(h, err, errlen)) return st;
  const int64_t rw = h->row_words();
  float ms = 0;
  const int grid = h->WarpGrid((rw + kBuWords - 1) / kBuWords);
  BFSB_CHECK(bfsb::MedianMs(h->ev, 2, 3, h->s, reps, [&] {
    if (h->fdeg != nullptr) {
      FloorKernel<kFirstPacked><<<grid, h->tpb, 0, h->s>>>(h->bu_off, h->bu_adj, h->fdeg, nullptr, h->in_q, h->skip, rw, h->sink);
    } else if (h->deg != nullptr) {
      FloorKernel<kFirstDegree><<<grid, h->tpb, 0, h->s>>>(h->bu_off, h->bu_adj, h->first, h->deg, h->in_q, h->skip, rw, h->sink);
    } else if (h->p.bu_first) {
      FloorKernel<kFirstDense><<<grid, h->tpb, 0, h->s>>>(h->bu_off, h->bu_adj, h->first, h->deg, h->in_q, h->skip, rw, h->sink);
    } else {
      FloorKernel<kFirstList><<<grid, h->tpb, 0, h->s>>>(h->bu_off, h->bu_adj, h->first, h->deg, h->in_q, h->skip, rw, h->sink);
    }
    if (h->leaves.n > 0) {
      if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;  // FloorKernel's launch
      LeafKernel<<<h->ThreadGrid(h->leaves.n), h->tpb, 0, h->s>>>(h->leaves, -1, h->visited, h->ctr);
    }
    return cudaGetLastError();  // the last launch
  }, &ms));
  *seconds = ms / 1e3;
  unsigned long long s = 0;
  BFSB_CHECK(cudaMemcpy(&s, h->sink, 8, cudaMemcpyDeviceToHost));
  *sink = s;
  return 0;
}

int32_t dob_host_alloc(void* hv, int64_t bytes, void** ptr, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && ptr != nullptr && bytes >= 0, "dob_host_alloc: bad argument");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (int32_t st = Disarm(h, err, errlen)) return st;  // cudaMallocHost may wait for the device
  void* q = nullptr;
  BFSB_CHECK(cudaMallocHost(&q, bytes > 0 ? bytes : 4));
  h->host.push_back(q);
  *ptr = q;
  return 0;
}

int32_t dob_stream(void* hv, uint64_t* stream, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && stream != nullptr, "dob_stream: null argument");
  *stream = (uint64_t)(uintptr_t)h->s;
  return 0;
}

int32_t dob_dev_buffers(void* hv, dob_dev_bufs* b, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && b != nullptr, "dob_dev_buffers: null argument");
  BFSB_REQUIRE(h->p.device_exchange, "dob_dev_buffers: the handle was made without device_exchange");
  b->out_queue = (uint64_t)(uintptr_t)h->out_q;
  b->row_gather = (uint64_t)(uintptr_t)h->row_gather;
  b->own = (uint64_t)(uintptr_t)h->own;
  b->gather = (uint64_t)(uintptr_t)h->gather;
  b->pred_send = (uint64_t)(uintptr_t)h->pred_send;
  b->pred_recv = (uint64_t)(uintptr_t)h->pred_recv;
  b->own_words = h->own_words();
  b->counts = (uint64_t)(uintptr_t)h->red;
  return 0;
}

int32_t dob_dev_union(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && h->p.device_exchange, "dob_dev_union: no device-exchange handle");
  if (h->p.grid_c == 1) return 0;  // the union is out_queue
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  const int64_t rw = h->row_words();
  RowScanKernel<<<h->ThreadGrid(rw), h->tpb, 0, h->s>>>(h->row_gather, h->p.grid_c, h->p.grid_j, rw, h->prefix,
                                                         h->uni);
  BFSB_CHECK_LAUNCH("RowScanKernel");
  return 0;
}

int32_t dob_dev_load_in(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && h->p.device_exchange, "dob_dev_load_in: no device-exchange handle");
  if (h->Aligned()) return 0;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  const int64_t cw = h->col_words();
  PlaceBitsKernel<<<h->ThreadGrid(cw), h->tpb, 0, h->s>>>(h->gather, h->p.block, h->p.grid_r, h->in_q, cw);
  BFSB_CHECK_LAUNCH("PlaceBitsKernel");
  return 0;
}

int32_t dob_dev_pack_pred(void* hv, int32_t all, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && h->p.device_exchange, "dob_dev_pack_pred: no device-exchange handle");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  PackPredKernel<<<h->ThreadGrid(h->p.local_rows), h->tpb, 0, h->s>>>(all ? h->all_assigned : h->level_assigned,
                                                                        h->pred, h->pred_send, h->p.local_rows);
  BFSB_CHECK_LAUNCH("PackPredKernel");
  return 0;
}

int32_t dob_dev_write_pred(void* hv, int32_t end, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && h->p.device_exchange, "dob_dev_write_pred: no device-exchange handle");
  if (end) {  // dob_parents builds them from pred_recv (or pred)
    h->parents_deferred = true;
    return 0;
  }
  if (h->p.own_len == 0) return 0;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (int32_t st = CleanParents(h, err, errlen)) return st;
  const bool one_col = h->p.grid_c == 1;  // no all-to-all: the own block of pred_send
  const uint32_t* src = one_col ? h->pred_send + h->p.grid_j * h->p.block : h->pred_recv;
  const int64_t blocks = one_col ? 1 : h->p.grid_c, first = one_col ? h->p.grid_j : 0;
  WritePredKernel<<<h->ThreadGrid(blocks * h->p.own_len), h->tpb, 0, h->s>>>(
      src, blocks, first, h->p.block, h->p.own_len, h->p.local_cols, h->parents);
  BFSB_CHECK_LAUNCH("WritePredKernel");
  return 0;
}

int32_t dob_loop_begin(void* hv, const dob_loop_params* lp, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && lp != nullptr, "dob_loop_begin: null argument");
  BFSB_REQUIRE(h->p.single || h->p.device_exchange,
               "dob_loop_begin: a 2D grid's device loop needs device_exchange (its exchanges stay on the device)");
  if (int32_t st = CheckLoopParams(h, "dob_loop_begin", lp, err, errlen)) return st;
  if (h->prequeued > 0) {  // a gated start: dob_loop_arm launched the reset with these parameters
    BFSB_REQUIRE(!h->armed, "dob_loop_begin: call dob_reset first");
    BFSB_REQUIRE(lp->alpha == h->lp.alpha && lp->beta == h->lp.beta && lp->mode == h->lp.mode && lp->n == h->lp.n &&
                     lp->dir == h->lp.dir && lp->edges == h->lp.edges && lp->split_from == h->lp.split_from &&
                     lp->split_to == h->lp.split_to,
                 "dob_loop_begin: parameters other than those dob_loop_arm queued the start with");
    return 0;
  }
  BFSB_REQUIRE(h->level == 0, "dob_loop_begin: call it right after dob_reset");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  h->lp = *lp;
  h->loop_synced = 0;
  h->loop_started = false;
  const LoopInit init{h->loop, *lp};
  if (h->p.single) {
    // A 1×1 grid starts here (its m_f needs no allreduce), in the reset's
    // launch; dob_loop_start then launches nothing.
    BFSB_REQUIRE(h->reset_pending, "dob_loop_begin: call it once, right after dob_reset");
    return LaunchReset(h, h->reset_row, h->reset_col, h->root_own, init, nullptr, 0, err, errlen);
  }
  InitLoopKernel<<<1, 32, 0, h->s>>>(init, h->red);
  BFSB_CHECK_LAUNCH("InitLoopKernel");
  return 0;
}

int32_t dob_loop_start(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr, "dob_loop_start: null handle");
  if (h->prequeued > 0) return 0;  // a gated start: queued started
  BFSB_REQUIRE(h->level == 0 && !h->loop_started, "dob_loop_start: call it once, after dob_loop_begin");
  if (!h->p.single) {  // 1×1: dob_loop_begin's reset launch started the loop
    BFSB_CHECK(cudaSetDevice((int)h->p.device));
    StartLoopKernel<<<1, 32, 0, h->s>>>(h->loop, h->red, h->lp);
    BFSB_CHECK_LAUNCH("StartLoopKernel");
  }
  h->loop_started = true;
  return 0;
}

int32_t dob_loop_explore(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr, "dob_loop_explore: null handle");
  if (h->prequeued > 0) {  // a gated start: dob_loop_arm queued this level
    BFSB_REQUIRE(!h->armed, "dob_loop_explore: call dob_reset first");
    h->prequeued--;
    return 0;
  }
  BFSB_REQUIRE(h->loop_started, "dob_loop_explore: call dob_loop_start first");
  BFSB_REQUIRE(h->level - h->loop_synced < kLoopSlots, "dob_loop_explore: %d levels since the last dob_loop_sync",
               kLoopSlots);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  return EnqueueLevel(h, err, errlen);
}

int32_t dob_loop_merge(void* hv, int32_t assigned, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && h->p.device_exchange, "dob_loop_merge: no device-exchange handle");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  // A one-column grid's union is out_queue, which the exploration already
  // put in visited and counted: unless a per-level WritePred reads the
  // level's assigned rows, nothing is left to merge.
  h->merge_skipped = h->p.grid_c == 1 && !assigned;
  if (!h->merge_skipped) {  // both count into h->Cur(), the set the exploration zeroed
    const int64_t rw = h->row_words();
    MergeKernel<<<h->ThreadGrid(rw), h->tpb, 0, h->s>>>(h->out_q, h->p.grid_c == 1 ? nullptr : h->prefix,
                                                         h->Union(), h->bu_off, h->level_assigned, h->all_assigned,
                                                         h->visited, rw, h->Cur());
    BFSB_CHECK_LAUNCH("MergeKernel");
  }
  // In the aligned layout own is a view of the union: the kernel would
  // rewrite each word with itself, and is needed only for its count.
  if (!h->merge_skipped || !h->Aligned()) {
    OwnBitsKernel<<<h->ThreadGrid(h->own_words()), h->tpb, 0, h->s>>>(h->Union(), h->p.grid_j * h->p.block,
                                                                       h->p.block, h->own, h->Cur());
    BFSB_CHECK_LAUNCH("OwnBitsKernel");
  }
  BFSB_CHECK(h->ev.Record(h->LoopEvent(2), h->s));
  return 0;
}

int32_t dob_loop_counts(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && h->p.device_exchange, "dob_loop_counts: no device-exchange handle");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  CountsKernel<<<1, 32, 0, h->s>>>(h->Next(), h->Cur(), h->red, h->merge_skipped ? 1 : 0);
  BFSB_CHECK_LAUNCH("CountsKernel");
  return 0;
}

int32_t dob_loop_decide(void* hv, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && h->p.device_exchange, "dob_loop_decide: no device-exchange handle");
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  BFSB_CHECK(h->ev.Record(h->LoopEvent(3), h->s));
  if (int32_t st = Decide(h, err, errlen)) return st;
  BFSB_CHECK(h->ev.Record(h->LoopEvent(4), h->s));
  return 0;
}

// WaitEnd (1×1): the search ends as soon as the host knows it. The host
// polls the end flag EndLevel sets, rather than wait for the stream and
// copy the state back (about 10 µs more), until the flag is set (then it
// records the end) or the stream has drained (a batch of levels that ended
// before the search, or before its leaves: see dob_loop_sync).
int32_t WaitEnd(Handle* h, char* err, int32_t errlen) {
  const volatile int* end = h->hend;
  for (int k = 1;; ++k) {
    if (*end) {
      // Gated, on the start's stream, which is idle: the end is when the
      // host learned it, not after the levels the batch enqueued past it
      // (launches that return at once, about 8 µs a level on an H200
      // under Nsight Compute). dev_end: the device stamped it (EndLevel).
      if (!h->dev_timed) BFSB_CHECK(h->ev.Record(1, h->s_start != nullptr ? h->s_start : h->s));
      h->ended = true;
      return 0;
    }
    if (k % 64 != 0) continue;
    const cudaError_t q = cudaStreamQuery(h->s);
    if (q == cudaErrorNotReady) continue;
    BFSB_CHECK(q);
    if (*end) continue;  // set as the stream drained: record the end above
    return 0;
  }
}

int32_t dob_loop_sync(void* hv, dob_level_rec* recs, int64_t cap, int64_t* n, int32_t* done, int64_t* leaves,
                      char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && recs != nullptr && n != nullptr && done != nullptr && leaves != nullptr,
               "dob_loop_sync: null argument");
  BFSB_REQUIRE(cap >= kLoopSlots, "dob_loop_sync: room for %lld records, want %d", (long long)cap, kLoopSlots);
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (int32_t st = FlushReset(h, err, errlen)) return st;
  if (h->p.single && !h->ended) {
    if (int32_t st = WaitEnd(h, err, errlen)) return st;
  }
  BFSB_CHECK(cudaMemcpyAsync(h->hloop, h->loop, 2 * sizeof(LoopState) + kLoopSlots * sizeof(LevelRec),
                             cudaMemcpyDeviceToHost, h->s));
  BFSB_CHECK(cudaStreamSynchronize(h->s));
  // The state the last enqueued level's decision wrote.
  const LoopState& st = h->hloop[h->level & 1];
  BFSB_REQUIRE(st.gate != 2, "dob_loop_sync: the gated start read a stale root (sequence number %u)",
               h->gate_seq);
  // The batch ended with the level that found nothing, before the launch
  // that gives the leaves their parents: enqueued below, once the records
  // are read.
  const bool leaves_left = h->p.single && st.done && st.leaf_pending;
  BFSB_REQUIRE(!h->p.single || (st.done && !st.leaf_pending) == (int)h->ended,
               "dob_loop_sync: the loop state says done %d (leaves pending %d), the end flag %d", st.done,
               st.leaf_pending, (int)h->ended);
  // The levels completed since the last sync: those enqueued, up to the
  // one that found nothing.
  const int64_t last = std::min<int64_t>(h->level, st.level);
  if (st.done && h->p.single && last > 0) h->end_slot = (int)((last - 1) % kLoopSlots);
  int64_t k = 0;
  for (int64_t l = h->loop_synced; l < last; ++l, ++k) {
    const LevelRec& r = h->hring[l % kLoopSlots];
    dob_level_rec& o = recs[k];
    o.dir = r.dir;
    o.nf = r.nf;
    o.mf = r.mf;
    o.edges = r.edges;
    h->loop_slot = (int)(l % kLoopSlots);
    float t[4] = {0, 0, 0, 0};
    // The end of the level before (level 0: the search's start, dob_reset).
    const int before = l == 0 ? 0 : Handle::SlotEvent((int)((l - 1) % kLoopSlots), 4);
    float gap = 0;
    if (h->p.single && h->p.dev_clock && (l > 0 || h->p.dev_clock == 2)) {
      // dev_clock: since the level before's decision, by the device's
      // clock (EndLevel's stamps); level 0 with dev_clock 2 since the
      // reset's first instruction (ResetKernel's stamp), the time before
      // it (the start event's step and the reset's launch) going to the
      // end, the search's time less its levels' (dob_finish).
      t[0] = (float)((r.stamp - (l == 0 ? st.start_ns : h->last_stamp)) / 1e6);
    } else if (h->p.single) {
      // One event a level: the level is the time since the one before
      // ended, its exploration with the decision (EndLevel) and the
      // launches between (level 0: the reset and the loop's start).
      BFSB_CHECK(h->ev.ElapsedMs(before, h->LoopEvent(4), &t[0]));
    } else {
      BFSB_CHECK(h->ev.ElapsedMs(h->LoopEvent(0), h->LoopEvent(1), &t[0]));
      BFSB_CHECK(h->ev.ElapsedMs(h->LoopEvent(1), h->LoopEvent(2), &t[1]));
      BFSB_CHECK(h->ev.ElapsedMs(h->LoopEvent(2), h->LoopEvent(3), &t[2]));
      BFSB_CHECK(h->ev.ElapsedMs(h->LoopEvent(3), h->LoopEvent(4), &t[3]));
      // The gap before the level: since the previous level's decision,
      // or for level 0 since the search's start event (dob_reset).
      BFSB_CHECK(h->ev.ElapsedMs(before, h->LoopEvent(0), &gap));
    }
    if (h->p.single && st.done && l == last - 1 && st.leaf_ns > 0) {
      // The last level's launch ran the leaves' pass (EndLevel): its
      // device time goes to the search's end (dob_finish).
      h->end_leaf_ms = (float)(st.leaf_ns / 1e6);
      t[0] -= h->end_leaf_ms;
    }
    h->last_stamp = r.stamp;
    h->levels_ms += t[0];
    o.explore_ms = t[0];
    o.row_ms = t[1];
    o.column_ms = t[2];
    o.switch_ms = t[3];
    o.gap_ms = gap;
  }
  *n = k;
  *done = st.done;
  if (st.done && !leaves_left) {
    h->gate_ns = st.gate_ns;
    h->end_ns = st.end_ns;
  }
  leaves[0] = st.done && !leaves_left ? st.leaves : 0;
  leaves[1] = st.done && !leaves_left ? st.deep : 0;
  h->loop_synced = h->level;
  if (leaves_left) {
    if (int32_t rc = dob_loop_explore(hv, err, errlen)) return rc;
    if (int32_t rc = WaitEnd(h, err, errlen)) return rc;
    BFSB_REQUIRE(h->ended, "dob_loop_sync: the leaves' launch ended without the end flag");
    LoopState* last = h->hloop + (h->level & 1);
    BFSB_CHECK(cudaMemcpyAsync(last, h->loop + (h->level & 1), sizeof(LoopState), cudaMemcpyDeviceToHost, h->s));
    BFSB_CHECK(cudaStreamSynchronize(h->s));
    BFSB_REQUIRE(last->done && !last->leaf_pending, "dob_loop_sync: the leaves' launch left done %d, pending %d",
                 last->done, last->leaf_pending);
    leaves[0] = last->leaves;
    leaves[1] = last->deep;
    h->gate_ns = last->gate_ns;
    h->end_ns = last->end_ns;
    h->loop_synced = h->level;
  }
  return 0;
}

int32_t dob_loop_arm(void* hv, const dob_loop_params* lp, int32_t levels, char* err, int32_t errlen) {
  Handle* h = (Handle*)hv;
  BFSB_REQUIRE(h != nullptr && lp != nullptr, "dob_loop_arm: null argument");
  BFSB_REQUIRE(h->p.gated, "dob_loop_arm: the handle was made without gated");
  BFSB_REQUIRE(levels >= 1 && levels <= kLoopSlots, "dob_loop_arm: %d levels, want 1 to %d", levels, kLoopSlots);
  if (int32_t st = CheckLoopParams(h, "dob_loop_arm", lp, err, errlen)) return st;
  BFSB_CHECK(cudaSetDevice((int)h->p.device));
  if (int32_t st = Disarm(h, err, errlen)) return st;
  if (int32_t st = FlushReset(h, err, errlen)) return st;
  // The state dob_reset and dob_loop_begin give an eager search.
  BeginSearch(h);
  h->loop_synced = 0;
  h->loop_started = false;
  h->lp = *lp;
  const uint32_t seq = h->gate_seq + 1;
  if (h->p.loop_graph) {
    BFSB_CHECK(cudaStreamBeginCapture(h->s, cudaStreamCaptureModeThreadLocal));
    int32_t st = EnqueueArmed(h, lp, levels, seq, err, errlen);
    if (int32_t end = ArmGraph(h, st == 0, err, errlen); st == 0) st = end;
    if (st != 0) h->armed = false;  // nothing was launched
    return st;
  }
  return EnqueueArmed(h, lp, levels, seq, err, errlen);
}

void dob_destroy(void* hv) {
  Handle* h = (Handle*)hv;
  if (h == nullptr) return;
  char err[256];
  if (cudaSetDevice((int)h->p.device) == cudaSuccess) Disarm(h, err, (int32_t)sizeof(err));  // a queued start must not block the frees
  delete h;
}

}  // extern "C"
