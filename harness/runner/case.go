package runner

// case.go runs one case: plugin process, construction, warm-up and timed
// searches, each validated by the harness against its own edge list.

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

func (o Options) runCase(parent context.Context, p planned, w config.Workload, wl *prepared, rc *results.Case, outDir, tag string, m Machine) {
	v := p.variant
	rc.Error = ""
	rc.Graph = wl.graph.Info
	rc.GenerationTimeS = wl.genTimeS
	ctx, cancel := context.WithTimeout(parent, v.Timeout)
	defer cancel()

	logDir := filepath.Join(outDir, "logs")
	_ = os.MkdirAll(logDir, 0o755)
	logPath := filepath.Join(logDir, caseFileName(rc)+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		rc.Status, rc.Error = results.StatusFailed, err.Error()
		return
	}
	defer logFile.Close()
	tail := &tailBuffer{max: 4096}
	head := &headBuffer{max: 4096}
	stderr := io.MultiWriter(logFile, head, tail)

	var proc *proc
	fail := func(err error) {
		rc.Status = errStatus(ctx, err)
		msg := cleanStartError(err.Error())
		switch {
		case rc.Status == results.StatusTimeout:
			rc.Error = fmt.Sprintf("timed out after %s: %v", v.Timeout, msg)
		case parent.Err() != nil:
			rc.Error = "interrupted: " + msg
		default:
			rc.Error = msg
		}
		t := pluginOutput(tail.String())
		h := pluginOutput(head.String())
		switch {
		case h != "" && !strings.HasPrefix(t, h):
			// A long stderr (a Go crash dump): its first lines say what
			// happened, its last ones where.
			rc.Error += "\nplugin stderr (first lines; full log " + logPath + "):\n" + firstN(h, 8) + "\n(last lines):\n" + t
		case t != "":
			rc.Error += "\nplugin stderr (last lines; full log " + logPath + "):\n" + t
		}
		if parent.Err() == nil && rc.Status != results.StatusTimeout {
			fi := failureInfo{stderr: h + "\n" + t, ranks: v.Ranks, parentsB: parentsBytesPerVertex * float64(wl.graph.NVertices),
				shmFree: m.ShmFree, availB: m.HostAvail,
				estimateB: estimate(float64(wl.graph.NVertices), float64(len(wl.graph.Edges)), w.Validate == config.ValidateAll, v, sdk.Info{}).Host()}
			if proc != nil {
				fi.status = proc.exitStatus()
			}
			rc.Cause = diagnose(fi)
		}
	}

	parentsPath, cleanup, err := parentsFilePath()
	if err != nil {
		fail(err)
		return
	}
	defer cleanup()
	pf, err := sdk.CreateParentsFile(parentsPath, wl.graph.NVertices)
	if err != nil {
		fail(err)
		return
	}
	defer pf.Close()

	stage("start")
	proc, err = startPlugin(ctx, p.path, v, stderr)
	if err != nil {
		fail(err)
		return
	}
	// A case that finished closes its plugin politely; after a failure or a
	// timeout the plugin may be hung, so it is killed at once.
	finished := false
	defer func() {
		if finished {
			proc.stop()
		} else {
			proc.kill()
		}
	}()
	// A plugin that dies is noticed at once, not at the case's timeout.
	go func() {
		for !proc.client.Exited() {
			select {
			case <-ctx.Done():
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
		cancel()
	}()

	bar := newBar(o.Log, o.Progress, fmt.Sprintf("%s %s", tag, rc.Variant), w.NBFS+1)
	defer bar.finish()
	bar.set(0, "constructing")
	stage("construct")
	cr, err := proc.rpc.Construct(ctx, sdk.ConstructArgs{
		Workload: w.Spec, ParentsPath: parentsPath,
		Config: sdk.Config{Backend: v.Backend, Params: p.params, Ranks: v.Ranks, Grid: v.Grid, Launcher: v.Launcher},
	})
	if err != nil {
		fail(exitReason(proc, err))
		return
	}
	if cr.Graph.Fingerprint != wl.graph.Info.Fingerprint {
		fail(fmt.Errorf("the plugin's edge list (fingerprint %s) differs from the harness's (%s)", cr.Graph.Fingerprint, wl.graph.Info.Fingerprint))
		return
	}
	if !finite(cr.TimeS) || cr.TimeS < 0 {
		fail(fmt.Errorf("the plugin reported a construction time of %v", cr.TimeS))
		return
	}
	rc.ConstructionTimeS = cr.TimeS
	rc.Devices = cr.Devices
	rc.GPUs = distinct(cr.Devices)
	rc.Info = finiteInfo(cr.Info)

	parents := pf.Slice()
	rc.Validate = validatePolicy(w.Validate)
	// search runs one BFS; check says whether the harness validates it.
	// A search it does not validate takes its TEPS edge count from the
	// harness's component count, never from the variant's output.
	search := func(root int64, check bool) (results.Search, error) {
		stage("search")
		r, err := proc.rpc.BFS(ctx, root)
		if err != nil {
			return results.Search{}, exitReason(proc, err)
		}
		if err := checkReply(r); err != nil {
			return results.Search{}, err
		}
		s := results.Search{Root: root, TimeS: r.TimeS, TransferTimeS: r.TransferTimeS, Levels: r.Levels, Phases: r.Phases, BoundBytes: r.BoundBytes}
		if !check {
			s.NEdge = wl.components.NEdge(root)
			if s.TimeS > 0 {
				s.TEPS = float64(s.NEdge) / s.TimeS
			}
			return s, nil
		}
		s.Validated = true
		stage("validate")
		t0 := time.Now()
		res, verr := wl.validator.Validate(root, parents)
		s.ValidateTimeS = time.Since(t0).Seconds()
		s.NEdge = res.NEdge
		if verr != nil {
			s.Error = verr.Error()
			return s, nil
		}
		s.Valid = true
		if s.TimeS > 0 {
			s.TEPS = float64(s.NEdge) / s.TimeS
		}
		s.Levels = res.Levels // the validator's count: the same rule for every variant
		return s, nil
	}

	// One untimed warm-up search on the first key, validated unless the
	// config validates nothing (a variant that is wrong on the warm-up is
	// wrong).
	bar.set(0, "warm-up")
	warm, err := search(wl.keys[0], w.Validate != 0)
	if err != nil {
		fail(fmt.Errorf("warm-up search: %w", err))
		return
	}
	invalid := 0
	if warm.Validated && !warm.Valid {
		invalid++
		rc.Error = fmt.Sprintf("warm-up search from %d: %s", warm.Root, warm.Error)
	}
	for i, root := range wl.keys {
		bar.set(i+1, fmt.Sprintf("bfs %d/%d", i+1, len(wl.keys)))
		s, err := search(root, w.Validate == config.ValidateAll || i < w.Validate)
		if err != nil {
			finishStats(rc)
			fail(fmt.Errorf("search %d (root %d): %w", i+1, root, err))
			return
		}
		if s.Validated && !s.Valid {
			invalid++
			if rc.Error == "" {
				rc.Error = fmt.Sprintf("search %d from %d: %s", i+1, root, s.Error)
			}
		}
		rc.BFS = append(rc.BFS, s)
	}
	finishStats(rc)
	finished = true
	rc.Status = results.StatusOK
	if invalid > 0 {
		rc.Status = results.StatusInvalid
		rc.Error = fmt.Sprintf("%d of %d validated searches invalid; first: %s", invalid, rc.Validated+btoi(warm.Validated), rc.Error)
	}
}

// validatePolicy names a workload's validation setting as results.json
// records it.
func validatePolicy(n int) string {
	if n == config.ValidateAll {
		return "all"
	}
	return fmt.Sprintf("first %d", n)
}

// finishStats fills the case's statistics from its searches: Stats over
// the validated, valid ones; StatsAll, for a partly validated case, over
// every search not found invalid; the % of the bandwidth bound and of the
// measured floor.
func finishStats(rc *results.Case) {
	rc.Validated = 0
	all := make([]results.Search, 0, len(rc.BFS))
	for _, s := range rc.BFS {
		if s.Validated {
			rc.Validated++
		} else {
			s.Valid = s.TEPS > 0 // a copy: counted in StatsAll only
		}
		all = append(all, s)
	}
	rc.Stats = graph500.ComputeStats(rc.BFS)
	rc.StatsAll = nil
	if rc.Validated < len(rc.BFS) {
		rc.StatsAll = graph500.ComputeStats(all)
	}
	rc.BandwidthGBs, rc.PercentOfBound = percentOfBound(rc)
	rc.FloorTimeS, rc.PercentOfFloor = percentOfFloor(rc)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pluginOutput is the plugin's stderr without go-plugin's own debug lines.
func pluginOutput(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.Contains(l, `"@level":"debug"`) && strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// exitReason adds "the plugin process exited" to an RPC error when the
// process is gone, which is what a user needs to know first.
func exitReason(p *proc, err error) error {
	time.Sleep(50 * time.Millisecond) // let go-plugin notice the exit
	if p.client.Exited() {
		return fmt.Errorf("plugin process exited (crashed?): %w", err)
	}
	return err
}

// parentsFilePath picks a file for the shared parent array: /dev/shm where
// it exists (memory, never disk), else the temporary directory, in a
// folder named after this process (see CleanStale).
func parentsFilePath() (string, func(), error) {
	dir, err := os.MkdirTemp(shmBase(), runDirPrefix())
	if err != nil {
		return "", nil, fmt.Errorf("parents file: %w", err)
	}
	return filepath.Join(dir, "parents"), func() { os.RemoveAll(dir) }, nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._=-]+`)

func caseFileName(c *results.Case) string {
	keys := make([]string, 0, len(c.Params))
	for k := range c.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{c.Variant, c.Backend, strings.ReplaceAll(c.Graph.Label(), " ", "")}
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, c.Params[k]))
	}
	name := unsafeName.ReplaceAllString(strings.Join(parts, "_"), "-")
	if len(name) <= maxCaseFileName {
		return name
	}
	// Too long for a file name (NAME_MAX is 255 bytes on common file
	// systems, and many parameters exceed it): keep a readable prefix and
	// make it unique with a hash of the whole name.
	h := fnv.New64a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s~%016x", name[:maxCaseFileName-17], h.Sum64())
}

// maxCaseFileName is the longest case file name stem caseFileName returns,
// leaving room for an extension within 255 bytes.
const maxCaseFileName = 200

func distinct(xs []string) int {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return len(m)
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := h.max - len(h.b); n > 0 {
		h.b = append(h.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.b)
}

func firstN(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// percentOfFloor reads the floor the variant measured (seconds per
// search) and gives it as a share of the median time of the validated,
// valid searches.
func percentOfFloor(c *results.Case) (floorS, pct float64) {
	floorS, _ = c.Info[sdk.InfoFloorTimeS].(float64)
	if floorS <= 0 || c.Stats == nil || c.Stats.N == 0 || c.Stats.Time.Median <= 0 {
		return floorS, 0
	}
	return floorS, 100 * floorS / c.Stats.Time.Median
}

// percentOfBound reads the device bandwidth the variant measured and
// applies results.PercentOfBound over the case's devices.
func percentOfBound(c *results.Case) (bwGBs, pct float64) {
	bw, _ := c.Info[sdk.InfoCopyBandwidthGBs].(float64)
	return bw, results.PercentOfBound(c.BFS, bw, c.GPUs)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkReply refuses a search reply whose numbers cannot be right (they
// would also make results.json unwritable: JSON has no NaN).
func checkReply(r sdk.BFSReply) error {
	for _, x := range []float64{r.TimeS, r.WallS, r.TransferTimeS} {
		if !finite(x) || x < 0 {
			return fmt.Errorf("the plugin reported a time of %v (time %v, transfer %v)", x, r.TimeS, r.TransferTimeS)
		}
	}
	if r.Levels < 0 || r.BoundBytes < 0 {
		return fmt.Errorf("the plugin reported %d levels and %d bound bytes", r.Levels, r.BoundBytes)
	}
	for _, ph := range r.Phases {
		for k, x := range ph.Times {
			if !finite(x) {
				return fmt.Errorf("the plugin reported phase %q of level %d as %v", k, ph.Level, x)
			}
		}
	}
	return nil
}

// finiteInfo replaces non-finite numbers in plugin-reported facts by their
// text, so they are kept and results.json stays valid JSON.
func finiteInfo(in map[string]any) map[string]any {
	for k, x := range in {
		if f, ok := x.(float64); ok && !finite(f) {
			in[k] = fmt.Sprint(f)
		}
		if f, ok := x.(float32); ok && !finite(float64(f)) {
			in[k] = fmt.Sprint(f)
		}
	}
	return in
}
