package runner

// case.go runs one case: plugin process, construction, warm-up and timed
// searches, each validated by the harness against its own edge list.

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/rpc"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// Session is one case under way: its plugin process started and the graph
// constructed on a prepared workload, ready to search. A case is
// StartCase, WarmUp, Search for each key, Finish, then Close: bfsbench run
// does that case after case (runCase), bfsbench ab interleaves the
// searches of two sessions. Every search is validated as the workload's
// validate says, by the harness against its own edge list.
//
// A Session is not safe for concurrent use. Once a step fails, the case is
// failed (Finish returns it with its error and cause) and every later step
// returns the same error.
type Session struct {
	parent context.Context // the caller's: an interrupt
	ctx    context.Context // parent with the variant's timeout; ends when the plugin dies
	cancel context.CancelFunc
	v      *config.Variant
	wl     *Prepared
	rc     *results.Case
	m      Machine

	logPath  string
	head     *headBuffer
	tail     *tailBuffer
	proc     *proc
	parents  []int64
	bar      *bar
	record   func(results.Search) // called with each search recorded, when set
	closers  []func()             // run by Close, last first
	oomStart int64                // the kernel's OOM kill count at the start (oomKillCount)
	warm     results.Search
	invalid  int   // validated searches found invalid, warm-up included
	err      error // the failure that ended the case
	finished bool  // Finish filled the case: the plugin is stopped politely
}

// StartCase starts the plugin of case p in its own process and constructs
// the graph of wl (Graph500 kernel 1), checking that the plugin holds the
// harness's edge list. The plugin's stderr goes to outDir/logs; o.Log and
// o.Progress draw a progress bar, o.Machine (detected when nil) names the
// likely cause of a failure. The case runs under ctx and the variant's
// timeout, until Close.
//
// The Session is never nil: when the start fails, the error is returned
// and the Session's Finish gives the failed case. Close it in either case.
func StartCase(ctx context.Context, o Options, p Planned, wl *Prepared, outDir string) (*Session, error) {
	m := DetectMachine()
	if o.Machine != nil {
		m = *o.Machine
	}
	return o.startCase(ctx, p, wl, newCase(p, wl.w), outDir, "", m)
}

// runCase runs one case to its end, filling rc; record, when not nil, is
// called with each search as it is recorded.
func (o Options) runCase(ctx context.Context, p Planned, wl *Prepared, rc *results.Case, outDir, tag string, m Machine, record func(results.Search)) {
	s, err := o.startCase(ctx, p, wl, rc, outDir, tag, m)
	defer s.Close()
	s.record = record
	if err != nil || s.WarmUp() != nil {
		return
	}
	for i := range wl.keys {
		if _, err := s.Search(i); err != nil {
			return
		}
	}
	s.Finish()
}

func (o Options) startCase(parent context.Context, p Planned, wl *Prepared, rc *results.Case, outDir, tag string, m Machine) (*Session, error) {
	v := p.variant
	rc.Error = ""
	rc.Graph = wl.graph.Info
	rc.GenerationTimeS = wl.genTimeS
	ctx, cancel := context.WithTimeout(parent, v.Timeout)
	s := &Session{parent: parent, ctx: ctx, cancel: cancel, v: v, wl: wl, rc: rc, m: m, oomStart: oomKillCount(),
		head: &headBuffer{max: 4096}, tail: &tailBuffer{max: 4096}, closers: []func(){cancel}}

	logDir := filepath.Join(outDir, "logs")
	_ = os.MkdirAll(logDir, 0o755)
	s.logPath = filepath.Join(logDir, caseFileName(rc)+".log")
	logFile, err := os.Create(s.logPath)
	if err != nil {
		rc.Status, rc.Error = results.StatusFailed, err.Error()
		s.err = err
		return s, err
	}
	s.closers = append(s.closers, func() { logFile.Close() })
	stderr := io.MultiWriter(&cappedWriter{w: logFile, max: maxLogBytes}, s.head, s.tail)

	parentsPath, cleanup, err := parentsFilePath()
	if err != nil {
		return s, s.fail(err)
	}
	s.closers = append(s.closers, cleanup)
	pf, err := sdk.CreateParentsFile(parentsPath, wl.graph.NVertices)
	if err != nil {
		return s, s.fail(err)
	}
	s.closers = append(s.closers, func() { pf.Close() })

	stage("start")
	proc, err := startPlugin(ctx, p.path, v, stderr)
	if err != nil {
		return s, s.fail(err)
	}
	s.proc = proc
	// A case that finished closes its plugin politely; after a failure or a
	// timeout the plugin may be hung, so it is killed at once.
	s.closers = append(s.closers, func() {
		if s.finished {
			proc.stop()
		} else {
			proc.kill()
		}
	})
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

	s.bar = newBar(o.Log, o.Progress, strings.TrimSpace(tag+" "+rc.Variant), wl.w.NBFS+1)
	s.closers = append(s.closers, s.bar.finish)
	s.bar.set(0, "constructing")
	stage("construct")
	cr, err := proc.rpc.Construct(ctx, sdk.ConstructArgs{
		Workload: wl.w.Spec, ParentsPath: parentsPath,
		Config: sdk.Config{Backend: v.Backend, Params: p.params, Ranks: v.Ranks, Grid: v.Grid, Launcher: v.Launcher,
			Shared: o.SharedDevices},
	})
	if err != nil {
		return s, s.fail(exitReason(proc, err))
	}
	if cr.Graph.Fingerprint != wl.graph.Info.Fingerprint {
		return s, s.fail(fmt.Errorf("the plugin's edge list (fingerprint %s) differs from the harness's (%s)", cr.Graph.Fingerprint, wl.graph.Info.Fingerprint))
	}
	if !finite(cr.TimeS) || cr.TimeS < 0 {
		return s, s.fail(fmt.Errorf("the plugin reported a construction time of %v", cr.TimeS))
	}
	rc.ConstructionTimeS = cr.TimeS
	rc.Devices = cr.Devices
	rc.GPUs = distinct(cr.Devices)
	rc.Info = finiteInfo(cr.Info)
	s.parents = pf.Slice()
	rc.Validate = validatePolicy(wl.w.Validate)
	return s, nil
}

// WarmUp runs the untimed warm-up search on the first key, validated
// unless the workload validates nothing (a variant that is wrong on the
// warm-up is wrong). It is not recorded as a search.
func (s *Session) WarmUp() error {
	if s.err != nil {
		return s.err
	}
	s.bar.set(0, "warm-up")
	warm, err := s.search(s.wl.keys[0], s.wl.w.Validate != 0)
	if err != nil {
		return s.fail(fmt.Errorf("warm-up search: %w", err))
	}
	s.warm = warm
	if warm.Validated && !warm.Valid {
		s.invalid++
		s.rc.Error = fmt.Sprintf("warm-up search from %d: %s", warm.Root, warm.Error)
	}
	return nil
}

// Search runs the timed search from key i of the workload (Graph500 kernel
// 2), validates it as the workload's validate says and records it in the
// case. An invalid search is recorded, not an error: the error is the
// case's failure (the plugin died, hung or answered nonsense).
func (s *Session) Search(i int) (results.Search, error) {
	if s.err != nil {
		return results.Search{}, s.err
	}
	keys := s.wl.keys
	if i < 0 || i >= len(keys) {
		return results.Search{}, fmt.Errorf("search key %d of %d", i, len(keys))
	}
	s.bar.set(len(s.rc.BFS)+1, fmt.Sprintf("bfs %d/%d", len(s.rc.BFS)+1, len(keys)))
	root := keys[i]
	r, err := s.search(root, s.wl.w.Validate == config.ValidateAll || i < s.wl.w.Validate)
	if err != nil {
		finishStats(s.rc)
		return results.Search{}, s.fail(fmt.Errorf("search %d (root %d): %w", i+1, root, err))
	}
	if r.Validated && !r.Valid {
		s.invalid++
		if s.rc.Error == "" {
			s.rc.Error = fmt.Sprintf("search %d from %d: %s", i+1, root, r.Error)
		}
	}
	s.rc.BFS = append(s.rc.BFS, r)
	if s.record != nil {
		s.record(r)
	}
	return r, nil
}

// Finish fills the case's statistics and status from its searches and
// returns it; after a failure it returns the failed case as it stands.
// Close the Session after.
func (s *Session) Finish() *results.Case {
	if s.err != nil || s.finished {
		return s.rc
	}
	finishStats(s.rc)
	s.finished = true
	s.rc.Status = results.StatusOK
	if s.invalid > 0 {
		s.rc.Status = results.StatusInvalid
		warmInvalid := s.warm.Validated && !s.warm.Valid
		s.rc.Error = invalidSummary(s.invalid-btoi(warmInvalid), s.rc.Validated, warmInvalid, s.rc.Error)
	}
	return s.rc
}

// invalidSummary is an invalid case's error: how many of its validated
// timed searches (nbfs at most; the warm-up is not one of them) were
// invalid, whether the untimed warm-up search was too, and the first
// failure.
func invalidSummary(invalid, validated int, warmInvalid bool, first string) string {
	warm := ""
	if warmInvalid {
		warm = ", and the warm-up search"
	}
	return fmt.Sprintf("%d of %d validated searches invalid%s; first: %s", invalid, validated, warm, first)
}

// Close ends the plugin process (politely after Finish, killed otherwise)
// and removes the case's shared parent array. It may be called more than
// once.
func (s *Session) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// search runs one BFS; check says whether the harness validates it. A
// search it does not validate takes its TEPS edge count from the harness's
// component count, never from the variant's output.
func (s *Session) search(root int64, check bool) (results.Search, error) {
	stage("search")
	t0 := time.Now()
	r, err := s.proc.rpc.BFS(s.ctx, root)
	wall := time.Since(t0).Seconds()
	if err != nil {
		return results.Search{}, exitReason(s.proc, err)
	}
	if err := checkReply(r); err != nil {
		return results.Search{}, err
	}
	if err := checkSearchTime(r.TimeS, wall); err != nil {
		return results.Search{}, err
	}
	out := results.Search{Root: root, TimeS: r.TimeS, TransferTimeS: r.TransferTimeS, Levels: r.Levels, Phases: r.Phases, BoundBytes: r.BoundBytes}
	if !check {
		out.NEdge = s.wl.components.NEdge(root)
		if out.TimeS > 0 {
			out.TEPS = float64(out.NEdge) / out.TimeS
		}
		return out, nil
	}
	out.Validated = true
	stage("validate")
	t1 := time.Now()
	res, verr := s.wl.validator.Validate(root, s.parents)
	out.ValidateTimeS = time.Since(t1).Seconds()
	out.NEdge = res.NEdge
	if verr != nil {
		out.Error = verr.Error()
		return out, nil
	}
	out.Valid = true
	if out.TimeS > 0 {
		out.TEPS = float64(out.NEdge) / out.TimeS
	}
	out.Levels = res.Levels // the validator's count: the same rule for every variant
	return out, nil
}

// fail records err as the case's failure (status, message, the plugin's
// last words and their likely cause) and returns it.
func (s *Session) fail(err error) error {
	rc, v := s.rc, s.v
	s.err = err
	if s.proc != nil {
		// What the plugin wrote to os.Stderr comes over a stream of its
		// own, a moment behind the call's answer.
		time.Sleep(50 * time.Millisecond)
	}
	rc.Status = errStatus(s.ctx, err)
	msg := cleanStartError(err.Error())
	switch {
	case rc.Status == results.StatusTimeout:
		rc.Error = fmt.Sprintf("timed out after %s: %v", v.Timeout, msg)
	case s.parent.Err() != nil:
		rc.Error = "interrupted: " + msg
	default:
		rc.Error = msg
	}
	t := pluginOutput(s.tail.String())
	h := pluginOutput(s.head.String())
	switch {
	case h != "" && !strings.HasPrefix(t, h):
		// A long stderr (a Go crash dump): its first lines say what
		// happened, its last ones where.
		rc.Error += "\nplugin stderr (first lines; full log " + s.logPath + "):\n" + firstN(h, 8) + "\n(last lines):\n" + t
	case t != "":
		rc.Error += "\nplugin stderr (last lines; full log " + s.logPath + "):\n" + t
	}
	if s.parent.Err() == nil && rc.Status != results.StatusTimeout {
		g := s.wl.graph
		fi := failureInfo{err: err.Error(), stderr: h + "\n" + t, ranks: v.Ranks, parentsB: parentsBytesPerVertex * float64(g.NVertices),
			shmFree: s.m.ShmFree, availB: s.m.HostAvail,
			estimateB: estimate(float64(g.NVertices), float64(len(g.Edges)), s.wl.w.Validate == config.ValidateAll, v, sdk.Info{}).Host()}
		if s.proc != nil {
			fi.status = s.proc.exitStatus()
		}
		fi.oomKills = -1
		if now := oomKillCount(); now >= 0 && s.oomStart >= 0 {
			fi.oomKills = now - s.oomStart
		}
		rc.Cause = diagnose(fi)
	}
	return err
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

// exitReason adds how the plugin process ended ("exit status 3",
// "signal: segmentation fault") to an RPC error when the process is gone,
// which is what a user needs to know first.
func exitReason(p *proc, err error) error {
	var answered rpc.ServerError
	if errors.As(err, &answered) {
		return err // the plugin's own error: it is alive
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if p.client.Exited() { // the plugin died, which ended the case
			return fmt.Errorf("plugin process exited (%s): %w", p.exitStatus(), err)
		}
		return err // the harness ended the call: an interrupt or the timeout
	}
	// A call that broke with its connection: the process is exiting, give
	// go-plugin a moment to reap it.
	for end := time.Now().Add(time.Second); !p.client.Exited() && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if p.client.Exited() {
		return fmt.Errorf("plugin process exited (%s): %w", p.exitStatus(), err)
	}
	// The connection ended under a live process: go-plugin's keepalive
	// dropped it, or the plugin closed it.
	return fmt.Errorf("the connection to the plugin was lost while its process still ran (%s): %w", p.state(), err)
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

// fileNameEscape writes each byte a file name should not hold (anything
// but letters, digits and . _ = -) as %XX, so that two names differing
// only there (a/b and a:b) stay apart: the escape is one-to-one.
func fileNameEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '=', c == '-':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

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
	name := fileNameEscape(strings.Join(parts, "_"))
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

// maxLogBytes caps a case's log file in logs/.
var maxLogBytes int64 = 64 << 20

// cappedWriter writes at most max bytes to w, then a note that it cut
// there, and drops the rest. It reports every write whole, so that the
// copy feeding it (and the head and tail beside it) goes on.
type cappedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	max  int64
	n    int64
	full bool
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.full {
		return len(p), nil
	}
	if room := c.max - c.n; int64(len(p)) > room {
		_, _ = c.w.Write(p[:max(room, 0)])
		_, _ = fmt.Fprintf(c.w, "\n[bfsbench: log cut at %s; what followed is dropped, the case's error keeps its last lines]\n", gib(float64(c.max)))
		c.full = true
		return len(p), nil
	}
	k, _ := c.w.Write(p) // a failed log write (a full disk) must not stop the copy feeding the error's tail
	c.n += int64(k)
	return len(p), nil
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

// The harness's clock bounds a search's reported time: the search runs
// inside the call, so it cannot take longer than the call's wall time
// (plus slack for a second clock, a GPU's events say), nor less than a
// millionth of it; the call's overhead (RPC, copying the parents) is
// microseconds to seconds, never a million times the search. Outside the
// bounds the time is a unit error or garbage, and its TEPS would be too.
const (
	wallSlackS      = 1e-3
	wallSlackFrac   = 0.01
	minWallFraction = 1e-6
)

// checkSearchTime refuses a reported search time of timeS seconds that
// the call's wall time, as the harness measured it, contradicts.
func checkSearchTime(timeS, wallS float64) error {
	switch {
	case timeS > wallS*(1+wallSlackFrac)+wallSlackS:
		return fmt.Errorf("the plugin reported a search time of %.6g s, longer than the %.6g s wall time the harness measured for the whole call", timeS, wallS)
	case timeS < wallS*minWallFraction:
		return fmt.Errorf("the plugin reported a search time of %.6g s, less than a millionth of the %.6g s wall time the harness measured for the call: not a time a search can take", timeS, wallS)
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
