package runner

import "syscall"

// setParentDeathSignal has the kernel kill the plugin when bfsbench dies,
// even by SIGKILL, so no plugin outlives its harness.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
