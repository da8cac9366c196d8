// Package graph500 implements the Graph500 benchmark contract that every
// bfsbench variant is measured under: the Kronecker generator (bit-identical
// to the reference 3.0.1 generator), the v3 search-key rule, the validator,
// the TEPS edge count and the statistics of the reference's output.
package graph500

// Edge is one input tuple of the generated edge list, as the reference's
// packed_edge: an undirected edge between V0 and V1. Self-loops and
// duplicates are kept.
type Edge struct {
	V0, V1 int64
}
