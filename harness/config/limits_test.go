package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLimitsBeforeExpanding: non-finite parameters, nbfs, ranks, grids and
// sweeps beyond the limits are config errors naming file:line:key, found
// without expanding anything.
func TestLimitsBeforeExpanding(t *testing.T) {
	big := "[workload]\nscale = [" + strings.Repeat("10, ", 999) + "10]\n" +
		"edgefactor = [" + strings.Repeat("16, ", 999) + "16]\nnbfs = 4\n[[variant]]\nplugin = \"p\"\n"
	sweep := "[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\n[variant.params]\n"
	for _, k := range []string{"a", "b", "c", "d"} {
		sweep += k + " = [" + strings.Repeat("1, ", 99) + "1]\n"
	}
	for _, tc := range []struct{ text, key, msg string }{
		{"[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\n[variant.params]\nx = nan\n", "variant[0].params.x", "finite"},
		{"[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\n[variant.params]\nx = [1.0, -inf]\n", "variant[0].params.x", "finite"},
		{"[workload]\nscale = 10\nnbfs = 1000000000000\n[[variant]]\nplugin = \"p\"\n", "workload.nbfs", "1 to 64"},
		{"[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\nranks = 100000\n", "variant[0].ranks", "up to 4096"},
		{"[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\ngrid = [1000, 1000]\n", "variant[0].grid", "more than the 4096"},
		{big, "workload", "1000000 workloads"},
		{sweep, "variant[0].params", "--max-cases"},
	} {
		start := time.Now()
		_, err := Parse("c.toml", tc.text)
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != tc.key || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%.60q: err %v, want key %q and %q", tc.text, err, tc.key, tc.msg)
		}
		if el := time.Since(start); el > time.Second {
			t.Errorf("%.40q took %v", tc.text, el)
		}
	}
	// --max-cases raises the limit.
	if _, err := ParseMax("c.toml", "[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\n[variant.params]\na = [1, 2, 3]\n", 3); err != nil {
		t.Errorf("3 cases under a limit of 3: %v", err)
	}
	if _, err := ParseMax("c.toml", "[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\n[variant.params]\na = [1, 2, 3, 4]\n", 3); err == nil {
		t.Errorf("4 cases under a limit of 3 accepted")
	}
}

// TestManyKeysParseInLinearTime: a config of 20,000 keys parses in well
// under a second (the keys' file order was an insertion sort: 8 s).
func TestManyKeysParseInLinearTime(t *testing.T) {
	var b strings.Builder
	b.WriteString("[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\n[variant.params]\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "k%05d = %d\n", 19999-i, i)
	}
	start := time.Now()
	c, err := Parse("c.toml", b.String())
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("20,000 keys took %v", el)
	}
	if o := c.Variants[0].ParamOrder; len(o) != 20000 || o[0] != "k19999" || o[19999] != "k00000" {
		t.Errorf("param order: %d keys, first %q", len(o), o[0])
	}
}
