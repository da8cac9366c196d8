package workload

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

func TestLoadKroneckerIsDeterministic(t *testing.T) {
	a, err := Load(Spec{Scale: 10, EdgeFactor: 16, Seed: DefaultSeed})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(Spec{Scale: 10, EdgeFactor: 16, Seed: DefaultSeed})
	if err != nil {
		t.Fatal(err)
	}
	if a.Info.Fingerprint != b.Info.Fingerprint || a.NVertices != 1024 || len(a.Edges) != 16*1024 {
		t.Fatalf("a=%+v b=%+v", a.Info, b.Info)
	}
	c, err := Load(Spec{Scale: 10, EdgeFactor: 16, Seed: [2]uint64{2, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Info.Fingerprint == a.Info.Fingerprint {
		t.Fatal("different seeds, same fingerprint")
	}
}

func TestFingerprintSeesEveryEdge(t *testing.T) {
	edges := graph500.Generate(12, 16, DefaultSeed) // more than one chunk? no: 65536 edges, one chunk
	f := Fingerprint(edges)
	for _, i := range []int{0, len(edges) / 2, len(edges) - 1} {
		e := append([]graph500.Edge(nil), edges...)
		e[i].V1 ^= 1
		if Fingerprint(e) == f {
			t.Fatalf("changing edge %d kept the fingerprint", i)
		}
	}
	if Fingerprint(edges[:len(edges)-1]) == f {
		t.Fatal("dropping an edge kept the fingerprint")
	}
}

func TestLoadFileAndBadSpecs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte("# tiny\n0 1\n1 2\n2 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Load(Spec{File: path, Format: "snap"})
	if err != nil {
		t.Fatal(err)
	}
	if g.NVertices != 3 || len(g.Edges) != 3 || g.Info.File != path {
		t.Fatalf("%+v", g.Info)
	}
	for _, s := range []Spec{{Scale: 0, EdgeFactor: 16}, {Scale: 10, EdgeFactor: 0}, {Scale: 41, EdgeFactor: 16}} {
		if _, err := Load(s); err == nil {
			t.Errorf("Load(%+v) accepted", s)
		}
	}
	if _, err := Load(Spec{File: filepath.Join(t.TempDir(), "missing.txt"), Format: "snap"}); err == nil {
		t.Error("missing file accepted")
	}
}
