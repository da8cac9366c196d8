package workload

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSparseHeaderRefusedAtOnce: a Matrix Market header declaring 2·10^9
// vertices for 2 entries is an error at once, not minutes of key
// selection.
func TestSparseHeaderRefusedAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sparse.mtx")
	os.WriteFile(path, []byte("%%MatrixMarket matrix coordinate pattern general\n2000000000 2000000000 2\n1 2\n3 4\n"), 0o644)
	start := time.Now()
	_, err := Load(Spec{File: path, Format: "auto"})
	if err == nil || !strings.Contains(err.Error(), "renumber") {
		t.Fatalf("err = %v", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("took %v", el)
	}
}

// TestLoadContextCancelled: generation honours cancellation.
func TestLoadContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, err := LoadContext(ctx, Spec{Scale: 22, EdgeFactor: 16, Seed: DefaultSeed})
	if err == nil || time.Since(start) > time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}
