package main

// ab.go: `bfsbench ab BASE_REV [NEW_REV] CONFIG`, two revisions measured
// side by side on this machine (package ab), then compared.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bfsbench/bfsbench/harness/ab"
	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/report"
)

const abUsage = `usage: bfsbench ab BASE_REV [NEW_REV] CONFIG.toml [flags]
       bfsbench ab BASE_REV [NEW_REV] CONFIG.toml --build-only DIR
       bfsbench ab --builds DIR CONFIG.toml [flags]

Builds the plugins of two git revisions (NEW_REV omitted: the working tree,
uncommitted changes included) each in a temporary git worktree, runs CONFIG
with both on the same edge lists and search keys, interleaved search by
search (both plugins constructed, the keys in the order base, new, new,
base, ...), every search validated, and compares them: the
Mann-Whitney U test over per-search TEPS and a bootstrap interval of the
ratio. Writes results.json (both sides, variants named NAME@base and
NAME@new), compare.txt and the usual reports into --out.

For a machine that cannot build (a GPU machine without Go): --build-only
DIR builds both sides here into DIR/base and DIR/new (the plugins, the
CUDA libraries with this machine's nvcc, and build.json naming the
revision) and stops; carry DIR there and measure with --builds DIR.

With --sequential each round runs one side's plugin alone through every
search key, then the other's (the round's first side alternating),
instead of interleaving them: neither plugin is told that it shares the
device, so one that keeps its device between searches (diropt's gated
start) measures as in bfsbench run. A drift of the machine within a
round then falls on one side: give it more rounds.

Exit status: 0 no significant slow-down beyond the threshold; 1 a
significant slow-down beyond it, or a case of NEW_REV that failed or was
invalid; 2 a setup error (bad usage, a revision that does not build, no
comparable cases); 130 interrupted.

Flags:
`

// cudaLibDirEnv is harness/cuda.LibDirEnv, the folder a plugin loads its
// CUDA library from first (not imported: the harness itself loads no CUDA).
const cudaLibDirEnv = "BFSBENCH_LIB_DIR"

func cmdAB(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ab", flag.ContinueOnError)
	th := fs.String("threshold", "5%", "slow-down of harmonic-mean TEPS that fails when significant, e.g. 5% or 0.05")
	alpha := fs.Float64("alpha", report.DefaultAlpha, "significance level of the U test (the interval's level is 1 - alpha)")
	minSearches := fs.Int("min-searches", 16, "fewest valid searches each side of a case needs for a verdict")
	rounds := fs.Int("rounds", 8, "runs of each case, each with fresh plugin processes on both sides, the first side alternating")
	sequential := fs.Bool("sequential", false, "run a round's sides one after the other, each plugin alone on the machine, instead of interleaved search by search")
	out := fs.String("out", "", "results folder (must not exist; default results/ab-<config>-<time>)")
	repo := fs.String("repo", ".", "a directory in the git repository holding the revisions")
	keep := fs.Bool("keep-builds", false, "keep the built plugins (their folder is printed)")
	buildOnly := fs.String("build-only", "", "build both sides into this folder (base/ and new/) and stop: measure them elsewhere with --builds")
	builds := fs.String("builds", "", "measure the two sides that --build-only built into this folder, instead of building revisions")
	pos, err := parseFlags(fs, args)
	if _, ok := asHelp(err); ok {
		return err
	}
	if err != nil {
		return usageErr("%v\n%s%s", err, abUsage, flagHelp(fs))
	}
	var baseRev, newRev, cfgPath string
	switch {
	case *builds != "" && *buildOnly != "":
		return usageErr("ab: --builds measures saved builds and --build-only makes them: give one\n%s", abUsage)
	case *builds != "" && len(pos) == 1:
		cfgPath = pos[0]
	case *builds != "":
		return usageErr("ab --builds DIR needs CONFIG alone (the revisions are the saved builds'), got %d arguments\n%s%s", len(pos), abUsage, flagHelp(fs))
	case len(pos) == 2:
		baseRev, cfgPath = pos[0], pos[1]
	case len(pos) == 3:
		baseRev, newRev, cfgPath = pos[0], pos[1], pos[2]
	default:
		return usageErr("ab needs BASE_REV [NEW_REV] CONFIG, got %d arguments\n%s%s", len(pos), abUsage, flagHelp(fs))
	}
	threshold, err := parseThreshold(*th)
	if err != nil || threshold >= 1 {
		return usageErr("ab: --threshold wants a slow-down below 100%% like 5%% or 0.05, got %q", *th)
	}
	switch {
	case math.IsNaN(*alpha) || *alpha <= 0 || *alpha >= 1:
		return usageErr("ab: --alpha wants a level in (0, 1), got %v", *alpha)
	case *rounds < 1:
		return usageErr("ab: --rounds wants at least 1, got %d", *rounds)
	case *minSearches < 0:
		return usageErr("ab: --min-searches wants a count, got %d", *minSearches)
	}
	var cfg *config.Config
	if err := await(ctx, func() (err error) { cfg, err = config.Load(cfgPath); return err }); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while reading %s: %w", cfgPath, err)
		}
		return &exitError{2, err}
	}
	cfg.Path = recordedPath(cfg.Path) // the results' config_path
	for _, w := range cfg.Workloads {
		if n := w.NBFS * *rounds; n < *minSearches {
			return usageErr("ab: %s gives %d searches a side per case (nbfs %d × %d rounds), fewer than --min-searches %d: raise --rounds or nbfs",
				w.Spec, n, w.NBFS, *rounds, *minSearches)
		}
	}
	if *buildOnly != "" {
		if _, err := os.Stat(*buildOnly); err == nil {
			return usageErr("ab: build folder %s exists (an existing folder is never overwritten)", *buildOnly)
		}
	} else {
		if *out == "" {
			name := strings.TrimSuffix(filepath.Base(cfgPath), filepath.Ext(cfgPath))
			*out = filepath.Join("results", "ab-"+name+"-"+time.Now().Format("20060102-150405"))
			if err := os.MkdirAll("results", 0o755); err != nil {
				return &exitError{2, err}
			}
		}
		if _, err := os.Stat(*out); err == nil {
			return usageErr("ab: results folder %s exists (an existing folder is never overwritten)", *out)
		}
	}
	// Each side's plugins must load their own CUDA libraries (beside them);
	// a library folder named in the environment would serve both.
	if d := os.Getenv(cudaLibDirEnv); d != "" {
		fmt.Fprintf(stderr, "ab: ignoring %s=%s: each revision loads the CUDA libraries built from it\n", cudaLibDirEnv, d)
		os.Unsetenv(cudaLibDirEnv)
		defer os.Setenv(cudaLibDirEnv, d)
	}

	var sides [2]*ab.Build
	if *builds != "" {
		for i, label := range []string{ab.BaseLabel, ab.NewLabel} {
			if sides[i], err = ab.LoadBuild(filepath.Join(*builds, label), label); err != nil {
				return &exitError{2, err}
			}
		}
	} else {
		dir := *buildOnly
		if dir == "" {
			if dir, err = os.MkdirTemp("", "bfsbench-ab-"); err != nil {
				return &exitError{2, err}
			}
			if *keep {
				fmt.Fprintf(stderr, "ab: builds kept in %s\n", dir)
			} else {
				defer os.RemoveAll(dir)
			}
		}
		if sides, err = buildSides(ctx, cfg, *repo, dir, baseRev, newRev, stderr); err != nil {
			return err
		}
		if *buildOnly != "" {
			for _, b := range sides {
				if err := b.Save(); err != nil {
					return &exitError{2, err}
				}
			}
			fmt.Fprintf(stdout, "built %s (base: %s; new: %s)\nmeasure them where the plugins run: bfsbench ab --builds %s %s\n",
				dir, sides[0].Describe(), sides[1].Describe(), dir, cfgPath)
			return nil
		}
	}

	opts := report.CompareOptions{Threshold: threshold, Alpha: *alpha, MinSearches: *minSearches}
	res, err := ab.Run(ctx, ab.Options{
		Config: cfg, Base: sides[0], New: sides[1], Rounds: *rounds, Sequential: *sequential,
		OutDir: *out, CommandLine: commandLine(), Log: stderr,
	})
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return &exitError{2, err}
	}
	var text bytes.Buffer
	w := io.MultiWriter(stdout, &text)
	fmt.Fprintf(w, "A/B of %s on %s\n", cfgPath, res.Run.Env.Describe())
	fmt.Fprintf(w, "base: %s\nnew:  %s\n", sides[0].Describe(), sides[1].Describe())
	order := "interleaved search by search (ABBA)"
	if *sequential {
		order = "sequential (one side's searches, then the other's)"
	}
	fmt.Fprintf(w, "%d case(s), %s: %d rounds, %s searches a side per case, every search validated\n",
		len(res.Pairs), order, *rounds, searchCounts(cfg, *rounds))
	fmt.Fprintf(w, "results: %s\n", filepath.Join(*out, "results.json"))
	cres, cerr := report.ComparePairs(w, res.Pairs, opts)
	if err := os.WriteFile(filepath.Join(*out, "compare.txt"), text.Bytes(), 0o644); err != nil && cerr == nil {
		cerr = err
	}
	switch {
	case cerr != nil:
		return &exitError{2, cerr}
	case cres.Failed > 0:
		return &exitError{1, fmt.Errorf("regression: %d case(s) of %s slower than %s beyond %s, failed or invalid", cres.Failed, sides[1].Describe(), sides[0].Describe(), *th)}
	}
	return nil
}

// buildSides builds the plugins (and the CUDA libraries) that cfg runs, of
// baseRev and newRev ("" the working tree), into dir/base and dir/new.
func buildSides(ctx context.Context, cfg *config.Config, repo, dir, baseRev, newRev string, stderr io.Writer) ([2]*ab.Build, error) {
	var plugins, cudaPlugins []string
	for _, v := range cfg.Variants {
		if !slices.Contains(plugins, v.Plugin) {
			plugins = append(plugins, v.Plugin)
		}
		if v.Backend == "cuda" && !slices.Contains(cudaPlugins, v.Plugin) {
			cudaPlugins = append(cudaPlugins, v.Plugin)
		}
	}
	var sides [2]*ab.Build
	for i, side := range []struct{ label, rev string }{{ab.BaseLabel, baseRev}, {ab.NewLabel, newRev}} {
		what := side.rev
		if what == "" {
			what = "the working tree"
		}
		fmt.Fprintf(stderr, "ab: building %s: %s\n", side.label, what)
		var log bytes.Buffer
		b, err := ab.BuildRevision(ctx, side.label, side.rev, ab.BuildOptions{
			Repo: repo, Dir: filepath.Join(dir, side.label), Plugins: plugins, CUDA: cudaPlugins, Log: &log,
		})
		if err != nil {
			if ctx.Err() != nil {
				return sides, err
			}
			return sides, &exitError{2, err}
		}
		sides[i] = b
	}
	return sides, nil
}

// searchCounts is the number of searches a side per case: "64", or
// "16-64" when the workloads differ in nbfs.
func searchCounts(cfg *config.Config, rounds int) string {
	lo, hi := math.MaxInt, 0
	for _, w := range cfg.Workloads {
		lo, hi = min(lo, w.NBFS*rounds), max(hi, w.NBFS*rounds)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// flagHelp lists a flag set's flags.
func flagHelp(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	return b.String()
}
