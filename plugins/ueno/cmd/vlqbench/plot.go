// This file is vlqbench's -plot mode: it reads a CSV that vlqbench wrote
// earlier and draws Figure 5 of [Ueno], encode and
// decode throughput in million values per second against the value range
// N, both on log scales, for the CPU and, where measured, the GPU codec,
// as figure-ueno-fig5.svg and .png (harness/report's LineChart).

package main

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bfsbench/bfsbench/harness/report"
)

const (
	fig5Name  = "figure-ueno-fig5"
	fig5Title = "Ueno and Suzumura Fig. 5: SIMD VLQ throughput vs value range (16 Mi uniform values)"
)

// fig5Series are the plotted columns, in legend order. A CPU cell must hold
// a number; a GPU cell may be empty (no GPU was found), and a GPU series
// with no number at all is left out.
var fig5Series = []struct {
	col, name string
	optional  bool
}{
	{"cpu_encode_mvals", "CPU encode", false},
	{"cpu_decode_mvals", "CPU decode", false},
	{"gpu_encode_mvals", "GPU encode", true},
	{"gpu_decode_mvals", "GPU decode", true},
}

// plotFig5 reads the vlqbench CSV at csvPath and writes the figure as
// figure-ueno-fig5.svg and .png in outDir (csvPath's directory when outDir
// is empty). It returns the paths written.
func plotFig5(csvPath, outDir string) ([]string, error) {
	ns, series, err := readFig5CSV(csvPath)
	if err != nil {
		return nil, err
	}
	if outDir == "" {
		outDir = filepath.Dir(csvPath)
	}
	chart := report.LineChart{
		Name:    fig5Name,
		Title:   fig5Title,
		XLabel:  "value range N (values uniform in [0, N])",
		YLabel:  "million values per second",
		LogX:    true,
		LogY:    true,
		XLabels: pow2Labels(ns),
		Series:  series,
	}
	paths, err := chart.Save(outDir)
	if err != nil {
		return paths, fmt.Errorf("%s: %w", csvPath, err)
	}
	return paths, nil
}

// readFig5CSV returns the N column and one series per entry of fig5Series
// (without points for an optional series with no value). Values must be
// positive, as both axes are logarithmic.
func readFig5CSV(path string) (ns []float64, series []report.LineSeries, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("%s: empty file, want a vlqbench CSV", path)
	} else if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	col := func(name string) (int, error) {
		if i := slices.Index(header, name); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("%s: header has no column %q (is it a vlqbench CSV?)", path, name)
	}
	nCol, err := col("N")
	if err != nil {
		return nil, nil, err
	}
	cols := make([]int, len(fig5Series))
	series = make([]report.LineSeries, len(fig5Series))
	for k, s := range fig5Series {
		if cols[k], err = col(s.col); err != nil {
			return nil, nil, err
		}
		series[k].Name = s.name
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil { // a csv.ParseError names the line
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		// number parses the cell of column name, which must be positive.
		number := func(cell, name string) (float64, error) {
			v, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
			switch {
			case err != nil:
				return 0, fmt.Errorf("%s:%d: column %s: %q is not a number", path, line, name, cell)
			case !(v > 0) || math.IsInf(v, 0):
				return 0, fmt.Errorf("%s:%d: column %s: %q must be positive (log scale)", path, line, name, cell)
			}
			return v, nil
		}
		n, err := number(rec[nCol], "N")
		if err != nil {
			return nil, nil, err
		}
		ns = append(ns, n)
		for k, s := range fig5Series {
			cell := rec[cols[k]]
			if s.optional && strings.TrimSpace(cell) == "" {
				continue
			}
			v, err := number(cell, s.col)
			if err != nil {
				return nil, nil, err
			}
			series[k].Points = append(series[k].Points, report.Point{X: n, Y: v})
		}
	}
	if len(ns) == 0 {
		return nil, nil, fmt.Errorf("%s: no data rows after the header", path)
	}
	for _, s := range series {
		slices.SortFunc(s.Points, func(a, b report.Point) int { return cmp.Compare(a.X, b.X) })
	}
	return ns, series, nil
}

// pow2Labels labels each N as 2^k where it is a power of two (or one less:
// the largest N is 2^32-1), else as the number.
func pow2Labels(ns []float64) map[float64]string {
	labels := map[float64]string{}
	for _, n := range ns {
		label := strconv.FormatFloat(n, 'g', 6, 64)
		k := math.Round(math.Log2(n))
		if p := math.Pow(2, k); math.Abs(n-p) <= 1e-6*p {
			label = fmt.Sprintf("2^%d", int(k))
		}
		labels[n] = label
	}
	return labels
}
