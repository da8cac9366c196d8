package cuda

// device.go: asking a loaded library about the GPU (bfsb_device_count,
// bfsb_device_query), checking a memory need before allocating, the
// bandwidth measurement and the primitives' self-test of bfsb_abi.h.

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"unsafe"
)

// deviceInfoC mirrors struct bfsb_device_info of bfsb_abi.h field for
// field (no padding: 256 + 3*8 + 8*4 = 312 bytes).
type deviceInfoC struct {
	Name           [256]byte
	TotalBytes     int64
	FreeBytes      int64
	L2Bytes        int64
	SMCount        int32
	CCMajor        int32
	CCMinor        int32
	DriverVersion  int32
	RuntimeVersion int32
	Reserved       [3]int32
}

// The C struct is 312 bytes; a mismatch here fails the build.
var _ [312 - unsafe.Sizeof(deviceInfoC{})]struct{}
var _ [unsafe.Sizeof(deviceInfoC{}) - 312]struct{}

// Device describes one CUDA device as the library's runtime sees it.
type Device struct {
	Ordinal        int
	Name           string
	TotalBytes     int64
	FreeBytes      int64 // at the time of the query
	L2Bytes        int64
	SMs            int
	CCMajor        int
	CCMinor        int
	DriverVersion  int // e.g. 13000 for CUDA 13.0
	RuntimeVersion int
	Library        string // the library that asked, for messages
}

// String is e.g. "device 0 (NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.1 GiB)".
func (d Device) String() string {
	return fmt.Sprintf("device %d (%s, sm_%d%d, %d SMs, %.1f GiB)", d.Ordinal, d.Name, d.CCMajor, d.CCMinor, d.SMs, GiB(d.TotalBytes))
}

// GiB converts bytes to GiB.
func GiB(bytes int64) float64 { return float64(bytes) / (1 << 30) }

// DeviceCount returns the number of CUDA devices. Without a driver or a
// GPU it fails with the runtime's own words, naming the library.
func (l *Library) DeviceCount() (int, error) {
	var n int32
	err := l.Call("bfsb_device_count", func(e *byte, el int32) int32 { return l.deviceCount(&n, e, el) })
	if err != nil {
		return 0, fmt.Errorf("no usable CUDA device (library %s): %w", l.Path, err)
	}
	return int(n), nil
}

// Device queries device ordinal. It fails with a message naming the
// library, the device asked for and what was found when there is no such
// device (no driver, no GPU, fewer GPUs).
func (l *Library) Device(ordinal int) (Device, error) {
	n, err := l.DeviceCount()
	if err != nil {
		return Device{}, fmt.Errorf("CUDA device %d wanted: %w", ordinal, err)
	}
	if ordinal < 0 || ordinal >= n {
		return Device{}, fmt.Errorf("cuda: %s: CUDA device %d wanted, the runtime found %d device(s)", l.Path, ordinal, n)
	}
	var c deviceInfoC
	err = l.Call("bfsb_device_query", func(e *byte, el int32) int32 { return l.deviceQuery(int32(ordinal), &c, e, el) })
	if err != nil {
		return Device{}, fmt.Errorf("querying CUDA device %d: %w", ordinal, err)
	}
	return Device{
		Ordinal:        ordinal,
		Name:           cString(c.Name[:]),
		TotalBytes:     c.TotalBytes,
		FreeBytes:      c.FreeBytes,
		L2Bytes:        c.L2Bytes,
		SMs:            int(c.SMCount),
		CCMajor:        int(c.CCMajor),
		CCMinor:        int(c.CCMinor),
		DriverVersion:  int(c.DriverVersion),
		RuntimeVersion: int(c.RuntimeVersion),
		Library:        l.Path,
	}, nil
}

// Need checks, before anything is allocated, that bytes of device memory
// fit in what the device had free at the query. what names the data, e.g.
// "edgescan graph (scale 30)". The error reads "<what> needs X GiB, device
// has Y GiB free (Z GiB total) on device N (name)".
func (d Device) Need(bytes int64, what string) error {
	if bytes <= d.FreeBytes {
		return nil
	}
	return fmt.Errorf("%s needs %.2f GiB, device has %.2f GiB free (%.2f GiB total) on %s",
		what, GiB(bytes), GiB(d.FreeBytes), GiB(d.TotalBytes), d)
}

// Bandwidth is a measurement of device memory bandwidth.
type Bandwidth struct {
	Bytes   int64   // size of each of the two buffers
	Reps    int     // timed repetitions (median taken)
	CopyGBs float64 // device-to-device copy, bytes read + written, GB/s
	ReadGBs float64 // streaming read kernel, bytes read, GB/s
}

// CopyBandwidth measures device ordinal's memory bandwidth with two
// buffers of bytes each (see bfsb_copy_bandwidth in bfsb_abi.h).
func (l *Library) CopyBandwidth(ordinal int, bytes int64, reps int) (Bandwidth, error) {
	b := Bandwidth{Bytes: bytes, Reps: reps}
	err := l.Call("bfsb_copy_bandwidth", func(e *byte, el int32) int32 {
		return l.bandwidth(int32(ordinal), bytes, int32(reps), &b.CopyGBs, &b.ReadGBs, e, el)
	})
	return b, err
}

// SelfTest checks the shared device primitives of include/ (the device
// scan, the warp sum, scan and appends) on n pseudo-random values against
// the host (bfsb_selftest).
func (l *Library) SelfTest(ordinal int, n int64) error {
	return l.Call("bfsb_selftest", func(e *byte, el int32) int32 { return l.selfTest(int32(ordinal), n, e, el) })
}

// RankDevice is the device of world rank rank: one rank per GPU where
// there are enough GPUs, else rank mod the device count (ranks share
// GPUs). count is the variant library's device count.
func RankDevice(rank int, count func() (int, error)) (int, error) {
	n, err := count()
	if err != nil {
		return 0, err
	}
	if n < 1 {
		return 0, errors.New("cuda: no CUDA device")
	}
	return rank % n, nil
}

// RequireEnv names the environment variable that lists what a machine must
// have, comma-separated (e.g. "cuda,nccl"): tests that would skip where a
// GPU, a library or NCCL is missing fail instead where it names them. The
// GPU check script sets it.
const RequireEnv = "BFSBENCH_REQUIRE"

// Required reports whether RequireEnv lists what ("cuda", "nccl").
func Required(what string) bool {
	return slices.Contains(strings.Split(os.Getenv(RequireEnv), ","), what)
}
