// This file computes a figure's y quantity for one case, with its spread
// over the searches, whole searches or per BFS level (valid searches only):
//   - gteps (and speedup): the harmonic mean of the searches' TEPS
//     (Graph500's mean);
//   - time, transfer: the median search time, or median copy of the parents
//     to the host; per level, the mean over the searches reaching the level
//     of the sum of the level's phase times;
//   - phase:<items>: each item's phases summed over the levels, averaged
//     over the searches (Bisson et al.'s Fig. 7 way); per level, its mean;
//   - bytes:<items>, edges_examined: the counters summed over the levels,
//     averaged over the searches (per rank with per_rank); per level,
//     their mean;
//   - phases, bytes (kind stacked): every phase, or every byte counter;
//   - levels: the median of the searches' levels (iterations);
//   - info:<key>: a number of the case's info, one a case (no spread);
//     a key ending in _s is seconds, in _ms milliseconds (drawn as times);
//   - "a + b": a sum of times (time, transfer, phase:<item>, info:<key>),
//     each term's value and quartiles added.
//
// The spread of every value is the interquartile range of the per-search
// values (the first and third quartile), drawn as error bars.

package report

import (
	"math"
	"sort"
	"strings"

	"github.com/bfsbench/bfsbench/harness/config"
	"github.com/bfsbench/bfsbench/harness/results"
)

// stat is a value and its spread over the searches.
type stat struct {
	V      float64 // the value drawn (see the file comment)
	Lo, Hi float64 // first and third quartile of the per-search values
	N      int     // searches the value is over
}

// quantity is what a figure's y measures.
type quantity struct {
	kind    string         // gteps, speedup, time, transfer, phase, bytes, phases (every phase), counters (every byte counter), levels, info, sum
	items   []config.YItem // phase and bytes: the items, each a sum
	perRank bool           // bytes divided by the case's ranks
	key     string         // info: the key
	terms   []quantity     // sum: the terms
	name    string         // sum: y as the config gives it
}

// Quantity kinds.
const (
	qGTEPS    = "gteps"
	qSpeedup  = "speedup"
	qTime     = "time"
	qTransfer = "transfer"
	qPhase    = "phase"
	qBytes    = "bytes"
	qPhases   = "phases"
	qCounters = "counters"
	qLevels   = "levels"
	qInfo     = "info"
	qSum      = "sum"
)

// countCounters are the counters the variants report beside their byte
// counters that count edges or levels, not bytes: a stack of "bytes"
// leaves them out.
var countCounters = map[string]bool{"edges_examined": true, "frontier_edges": true, "edges": true, "levels": true}

// newQuantity parses y (as config checked it).
func newQuantity(y string, perRank bool) quantity {
	q := quantity{perRank: perRank}
	if strings.Contains(y, config.SumSep) {
		q.kind, q.name = qSum, y
		for _, t := range config.SumTerms(y) {
			q.terms = append(q.terms, newQuantity(t, perRank))
		}
		return q
	}
	if k, ok := config.InfoY(y); ok {
		q.kind, q.key = qInfo, k
		return q
	}
	switch {
	case y == "phases":
		q.kind = qPhases
	case y == "bytes":
		q.kind = qCounters
	case y == "edges_examined":
		q.kind, q.items = qBytes, []config.YItem{{Label: "edges_examined", Names: []string{"edges_examined"}}}
	case strings.HasPrefix(y, "phase:"):
		q.kind = qPhase
		q.items, _ = config.YItems(strings.TrimPrefix(y, "phase:"))
	case strings.HasPrefix(y, "bytes:"):
		q.kind = qBytes
		q.items, _ = config.YItems(strings.TrimPrefix(y, "bytes:"))
	default:
		q.kind = y
	}
	return q
}

// multi reports whether the quantity has several components (series of
// their own, or a stack), named by their labels; a single one is "".
func (q quantity) multi() bool {
	return q.kind == qPhases || q.kind == qCounters || len(q.items) > 1
}

// label is an item's component name: "" for a single quantity.
func (q quantity) label(it config.YItem) string {
	if q.multi() {
		return it.Label
	}
	return ""
}

// whole is the quantity over whole searches of c: one stat per component
// (nil where c has none of it).
func (q quantity) whole(c *results.Case) map[string]stat {
	valid := validSearches(c)
	per := map[string][]float64{}
	switch q.kind {
	case qGTEPS, qSpeedup:
		per[""] = validTEPS(c)
	case qTime:
		for _, s := range valid {
			per[""] = append(per[""], s.TimeS)
		}
	case qTransfer:
		for _, s := range valid {
			per[""] = append(per[""], s.TransferTimeS)
		}
	case qLevels:
		for _, s := range valid {
			per[""] = append(per[""], float64(s.Levels))
		}
	case qInfo:
		v, ok := q.infoValue(c)
		if !ok || len(valid) == 0 {
			return nil
		}
		return map[string]stat{"": {V: v, Lo: v, Hi: v, N: 1}}
	case qSum:
		var sum stat
		for i, t := range q.terms {
			st, ok := t.whole(c)[""]
			if !ok {
				return nil
			}
			if i == 0 || st.N < sum.N {
				sum.N = st.N
			}
			sum.V, sum.Lo, sum.Hi = sum.V+st.V, sum.Lo+st.Lo, sum.Hi+st.Hi
		}
		return map[string]stat{"": sum}
	default:
		for _, s := range valid {
			for k, v := range q.searchSums(s, c.Ranks) {
				per[k] = append(per[k], v)
			}
		}
	}
	out := map[string]stat{}
	for k, vs := range per {
		if len(vs) > 0 {
			out[k] = q.statOf(vs)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// infoValue is the number c's info holds under q.key, in seconds for a
// key ending in _ms; false where it has none.
func (q quantity) infoValue(c *results.Case) (float64, bool) {
	var v float64
	switch x := c.Info[q.key].(type) {
	case float64:
		v = x
	case int64:
		v = float64(x)
	case int:
		v = float64(x)
	default:
		return 0, false
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if strings.HasSuffix(q.key, "_ms") {
		v /= 1e3
	}
	return v, true
}

// isTime reports whether the quantity is a time in seconds.
func (q quantity) isTime() bool {
	switch q.kind {
	case qTime, qTransfer, qPhase, qPhases, qSum:
		return true
	case qInfo:
		return strings.HasSuffix(q.key, "_s") || strings.HasSuffix(q.key, "_ms")
	}
	return false
}

// title names a single quantity of a whole search in a label or a table
// header: "levels", "parents copy", "scan+dense", "upload_s", and a sum's
// terms joined by " + ".
func (q quantity) title() string {
	switch q.kind {
	case qGTEPS:
		return "TEPS"
	case qTime:
		return "search time"
	case qTransfer:
		return "parents copy"
	case qLevels:
		return "levels"
	case qInfo:
		return q.key
	case qSum:
		var ts []string
		for _, t := range q.terms {
			ts = append(ts, t.title())
		}
		return strings.Join(ts, " + ")
	case qPhase, qBytes:
		if len(q.items) == 1 {
			return q.items[0].Label
		}
	}
	return q.kind
}

// searchSums is, for one search, each component summed over the levels;
// a component none of whose phases or counters the search reports is
// left out.
func (q quantity) searchSums(s results.Search, ranks int) map[string]float64 {
	out := map[string]float64{}
	for _, lp := range s.Phases {
		for k, v := range q.levelValues(lp, ranks) {
			out[k] += v
		}
	}
	return out
}

// levelValues is each component at one level entry of a search.
func (q quantity) levelValues(lp results.LevelPhase, ranks int) map[string]float64 {
	out := map[string]float64{}
	div := 1.0
	if q.perRank && ranks > 0 {
		div = float64(ranks)
	}
	switch q.kind {
	case qTime:
		if len(lp.Times) > 0 {
			t := 0.0
			for _, v := range lp.Times {
				t += v
			}
			out[""] = t
		}
	case qPhases:
		for k, v := range lp.Times {
			out[k] = v
		}
	case qCounters:
		for k, v := range lp.Bytes {
			if !countCounters[k] {
				out[k] = float64(v) / div
			}
		}
	case qPhase, qBytes:
		for _, it := range q.items {
			sum, has := 0.0, false
			for _, n := range it.Names {
				if q.kind == qPhase {
					if v, ok := lp.Times[n]; ok {
						sum, has = sum+v, true
					}
				} else if v, ok := lp.Bytes[n]; ok {
					sum, has = sum+float64(v)/div, true
				}
			}
			if has {
				out[q.label(it)] = sum
			}
		}
	}
	return out
}

// perLevel is the quantity at each BFS level of c: per level and
// component, over the searches reaching the level that report it.
func (q quantity) perLevel(c *results.Case) map[int]map[string]stat {
	vals := map[int]map[string][]float64{}
	for _, s := range validSearches(c) {
		for _, lp := range s.Phases {
			for k, v := range q.levelValues(lp, c.Ranks) {
				if vals[lp.Level] == nil {
					vals[lp.Level] = map[string][]float64{}
				}
				vals[lp.Level][k] = append(vals[lp.Level][k], v)
			}
		}
	}
	out := map[int]map[string]stat{}
	for lvl, m := range vals {
		out[lvl] = map[string]stat{}
		for k, vs := range m {
			st := quartiles(vs)
			st.V = mean(vs)
			out[lvl][k] = st
		}
	}
	return out
}

// statOf summarises per-search values: the harmonic mean of TEPS, the
// median of times, the mean of sums over levels; the quartiles always.
func (q quantity) statOf(vs []float64) stat {
	st := quartiles(vs)
	switch q.kind {
	case qGTEPS, qSpeedup:
		st.V = harmonicMean(vs)
	case qTime, qTransfer, qLevels:
		st.V = median(vs)
	default:
		st.V = mean(vs)
	}
	return st
}

// statName says what a value is, for a caption.
func (q quantity) statName(perLevel bool) string {
	switch {
	case q.kind == qGTEPS || q.kind == qSpeedup:
		return "harmonic mean"
	case perLevel:
		return "mean of the searches reaching the level"
	case q.kind == qTime || q.kind == qTransfer || q.kind == qLevels:
		return "median"
	case q.kind == qInfo:
		return "one value a case"
	case q.kind == qSum:
		return "sum of the terms' values"
	}
	return "mean"
}

// quartiles is the first and third quartile of vs (linear interpolation
// between order statistics) and their number.
func quartiles(vs []float64) stat {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	return stat{Lo: quantile(s, 0.25), Hi: quantile(s, 0.75), N: len(s)}
}

// quantile of sorted s at p in [0, 1]; NaN for no values.
func quantile(s []float64, p float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	h := p * float64(len(s)-1)
	i := int(math.Floor(h))
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}

func mean(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	t := 0.0
	for _, v := range vs {
		t += v
	}
	return t / float64(len(vs))
}
