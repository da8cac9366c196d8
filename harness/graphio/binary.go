// This file implements bfsbench's binary edge-list format, a fast cache
// for generated and converted graphs. Layout (all integers little-endian):
//
//	offset  size  field
//	0       8     magic "BFSEDGES"
//	8       4     version, uint32 = 1
//	12      4     flags, uint32 = 0 (reserved; a reader rejects others)
//	16      8     nvertices, int64 (vertex ids are in [0, nvertices))
//	24      8     count, int64: number of edges
//	32      16×count  edges: v0 int64, v1 int64
//
// The file ends right after the last edge. nvertices is stored because a
// generated Graph500 graph has 2^SCALE vertices even when the largest ids
// have no edge.

package graphio

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

const (
	binaryMagic      = "BFSEDGES"
	binaryVersion    = 1
	binaryHeaderSize = 32
	binaryEdgeSize   = 16
)

// WriteEdgesBinary writes edges over nvertices vertices in the binary
// format above.
func WriteEdgesBinary(w io.Writer, edges []graph500.Edge, nvertices int64) error {
	if err := WriteBinaryHeader(w, nvertices, int64(len(edges))); err != nil {
		return err
	}
	return WriteBinaryEdges(w, edges)
}

// WriteBinaryHeader writes the header of a binary edge list of count edges
// over nvertices vertices; WriteBinaryEdges then writes the edges, in one
// call or several (a writer that streams them, such as bfsbench
// generate).
func WriteBinaryHeader(w io.Writer, nvertices, count int64) error {
	var h [binaryHeaderSize]byte
	copy(h[:8], binaryMagic)
	binary.LittleEndian.PutUint32(h[8:], binaryVersion)
	binary.LittleEndian.PutUint64(h[16:], uint64(nvertices))
	binary.LittleEndian.PutUint64(h[24:], uint64(count))
	_, err := w.Write(h[:])
	return err
}

// WriteBinaryEdges writes edges in the binary format's edge layout, after
// WriteBinaryHeader.
func WriteBinaryEdges(w io.Writer, edges []graph500.Edge) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var b [binaryEdgeSize]byte
	for _, e := range edges {
		binary.LittleEndian.PutUint64(b[:8], uint64(e.V0))
		binary.LittleEndian.PutUint64(b[8:], uint64(e.V1))
		if _, err := bw.Write(b[:]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// binaryError is an error in a binary edge file at a byte offset.
func binaryError(name string, offset int64, format string, args ...any) error {
	return fmt.Errorf("%s: byte %d: %s", name, offset, fmt.Sprintf(format, args...))
}

// ReadEdgesBinary reads a binary edge list written by WriteEdgesBinary and
// checks it: magic, version, flags, every vertex id in [0, nvertices), and
// a length of exactly count edges. name is used in errors.
func ReadEdgesBinary(r io.Reader, name string) (edges []graph500.Edge, nvertices int64, err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var h [binaryHeaderSize]byte
	if n, err := io.ReadFull(br, h[:]); err != nil {
		return nil, 0, binaryError(name, int64(n), "file ends in the %d-byte header", binaryHeaderSize)
	}
	if string(h[:8]) != binaryMagic {
		return nil, 0, binaryError(name, 0, "not a bfsbench binary edge file (magic %q, want %q)", h[:8], binaryMagic)
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != binaryVersion {
		return nil, 0, binaryError(name, 8, "version %d not supported, want %d", v, binaryVersion)
	}
	if f := binary.LittleEndian.Uint32(h[12:]); f != 0 {
		return nil, 0, binaryError(name, 12, "unknown flags %#x", f)
	}
	nvertices = int64(binary.LittleEndian.Uint64(h[16:]))
	count := int64(binary.LittleEndian.Uint64(h[24:]))
	if nvertices < 0 {
		return nil, 0, binaryError(name, 16, "negative vertex count %d", nvertices)
	}
	if count < 0 {
		return nil, 0, binaryError(name, 24, "negative edge count %d", count)
	}
	edges, err = readBinaryEdges(br, name, count, nvertices)
	if err != nil {
		return nil, 0, err
	}
	return edges, nvertices, nil
}

// readBinaryEdges reads count edges after the header and checks that the
// input ends there.
func readBinaryEdges(br *bufio.Reader, name string, count, nv int64) ([]graph500.Edge, error) {
	// The count is not trusted for allocation: the slice grows as edges
	// actually arrive.
	edges := make([]graph500.Edge, 0, min(count, 1<<20))
	buf := make([]byte, 4096*binaryEdgeSize)
	for read := int64(0); read < count; {
		k := min(count-read, int64(len(buf)/binaryEdgeSize))
		chunk := buf[:k*binaryEdgeSize]
		if n, err := io.ReadFull(br, chunk); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				got := read + int64(n)/binaryEdgeSize
				return nil, binaryError(name, binaryHeaderSize+read*binaryEdgeSize+int64(n),
					"file ends after %d of %d edges", got, count)
			}
			return nil, binaryError(name, binaryHeaderSize+read*binaryEdgeSize, "read error: %v", err)
		}
		for i := int64(0); i < k; i++ {
			v0 := int64(binary.LittleEndian.Uint64(chunk[i*binaryEdgeSize:]))
			v1 := int64(binary.LittleEndian.Uint64(chunk[i*binaryEdgeSize+8:]))
			if v0 < 0 || v0 >= nv || v1 < 0 || v1 >= nv {
				return nil, binaryError(name, binaryHeaderSize+(read+i)*binaryEdgeSize,
					"edge %d (%d,%d) has an end outside [0,%d)", read+i, v0, v1, nv)
			}
			edges = append(edges, graph500.Edge{V0: v0, V1: v1})
		}
		read += k
	}
	if _, err := br.ReadByte(); err == nil {
		return nil, binaryError(name, binaryHeaderSize+count*binaryEdgeSize, "data after the last of %d edges", count)
	} else if !errors.Is(err, io.EOF) {
		return nil, binaryError(name, binaryHeaderSize+count*binaryEdgeSize, "read error: %v", err)
	}
	return edges, nil
}
