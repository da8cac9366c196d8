//go:build !linux

package mpijob

// proc_other.go: without /proc, KillGroup signals mpirun's process group
// only.

type procID struct{ pid int }

func descendants(int) []procID { return nil }

func (procID) alive() bool { return false }
