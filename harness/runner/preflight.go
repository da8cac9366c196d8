package runner

// preflight.go estimates the memory each case needs and checks it against
// the machine's free memory, /dev/shm and the GPUs' free memory before
// anything is generated, so a case that cannot fit is refused with the
// numbers instead of dying of out-of-memory halfway.

import (
	"bufio"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// Bytes the harness and the SDK hold, per vertex and per edge (input
// tuple) of a workload.
const (
	edgeBytes = 16 // one graph500.Edge: the harness's list, and the plugin's
	// the validator's state, 16-bit entries and confirmed bitmap, and the
	// search keys' set (a tree of over 255 levels adds 8 more: left out)
	validatorBytesPerVertex = 8 + 2 + 1.0/8 + 1.0/8
	// the validator's copy of the edge list grouped for its edge pass
	validatorBytesPerEdge = 8
	// graph500.ComponentEdges, built when validate = N
	componentBytesPerVertex = 16
	parentsBytesPerVertex   = 8 // the shared parents file (/dev/shm)
	// a rank process under mpirun: Go runtime, MPI and buffers
	mpiRankBytes = 64 << 20
)

// Estimate is what one case needs, in bytes.
type Estimate struct {
	Harness float64 // the harness's edge list, validator and keys
	Plugin  float64 // the plugin's processes: the SDK's edge list and what the variant declares
	Shm     float64 // the parents file, in /dev/shm when it exists
	Device  float64 // GPU memory over the case's GPUs, as the variant declares it
	// Declared is false when the plugin declares no memory for the backend:
	// then Plugin counts the SDK's share only.
	Declared bool
}

// Host is the machine memory the case needs: harness, plugin and the
// parents file (tmpfs pages are memory).
func (e Estimate) Host() float64 { return e.Harness + e.Plugin + e.Shm }

// estimate is the need of variant v (plugin info) on a graph of nv
// vertices and ne edges.
func estimate(nv, ne float64, validateAll bool, v *config.Variant, info sdk.Info) Estimate {
	e := Estimate{
		Harness: (edgeBytes+validatorBytesPerEdge)*ne + validatorBytesPerVertex*nv,
		Plugin:  edgeBytes * ne,
		Shm:     parentsBytesPerVertex * nv,
	}
	if !validateAll {
		e.Harness += componentBytesPerVertex * nv
	}
	if v.Launcher == config.LauncherMPIRun {
		e.Plugin += mpiRankBytes * float64(v.Ranks)
	}
	if m, ok := info.Memory[v.Backend]; ok {
		e.Declared = true
		e.Plugin += m.HostPerVertex*nv + m.HostPerEdge*ne + m.HostPerRank*float64(v.Ranks)
		e.Device = m.DevicePerVertex*nv + m.DevicePerEdge*ne + m.DevicePerRank*float64(v.Ranks)
	}
	return e
}

// Machine is what a preflight checks against; a zero field is unknown
// and not checked.
type Machine struct {
	HostAvail float64   // bytes: MemAvailable, or the cgroup's limit less its use if smaller
	ShmFree   float64   // bytes free in /dev/shm
	GPUFree   []float64 // bytes free per GPU (nvidia-smi); nil without nvidia-smi
	GPUProbed bool      // nvidia-smi answered
}

// DetectMachine reads /proc/meminfo, the cgroup limit, /dev/shm and
// nvidia-smi.
func DetectMachine() Machine {
	m := Machine{HostAvail: hostAvailable()}
	if shmBase() == shmDir {
		var st syscall.Statfs_t
		if syscall.Statfs(shmDir, &st) == nil {
			m.ShmFree = float64(st.Bavail) * float64(st.Bsize)
		}
	}
	out := command("nvidia-smi", "--query-gpu=memory.free", "--format=csv,noheader,nounits")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if mib, err := strconv.ParseFloat(strings.TrimSpace(l), 64); err == nil {
			m.GPUFree = append(m.GPUFree, mib*(1<<20))
			m.GPUProbed = true
		}
	}
	return m
}

func hostAvailable() float64 {
	avail := 0.0
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == "MemAvailable" {
				if kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64); err == nil {
					avail = kb * 1024
				}
			}
		}
		f.Close()
	}
	// A container's limit (cgroup v2) can be far below the host's memory.
	limit := readNumber("/sys/fs/cgroup/memory.max")
	used := readNumber("/sys/fs/cgroup/memory.current")
	if limit > 0 && limit-used < avail || avail == 0 && limit > 0 {
		avail = math.Max(0, limit-used)
	}
	return avail
}

func readNumber(path string) float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		return 0
	}
	return x
}

// check says why e does not fit on m (nil when it does or cannot be
// told), for a case on ranks ranks of backend.
func (m Machine) check(e Estimate, backend string, ranks int) error {
	var why []string
	if m.HostAvail > 0 && e.Host() > m.HostAvail {
		need, avail := sizePair(e.Host(), m.HostAvail)
		why = append(why, fmt.Sprintf("it needs about %s of memory (harness %s, plugin %s, parents file %s) but %s is available",
			need, gib(e.Harness), gib(e.Plugin), gib(e.Shm), avail))
	}
	if m.ShmFree > 0 && e.Shm > m.ShmFree {
		need, free := sizePair(e.Shm, m.ShmFree)
		why = append(why, fmt.Sprintf("its parents file needs %s in /dev/shm but %s is free there (enlarge it: docker run --shm-size=%dg, or mount -o remount,size=...)",
			need, free, int(math.Ceil(e.Shm/(1<<30)))+1))
	}
	if backend == sdk.BackendCUDA && e.Device > 0 && m.GPUProbed {
		free := append([]float64(nil), m.GPUFree...)
		sort.Sort(sort.Reverse(sort.Float64Slice(free)))
		n := min(max(ranks, 1), len(free))
		per := e.Device / float64(n)
		if n == 0 || free[n-1] < per {
			have := 0.0
			if n > 0 {
				have = free[n-1]
			}
			need, free := sizePair(per, have)
			why = append(why, fmt.Sprintf("it needs about %s of GPU memory on each of %d GPUs but %s is free", need, n, free))
		}
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(why, "; "))
}

// gib formats a size in bytes in the largest binary unit it reaches
// (TiB, GiB, MiB, KiB, bytes), with one decimal.
func gib(b float64) string { return sizeIn(b, sizeUnit(b), 1) }

// sizeUnit is the largest binary unit b reaches, in bytes.
func sizeUnit(b float64) float64 {
	for _, u := range []float64{1 << 40, 1 << 30, 1 << 20, 1 << 10} {
		if b >= u {
			return u
		}
	}
	return 1
}

// sizeIn formats b in unit with the given decimals (bytes are whole).
func sizeIn(b, unit float64, decimals int) string {
	name := map[float64]string{1 << 40: "TiB", 1 << 30: "GiB", 1 << 20: "MiB", 1 << 10: "KiB", 1: "bytes"}[unit]
	if unit == 1 {
		return fmt.Sprintf("%.0f bytes", b)
	}
	return fmt.Sprintf("%.*f %s", decimals, b/unit, name)
}

// sizePair formats a need and what was free in one unit, with as many
// decimals as it takes for two sizes that differ to read differently
// ("needs 600.0 KiB but 300.0 KiB is free", never "1 MiB but 1 MiB").
func sizePair(need, have float64) (string, string) {
	if n, h := gib(need), gib(have); n != h || need == have {
		return n, h // each in its own unit
	}
	unit := sizeUnit(max(need, have))
	for d := 2; d <= 9; d++ {
		n, h := sizeIn(need, unit, d), sizeIn(have, unit, d)
		if n != h || need == have {
			return n, h
		}
	}
	return sizeIn(need, 1, 0), sizeIn(have, 1, 0)
}

// PreflightError lists the cases that cannot fit on this machine.
type PreflightError struct{ Cases []string }

func (e *PreflightError) Error() string {
	return fmt.Sprintf("refusing to start: %d case(s) cannot fit on this machine (bfsbench run --no-preflight runs them anyway):\n  %s",
		len(e.Cases), strings.Join(e.Cases, "\n  "))
}

// Preflight checks every Kronecker workload × planned case against m (a
// graph file's size is known only once loaded: Run checks it then).
// It returns notes for results.json (what it could not check) and a
// *PreflightError for the cases that do not fit.
func Preflight(cfg *config.Config, plan []Planned, infos map[string]sdk.Info, m Machine) (notes []string, err error) {
	var bad []string
	undeclared := map[string]bool{}
	gpuUnchecked := false
	for _, w := range cfg.Workloads {
		if w.Spec.File != "" {
			continue
		}
		nv := math.Ldexp(1, w.Spec.Scale)
		ne := nv * float64(w.Spec.EdgeFactor)
		if nv > graph500.MaxValidatorVertices {
			bad = append(bad, fmt.Sprintf("%s: %.0f vertices, more than the %d the validator supports", w.Spec, nv, graph500.MaxValidatorVertices))
			continue
		}
		for _, p := range plan {
			if !p.variant.RunsAt(w) {
				continue
			}
			info := infos[p.variant.Plugin]
			e := estimate(nv, ne, w.Validate == config.ValidateAll, p.variant, info)
			if !e.Declared {
				undeclared[p.variant.Plugin+"/"+p.variant.Backend] = true
			}
			if p.variant.Backend == sdk.BackendCUDA && !m.GPUProbed {
				gpuUnchecked = true
			}
			if cerr := m.check(e, p.variant.Backend, p.variant.Ranks); cerr != nil {
				bad = append(bad, fmt.Sprintf("%s on %s: %v", p.variant.Name, w.Spec, cerr))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(undeclared)) {
		notes = append(notes, fmt.Sprintf("memory preflight: plugin %s declares no memory estimate for its %s backend; only the harness's and the SDK's share were counted",
			strings.Split(k, "/")[0], strings.Split(k, "/")[1]))
	}
	if gpuUnchecked {
		notes = append(notes, "memory preflight: GPU memory not checked (nvidia-smi not found or not answering)")
	}
	if len(bad) > 0 {
		return notes, &PreflightError{Cases: dedupe(bad)}
	}
	return notes, nil
}

// checkLoaded is the preflight of a graph file once its size is known.
func checkLoaded(nv, ne int64, w config.Workload, plan []Planned, infos map[string]sdk.Info, m Machine) error {
	var bad []string
	for _, p := range plan {
		e := estimate(float64(nv), float64(ne), w.Validate == config.ValidateAll, p.variant, infos[p.variant.Plugin])
		e.Harness -= edgeBytes * float64(ne) // already loaded: counted in MemAvailable's drop
		if err := m.check(e, p.variant.Backend, p.variant.Ranks); err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", p.variant.Name, err))
		}
	}
	if len(bad) > 0 {
		return &PreflightError{Cases: dedupe(bad)}
	}
	return nil
}

// GenerateNeed is the memory `bfsbench generate` needs for a scale and
// edge factor: the edge list.
func GenerateNeed(scale, edgefactor int) float64 {
	return edgeBytes * math.Ldexp(float64(edgefactor), scale)
}

// CheckGenerate refuses a generation that cannot fit in available memory.
func CheckGenerate(scale, edgefactor int) error {
	need, avail := GenerateNeed(scale, edgefactor), hostAvailable()
	if avail > 0 && need > avail {
		needS, availS := sizePair(need, avail)
		return fmt.Errorf("scale %d edgefactor %d: the edge list needs %s of memory but %s is available",
			scale, edgefactor, needS, availS)
	}
	return nil
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
