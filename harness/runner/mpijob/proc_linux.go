package mpijob

// proc_linux.go finds a process's descendants through /proc, so that
// KillGroup can reach MPI ranks that Open MPI placed in process groups of
// their own.

import (
	"os"
	"strconv"
	"strings"
)

// procID names a process by pid and start time, so that a pid reused by
// an unrelated process after ours died is not signalled.
type procID struct {
	pid   int
	start string
}

// descendants lists the processes below pid (children, grandchildren...).
func descendants(pid int) []procID {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]procID{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, start, ok := procStat(p)
		if ok {
			children[ppid] = append(children[ppid], procID{p, start})
		}
	}
	var out []procID
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c.pid)
		}
	}
	return out
}

// procStat reads a process's parent pid and start time (fields 4 and 22
// of /proc/PID/stat; the command name, field 2, may hold spaces and
// parentheses, so fields are counted after its last ')').
func procStat(pid int) (ppid int, start string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
	if len(f) < 20 {
		return 0, "", false
	}
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return 0, "", false
	}
	return ppid, f[19], true
}

// alive reports whether the process still exists and is the same one
// (zombies count as gone).
func (p procID) alive() bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	return len(f) >= 20 && f[0] != "Z" && f[19] == p.start
}
