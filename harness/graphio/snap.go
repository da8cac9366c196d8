// This file reads SNAP edge lists (snap.stanford.edu: one edge "u v" per
// line, '#' comment lines) and writes the same plain-text format.

package graphio

import (
	"bufio"
	"io"
	"math"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

// ReadSNAP reads a SNAP edge list: lines of two blank-separated
// non-negative integer vertex ids; lines whose first non-blank character is
// '#' are comments, blank lines are skipped. Every edge is kept as written,
// self-loops and duplicates included; the graph is undirected, so a file
// listing both u v and v u gives two tuples, as the Graph500 list may.
// nvertices is the largest id + 1 (0 for no edges). name is used in errors.
//
// A line with more than two fields is an error (SNAP files with a third
// column, such as a timestamp, must be cut to two columns first).
func ReadSNAP(r io.Reader, name string) (edges []graph500.Edge, nvertices int64, err error) {
	ls := newLineScanner(r, name)
	var fields [][]byte
	maxID := int64(-1)
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		if isBlankOrComment(line, '#') {
			continue
		}
		fields = splitFields(line, fields)
		if len(fields) != 2 {
			return nil, 0, ls.errorf("want two vertex ids, got %s", quote(line))
		}
		var ids [2]int64
		for k, f := range fields {
			id, ok := parseUint(f)
			if !ok {
				return nil, 0, ls.errorf("vertex id %s is not a non-negative integer", quote(f))
			}
			if id == math.MaxInt64 {
				return nil, 0, ls.errorf("vertex id %d is too large", id)
			}
			ids[k] = id
			maxID = max(maxID, id)
		}
		edges = append(edges, graph500.Edge{V0: ids[0], V1: ids[1]})
	}
	if err := ls.err(); err != nil {
		return nil, 0, err
	}
	return edges, maxID + 1, nil
}

// WriteEdgesText writes edges as text, one "v0 v1" line per edge, which
// ReadSNAP reads back.
func WriteEdgesText(w io.Writer, edges []graph500.Edge) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	buf := make([]byte, 0, 64)
	for _, e := range edges {
		buf = appendEdgeLine(buf[:0], e.V0, e.V1)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
