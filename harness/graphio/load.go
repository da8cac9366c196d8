// This file loads a graph file as a workload, choosing the reader by
// format name or file extension.

package graphio

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

// Graph file formats accepted by LoadGraphFile.
const (
	FormatAuto   = "auto" // by extension, see FormatForPath
	FormatSNAP   = "snap" // SNAP edge list (also WriteEdgesText output)
	FormatMTX    = "mtx"  // Matrix Market coordinate
	FormatBinary = "bin"  // bfsbench binary edge list
)

// FormatForPath returns the format of path by its extension: .mtx is
// Matrix Market, .txt, .el and .edges are SNAP edge lists, .bin is the
// binary edge list.
func FormatForPath(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mtx":
		return FormatMTX, nil
	case ".txt", ".el", ".edges":
		return FormatSNAP, nil
	case ".bin":
		return FormatBinary, nil
	}
	return "", fmt.Errorf("%s: cannot tell the graph format from the extension (want .mtx, .txt, .el, .edges or .bin); name the format", path)
}

// LoadGraphFile reads the graph in path. format is "snap", "mtx", "bin",
// or "auto" (or empty) to choose by extension. A graph without edges is an
// error, since it cannot give a search key.
func LoadGraphFile(path, format string) (edges []graph500.Edge, nvertices int64, err error) {
	return LoadGraphFileContext(context.Background(), path, format)
}

// LoadGraphFileContext is LoadGraphFile that stops reading with ctx's
// error once ctx ends.
func LoadGraphFileContext(ctx context.Context, path, format string) (edges []graph500.Edge, nvertices int64, err error) {
	if format == "" || format == FormatAuto {
		if format, err = FormatForPath(path); err != nil {
			return nil, 0, err
		}
	}
	var read func(io.Reader, string) ([]graph500.Edge, int64, error)
	switch format {
	case FormatSNAP:
		read = ReadSNAP
	case FormatMTX:
		read = ReadMatrixMarket
	case FormatBinary:
		read = ReadEdgesBinary
	default:
		return nil, 0, fmt.Errorf("%s: unknown graph format %q (want snap, mtx, bin or auto)", path, format)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	edges, nvertices, err = read(ctxReader{ctx, f}, path)
	if err != nil {
		return nil, 0, err
	}
	if len(edges) == 0 {
		return nil, 0, fmt.Errorf("%s: graph has no edges", path)
	}
	return edges, nvertices, nil
}
