package comm_test

// nccl_test.go: the device communicator (NCCL) against the conformance
// suite (commtest.DeviceCases through commtest.Staged), for 2 in-process
// ranks on two GPUs and on one GPU, and for 2 ranks under mpirun (this
// test binary started again as each rank: see TestMain); the exchange
// selection; and, with BFSBENCH_BANDWIDTH=1, the bandwidth table of every
// collective between two GPUs, device path against host-staged path.
//
// Without a GPU, the CUDA runtime or NCCL the GPU tests skip, saying why;
// with BFSBENCH_REQUIRE containing "nccl" they fail instead.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/comm/internal/commtest"
	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/runner/mpijob"
)

// ncclChildEnv, set in a process's environment, makes TestMain run the
// device suite as one MPI rank instead of the tests.
const ncclChildEnv = "BFSBENCH_NCCL_CHILD"

// requireNCCL returns the CUDA runtime and device count when NCCL, the
// runtime and at least gpus GPUs are present; otherwise it skips, or
// fails where BFSBENCH_REQUIRE names nccl.
func requireNCCL(t *testing.T, gpus int) (*cuda.Runtime, int) {
	t.Helper()
	miss := func(msg string) {
		t.Helper()
		if cuda.Required("nccl") {
			t.Fatal(msg)
		}
		t.Skip(msg + " (set BFSBENCH_REQUIRE=nccl to make this a failure)")
	}
	rt, err := cuda.LoadRuntime()
	if err != nil {
		miss(err.Error())
	}
	n, err := rt.DeviceCount()
	if err != nil {
		miss(fmt.Sprintf("no usable CUDA device: %v", err))
	}
	if n < gpus {
		miss(fmt.Sprintf("%d GPU(s), this test needs %d", n, gpus))
	}
	if _, err := comm.NCCLVersion(); err != nil {
		miss(err.Error())
	}
	return rt, n
}

// deviceRank builds rank c's device communicator on device dev, on a
// stream of its own.
func deviceRank(rt *cuda.Runtime, c comm.Comm, dev int) (*comm.NCCLComm, error) {
	s, err := rt.StreamCreate(dev)
	if err != nil {
		return nil, err
	}
	return comm.NewNCCL(c, dev, s)
}

func TestNCCLConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		devs []int
		gpus int
	}{
		{"2ranks-2gpus", []int{0, 1}, 2},
		{"2ranks-1gpu", []int{0, 0}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, _ := requireNCCL(t, tc.gpus)
			if v, _ := comm.NCCLVersion(); v < 23000 && tc.gpus == 1 {
				// Checked, rather than skipped blindly: NewNCCL must
				// refuse the group with ErrSharedGPU before any NCCL call.
				err := comm.RunLocal(2, func(c comm.Comm) error {
					_, err := deviceRank(rt, c, tc.devs[c.Rank()])
					return err
				})
				if !errors.Is(err, comm.ErrSharedGPU) {
					t.Fatalf("two ranks on one GPU with NCCL %d: got %v, want ErrSharedGPU", v, err)
				}
				t.Skipf("NCCL %d holds one rank per GPU: NewNCCL refused the group as it should (%v); exchange = \"auto\" chooses host there", v, err)
			}
			for _, cs := range commtest.DeviceCases {
				t.Run(cs.Name, func(t *testing.T) {
					runWithDeadline(t, 2, func(c comm.Comm) error {
						d, err := deviceRank(rt, c, tc.devs[c.Rank()])
						if err != nil {
							return err
						}
						err = cs.Run(commtest.Staged(d))
						return errors.Join(err, d.Close())
					})
				})
			}
		})
	}
}

// TestNCCLConformanceMPI runs the device suite as a 2-rank mpirun job of
// this test binary (so no Go toolchain is needed where it runs): one GPU
// per rank where there are two.
func TestNCCLConformanceMPI(t *testing.T) {
	requireNCCL(t, 1)
	if !comm.MPIBuilt {
		t.Skip("this test binary was built without -tags mpi")
	}
	if _, err := exec.LookPath("mpirun"); err != nil {
		t.Skip("mpirun not on PATH")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := mpijob.MPIRunCommand(2, "", []string{"--oversubscribe"}, exe, "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), ncclChildEnv+"=1")
	out, err := runWithTimeout(cmd, 3*time.Minute)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(out, "skip:") {
		t.Skipf("ranks skipped:\n%s", out)
	}
	for _, cs := range commtest.DeviceCases {
		if !strings.Contains(out, "ok "+cs.Name+" (2 ranks)") {
			t.Errorf("no pass line for %s", cs.Name)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

func runWithTimeout(cmd *exec.Cmd, d time.Duration) (string, error) {
	var buf strings.Builder
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return buf.String(), err
	case <-time.After(d):
		mpijob.KillGroup(cmd)
		<-done
		return buf.String(), fmt.Errorf("job did not finish in %v", d)
	}
}

// ncclChild is one rank of TestNCCLConformanceMPI's job: the device suite
// over MPI_COMM_WORLD, one line per passing case on rank 0.
func ncclChild() int {
	c, err := comm.MPIWorld()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer comm.MPIFinalize()
	rt, err := cuda.LoadRuntime()
	var n int
	if err == nil {
		n, err = rt.DeviceCount()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	d, err := deviceRank(rt, c, c.Rank()%n)
	if errors.Is(err, comm.ErrSharedGPU) {
		fmt.Printf("skip: rank %d: %v\n", c.Rank(), err)
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rank %d: %v\n", c.Rank(), err)
		return 1
	}
	failed := 0
	for _, cs := range commtest.DeviceCases {
		if err := cs.Run(commtest.Staged(d)); err != nil {
			fmt.Fprintf(os.Stderr, "rank %d: FAIL %s: %v\n", c.Rank(), cs.Name, err)
			failed++
		} else if c.Rank() == 0 {
			fmt.Printf("ok %s (%d ranks)\n", cs.Name, c.Size())
		}
	}
	if err := d.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		failed++
	}
	if failed > 0 {
		return 1
	}
	return 0
}

func TestSelectExchange(t *testing.T) {
	for _, tc := range []struct {
		param       string
		cuda        bool
		ranks       int
		want        string
		wantErrPart string
	}{
		{"host", true, 4, comm.ExchangeHost, ""},
		{"auto", false, 4, comm.ExchangeHost, ""},
		{"", true, 1, comm.ExchangeHost, ""},
		{"device", false, 2, "", "cuda backend"},
		{"device", true, 1, "", "one rank"},
		{"sideways", true, 2, "", "want auto, device or host"},
	} {
		mode, why, err := comm.SelectExchange(tc.param, tc.cuda, tc.ranks, tc.ranks)
		switch {
		case tc.wantErrPart != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErrPart) {
				t.Errorf("%+v: got %q, %v; want an error containing %q", tc, mode, err, tc.wantErrPart)
			}
		case err != nil || mode != tc.want || why == "":
			t.Errorf("%+v: got %q (%q), %v; want %q", tc, mode, why, err, tc.want)
		}
	}
	// Where NCCL is missing, auto falls back to host saying why, and
	// device fails naming the library.
	if _, err := comm.NCCLVersion(); err != nil {
		if !strings.Contains(err.Error(), comm.NCCLName) {
			t.Errorf("NCCL error %q does not name %s", err, comm.NCCLName)
		}
		mode, why, err := comm.SelectExchange("auto", true, 2, 2)
		if err != nil || mode != comm.ExchangeHost || why == "" {
			t.Errorf("auto without NCCL: %q (%q), %v", mode, why, err)
		}
		if _, _, err := comm.SelectExchange("device", true, 2, 2); err == nil {
			t.Error("device accepted without NCCL")
		}
	}
}

// Device buffers reject what the host communicators reject, and a device
// communicator's methods refuse other buffer types; checked without a GPU.
func TestDeviceBuffer(t *testing.T) {
	b := comm.Device(0x1000, 10, comm.Uint64)
	if b.Len() != 10 || b.Datatype() != comm.Uint64 || b.Bytes() != 80 {
		t.Errorf("%+v", b)
	}
	s := b.Sub(3, 4)
	if s.Ptr != 0x1000+24 || s.N != 4 {
		t.Errorf("sub %+v", s)
	}
	// A host communicator refuses device buffers with a clear error.
	err := comm.RunLocal(1, func(c comm.Comm) error { return c.Allreduce(b, comm.Sum) })
	if err == nil || !strings.Contains(err.Error(), "not a host buffer") {
		t.Errorf("local allreduce of a device buffer: %v", err)
	}
}

// narrow returns the members of all that the comma list in the environment
// variable env names (all where it is empty), failing t on a name not in all.
func narrow(t *testing.T, env string, all []string) []string {
	v := os.Getenv(env)
	if v == "" {
		return all
	}
	var keep []string
	for _, s := range strings.Split(v, ",") {
		if !slices.Contains(all, s) {
			t.Fatalf("%s: %q is not one of %v", env, s, all)
		}
		keep = append(keep, s)
	}
	return keep
}

// TestNCCLBandwidth prints, for 2 ranks on 2 GPUs, the time and bandwidth
// of each collective per message size (1 KiB to 256 MiB), over the device
// path (NCCL) and the host-staged path (cudaMemcpy to pinned host memory,
// the in-process host communicator, cudaMemcpy back). Bytes are per rank:
// the receive buffer's size (the send buffer's for sendrecv). busbw
// follows nccl-tests' factors for 2 ranks. Run with BFSBENCH_BANDWIDTH=1;
// BFSBENCH_BANDWIDTH_OUT=FILE writes the table there too (TSV), and
// BFSBENCH_BANDWIDTH_OPS and BFSBENCH_BANDWIDTH_PATHS narrow it (comma
// lists, e.g. "allgather" and "device": a quick look at one collective
// under NCCL's environment settings).
func TestNCCLBandwidth(t *testing.T) {
	if os.Getenv("BFSBENCH_BANDWIDTH") == "" {
		t.Skip("set BFSBENCH_BANDWIDTH=1 to measure (two GPUs and NCCL needed)")
	}
	rt, _ := requireNCCL(t, 2)
	const maxBytes = 256 << 20
	var sizes []int
	for s := 1 << 10; s <= maxBytes; s *= 4 {
		sizes = append(sizes, s)
	}
	ops := narrow(t, "BFSBENCH_BANDWIDTH_OPS", []string{"alltoall", "allgather", "allreduce", "bcast", "sendrecv"})
	paths := narrow(t, "BFSBENCH_BANDWIDTH_PATHS", []string{"device", "host"})
	busFactor := map[string]float64{"alltoall": 0.5, "allgather": 0.5, "allreduce": 1, "bcast": 1, "sendrecv": 1}
	type row struct {
		op, path string
		bytes    int
		us       float64
	}
	rows := make(chan row, 1000)
	err := comm.RunLocal(2, func(c comm.Comm) error {
		dev := c.Rank()
		d, err := deviceRank(rt, c, dev)
		if err != nil {
			return err
		}
		defer d.Close()
		send, err := rt.Malloc(dev, maxBytes)
		if err != nil {
			return err
		}
		defer rt.Free(send)
		recv, err := rt.Malloc(dev, maxBytes)
		if err != nil {
			return err
		}
		defer rt.Free(recv)
		hsend, err := rt.HostAlloc(maxBytes)
		if err != nil {
			return err
		}
		defer rt.FreeHost(hsend)
		hrecv, err := rt.HostAlloc(maxBytes)
		if err != nil {
			return err
		}
		defer rt.FreeHost(hrecv)
		peer := 1 - c.Rank()
		words := func(b []byte, n int) []uint64 { return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n) }
		for _, op := range ops {
			for _, size := range sizes {
				n := size / 8
				devOp := func() error {
					dsend, drecv := comm.Device(send, n, comm.Uint64), comm.Device(recv, n, comm.Uint64)
					switch op {
					case "alltoall":
						return d.Alltoall(dsend, drecv)
					case "allgather":
						return d.Allgather(dsend.Sub(0, n/2), drecv)
					case "allreduce":
						return d.Allreduce(drecv, comm.Sum)
					case "bcast":
						return d.Bcast(drecv, 0)
					}
					rq, err := d.Irecv(drecv, peer, 0)
					if err != nil {
						return err
					}
					sq, err := d.Isend(dsend, peer, 0)
					if err != nil {
						return err
					}
					return comm.WaitAll([]comm.Request{rq, sq})
				}
				hostOp := func() error {
					in := size
					if op == "allgather" {
						in = size / 2
					}
					if op != "allreduce" && op != "bcast" {
						if err := rt.CopyFromDevice(hsend[:in], send); err != nil {
							return err
						}
					} else if err := rt.CopyFromDevice(hrecv[:size], recv); err != nil {
						return err
					}
					hs, hr := comm.Host(words(hsend, n)), comm.Host(words(hrecv, n))
					var err error
					switch op {
					case "alltoall":
						err = c.Alltoall(hs, hr)
					case "allgather":
						err = c.Allgather(hs[:n/2], hr)
					case "allreduce":
						err = c.Allreduce(hr, comm.Sum)
					case "bcast":
						err = c.Bcast(hr, 0)
					default:
						rq, e := c.Irecv(hr, peer, 0)
						if e != nil {
							return e
						}
						sq, e := c.Isend(hs, peer, 0)
						if e != nil {
							return e
						}
						err = comm.WaitAll([]comm.Request{rq, sq})
					}
					if err != nil {
						return err
					}
					return rt.CopyToDevice(recv, hrecv[:size])
				}
				reps := max(3, min(100, (1<<30)/size))
				for _, path := range paths {
					f := devOp
					if path == "host" {
						f = hostOp
					}
					for range 2 { // warm-up
						if err := f(); err != nil {
							return fmt.Errorf("%s %s %d: %w", path, op, size, err)
						}
					}
					if err := d.Barrier(); err != nil {
						return err
					}
					t0 := time.Now()
					for range reps {
						if err := f(); err != nil {
							return fmt.Errorf("%s %s %d: %w", path, op, size, err)
						}
					}
					if err := d.Sync(); err != nil {
						return err
					}
					el, err := comm.AllreduceInt64(c, int64(time.Since(t0)), comm.Max)
					if err != nil {
						return err
					}
					if c.Rank() == 0 {
						rows <- row{op, path, size, float64(el) / 1e3 / float64(reps)}
					}
				}
			}
		}
		return nil
	})
	close(rows)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("op\tpath\tbytes\ttime_us\talgbw_GBs\tbusbw_GBs\n")
	for r := range rows {
		alg := float64(r.bytes) / (r.us * 1e3)
		fmt.Fprintf(&b, "%s\t%s\t%d\t%.2f\t%.3f\t%.3f\n", r.op, r.path, r.bytes, r.us, alg, alg*busFactor[r.op])
	}
	fmt.Print(b.String())
	if out := os.Getenv("BFSBENCH_BANDWIDTH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
