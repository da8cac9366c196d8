// The copybw command: host↔GPU copy throughput against the transfer size,
// host to device and device to host, from pinned and from pageable host
// memory ([Mitsuishi] Fig. 5). Each point is reps timed copies (after one
// untimed) by cuda.CopyBench: cudaMemcpy between two CUDA events; the
// median time gives the throughput, the quartiles its spread. It writes
// DIR/copybw.csv and the figure DIR/figure-<name>.png and .svg; --plot
// redraws the figure from such a CSV without a GPU.
//
//	bfsbench copybw --out DIR [--device D] [--reps R] [--min BYTES] [--max BYTES] [--name N] [--title T]
//	bfsbench copybw --plot DIR/copybw.csv [--out DIR] [--name N] [--title T]

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/report"
	"github.com/bfsbench/bfsbench/harness/runner"
)

// copyTimer times one copy of bytes (cuda.CopyBench).
type copyTimer interface {
	Time(toDevice, pinned bool, bytes int) (float64, error)
	Close() error
}

// openCopyTimer opens device dev's copy bench for copies up to maxBytes
// over the CUDA runtime, failing with what is missing where there is no
// runtime or no GPU; the tests replace it.
var openCopyTimer = func(dev, maxBytes int) (copyTimer, error) {
	rt, err := cuda.LoadRuntime()
	if err != nil {
		return nil, fmt.Errorf("no CUDA runtime on this machine (copybw measures a GPU; run it where one is): %w", err)
	}
	n, err := rt.DeviceCount()
	if err != nil {
		return nil, fmt.Errorf("no usable GPU on this machine (copybw measures one): %w", err)
	}
	if n < 1 {
		return nil, errors.New("no GPU on this machine: the CUDA runtime found no device (copybw measures one)")
	}
	b, err := rt.NewCopyBench(dev, maxBytes)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// copySeries are the four curves, in legend order: CSV column prefix and
// legend entry.
var copySeries = []struct {
	toDevice, pinned bool
	key, name        string
}{
	{true, true, "h2d_pinned", "host to device, pinned"},
	{true, false, "h2d_pageable", "host to device, pageable"},
	{false, true, "d2h_pinned", "device to host, pinned"},
	{false, false, "d2h_pageable", "device to host, pageable"},
}

// copyPoint is one series' throughput at one size: the median's and the
// quartiles' (GB/s, 10^9 bytes a second).
type copyPoint struct{ GBs, Q1, Q3 float64 }

// copyRow is one transfer size.
type copyRow struct {
	Bytes  int
	Series map[string]copyPoint // by copySeries key
}

// copySizes are the powers of two from lo to hi.
func copySizes(lo, hi int) ([]int, error) {
	if lo < 1 || hi < lo || bits.OnesCount(uint(lo)) != 1 || bits.OnesCount(uint(hi)) != 1 {
		return nil, fmt.Errorf("sizes from %d to %d: want powers of two, the first at most the last", lo, hi)
	}
	var out []int
	for n := lo; n <= hi; n *= 2 {
		out = append(out, n)
	}
	return out, nil
}

// measureCopies times each series at each size: one untimed copy, then
// reps timed ones; the median time gives GBs, its quartiles the spread
// (the slower quartile the lower throughput). Sizes are the outer loop,
// so that a drift of the machine touches every series alike.
func measureCopies(ctx context.Context, t copyTimer, sizes []int, reps int) ([]copyRow, error) {
	var rows []copyRow
	for _, n := range sizes {
		r := copyRow{Bytes: n, Series: map[string]copyPoint{}}
		for _, s := range copySeries {
			if err := ctx.Err(); err != nil {
				return rows, err
			}
			if _, err := t.Time(s.toDevice, s.pinned, n); err != nil {
				return rows, fmt.Errorf("%s, %d bytes: %w", s.name, n, err)
			}
			ts := make([]float64, reps)
			for i := range ts {
				var err error
				if ts[i], err = t.Time(s.toDevice, s.pinned, n); err != nil {
					return rows, fmt.Errorf("%s, %d bytes: %w", s.name, n, err)
				}
				if !(ts[i] > 0) {
					return rows, fmt.Errorf("%s, %d bytes: a copy timed %g s", s.name, n, ts[i])
				}
			}
			slices.Sort(ts)
			gb := float64(n) / 1e9
			r.Series[s.key] = copyPoint{GBs: gb / quantile(ts, 0.5), Q1: gb / quantile(ts, 0.75), Q3: gb / quantile(ts, 0.25)}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// quantile of sorted s at p, interpolating between order statistics.
func quantile(s []float64, p float64) float64 {
	h := p * float64(len(s)-1)
	i := int(math.Floor(h))
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}

// copyCSVHeader is the CSV's column row.
func copyCSVHeader() []string {
	h := []string{"bytes"}
	for _, s := range copySeries {
		h = append(h, s.key+"_gbs", s.key+"_gbs_q1", s.key+"_gbs_q3")
	}
	return h
}

// writeCopyCSV writes the rows under comment lines ("# key: value"), the
// caption among them.
func writeCopyCSV(w io.Writer, comments [][2]string, rows []copyRow) error {
	bw := bufio.NewWriter(w)
	for _, c := range comments {
		fmt.Fprintf(bw, "# %s: %s\n", c[0], strings.ReplaceAll(c[1], "\n", " "))
	}
	cw := csv.NewWriter(bw)
	cw.Write(copyCSVHeader())
	for _, r := range rows {
		rec := []string{strconv.Itoa(r.Bytes)}
		for _, s := range copySeries {
			p := r.Series[s.key]
			rec = append(rec, fmt.Sprintf("%.4g", p.GBs), fmt.Sprintf("%.4g", p.Q1), fmt.Sprintf("%.4g", p.Q3))
		}
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// readCopyCSV reads a CSV writeCopyCSV wrote: its rows and its caption.
func readCopyCSV(path string) ([]copyRow, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	caption := ""
	var body bytes.Buffer
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if c, ok := strings.CutPrefix(line, "#"); ok {
			if v, ok := strings.CutPrefix(strings.TrimSpace(c), "caption:"); ok {
				caption = strings.TrimSpace(v)
			}
			continue
		}
		body.WriteString(line)
	}
	recs, err := csv.NewReader(&body).ReadAll()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) < 2 {
		return nil, "", fmt.Errorf("%s: no rows under the header", path)
	}
	if !slices.Equal(recs[0], copyCSVHeader()) {
		return nil, "", fmt.Errorf("%s: header %q, want copybw's %q", path, recs[0], copyCSVHeader())
	}
	var rows []copyRow
	for i, rec := range recs[1:] {
		n, err := strconv.Atoi(rec[0])
		if err != nil || n < 1 {
			return nil, "", fmt.Errorf("%s: row %d: bytes %q", path, i+1, rec[0])
		}
		r := copyRow{Bytes: n, Series: map[string]copyPoint{}}
		for k, s := range copySeries {
			var v [3]float64
			for j := range v {
				cell := rec[1+3*k+j]
				if v[j], err = strconv.ParseFloat(cell, 64); err != nil || !(v[j] > 0) || math.IsInf(v[j], 0) {
					return nil, "", fmt.Errorf("%s: row %d: %s %q is not a positive number", path, i+1, recs[0][1+3*k+j], cell)
				}
			}
			r.Series[s.key] = copyPoint{GBs: v[0], Q1: v[1], Q3: v[2]}
		}
		rows = append(rows, r)
	}
	return rows, caption, nil
}

// sizeLabel writes a power-of-two size in KiB, MiB or GiB.
func sizeLabel(n int) string {
	for _, u := range []struct {
		shift int
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.Itoa(n>>u.shift) + " " + u.name
		}
	}
	return strconv.Itoa(n) + " B"
}

// copyChart is the figure of rows: GB/s against the size, log x labelled
// at the powers of four, a log y where the values span more than 20×.
func copyChart(name, title, caption string, rows []copyRow) report.LineChart {
	c := report.LineChart{Name: "figure-" + name, Title: title, Caption: caption,
		XLabel: "transfer size (bytes, log scale)", YLabel: "copy throughput (GB/s)", LogX: true, XLabels: map[float64]string{}}
	lo, hi := math.Inf(1), 0.0
	for _, s := range copySeries {
		ls := report.LineSeries{Name: s.name}
		for _, r := range rows {
			p := r.Series[s.key]
			ls.Points = append(ls.Points, report.Point{X: float64(r.Bytes), Y: p.GBs, Lo: p.Q1, Hi: p.Q3})
			lo, hi = math.Min(lo, p.Q1), math.Max(hi, p.Q3)
		}
		c.Series = append(c.Series, ls)
	}
	for _, r := range rows {
		if bits.TrailingZeros(uint(r.Bytes))%2 == 0 {
			c.XLabels[float64(r.Bytes)] = sizeLabel(r.Bytes)
		}
	}
	c.LogY = lo > 0 && hi/lo > 20
	return c
}

func cmdCopyBW(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("copybw", flag.ContinueOnError)
	out := fs.String("out", "", "output folder: copybw.csv and the figure (with --plot: default the CSV's folder)")
	device := fs.Int("device", 0, "CUDA device ordinal")
	reps := fs.Int("reps", 10, "timed copies a point (after one untimed): the median and quartiles")
	minB := fs.Int("min", 4<<10, "smallest transfer size in bytes (a power of two)")
	maxB := fs.Int("max", 1<<30, "largest transfer size in bytes (a power of two)")
	name := fs.String("name", "copybw", "the figure's name: figure-NAME.png")
	title := fs.String("title", "Host–GPU copy throughput against transfer size", "the figure's title")
	plotCSV := fs.String("plot", "", "draw the figure from this copybw `CSV` instead of measuring")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("copybw: unexpected arguments %v", pos)
	}
	if *plotCSV != "" {
		rows, caption, err := readCopyCSV(*plotCSV)
		if err != nil {
			return &exitError{2, fmt.Errorf("copybw: %w", err)}
		}
		dir := *out
		if dir == "" {
			dir = filepath.Dir(*plotCSV)
		}
		return drawCopyChart(stdout, dir, *name, *title, caption, rows)
	}
	if *out == "" {
		return usageErr("copybw: give --out DIR (or --plot CSV)")
	}
	if *reps < 1 {
		return usageErr("copybw: --reps wants a positive number, got %d", *reps)
	}
	sizes, err := copySizes(*minB, *maxB)
	if err != nil {
		return usageErr("copybw: %v", err)
	}
	t, err := openCopyTimer(*device, sizes[len(sizes)-1])
	if err != nil {
		return &exitError{2, fmt.Errorf("copybw: %w", err)}
	}
	rows, err := measureCopies(ctx, t, sizes, *reps)
	err = errors.Join(err, t.Close())
	if err != nil {
		return fmt.Errorf("copybw: %w", err)
	}
	env := runner.DetectEnv()
	dev := fmt.Sprintf("device %d", *device)
	if *device < len(env.GPUModels) {
		dev += " (" + env.GPUModels[*device] + ")"
	}
	caption := fmt.Sprintf("cudaMemcpy on %s, CUDA-event time; median of %d copies a point after one untimed, bars: quartiles", dev, *reps)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	comments := [][2]string{{"copybw", "host-GPU copy throughput (GB/s, 10^9 bytes a second) against the transfer size"},
		{"machine", env.Describe()}, {"host", env.Host}, {"commit", runner.GitCommit()}, {"caption", caption}}
	if err := writeCopyCSV(&b, comments, rows); err != nil {
		return err
	}
	csvPath := filepath.Join(*out, "copybw.csv")
	if err := os.WriteFile(csvPath, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintln(stdout, csvPath)
	return drawCopyChart(stdout, *out, *name, *title, caption, rows)
}

// drawCopyChart draws rows into dir and prints the paths written.
func drawCopyChart(stdout io.Writer, dir, name, title, caption string, rows []copyRow) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	paths, err := copyChart(name, title, caption, rows).Save(dir)
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	if err != nil {
		return fmt.Errorf("copybw: %w", err)
	}
	return nil
}
