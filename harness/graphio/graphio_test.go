// Table-driven tests of the graph and parents readers and writers: good
// inputs, malformed inputs (each error must name the file and line), round
// trips, and LoadGraphFile's dispatch.

package graphio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

type edges = []graph500.Edge

func es(pairs ...int64) edges {
	var out edges
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, graph500.Edge{V0: pairs[i], V1: pairs[i+1]})
	}
	return out
}

// wantParseError checks that err is a *ParseError at file name, line line,
// whose message contains frag.
func wantParseError(t *testing.T, err error, name string, line int64, frag string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("got error %v, want a *ParseError", err)
	}
	if pe.File != name || pe.Line != line || !strings.Contains(pe.Msg, frag) {
		t.Fatalf("got %q, want %s:%d: ...%s...", err, name, line, frag)
	}
	if !strings.HasPrefix(err.Error(), name+":") {
		t.Fatalf("message %q does not start with the file name", err)
	}
}

func TestReadSNAP(t *testing.T) {
	good := []struct {
		name, in string
		want     edges
		nv       int64
	}{
		{"empty", "", nil, 0},
		{"comments only", "# Directed graph\n# Nodes: 3 Edges: 0\n", nil, 0},
		{"basic", "# FromNodeId\tToNodeId\n0\t1\n1\t2\n", es(0, 1, 1, 2), 3},
		{"no final newline, CRLF, blanks", "3 4\r\n\r\n  5   0  \n\t7\t7", es(3, 4, 5, 0, 7, 7), 8},
		{"duplicates and self-loops kept", "1 2\n2 1\n1 2\n4 4\n", es(1, 2, 2, 1, 1, 2, 4, 4), 5},
		{"indented comment", "   # note\n0 9\n", es(0, 9), 10},
		{"largest id", "9223372036854775806 0\n", es(9223372036854775806, 0), 9223372036854775807},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			got, nv, err := ReadSNAP(strings.NewReader(tc.in), "g.txt")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) || nv != tc.nv {
				t.Fatalf("got %v nv %d, want %v nv %d", got, nv, tc.want, tc.nv)
			}
		})
	}
	bad := []struct {
		name, in string
		line     int64
		frag     string
	}{
		{"one id", "0 1\n1 2\n3\n", 3, `want two vertex ids, got "3"`},
		{"three ids", "0 1 5\n", 1, "want two vertex ids"},
		{"negative", "# c\n0 -1\n", 2, `vertex id "-1" is not a non-negative integer`},
		{"not a number", "0 1\nx 2\n", 2, `vertex id "x"`},
		{"float", "0 1.5\n", 1, `"1.5"`},
		{"overflow", "0 99999999999999999999\n", 1, "not a non-negative integer"},
		{"max int64", "0 9223372036854775807\n", 1, "too large"},
		{"percent comment is data", "% c\n0 1\n", 1, `vertex id "%"`},
		{"huge line", "0 1\n" + strings.Repeat("1", maxLineBytes+10) + "\n", 2, "longer than"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadSNAP(strings.NewReader(tc.in), "graph.txt")
			wantParseError(t, err, "graph.txt", tc.line, tc.frag)
		})
	}
}

func TestSNAPErrorExample(t *testing.T) {
	in := strings.Repeat("0 1\n", 11) + "3\n"
	_, _, err := ReadSNAP(strings.NewReader(in), "graph.txt")
	if want := `graph.txt:12: want two vertex ids, got "3"`; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestWriteEdgesTextRoundTrip(t *testing.T) {
	in := es(0, 1, 5, 5, 1<<40, 3, 2, 0)
	var buf bytes.Buffer
	if err := WriteEdgesText(&buf, in); err != nil {
		t.Fatal(err)
	}
	if want := "0 1\n5 5\n1099511627776 3\n2 0\n"; buf.String() != want {
		t.Fatalf("wrote %q, want %q", buf.String(), want)
	}
	got, nv, err := ReadSNAP(&buf, "rt")
	if err != nil || !slices.Equal(got, in) || nv != 1<<40+1 {
		t.Fatalf("read back %v nv %d err %v", got, nv, err)
	}
}

func TestReadMatrixMarket(t *testing.T) {
	good := []struct {
		name, in string
		want     edges
		nv       int64
	}{
		{"pattern general",
			"%%MatrixMarket matrix coordinate pattern general\n% comment\n%\n3 3 3\n1 2\n2 3\n3 1\n",
			es(0, 1, 1, 2, 2, 0), 3},
		{"real symmetric, values ignored",
			"%%MatrixMarket matrix coordinate real symmetric\n4 4 3\n2 1 0.5\n3 3 -1e10\n4 1 7\n",
			es(1, 0, 2, 2, 3, 0), 4},
		{"integer, mixed case, blank lines, CRLF",
			"%%MatrixMarket Matrix Coordinate INTEGER General\r\n\r\n2 5 2\r\n1 5 3\r\n\r\n2 1 -4\r\n",
			es(0, 4, 1, 0), 5},
		{"no entries", "%%MatrixMarket matrix coordinate pattern general\n7 7 0\n", nil, 7},
		{"rows > cols", "%%MatrixMarket matrix coordinate pattern general\n6 2 1\n6 2\n", es(5, 1), 6},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			got, nv, err := ReadMatrixMarket(strings.NewReader(tc.in), "m.mtx")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) || nv != tc.nv {
				t.Fatalf("got %v nv %d, want %v nv %d", got, nv, tc.want, tc.nv)
			}
		})
	}
	const pg = "%%MatrixMarket matrix coordinate pattern general\n"
	bad := []struct {
		name, in string
		line     int64
		frag     string
	}{
		{"empty", "", 1, "empty file"},
		{"no banner", "3 3 1\n1 1\n", 1, "MatrixMarket banner"},
		{"short banner", "%%MatrixMarket matrix coordinate pattern\n", 1, "want banner"},
		{"array", "%%MatrixMarket matrix array real general\n", 1, `format "array" not supported`},
		{"complex", "%%MatrixMarket matrix coordinate complex general\n", 1, `field "complex"`},
		{"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n", 1, `symmetry "hermitian"`},
		{"skew", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n", 1, "symmetry"},
		{"vector", "%%MatrixMarket vector coordinate real general\n", 1, `object "vector"`},
		{"no size line", pg + "% only comments\n", 2, "before the size line"},
		{"bad size line", pg + "3 3\n", 2, "want size line"},
		{"negative size", pg + "3 -3 1\n", 2, `size "-3"`},
		{"too few entries", pg + "3 3 2\n1 1\n", 3, "ends after 1 of the 2 entries"},
		{"too many entries", pg + "3 3 1\n1 1\n% c\n2 2\n", 5, "more entries than the 1"},
		{"zero index", pg + "3 3 1\n0 1\n", 3, "row index 0 out of range [1,3]"},
		{"column too large", pg + "3 2 1\n3 3\n", 3, "column index 3 out of range [1,2]"},
		{"value in pattern", pg + "3 3 1\n1 2 1.0\n", 3, "want 2 fields for a pattern"},
		{"missing value", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n", 3, "want 3 fields for a real"},
		{"bad index", pg + "3 3 1\n1 b\n", 3, `column index "b"`},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadMatrixMarket(strings.NewReader(tc.in), "m.mtx")
			wantParseError(t, err, "m.mtx", tc.line, tc.frag)
		})
	}
}

func TestParents(t *testing.T) {
	good := []struct {
		name, in string
		want     []int64
	}{
		{"empty", "", nil},
		{"basic", "0\n0\n-1\n1\n", []int64{0, 0, -1, 1}},
		{"CRLF, blanks, no final newline", " 2\r\n-1 \r\n2", []int64{2, -1, 2}},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadParents(strings.NewReader(tc.in), "p.txt")
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("got %v err %v, want %v", got, err, tc.want)
			}
		})
	}
	bad := []struct {
		name, in string
		line     int64
		frag     string
	}{
		{"below -1", "0\n-2\n", 2, "below -1"},
		{"blank line", "0\n\n1\n", 2, "want one parent"},
		{"two values", "0 1\n", 1, `got "0 1"`},
		{"word", "0\n0\nnil\n", 3, `got "nil"`},
		{"lone minus", "-\n", 1, "want one parent"},
		{"overflow", "99999999999999999999\n", 1, "want one parent"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadParents(strings.NewReader(tc.in), "p.txt")
			wantParseError(t, err, "p.txt", tc.line, tc.frag)
		})
	}
	in := []int64{0, -1, 0, 1 << 33, 2}
	var buf bytes.Buffer
	if err := WriteParents(&buf, in); err != nil {
		t.Fatal(err)
	}
	if want := "0\n-1\n0\n8589934592\n2\n"; buf.String() != want {
		t.Fatalf("wrote %q, want %q", buf.String(), want)
	}
	if got, err := ReadParents(&buf, "rt"); err != nil || !slices.Equal(got, in) {
		t.Fatalf("read back %v err %v", got, err)
	}
}

func TestBinaryRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		in edges
		nv int64
	}{
		{nil, 0},
		{es(0, 1, 3, 3, 1, 0), 16},
		{es(0, 1<<40), 1<<40 + 1},
	} {
		var buf bytes.Buffer
		if err := WriteEdgesBinary(&buf, tc.in, tc.nv); err != nil {
			t.Fatal(err)
		}
		if buf.Len() != 32+16*len(tc.in) {
			t.Fatalf("wrote %d bytes, want %d", buf.Len(), 32+16*len(tc.in))
		}
		got, nv, err := ReadEdgesBinary(&buf, "g.bin")
		if err != nil || !slices.Equal(got, tc.in) || nv != tc.nv {
			t.Fatalf("read back %v nv %d err %v, want %v nv %d", got, nv, err, tc.in, tc.nv)
		}
	}
	// Many chunks.
	big := make(edges, 10000)
	for i := range big {
		big[i] = graph500.Edge{V0: int64(i), V1: int64(i * 7 % 10000)}
	}
	var buf bytes.Buffer
	if err := WriteEdgesBinary(&buf, big, 10000); err != nil {
		t.Fatal(err)
	}
	if got, _, err := ReadEdgesBinary(&buf, "big.bin"); err != nil || !slices.Equal(got, big) {
		t.Fatalf("big round trip failed: %v", err)
	}
}

func TestBinaryErrors(t *testing.T) {
	valid := func() []byte {
		var buf bytes.Buffer
		if err := WriteEdgesBinary(&buf, es(0, 1, 2, 3), 4); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, tc := range []struct {
		name   string
		mutate func([]byte) []byte
		frag   string
	}{
		{"short header", func(b []byte) []byte { return b[:20] }, "byte 20: file ends in the 32-byte header"},
		{"bad magic", func(b []byte) []byte { b[0] = 'X'; return b }, "byte 0: not a bfsbench binary edge file"},
		{"version", func(b []byte) []byte { b[8] = 2; return b }, "byte 8: version 2 not supported"},
		{"flags", func(b []byte) []byte { b[12] = 1; return b }, "byte 12: unknown flags"},
		{"negative nv", func(b []byte) []byte { b[23] = 0x80; return b }, "byte 16: negative vertex count"},
		{"negative count", func(b []byte) []byte { b[31] = 0x80; return b }, "byte 24: negative edge count"},
		{"truncated", func(b []byte) []byte { return b[:len(b)-3] }, "byte 61: file ends after 1 of 2 edges"},
		{"huge count", func(b []byte) []byte { b[30] = 1; return b }, "file ends after 2 of"},
		{"trailing", func(b []byte) []byte { return append(b, 0) }, "byte 64: data after the last of 2 edges"},
		{"id out of range", func(b []byte) []byte { b[32+16+8] = 4; return b }, "byte 48: edge 1 (2,4) has an end outside [0,4)"},
		{"negative id", func(b []byte) []byte { b[32+7] = 0xff; return b }, "byte 32: edge 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadEdgesBinary(bytes.NewReader(tc.mutate(valid())), "g.bin")
			if err == nil || !strings.HasPrefix(err.Error(), "g.bin: ") || !strings.Contains(err.Error(), tc.frag) {
				t.Fatalf("got %v, want g.bin: ...%s", err, tc.frag)
			}
		})
	}
}

func TestLoadGraphFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var bin bytes.Buffer
	if err := WriteEdgesBinary(&bin, es(0, 1, 1, 2), 5); err != nil {
		t.Fatal(err)
	}
	snap := "# c\n0 1\n1 2\n"
	mtx := "%%MatrixMarket matrix coordinate pattern general\n5 5 2\n1 2\n2 3\n"
	for _, tc := range []struct {
		file, content, format string
		nv                    int64
	}{
		{"a.txt", snap, "auto", 3},
		{"a.el", snap, "", 3},
		{"a.EDGES", snap, "auto", 3},
		{"a.dat", snap, "snap", 3},
		{"a.mtx", mtx, "auto", 5},
		{"a.matrix", mtx, "mtx", 5},
		{"a.bin", bin.String(), "auto", 5},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p := write(tc.file, tc.content)
			got, nv, err := LoadGraphFile(p, tc.format)
			if err != nil || !slices.Equal(got, es(0, 1, 1, 2)) || nv != tc.nv {
				t.Fatalf("got %v nv %d err %v", got, nv, err)
			}
		})
	}
	for _, tc := range []struct {
		name, path, format, frag string
	}{
		{"unknown extension", write("a.dat", snap), "auto", "cannot tell the graph format"},
		{"unknown format", write("b.txt", snap), "csv", `unknown graph format "csv"`},
		{"missing file", filepath.Join(dir, "none.txt"), "auto", "no such file"},
		{"no edges", write("c.txt", "# nothing\n"), "auto", "graph has no edges"},
		{"parse error names path", write("d.txt", "0 1\n2\n"), "auto", "d.txt:2: want two vertex ids"},
		{"mtx read as snap", write("e.txt", mtx), "auto", "e.txt:1: want two vertex ids"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := LoadGraphFile(tc.path, tc.format)
			if err == nil || !strings.Contains(err.Error(), tc.frag) {
				t.Fatalf("got %v, want ...%s", err, tc.frag)
			}
		})
	}
}
