# bfsbench: `make demo` runs the default config, `make test` runs every test.
# Both install what they need first (scripts/install-deps.sh).

GO      ?= go
BIN     := bin
PLUGINS := $(notdir $(patsubst %/main.go,%,$(wildcard plugins/*/main.go)))

# MPI=1 builds plugins with the Open MPI binding (-tags mpi), MPI=0 without;
# the default uses MPI where mpicc is present.
MPI ?= $(if $(shell command -v mpicc 2>/dev/null),1,0)
ifeq ($(MPI),1)
GOTAGS      := -tags mpi
export CGO_CFLAGS  := $(shell mpicc --showme:compile 2>/dev/null)
export CGO_LDFLAGS := $(shell mpicc --showme:link 2>/dev/null)
endif

.PHONY: all build demo test test-go test-mpi deps cuda cuda-check bench-ci clean

all: build

## build: bin/bfsbench and one binary per plugin (no nvcc needed)
build:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/bfsbench ./harness/cmd/bfsbench
	@for p in $(PLUGINS); do echo "$(GO) build $(GOTAGS) -o $(BIN)/$$p ./plugins/$$p"; \
	  $(GO) build $(GOTAGS) -o $(BIN)/$$p ./plugins/$$p || exit 1; done

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
