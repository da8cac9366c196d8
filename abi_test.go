package bfsbench_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestABIVersions checks each CUDA library's ABI version, as its C header
// defines it, against the Go constant that loads the library, so that a
// change of a C ABI that forgets the Go side fails here, on a machine
// without a GPU, rather than at the library's first load on one.
//
// A header that defines an ABI version and is not in the table fails too.
func TestABIVersions(t *testing.T) {
	listed := map[string]bool{}
	for _, tc := range []struct {
		header, define, goFile, constant string
	}{
		{"harness/cuda/include/bfsb_abi.h", "BFSB_ABI_VERSION", "harness/cuda/cuda.go", "ABIVersion"},
		{"plugins/atomic2d/cuda/atomic2d.h", "A2D_ABI_VERSION", "plugins/atomic2d/bfs2d/cuda_engine.go", "a2dABIVersion"},
		{"plugins/diropt/cuda/diropt.h", "DOB_ABI_VERSION", "plugins/diropt/dobfs/cuda_engine.go", "dobABIVersion"},
		{"plugins/edgescan/cuda/edgescan.h", "EDGESCAN_ABI_VERSION", "plugins/edgescan/gpu.go", "esABIVersion"},
		{"plugins/merrill/cuda/merrill.h", "MG_ABI_VERSION", "plugins/merrill/mgbfs/cuda_engine.go", "mgABIVersion"},
		{"plugins/ueno/cuda/ueno.h", "UENO_ABI_VERSION", "plugins/ueno/ubfs/cuda_engine.go", "uenoABIVersion"},
	} {
		listed[tc.header] = true
		c := find(t, tc.header, `(?m)^#define `+tc.define+` (\d+)$`)
		g := find(t, tc.goFile, `(?m)^\s*(?:const\s+)?`+tc.constant+`\s*=\s*(\d+)\b`)
		if c != g {
			t.Errorf("%s defines %s %s, %s has %s = %s", tc.header, tc.define, c, tc.goFile, tc.constant, g)
		}
	}
	headers, err := filepath.Glob("plugins/*/cuda/*.h")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("harness/cuda/include/*.h")
	if err != nil {
		t.Fatal(err)
	}
	abi := regexp.MustCompile(`(?m)^#define \w+_ABI_VERSION \d+`)
	for _, h := range append(headers, more...) {
		b, err := os.ReadFile(h)
		if err != nil {
			t.Fatal(err)
		}
		if abi.Match(b) && !listed[h] {
			t.Errorf("%s defines an ABI version that TestABIVersions does not check against its Go constant: add it to the table", h)
		}
	}
}

// find returns the first group of re's first match in file.
func find(t *testing.T, file, re string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(re).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: nothing matches %s", file, re)
	}
	return string(m[1])
}
