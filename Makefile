# bfsbench: `make demo` runs the default config, `make test` runs every test.
# Both install what they need first (scripts/install-deps.sh).

GO      ?= go
BIN     := bin
PLUGINS := $(notdir $(patsubst %/main.go,%,$(wildcard plugins/*/main.go)))

# -buildvcs=auto records the git commit in the binaries (results.json's
# git_commit) even where the environment's GOFLAGS turns it off.
GOBUILD := $(GO) build -buildvcs=auto

# MPI=1 builds plugins with the Open MPI binding (-tags mpi), MPI=0 without;
# the default uses MPI where mpicc is present.
MPI ?= $(if $(shell command -v mpicc 2>/dev/null),1,0)
ifeq ($(MPI),1)
GOTAGS      := -tags mpi
export CGO_CFLAGS  := $(shell mpicc --showme:compile 2>/dev/null)
export CGO_LDFLAGS := $(shell mpicc --showme:link 2>/dev/null)
endif

.PHONY: all build demo test test-go test-fuzz lint deps example bench-ci bench-ci-baseline bench-record bench-history figures results-table stale clean

all: build

## build: bin/bfsbench and one binary per plugin (no nvcc needed)
build:
	@mkdir -p $(BIN)
	$(GOBUILD) -o $(BIN)/bfsbench ./harness/cmd/bfsbench
	@for p in $(PLUGINS); do echo "$(GOBUILD) $(GOTAGS) -o $(BIN)/$$p ./plugins/$$p"; \
	  $(GOBUILD) $(GOTAGS) -o $(BIN)/$$p ./plugins/$$p || exit 1; done

## deps: install Open MPI and the CUDA toolkit (compile checks) where missing
deps:
	@scripts/install-deps.sh

## demo: run configs/quick.toml and print where the results are
demo: deps
	@$(MAKE) --no-print-directory build
	$(BIN)/bfsbench run configs/quick.toml

## test: everything CI runs: build, CUDA compile check, the workflows'
## lint, unit and MPI tests, the example variant built outside the main
## module and run; then the list of stale figures (make stale), which never
## fails the test
test: deps
	@$(MAKE) --no-print-directory build cuda-check lint test-go example
	@$(MAKE) --no-print-directory stale

## lint: actionlint on .github/workflows, pinned in go.mod as a Go tool
## (offline once the modules are downloaded). It runs shellcheck on the
## workflows' scripts where shellcheck is installed (GitHub's runners have
## it); .github/actionlint.yaml declares the GPU runner's label.
lint:
	$(GO) tool actionlint

## example: examples/hello, a variant in a module of its own as an author
## outside the repository writes one (its go.mod reaches the harness
## through a replace; no network once the modules are cached): tidy, built,
## vetted and its conformance tests run there, then run at scale 10 beside
## reference by bin/bfsbench, every search validated (exit 1 on any invalid
## search or failed case).
EXAMPLE := examples/hello
example: build
	cd $(EXAMPLE) && $(GO) mod tidy -diff && $(GO) build -mod=mod -o bin/hello . && \
	  $(GO) vet -mod=mod . && $(GO) test -mod=mod -count=1 .
	@out=$$(mktemp -d) && echo "BFSBENCH_PLUGIN_DIR=$(EXAMPLE)/bin $(BIN)/bfsbench run $(EXAMPLE)/hello.toml --out $$out/run" && \
	  BFSBENCH_PLUGIN_DIR=$(EXAMPLE)/bin $(BIN)/bfsbench run $(EXAMPLE)/hello.toml --out $$out/run; rc=$$?; rm -rf $$out; exit $$rc

## stale: list the figure folders (results/figures) and the headline rows
## (results/headline.toml) whose results predate a change to the plugins
## they use (bfsbench stale; for reading: exit 0)
stale:
	@test -x $(BIN)/bfsbench || $(MAKE) --no-print-directory build
	@$(BIN)/bfsbench stale --headline results/headline.toml results/figures || true

## test-go: vet and every package's tests; the timed ones (TIMED_PKGS) run
## alone after the rest. harness/ab's gate test measures a commit that
## makes diropt 10 % slower against its parent and must see more than the
## gate's 5 % threshold: beside the other packages' tests on two cores it
## once saw less, and alone it passes.
TIMED_PKGS := github.com/bfsbench/bfsbench/harness/ab
test-go:
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run 'go mod tidy' and commit the result" >&2; exit 1; }
	$(GO) vet $(GOTAGS) ./...
	@pkgs=$$($(GO) list $(GOTAGS) ./...) && pkgs=$$(printf '%s\n' $$pkgs | grep -vxF $(foreach p,$(TIMED_PKGS),-e $(p))) && \
	  [ -n "$$pkgs" ] || { echo "test-go: go list failed or found no packages to test" >&2; exit 1; }; \
	  echo "$(GO) test $(GOTAGS) -count=1 -timeout 40m ./... (without $(TIMED_PKGS))" && \
	  $(GO) test $(GOTAGS) -count=1 -timeout 40m $$pkgs
	$(GO) test $(GOTAGS) -count=1 -timeout 20m $(TIMED_PKGS)
	@$(MAKE) --no-print-directory test-fuzz

## test-fuzz: run each fuzz target for FUZZTIME (scripts/fuzz.sh; the
## committed corpus under testdata/fuzz runs as plain tests in test-go too)
FUZZTIME ?= 8s
FUZZ_TARGETS := harness/graphio:FuzzReadSNAP harness/graphio:FuzzReadMatrixMarket \
	harness/graphio:FuzzReadParents harness/graphio:FuzzReadEdgesBinary harness/config:FuzzParse \
	harness/vlq:FuzzVLQ
test-fuzz:
	@GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh $(FUZZ_TARGETS)

-include mk/cuda.mk

## figures: run the figure configs (configs/figures) that fit this machine:
## CPU-only ones everywhere, CUDA ones where nvidia-smi finds a GPU (and
## enough of them for a config marked "# gpus: N"); each draws its
## figure-<name>.png and .svg into $(FIGURES_OUT)/<name>/ (scripts/figures.sh).
FIGURES_OUT ?= results/figures-$(shell date +%Y%m%d-%H%M%S)
figures: build
	scripts/figures.sh $(FIGURES_OUT)

clean:
	rm -rf $(BIN) lib

## results-table: rewrite results/README.md's headline table from the
## committed results files results/headline.toml names (a test fails when
## the committed table differs from them).
results-table: build
	$(BIN)/bfsbench results-table results

## bench-ci: the regression gate. Builds the plugins of the merge base
## (BENCH_CI_BASE: the merge base with origin/main, or HEAD~1 on main itself)
## and of the working tree, runs the small config (every plugin's CPU
## backend) with both interleaved on this machine, BENCH_CI_ROUNDS rounds,
## and compares them (docs/regression.md): exit 1 on a significant
## slow-down beyond BENCH_CI_THRESHOLD, 2 on a setup error. The table is
## also in $(BENCH_CI_OUT)/compare.txt. harness/ab's gate test reads the
## rounds and the threshold from here.
BENCH_CI_CONFIG    ?= configs/bench-ci.toml
BENCH_CI_THRESHOLD ?= 5%
BENCH_CI_ROUNDS    ?= 16
BENCH_CI_OUT       ?= results/ci-$(shell date +%Y%m%d-%H%M%S)
BENCH_CI_BASE      ?= $(shell b=$$(git merge-base HEAD origin/main 2>/dev/null); \
  if [ -n "$$b" ] && [ "$$b" != "$$(git rev-parse HEAD)" ]; then echo $$b; else echo HEAD~1; fi)
bench-ci: build
	$(BIN)/bfsbench ab $(BENCH_CI_BASE) $(BENCH_CI_CONFIG) --out $(BENCH_CI_OUT) --threshold $(BENCH_CI_THRESHOLD) --rounds $(BENCH_CI_ROUNDS)

## bench-record: keep this commit's figures. Runs BENCH_RECORD_CONFIG
## (default: the gate's) with the plugins of the working tree, which must
## be clean (a note describes a commit), and appends its bench.txt to HEAD's
## git note under refs/notes/$(BENCH_NOTES); recording a commit again adds
## its searches. bench-history reads the notes back as series
## (bfsbench history, golang.org/x/perf/benchseries: docs/regression.md).
BENCH_NOTES         ?= bfsbench
BENCH_RECORD_CONFIG ?= $(BENCH_CI_CONFIG)
BENCH_RECORD_OUT    ?= results/record-$(shell date +%Y%m%d-%H%M%S)
BENCH_HISTORY_OUT   ?= results/history-$(shell date +%Y%m%d-%H%M%S)
bench-record: build
	@git diff --quiet HEAD -- || { echo "bench-record: the working tree has uncommitted changes; commit them first: a note describes a commit" >&2; exit 2; }
	$(BIN)/bfsbench run $(BENCH_RECORD_CONFIG) --out $(BENCH_RECORD_OUT)
	git notes --ref=$(BENCH_NOTES) append -F $(BENCH_RECORD_OUT)/bench.txt HEAD

## bench-history: the series of the recorded commits: changes, where each
## case stands against the first, benchseries' CSV and chart per machine.
bench-history: build
	$(BIN)/bfsbench history --notes $(BENCH_NOTES) --out $(BENCH_HISTORY_OUT)

## bench-ci-baseline: record an absolute baseline of the config, for
## `bfsbench compare` on a dedicated machine that does not change
## (compare warns on its first line when the machines differ). It is kept
## gzipped, as every committed results file (the harness reads .json.gz).
BENCH_CI_BASELINE ?= results/baseline/bench-ci-cpu.json.gz
bench-ci-baseline: build
	$(BIN)/bfsbench run $(BENCH_CI_CONFIG) --out $(BENCH_CI_OUT)
	mkdir -p $(dir $(BENCH_CI_BASELINE)) && gzip -9 -c $(BENCH_CI_OUT)/results.json >$(BENCH_CI_BASELINE)
