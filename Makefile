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

.PHONY: all build demo test test-go test-fuzz deps bench-ci bench-ci-baseline figures stale clean

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

## test: everything CI runs: build, CUDA compile check, unit and MPI tests;
## then the list of stale figures (make stale), which never fails the test
test: deps
	@$(MAKE) --no-print-directory build cuda-check test-go
	@$(MAKE) --no-print-directory stale

## stale: list the figure folders (results/figures) whose results predate a
## change to the plugins they use (bfsbench stale; for reading: exit 0)
stale:
	@test -x $(BIN)/bfsbench || $(MAKE) --no-print-directory build
	@$(BIN)/bfsbench stale results/figures || true

test-go:
	$(GO) vet $(GOTAGS) ./...
	$(GO) test $(GOTAGS) -count=1 -timeout 40m ./...
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

## bench-ci: the regression gate. Builds the plugins of the merge base
## (BENCH_CI_BASE: the merge base with origin/main, or HEAD~1 on main itself)
## and of the working tree, runs the small config with both interleaved on
## this machine and compares them (docs/regression.md): exit 1 on a
## significant slow-down beyond BENCH_CI_THRESHOLD, 2 on a setup error.
## The table is also in $(BENCH_CI_OUT)/compare.txt.
BENCH_CI_CONFIG    ?= configs/bench-ci.toml
BENCH_CI_THRESHOLD ?= 5%
BENCH_CI_OUT       ?= results/ci-$(shell date +%Y%m%d-%H%M%S)
BENCH_CI_BASE      ?= $(shell b=$$(git merge-base HEAD origin/main 2>/dev/null); \
  if [ -n "$$b" ] && [ "$$b" != "$$(git rev-parse HEAD)" ]; then echo $$b; else echo HEAD~1; fi)
bench-ci: build
	$(BIN)/bfsbench ab $(BENCH_CI_BASE) $(BENCH_CI_CONFIG) --out $(BENCH_CI_OUT) --threshold $(BENCH_CI_THRESHOLD)

## bench-ci-baseline: record an absolute baseline of the config, for
## `bfsbench compare` on a dedicated machine that does not change
## (compare warns on its first line when the machines differ).
BENCH_CI_BASELINE ?= results/baseline/bench-ci-cpu.json
bench-ci-baseline: build
	$(BIN)/bfsbench run $(BENCH_CI_CONFIG) --out $(BENCH_CI_OUT)
	mkdir -p $(dir $(BENCH_CI_BASELINE)) && cp $(BENCH_CI_OUT)/results.json $(BENCH_CI_BASELINE)
