// Fuzz tests of the readers: no input may panic, and every accepted input
// must be consistent (ids in range) and survive a write/read round trip.

package graphio

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

func checkInRange(t *testing.T, edges []graph500.Edge, nv int64) {
	t.Helper()
	for i, e := range edges {
		if e.V0 < 0 || e.V0 >= nv || e.V1 < 0 || e.V1 >= nv {
			t.Fatalf("edge %d (%d,%d) outside [0,%d)", i, e.V0, e.V1, nv)
		}
	}
}

func FuzzReadSNAP(f *testing.F) {
	for _, s := range []string{"", "0 1\n", "# c\n1 2\r\n3 3\n\n", "0\t99999\n5 5", "1 2 3\n", "-1 0\n", "#\n#\n0 0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		edges, nv, err := ReadSNAP(bytes.NewReader(in), "fuzz.txt")
		if err != nil {
			return
		}
		checkInRange(t, edges, nv)
		var buf bytes.Buffer
		if err := WriteEdgesText(&buf, edges); err != nil {
			t.Fatal(err)
		}
		again, nv2, err := ReadSNAP(&buf, "again.txt")
		if err != nil || nv2 != nv || !slices.Equal(again, edges) {
			t.Fatalf("round trip: %v nv %d err %v, want %v nv %d", again, nv2, err, edges, nv)
		}
	})
}

// writeMTX writes edges as a pattern general Matrix Market file, the
// inverse of ReadMatrixMarket for the round trip.
func writeMTX(edges []graph500.Edge, nv int64) []byte {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%%%%MatrixMarket matrix coordinate pattern general\n%d %d %d\n", nv, nv, len(edges))
	for _, e := range edges {
		fmt.Fprintf(&buf, "%d %d\n", e.V0+1, e.V1+1)
	}
	return buf.Bytes()
}

func FuzzReadMatrixMarket(f *testing.F) {
	for _, s := range []string{
		"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 1\n",
		"%%MatrixMarket matrix coordinate real symmetric\n% c\n4 4 1\n2 1 0.5\n",
		"%%MatrixMarket matrix coordinate integer general\n2 2 1\n2 2 -3\n",
		"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
		"%%MatrixMarket matrix coordinate pattern general\n1 1 9223372036854775807\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		edges, nv, err := ReadMatrixMarket(bytes.NewReader(in), "fuzz.mtx")
		if err != nil {
			return
		}
		checkInRange(t, edges, nv)
		again, nv2, err := ReadMatrixMarket(bytes.NewReader(writeMTX(edges, nv)), "again.mtx")
		if err != nil || nv2 != nv || !slices.Equal(again, edges) {
			t.Fatalf("round trip: %v nv %d err %v, want %v nv %d", again, nv2, err, edges, nv)
		}
	})
}

func FuzzReadParents(f *testing.F) {
	for _, s := range []string{"", "0\n0\n-1\n", " 3 \r\n-1", "-2\n", "\n", "9223372036854775807\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		parents, err := ReadParents(bytes.NewReader(in), "fuzz.parents")
		if err != nil {
			return
		}
		for v, p := range parents {
			if p < -1 {
				t.Fatalf("accepted parent %d of vertex %d", p, v)
			}
		}
		var buf bytes.Buffer
		if err := WriteParents(&buf, parents); err != nil {
			t.Fatal(err)
		}
		again, err := ReadParents(&buf, "again.parents")
		if err != nil || !slices.Equal(again, parents) {
			t.Fatalf("round trip: %v err %v, want %v", again, err, parents)
		}
	})
}

func FuzzReadEdgesBinary(f *testing.F) {
	for _, e := range [][]graph500.Edge{nil, {{V0: 0, V1: 1}}, {{V0: 2, V1: 2}, {V0: 0, V1: 3}}} {
		var buf bytes.Buffer
		if err := WriteEdgesBinary(&buf, e, 4); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		edges, nv, err := ReadEdgesBinary(bytes.NewReader(in), "fuzz.bin")
		if err != nil {
			return
		}
		checkInRange(t, edges, nv)
		var buf bytes.Buffer
		if err := WriteEdgesBinary(&buf, edges, nv); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), in) {
			t.Fatalf("accepted input is not what WriteEdgesBinary writes for its content")
		}
	})
}
