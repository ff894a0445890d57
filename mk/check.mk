# make check: CPU-side tests always; GPU numeric suite on the GPU present
# (reported as skipped, with its count, where there is none).
REF_SRCS := $(wildcard tests/ref/ref_*.c)
REF_LIB_SRCS := $(filter-out tests/ref/ref_selftest.c,$(REF_SRCS))
TEST_CFLAGS = $(WARN) $(CFLAGS) $(CPPFLAGS) -Itests/ref -Itests/gpu -ffp-contract=off
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -lpthread)

build/ref_selftest: $(REF_SRCS) $(wildcard tests/ref/*.h) include/crk.h
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(REF_SRCS) -lm -o $@

NUMERIC_SRCS := $(wildcard tests/gpu/*.c) $(REF_LIB_SRCS)
build/numeric: $(NUMERIC_SRCS) $(wildcard tests/gpu/*.h tests/ref/*.h) build/libcrk.a
	@echo "  CC    $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(NUMERIC_SRCS) build/libcrk.a $(LIB_LIBS) -o $@

# Unit tests (libcheck), one binary per tests/unit/test_*.c.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/unit/%)
# A unit test may take sources of the numeric suite (tests/gpu/*.c) as extra
# prerequisites: they are compiled in with it.
build/unit/test_results: tests/gpu/results.c
build/unit/%: tests/unit/%.c build/libcrk.a tests/unit/unit.h
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Itests/ref -Itests/gpu $< $(filter tests/gpu/%.c,$^) $(REF_LIB_SRCS) build/libcrk.a $(LIB_LIBS) $(CHECK_LIBS) -o $@

# The stand-in HIP runtime of test_context (per-thread devices, kernels that
# run until waited for); loaded through CRK_HIP_LIBRARY, never linked.
STANDIN_HIP := build/unit/libstandin_hip.so
$(STANDIN_HIP): tests/unit/standin_hip.c
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) -fPIC -shared $< -lpthread -o $@
UNIT_ENV = CRK_TEST_HSACO=hsaco/$(firstword $(ARCHS))/unary.hsaco CRK_TEST_HSACO_DIR=hsaco CRK_TEST_STANDIN_HIP=$(STANDIN_HIP)

# Without `all`'s summary: make check does not reprint the build summary.
# The emulated AMD targets (tests/emu, mk/emu.mk) run the AMD code objects.
# The emulated runs (make check's and the mutants') skip the cases whose
# largest tensor passes EMU_MAX_NUMEL (scripts/check.sh says why).
EMU_MAX_NUMEL ?= 131075
EMU_CHECK_BINS = $(EMU_OUT)/emu-disasm $(EMU_OUT)/test_exec $(EMU_OUT)/test_rt $(EMU_OUT)/libamdhip64.so
check: artifacts lib cli build/ref_selftest $(UNIT_BINS) $(STANDIN_HIP) build/numeric build/hello build/hello-shared build/hello-small \
  build/abi_v0_1 $(EMU_CHECK_BINS)
	$(Q)EMU_ARCHS="$(filter $(ARCHS),$(EMU_ARCHS))" EMU_MAX_NUMEL=$(EMU_MAX_NUMEL) scripts/check.sh "$(ARCHS)"

.PHONY: check

# examples/hello linked the three ways the README gives.
build/hello: examples/hello.c build/libcrk.a
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) -Iinclude $< build/libcrk.a $(LIB_LIBS) -o $@
build/hello-shared: examples/hello.c $(LIB_FILES)
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) -Iinclude $< -Lbuild -lcrk -lm -o $@
build/abi_v0_1: tests/unit/abi_v0_1.c $(LIB_FILES)
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) -Iinclude $< -Lbuild/small -lcrk -o $@
build/hello-small: examples/hello.c $(LIB_FILES)
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) -Iinclude $< -Lbuild/small -lcrk -lm -o $@

# Unit tests and the CLI again under ASan+UBSan (CI runs this).
ASAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1
ASAN_LIB_SRCS = $(LIB_SRCS) build/gen/registry.c build/gen/embedded-none.S
build/asan/test_results: tests/gpu/results.c
build/asan/%: tests/unit/%.c $(ASAN_LIB_SRCS) $(wildcard include/*.h loader/*.h) $(HOST_KERNEL_HDRS) tests/unit/unit.h
	@mkdir -p $(@D)
	@echo "  CC    $@ (asan+ubsan)"
	$(Q)$(CC) $(WARN) $(ASAN) $(CPPFLAGS) -Itests/ref -Itests/gpu $< $(filter tests/gpu/%.c,$^) $(REF_LIB_SRCS) $(ASAN_LIB_SRCS) $(LIB_LIBS) $(CHECK_LIBS) -o $@
build/asan/crk: $(CLI_SRCS) $(ASAN_LIB_SRCS) $(wildcard cli/*.h include/*.h loader/*.h)
	@mkdir -p $(@D)
	@echo "  CC    $@ (asan+ubsan)"
	$(Q)$(CC) $(WARN) $(ASAN) $(CPPFLAGS) -Icli $(CLI_SRCS) $(ASAN_LIB_SRCS) $(LIB_LIBS) -o $@
check-asan: all $(UNIT_SRCS:tests/unit/%.c=build/asan/%) build/asan/crk $(STANDIN_HIP)
	$(Q)for t in $(UNIT_SRCS:tests/unit/%.c=build/asan/%); do \
	  $(UNIT_ENV) $$t || exit 1; done
	$(Q)[ ! -f tests/unit/test_cli.sh ] || CRK=build/asan/crk tests/unit/test_cli.sh
	@echo "asan+ubsan: unit tests and CLI clean"

# The multi-threaded context tests under ThreadSanitizer, on the stand-in
# runtime (CI runs it). A report fails the run.
TSAN := -fsanitize=thread -fno-omit-frame-pointer -g -O1
build/tsan/%: tests/unit/%.c $(ASAN_LIB_SRCS) $(wildcard include/*.h loader/*.h) $(HOST_KERNEL_HDRS) tests/unit/unit.h
	@mkdir -p $(@D)
	@echo "  CC    $@ (tsan)"
	$(Q)$(CC) $(WARN) $(TSAN) $(CPPFLAGS) $< $(ASAN_LIB_SRCS) $(LIB_LIBS) $(CHECK_LIBS) -o $@
check-tsan: artifacts build/tsan/test_context $(STANDIN_HIP)
	$(Q)$(UNIT_ENV) TSAN_OPTIONS="halt_on_error=1 exitcode=66" build/tsan/test_context
	@echo "tsan: context tests clean"

FUZZ_SECONDS ?= 60
fuzz: artifacts
	$(Q)fuzz/run.sh $(FUZZ_SECONDS)

.PHONY: check-asan check-tsan fuzz

# mk/tools.mk is complete: a one-arch build and make check with PATH holding
# only the commands it lists (CI runs it).
check-tools:
	$(Q)scripts/check_tools.sh
.PHONY: check-tools

# The deliberately broken kernels (scripts/mutants.sh) each fail the numeric
# suite on the emulated gfx942 (CI runs it; device_run.sh does the same with
# NVIDIA mutants on a GPU).
MUTANT_ARCH ?= gfx942
check-mutants: build/numeric $(EMU_OUT)/libamdhip64.so build/gen/stamp | $(TOOLSTAMP)
	$(Q)CLANG="$(CLANG)" HIPFLAGS="$(HIPFLAGS) -mcode-object-version=$(call cov,$(MUTANT_ARCH))" scripts/mutants.sh build/mutants amd $(MUTANT_ARCH) > build/mutants.log
	$(Q)CRK_GPU_API=hip CRK_HIP_LIBRARY=$(CURDIR)/$(EMU_OUT)/libamdhip64.so CRK_EMU_ARCH=$(MUTANT_ARCH) \
	  scripts/check_mutants.sh build/mutants --max-numel $(EMU_MAX_NUMEL)
.PHONY: check-mutants

# One context, many threads, on the GPU present (the CUDA driver, HIP or the
# emulator): tests/device/threads.c.
build/threads: tests/device/threads.c build/libcrk.a
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) -Iinclude $< build/libcrk.a $(LIB_LIBS) -o $@
