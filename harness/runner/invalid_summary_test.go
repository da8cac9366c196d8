package runner

import "testing"

// TestInvalidSummary: the count is of the timed searches (nbfs = 8 gives
// "of 8"), and an invalid warm-up search is named apart, not counted in.
func TestInvalidSummary(t *testing.T) {
	for _, c := range []struct {
		invalid, validated int
		warm               bool
		want               string
	}{
		{8, 8, true, "8 of 8 validated searches invalid, and the warm-up search; first: x"},
		{2, 8, false, "2 of 8 validated searches invalid; first: x"},
		{0, 8, true, "0 of 8 validated searches invalid, and the warm-up search; first: x"},
	} {
		if got := invalidSummary(c.invalid, c.validated, c.warm, "x"); got != c.want {
			t.Errorf("invalidSummary(%d, %d, %v) = %q, want %q", c.invalid, c.validated, c.warm, got, c.want)
		}
	}
}
