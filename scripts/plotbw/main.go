// Command plotbw draws the device communicator's bandwidth table (the TSV
// that harness/comm's TestNCCLBandwidth writes with
// BFSBENCH_BANDWIDTH_OUT) as one PNG and SVG: bus bandwidth against message
// size, one line per operation and path (device: NCCL; host: staged through
// host memory).
//
//	go run ./scripts/plotbw -in nccl-bandwidth.tsv -out DIR
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

func main() {
	in := flag.String("in", "", "the bandwidth TSV (op, path, bytes, time_us, algbw_GBs, busbw_GBs)")
	out := flag.String("out", ".", "folder for nccl-bandwidth.png and .svg")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "plotbw:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	series := map[string]plotter.XYs{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 6 || fs[0] == "op" {
			continue
		}
		bytes, err1 := strconv.ParseFloat(fs[2], 64)
		bus, err2 := strconv.ParseFloat(fs[5], 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("%s:%d: bad numbers", in, line)
		}
		k := fs[0] + " " + fs[1]
		series[k] = append(series[k], plotter.XY{X: bytes, Y: bus})
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(series) == 0 {
		return fmt.Errorf("%s: no rows", in)
	}
	p := plot.New()
	p.Title.Text = "Bus bandwidth between two GPUs: NCCL (device) against host-staged"
	p.X.Label.Text = "message size (bytes)"
	p.Y.Label.Text = "bus bandwidth (GB/s)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{}, plot.LogTicks{}
	p.Legend.Top, p.Legend.Left = true, true
	names := make([]string, 0, len(series))
	for k := range series {
		names = append(names, k)
	}
	sort.Strings(names)
	var args []any
	for _, k := range names {
		args = append(args, k, series[k])
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return err
	}
	for _, ext := range []string{"png", "svg"} {
		if err := p.Save(9*vg.Inch, 6*vg.Inch, filepath.Join(out, "nccl-bandwidth."+ext)); err != nil {
			return err
		}
	}
	return nil
}
