// This file reads and writes parent arrays as text: one parent per line,
// line k (0-based) holding the parent of vertex k, -1 for unreached.

package graphio

import (
	"bufio"
	"io"
	"strconv"
)

// ReadParents reads a parent array: one integer per line, -1 for an
// unreached vertex, every other value non-negative (whether it is a vertex
// of some graph is the validator's business). Blank lines are errors, as
// they would shift every later vertex. name is used in errors.
func ReadParents(r io.Reader, name string) ([]int64, error) {
	ls := newLineScanner(r, name)
	var parents []int64
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		f := trimBlanks(line)
		p, ok := parseInt(f)
		if !ok {
			return nil, ls.errorf("want one parent (an integer >= -1), got %s", quote(line))
		}
		if p < -1 {
			return nil, ls.errorf("parent %d is below -1", p)
		}
		parents = append(parents, p)
	}
	if err := ls.err(); err != nil {
		return nil, err
	}
	return parents, nil
}

// WriteParents writes parents, one per line, as ReadParents reads them.
func WriteParents(w io.Writer, parents []int64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	buf := make([]byte, 0, 24)
	for _, p := range parents {
		buf = strconv.AppendInt(buf[:0], p, 10)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// trimBlanks removes leading and trailing blanks.
func trimBlanks(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
