package graphio

import (
	"context"
	"io"
)

// ContextReader is r whose reads fail with ctx's error once ctx ends, so
// that a long read of a graph or parents file stops at an interrupt.
func ContextReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

// ContextWriter is w whose writes fail with ctx's error once ctx ends, so
// that a long write of an edge list stops at an interrupt.
func ContextWriter(ctx context.Context, w io.Writer) io.Writer { return ctxWriter{ctx, w} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
