package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testHeader = "N,values,bytes,cpu_encode_mvals,cpu_decode_mvals,gpu_encode_mvals,gpu_decode_mvals,gpu_encode_gbs,gpu_decode_gbs,gpu_encode_pct_copy,gpu_decode_pct_copy\n"

func TestPlotFig5(t *testing.T) {
	for _, tc := range []struct {
		name    string
		csv     string
		want    []string // in the SVG
		notWant []string // not in the SVG
		wantErr []string // in the error; none means no error
	}{
		{
			name: "cpu and gpu",
			csv: testHeader +
				"16,1024,1024,848.2,404.7,236165.8,220845.8,1180.8,1104.2,27.9,26.1\n" +
				"65536,1024,2900,195.3,133.3,173261.1,115076.4,1169.2,776.5,27.7,18.4\n" +
				"4294967295,1024,5100,198.5,123.4,142122.0,80117.4,1270.1,716.0,30.1,16.9\n",
			want: []string{"CPU encode", "CPU decode", "GPU encode", "GPU decode", "2^4", "2^16", "2^32", "Fig. 5"},
		},
		{
			name: "cpu only",
			csv: testHeader +
				"16,1024,1024,848.2,404.7,,,,,,\n" +
				"256,1024,1500,181.4,144.4,,,,,,\n",
			want:    []string{"CPU encode", "CPU decode", "2^8"},
			notWant: []string{"GPU encode", "GPU decode"},
		},
		{
			name:    "wrong header",
			csv:     "N,values,bytes,cpu_mvals\n16,1024,1024,848.2\n",
			wantErr: []string{"input.csv", `no column "cpu_encode_mvals"`},
		},
		{
			name: "non-numeric cell",
			csv: testHeader +
				"16,1024,1024,848.2,404.7,,,,,,\n" +
				"256,1024,1500,fast,144.4,,,,,,\n",
			wantErr: []string{"input.csv:3", "cpu_encode_mvals", `"fast" is not a number`},
		},
		{
			name:    "wrong number of fields",
			csv:     testHeader + "16,1024,1024,848.2\n",
			wantErr: []string{"input.csv", "line 2", "wrong number of fields"},
		},
		{
			name:    "zero on a log scale",
			csv:     testHeader + "16,1024,1024,0,404.7,,,,,,\n",
			wantErr: []string{"input.csv:2", "must be positive"},
		},
		{
			name:    "header only",
			csv:     testHeader,
			wantErr: []string{"input.csv", "no data rows"},
		},
		{
			name:    "empty file",
			wantErr: []string{"input.csv", "empty file"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "input.csv")
			if err := os.WriteFile(in, []byte(tc.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			paths, err := plotFig5(in, "")
			if len(tc.wantErr) > 0 {
				if err == nil {
					t.Fatalf("no error, want one containing %q", tc.wantErr)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				if len(paths) != 0 {
					t.Errorf("wrote %v despite the error", paths)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, ext := range []string{".svg", ".png"} {
				p := filepath.Join(dir, fig5Name+ext)
				if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
					t.Errorf("%s missing or empty (err %v)", p, err)
				}
			}
			svg, err := os.ReadFile(filepath.Join(dir, fig5Name+".svg"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(svg), w) {
					t.Errorf("SVG does not contain %q", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(string(svg), w) {
					t.Errorf("SVG contains %q", w)
				}
			}
		})
	}
}

// TestPlotFig5OutDir checks that -outdir sends the figure elsewhere.
func TestPlotFig5OutDir(t *testing.T) {
	in := filepath.Join(t.TempDir(), "fig5.csv")
	if err := os.WriteFile(in, []byte(testHeader+"16,1024,1024,848.2,404.7,,,,,,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	paths, err := plotFig5(in, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 || filepath.Dir(paths[0]) != out || filepath.Dir(paths[1]) != out {
		t.Errorf("wrote %v, want two files in %s", paths, out)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(in), fig5Name+".svg")); err == nil {
		t.Errorf("figure also written beside the CSV")
	}
}
