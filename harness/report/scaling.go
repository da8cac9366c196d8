// This file is the x axis of scaling figures (x = "gpus" or "ranks"): the
// papers draw their scaling against the number of GPUs, so a CUDA case
// stands at its GPUs and a CPU case at its ranks. Where several grids
// share a count (1×2 and 2×1 on two GPUs), each has a place of its own,
// its grid under the count. A case with more ranks (or partitions) than
// GPUs measures sharing, not scaling: it stands apart, after the others,
// labelled "4 ranks on 2 GPUs", and no line joins it to them.

package report

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bfsbench/bfsbench/harness/results"
)

// place is where a case stands on a scaling axis.
type place struct {
	count   int    // GPUs for a CUDA case, ranks for a CPU case
	workers int    // ranks, or a single process's partitions
	devices int    // GPUs, 0 on CPU
	unit    string // what workers counts: "ranks" or "partitions"
	grid    string // "1×2"; "" without a grid
	apart   bool   // more workers than GPUs
	cpu     bool
}

// placeOf is c's place. A single process driving several GPUs (merrill)
// counts its partitions (its "gpus" parameter) as workers.
func placeOf(c *results.Case) place {
	pl := place{workers: c.Ranks, unit: "ranks", devices: c.GPUs}
	if g, ok := c.Params["gpus"].(float64); ok && c.Ranks <= 1 && int(g) > pl.workers {
		pl.workers, pl.unit = int(g), "partitions"
	}
	if c.Grid != [2]int{} {
		pl.grid = fmt.Sprintf("%d×%d", c.Grid[0], c.Grid[1])
	}
	if c.Backend != "cuda" || c.GPUs == 0 {
		pl.cpu, pl.count = true, pl.workers
		return pl
	}
	pl.count = c.GPUs
	pl.apart = pl.workers > c.GPUs
	return pl
}

// key identifies the place on the axis.
func (pl place) key() string {
	return fmt.Sprintf("%d|%s|%t|%d|%t", pl.count, pl.grid, pl.apart, pl.workers, pl.cpu)
}

// String names the place as a series: "2 GPUs", "4 partitions on 2 GPUs",
// "8 CPU ranks".
func (pl place) String() string {
	switch {
	case pl.cpu:
		return plural(pl.count, "CPU rank", "CPU ranks")
	case pl.apart:
		return fmt.Sprintf("%d %s on %s", pl.workers, pl.unit, plural(pl.devices, "GPU", "GPUs"))
	}
	return plural(pl.count, "GPU", "GPUs")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// scalingAxis places the places of the cases (by key) and the paper's x
// values (counts, e.g. "4") in order: by count, then grid; the apart
// places after all others. Places of one count share a position unless
// their grids differ (1×2 and 2×1), and a CPU series stands with the GPUs
// of its count. A paper's count takes the first position of that count,
// or one of its own (the paper's 4 GPUs where ours are 4 ranks on 2).
func scalingAxis(places map[string]place, refXs []string) axis {
	a := axis{pos: map[string]float64{}, labels: map[string]string{}, sep: -1, alias: map[string]string{}}
	type category struct {
		key    string
		count  int
		grid   string // "" unless grids differ at the count
		grids  map[string]bool
		places []string
		apart  bool
		pl     place
	}
	gridsAt := map[int]map[string]bool{} // count → non-empty grids of the places not apart
	anyGrid := false
	for _, pl := range places {
		if pl.apart || pl.grid == "" {
			continue
		}
		if gridsAt[pl.count] == nil {
			gridsAt[pl.count] = map[string]bool{}
		}
		gridsAt[pl.count][pl.grid] = true
		anyGrid = anyGrid || pl.grid != "1×1"
	}
	cats := map[string]*category{}
	for k, pl := range places {
		ck := fmt.Sprintf("%d|", pl.count)
		if gs := gridsAt[pl.count]; len(gs) > 1 {
			g := pl.grid
			if g == "" { // a case without a grid stands at the first grid of its count
				g = slices.Sorted(maps.Keys(gs))[0]
			}
			ck += g
		}
		if pl.apart {
			ck = "apart|" + k
		}
		c := cats[ck]
		if c == nil {
			c = &category{key: ck, count: pl.count, grids: map[string]bool{}, apart: pl.apart, pl: pl}
			if len(gridsAt[pl.count]) > 1 {
				c.grid = strings.TrimPrefix(ck, fmt.Sprintf("%d|", pl.count))
			}
			cats[ck] = c
		}
		c.places = append(c.places, k)
		c.grids[pl.grid] = true
	}
	// The paper's counts that no position of ours has stand with the others.
	for _, x := range refXs {
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			continue
		}
		found := false
		for _, c := range cats {
			found = found || (!c.apart && c.count == n)
		}
		if !found {
			ck := fmt.Sprintf("%d|", n)
			cats[ck] = &category{key: ck, count: n, grids: map[string]bool{}}
		}
	}
	var main, apart []*category
	for _, c := range cats {
		if c.apart {
			apart = append(apart, c)
		} else {
			main = append(main, c)
		}
	}
	sort.Slice(main, func(i, j int) bool {
		if main[i].count != main[j].count {
			return main[i].count < main[j].count
		}
		return main[i].grid < main[j].grid
	})
	sort.Slice(apart, func(i, j int) bool {
		x, y := apart[i].pl, apart[j].pl
		if x.devices != y.devices {
			return x.devices < y.devices
		}
		if x.workers != y.workers {
			return x.workers < y.workers
		}
		return x.grid < y.grid
	})
	gridLabel := func(c *category) string {
		// The grid under the count: where grids differ at the count, or
		// where every case there has the one grid.
		if c.grid != "" {
			return "\n" + c.grid
		}
		if !anyGrid || len(c.grids) != 1 {
			return ""
		}
		for g := range c.grids {
			if g != "" {
				return "\n" + g
			}
		}
		return ""
	}
	add := func(c *category, label string) {
		a.add(c.key, label)
		for _, k := range c.places {
			a.pos[k] = a.pos[c.key]
		}
	}
	for _, c := range main {
		g := gridLabel(c)
		a.gridShown = a.gridShown || g != ""
		add(c, strconv.Itoa(c.count)+g)
	}
	if len(apart) > 0 && len(main) > 0 {
		a.sep = float64(len(main)) - 0.5
	}
	for _, c := range apart {
		pl := c.pl
		label := fmt.Sprintf("%d %s\non %s", pl.workers, pl.unit, plural(pl.devices, "GPU", "GPUs"))
		if pl.grid != "" {
			label += "\n" + pl.grid
		}
		add(c, label)
		a.apart = append(a.apart, c.places...)
	}
	// The paper's x values: at the first position of their count.
	for _, x := range refXs {
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			continue
		}
		for _, c := range main {
			if c.count == n {
				a.alias[x] = c.key
				break
			}
		}
	}
	return a
}

// scalingName names a scaling axis from the places on it.
func scalingName(a axis) string {
	var cpu, gpu bool
	for _, pl := range a.places {
		cpu = cpu || pl.cpu
		gpu = gpu || !pl.cpu
	}
	name := "GPUs"
	switch {
	case cpu && gpu:
		name = "GPUs (CPU series: ranks)"
	case cpu:
		name = "CPU ranks"
	}
	if a.gridShown {
		name += ", grid R×C under the count"
	}
	return name
}
