// Package results defines results.json, the record of a bfsbench run: one
// Run holding the environment and every Case (variant × sweep point ×
// workload), each with one Search per timed BFS. The report package reads
// it back to draw plots and compare runs.
package results

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Case statuses.
const (
	StatusOK      = "ok"      // every validated search was valid
	StatusInvalid = "invalid" // at least one search failed validation
	StatusFailed  = "failed"  // the plugin returned an error or crashed
	StatusTimeout = "timeout" // the plugin exceeded the case's timeout
	StatusSkipped = "skipped" // not run (e.g. interrupted before it began)
)

// FormatVersion is the version of the results.json format this package
// writes and the newest it reads. Raise it when a change would make an
// older bfsbench misread a file (a field whose meaning changes, not one
// added).
const FormatVersion = 1

// Run is the whole results.json file.
type Run struct {
	// Format is the file's FormatVersion; 0 in files from before it was
	// recorded, which read as version 1.
	Format      int    `json:"format_version"`
	Config      string `json:"config"`       // the config file's text
	ConfigPath  string `json:"config_path"`  // as given on the command line, relative to the working directory where it lies under it
	CommandLine string `json:"command_line"` // os.Args joined, paths under the working directory relative to it
	GitCommit   string `json:"git_commit,omitempty"`
	Started     string `json:"started"` // RFC 3339
	Finished    string `json:"finished,omitempty"`
	Env         Env    `json:"env"`
	// Warnings are what the harness noticed that can affect the figures
	// or the run: another run holding this machine, a device check it
	// could not make, results it could not save.
	Warnings []string `json:"warnings,omitempty"`
	Cases    []*Case  `json:"cases"`
	// OutDir is the folder the run wrote (not part of the file).
	OutDir string `json:"-"`
}

// Env describes the machine that produced a run.
type Env struct {
	Host          string   `json:"host"`
	OS            string   `json:"os"`
	CPUModel      string   `json:"cpu_model"`
	CPUs          int      `json:"cpus"`
	GoVersion     string   `json:"go_version"`
	GPUModels     []string `json:"gpu_models,omitempty"`
	DriverVersion string   `json:"driver_version,omitempty"`
	CUDAVersion   string   `json:"cuda_version,omitempty"`
}

// Describe names the machine in one line: CPU, GPUs and driver.
func (e Env) Describe() string {
	if e.CPUModel == "" && e.CPUs == 0 && len(e.GPUModels) == 0 {
		return "machine not recorded"
	}
	s := fmt.Sprintf("%s, %d CPUs", e.CPUModel, e.CPUs)
	if len(e.GPUModels) > 0 {
		s += fmt.Sprintf(", GPU %v, driver %s", e.GPUModels, e.DriverVersion)
	}
	return s
}

// Graph identifies the workload a case ran on.
type Graph struct {
	Scale       int       `json:"scale"`
	EdgeFactor  int       `json:"edgefactor"`
	Seed        [2]uint64 `json:"seed"`
	File        string    `json:"file,omitempty"`
	NVertices   int64     `json:"nvertices"`
	NEdges      int64     `json:"nedges"`      // input tuples, self-loops and duplicates included
	Fingerprint string    `json:"fingerprint"` // hash of the edge list, see workload.Fingerprint
}

// Label is a short human name for the workload, e.g. "scale 20 ef 16".
func (g Graph) Label() string {
	if g.File != "" {
		return filepath.Base(g.File)
	}
	return fmt.Sprintf("scale %d ef %d", g.Scale, g.EdgeFactor)
}

// ID identifies the graph itself: a Kronecker graph by its scale, edge
// factor and seed, which fix its edges; a graph file by its base name and
// by the vertices, edges and fingerprint of what was read from it, since
// two files of one name (scale 10 and scale 13, both graph.txt) are
// different graphs.
func (g Graph) ID() string {
	id := fmt.Sprintf("%s/seed=%d,%d", g.Label(), g.Seed[0], g.Seed[1])
	if g.File != "" {
		id += fmt.Sprintf("/n=%d/m=%d/%s", g.NVertices, g.NEdges, g.Fingerprint)
	}
	return id
}

// Differs says how the edge lists of g and o differ (fingerprint, vertex
// or edge count), "" when they are the same graph as far as both record
// it: a field either one left empty (files from before it) is not
// compared.
func (g Graph) Differs(o Graph) string {
	var d []string
	if g.Fingerprint != "" && o.Fingerprint != "" && g.Fingerprint != o.Fingerprint {
		d = append(d, fmt.Sprintf("fingerprint %s vs %s", g.Fingerprint, o.Fingerprint))
	}
	if g.NVertices > 0 && o.NVertices > 0 && g.NVertices != o.NVertices {
		d = append(d, fmt.Sprintf("%d vs %d vertices", g.NVertices, o.NVertices))
	}
	if g.NEdges > 0 && o.NEdges > 0 && g.NEdges != o.NEdges {
		d = append(d, fmt.Sprintf("%d vs %d edges", g.NEdges, o.NEdges))
	}
	return strings.Join(d, ", ")
}

// Case is one variant at one sweep point on one workload.
type Case struct {
	Variant string `json:"variant"` // the config's name for it
	Plugin  string `json:"plugin"`  // the plugin binary's file name
	// Binary is the plugin binary that ran the case: its path, hash and
	// build (module version, VCS revision).
	Binary   *Binary        `json:"plugin_binary,omitempty"`
	Backend  string         `json:"backend"` // "cpu" or "cuda"
	Params   map[string]any `json:"params"`  // every declared parameter, defaults filled in
	Ranks    int            `json:"ranks"`
	Grid     [2]int         `json:"grid,omitempty"`
	Launcher string         `json:"launcher"` // "embedded" or "mpirun"
	GPUs     int            `json:"gpus"`     // distinct devices used; 0 for CPU backends
	Devices  []string       `json:"devices,omitempty"`
	Status   string         `json:"status"`
	Error    string         `json:"error,omitempty"`
	// Cause is, for a failed case, what the harness found the failure came
	// from (a signal, memory, mpirun's slots) and the fix where one is
	// known; the plugin's own words are in Error and in logs/.
	Cause             string   `json:"cause,omitempty"`
	Graph             Graph    `json:"graph"`
	GenerationTimeS   float64  `json:"generation_time_s"` // the harness's generation or load of the edge list
	ConstructionTimeS float64  `json:"construction_time_s"`
	BFS               []Search `json:"bfs"`
	// Validate is the case's validation policy: "all", or "first N" when
	// only the first N searches were validated (config validate = N).
	Validate string `json:"validate,omitempty"`
	// Validated counts the searches the harness validated, warm-up
	// excluded; a case with Validated < len(BFS) was partly validated.
	Validated int    `json:"validated"`
	Stats     *Stats `json:"stats,omitempty"` // over validated, valid searches only
	// StatsAll covers every search that was not found invalid, validated
	// or not; only written for a partly validated case.
	StatsAll *Stats `json:"stats_all,omitempty"`
	// BandwidthGBs is the device copy bandwidth the variant measured, and
	// PercentOfBound the share of it the valid searches reached: the sum
	// of their BoundBytes over BandwidthGBs, over the sum of their times.
	BandwidthGBs   float64 `json:"bandwidth_gbs,omitempty"`
	PercentOfBound float64 `json:"percent_of_bound,omitempty"`
	// FloorTimeS is the variant's measured floor (seconds per search:
	// the least work its algorithm must do, timed on the device), and
	// PercentOfFloor the floor over the median validated search time.
	FloorTimeS     float64        `json:"floor_time_s,omitempty"`
	PercentOfFloor float64        `json:"percent_of_floor,omitempty"`
	Info           map[string]any `json:"info,omitempty"` // plugin-reported facts (bytes per BFS, ...)

	// NameParams are the parameters that name the case in benchmark
	// names, progress lines and tables: the swept ones and those that
	// differ from the case's preset (config.Variant.NameParams). Empty
	// when the case runs its preset as it is; null in files written
	// before it was recorded, where every parameter names the case.
	NameParams []string `json:"name_params"`
}

// Search is one timed BFS.
//
// Validated says whether the harness validated it; Valid, whether it
// passed, and it is meaningful only when Validated (in JSON, "valid" is
// left out for a search that was not validated). NEdge, the TEPS edge
// count, is the harness's own count for the root's component whether the
// search was validated or not, so TEPS is known for every search; tables,
// statistics and comparisons use validated, valid searches only unless
// they say otherwise.
type Search struct {
	Root          int64        `json:"root"`
	TimeS         float64      `json:"time_s"`
	TransferTimeS float64      `json:"transfer_time_s"` // copying parents to the host, not in TimeS
	ValidateTimeS float64      `json:"validate_time_s"`
	NEdge         int64        `json:"nedge"`          // Graph500 v3 count
	TEPS          float64      `json:"teps,omitempty"` // unless found invalid
	Validated     bool         `json:"validated"`
	Valid         bool         `json:"valid"`
	Error         string       `json:"error,omitempty"` // the validator's message when invalid
	Levels        int          `json:"levels"`
	Phases        []LevelPhase `json:"phases,omitempty"`
	BoundBytes    int64        `json:"bound_bytes,omitempty"` // bytes the search must move, by the variant's count
}

// LevelPhase holds the time of each phase of one BFS level (seconds) and
// the bytes the phase moved, as the plugin reports them.
type LevelPhase struct {
	Level    int                `json:"level"`
	Frontier int64              `json:"frontier,omitempty"`
	Times    map[string]float64 `json:"times,omitempty"`
	Bytes    map[string]int64   `json:"bytes,omitempty"`
}

// Stats are the reference v3 get_statistics figures over the valid searches.
type Stats struct {
	N    int     `json:"n"`
	Time Summary `json:"time"`
	TEPS Summary `json:"teps"`
	// HarmonicMeanTEPS and HarmonicStdDevTEPS as the reference v3 prints them.
	HarmonicMeanTEPS   float64 `json:"harmonic_mean_teps"`
	HarmonicStdDevTEPS float64 `json:"harmonic_stddev_teps"`
	NEdge              Summary `json:"nedge"`
	Validate           Summary `json:"validate"`
}

// Summary is the five-number summary plus mean and standard deviation.
type Summary struct {
	Min           float64 `json:"min"`
	FirstQuartile float64 `json:"firstquartile"`
	Median        float64 `json:"median"`
	ThirdQuartile float64 `json:"thirdquartile"`
	Max           float64 `json:"max"`
	Mean          float64 `json:"mean"`
	StdDev        float64 `json:"stddev"`
}

// NamedParams are the parameters that name c, sorted: NameParams, or
// every parameter for a case recorded without it.
func (c *Case) NamedParams() []string {
	if c.NameParams != nil {
		return c.NameParams
	}
	return slices.Sorted(maps.Keys(c.Params))
}

// Key identifies a case across runs: variant, backend, parameters, ranks
// and graph (Graph.ID: a graph file by its contents as well as its name).
// compare matches cases by it.
func (c *Case) Key() string {
	p, _ := json.Marshal(c.Params) // map keys are sorted by encoding/json
	return fmt.Sprintf("%s/%s/%s/ranks=%d/grid=%dx%d/%s/%s",
		c.Variant, c.Backend, p, c.Ranks, c.Grid[0], c.Grid[1], c.Launcher, c.Graph.ID())
}

// SlotKey is Key without the parameters: the same variant, backend, ranks,
// grid, launcher and graph. Two runs' cases with one SlotKey but different
// Keys are the same case measured with changed parameters.
func (c *Case) SlotKey() string {
	return fmt.Sprintf("%s/%s/ranks=%d/grid=%dx%d/%s/%s",
		c.Variant, c.Backend, c.Ranks, c.Grid[0], c.Grid[1], c.Launcher, c.Graph.ID())
}

// NameKey is Key with the graph named only as Graph.Label does (a file by
// its base name): two runs' cases with one NameKey but different Keys ran
// on different graphs of one name.
func (c *Case) NameKey() string {
	p, _ := json.Marshal(c.Params)
	return fmt.Sprintf("%s/%s/%s/ranks=%d/grid=%dx%d/%s/%s/seed=%d,%d",
		c.Variant, c.Backend, p, c.Ranks, c.Grid[0], c.Grid[1], c.Launcher, c.Graph.Label(), c.Graph.Seed[0], c.Graph.Seed[1])
}

// PercentOfBound is the share of the memory-bandwidth bound that the valid
// searches reached: the sum of their BoundBytes over the bandwidth (GB/s of
// one device, bytes read + written, times the devices used), over the sum
// of their times. It is 0 without a bandwidth or when a valid search has no
// byte count, so a variant that does not count its bytes gets no figure.
func PercentOfBound(searches []Search, bwGBs float64, devices int) float64 {
	if bwGBs <= 0 {
		return 0
	}
	var bytes, secs float64
	for _, s := range searches {
		if !s.Valid {
			continue
		}
		if s.BoundBytes <= 0 {
			return 0
		}
		bytes += float64(s.BoundBytes)
		secs += s.TimeS
	}
	if secs <= 0 {
		return 0
	}
	return 100 * bytes / (bwGBs * 1e9 * float64(max(1, devices))) / secs
}

// Load reads a results.json file; for a run that did not finish (it was
// killed), the searches its journal holds (JournalPath) are merged in.
func Load(path string) (*Run, error) {
	b, err := readMaybeGzip(path)
	if err != nil {
		return nil, err
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Format > FormatVersion {
		return nil, fmt.Errorf("%s: results format %d, newer than the %d this bfsbench reads: use a newer bfsbench", path, r.Format, FormatVersion)
	}
	if r.Finished == "" {
		// A run that did not finish: its case in progress may have
		// finished searches in the journal.
		if err := mergeJournal(&r, path); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	for _, c := range r.Cases {
		if c == nil {
			continue
		}
		// Derived from the searches: files from before the field have none.
		c.Validated = 0
		for _, s := range c.BFS {
			if s.Validated {
				c.Validated++
			}
		}
		if c.Validate == "" && c.Validated == len(c.BFS) {
			c.Validate = "all"
		}
	}
	return &r, nil
}

// Save writes r to path atomically (temporary file, fsync, rename), so a
// reader or an interrupted run never sees a half-written file; it sets
// r.Format to FormatVersion.
func (r *Run) Save(path string) error {
	r.Format = FormatVersion
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// WriteFileAtomic writes data to a temporary file beside path, syncs it and
// renames it over path.
func WriteFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// ValidLabel says how many searches were valid out of how many the harness
// validated, and of how many searches when it validated only some:
// "16/16" (every search validated), "2/2 of 16" (the first 2 validated).
func (c *Case) ValidLabel() string {
	valid, validated := 0, 0
	for _, s := range c.BFS {
		if s.Validated || s.Valid {
			validated++
			if s.Valid {
				valid++
			}
		}
	}
	if validated == len(c.BFS) {
		return fmt.Sprintf("%d/%d", valid, validated)
	}
	return fmt.Sprintf("%d/%d of %d", valid, validated, len(c.BFS))
}

// readMaybeGzip reads path, gunzipping it when its name ends in ".gz" (a
// committed results file is kept compressed: results.json.gz).
func readMaybeGzip(path string) ([]byte, error) {
	if !strings.HasSuffix(path, ".gz") {
		return os.ReadFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}
