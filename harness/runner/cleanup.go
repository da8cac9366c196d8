package runner

// cleanup.go names the temporary files a run makes after its process id
// (parents files in /dev/shm, go-plugin socket folders) and removes those
// of runs that died without cleaning up. Lock files are in locks.go.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// runDirPrefix starts the name of every temporary folder this process
// makes: "bfsbench-run<pid>-".
func runDirPrefix() string { return fmt.Sprintf("bfsbench-run%d-", os.Getpid()) }

// shmBase is where parents files go: /dev/shm where it exists (memory,
// never disk), else the temporary directory.
func shmBase() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}

// CleanStale removes the temporary folders of bfsbench runs whose process
// is gone (killed by SIGKILL, say) from /dev/shm and the temporary
// directory, and returns what it removed. Folders of live runs are kept.
func CleanStale() []string {
	var removed []string
	for _, base := range []string{shmBase(), os.TempDir()} {
		matches, _ := filepath.Glob(filepath.Join(base, "bfsbench-run*-*"))
		for _, m := range matches {
			rest := strings.TrimPrefix(filepath.Base(m), "bfsbench-run")
			pidStr, _, ok := strings.Cut(rest, "-")
			pid, err := strconv.Atoi(pidStr)
			if !ok || err != nil || pid <= 0 || processAlive(pid) {
				continue
			}
			if os.RemoveAll(m) == nil {
				removed = append(removed, m)
			}
		}
	}
	return removed
}

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
