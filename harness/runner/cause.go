package runner

// cause.go tells why a plugin process failed from how it ended and what
// it (or mpirun) printed, so the console and results.json say "SIGBUS:
// /dev/shm too small" or "mpirun: not enough slots" rather than
// "unexpected EOF" or go-plugin's start-up boilerplate.

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// failureInfo is what diagnose looks at.
type failureInfo struct {
	err       string  // the case's error
	status    string  // how the process ended, "" if unknown or alive
	stderr    string  // the tail of its stderr
	ranks     int     // the case's ranks
	parentsB  float64 // bytes of the parents file
	shmFree   float64 // bytes free in /dev/shm (0: unknown)
	estimateB float64 // the case's estimated host memory
	availB    float64 // host memory available at the start (0: unknown)
	// oomKills is how many processes the kernel's out-of-memory killer
	// killed while the case ran (/proc/vmstat's oom_kill); -1 unknown.
	oomKills int64
}

var mpirunSignal = regexp.MustCompile(`(?i)process rank (\d+) .*exited on signal (\d+) \(([^)]*)\)`)

// diagnose returns the cause of a plugin failure and the fix where one is
// known, or "" when nothing points to one.
func diagnose(f failureInfo) string {
	s, low := f.stderr, strings.ToLower(f.stderr)
	status := strings.ToLower(f.status)
	switch {
	case strings.Contains(low, "not enough slots"):
		return fmt.Sprintf("mpirun refused to start %d ranks: not enough slots on this machine; add mpirun_args = [\"--oversubscribe\"] to the variant, or give a hostfile with more slots", f.ranks)
	case strings.Contains(s, "SIGBUS") || strings.Contains(low, "bus error") || strings.Contains(status, "bus error"):
		c := "the plugin died of SIGBUS (bus error): a memory-mapped file could not be backed, usually because /dev/shm is full or too small"
		need, free := sizePair(f.parentsB, f.shmFree)
		c += fmt.Sprintf("; the parents file alone needs %s", need)
		if f.shmFree > 0 {
			c += fmt.Sprintf(" and /dev/shm had %s free", free)
		}
		c += fmt.Sprintf("; enlarge /dev/shm (docker run --shm-size=%dg, or mount -o remount,size=...)", int(f.parentsB/(1<<30))+2)
		return c
	case strings.Contains(low, "out of memory") || strings.Contains(low, "cannot allocate memory") ||
		strings.Contains(low, "bad_alloc") || strings.Contains(low, "oom-kill"):
		return "the plugin ran out of memory" + memNumbers(f)
	case strings.Contains(status, "signal: killed"):
		return killedCause(f)
	}
	if m := mpirunSignal.FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("rank %s died of signal %s (%s)", m[1], m[2], m[3])
	}
	if strings.Contains(f.err, "connection to the plugin was lost while its process still ran") {
		return "go-plugin's keepalive ends the connection to a plugin that does not answer its ping (every 30 s) within 10 s: the plugin was frozen (stopped, swapping, starved of CPU, stuck in the kernel) or it closed the connection itself; a \"[ERR] yamux: keepalive failed\" line on bfsbench's stderr says it was the keepalive"
	}
	if m := sdkPanic.FindStringSubmatch(f.err); m != nil {
		return "the plugin panicked in " + m[1] + ": a bug in the variant (its stack is in the error and the log)"
	}
	if m := goCrash.FindStringSubmatch(s); m != nil && strings.HasPrefix(status, "exit status 2") {
		return "the plugin's Go runtime crashed (exit status 2): " + strings.TrimSpace(m[0])
	}
	switch {
	case strings.Contains(status, "segmentation fault"):
		return "the plugin died of SIGSEGV (segmentation fault): a bad pointer or a stack overflow in its code or a library's (a CUDA or MPI library, say); its log shows where it was"
	case strings.HasPrefix(status, "signal: "):
		return "the plugin died of " + strings.TrimPrefix(f.status, "signal: ")
	case strings.HasPrefix(status, "exit status "):
		return "the plugin exited with " + f.status + " in the middle of the case: its own error, if it printed one, is in its stderr above and in its log"
	}
	return ""
}

// sdkPanic is the SDK's message for a panic it recovered in a call.
var sdkPanic = regexp.MustCompile(`plugin panicked in (\w+: [^\n]*)`)

// goCrash is the first line of a Go runtime's crash (an unrecovered panic
// or a fatal error) on stderr.
var goCrash = regexp.MustCompile(`(?m)^(panic|fatal error): .*$`)

// killedCause tells who sent a SIGKILL: the out-of-memory killer when the
// kernel counted a kill of it during the case, not it when the kernel
// counted none; where the count is unknown, the memory numbers decide.
func killedCause(f failureInfo) string {
	const other = "another process, a user or a job scheduler's limit sent it"
	switch {
	case f.oomKills > 0:
		return fmt.Sprintf("the plugin was killed by SIGKILL; the kernel's out-of-memory killer killed %d process(es) during the case", f.oomKills) + memNumbers(f)
	case f.oomKills == 0:
		return "the plugin was killed by SIGKILL, not by the out-of-memory killer (the kernel counted no OOM kill during the case): " + other
	case f.estimateB > 0 && f.availB > 0 && f.estimateB < f.availB/2:
		return "the plugin was killed by SIGKILL; the estimate does not point to memory" + memNumbers(f) + ": the out-of-memory killer, if the plugin used far more than it declares, or " + other
	}
	return "the plugin was killed by SIGKILL, most likely by the kernel's out-of-memory killer" + memNumbers(f)
}

// oomKillCount is the kernel's count of out-of-memory kills
// (/proc/vmstat's oom_kill, Linux 4.13 and later), or -1.
func oomKillCount() int64 {
	b, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "oom_kill "); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return n
			}
		}
	}
	return -1
}

func memNumbers(f failureInfo) string {
	if f.estimateB <= 0 {
		return ""
	}
	need, avail := sizePair(f.estimateB, f.availB)
	s := fmt.Sprintf(" (estimated need %s", need)
	if f.availB > 0 {
		s += fmt.Sprintf(", %s available at the start", avail)
	}
	return s + "; the plugin may need more than it declares)"
}

// cleanStartError drops go-plugin's guesses ("This usually means the
// plugin was not compiled for this architecture, ...") from an error: they
// hide the real cause, which diagnose and the plugin's stderr give.
func cleanStartError(msg string) string {
	if i := strings.Index(msg, "\nThis usually means"); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.Replace(msg, "Unrecognized remote plugin message: \nFailed to read any lines from plugin's stdout",
		"the plugin exited before its handshake", 1)
	msg = strings.Replace(msg, "Unrecognized remote plugin message: ", "the plugin printed something other than its handshake: ", 1)
	return strings.TrimSpace(msg)
}
