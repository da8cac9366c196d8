package runner

// locks.go tells bfsbench runs on one machine of each other, so that
// both runs' results say their timings may be perturbed. A run holds, for
// as long as it measures, an exclusive lock (flock) on a file per host and
// per GPU; a run that finds a lock held warns at once and leaves a notice
// in the file, which the holder reads after each case, so the first run's
// results carry the warning too. The files live in one folder for the
// whole machine (/tmp, whatever TMPDIR says) and every user may open
// them, so runs of different users, or with different TMPDIRs, meet.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// LockDirEnv overrides where the lock files are (tests; machines whose
// /tmp is private to each user).
const LockDirEnv = "BFSBENCH_LOCK_DIR"

// lockDir is where runs on this machine find each other: $BFSBENCH_LOCK_DIR,
// else /tmp, not TMPDIR (two runs given different TMPDIRs share the machine
// all the same).
func lockDir() string {
	if d := os.Getenv(LockDirEnv); d != "" {
		return d
	}
	if st, err := os.Stat("/tmp"); err == nil && st.IsDir() {
		return "/tmp"
	}
	return os.TempDir()
}

// MachineLock is what a run holds of the machine's locks (LockMachine).
type MachineLock struct {
	locks []*lockFile
	self  string // this run's notice line
}

// lockFile is one lock: held, or held by another run this run told of
// itself.
type lockFile struct {
	what   string // "this machine" or "gpu0"
	path   string
	f      *os.File
	held   bool
	seen   map[string]bool // notices already turned into warnings
	holder string          // the other holder this run left a notice with
}

// machineLocks takes, without waiting, the host's lock and the named
// GPUs'. It returns a warning for each lock another run holds.
func machineLocks(gpus []string) (warnings []string, m *MachineLock) {
	name := "unknown user"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	m = &MachineLock{self: fmt.Sprintf("pid %d, user %s, started %s", os.Getpid(), name, time.Now().Format(time.RFC3339))}
	dir := lockDir()
	for _, n := range append([]string{"host"}, gpus...) {
		l := &lockFile{what: n, path: filepath.Join(dir, "bfsbench-"+n+".lock"), seen: map[string]bool{}}
		if n == "host" {
			l.what = "this machine"
		}
		f, err := openLockFile(l.path)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("cannot tell whether another bfsbench run is using %s: %v", l.what, err))
			continue
		}
		l.f = f
		m.locks = append(m.locks, l)
		warnings = append(warnings, m.try(l)...)
	}
	return warnings, m
}

// openLockFile opens a lock file every user's runs can open: an existing
// one as it is (a sticky /tmp with protected_regular refuses O_CREAT on
// another user's file), a new one with mode 0666 whatever the umask. An
// old file another user made 0644 is opened read-only: it can still be
// locked, but takes no notices.
func openLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666); err == nil {
			_ = f.Chmod(0o666)
			return f, nil
		}
		if errors.Is(err, fs.ErrExist) {
			f, err = os.OpenFile(path, os.O_RDWR, 0)
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		f, err = os.Open(path)
	}
	return f, err
}

// try takes l if it is free, or leaves a notice with its holder; it
// returns the warning for a holder this run had not met.
func (m *MachineLock) try(l *lockFile) []string {
	if l.held {
		return nil
	}
	if syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		l.held = true
		_ = l.f.Truncate(0) // notices for the previous holder
		_, _ = l.f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		return nil
	}
	holder, _ := readLockFile(l.f)
	if holder == "" {
		holder = "unknown"
	}
	if holder == l.holder {
		return nil
	}
	l.holder = holder
	// The holder reads this after its case: its results get the warning too.
	if n, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND, 0); err == nil {
		_, _ = n.WriteString(m.self + "\n")
		n.Close()
	}
	return []string{fmt.Sprintf("another bfsbench run (pid %s) is using %s: both runs' timings may be perturbed (lock %s)", holder, l.what, l.path)}
}

// readLockFile returns the holder's pid (the first line) and the notices
// other runs left (the lines after).
func readLockFile(f *os.File) (holder string, notices []string) {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<20))
	if err != nil && len(b) == 0 {
		return "", nil
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 200 { // a file anyone may write: keep warnings short
				l = l[:200] + "..."
			}
			notices = append(notices, l)
		}
	}
	return strings.TrimSpace(lines[0]), notices
}

// Check returns warnings of runs met since the last call: a run that
// started while this one held a lock (its notice), or, for a lock this run
// does not hold, a new holder (this run takes the lock when it is free).
// Call it after each case, so the results of both runs say so.
func (m *MachineLock) Check() []string {
	if m == nil {
		return nil
	}
	var warnings []string
	for _, l := range m.locks {
		if !l.held {
			warnings = append(warnings, m.try(l)...)
			if !l.held {
				continue
			}
		}
		_, notices := readLockFile(l.f)
		for _, n := range notices {
			if !l.seen[n] {
				l.seen[n] = true
				warnings = append(warnings, fmt.Sprintf("another bfsbench run (%s) started while this run was using %s: both runs' timings may be perturbed (lock %s)", n, l.what, l.path))
			}
		}
	}
	return warnings
}

// Release drops the locks (the kernel drops them too if the process
// dies, so none is ever stale).
func (m *MachineLock) Release() {
	if m == nil {
		return
	}
	for _, l := range m.locks {
		if l.held {
			_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
		}
		l.f.Close()
	}
	m.locks = nil
}
