/* diropt.h: the C ABI of libdiropt.so, the CUDA backend of the diropt
 * variant: the direction-optimizing BFS of [Krajecki] (docs/papers.md):
 * Algorithm 2 (the 2D BFS of [Checconi]) with ExploreFrontier top-down
 * (Algorithm 3, CSR) or bottom-up (CSC) after [Beamer].
 *
 * One handle is one processor P(i,j)'s search state on one GPU: its block
 * in CSR (local column -> local rows) and CSC (local row -> local columns),
 * the bitmaps in_queue (local columns), out_queue and visited (local rows),
 * a 32-bit predecessor per local row (the local column it was found from)
 * and, on 2D grids, the own block's 64-bit parents. The level loop runs in
 * Go: on the device (dob_loop_*, dobfs/device_loop.go) on a 1×1 grid and
 * with device exchanges, else from the host (plugins/diropt/dobfs/rank.go),
 * reading each level's counts back; the exchanges of 2D grids are staged
 * through host buffers (dob_stage_out, dob_merge, dob_load_in), or, with
 * device_exchange, made between the device buffers of dob_dev_buffers by
 * a device communicator (NCCL) on the handle's stream, with the dob_dev_*
 * kernels around them.
 *
 * Errors follow bfsb_abi.h: an int32 status (0 = success) and a message in
 * the caller's buffer (err, errlen), always the last two arguments. Every
 * function selects the handle's device first, so a handle may be used from
 * any host thread (one at a time). */
#ifndef BFSBENCH_DIROPT_H
#define BFSBENCH_DIROPT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DOB_ABI_VERSION 50

/* One rank's shape and tuning; all int64 so the Go mirror has no padding. */
typedef struct dob_params {
  int64_t device;            /* CUDA device ordinal */
  int64_t local_rows;        /* C·B: visited, out_queue, predecessors */
  int64_t local_cols;        /* R·B: in_queue */
  int64_t td_nnz;            /* CSR entries */
  int64_t bu_nnz;            /* CSC entries */
  int64_t shared;            /* 1: the CSC is the CSR (a 1×1 grid's symmetric
                                block): bu_off and bu_adj are not uploaded;
                                2: the CSC's offsets are the CSR's (a 1×1
                                block whose lists are in two orders, td_ids):
                                bu_off is not uploaded, bu_adj is; 0: the
                                CSC is its own arrays */
  int64_t single;            /* 1: a 1×1 grid (parents read from the
                                predecessors and visited) */
  int64_t own_len;           /* vertices of the own block (2D parents) */
  int64_t threads_per_block; /* multiple of 32 in [64, 1024] */
  int64_t td_big;            /* top-down: lists of at least td_big entries are
                                gathered by the whole grid in a second kernel
                                (0: every list by its word's warp, as
                                Algorithm 3) */
  int64_t bu_serial;         /* bottom-up: entries a lane scans alone before
                                its warp scans the rest of its list together
                                (0: each lane scans its whole list) */
  int64_t grid_r, grid_c;    /* the R×C grid */
  int64_t grid_j;            /* this processor's grid column j */
  int64_t block;             /* B, vertices per vertex block */
  int64_t device_exchange;   /* 1: the 2D exchanges run between device
                                buffers (dob_dev_*, over NCCL on the
                                handle's stream); 0: staged through host
                                buffers (dob_stage_out, dob_merge, ...) */
  int64_t bu_first;          /* bottom-up: 1: each row's first CSC entry is
                                also kept in a dense array (first), which
                                the first check of a level reads instead of
                                the list (4 bytes a row, coalesced, where the
                                list's entry costs a 32-byte sector) */
  int64_t bu_batch;          /* bottom-up: list entries a lane loads at
                                once in its own scan (1 or 2; 1: one
                                entry at a time, as the paper's scan) */
  int64_t bu_skip;           /* bottom-up: 1: a warp loads 32 words of
                                visited at once and explores only those
                                with an unvisited row; 0: kBuWords words
                                at a time, each explored */
  int64_t td_lane;           /* top-down: > 0: a lane takes a word of
                                in_queue (kTdWords words a lane at once)
                                and expands its lists of fewer than
                                td_lane entries alone, every lane at once;
                                0: a warp per word, its lists one after
                                another, as Algorithm 3 */
  int64_t td_batch;          /* top-down with td_lane: list entries a lane
                                reads at once (1 or 4), their visited
                                tests and atomics issued together */
  int64_t bu_compact;        /* bottom-up with bu_skip (else unused): a
                                chunk of 32 words of visited with at most
                                bu_compact unvisited rows is explored a
                                lane a row (0: never; at most 1024) */
  int64_t leaves;            /* 1×1: the leaf pairs dob_create uploads
                                (vertices of degree 1, left out of the
                                levels and given their parents after the
                                last one; 0: none, every vertex in the
                                levels) */
  int64_t pdl;               /* 1×1 device loop: 1: each exploration kernel
                                is a programmatic dependent launch (Hopper):
                                its blocks are scheduled while the kernel
                                before it runs, and wait for its end */
  int64_t gated;             /* 1×1 device loop: 1: dob_loop_arm may queue
                                the next search's launches behind a gate
                                that its dob_reset opens, after it
                                records the search's start; 2: the same,
                                the start event queued behind the gate
                                (the clock starts once the GPU has the
                                root); 3 (dev_end, with dev_clock 2): no
                                events, the search timed by the device's
                                clock from GateKernel's reading of the
                                root to the decision of the level that
                                ends it, where the parent array is
                                complete in device memory */
  int64_t l2_window;         /* 1×1: 1: the bitmaps (visited and the three
                                queues, one allocation) are an L2
                                access-policy window of persisting lines
                                on the handle's stream */
  int64_t bu_deg;            /* bottom-up with bu_first and bu_skip: > 0:
                                each row's degree is also kept in a byte
                                (255 for 255 or more), and level bu_deg
                                (its index since the reset) launches the
                                bottom-up kernel whose first check reads
                                it instead of the offsets, which a row
                                then reads only where it needs them; 0:
                                none */
  int64_t split;             /* 1×1 device loop with bu_first, bu_skip and
                                td_lane (lists by neighbour degree): > 0:
                                the degree bound D of the split level
                                (dobfs/split.go): each vertex's tail (its
                                first CSC entry of degree < D) and the rows
                                of degree < D are kept, and level 2 launches
                                the kernels that run its marks and its
                                bottom-up side; 0: none */
  int64_t split_help;        /* with split: 0: the split level's warp help
                                loads 32·bu_batch entries a step, as the
                                other bottom-up levels; 32 (bu_batch 2,
                                bu_serial > 0): 32 entries a step */
  int64_t bu_queue;          /* bottom-up with bu_first, bu_skip, bu_batch 2
                                and bu_serial > 0: > 0: the level (its
                                index; not bu_deg's) whose bottom-up launch
                                queues the rows that miss their first check
                                in shared memory, a queue a warp, and scans
                                them 128 at a time; 0: none (each group's
                                rows scanned before the next group) */
  int64_t bu_deg_packed;     /* with bu_deg, bu_first, bu_skip, bu_batch 2
                                and bu_serial > 0, and at most 2^26
                                columns: 1: level bu_deg reads each row's
                                first entry and degree from one word
                                (fdeg; tuned on) instead of first and the
                                degree byte; 0: the byte */
  int64_t dev_clock;         /* 1×1 device loop: 1: the levels after level 0
                                timed by the device's clock at each level's
                                decision (%globaltimer), with no CUDA event
                                between them, so that every launch after
                                level 0's is a programmatic dependent one
                                (pdl); the end is the search's time less its
                                levels'; 2 (reset_stamp): level 0 too, from
                                the reset's first instruction (ResetKernel's
                                stamp), with no event after it, so that
                                level 1's first launch is dependent too (the
                                time before the reset's first instruction
                                goes to the end); 0: a CUDA event after each
                                level */
  int64_t pred_lines;        /* 1×1 with bu_queue: 1: level bu_queue's
                                bottom-up launch writes whole the 32-byte
                                sectors of pred that hold no row visited
                                before it but isolated ones and leaves (a
                                row found: its parent; any other: its first
                                CSC entry, a leaf's neighbour), so that no
                                sector is read from DRAM to merge a part,
                                and level bu_queue + 1, where it is bu_deg's
                                packed level, writes no pred for a row that
                                hits at its first entry in such a sector
                                after a bottom-up level bu_queue; 0: every
                                found row's pred alone */
  int64_t td_eager;          /* device loop: > 0: the top-down visits of
                                the first td_eager levels (their frontier
                                a few steps from the root at most, few
                                vertices visited) claim each entry with the
                                atomicOr at once, its degree loaded beside
                                it, without the visited test before it; 0:
                                the test first on every level */
  int64_t loop_graph;        /* with gated 3 (dev_end): 1: dob_loop_arm's
                                launches (GateKernel, the reset, the
                                queued levels) are captured as one CUDA
                                graph, its programmatic dependent launches
                                programmatic edges, and launched as one
                                (the graph kept and updated from one arm
                                to the next); 0: launched on the stream */
} dob_params;

/* dob_abi_version returns DOB_ABI_VERSION. */
int32_t dob_abi_version(void);

/* dob_device_bytes stores in *bytes the device memory a handle with these
 * params allocates. */
int32_t dob_device_bytes(const dob_params* p, int64_t* bytes, char* err, int32_t errlen);

/* dob_create allocates a handle and uploads the block: td_off[local_cols+1]
 * into td_adj[td_nnz] (local rows), bu_off[local_rows+1] into
 * bu_adj[bu_nnz] (local columns; bu_off ignored when shared, bu_adj when
 * shared is 1), isolated: a bitmap
 * over local rows of the rows with no neighbour (marked visited by every
 * reset, so that no kernel scans them), and leaves (p->leaves > 0, 1×1
 * only; else NULL): p->leaves pairs (v, w), leaf v's one neighbour w,
 * its bit 31 set where w is a leaf too, by increasing w, then v (the pass
 * takes the leaves of one w together, one visited test for them).
 * Their predecessors are set to w here, once; a reset marks the leaves
 * visited as well, and the search's last launch clears the visited bits
 * of those whose w it did not reach. */
int32_t dob_create(const dob_params* p, const uint32_t* td_off, const uint32_t* td_adj,
                   const uint32_t* bu_off, const uint32_t* bu_adj, const uint32_t* isolated,
                   const uint32_t* leaves, void** out, char* err, int32_t errlen);

/* dob_reset is Algorithm 2 lines 1-5 and starts the search's clock (a CUDA
 * event): visited <- isolated, queues emptied, the root's bits set (row
 * root_row of visited, column root_col of in_queue, each when >= 0), its
 * predecessor set to itself, and on 2D grids the own parents set to -1 but
 * the root's (offset root_own when >= 0) to root_global. On a 1×1 grid
 * the reset is launched by dob_loop_begin, which must come next, with the
 * loop's start (one launch; any other call launches it alone); after
 * dob_loop_arm it records the start and opens the gate on the root. */
int32_t dob_reset(void* h, int64_t root_row, int64_t root_col, int64_t root_own,
                  int64_t root_global, char* err, int32_t errlen);

/* dob_explore is ExploreFrontier for one level of a 2D grid's host loop
 * (exchanges staged through the host), top-down (bottom_up = 0) or
 * bottom-up, then one readback: counts[0] the vertices put in out_queue,
 * counts[1] the sum of their CSC degrees, counts[2] the adjacency entries
 * read. A 1×1 grid, and a 2D grid with device exchanges, run the device
 * loop (dob_loop_*). */
int32_t dob_explore(void* h, int32_t bottom_up, int64_t* counts, char* err, int32_t errlen);

/* dob_finish stops the search's clock and stores the seconds since
 * dob_reset in *seconds, once the device work is complete, and in
 * *end_seconds (1×1 device loop; else 0) the part of them after the last
 * level's decision: the levels enqueued past the end and the host's wait
 * until it records the end (it polls a flag the last level sets); with
 * dev_clock the search's time less its levels' (dob_loop_sync): level 1
 * then runs from level 0's decision, not its end event, and the end lacks
 * that step (level 0's last block after its decision, and the event).
 * With gated 3 (dev_end), for a gated search, the seconds are the device's
 * clock from GateKernel's reading of the root to the decision of the
 * level that ended the search (the leaves' pass before it): no host wait
 * in them. */
int32_t dob_finish(void* h, double* seconds, double* end_seconds, char* err, int32_t errlen);

/* dob_stage_out copies out_queue to host dst (⌈local_rows/32⌉ words). */
int32_t dob_stage_out(void* h, uint32_t* dst, char* err, int32_t errlen);

/* dob_merge (2D, after the row exchange): the rows of out_queue not in
 * prefix are assigned to this rank, visited |= uni; *mf receives the sum of
 * the CSC degrees of uni's rows. prefix and uni are host bitmaps over local
 * rows. */
int32_t dob_merge(void* h, const uint32_t* prefix, const uint32_t* uni, int64_t* mf, char* err,
                  int32_t errlen);

/* dob_load_in copies host src (⌈local_cols/32⌉ words) into in_queue. */
int32_t dob_load_in(void* h, const uint32_t* src, char* err, int32_t errlen);

/* dob_assigned copies to host the bitmap of the rows assigned by the last
 * dob_merge (all = 0) or by every merge since the reset (all = 1), and the
 * predecessors of every local row (pred: local_rows words). */
int32_t dob_assigned(void* h, int32_t all, uint32_t* bitmap, uint32_t* pred, char* err,
                     int32_t errlen);

/* dob_write_parents is WritePred on the owner: npairs (offset in the own
 * block, global parent) pairs from host memory are written to the parents. */
int32_t dob_write_parents(void* h, const int64_t* pairs, int64_t npairs, char* err,
                          int32_t errlen);

/* dob_parents copies the own block's parents to host dst (own_len int64,
 * -1 for unreached vertices). On a 1×1 grid they are made on the device
 * from the predecessors and visited first (visited rows but the isolated
 * ones, and the root); on the 2D device path after an end-of-search
 * WritePred, from what it left on the owner (dob_dev_write_pred). */
int32_t dob_parents(void* h, int64_t root, int64_t* dst, char* err, int32_t errlen);

/* dob_floor times the measured floor: one pass doing the least work of a
 * bottom-up search (see FloorKernel), *seconds the median of reps timed
 * passes (CUDA events, after one warm-up), *sink a value computed from the
 * loads so that they are kept. */
int32_t dob_floor(void* h, int32_t reps, double* seconds, uint64_t* sink, char* err,
                  int32_t errlen);

/* dob_l2_window stores in *bytes the handle's L2 window of persisting
 * lines (l2_window), 0 where it has none: without the parameter, or where
 * the bitmaps exceed the 16 MiB that may be set aside. */
int32_t dob_l2_window(void* h, int64_t* bytes, char* err, int32_t errlen);

/* dob_l2_aside gives the device's persisting L2 set-aside of the handle's
 * window (l2_window) back (on 0) or takes it again (on 1); without a window
 * it does nothing. The set-aside shrinks the L2 that other work streams
 * through (a 1 GiB device copy measured 14 % slower with 16 MB set aside
 * on an H200), so the GPU's copy bandwidth is measured without it. */
int32_t dob_l2_aside(void* h, int32_t on, char* err, int32_t errlen);

/* dob_host_alloc allocates bytes of pinned host memory into *ptr, freed by
 * dob_destroy (the staging buffers of the 2D exchanges). */
int32_t dob_host_alloc(void* h, int64_t bytes, void** ptr, char* err, int32_t errlen);

/* The device path of the 2D exchanges (device_exchange = 1), run by the
 * device loop. Every call only enqueues work on the handle's stream
 * (dob_stream), on which the caller's NCCL operations are enqueued too, so
 * that stream order is the exchange's order. */

/* Device buffers the communicator reads and writes (uint32 words). */
typedef struct dob_dev_bufs {
  uint64_t out_queue;  /* ⌈local_rows/32⌉ */
  uint64_t row_gather; /* grid_c·⌈local_rows/32⌉ (grid_c > 1): the row's
                          allgather of the out_queues */
  uint64_t own;        /* ⌈B/32⌉: the own block's bits of the row union
                          (B % 32 == 0: inside it, at word grid_j·B/32) */
  uint64_t gather;    /* grid_r·⌈B/32⌉: the column's own blocks (B % 32 ==
                         0: in_queue itself) */
  uint64_t pred_send; /* local_rows: WritePred's send buffer */
  uint64_t pred_recv; /* local_rows: WritePred's receive buffer */
  int64_t own_words;  /* ⌈B/32⌉ */
  uint64_t counts;    /* 3 int64: the device loop's counts of a level
                         (dob_loop_counts), summed over the grid by the
                         caller's allreduce before dob_loop_decide */
} dob_dev_bufs;

/* dob_stream stores the handle's cudaStream_t in *stream. */
int32_t dob_stream(void* h, uint64_t* stream, char* err, int32_t errlen);

/* dob_dev_buffers fills *b (device_exchange handles only). */
int32_t dob_dev_buffers(void* h, dob_dev_bufs* b, char* err, int32_t errlen);

/* dob_dev_union is Algorithm 2 lines 12-21 after the row's allgather of
 * the out_queues into row_gather: prefix <- the OR of the blocks of the
 * columns left of grid_j, the union <- the OR of all (a no-op on a
 * one-column grid, whose union is out_queue). */
int32_t dob_dev_union(void* h, char* err, int32_t errlen);

/* dob_dev_load_in is line 24 after the column's allgather into gather:
 * in_queue <- the grid_r blocks of gather, placed at bit offsets r·B (a
 * no-op when B % 32 == 0: the allgather wrote in_queue). */
int32_t dob_dev_load_in(void* h, char* err, int32_t errlen);

/* dob_dev_pack_pred is WritePred's send side: pred_send[v] <- pred[v] for
 * the rows assigned by the last merge (all = 0) or since the reset (all =
 * 1), 0xffffffff for the others. Block m (rows m·B..m·B+B-1) goes to P(i,m)
 * by an all-to-all of B words each along the row. */
int32_t dob_dev_pack_pred(void* h, int32_t all, char* err, int32_t errlen);

/* dob_dev_write_pred is WritePred on the owner after that all-to-all.
 * end = 0 (per level): parents[o] <- ColGlobal(m, pred_recv[m·B+o]) for
 * every block m and own offset o whose entry is not 0xffffffff (on a
 * one-column grid, which has no all-to-all, from pred_send's own block).
 * end = 1 (once, after the search): the predecessors of every own vertex
 * now sit on its owner, in pred_recv (a one-column grid: in pred and the
 * rows assigned since the reset), 32-bit local columns with a known base,
 * as a 1×1 grid's sit in pred; dob_parents makes the int64 parents from
 * them, as it does on 1×1. Nothing is enqueued. */
int32_t dob_dev_write_pred(void* h, int32_t end, char* err, int32_t errlen);

/* The device-resident level loop. The host enqueues levels without waiting
 * for them: the switching rule runs on the device (DecideKernel) after
 * each level, and both directions' kernels are enqueued, each returning at
 * once unless the level is its own; a level after the one that found
 * nothing does nothing. The host synchronizes once per batch of levels
 * (dob_loop_sync), at most 32 levels apart. A 1×1 grid's level is one
 * dob_loop_explore; a 2D level (device_exchange handles) is
 *   dob_loop_explore, [row allgather, dob_dev_union], dob_loop_merge,
 *   [WritePred], dob_loop_counts, [allreduce (sum) of dob_dev_bufs.counts
 *   along the row], one NCCL group of the column allgather and the
 *   counts' allreduce along the column, dob_dev_load_in, dob_loop_decide
 *   (the counts are the exploration's and the merge's, so they may travel
 *   with the column exchange).
 * A search's loop starts with dob_loop_begin, [2D: the same allreduce],
 * dob_loop_start: level 0's direction is chosen on the device too. */

typedef struct dob_loop_params {
  double alpha, beta; /* Beamer et al.'s parameters */
  int64_t mode;       /* 0 hybrid, 1 top-down only, 2 bottom-up only */
  int64_t n;          /* vertices (the rule's n) */
  int64_t dir;        /* the direction before level 0's rule: 0 top-down,
                         1 bottom-up */
  int64_t mf;         /* this rank's share of level 0's m_f (the root's
                         degree in this block; 1×1: the root's degree) */
  int64_t edges;      /* the graph's edges over the grid (m_u = edges -
                         m_f before level 0) */
  double split_from, split_to; /* with split (else 0): level 2 after a
                                  top-down level 1 runs split where
                                  m_u / split_from < m_f <= m_u / split_to */
} dob_loop_params;

/* One level's record (dob_loop_sync): the direction, n_f, m_f and the
 * adjacency entries read over the grid, and its device time in parts
 * (CUDA events). 2D: the exploration, the row exchange and merge, the
 * column exchange with the counts' allreduce and WritePred per level, the
 * decision, and the time before the level since the previous level's end
 * (level 0: since the search's start, so the reset and the loop's start),
 * in which the device waits for the host's launches or runs what lies
 * between. 1×1 (one event a level): explore_ms is all of it, since the
 * previous level's end (level 0: since the search's start), and the other
 * parts are 0; with dev_clock, levels after level 0 from the device's
 * stamps of their decisions (level 0 still by events). */
typedef struct dob_level_rec { /* dir: 0 top-down, 1 bottom-up, 2 split */
  int64_t dir, nf, mf, edges;
  double explore_ms, row_ms, column_ms, switch_ms, gap_ms;
} dob_level_rec;

/* dob_loop_begin starts the loop after dob_reset: it puts the share of
 * level 0's m_f in dob_dev_bufs.counts, which a 2D grid then allreduces.
 * On a 1×1 grid it launches the reset, which starts the loop too. */
int32_t dob_loop_begin(void* h, const dob_loop_params* lp, char* err, int32_t errlen);

/* dob_loop_start chooses level 0's direction on the device from the
 * summed m_f (after dob_loop_begin and, on 2D grids, the allreduce). On a
 * 1×1 grid dob_loop_begin already chose it (one launch less): this one
 * only marks the loop started. */
int32_t dob_loop_start(void* h, char* err, int32_t errlen);

/* dob_loop_explore enqueues a level's exploration (1×1: the whole level);
 * after a gated start, the first calls take the levels dob_loop_arm
 * queued and enqueue nothing. */
int32_t dob_loop_explore(void* h, char* err, int32_t errlen);

/* dob_loop_merge (2D) is Algorithm 2 lines 17 and 23 on the device
 * buffers (the level's assigned rows, visited |= the row union, m_f's
 * share), then own <- the own block's bits of the union, counted (this
 * rank's share of the next n_f). On a one-column grid, whose union is
 * out_queue, it only copies own out of it (where B % 32 != 0; else own is
 * a view of it) unless assigned != 0 (a per-level WritePred reads the
 * level's assigned rows): dob_loop_counts then takes the exploration's
 * counts. */
int32_t dob_loop_merge(void* h, int32_t assigned, char* err, int32_t errlen);

/* dob_loop_counts (2D) writes this rank's share of the level's counts to
 * dob_dev_bufs.counts. */
int32_t dob_loop_counts(void* h, char* err, int32_t errlen);

/* dob_loop_decide (2D) ends the level on the device from the summed counts. */
int32_t dob_loop_decide(void* h, char* err, int32_t errlen);

/* dob_loop_sync waits for the enqueued levels and stores in recs (room for
 * cap >= 32) the records of the levels completed since the last call, *n
 * of them, in *done 1 when the search has ended, and then, with leaves
 * (else 0, 0), in leaves[0] the leaves it reached (the root among them
 * when it is a leaf) and in leaves[1] 1 when some of them lie one level
 * below the last level's frontier (the tree then has one level more than
 * the loop ran). A 1×1 search with leaves whose last level is bottom-up
 * ends one launch after that level (the leaves' parents; after a top-down
 * last level they get them in its launch): where the enqueued levels
 * stopped before that launch, dob_loop_sync enqueues it and waits for it
 * too. */
int32_t dob_loop_sync(void* h, dob_level_rec* recs, int64_t cap, int64_t* n, int32_t* done,
                      int64_t* leaves, char* err, int32_t errlen);

/* dob_loop_arm (1×1, gated) queues the next search's start on the handle's
 * stream behind a gate in pinned memory: the reset (which reads the root
 * from that memory and level 0's m_f from the device's offsets) and the
 * loop's first `levels` levels, as dob_loop_begin, dob_loop_start and
 * dob_loop_explore would. The next dob_reset records the search's start
 * and opens the gate with its root; dob_loop_begin and dob_loop_start then
 * launch nothing, and the first `levels` dob_loop_explore calls take the
 * queued levels. Every other call that uses the stream (dob_parents,
 * dob_floor, dob_l2_aside, dob_host_alloc, dob_destroy, another
 * dob_loop_arm) first opens the gate on a cancelled start, which does
 * nothing, and waits for it. Call it between searches, after the last one's dob_finish. */
int32_t dob_loop_arm(void* h, const dob_loop_params* lp, int32_t levels, char* err, int32_t errlen);

/* dob_destroy frees everything the handle holds. NULL is allowed. */
void dob_destroy(void* h);

#ifdef __cplusplus
}
#endif

#endif /* BFSBENCH_DIROPT_H */
