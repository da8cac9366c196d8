package sdk

// parents.go: the parent array crosses the process boundary through a file
// that both sides map into memory (under /dev/shm where it exists), so a
// variant writes its parents straight into memory the harness reads.

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// ParentsFile is a shared, memory-mapped array of int64 parents.
type ParentsFile struct {
	f    *os.File
	data []byte
}

// CreateParentsFile creates (or truncates) path to hold n parents and maps it.
func CreateParentsFile(path string, n int64) (*ParentsFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("parents file: %w", err)
	}
	if err := f.Truncate(n * 8); err != nil {
		f.Close()
		return nil, fmt.Errorf("parents file %s: %w", path, err)
	}
	return mapParents(f, n)
}

// OpenParentsFile maps an existing parents file of n entries.
func OpenParentsFile(path string, n int64) (*ParentsFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("parents file: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("parents file: %w", err)
	}
	if st.Size() != n*8 {
		f.Close()
		return nil, fmt.Errorf("parents file %s holds %d bytes, want %d for %d vertices", path, st.Size(), n*8, n)
	}
	return mapParents(f, n)
}

func mapParents(f *os.File, n int64) (*ParentsFile, error) {
	if n == 0 {
		return &ParentsFile{f: f}, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(n*8), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("mmap parents file %s: %w", f.Name(), err)
	}
	return &ParentsFile{f: f, data: data}, nil
}

// Slice is the mapped array; valid until Close.
func (p *ParentsFile) Slice() []int64 {
	if len(p.data) == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(&p.data[0])), len(p.data)/8)
}

// Close unmaps and closes the file (it does not remove it).
func (p *ParentsFile) Close() error {
	var err error
	if p.data != nil {
		err = syscall.Munmap(p.data)
		p.data = nil
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	return err
}
