package runner

// cleanup.go names the temporary files a run makes after its process id
// (parents files in /dev/shm, go-plugin socket folders), removes those of
// runs that died without cleaning up, and holds the lock files that tell
// two runs on one machine of each other.

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

// machineLocks takes, without waiting, an exclusive lock per host and per
// GPU given: a run holding them times alone. It returns a warning for
// each lock another run holds (its timings and this run's perturb each
// other) and a release function. The kernel drops the locks when the
// process dies, so none is ever stale.
func machineLocks(gpus []string) (warnings []string, release func()) {
	var files []*os.File
	names := append([]string{"host"}, gpus...)
	for _, n := range names {
		path := filepath.Join(os.TempDir(), "bfsbench-"+n+".lock")
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			continue
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			b := make([]byte, 64)
			k, _ := f.ReadAt(b, 0)
			other := strings.TrimSpace(string(b[:k]))
			if other == "" {
				other = "unknown"
			}
			what := "this machine"
			if n != "host" {
				what = n
			}
			warnings = append(warnings, fmt.Sprintf("another bfsbench run (pid %s) is using %s: both runs' timings may be perturbed (lock %s)", other, what, path))
			f.Close()
			continue
		}
		_ = f.Truncate(0)
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		files = append(files, f)
	}
	return warnings, func() {
		for _, f := range files {
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}
	}
}
