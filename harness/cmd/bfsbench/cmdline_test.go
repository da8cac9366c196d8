package main

import "testing"

// TestJoinArgs: absolute arguments under the working directory, and the
// values of flags written with "=", are recorded relative to it; every
// other argument as given.
func TestJoinArgs(t *testing.T) {
	const wd = "/src/bfsbench"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bin/bfsbench", "run", "configs/a.toml"}, "bin/bfsbench run configs/a.toml"},
		{[]string{"/src/bfsbench/bin/bfsbench", "run", "/src/bfsbench/configs/a.toml", "--out", "/src/bfsbench/.session/tmp.x/a"},
			"bin/bfsbench run configs/a.toml --out .session/tmp.x/a"},
		{[]string{"bin/bfsbench", "run", "--out=/src/bfsbench/results/a", "-plugins=/src/bfsbench/bin"},
			"bin/bfsbench run --out=results/a -plugins=bin"},
		{[]string{"bin/bfsbench", "run", "c.toml", "--out", "/tmp/tmp.abc/a"}, "bin/bfsbench run c.toml --out /tmp/tmp.abc/a"}, // outside: as given
		{[]string{"bin/bfsbench", "--out=/tmp/a", "--plugins=bin:/src/bfsbench/bin"}, "bin/bfsbench --out=/tmp/a --plugins=bin:/src/bfsbench/bin"},
		{[]string{"bin/bfsbench", "/src/bfsbench2/a.toml", "/src/bfsbench"}, "bin/bfsbench /src/bfsbench2/a.toml ."}, // a sibling; the folder itself
		{[]string{"bin/bfsbench", "a=/src/bfsbench/b"}, "bin/bfsbench a=/src/bfsbench/b"},                            // not a flag
		{[]string{"bin/bfsbench", "--rounds=2", "--x="}, "bin/bfsbench --rounds=2 --x="},
		{[]string{"/src/bfsbench/bin/bfsbench", "run"}, "bin/bfsbench run"},
		{nil, ""},
	} {
		if got := joinArgs(c.args, wd); got != c.want {
			t.Errorf("joinArgs(%q) = %q, want %q", c.args, got, c.want)
		}
	}
	if got := joinArgs([]string{"/src/bfsbench/bin/bfsbench"}, ""); got != "/src/bfsbench/bin/bfsbench" {
		t.Errorf("without a working directory: %q, want the argument as given", got)
	}
}
