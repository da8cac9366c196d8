// The commands that keep the papers' figure folders (results/figures)
// honest:
//
//	bfsbench verdicts [--check] [DIR...]   write each folder's verdict table into its README
//	bfsbench stale [--strict] [--headline FILE] [DIR...]   list the folders (and headline rows) whose results predate a change to their plugins
//	bfsbench degrees --scale S [--edgefactor E] [--seed A,B] --out DIR   a Kronecker graph's degree distribution
//	bfsbench summary RESULTS.json [--out FILE]   the summary.txt run writes, from results

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/report"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/runner"
)

// defaultFigures is where the figure folders are, from the repository root.
const defaultFigures = "results/figures"

// figureFolders expands args (figure folders, or folders holding them;
// default results/figures) into figure folders: those with a claims.toml
// or a results file, in name order.
func figureFolders(args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{defaultFigures}
	}
	isFolder := func(d string) bool {
		for _, f := range []string{report.ClaimsFile, "results.json", "results.json.gz"} {
			if _, err := os.Stat(filepath.Join(d, f)); err == nil {
				return true
			}
		}
		return false
	}
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s is not a folder", a)
		}
		if isFolder(a) {
			out = append(out, a)
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if d := filepath.Join(a, e.Name()); e.IsDir() && isFolder(d) {
				out = append(out, d)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// cmdVerdicts writes (or with --check, checks) the verdict table of each
// figure folder with a claims.toml into its README.md.
func cmdVerdicts(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("verdicts", flag.ContinueOnError)
	check := fs.Bool("check", false, "change nothing: exit 1 if a README's table is not the one the results give, or a verdict differs from the one its reason was written for")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	dirs, err := figureFolders(pos)
	if err != nil {
		return usageErr("verdicts: %v", err)
	}
	var problems []string
	counts := map[string]int{}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, report.ClaimsFile)); err != nil {
			problems = append(problems, d+": no "+report.ClaimsFile)
			continue
		}
		vs, err := report.Verdicts(d)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, v := range vs {
			counts[v.Got]++
			if v.Mismatch() {
				problems = append(problems, fmt.Sprintf("%s: %q: the numbers (%s) give %s; its reason was written for %s", d, v.Claim.Claim, v.OursTxt, v.Got, v.Verdict))
			}
		}
		readme := filepath.Join(d, "README.md")
		old, err := os.ReadFile(readme)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		updated, changed, err := report.UpdateReadme(old, report.VerdictTable(vs))
		if err != nil {
			problems = append(problems, readme+": "+err.Error())
			continue
		}
		switch {
		case changed && *check:
			problems = append(problems, readme+": the verdict table is not the one the results give (run bfsbench verdicts "+d+")")
		case changed:
			if err := os.WriteFile(readme, updated, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s: verdict table written\n", readme)
		}
	}
	pending := ""
	if n := counts[report.Pending]; n > 0 {
		pending = fmt.Sprintf(", %d not measured yet", n)
	}
	fmt.Fprintf(stdout, "verdicts: %d folders, %d claims hold, %d partly, %d differ%s\n", len(dirs), counts[report.Holds], counts[report.Partly], counts[report.Differs], pending)
	if len(problems) > 0 {
		return errors.New("verdicts:\n  " + strings.Join(problems, "\n  "))
	}
	return nil
}

// staleness is what stale found for one folder.
type staleness struct {
	dir     string
	commits []string          // the commits its results record
	dirty   bool              // one of them is -dirty
	unknown []string          // commits not in this repository's history
	changed map[string]string // plugin → its commits since, newest first ("abc1234 2026-01-02, …")
	note    string            // why nothing was compared
}

// cmdStale lists the figure folders whose results were measured before a
// change to a plugin they use: the commit each results file records
// against plugins/<plugin> at HEAD, its tests (*_test.go) and documents
// (*.md) left out, and, for a plugin a case ran on the CUDA backend, the
// shared device code (cudaShared) its library is compiled from. A plugin whose files are as they were at that commit
// (changed and then reverted), or differ from them only in comments and
// white space (sameCode), is not a change: the figure measured the code
// that is there now. A changed one is listed with git log's count of
// the commits since.
//
// With --headline (by default results/headline.toml when no folder is
// named), it also compares each row of that headline manifest: the row's
// results file, for the plugin of the row's variant only, so that a
// headline figure drawn from code since changed is listed too.
func cmdStale(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("stale", flag.ContinueOnError)
	strict := fs.Bool("strict", false, "exit 1 when a folder or headline row is stale or its commit is unknown (without it, the list is for reading: exit 0)")
	headline := fs.String("headline", "", "also the rows of this headline manifest (results/headline.toml): each row's results file, for its variant's plugin (default: "+defaultHeadline+" when no folder is named and it exists)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	dirs, err := figureFolders(pos)
	if err != nil {
		return usageErr("stale: %v", err)
	}
	if *headline == "" && len(pos) == 0 {
		if _, err := os.Stat(defaultHeadline); err == nil {
			*headline = defaultHeadline
		}
	}
	var rows []staleness
	for _, d := range dirs {
		rows = append(rows, folderStaleness(d))
	}
	fmt.Fprintln(stdout, "figure folders whose results predate a change to their plugins (bfsbench stale):")
	nStale, nUnknown := printStaleness(stdout, rows, "")
	if len(dirs) > 0 {
		if sh, err := gitOut(dirs[0], "rev-parse", "--is-shallow-repository"); err == nil && sh == "true" {
			fmt.Fprintln(stdout, "(a shallow clone: commits older than its history read as unknown; fetch the history to compare them)")
		}
	}
	if *headline != "" {
		hrows, err := headlineStaleness(*headline)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "headline rows (%s) whose results predate a change to their plugin:\n", *headline)
		s, u := printStaleness(stdout, hrows, "headline rows: ")
		nStale, nUnknown = nStale+s, nUnknown+u
	}
	if *strict && nStale+nUnknown > 0 {
		return &exitError{1, fmt.Errorf("stale: %d stale, %d of unknown commit", nStale, nUnknown)}
	}
	return nil
}

// defaultHeadline is the headline manifest stale reads by default, from
// the repository root.
const defaultHeadline = "results/" + report.HeadlineFile

// headlineStaleness compares the results file of each row of the headline
// manifest at path with git's history, for the plugin of the row's variant
// alone (a file may hold other variants' cases).
func headlineStaleness(path string) ([]staleness, error) {
	rows, err := report.LoadHeadline(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	root, err := gitOut(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("stale: %s is not in a git checkout: %w", path, err)
	}
	var out []staleness
	for _, r := range rows {
		s := staleness{dir: r.File + " (" + r.Variant + ")", changed: map[string]string{}}
		s.addFile(root, filepath.Join(dir, r.File), r.Variant)
		out = append(out, s)
	}
	return out, nil
}

// printStaleness lists rows (each stale or unknown one, and each with a
// note) and a count line headed by prefix, and returns how many were stale
// and of unknown commit.
func printStaleness(w io.Writer, rows []staleness, prefix string) (nStale, nUnknown int) {
	nDirty, nFresh := 0, 0
	for _, r := range rows {
		switch {
		case r.note != "":
			fmt.Fprintf(w, "  -        %s: %s\n", r.dir, r.note)
			continue
		case len(r.unknown) > 0:
			nUnknown++
			fmt.Fprintf(w, "  UNKNOWN  %s: commit %s is not in this repository's history\n", r.dir, strings.Join(r.unknown, ", "))
		case len(r.changed) > 0:
			nStale++
			var ps []string
			for _, p := range slices.Sorted(maps.Keys(r.changed)) {
				ps = append(ps, p+" ("+r.changed[p]+")")
			}
			fmt.Fprintf(w, "  STALE    %s: measured at %s; changed since: %s\n", r.dir, strings.Join(r.commits, ", "), strings.Join(ps, "; "))
		default:
			nFresh++
		}
		if r.dirty {
			nDirty++
		}
	}
	fmt.Fprintf(w, "%s%d stale, %d of unknown commit, %d current; %d from a -dirty tree (not reproducible from a commit)\n", prefix, nStale, nUnknown, nFresh, nDirty)
	return nStale, nUnknown
}

// cudaShared are the folders of the device code every plugin's CUDA
// library is compiled from (the headers it includes, bfsb_gather.cuh,
// bfsb_scan.cuh, ..., and the sources mk/cuda.mk links into each): a
// change there changes what a CUDA case measured as much as a change
// under plugins/<plugin>.
var cudaShared = []string{"harness/cuda/include", "harness/cuda/src"}

// folderStaleness compares one folder's results with git's history.
func folderStaleness(dir string) staleness {
	s := staleness{dir: dir, changed: map[string]string{}}
	paths, err := report.FolderResults(dir)
	if err != nil {
		s.note = err.Error()
		return s
	}
	if len(paths) == 0 {
		s.note = "no results file (nothing a plugin measured)"
		return s
	}
	root, err := gitOut(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		s.note = "not in a git checkout: " + err.Error()
		return s
	}
	for _, p := range paths {
		if !s.addFile(root, p, "") {
			return s
		}
	}
	return s
}

// addFile adds the results file at path to s: the commit it records and,
// for the plugins of its cases (of variant only, unless variant is ""),
// their changes since. It returns false when it could not compare (s.note
// says why).
func (s *staleness) addFile(root, path, variant string) bool {
	run, err := results.Load(path)
	if err != nil {
		s.note = err.Error()
		return false
	}
	commit := run.GitCommit
	if commit == "" {
		s.unknown = append(s.unknown, "(none recorded in "+filepath.Base(path)+")")
		return true
	}
	base := strings.TrimSuffix(commit, "-dirty")
	s.dirty = s.dirty || base != commit
	s.commits = append(s.commits, shortCommit(commit))
	if _, err := gitOut(root, "cat-file", "-e", base+"^{commit}"); err != nil {
		s.unknown = append(s.unknown, shortCommit(commit))
		return true
	}
	plugins := map[string]bool{} // plugin → a case ran it on the CUDA backend
	for _, c := range run.Cases {
		if c != nil && c.Plugin != "" && (variant == "" || c.Variant == variant) {
			plugins[c.Plugin] = plugins[c.Plugin] || c.Backend == "cuda"
		}
	}
	for _, pl := range slices.Sorted(maps.Keys(plugins)) {
		// A change to the plugin's tests or documents alone changes
		// nothing a figure measured.
		spec := []string{"--", "plugins/" + pl, ":(exclude,glob)plugins/" + pl + "/**/*_test.go",
			":(exclude,glob)plugins/" + pl + "/**/*.md"}
		if plugins[pl] {
			spec = append(spec, cudaShared...)
		}
		diff, err := gitOut(root, append([]string{"diff", "--name-only", base, "HEAD"}, spec...)...)
		if err != nil {
			s.note = err.Error()
			return false
		}
		if diff == "" {
			continue
		}
		if same, err := commentsOnly(root, base, strings.Split(diff, "\n")); err != nil {
			s.note = err.Error()
			return false
		} else if same {
			continue
		}
		log, err := gitOut(root, append([]string{"log", "--format=%h %cs", base + "..HEAD"}, spec...)...)
		if err != nil {
			s.note = err.Error()
			return false
		}
		if lines := strings.Fields(strings.ReplaceAll(log, "\n", " ")); len(lines) > 0 {
			n := len(strings.Split(strings.TrimSpace(log), "\n"))
			first := strings.SplitN(strings.TrimSpace(log), "\n", 2)[0]
			s.changed[pl] = fmt.Sprintf("%d commits, the latest %s", n, first)
		}
	}
	return true
}

// commentsOnly reports whether each of the files, changed between commit
// base and HEAD, differs only in comments and white space (sameCode).
func commentsOnly(root, base string, files []string) (bool, error) {
	for _, f := range files {
		if f == "" {
			continue
		}
		a, errA := gitOut(root, "show", base+":"+f)
		b, errB := gitOut(root, "show", "HEAD:"+f)
		if errA != nil || errB != nil { // added or removed since
			return false, nil
		}
		if !sameCode(f, []byte(a), []byte(b)) {
			return false, nil
		}
	}
	return true, nil
}

func shortCommit(c string) string {
	base, dirty := strings.CutSuffix(c, "-dirty")
	if len(base) > 7 {
		base = base[:7]
	}
	if dirty {
		base += "-dirty"
	}
	return base
}

// gitOut runs git in dir and returns its trimmed output.
func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// cmdDegrees writes the degree distribution of a Graph500 Kronecker graph
// (Ueno and Suzumura's Fig. 1: 4,096 vertices, its vertices sorted by
// degree): DIR/degrees.csv and DIR/figure-<name>.png and .svg.
func cmdDegrees(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("degrees", flag.ContinueOnError)
	k := addKronecker(fs)
	out := fs.String("out", "", "output folder")
	name := fs.String("name", "degrees", "the figure's name: figure-NAME.png")
	title := fs.String("title", "", "the figure's title (default: what it shows)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *out == "" {
		return usageErr("degrees: give --scale and --out DIR (got extra arguments %v)", pos)
	}
	spec, err := k.spec()
	if err != nil {
		return err
	}
	if err := runner.CheckGenerate(spec.Scale, spec.EdgeFactor); err != nil {
		return &exitError{2, fmt.Errorf("degrees: %w", err)}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	edges := graph500.Generate(spec.Scale, spec.EdgeFactor, spec.Seed)
	d := report.DegreesOf(edges, graph500.NVertices(spec.Scale))
	csvPath := filepath.Join(*out, "degrees.csv")
	if err := os.WriteFile(csvPath, d.CSV(), 0o644); err != nil {
		return err
	}
	t := *title
	if t == "" {
		t = fmt.Sprintf("Degree distribution of a Kronecker graph of scale %d, edge factor %d", spec.Scale, spec.EdgeFactor)
	}
	caption := fmt.Sprintf("Graph500 generator, scale %d, edge factor %d, seeds %d,%d; self-loops left out; %d of %d vertices have no edge (not on the log axis)",
		spec.Scale, spec.EdgeFactor, spec.Seed[0], spec.Seed[1], d.Isolated(), len(d.Degree))
	paths, err := d.Figure(*out, "figure-"+*name, t, caption)
	if err != nil {
		return err
	}
	for _, p := range append([]string{csvPath}, paths...) {
		fmt.Fprintln(stdout, p)
	}
	return nil
}

// cmdSummary writes the summary.txt bfsbench run writes beside
// results.json (the Graph500 statistics of every case), from a results
// file, for a folder that lacks it.
func cmdSummary(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("summary", flag.ContinueOnError)
	out := fs.String("out", "", "write to FILE instead of standard output")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("summary: give one results.json")
	}
	run, err := results.Load(pos[0])
	if err != nil {
		return &exitError{2, err}
	}
	b, err := report.Summary(run)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = stdout.Write(b)
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}
