package cuda

// copybench.go times copies between the host and one GPU over the CUDA
// runtime (runtime.go): cudaMemcpy, synchronous, between a device buffer
// and either pinned host memory (cudaHostAlloc) or pageable memory (a Go
// slice), each copy between two CUDA events on the legacy default stream,
// the stream cudaMemcpy runs on. It is what [Mitsuishi] Fig. 5 measures
// (host-GPU copy throughput against the transfer size), behind `bfsbench
// copybw`.

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// CopyBench holds the buffers and events of copy measurements on one
// device: maxBytes of device memory, of pinned and of pageable host
// memory. Its methods are not safe for concurrent use.
type CopyBench struct {
	rt          *Runtime
	dev         int
	d           uintptr // device buffer
	pinned      []byte  // cudaHostAlloc
	pageable    []byte  // Go memory, every page touched
	start, stop uintptr // timing events
}

// NewCopyBench allocates the buffers of copies up to maxBytes on device
// dev; it fails where dev is not a device of this machine.
func (rt *Runtime) NewCopyBench(dev, maxBytes int) (*CopyBench, error) {
	if maxBytes < 1 {
		return nil, fmt.Errorf("cuda: copies of %d bytes", maxBytes)
	}
	n, err := rt.DeviceCount()
	if err != nil {
		return nil, err
	}
	if dev < 0 || dev >= n {
		return nil, fmt.Errorf("cuda: device %d wanted, the runtime found %d device(s)", dev, n)
	}
	b := &CopyBench{rt: rt, dev: dev}
	fail := func(err error) (*CopyBench, error) { return nil, errors.Join(err, b.Close()) }
	if b.d, err = rt.Malloc(dev, maxBytes); err != nil {
		return fail(err)
	}
	if err := rt.OnDevice(dev, func() (err error) { b.pinned, err = rt.HostAlloc(maxBytes); return err }); err != nil {
		return fail(err)
	}
	b.pageable = make([]byte, maxBytes)
	for i := range b.pageable { // fault every page in now, not while timing
		b.pageable[i] = byte(i)
	}
	copy(b.pinned, b.pageable)
	if b.start, err = rt.EventCreate(dev, true); err != nil {
		return fail(err)
	}
	if b.stop, err = rt.EventCreate(dev, true); err != nil {
		return fail(err)
	}
	return b, nil
}

// Host is the host buffer of pinned or pageable memory the copies use
// (its first bytes are what a copy to the device sends).
func (b *CopyBench) Host(pinned bool) []byte {
	if pinned {
		return b.pinned
	}
	return b.pageable
}

// Time copies the first bytes of the pinned or pageable host buffer to
// the device (toDevice) or back, once, and returns the seconds between
// the CUDA events recorded before and after the copy.
func (b *CopyBench) Time(toDevice, pinned bool, bytes int) (float64, error) {
	h := b.Host(pinned)
	if bytes < 1 || bytes > len(h) {
		return 0, fmt.Errorf("cuda: a copy of %d bytes, the buffers hold %d", bytes, len(h))
	}
	rt := b.rt
	var ms float64
	err := rt.OnDevice(b.dev, func() error {
		if err := rt.EventRecord(b.start, 0); err != nil {
			return err
		}
		var err error
		if toDevice {
			err = rt.check("cudaMemcpy(host to device)", rt.memcpy(ptrOf(b.d), unsafe.Pointer(&h[0]), uint64(bytes), cudaMemcpyHostToDevice))
		} else {
			err = rt.check("cudaMemcpy(device to host)", rt.memcpy(unsafe.Pointer(&h[0]), ptrOf(b.d), uint64(bytes), cudaMemcpyDeviceToHost))
		}
		runtime.KeepAlive(h)
		if err != nil {
			return err
		}
		if err := rt.EventRecord(b.stop, 0); err != nil {
			return err
		}
		if err := rt.check("cudaEventSynchronize", rt.eventSynchronize(b.stop)); err != nil {
			return err
		}
		ms, err = rt.ElapsedMs(b.start, b.stop)
		return err
	})
	return ms / 1e3, err
}

// Close frees the buffers and events.
func (b *CopyBench) Close() error {
	var errs []error
	for _, e := range []*uintptr{&b.start, &b.stop} {
		if *e != 0 {
			errs = append(errs, b.rt.EventDestroy(*e))
			*e = 0
		}
	}
	errs = append(errs, b.rt.Free(b.d), b.rt.FreeHost(b.pinned))
	b.d, b.pinned, b.pageable = 0, nil, nil
	return errors.Join(errs...)
}
