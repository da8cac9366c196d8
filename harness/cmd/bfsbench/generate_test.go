package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/graphio"
)

// TestGenerateStreams: generate writes the graph chunk by chunk
// (generateChunk edges at a time); read back, each format holds
// graph500.Generate's edge list, in order, for a graph of several chunks
// and for one smaller than a chunk.
func TestGenerateStreams(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		scale  int
		format string
	}{
		{17, "text"}, {17, "binary"}, {8, "text"}, {8, "binary"},
	} {
		want := graph500.Generate(tc.scale, 16, [2]uint64{2, 3})
		if tc.scale == 17 && int64(len(want)) <= generateChunk {
			t.Fatalf("scale 17: %d edges, not several chunks of %d", len(want), generateChunk)
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-%d", tc.format, tc.scale))
		var out bytes.Buffer
		args := []string{"generate", "--scale", strconv.Itoa(tc.scale), "--format", tc.format, "--out", path}
		if err := dispatch(t.Context(), args, &out, &out); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []graph500.Edge
		var n int64
		if tc.format == "binary" {
			got, n, err = graphio.ReadEdgesBinary(f, path)
		} else {
			got, _, err = graphio.ReadSNAP(f, path)
			n = graph500.NVertices(tc.scale)
		}
		f.Close()
		if err != nil {
			t.Fatalf("%v: reading back: %v", args, err)
		}
		if n != graph500.NVertices(tc.scale) || !slices.Equal(got, want) {
			t.Errorf("%v: %d edges over %d vertices read back, want graph500.Generate's %d over %d (or they differ)",
				args, len(got), n, len(want), graph500.NVertices(tc.scale))
		}
	}
}
