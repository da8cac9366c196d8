// This file is a graph's degree distribution as Ueno and Suzumura draw it
// (Fig. 1): the vertices sorted by degree, highest first, and
// each one's degree. A Graph500 edge list keeps duplicates and self-loops;
// the degree here counts distinct neighbours (self-loops left out), and
// the edge ends, duplicates counted, are drawn beside it.

package report

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

// Degrees is the degree of every vertex of a graph.
type Degrees struct {
	Degree []int64 // distinct neighbours, self-loops left out
	Ends   []int64 // edge ends, duplicates counted, self-loops left out
}

// DegreesOf counts the degrees of the n vertices of edges.
func DegreesOf(edges []graph500.Edge, n int64) Degrees {
	d := Degrees{Degree: make([]int64, n), Ends: make([]int64, n)}
	seen := make(map[[2]int64]bool, len(edges))
	for _, e := range edges {
		if e.V0 == e.V1 {
			continue
		}
		d.Ends[e.V0]++
		d.Ends[e.V1]++
		k := [2]int64{min(e.V0, e.V1), max(e.V0, e.V1)}
		if !seen[k] {
			seen[k] = true
			d.Degree[e.V0]++
			d.Degree[e.V1]++
		}
	}
	return d
}

// order is the vertices by degree, highest first (ties by id).
func (d Degrees) order() []int {
	idx := make([]int, len(d.Degree))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return d.Degree[idx[a]] > d.Degree[idx[b]] })
	return idx
}

// Isolated is the number of vertices without an edge.
func (d Degrees) Isolated() int {
	n := 0
	for _, v := range d.Degree {
		if v == 0 {
			n++
		}
	}
	return n
}

// CSV is the vertices in degree order: rank (1 = highest degree), vertex,
// degree, ends.
func (d Degrees) CSV() []byte {
	var b bytes.Buffer
	b.WriteString("rank,vertex,degree,ends\n")
	for r, v := range d.order() {
		fmt.Fprintf(&b, "%d,%d,%d,%d\n", r+1, v, d.Degree[v], d.Ends[v])
	}
	return b.Bytes()
}

// Figure draws the degrees against the rank of each vertex, on a log y
// axis (vertices without an edge are not on it), into dir/name.png and
// .svg.
func (d Degrees) Figure(dir, name, title, caption string) ([]string, error) {
	var deg, ends []Point
	for r, v := range d.order() {
		if d.Degree[v] > 0 {
			deg = append(deg, Point{X: float64(r + 1), Y: float64(d.Degree[v])})
		}
	}
	ranked := append([]int64(nil), d.Ends...)
	sort.Slice(ranked, func(a, b int) bool { return ranked[a] > ranked[b] })
	for r, e := range ranked {
		if e > 0 {
			ends = append(ends, Point{X: float64(r + 1), Y: float64(e)})
		}
	}
	c := LineChart{
		Name: name, Title: title, Caption: caption,
		XLabel: "vertices, by degree (rank)", YLabel: "degree (edges)", LogY: true,
		Series: []LineSeries{{Name: "distinct neighbours", Points: deg}, {Name: "edge ends, duplicates counted", Points: ends}},
	}
	return c.Save(dir)
}
