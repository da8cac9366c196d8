// Package graphio reads and writes the graph files bfsbench uses as
// workloads and artifacts: SNAP edge lists, Matrix Market coordinate files,
// a plain-text and a binary edge-list format, and parent arrays.
//
// This file holds what the text readers share: the error type that names a
// file and line, a line scanner, and allocation-free field splitting and
// integer parsing (no fmt.Sscanf per line, so that files of a billion lines
// load in reasonable time).
package graphio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// ParseError is an error in a graph or parents file, at a line.
type ParseError struct {
	File string // the name the reader was given
	Line int64  // 1-based
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// maxLineBytes bounds the length of one line; a longer line is an error
// (graph files have short lines; this stops a binary file being read as
// one huge line).
const maxLineBytes = 1 << 20

// lineScanner yields the lines of a text file, without their line ending
// (LF or CRLF), and counts them.
type lineScanner struct {
	sc   *bufio.Scanner
	name string
	line int64
}

func newLineScanner(r io.Reader, name string) *lineScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 256<<10), maxLineBytes)
	return &lineScanner{sc: sc, name: name}
}

// next returns the next line, or false at the end of the input or on a
// read error (see err).
func (l *lineScanner) next() ([]byte, bool) {
	if !l.sc.Scan() {
		return nil, false
	}
	l.line++
	b := l.sc.Bytes()
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b, true
}

// err returns the read error that ended the scan, if any, at the line
// where it happened.
func (l *lineScanner) err() error {
	err := l.sc.Err()
	if err == nil {
		return nil
	}
	if errors.Is(err, bufio.ErrTooLong) {
		return &ParseError{l.name, l.line + 1, fmt.Sprintf("line longer than %d bytes", maxLineBytes)}
	}
	return &ParseError{l.name, l.line + 1, "read error: " + err.Error()}
}

// errorf returns a ParseError at the current line.
func (l *lineScanner) errorf(format string, args ...any) error {
	return &ParseError{l.name, l.line, fmt.Sprintf(format, args...)}
}

// isSpace reports whether c separates fields: ASCII blanks.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'
}

// splitFields appends the blank-separated fields of line to dst[:0].
func splitFields(line []byte, dst [][]byte) [][]byte {
	dst = dst[:0]
	i := 0
	for i < len(line) {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		start := i
		for i < len(line) && !isSpace(line[i]) {
			i++
		}
		if i > start {
			dst = append(dst, line[start:i])
		}
	}
	return dst
}

// isBlankOrComment reports whether line is empty, blank, or its first
// non-blank byte is marker.
func isBlankOrComment(line []byte, marker byte) bool {
	for _, c := range line {
		if !isSpace(c) {
			return c == marker
		}
	}
	return true
}

// parseUint parses a non-empty string of decimal digits that fits in an
// int64.
func parseUint(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if v > math.MaxInt64/10 || (v == math.MaxInt64/10 && d > math.MaxInt64%10) {
			return 0, false // overflow
		}
		v = v*10 + d
	}
	return v, true
}

// parseInt parses an optionally '-'-signed decimal integer.
func parseInt(b []byte) (int64, bool) {
	if len(b) > 1 && b[0] == '-' {
		v, ok := parseUint(b[1:])
		return -v, ok
	}
	return parseUint(b)
}

// quote returns b as a Go-quoted string for messages, cut to a readable
// length.
func quote(b []byte) string {
	const limit = 60
	if len(b) > limit {
		return strconv.Quote(string(b[:limit])) + "..."
	}
	return strconv.Quote(string(b))
}

// appendEdgeLine appends "v0 v1\n".
func appendEdgeLine(buf []byte, v0, v1 int64) []byte {
	buf = strconv.AppendInt(buf, v0, 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, v1, 10)
	return append(buf, '\n')
}
