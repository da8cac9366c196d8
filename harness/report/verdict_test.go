package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// verdictFolder writes a figure folder: scalingRun's results, claims and
// a README with the table's markers.
func verdictFolder(t *testing.T, claims string) string {
	t.Helper()
	dir := t.TempDir()
	b, err := json.Marshal(scalingRun())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"results.json": string(b),
		ClaimsFile:     claims,
		"README.md":    "# F\n\nbefore\n\n" + VerdictsBegin + "\nOLDTABLE\n" + VerdictsEnd + "\n\nafter\n",
		"rows.csv":     "n,gpu,cpu\n1,100,10\n2,300,12\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const verdictClaims = `
[[claim]]
source = "Fig. 4"
claim = "GTEPS grow with the GPUs"
paper = "2× per doubling"
ours = "ratio"
y = "gteps"
at = "grid=1x2,bitmap_messages=off"
over = "grid=1x1,bitmap_messages=off"
holds = [1.6, 2.5]
partly = [1.0, 1.6]
verdict = "partly"
reason = "one more GPU gains little here."

[[claim]]
claim = "bitmap messages change nothing on one GPU"
paper = "0 %"
ours = "change"
y = "gteps"
at = "grid=1x1,bitmap_messages=auto"
over = "grid=1x1,bitmap_messages=off"
each = ["scale=21"]
holds = [-50, 50]
partly = [-90, 90]
verdict = "holds"
reason = "noise."

[[claim]]
claim = "the fold bytes grow with the columns"
paper = "grows"
ours = "argmax"
x = "scale"
y = "bytes:fold"
at = "bitmap_messages=off,plugin=atomic2d"
holds = [22, 23]
partly = [0, 0]
verdict = "differs"
reason = "written for the wrong verdict on purpose."

[[claim]]
claim = "the GPU is 11 to 25 times the CPU"
paper = "11–25×"
csv = "rows.csv"
column = "gpu"
over_column = "cpu"
ours = "each"
holds = [11, 25]
partly = [1, 1000]
verdict = "partly"
reason = "far more."
`

// TestVerdicts: each kind of claim is computed from the results, judged,
// written between the markers; a verdict the numbers no longer support
// is flagged.
func TestVerdicts(t *testing.T) {
	dir := verdictFolder(t, verdictClaims)
	vs, err := Verdicts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 4 {
		t.Fatalf("%d verdicts", len(vs))
	}
	if v := vs[0]; v.Got != Partly || v.Mismatch() || !strings.HasSuffix(v.OursTxt, "×") {
		t.Errorf("ratio: %+v", v)
	}
	if v := vs[1]; v.Got != Holds || !strings.HasSuffix(v.OursTxt, "%") {
		t.Errorf("change: %+v", v)
	}
	if v := vs[2]; v.Got != Holds || !v.Mismatch() || v.Values[0] != 23 {
		t.Errorf("argmax: %+v (want the scale-23 grid, flagged: written for differs)", v)
	}
	if v := vs[3]; v.Got != Partly || len(v.Values) != 2 || v.OursTxt != "10.0×, 25.0×" {
		t.Errorf("csv: %+v", v)
	}
	table := VerdictTable(vs)
	for _, want := range []string{"| Fig. 4: GTEPS grow with the GPUs | 2× per doubling |", "**partly**", "to be reviewed"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	out, changed, err := UpdateReadme(readme, table)
	if err != nil || !changed || !strings.Contains(string(out), "before") || !strings.Contains(string(out), "after") || strings.Contains(string(out), "OLDTABLE") {
		t.Errorf("UpdateReadme: %v %v\n%s", changed, err, out)
	}
	if _, changed, _ := UpdateReadme(out, table); changed {
		t.Errorf("a second update changed the README")
	}
	if _, _, err := UpdateReadme([]byte("no markers"), table); err == nil {
		t.Errorf("a README without markers was accepted")
	}
}

// TestClaimsErrors: a claims file with an unknown key, a missing field or
// a selection of several cases is an error naming it.
func TestClaimsErrors(t *testing.T) {
	for claims, want := range map[string]string{
		"[[claim]]\nclaim = \"c\"\npaper = \"1\"\nreason = \"r\"\nverdict = \"holds\"\nholds = [0, 1]\npartly = [0, 2]\ny = \"gteps\"\nours = \"value\"\nat = \"grid=1x1\"\nbogus = 1\n": "unknown key",
		"[[claim]]\nclaim = \"c\"\npaper = \"1\"\nreason = \"r\"\nverdict = \"maybe\"\nholds = [0, 1]\npartly = [0, 2]\ny = \"gteps\"\nours = \"value\"\n":                               "verdict",
		"[[claim]]\nclaim = \"c\"\npaper = \"1\"\nreason = \"r\"\nverdict = \"holds\"\nholds = [0, 1]\npartly = [0, 2]\ny = \"gteps\"\nours = \"ratio\"\n":                               "needs over",
		"[[claim]]\nclaim = \"c\"\npaper = \"1\"\nreason = \"r\"\nverdict = \"holds\"\nholds = [0, 1]\npartly = [0, 2]\ny = \"gteps\"\nours = \"value\"\nat = \"grid=1x1\"\n":            "selects 3 valid cases",
	} {
		_, err := Verdicts(verdictFolder(t, claims))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want an error containing %q", err, want)
		}
	}
}

// TestFolderResults: claims.toml's results win; else results.json(.gz).
func TestFolderResults(t *testing.T) {
	dir := verdictFolder(t, "results = [\"../other/results.json.gz\"]\n")
	got, err := FolderResults(dir)
	if err != nil || len(got) != 1 || got[0] != filepath.Join(dir, "../other/results.json.gz") {
		t.Errorf("FolderResults = %v, %v", got, err)
	}
	dir = verdictFolder(t, "")
	if got, err := FolderResults(dir); err != nil || len(got) != 1 || filepath.Base(got[0]) != "results.json" {
		t.Errorf("FolderResults = %v, %v", got, err)
	}
}
