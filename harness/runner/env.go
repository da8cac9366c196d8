package runner

// env.go records what machine produced a run: host, CPU, GPUs, driver and
// CUDA versions (from nvidia-smi where present) and the git commit.

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/bfsbench/bfsbench/harness/results"
)

// DetectEnv describes this machine.
func DetectEnv() results.Env {
	e := results.Env{OS: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	e.Host, _ = os.Hostname()
	e.CPUModel = cpuModel()
	out := command("nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, ",")
		if len(f) == 2 {
			e.GPUModels = append(e.GPUModels, strings.TrimSpace(f[0]))
			e.DriverVersion = strings.TrimSpace(f[1])
		}
	}
	if len(e.GPUModels) > 0 {
		for _, line := range strings.Split(command("nvidia-smi"), "\n") {
			if i := strings.Index(line, "CUDA Version:"); i >= 0 {
				e.CUDAVersion = strings.Trim(strings.TrimSpace(line[i+len("CUDA Version:"):]), "| ")
				break
			}
		}
	}
	return e
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// command runs a short probe, returning "" if it is missing or fails.
func command(name string, args ...string) string {
	if _, err := exec.LookPath(name); err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// GitCommit is the commit the binary was built from (results.BuildCommit),
// else the commit of the current directory's checkout, else "".
func GitCommit() string {
	if rev := results.BuildCommit(); rev != "" {
		return rev
	}
	return strings.TrimSpace(command("git", "rev-parse", "HEAD"))
}
