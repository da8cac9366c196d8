// Command leafcount counts diropt's leaves step's groups at a scale: the leaves
// (degree 1 after self-loops and duplicates are removed), the groups
// (one per distinct neighbour that is not a leaf; one per leaf whose
// neighbour is a leaf, the two-vertex components), and those pairs, on
// the Graph500 graph of seed [2, 3] (edge factor 16). It says what a
// leaves' pass reads (LeafPass in plugins/diropt/cuda/diropt.cu: a group's
// bounds and its neighbour's visited bit) and how much of it the
// two-vertex components are, which every search clears
// (results/diropt-1000, Next).
//
//	go run ./scripts/leafcount -scale 23   (about a minute and 3 GB)
package main

import (
	"flag"
	"fmt"
	"slices"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

func main() {
	scale := flag.Int("scale", 20, "scale")
	flag.Parse()
	n := int64(1) << *scale
	edges := graph500.Generate(*scale, 16, [2]uint64{2, 3})
	off := make([]int64, n+1)
	for _, e := range edges {
		if e.V0 != e.V1 {
			off[e.V0+1]++
			off[e.V1+1]++
		}
	}
	for v := int64(0); v < n; v++ {
		off[v+1] += off[v]
	}
	adj := make([]int32, off[n])
	pos := slices.Clone(off[:n])
	for _, e := range edges {
		if e.V0 != e.V1 {
			adj[pos[e.V0]] = int32(e.V1)
			pos[e.V0]++
			adj[pos[e.V1]] = int32(e.V0)
			pos[e.V1]++
		}
	}
	edges = nil
	deg := make([]int32, n)
	first := make([]int32, n)
	for v := int64(0); v < n; v++ {
		l := adj[off[v]:off[v+1]]
		slices.Sort(l)
		l = slices.Compact(l)
		deg[v] = int32(len(l))
		if len(l) > 0 {
			first[v] = l[0]
		}
	}
	var leaves, pairLeaves, isolated int64
	hub := make([]bool, n)
	var groups int64
	for v := int64(0); v < n; v++ {
		switch deg[v] {
		case 0:
			isolated++
		case 1:
			leaves++
			w := first[v]
			if deg[w] == 1 {
				pairLeaves++
			} else if !hub[w] {
				hub[w] = true
				groups++
			}
		}
	}
	fmt.Printf("scale %d: n %d, isolated %d, leaves %d, groups by a non-leaf neighbour %d, leaves in two-vertex components %d (%d groups of one)\n",
		*scale, n, isolated, leaves, groups, pairLeaves, pairLeaves)
}
