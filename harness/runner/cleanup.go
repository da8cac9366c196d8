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

// shmDir is the shared-memory folder parents files go to when it can
// take them (tests point it elsewhere).
var shmDir = "/dev/shm"

// shmBase is where parents files go: shmDir where it takes them (memory,
// never disk), else the temporary directory.
func shmBase() string {
	if shmUsable() == nil {
		return shmDir
	}
	return os.TempDir()
}

// shmUsable says why shmDir cannot take parents files (missing, not a
// folder, read-only, full of inodes), nil when it can: a folder is made in
// it and removed.
func shmUsable() error {
	st, err := os.Stat(shmDir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder", shmDir)
	}
	d, err := os.MkdirTemp(shmDir, runDirPrefix()+"probe-")
	if err != nil {
		return err
	}
	os.Remove(d)
	return nil
}

// shmWarning is the warning for a shmDir that exists but cannot take the
// parents files, "" when it can or does not exist (then the temporary
// folder is the plain choice).
func shmWarning() string {
	err := shmUsable()
	if err == nil {
		return ""
	}
	if _, serr := os.Stat(shmDir); serr != nil {
		return ""
	}
	return fmt.Sprintf("%s cannot take the parents files (%v): they go to %s instead, which may be on disk (a search's transfer of its parents may be slower)", shmDir, err, os.TempDir())
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
