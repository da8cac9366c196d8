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
