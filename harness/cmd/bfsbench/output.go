package main

// output.go opens what `generate --out` names the way a shell's
// redirection would: a regular file (or a new one) is written to a
// temporary file beside it and renamed over it once complete, so a failed
// run never leaves half a file; a symbolic link is followed, so the link
// stays and the file it names gets the edge list; a FIFO or a character
// device is written in place. What cannot take a stream of bytes, or
// should not (a directory, a socket, a block device), is refused.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// output is an open --out.
type output struct {
	f *os.File
	// final is the path the temporary file f is renamed to on commit; ""
	// when f is the named file itself (a FIFO, a device).
	final string
	done  bool // committed or aborted
}

// maxLinks bounds the chain of symbolic links followed, as the kernel's
// ELOOP does.
const maxLinks = 40

// createOutput opens path for writing as the file's comment says. The
// error is an exit-2 error: nothing was written. Opening a FIFO waits for
// its reader, or for ctx to end.
func createOutput(ctx context.Context, path string) (*output, error) {
	st, err := os.Stat(path) // through links
	switch {
	case err == nil && st.Mode().IsRegular():
	case errors.Is(err, fs.ErrNotExist): // a new file, or a link to one
	case err != nil:
		return nil, usageErr("generate: --out %s: %v", path, err)
	case st.IsDir():
		return nil, usageErr("generate: --out %s is a directory", path)
	case st.Mode()&fs.ModeSocket != 0:
		return nil, usageErr("generate: --out %s is a socket, which cannot be written as a file", path)
	case st.Mode()&fs.ModeDevice != 0 && st.Mode()&fs.ModeCharDevice == 0:
		return nil, usageErr("generate: --out %s is a block device: refusing to write an edge list over it", path)
	default: // a FIFO or a character device: written in place
		f, err := openSpecial(ctx, path)
		if err != nil {
			return nil, &exitError{2, fmt.Errorf("generate: --out %s: %w", path, err)}
		}
		return &output{f: f}, nil
	}
	final, err := resolveLinks(path)
	if err != nil {
		return nil, &exitError{2, fmt.Errorf("generate: --out %s: %w", path, err)}
	}
	perm := fs.FileMode(0o644)
	if st != nil {
		perm = st.Mode().Perm() // an existing file keeps its mode
	}
	f, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+".tmp*")
	if err != nil {
		return nil, &exitError{2, fmt.Errorf("generate: %w", err)}
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, &exitError{2, fmt.Errorf("generate: %w", err)}
	}
	return &output{f: f, final: final}, nil
}

// openSpecial opens a FIFO or a device for writing. A FIFO's open waits
// for a reader: it runs aside, so that ctx ending returns at once (the
// file, should it open later, is closed).
func openSpecial(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, fmt.Errorf("waiting for a reader: %w", ctx.Err())
	}
}

// resolveLinks follows path's chain of symbolic links to the file it
// names, which need not exist yet (a dangling link is written through
// too).
func resolveLinks(path string) (string, error) {
	for range maxLinks {
		st, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || err == nil && st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", fmt.Errorf("more than %d symbolic links", maxLinks)
}

// commit closes the output; a temporary file is renamed over the named
// one.
func (o *output) commit() error {
	if o.done {
		return errors.New("output already closed")
	}
	o.done = true
	if err := o.f.Close(); err != nil {
		o.remove()
		return err
	}
	if o.final == "" {
		return nil
	}
	if err := os.Rename(o.f.Name(), o.final); err != nil {
		o.remove()
		return err
	}
	return nil
}

// remove removes the temporary file, if there is one.
func (o *output) remove() {
	if o.final != "" {
		os.Remove(o.f.Name())
	}
}

// abort closes the output and removes its temporary file (a FIFO's
// reader sees the end of the stream); nothing after commit.
func (o *output) abort() {
	if o.done {
		return
	}
	o.done = true
	o.f.Close()
	o.remove()
}
