// Command vlqbench is the microbenchmark behind Figure 5 of [Ueno]
// (docs/papers.md; §VI-B): the throughput of SIMD VLQ encoding and decoding on
// one GPU (harness/cuda/include/bfsb_vlq.cuh, width 32) against a
// sequential CPU implementation of plain VLQ (harness/vlq, width 1), for
// uniform random values in [0, N] as N grows. It is not a BFS, so it is a
// command rather than a bfsbench config:
//
//	go run ./plugins/ueno/cmd/vlqbench [-n VALUES] [-reps R] [-device D] > fig5.csv
//	go run ./plugins/ueno/cmd/vlqbench -plot fig5.csv [-outdir DIR]
//
// (run `make cuda` first; BFSBENCH_LIB_DIR or ./lib locates libueno.so).
// It prints one CSV row per N: million values per second for each codec
// and, for the GPU, the bandwidth (bytes read plus written over the time)
// and its share of the device's copy bandwidth. GPU columns are empty where
// no GPU is found. Every GPU stream is checked against the Go codec.
//
// With -plot it benchmarks nothing: it reads such a CSV and draws the
// figure, figure-ueno-fig5.svg and .png, in the CSV's directory or in
// -outdir (see plot.go), and prints the paths written.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/bfsbench/bfsbench/harness/vlq"
	"github.com/bfsbench/bfsbench/plugins/ueno/ubfs"
)

func main() {
	n := flag.Int("n", 1<<24, "values per run")
	reps := flag.Int("reps", 10, "timed runs per point (median)")
	device := flag.Int("device", 0, "CUDA device ordinal")
	plotCSV := flag.String("plot", "", "draw the figure from this `CSV` (written earlier by vlqbench) instead of benchmarking")
	outDir := flag.String("outdir", "", "with -plot: write the figure to this `directory` (default: the CSV's)")
	flag.Parse()
	if *plotCSV != "" {
		paths, err := plotFig5(*plotCSV, *outDir)
		for _, p := range paths {
			fmt.Println(p)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "vlqbench:", err)
			os.Exit(1)
		}
		return
	}
	if *outDir != "" {
		fmt.Fprintln(os.Stderr, "vlqbench: -outdir is only used with -plot")
		os.Exit(2)
	}
	if err := run(*n, *reps, *device); err != nil {
		fmt.Fprintln(os.Stderr, "vlqbench:", err)
		os.Exit(1)
	}
}

func median(f func(), reps int) float64 {
	t := make([]float64, reps)
	f() // warm-up
	for k := range t {
		t0 := time.Now()
		f()
		t[k] = time.Since(t0).Seconds()
	}
	sort.Float64s(t)
	return t[reps/2]
}

func run(n, reps, device int) error {
	gpu := true
	var copyGBs float64
	if c, err := ubfs.DeviceCount(); err != nil || c < 1 {
		fmt.Fprintln(os.Stderr, "vlqbench: no GPU, CPU columns only:", err)
		gpu = false
	} else if bw, err := ubfs.CopyBandwidth(device, 1<<30, 10); err == nil {
		copyGBs = bw.CopyGBs
	}
	fmt.Println("N,values,bytes,cpu_encode_mvals,cpu_decode_mvals,gpu_encode_mvals,gpu_decode_mvals,gpu_encode_gbs,gpu_decode_gbs,gpu_encode_pct_copy,gpu_decode_pct_copy")
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]uint32, n)
	for _, N := range []uint64{1 << 4, 1 << 8, 1 << 12, 1 << 16, 1 << 20, 1 << 24, 1 << 28, 1<<32 - 1} {
		for i := range vals {
			vals[i] = uint32(rng.Uint64N(N + 1))
		}
		var enc []byte
		tEnc := median(func() { enc = vlq.Append(enc[:0], vals, 1) }, reps)
		dec := make([]uint32, n)
		var err error
		tDec := median(func() { dec, _, err = vlq.Decode(dec, enc, n, 1) }, reps)
		if err != nil || !slices.Equal(dec, vals) {
			return fmt.Errorf("CPU round trip at N=%d: %v", N, err)
		}
		row := fmt.Sprintf("%d,%d,%d,%.1f,%.1f", N, n, len(enc), float64(n)/tEnc/1e6, float64(n)/tDec/1e6)
		if gpu {
			want := vlq.Append(nil, vals, vlq.WarpWidth)
			got, msE, err := ubfs.VLQEncodeGPU(device, vals, reps)
			if err != nil {
				return err
			}
			if !bytes.Equal(got, want) {
				return fmt.Errorf("GPU stream differs from the Go codec's at N=%d", N)
			}
			back, msD, err := ubfs.VLQDecodeGPU(device, got, n, reps)
			if err != nil {
				return err
			}
			if !slices.Equal(back, vals) {
				return fmt.Errorf("GPU decoding differs at N=%d", N)
			}
			moved := float64(4*n + len(got)) // values read + bytes written (and the reverse)
			gE, gD := moved/(msE/1e3)/1e9, moved/(msD/1e3)/1e9
			pE, pD := "", ""
			if copyGBs > 0 {
				pE, pD = fmt.Sprintf("%.1f", 100*gE/copyGBs), fmt.Sprintf("%.1f", 100*gD/copyGBs)
			}
			row += fmt.Sprintf(",%.1f,%.1f,%.1f,%.1f,%s,%s", float64(n)/(msE/1e3)/1e6, float64(n)/(msD/1e3)/1e6, gE, gD, pE, pD)
		} else {
			row += ",,,,,,"
		}
		fmt.Println(row)
	}
	return nil
}
