package graph500

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSearchKeysFewVerticesFailsAtOnce: fewer non-isolated vertices than
// keys is an error at once, whatever the vertex count.
func TestSearchKeysFewVerticesFailsAtOnce(t *testing.T) {
	set := NewNonIsolatedSet(1 << 30)
	set[0] = 3 // vertices 0 and 1
	start := time.Now()
	_, err := SearchKeysFromSet(set, 1<<30, 64, [2]uint64{2, 3})
	if err == nil || !strings.Contains(err.Error(), "only 2 of") || time.Since(start) > time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}

// TestSearchKeysContextCancelled: key selection over a huge, sparse set
// stops within a second of its context ending.
func TestSearchKeysContextCancelled(t *testing.T) {
	set := NewNonIsolatedSet(1 << 30)
	for i := range 64 {
		set[i*1000] = 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := SearchKeysContext(ctx, set, 1<<30, 64, [2]uint64{2, 3})
	if err == nil || !strings.Contains(err.Error(), "canceled") || time.Since(start) > 2*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}
