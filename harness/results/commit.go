package results

import "runtime/debug"

// BuildCommit is the commit the running binary was built from, as Go
// embeds it when building inside a git checkout (-buildvcs), with "-dirty"
// for a modified tree; "" when the binary carries none. It never asks git:
// a binary carried to another machine would read that machine's checkout,
// which may be at another commit.
func BuildCommit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, mod string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			mod = s.Value
		}
	}
	if rev != "" && mod == "true" {
		rev += "-dirty"
	}
	return rev
}
