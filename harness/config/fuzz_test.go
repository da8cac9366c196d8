package config

import (
	"errors"
	"testing"
)

// FuzzParse: no config text may panic the loader or expand without bound,
// and every rejection is a *Error naming the file.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[workload]\nscale = 10\n[[variant]]\nplugin = \"p\"\n",
		"[workload]\nscale = [10, 12]\nseed = [[1, 2], [3, 4]]\nnbfs = 64\nvalidate = 2\n[[variant]]\nplugin = \"p\"\nbackend = \"cuda\"\ngrid = [2, 2]\n[variant.params]\na = [1, 2]\nb = nan\n",
		"[workload]\nfile = \"g.mtx\"\nformat = \"mtx\"\n[[variant]]\nplugin = \"p\"\nlauncher = \"mpirun\"\nmpirun_args = [\"--oversubscribe\"]\ntimeout = \"1s\"\n",
		"[workload]\nscale = 10\nnbfs = 1000000000000\n[[variant]]\nplugin = \"p\"\nranks = 100000\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := Parse("f.toml", text)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || ce.File != "f.toml" {
				t.Fatalf("error %v is not a config error naming the file", err)
			}
			return
		}
		if len(c.Workloads) == 0 || len(c.Variants) == 0 || len(c.Workloads) > c.MaxCases {
			t.Fatalf("accepted config with %d workloads, %d variants", len(c.Workloads), len(c.Variants))
		}
		for _, w := range c.Workloads {
			if w.NBFS < 1 || w.NBFS > MaxNBFS {
				t.Fatalf("nbfs %d accepted", w.NBFS)
			}
		}
		for _, v := range c.Variants {
			if v.Ranks < 1 || v.Ranks > MaxRanks {
				t.Fatalf("ranks %d accepted", v.Ranks)
			}
		}
	})
}
