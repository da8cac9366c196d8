// Command faulty is a test plugin whose misbehaviour is chosen by its
// "mode" parameter, so the runner's tests can check that a crash, a hang,
// a panic, wrong parents, garbage numbers, running out of memory or a bus
// error cost one case only and are reported with their cause. Its correct
// mode is a plain serial BFS; tiny-time and long-time search correctly but
// report a time the harness's own clock contradicts. FAULTY_START_DELAY (a duration) delays its
// start, for tests of an interrupt while a plugin starts.
package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/sdk"
)

func main() {
	if os.Getenv("FAULTY_CHILD") == "1" {
		time.Sleep(time.Hour) // the child of mode child
		return
	}
	if d, err := time.ParseDuration(os.Getenv("FAULTY_START_DELAY")); err == nil {
		time.Sleep(d)
	}
	sdk.Serve(plugin{})
}

type plugin struct{}

func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name: "faulty", Summary: "test plugin", Backends: []string{sdk.BackendCPU},
		Params: []sdk.Param{{Name: "mode", Type: sdk.TypeString, Default: "ok",
			Choices: []string{"ok", "crash", "hang", "panic", "error", "invalid", "crash-construct",
				"garbage", "oom", "sigbus", "slow-construct", "tiny-time", "long-time", "sigkill", "segv", "stderr", "drop", "child", "spam"}}},
	}
}

func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	return &variant{mode: cfg.String("mode")}, nil
}

type variant struct {
	mode    string
	adj     [][]int64
	parents []int64
	n       int
}

func (v *variant) Construct(w *sdk.Workload) error {
	switch v.mode {
	case "crash-construct":
		os.Exit(3)
	case "oom":
		outOfMemory()
	case "sigbus":
		busError()
	case "slow-construct":
		time.Sleep(time.Hour)
	case "child": // a helper process of its own, as mpirun's ranks or a server are
		startChild()
	case "spam": // 8 MiB of stderr, then a correct case
		line := strings.Repeat("x", 1023) + "\n"
		for range 8 << 10 {
			os.Stderr.WriteString(line)
		}
	}
	v.adj = make([][]int64, w.NVertices)
	for _, e := range w.Edges {
		if e.V0 != e.V1 {
			v.adj[e.V0] = append(v.adj[e.V0], e.V1)
			v.adj[e.V1] = append(v.adj[e.V1], e.V0)
		}
	}
	v.parents = make([]int64, w.NVertices)
	return nil
}

func (v *variant) BFS(root int64) (sdk.Search, error) {
	v.n++
	if v.n == 3 { // fail on the second timed search, after the warm-up and one good search
		switch v.mode {
		case "crash":
			os.Exit(4)
		case "hang", "child":
			time.Sleep(time.Hour)
		case "panic":
			var m map[string]int
			m["x"] = 1
		case "error":
			return sdk.Search{}, errors.New("deliberate failure")
		case "stderr": // its reason on os.Stderr, which go-plugin carries over the connection
			fmt.Fprintln(os.Stderr, "faulty: the device is on fire")
			return sdk.Search{}, errors.New("deliberate failure")
		case "sigkill": // as a user's kill -9, or a scheduler's
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		case "segv": // as a C library's crash: death by the signal itself
			segfault()
		case "drop": // the connection ends, the process lives on: as go-plugin's keepalive drops a frozen plugin
			dropConnections()
			time.Sleep(time.Hour)
		}
	}
	if v.mode == "garbage" {
		return sdk.Search{TimeS: math.NaN(), Levels: -3}, nil
	}
	for i := range v.parents {
		v.parents[i] = -1
	}
	v.parents[root] = root
	q := []int64{root}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, w := range v.adj[u] {
			if v.parents[w] < 0 {
				v.parents[w] = u
				q = append(q, w)
			}
		}
	}
	switch v.mode {
	case "tiny-time": // a unit error: a time no search can take
		return sdk.Search{TimeS: 1e-300}, nil
	case "long-time": // more than the call took
		return sdk.Search{TimeS: 1e6}, nil
	}
	if v.mode == "invalid" && v.n == 3 {
		for i, p := range v.parents {
			if p >= 0 && int64(i) != root {
				v.parents[i] = int64(i) // a self-loop in the tree
				break
			}
		}
	}
	return sdk.Search{}, nil
}

func (v *variant) Parents(dst []int64) error { copy(dst, v.parents); return nil }
func (v *variant) Close() error              { return nil }

// CaseInfo reports a number JSON cannot hold, in garbage mode.
func (v *variant) CaseInfo() map[string]any {
	if v.mode == "garbage" {
		return map[string]any{"bytes_per_bfs": math.Inf(1), "note": "garbage"}
	}
	return nil
}

// outOfMemory limits the address space a little above what the process
// holds, then allocates past it: the Go runtime dies with "out of memory",
// as a plugin does on a machine too small for its graph.
func outOfMemory() {
	var lim syscall.Rlimit
	lim.Cur, lim.Max = 1<<30, 1<<30
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		var kb uint64
		for _, l := range strings.Split(string(b), "\n") {
			if len(l) > 7 && l[:7] == "VmSize:" {
				for _, c := range l[7:] {
					if c >= '0' && c <= '9' {
						kb = kb*10 + uint64(c-'0')
					}
				}
			}
		}
		lim.Cur = kb*1024 + 64<<20
		lim.Max = lim.Cur
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &lim)
	var keep [][]byte
	for i := 0; i < 64; i++ {
		b := make([]byte, 256<<20)
		for j := 0; j < len(b); j += 4096 {
			b[j] = 1
		}
		keep = append(keep, b)
	}
	_ = keep
}

// startChild starts a copy of this binary that sleeps, in the plugin's
// process group, and writes its pid to $FAULTY_CHILD_PID_FILE; the
// plugin then hangs in its searches (mode child hangs like hang).
func startChild() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "FAULTY_CHILD=1")
	if cmd.Start() != nil {
		return
	}
	if f := os.Getenv("FAULTY_CHILD_PID_FILE"); f != "" {
		os.WriteFile(f, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
	}
}

// segfault dies of SIGSEGV as a crash in C code does: the signal's
// default action restored (Go's runtime would turn it into a panic and
// exit status 2), then raised.
func segfault() {
	var dfl [4]uint64 // struct sigaction, zero: SIG_DFL
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(syscall.SIGSEGV), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
	syscall.Kill(os.Getpid(), syscall.SIGSEGV)
	time.Sleep(time.Second)
}

// dropConnections shuts down every socket of the process: the harness's
// end of the plugin connection reads EOF while the process still runs.
func dropConnections() {
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, e := range fds {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasPrefix(l, "socket:") {
			syscall.Shutdown(fd, syscall.SHUT_RDWR)
		}
	}
}

// busError touches a shared mapping past the end of its file, which the
// kernel answers with SIGBUS, as it does when /dev/shm is full.
func busError() {
	f, err := os.CreateTemp("", "faulty-sigbus")
	if err != nil {
		return
	}
	os.Remove(f.Name())
	mem, err := syscall.Mmap(int(f.Fd()), 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return
	}
	mem[0] = 1
}
