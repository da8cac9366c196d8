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
	"time"
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
// directory, and the shared-memory segments of MPI jobs killed with them
// (staleMPISegments), and returns what it removed. Folders of live runs,
// and segments a process maps, are kept.
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
	for _, m := range staleMPISegments(shmDir) {
		if os.Remove(m) == nil {
			removed = append(removed, m)
		}
	}
	return removed
}

// mpiSegmentPrefixes start the names of the shared-memory segments Open
// MPI's ranks make in /dev/shm (vader: Open MPI 4; sm: Open MPI 5); its
// ranks remove them when they end, unless killed by SIGKILL.
var mpiSegmentPrefixes = []string{"vader_segment.", "sm_segment."}

// mpiSegmentAge is how old a segment must be before it can be stale: a
// job just starting may have made it and not mapped it yet.
const mpiSegmentAge = time.Minute

// staleMPISegments lists the MPI segments in dir that this user owns,
// that are older than mpiSegmentAge and that no process maps: left by a
// job that was killed.
func staleMPISegments(dir string) []string {
	var cands []string
	for _, pre := range mpiSegmentPrefixes {
		m, _ := filepath.Glob(filepath.Join(dir, pre+"*"))
		for _, p := range m {
			st, err := os.Stat(p)
			if err != nil || !st.Mode().IsRegular() || time.Since(st.ModTime()) < mpiSegmentAge {
				continue
			}
			if sys, ok := st.Sys().(*syscall.Stat_t); !ok || int(sys.Uid) != os.Getuid() {
				continue
			}
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	inUse := mappedFiles()
	var out []string
	for _, p := range cands {
		if !inUse[p] {
			out = append(out, p)
		}
	}
	return out
}

// mappedFiles is the set of files the processes this user may inspect
// have mapped (/proc/PID/maps); the user's own processes are all among
// them.
func mappedFiles() map[string]bool {
	out := map[string]bool{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "maps"))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			// address perms offset dev inode path
			if f := strings.Fields(l); len(f) >= 6 && strings.HasPrefix(f[5], "/") {
				out[strings.Join(f[5:], " ")] = true
			}
		}
	}
	return out
}

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
