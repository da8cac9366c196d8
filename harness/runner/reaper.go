package runner

// reaper.go keeps a plugin's own child processes from outliving a
// harness killed by SIGKILL. The kernel kills the plugin itself then (its
// parent-death signal), but not what the plugin started: mpirun's ranks,
// a helper, a server. So the harness starts, once, a reaper: a copy of its
// own binary (reaperEnv set: this package's init runs it instead of the
// program) whose standard input is a pipe from the harness. The harness
// tells it each plugin process group it starts and ends; the reaper
// notes, every reaperTick, the processes of each group and below its
// leader (mpirun's ranks have groups of their own). When the pipe closes
// with groups still listed, the harness is gone: the reaper kills them
// all, then exits. It ignores the terminal's signals, so a Ctrl-C that
// reaches the harness's group does not take it first.

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// reaperEnv, set to "1" in its environment, makes a binary importing this
// package run as the reaper.
const reaperEnv = "BFSBENCH_REAPER"

// reaperTick is how often the reaper notes the groups' processes.
const reaperTick = 200 * time.Millisecond

func init() {
	if os.Getenv(reaperEnv) == "1" {
		reap(os.Stdin)
		os.Exit(0)
	}
}

var reaper struct {
	once sync.Once
	mu   sync.Mutex
	w    *os.File // the pipe to the reaper; nil when it could not start
}

// startReaper starts the reaper once per process.
func startReaper() {
	reaper.once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		r, w, err := os.Pipe()
		if err != nil {
			return
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), reaperEnv+"=1")
		cmd.Stdin = r
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // not in the terminal's foreground group
		if err := cmd.Start(); err != nil {
			r.Close()
			w.Close()
			return
		}
		r.Close()
		go cmd.Wait() // it exits when the harness does
		reaper.w = w
	})
}

// reaperWatch has the reaper kill process group pgid if the harness dies
// before reaperDone(pgid).
func reaperWatch(pgid int) { reaperSay("watch", pgid) }

// reaperDone takes pgid off the reaper's list: the harness ended it.
func reaperDone(pgid int) { reaperSay("done", pgid) }

func reaperSay(verb string, pgid int) {
	startReaper()
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	if reaper.w != nil {
		fmt.Fprintf(reaper.w, "%s %d\n", verb, pgid)
	}
}

// procEntry is a process as /proc shows it.
type procEntry struct {
	procKey
	ppid, pgid int
}

// procKey names a process: its pid and start time (a reused pid is
// another process). Its parent and group may change (an orphan's parent
// becomes init), its key does not.
type procKey struct {
	pid   int
	start string
}

// reap is the reaper's loop, reading "watch PGID" and "done PGID" lines
// from in until it closes.
func reap(in *os.File) {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	groups := map[int]map[procKey]bool{} // pgid → its processes seen
	tick := time.NewTicker(reaperTick)
	defer tick.Stop()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				killGroups(groups)
				return
			}
			verb, arg, _ := strings.Cut(l, " ")
			pgid, err := strconv.Atoi(arg)
			if err != nil || pgid <= 1 {
				continue
			}
			switch verb {
			case "watch":
				groups[pgid] = map[procKey]bool{}
				note(groups)
			case "done":
				delete(groups, pgid)
			}
		case <-tick.C:
			if len(groups) > 0 {
				note(groups)
			}
		}
	}
}

// note adds to each group the processes now in it or below its leader.
func note(groups map[int]map[procKey]bool) {
	if len(groups) == 0 {
		return
	}
	procs := listProcs()
	children := map[int][]procEntry{}
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p)
	}
	for pgid, seen := range groups {
		queue := []int{pgid}
		for _, p := range procs {
			if p.pgid == pgid {
				seen[p.procKey] = true
				queue = append(queue, p.pid)
			}
		}
		for len(queue) > 0 {
			pid := queue[0]
			queue = queue[1:]
			for _, c := range children[pid] {
				if !seen[c.procKey] {
					seen[c.procKey] = true
					queue = append(queue, c.pid)
				}
			}
		}
	}
}

// killGroups kills every process noted in a group that is still the same
// process (its start time unchanged), and every process group such a
// process is in now: the plugin's group, which holds what it started
// since the last note, and groups of their own (mpirun's ranks). A pid
// or group id reused by another process is never signalled.
func killGroups(groups map[int]map[procKey]bool) {
	now := listProcs()
	killed := map[int]bool{}
	for _, seen := range groups {
		for _, q := range now {
			if !seen[q.procKey] {
				continue
			}
			_ = syscall.Kill(q.pid, syscall.SIGKILL)
			if !killed[q.pgid] && q.pgid > 1 {
				killed[q.pgid] = true
				_ = syscall.Kill(-q.pgid, syscall.SIGKILL)
			}
		}
	}
}

// listProcs reads every process's parent, group and start time from
// /proc/PID/stat (fields 4, 5 and 22; the command name, field 2, may hold
// spaces and parentheses, so fields are counted after its last ')').
func listProcs() []procEntry {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []procEntry
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // f[0] is field 3
		if len(f) < 20 || f[0] == "Z" {
			continue
		}
		ppid, err1 := strconv.Atoi(f[1])
		pgid, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, procEntry{procKey: procKey{pid, f[19]}, ppid: ppid, pgid: pgid})
	}
	return out
}
