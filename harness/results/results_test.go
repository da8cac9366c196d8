package results

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSearchJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Search
		json []string // substrings the JSON must hold
		not  []string // and must not
	}{
		{"valid", Search{Root: 1, Validated: true, Valid: true}, []string{`"validated":true`, `"valid":true`}, nil},
		{"invalid", Search{Root: 1, Validated: true, Error: "x"}, []string{`"validated":true`, `"valid":false`}, nil},
		{"not validated", Search{Root: 1, NEdge: 5}, []string{`"validated":false`}, []string{`"valid"`}},
	} {
		b, err := json.Marshal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.json {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: %s lacks %s", tc.name, b, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(string(b), w) {
				t.Errorf("%s: %s holds %s", tc.name, b, w)
			}
		}
		var back Search
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back.Validated != tc.in.Validated || back.Valid != tc.in.Valid || back.Root != tc.in.Root || back.NEdge != tc.in.NEdge {
			t.Errorf("%s: round trip %+v -> %+v", tc.name, tc.in, back)
		}
	}
}

// TestLegacySearchJSON loads the two older forms: bfsbench run's, which
// validated every search, and the old in-process GPU check's, which marked
// searches it did not validate in the error.
func TestLegacySearchJSON(t *testing.T) {
	for _, tc := range []struct {
		in               string
		validated, valid bool
		err              string
	}{
		{`{"root":1,"valid":true}`, true, true, ""},
		{`{"root":1,"valid":false,"error":"bad tree"}`, true, false, "bad tree"},
		{`{"root":1,"valid":false,"error":"not validated: edge count taken from an earlier search of this root"}`, false, false, ""},
		{`{"root":1,"valid":false,"error":"not validated, and 5 levels where an earlier search of this root had 6"}`, false, false, "5 levels where an earlier search of this root had 6"},
	} {
		var s Search
		if err := json.Unmarshal([]byte(tc.in), &s); err != nil {
			t.Fatal(err)
		}
		if s.Validated != tc.validated || s.Valid != tc.valid || s.Error != tc.err {
			t.Errorf("%s: validated %v valid %v error %q", tc.in, s.Validated, s.Valid, s.Error)
		}
	}
}

// TestLoadGzip loads a results file kept compressed, as results/ keeps
// its large ones.
func TestLoadGzip(t *testing.T) {
	dir := t.TempDir()
	r := &Run{Config: "x", Cases: []*Case{{Variant: "v", BFS: []Search{{Root: 3, Validated: true, Valid: true}}}}}
	plain := filepath.Join(dir, "results.json")
	if err := r.Save(plain); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	gz := plain + ".gz"
	if err := os.WriteFile(gz, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(gz)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Cases) != 1 || got.Cases[0].Validated != 1 || got.Cases[0].BFS[0].Root != 3 {
		t.Fatalf("loaded %+v", got.Cases[0])
	}
	if err := os.WriteFile(gz, b, 0o644); err != nil { // not gzip
		t.Fatal(err)
	}
	if _, err := Load(gz); err == nil {
		t.Fatal("a .gz that is not gzip loaded")
	}
}

// TestJournalMerge: Load adds the journal's searches to the cases
// results.json has not recorded, and only to those; a torn last line (the
// process killed mid-write) is ignored; a finished run ignores its
// journal.
func TestJournalMerge(t *testing.T) {
	done := &Case{Variant: "a", Status: StatusOK, BFS: []Search{{Root: 1, Validated: true, Valid: true}}}
	for _, tc := range []struct {
		name     string
		finished string
		lines    []string
		wantA    int // searches of case a (saved)
		wantB    int // searches of case b (cut off)
		status   string
	}{
		{"cut off", "", []string{`{"case":1,"variant":"b","search":{"root":7,"validated":true,"valid":true}}`, `{"case":1,"variant":"b","search":{"root":8,"validated":true,"valid":true}}`}, 1, 2, StatusFailed},
		{"torn last line", "", []string{`{"case":1,"variant":"b","search":{"root":7,"validated":true,"valid":true}}`, `{"case":1,"vari`}, 1, 1, StatusFailed},
		{"saved case not doubled", "", []string{`{"case":0,"variant":"a","search":{"root":1,"validated":true,"valid":true}}`}, 1, 0, StatusSkipped},
		{"other variant", "", []string{`{"case":1,"variant":"x","search":{"root":1}}`, `{"case":9,"variant":"b","search":{"root":1}}`}, 1, 0, StatusSkipped},
		{"finished run", "2026-01-01T00:00:00Z", []string{`{"case":1,"variant":"b","search":{"root":7,"validated":true,"valid":true}}`}, 1, 0, StatusSkipped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results.json")
			r := &Run{Finished: tc.finished, Cases: []*Case{done, {Variant: "b", Status: StatusSkipped, BFS: []Search{}}}}
			if err := r.Save(path); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(JournalPath(path), []byte(strings.Join(tc.lines, "\n")), 0o644)
			back, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			a, b := back.Cases[0], back.Cases[1]
			if len(a.BFS) != tc.wantA || len(b.BFS) != tc.wantB || b.Status != tc.status {
				t.Errorf("case a %d searches, case b %d searches %s; want %d, %d %s", len(a.BFS), len(b.BFS), b.Status, tc.wantA, tc.wantB, tc.status)
			}
			if tc.wantB > 0 && (b.Validated != tc.wantB || !strings.Contains(b.Error, "killed")) {
				t.Errorf("case b: validated %d, error %q", b.Validated, b.Error)
			}
		})
	}
}

// benchSearch is a search as a GPU variant reports it: 12 levels of four
// phases.
func benchSearch() Search {
	s := Search{Root: 123456, TimeS: 0.0123, TransferTimeS: 0.002, ValidateTimeS: 0.4, NEdge: 1 << 28, TEPS: 2e10, Validated: true, Valid: true, Levels: 12, BoundBytes: 1 << 32}
	for l := range 12 {
		s.Phases = append(s.Phases, LevelPhase{Level: l, Frontier: 1000, Times: map[string]float64{"expand": 1e-4, "exchange": 2e-4, "fold": 3e-4, "update": 4e-4}})
	}
	return s
}

// BenchmarkJournalAppend is the cost a search pays for being durable.
func BenchmarkJournalAppend(b *testing.B) {
	j, err := OpenJournal(filepath.Join(b.TempDir(), "results.json"))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Remove()
	s := benchSearch()
	for b.Loop() {
		if err := j.Append(3, "diropt", s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRewritePerSearch is what rewriting results.json after each
// search would cost a search in a run of 20 cases of 64 searches (the
// alternative to the journal, for comparison).
func BenchmarkRewritePerSearch(b *testing.B) {
	r := &Run{}
	for range 20 {
		c := &Case{Variant: "diropt", Status: StatusOK}
		for range 64 {
			c.BFS = append(c.BFS, benchSearch())
		}
		r.Cases = append(r.Cases, c)
	}
	path := filepath.Join(b.TempDir(), "results.json")
	for b.Loop() {
		if err := r.Save(path); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFormatVersion: results.json says which format it is in; a file of a
// newer format than this bfsbench reads is refused with that said, and
// one from before versions loads as it did.
func TestFormatVersion(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.json")
	if err := (&Run{Finished: "x"}).Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"format_version": 1`) {
		t.Errorf("no format version in\n%s", b)
	}
	for _, tc := range []struct {
		text, err string
	}{
		{`{"format_version": 99, "cases": []}`, "format 99"},
		{`{"cases": []}`, ""},
		{`{"format_version": 1, "cases": []}`, ""},
	} {
		os.WriteFile(path, []byte(tc.text), 0o644)
		_, err := Load(path)
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: err %v, want %q", tc.text, err, tc.err)
		}
	}
}
