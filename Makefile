# crk — Candle-compatible ROCm kernels.
#   make                 toolchain, generator, code objects for ARCHS, NVIDIA build, libcrk, crk CLI
#   make check           every test that this machine can run (GPU tests skip without a GPU)
#   make bench           bandwidth benchmark on the GPU present
#   make ARCHS="gfx90a gfx1100" COV=4|5|6    choose targets / code-object version (of the
#                        exact targets; *-generic ones are always v6)
SHELL := bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

# Exact targets, then generic ones (code object v6, ROCm >= 6.4 at run time)
# for the chips of a family no exact object covers: gfx906/gfx900 (gfx9),
# RX 5000 (gfx10-1), RX 6000 and APUs (gfx10-3), 780M and Strix (gfx11).
# gfx12-generic covers only gfx1200/gfx1201, shipped exactly.
ARCHS ?= gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 gfx1101 gfx1102 gfx1151 gfx1200 gfx1201 \
  gfx9-generic gfx10-1-generic gfx10-3-generic gfx11-generic
NV_ARCHS ?= 80 90
COV ?= 5
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

# Every external command and the package it comes from (CLANG, BUNDLER, CC, AR...).
include mk/tools.mk
TOOLS := .toolchain
TOOLSTAMP := $(TOOLS)/.stamp
HIPROOT := $(TOOLS)/root
DEVLIBS := $(HIPROOT)/usr/lib/llvm-21/lib/clang/21/amdgcn/bitcode
# Optional: the NVIDIA build is skipped without it (the build summary says so).
NVCC ?= $(firstword $(shell command -v nvcc 2>/dev/null) $(wildcard /usr/local/cuda/bin/nvcc))

CFLAGS ?= -O2 -g
WARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-format-truncation
CPPFLAGS := -Iinclude -Iloader -D_GNU_SOURCE

# --------------------------------------------------------------- generator
GEN := build/crk-gen
GEN_SRCS := $(wildcard gen/*.c)
$(GEN): $(GEN_SRCS) $(wildcard gen/*.h) include/crk.h loader/fnv1a.h | $(TOOLSTAMP)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $(GEN_SRCS) -o $@

# Module names come from the op table (restarts make once when it changes).
build/gen/modules.mk: $(GEN)
	@mkdir -p $(@D)
	$(Q)echo "MODULES := $$($(GEN) modules | tr '\n' ' ')" > $@
include build/gen/modules.mk

# Outputs are replaced only when their text changes, so that a generator
# rebuild does not recompile every code object.
build/gen/stamp: $(GEN)
	@echo "  GEN   kernel sources, registry, test list"
	$(Q)rm -rf build/gen/new && mkdir -p build/gen/new
	$(Q)$(GEN) sources build/gen/new && $(GEN) registry build/gen/new/registry.c && $(GEN) list build/gen/new/kernels.tsv
	$(Q)for f in build/gen/new/*; do cmp -s $$f build/gen/$${f##*/} || mv $$f build/gen/; done; rm -rf build/gen/new
	$(Q)touch $@
GEN_HIP := $(MODULES:%=build/gen/%.hip)
$(GEN_HIP) build/gen/registry.c build/gen/kernels.tsv: build/gen/stamp

# ----------------------------------------------------------- AMD code objects
# Runs on every make: it checks in milliseconds that every command of
# mk/tools.mk is present, installs what is missing, and touches the stamp only
# when the toolchain's versions change (so editing the script rebuilds nothing).
$(TOOLSTAMP): FORCE
	$(Q)scripts/toolchain.sh

KERNEL_HDRS := $(wildcard kernels/*.h)
# Header dependencies are clang's own (build/dep/ARCH/MODULE.d, written while
# compiling: the HIP driver ignores -MMD in device-only mode, so they go to
# cc1 directly). Until a code object has its .d file, it depends on every header.
hdr_deps = $(if $(wildcard build/dep/$(1)/$(2).d),,$(KERNEL_HDRS))
-include $(wildcard build/dep/*/*.d)
wave = $(if $(filter gfx9%,$(1)),64,32)
# generic targets exist from code object v6
cov = $(if $(filter %-generic,$(1)),6,$(COV))
HIPFLAGS = -x hip --cuda-device-only --no-gpu-bundle-output -O3 -std=c++17 -Wall -Werror \
  -Ikernels -isystem $(HIPROOT)/usr/include --hip-path=$(HIPROOT)/usr \
  --rocm-device-lib-path=$(DEVLIBS)

# ocml's f64 erf/normcdf/pow keep ~40 64-bit constants in SGPRs; machine
# LICM hoists them all out of the element loops and spills SGPRs. Keeping
# them in the loop costs a few scalar moves per element in memory-bound loops.
HIPFLAGS_unary := -mllvm -disable-machine-licm

# Code objects depend on the compile flags through this file, rewritten only
# when the flags change (editing the Makefile alone recompiles nothing).
HIPFLAGS_SIG := $(CLANG) $(HIPFLAGS) -mcode-object-version=$(COV) $(HIPFLAGS_unary)
$(shell mkdir -p build; echo '$(HIPFLAGS_SIG)' | cmp -s - build/hipflags || echo '$(HIPFLAGS_SIG)' > build/hipflags)

define ARCH_RULES
hsaco/$(1)/%.hsaco: build/gen/%.hip $$$$(call hdr_deps,$(1),$$$$*) $(TOOLSTAMP) build/hipflags
	@mkdir -p $$(@D) build/dep/$(1)
	@echo "  HIP   $(1)/$$*  (wave$(call wave,$(1)))"
	$(Q)$(CLANG) $(HIPFLAGS) -mcode-object-version=$(call cov,$(1)) --offload-arch=$(1) $$(HIPFLAGS_$$*) \
	  -Xclang -dependency-file -Xclang build/dep/$(1)/$$*.d -Xclang -MT -Xclang $$@ -Xclang -MP -c $$< -o $$@
endef
.SECONDEXPANSION:
$(foreach a,$(ARCHS),$(eval $(call ARCH_RULES,$(a))))

empty :=
space := $(empty) $(empty)
join_comma = $(subst $(space),$(comma),$(strip $(1)))
comma := ,
PER_ARCH := $(foreach a,$(ARCHS),$(MODULES:%=hsaco/$(a)/%.hsaco))
BUNDLES := $(MODULES:%=hsaco/%.hsaco)
# One offload bundle per module with every arch (hipModuleLoadData takes it).
$(BUNDLES): hsaco/%.hsaco: $(foreach a,$(ARCHS),hsaco/$(a)/%.hsaco)
	@echo "  BNDL  $@  ($(words $(ARCHS)) archs)"
	$(Q)$(BUNDLER) -type=o -targets=$(call join_comma,host-x86_64-unknown-linux-gnu- $(ARCHS:%=hipv4-amdgcn-amd-amdhsa--%)) \
	  -input=/dev/null $(foreach a,$(ARCHS),-input=hsaco/$(a)/$*.hsaco) -output=$@

# ------------------------------------------------------------- NVIDIA build
ifneq ($(NVCC),)
NV_FATBINS := $(MODULES:%=hsaco/nvidia/%.fatbin)
# nvcc writes its own header dependencies (build/dep/nvidia/MODULE.d).
hsaco/nvidia/%.fatbin: build/gen/%.hip $$(call hdr_deps,nvidia,$$*)
	@mkdir -p $(@D) build/dep/nvidia
	@echo "  NVCC  $@  (sm_$(subst $(eval) ,/sm_,$(NV_ARCHS)))"
	$(Q)$(NVCC) -x cu -std=c++17 -O3 -Ikernels -fatbin \
	  $(foreach a,$(NV_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
	  -MMD -MP -MF build/dep/nvidia/$*.d -MT $@ $< -o $@
else
NV_FATBINS :=
endif

hsaco/manifest.json: $(PER_ARCH) $(BUNDLES) $(NV_FATBINS) $(GEN)
	@echo "  GEN   $@"
	$(Q)$(GEN) manifest hsaco $(TOOLS)/versions.txt $(COV) $@ $(ARCHS)

artifacts: $(PER_ARCH) $(BUNDLES) $(NV_FATBINS) hsaco/manifest.json

include mk/lib.mk
include mk/emu.mk
include mk/check.mk
include mk/device.mk
include mk/bench.mk
include mk/rust.mk
include mk/install.mk

# When this make started, and when the first make of this tree did (the
# summary reports both: a no-op make after a 20-minute build says so).
BUILD_START := $(shell date +%s)
$(shell mkdir -p build; [ -f build/.first-make ] || echo $(BUILD_START) > build/.first-make)
all: artifacts lib cli
	$(Q)scripts/summary.sh $(BUILD_START) "$(ARCHS)" "$(MODULES)" "$(NV_FATBINS)"

clean:
	rm -rf build hsaco

distclean: clean
	rm -rf $(TOOLS)

.PHONY: all artifacts clean distclean
