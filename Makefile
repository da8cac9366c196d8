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

.PHONY: all build demo test test-go deps bench-ci bench-ci-baseline clean

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

## test: everything CI runs: build, CUDA compile check, unit and MPI tests
test: deps
	@$(MAKE) --no-print-directory build cuda-check test-go

test-go:
	$(GO) vet $(GOTAGS) ./...
	$(GO) test $(GOTAGS) -count=1 -timeout 40m ./...

-include mk/cuda.mk

clean:
	rm -rf $(BIN) lib

## bench-ci: run the small regression config and compare it with the
## committed baseline (exit 1 on a significant slow-down beyond 5%).
## Refresh the baseline on the runner's machine class with bench-ci-baseline.
BENCH_CI_CONFIG   ?= configs/bench-ci.toml
BENCH_CI_BASELINE ?= results/baseline/bench-ci-cpu.json
BENCH_CI_OUT      ?= results/ci-$(shell date +%Y%m%d-%H%M%S)
bench-ci: build
	$(BIN)/bfsbench run $(BENCH_CI_CONFIG) --out $(BENCH_CI_OUT)
	$(BIN)/bfsbench compare $(BENCH_CI_BASELINE) $(BENCH_CI_OUT)/results.json --threshold 5%

bench-ci-baseline: build
	$(BIN)/bfsbench run $(BENCH_CI_CONFIG) --out $(BENCH_CI_OUT)
	mkdir -p $(dir $(BENCH_CI_BASELINE)) && cp $(BENCH_CI_OUT)/results.json $(BENCH_CI_BASELINE)
