//go:build !linux

package runner

import "syscall"

// setParentDeathSignal: only Linux has a parent-death signal; elsewhere the
// SDK's watch on its parent (sdk.Serve) ends an orphaned plugin.
func setParentDeathSignal(*syscall.SysProcAttr) {}
