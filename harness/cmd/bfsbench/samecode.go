package main

import (
	"bytes"
	"go/scanner"
	"go/token"
	"path/filepath"
	"strings"
)

// sameCode reports whether two versions of the source file at path differ
// only in comments and white space, so that a result measured with one
// measured the other (bfsbench stale). Go files are compared token by
// token with their comments dropped, except a file whose comments can be
// code (a cgo preamble, //go: directives, //export), which is compared
// whole; C, C++ and CUDA files with their comments removed and each run of
// white space made one space (a line break only where a preprocessor line
// ends), so that code reflowed over other lines compares the same; any
// other file byte for byte.
func sameCode(path string, a, b []byte) bool {
	switch filepath.Ext(path) {
	case ".go":
		if goCommentsMatter(a) || goCommentsMatter(b) {
			return bytes.Equal(a, b)
		}
		ta, okA := goTokens(a)
		tb, okB := goTokens(b)
		return okA && okB && ta == tb
	case ".c", ".cc", ".cpp", ".cu", ".cuh", ".h", ".hpp":
		return cCode(a) == cCode(b)
	default:
		return bytes.Equal(a, b)
	}
}

// goCommentsMatter reports whether a Go file's comments can change what it
// builds: a cgo preamble (import "C"), a //go: directive or //export.
func goCommentsMatter(src []byte) bool {
	return bytes.Contains(src, []byte(`import "C"`)) || bytes.Contains(src, []byte("//go:")) ||
		bytes.Contains(src, []byte("//export"))
}

// goTokens returns a Go file's tokens without its comments, one per line;
// ok is false where the file does not scan.
func goTokens(src []byte) (string, bool) {
	fset := token.NewFileSet()
	f := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	ok := true
	s.Init(f, src, func(token.Position, string) { ok = false }, 0)
	var out strings.Builder
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			lit = ";" // an inserted semicolon is the same token as a written one
		}
		out.WriteString(tok.String())
		out.WriteByte(' ')
		out.WriteString(lit)
		out.WriteByte('\n')
	}
	return out.String(), ok
}

// cCode returns C, C++ or CUDA source with its comments removed (string
// and character literals kept as they are) and each run of white space
// outside them made one space, or one newline where the run holds one and
// a preprocessor line ends or begins there (the preprocessor reads lines;
// the compiler does not).
func cCode(src []byte) string {
	var out strings.Builder
	pending := byte(0) // the white space a run left to write: 0, ' ' or '\n'
	directive := false // the output line is a preprocessor line (# first)
	last := byte(0)    // the last byte written
	gap := func(c byte) {
		if c == '\n' || pending == 0 {
			pending = c
		}
	}
	emit := func(c byte) {
		if pending != 0 && out.Len() > 0 {
			switch {
			case pending == '\n' && directive && last == '\\':
				out.WriteByte('\n') // the directive goes on
			case pending == '\n' && (directive || c == '#'):
				out.WriteByte('\n')
				directive = false
			default:
				out.WriteByte(' ')
			}
		}
		if out.Len() == 0 || (pending == '\n' && c == '#') {
			directive = c == '#'
		}
		pending = 0
		out.WriteByte(c)
		last = c
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			gap(' ')
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				i = len(src)
			} else {
				i += 2 + end + 1
			}
			gap(' ') // a comment is one space
		case c == '"' || c == '\'':
			emit(c)
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				out.WriteByte(src[i])
				if src[i] == '\\' && i+1 < len(src) {
					i++
					out.WriteByte(src[i])
				}
			}
			if i < len(src) {
				out.WriteByte(src[i])
			}
		case c == '\n':
			gap('\n')
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			gap(' ')
		default:
			emit(c)
		}
	}
	return out.String()
}
