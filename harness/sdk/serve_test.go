package sdk

import (
	"strings"
	"testing"
)

//go:noinline
func authorsFrame(xs []int) int { return xs[3] } // an index out of range: a runtime panic

// TestPanicStackStartsAtTheVariantsFrame: a panic in a variant's code comes
// back as an error whose stack starts at the frame that panicked (the
// variant's own), not in the runtime or the SDK's recovery, so that the
// first lines a console shows name the author's code.
func TestPanicStackStartsAtTheVariantsFrame(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func() error
	}{
		{"runtime panic", func() error { authorsFrame(nil); return nil }},
		{"panic call", func() error { panic("bad state") }},
	} {
		s := newServer(nil)
		err := s.guard("bfs", tc.f)
		if err == nil {
			t.Fatalf("%s: no error", tc.name)
		}
		lines := strings.Split(err.Error(), "\n")
		if !strings.HasPrefix(lines[0], "plugin panicked in bfs: ") || len(lines) < 3 {
			t.Fatalf("%s: %q", tc.name, err)
		}
		want := "sdk.authorsFrame"
		if tc.name == "panic call" {
			want = "sdk.TestPanicStackStartsAtTheVariantsFrame.func2"
		}
		if !strings.HasSuffix(lines[1], want) || !strings.Contains(lines[2], "serve_test.go:") {
			t.Errorf("%s: the stack starts at %q / %q, want %s in serve_test.go:\n%s", tc.name, lines[1], lines[2], want, err)
		}
	}
}
