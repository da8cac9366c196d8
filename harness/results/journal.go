package results

// journal.go keeps the searches of the case in progress durable between
// two saves of results.json: each finished search is appended to a
// journal beside the file (one JSON line, one write), the journal is
// emptied once results.json holds the case, and Load merges what a run
// killed in the middle of a case (SIGKILL, a power cut of the process)
// left there. One write of a few hundred bytes a search costs
// microseconds; rewriting results.json a search would cost a run
// quadratic time in its searches.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// JournalPath is the journal of the results file at path.
func JournalPath(path string) string { return path + ".journal" }

// journalEntry is one line of a journal: a search of case Case (its index
// in Run.Cases, and its variant as a check).
type journalEntry struct {
	Case    int    `json:"case"`
	Variant string `json:"variant"`
	Search  Search `json:"search"`
}

// Journal appends finished searches to a results file's journal.
type Journal struct {
	f *os.File
}

// OpenJournal creates (or empties) the journal of the results file at
// path.
func OpenJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(JournalPath(path), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{f: f}, nil
}

// Append records search s of case i (variant v) in one write, so that a
// process killed at any point leaves whole lines.
func (j *Journal) Append(i int, variant string, s Search) error {
	b, err := json.Marshal(journalEntry{Case: i, Variant: variant, Search: s})
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Reset empties the journal, once results.json holds what it held.
func (j *Journal) Reset() error {
	if err := j.f.Truncate(0); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Close closes the journal, leaving it on disk (a run whose results.json
// could not be saved keeps it beside the stale file). It may be called
// more than once, and after Remove.
func (j *Journal) Close() {
	j.f.Close()
}

// Remove closes and removes the journal, at the end of a run.
func (j *Journal) Remove() error {
	name := j.f.Name()
	j.f.Close()
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// mergeJournal adds to r the searches the journal of the results file at
// path holds for cases results.json has not recorded yet (a case that has
// searches, or a status other than skipped, was saved whole after them).
// Such a case was cut off by the run's death: it is marked failed, with
// its searches kept. A torn last line is ignored.
func mergeJournal(r *Run, path string) error {
	b, err := os.ReadFile(JournalPath(path))
	if errors.Is(err, fs.ErrNotExist) || len(b) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	open := map[int]bool{}
	for i, c := range r.Cases {
		open[i] = c != nil && c.Status == StatusSkipped && len(c.BFS) == 0
	}
	recovered := map[int]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		var e journalEntry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Case < 0 || e.Case >= len(r.Cases) || !open[e.Case] || r.Cases[e.Case].Variant != e.Variant {
			continue
		}
		c := r.Cases[e.Case]
		c.BFS = append(c.BFS, e.Search)
		recovered[e.Case]++
	}
	for i, n := range recovered {
		c := r.Cases[i]
		c.Status = StatusFailed
		c.Error = fmt.Sprintf("cut off: the run was killed during this case (or is still running it); its %d finished %s kept from %s, without statistics",
			n, plural(n, "search", "searches"), JournalPath(path))
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
