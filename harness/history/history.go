// Package history tracks bfsbench's figures commit by commit. Each
// commit's bench.txt (a plain `bfsbench run`'s, in Go's benchmark format,
// one line per valid search) is kept as a git note on the commit, under a
// notes ref of its own (refs/notes/bfsbench, as git-perf keeps its
// measurements), and golang.org/x/perf/benchseries, the Go team's
// per-commit series, turns the notes into series: for each machine and
// each benchmark, the ratio of each commit's median to the first commit's,
// with a bootstrap interval, the change score between one commit and the
// one before it, and the chart.
//
// A gate (bfsbench ab) compares a change with its base; a history shows
// what no gate sees: a drift of 2% a week passes every A/B and adds up in
// the series, and a step shows at the commit that made it.
package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchseries"
)

// DefaultRef is the notes ref (under refs/notes/) that holds bench.txt.
const DefaultRef = "bfsbench"

// Commit is one commit with its measurements.
type Commit struct {
	Hash    string
	Time    time.Time // committer date
	Subject string
	Bench   []byte // the note: one bench.txt, or several appended
}

// Short is the commit's abbreviated hash.
func (c Commit) Short() string {
	if len(c.Hash) > 12 {
		return c.Hash[:12]
	}
	return c.Hash
}

// Load returns the commits of rev's first-parent history (the newest max,
// oldest first; max <= 0: all) that carry a note under refs/notes/<ref>.
func Load(ctx context.Context, repo, ref, rev string, max int) ([]Commit, error) {
	list, err := git(ctx, repo, "notes", "--ref", ref, "list")
	if err != nil {
		return nil, err
	}
	notes := map[string]string{} // commit -> note blob
	for _, line := range strings.Split(list, "\n") {
		if blob, commit, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			notes[commit] = blob
		}
	}
	if len(notes) == 0 {
		return nil, nil
	}
	args := []string{"log", "--first-parent", "--reverse", "--format=%H%x00%cI%x00%s"}
	if max > 0 {
		args = append(args, fmt.Sprintf("-n%d", max))
	}
	log, err := git(ctx, repo, append(args, "--end-of-options", rev)...)
	if err != nil {
		return nil, err
	}
	var out []Commit
	for _, line := range strings.Split(log, "\n") {
		f := strings.SplitN(line, "\x00", 3)
		if len(f) != 3 || notes[f[0]] == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, f[1])
		if err != nil {
			return nil, fmt.Errorf("commit %s: date %q: %w", f[0], f[1], err)
		}
		note, err := git(ctx, repo, "cat-file", "blob", notes[f[0]])
		if err != nil {
			return nil, err
		}
		out = append(out, Commit{Hash: f[0], Time: t, Subject: f[2], Bench: []byte(note + "\n")})
	}
	return out, nil
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// Options set how a history is read.
type Options struct {
	Unit       string  // the unit to follow; "" is TEPS (higher is better)
	Confidence float64 // of the bootstrap intervals; 0 is 0.95
	Bootstrap  int     // resamples per interval; 0 is 1000
	// A change is reported where a benchmark's ratio moved by at least
	// MinChange (a fraction; 0 is 0.05) from the commit before, with a
	// change score of at least Score (0 is 2): benchseries' measure of
	// how far apart the two intervals are (0 for the same interval, 1 when
	// they just touch, 1 + gap/width beyond: 2 is a gap as wide as the
	// narrower interval; negative for a fall).
	MinChange float64
	Score     float64
}

func (o Options) withDefaults() Options {
	if o.Unit == "" {
		o.Unit = "TEPS"
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.Bootstrap == 0 {
		o.Bootstrap = 1000
	}
	if o.MinChange == 0 {
		o.MinChange = 0.05
	}
	if o.Score == 0 {
		o.Score = 2
	}
	return o
}

// History is the series built from the notes, one per machine.
type History struct {
	Options Options
	Series  []*Series
	Changes []Change
}

// Series is one machine's commits in one unit: for each commit and
// benchmark, the ratio of the commit's median to the baseline's (the first
// commit measured on the machine) with its interval.
type Series struct {
	Machine    string // the bench.txt's cpu and gpu lines
	Unit       string
	Baseline   Commit
	Commits    []Commit
	Benchmarks []string
	cs         *benchseries.ComparisonSeries
}

// At is the ratio of commit i to the baseline for benchmark j, nil where
// the commit has no such benchmark.
func (s *Series) At(i, j int) *benchseries.ComparisonSummary {
	if sum := s.cs.Summaries[i][j]; sum.Defined() {
		return sum
	}
	return nil
}

// Change is a step between a commit and the one before it that measured
// the same benchmark.
type Change struct {
	Series    *Series
	Commit    int // index in Series.Commits
	Prev      int
	Benchmark string
	Delta     float64 // the ratio's relative change from Prev to Commit
	Score     float64 // benchseries' change score (negative: down)
}

// Build reads the commits' notes (oldest first) into series.
func Build(commits []Commit, o Options) (*History, error) {
	o = o.withDefaults()
	h := &History{Options: o}
	// Split the commits by machine: a ratio means something between two
	// runs of one machine only.
	type group struct {
		commits []Commit
		results [][]*benchfmt.Result
	}
	var machines []string
	groups := map[string]*group{}
	for _, c := range commits {
		byMachine := map[string][]*benchfmt.Result{}
		r := benchfmt.NewReader(bytes.NewReader(c.Bench), c.Short())
		for r.Scan() {
			res, ok := r.Result().(*benchfmt.Result)
			if !ok {
				continue // a syntax error: that line is skipped
			}
			m := machineOf(res)
			byMachine[m] = append(byMachine[m], res.Clone())
		}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("commit %s: %w", c.Short(), err)
		}
		for _, m := range slices.Sorted(maps.Keys(byMachine)) {
			g := groups[m]
			if g == nil {
				g = &group{}
				groups[m] = g
				machines = append(machines, m)
			}
			g.commits = append(g.commits, c)
			g.results = append(g.results, byMachine[m])
		}
	}
	for _, m := range machines {
		s, err := buildSeries(m, groups[m].commits, groups[m].results, o)
		if err != nil {
			return nil, err
		}
		if s != nil {
			h.Series = append(h.Series, s)
			h.Changes = append(h.Changes, s.changes(o)...)
		}
	}
	return h, nil
}

// Config keys given to benchseries.
const (
	keyMachine  = "machine"
	keyRole     = "role"
	keyCommit   = "commit"
	keyBaseline = "baseline-commit"
	keySeries   = "series-time"
	keyRun      = "runstamp"
)

func buildSeries(machine string, commits []Commit, results [][]*benchfmt.Result, o Options) (*Series, error) {
	var warnings []string
	b, err := benchseries.NewBuilder(&benchseries.BuilderOptions{
		Filter:          ".unit:/.*/",
		Series:          keySeries,
		Experiment:      keyRun,
		Compare:         keyRole,
		Numerator:       "commit",
		Denominator:     "baseline",
		NumeratorHash:   keyCommit,
		DenominatorHash: keyBaseline,
		Ignore:          "cpu,gpu," + keyMachine,
		Warn:            func(format string, args ...any) { warnings = append(warnings, fmt.Sprintf(format, args...)) },
	})
	if err != nil {
		return nil, err
	}
	// The series' axis is time: each commit's committer date, made
	// strictly increasing (a rebase gives commits the same second). The
	// commits are keyed by their shortest unique hash prefix of at least 7
	// characters, which labels the chart's axis.
	key := shortest(commits)
	var last time.Time
	byShort := map[string]int{}
	for i, c := range commits {
		t := c.Time.UTC().Truncate(time.Second)
		if i > 0 && !t.After(last) {
			t = last.Add(time.Second)
		}
		last = t
		stamp := t.Format(time.RFC3339)
		byShort[key(c)] = i
		for _, r := range results[i] {
			r = r.Clone()
			r.SetConfig(keyRole, "commit")
			r.SetConfig(keyCommit, key(c))
			r.SetConfig(keySeries, stamp)
			r.SetConfig(keyRun, stamp)
			b.Add(r)
		}
		// The baseline's searches, in every commit's experiment: the
		// denominator of its ratio.
		for _, r := range results[0] {
			r = r.Clone()
			r.SetConfig(keyRole, "baseline")
			r.SetConfig(keyBaseline, key(commits[0]))
			r.SetConfig(keyRun, stamp)
			b.Add(r)
		}
	}
	all, err := b.AllComparisonSeries(nil, benchseries.DUPE_REPLACE)
	if err != nil {
		return nil, err
	}
	for _, cs := range all {
		if cs.Unit != o.Unit {
			continue
		}
		cs.AddSummaries(o.Confidence, o.Bootstrap)
		s := &Series{Machine: machine, Unit: o.Unit, Baseline: commits[0], Benchmarks: cs.Benchmarks, cs: cs}
		for _, ser := range cs.Series {
			i, ok := byShort[cs.HashPairs[ser].NumHash]
			if !ok {
				return nil, fmt.Errorf("benchseries: series point %s names no commit", ser)
			}
			s.Commits = append(s.Commits, commits[i])
		}
		return s, nil
	}
	return nil, nil // the machine measured nothing in this unit
}

// changes finds the steps of s: a benchmark's ratio moving by at least
// MinChange between a commit and the last one before it that measured
// the benchmark, with a change score of at least Score.
func (s *Series) changes(o Options) []Change {
	var out []Change
	for j, bench := range s.Benchmarks {
		prev := -1
		for i := range s.Commits {
			cur := s.At(i, j)
			if cur == nil {
				continue
			}
			if prev >= 0 {
				p := s.At(prev, j)
				score := p.HeurOverlap(cur, o.MinChange)
				delta := cur.Center/p.Center - 1
				if math.Abs(score) >= o.Score && math.Abs(delta) >= o.MinChange {
					out = append(out, Change{Series: s, Commit: i, Prev: prev, Benchmark: bench, Delta: delta, Score: score})
				}
			}
			prev = i
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Commit < out[b].Commit })
	return out
}

// WriteText writes, per series, the changes found and where each
// benchmark stands at the last commit against the baseline.
func (h *History) WriteText(w io.Writer) error {
	o := h.Options
	if len(h.Series) == 0 {
		fmt.Fprintf(w, "no commit with %s figures\n", o.Unit)
		return nil
	}
	for _, s := range h.Series {
		first, last := s.Commits[0], s.Commits[len(s.Commits)-1]
		fmt.Fprintf(w, "%s on %s: %d commits, %s (%s) to %s (%s); each commit's median over the baseline %s's, %.4g%% intervals\n",
			s.Unit, s.Machine, len(s.Commits), first.Short(), first.Time.Format(time.DateOnly), last.Short(), last.Time.Format(time.DateOnly),
			s.Baseline.Short(), 100*o.Confidence)
		var changes []Change
		for _, c := range h.Changes {
			if c.Series == s {
				changes = append(changes, c)
			}
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		if len(changes) == 0 {
			fmt.Fprintf(w, "no change of %.4g%% or more with a change score of %.4g or more\n", 100*o.MinChange, o.Score)
		} else {
			fmt.Fprintf(w, "changes of %.4g%% or more with a change score of %.4g or more (from the commit before that measured the case):\n", 100*o.MinChange, o.Score)
			fmt.Fprintln(tw, "COMMIT\tDATE\tCASE\tCHANGE\tSCORE\tSUBJECT")
			for _, c := range changes {
				cm := s.Commits[c.Commit]
				fmt.Fprintf(tw, "%s\t%s\t%s\t%+.2f%%\t%+.1f\t%s\n", cm.Short(), cm.Time.Format(time.DateOnly), c.Benchmark, 100*c.Delta, c.Score, cm.Subject)
			}
			tw.Flush()
		}
		fmt.Fprintf(w, "at %s against %s:\n", last.Short(), s.Baseline.Short())
		fmt.Fprintln(tw, "CASE\tRATIO\tINTERVAL")
		for j, bench := range s.Benchmarks {
			// The last commit that measured the case.
			for i := len(s.Commits) - 1; i >= 0; i-- {
				if sum := s.At(i, j); sum != nil {
					at := ""
					if i != len(s.Commits)-1 {
						at = " (at " + s.Commits[i].Short() + ")"
					}
					fmt.Fprintf(tw, "%s\t%+.2f%%\t[%+.2f%%, %+.2f%%]%s\n", bench, 100*(sum.Center-1), 100*(sum.Low-1), 100*(sum.High-1), at)
					break
				}
			}
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	return nil
}

// WriteFiles writes, per series, benchseries' CSV (the ratios, their
// intervals and the change scores) and its chart (PNG) into dir, and
// returns the files' paths.
func (h *History) WriteFiles(dir string) (paths []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, s := range h.Series {
		name := fileName(s.Unit + "_" + s.Machine)
		csv := filepath.Join(dir, name+".csv")
		f, err := os.Create(csv)
		if err != nil {
			return paths, err
		}
		s.cs.ToCsvBootstrapped(f, benchseries.CSV_LOHI|benchseries.CSV_CHANGE_HEU, h.Options.MinChange)
		if err := f.Close(); err != nil {
			return paths, err
		}
		paths = append(paths, csv)
		png, err := chart(s, dir, name, h.Options.MinChange)
		if err != nil {
			return paths, err
		}
		paths = append(paths, png)
	}
	return paths, nil
}

// chart draws s with benchseries.Chart (one box of the benchmarks' ratios
// per commit, the largest changes marked), which names its file after the
// series' unit and panics where it cannot write.
func chart(s *Series, dir, name string, threshold float64) (path string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("chart %s: %v", name, r)
		}
	}()
	unit := s.cs.Unit
	s.cs.Unit = name
	defer func() { s.cs.Unit = unit }()
	benchseries.Chart([]*benchseries.ComparisonSeries{s.cs}, dir, "", "", false, threshold, true)
	path = filepath.Join(dir, name+".png")
	if _, err := os.Stat(path); err != nil {
		return "", errors.New("benchseries drew no chart")
	}
	return path, nil
}

// shortest returns the commits' hashes cut to the shortest length, at
// least 7, at which they are all different.
func shortest(commits []Commit) func(Commit) string {
	n := 7
	for ; ; n++ {
		seen := map[string]bool{}
		unique := true
		for _, c := range commits {
			k := c.Hash[:min(n, len(c.Hash))]
			unique = unique && !seen[k]
			seen[k] = true
		}
		if unique || n >= 64 {
			break
		}
	}
	return func(c Commit) string { return c.Hash[:min(n, len(c.Hash))] }
}

// machineOf names the machine a result was measured on: its file's cpu
// and gpu lines.
func machineOf(r *benchfmt.Result) string {
	m := r.GetConfig("cpu")
	if g := r.GetConfig("gpu"); g != "" {
		m += ", " + g
	}
	if m == "" {
		return "an unnamed machine"
	}
	return m
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func fileName(s string) string {
	return strings.Trim(unsafeName.ReplaceAllString(s, "-"), "-")
}
