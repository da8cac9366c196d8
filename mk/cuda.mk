# mk/cuda.mk: `make cuda` builds each variant's CUDA kernels
# (plugins/<v>/cuda/*.cu, with the shared harness/cuda/src/*.cu) into one
# shared library per variant, lib/lib<v>.so, which the variant's Go binary
# loads at run time (harness/cuda). Included by the top-level Makefile;
# `make build` does not depend on it, so Go builds need no nvcc.
#
# Works with the nvcc of CUDA 11.8 (Debian's nvidia-cuda-toolkit) and with
# CUDA 13 (/usr/local/cuda on the GPU machines). Override on the command
# line, e.g. `make cuda NVCC=/opt/cuda/bin/nvcc CUDA_ARCH=80`.
#
# Targets:
#   cuda        build lib/lib<v>.so for every variant that has a cuda/ folder,
#               and bin/<name> for every scripts/<name>.cu
#   cuda-clean  remove them
#   cuda-info   print the nvcc, the flags and the libraries this would build

# nvcc: /usr/local/cuda's when present, else the one on PATH.
NVCC ?= $(firstword $(wildcard /usr/local/cuda/bin/nvcc) nvcc)
# Real architecture (machine code) to build for; PTX for the same virtual
# architecture is embedded too, so newer GPUs can JIT it.
CUDA_ARCH ?= 90
CUDA_LIB_DIR ?= lib
NVCC_OPT ?= -O3
NVCCFLAGS ?= $(NVCC_OPT) -std=c++17 -lineinfo
# Set CUDA_VERBOSE=1 for ptxas's register/shared-memory/spill report.
CUDA_VERBOSE ?=
CUDA_GENCODE = -gencode arch=compute_$(CUDA_ARCH),code=sm_$(CUDA_ARCH) \
               -gencode arch=compute_$(CUDA_ARCH),code=compute_$(CUDA_ARCH)
CUDA_ALLFLAGS = $(CUDA_GENCODE) $(NVCCFLAGS) $(if $(CUDA_VERBOSE),-Xptxas -v) \
                -Xcompiler -fPIC -shared -Iharness/cuda/include

CUDA_COMMON_SRC := $(sort $(wildcard harness/cuda/src/*.cu))
CUDA_COMMON_HDR := $(sort $(wildcard harness/cuda/include/*.cuh harness/cuda/include/*.h))
CUDA_VARIANTS := $(sort $(patsubst plugins/%/cuda/,%,$(dir $(wildcard plugins/*/cuda/*.cu))))
CUDA_LIBS := $(foreach v,$(CUDA_VARIANTS),$(CUDA_LIB_DIR)/lib$(v).so)

# Stand-alone CUDA measurement programs (scripts/<name>.cu, e.g. peer-idle),
# built into bin/<name> so that CI compiles them too.
CUDA_TOOLS := $(patsubst scripts/%.cu,bin/%,$(wildcard scripts/*.cu))

.PHONY: cuda cuda-clean cuda-info
cuda: $(CUDA_LIBS) $(CUDA_TOOLS)

bin/%: scripts/%.cu scripts/measure.cuh mk/cuda.mk
	@mkdir -p bin
	$(NVCC) $(CUDA_GENCODE) $(NVCCFLAGS) -o $@ $< $(CUDA_TOOL_FLAGS)

# level-launch launches kernels and graphs from the device (CUDA 12's
# dynamic parallelism): relocatable device code and the device runtime.
bin/level-launch: CUDA_TOOL_FLAGS = -rdc=true -lcudadevrt

# One rule per variant: its .cu files and the shared sources, compiled and
# linked in one nvcc call (no relocatable device code is needed).
define CUDA_VARIANT_RULE
$(CUDA_LIB_DIR)/lib$(1).so: $(sort $(wildcard plugins/$(1)/cuda/*.cu)) $(wildcard plugins/$(1)/cuda/*.h plugins/$(1)/cuda/*.cuh) $(CUDA_COMMON_SRC) $(CUDA_COMMON_HDR) mk/cuda.mk
	@mkdir -p $(CUDA_LIB_DIR)
	$(NVCC) $(CUDA_ALLFLAGS) -Iplugins/$(1)/cuda -o $$@ $(sort $(wildcard plugins/$(1)/cuda/*.cu)) $(CUDA_COMMON_SRC)
endef
$(foreach v,$(CUDA_VARIANTS),$(eval $(call CUDA_VARIANT_RULE,$(v))))

cuda-clean:
	rm -f $(CUDA_LIBS) $(CUDA_TOOLS)

cuda-info:
	@echo "NVCC=$(NVCC)"
	@$(NVCC) --version | tail -n 2
	@echo "flags: $(CUDA_ALLFLAGS)"
	@echo "libraries: $(CUDA_LIBS)"
	@echo "tools: $(CUDA_TOOLS)"

# cuda-check: what CI runs: every .cu file must compile (into the
# libraries), with whatever nvcc is installed (Debian's 11.8 in CI), and
# every kernel a variant launches must be in its library
# (scripts/check-kernels.sh, plugins/<v>/cuda/kernels.txt).
.PHONY: cuda-check
cuda-check:
	@command -v $(NVCC) >/dev/null 2>&1 || { echo "cuda-check: no nvcc ($(NVCC)); install nvidia-cuda-toolkit (scripts/install-deps.sh)" >&2; exit 1; }
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) cuda
	@scripts/check-kernels.sh $(CUDA_LIB_DIR)
