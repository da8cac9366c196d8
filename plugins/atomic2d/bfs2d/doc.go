// Package bfs2d is the algorithm of the atomic2d variant, the distributed
// BFS of [Bisson] (docs/papers.md) over the R×C processor grid of its
// §2.2. The files' comments cite it by section, Algorithm and line number:
//
//   - layout.go: the §2.2/§3.1 index maps (local rows, columns, ROW2COL);
//   - rank.go: Algorithm 2, one rank's search loop with per-level phase
//     times and bytes;
//   - exchange.go: the §3.3 non-blocking send/receive scheme of the expand
//     (grid column) and fold (grid row) exchanges, through host memory;
//   - device_exchange.go, cuda_device.go: the same exchanges device to
//     device over NCCL, the expand exchange overlapped with the expansion
//     of the own frontier (§3.3's overlap of communication with
//     computation);
//   - message.go: vertex lists and §5's bitmap messages;
//   - pred.go: the delayed predecessor exchange (§3.5);
//   - engine.go, cpu_engine.go, kernels_cpu.go: the compute backend
//     interface and the CPU backend (Algorithm 3 and §3.5's update with
//     sync/atomic);
//   - cuda_engine.go: the CUDA backend over ../cuda/atomic2d.cu (its host
//     buffers of the exchanges are pinned, so message copies to and from
//     the device run at the link's speed), and the test floor, the least
//     per-edge work of Algorithm 3, timed alone (TestFloor);
//   - api.go: building a rank from harness/partition's 2D blocks.
package bfs2d
