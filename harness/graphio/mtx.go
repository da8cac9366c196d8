// This file reads Matrix Market coordinate files (NIST Matrix Market
// exchange format: a "%%MatrixMarket matrix coordinate <field> <symmetry>"
// banner, '%' comments, a "rows cols entries" size line, then one 1-based
// "i j [value]" entry per line) as graphs.

package graphio

import (
	"bytes"
	"io"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

// ReadMatrixMarket reads a Matrix Market coordinate file as a graph: entry
// (i, j) becomes the undirected edge (i-1, j-1); values are checked to be
// present (real and integer files) but not parsed. Accepted: field pattern,
// real or integer; symmetry general or symmetric. Choices:
//
//   - nvertices is max(rows, cols), the matrix's dimension, even if the
//     last vertices have no entry.
//   - A general matrix holding both (i, j) and (j, i) gives two tuples
//     (a duplicate edge, kept as the Graph500 list keeps duplicates); a
//     symmetric file stores each edge once and is read as written. Entries
//     of a symmetric file above the diagonal are accepted as well.
//   - Blank lines and '%' comment lines are skipped anywhere after the
//     banner.
//
// name is used in errors.
func ReadMatrixMarket(r io.Reader, name string) (edges []graph500.Edge, nvertices int64, err error) {
	ls := newLineScanner(r, name)
	field, err := readMTXBanner(ls)
	if err != nil {
		return nil, 0, err
	}
	rows, cols, nnz, err := readMTXSize(ls)
	if err != nil {
		return nil, 0, err
	}
	edges = make([]graph500.Edge, 0, min(nnz, 1<<20))
	wantFields := 3
	if field == "pattern" {
		wantFields = 2
	}
	var fields [][]byte
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		if isBlankOrComment(line, '%') {
			continue
		}
		if int64(len(edges)) == nnz {
			return nil, 0, ls.errorf("more entries than the %d the size line declares", nnz)
		}
		fields = splitFields(line, fields)
		if len(fields) != wantFields {
			return nil, 0, ls.errorf("want %d fields for a %s matrix entry, got %s", wantFields, field, quote(line))
		}
		i, err := mtxIndex(ls, fields[0], "row", rows)
		if err != nil {
			return nil, 0, err
		}
		j, err := mtxIndex(ls, fields[1], "column", cols)
		if err != nil {
			return nil, 0, err
		}
		edges = append(edges, graph500.Edge{V0: i - 1, V1: j - 1})
	}
	if err := ls.err(); err != nil {
		return nil, 0, err
	}
	if int64(len(edges)) != nnz {
		return nil, 0, ls.errorf("file ends after %d of the %d entries the size line declares", len(edges), nnz)
	}
	return edges, max(rows, cols), nil
}

// readMTXBanner reads and checks the first line and returns the field
// (pattern, real or integer). The symmetry needs no handling: see
// ReadMatrixMarket.
func readMTXBanner(ls *lineScanner) (string, error) {
	line, ok := ls.next()
	if !ok {
		if err := ls.err(); err != nil {
			return "", err
		}
		return "", &ParseError{ls.name, 1, "empty file, want a %%MatrixMarket banner"}
	}
	f := splitFields(line, nil)
	if len(f) == 0 || string(f[0]) != "%%MatrixMarket" {
		return "", ls.errorf("want a %%%%MatrixMarket banner, got %s", quote(line))
	}
	if len(f) != 5 {
		return "", ls.errorf("want banner %q, got %s", "%%MatrixMarket matrix coordinate <field> <symmetry>", quote(line))
	}
	object, format := string(bytes.ToLower(f[1])), string(bytes.ToLower(f[2]))
	field, symmetry := string(bytes.ToLower(f[3])), string(bytes.ToLower(f[4]))
	switch {
	case object != "matrix":
		return "", ls.errorf("object %q not supported, want matrix", object)
	case format != "coordinate":
		return "", ls.errorf("format %q not supported, want coordinate", format)
	case field != "pattern" && field != "real" && field != "integer":
		return "", ls.errorf("field %q not supported, want pattern, real or integer", field)
	case symmetry != "general" && symmetry != "symmetric":
		return "", ls.errorf("symmetry %q not supported, want general or symmetric", symmetry)
	}
	return field, nil
}

// readMTXSize skips comments and reads the "rows cols entries" line.
func readMTXSize(ls *lineScanner) (rows, cols, nnz int64, err error) {
	for {
		line, ok := ls.next()
		if !ok {
			if err := ls.err(); err != nil {
				return 0, 0, 0, err
			}
			return 0, 0, 0, ls.errorf("file ends before the size line \"rows cols entries\"")
		}
		if isBlankOrComment(line, '%') {
			continue
		}
		f := splitFields(line, nil)
		if len(f) != 3 {
			return 0, 0, 0, ls.errorf("want size line \"rows cols entries\", got %s", quote(line))
		}
		var v [3]int64
		for k := range f {
			n, ok := parseUint(f[k])
			if !ok {
				return 0, 0, 0, ls.errorf("size %s is not a non-negative integer", quote(f[k]))
			}
			v[k] = n
		}
		return v[0], v[1], v[2], nil
	}
}

// mtxIndex parses a 1-based index that must lie in [1, limit].
func mtxIndex(ls *lineScanner, b []byte, what string, limit int64) (int64, error) {
	i, ok := parseUint(b)
	if !ok {
		return 0, ls.errorf("%s index %s is not a positive integer", what, quote(b))
	}
	if i < 1 || i > limit {
		return 0, ls.errorf("%s index %d out of range [1,%d]", what, i, limit)
	}
	return i, nil
}
