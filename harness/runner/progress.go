package runner

// progress.go draws a one-line progress bar on a terminal. When the log is
// not a terminal the bar stays silent; the per-case result lines are
// printed either way.

import (
	"fmt"
	"io"
	"strings"
	"time"
)

type bar struct {
	w       io.Writer
	on      bool
	label   string
	total   int
	started time.Time
}

func newBar(w io.Writer, on bool, label string, total int) *bar {
	return &bar{w: w, on: on, label: label, total: total, started: time.Now()}
}

func (b *bar) set(n int, what string) {
	if !b.on {
		return
	}
	const width = 24
	fill := 0
	if b.total > 0 {
		fill = n * width / b.total
	}
	fmt.Fprintf(b.w, "\r\033[K%s [%s%s] %s %s", b.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill), what,
		time.Since(b.started).Round(time.Second))
}

func (b *bar) finish() {
	if b.on {
		fmt.Fprint(b.w, "\r\033[K")
	}
}
