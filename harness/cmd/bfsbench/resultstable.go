package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/bfsbench/bfsbench/harness/report"
)

// cmdResultsTable writes the headline table of DIR/README.md (default
// results) from the committed results files DIR/headline.toml names;
// --check writes nothing and exits 1 when the table is out of date.
func cmdResultsTable(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("results-table", flag.ContinueOnError)
	check := fs.Bool("check", false, "write nothing; exit 1 when the README's table differs from the results files")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	dir := "results"
	switch len(pos) {
	case 0:
	case 1:
		dir = pos[0]
	default:
		return usageErr("results-table takes one folder")
	}
	changed, err := report.UpdateHeadline(dir, *check)
	if err != nil {
		return &exitError{2, err}
	}
	readme := filepath.Join(dir, "README.md")
	switch {
	case changed && *check:
		return &exitError{1, errors.New(readme + ": the headline table differs from the results files: run `bfsbench results-table " + dir + "` and commit the result")}
	case changed:
		fmt.Fprintf(stdout, "%s: headline table rewritten from %s\n", readme, filepath.Join(dir, report.HeadlineFile))
	default:
		fmt.Fprintf(stdout, "%s: headline table up to date\n", readme)
	}
	return nil
}
