package main

// bound.go: the byte bound and the measured floor (our counts; the paper
// gives neither).

import (
	"fmt"
	"strings"

	"github.com/bfsbench/bfsbench/plugins/merrill/mgbfs"
)

// searchBoundBytes is the fewest bytes a search must move through device
// memory in this variant's layout, divided among the devices (the harness
// divides by one device's bandwidth; the partitions run side by side):
//
//   - every adjacency entry of every frontier vertex, read once by the
//     partition holding it (4 bytes; edges examined, all partitions);
//   - per reached vertex: its two row offsets on every partition (16·p
//     bytes), its Label written (8 bytes), its queue entry written once
//     and read by every partition (4 + 4·p bytes).
//
// Vector's scattered writes, Visited and the scans are not counted: the
// bound is what no search in this layout can avoid.
func searchBoundBytes(r mgbfs.Result, p, devices int) int64 {
	b := 4*r.EdgesExamined + r.Reached*(16*int64(p)+8+4+4*int64(p))
	return b / int64(max(devices, 1))
}

const boundFormula = "(4·edges examined + reached·(16·p + 8 + 4 + 4·p)) / devices: each gathered adjacency entry read once; per reached vertex its row offsets on every partition, its Label written, its queue entry written and read by every partition"

// floorReps is the number of timed passes of the measured floor.
const floorReps = 10

// floorFormula says what InfoFloorTimeS measures.
const floorFormula = "median of 10 passes of FloorKernel (cuda/merrill.cu): one Merrill CTA/warp/scan gather of every adjacency list of partition 0 (huge_lists = grid: the longest in chunks over the GPU, as a search does), scattering each edge's parent into Vector, with no queue: the gather every search does once over its levels, done in one launch (partition 0's share when gpus > 1)"

// floorCheckFormula says what InfoFloorTimeS measures with visited_check.
const floorCheckFormula = "as without visited_check, but with every vertex set visited first, so that each edge is read and its target's Visited tested and nothing is written: the least per-edge work of a search that skips visited targets, below what any search reaches (it writes a parent candidate for each target it finds unvisited)"

// caseInfo describes the partition.
func caseInfo(v *variant, inputEdges int64) map[string]any {
	pt := v.pt
	var nnz int64
	for _, d := range pt.Deg {
		nnz += int64(d)
	}
	info := map[string]any{
		"partitions":      pt.P,
		"partition_lo":    pt.Lo,
		"order":           orderInfo(pt.P),
		"input_edges":     inputEdges,
		"csr_entries":     nnz,
		"bound_formula":   boundFormula,
		"duplicates_note": "self-loops are dropped in construction; duplicate edges are kept (each is gathered, and scatters the same parent)",
	}
	if v.gpu != nil {
		devs := make([]int, pt.P)
		for i := range devs {
			devs[i] = v.gpu.DeviceOf(i)
		}
		info["partition_devices"] = devs
		info["shared_devices"] = v.gpu.Shared
		if v.gpu.Shared {
			info["shared_devices_note"] = "fewer CUDA devices than partitions: partitions share devices round-robin, and peer copies between partitions of one device are device-to-device copies"
		}
	}
	return info
}

// orderInfo is each partition's gathering order, e.g. "1: 1 2 0".
func orderInfo(p int) []string {
	var out []string
	for i := 0; i < p; i++ {
		out = append(out, fmt.Sprintf("%d: %s", i, strings.Trim(fmt.Sprint(mgbfs.CircularOrder(i, p)), "[]")))
	}
	return out
}
