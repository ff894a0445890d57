# mk/emu.mk — the AMDGPU instruction-set emulator (tests/emu), a test tool:
# the ISA block (decoder, disassembler, executor) and the runtime block
# (stand-in HIP runtime). Included by the Makefile (make check runs it);
# also usable alone: make -f mk/emu.mk <target>.

CC ?= gcc
AR ?= ar
Q ?=
EMU_OBJDUMP ?= llvm-objdump-22
EMU_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror
EMU_DIR := tests/emu
EMU_OUT := build/emu

# --- ISA ---
# Decoder, disassembler, executor (emu_step). Opcode tables are data that
# tests/emu/gen_isa_tables.py generated from llvm-mc-22 (checked in).
#   make -f mk/emu.mk emu-isa            libemu_isa.a, emu-disasm, test_exec
#   make -f mk/emu.mk emu-test-exec      executor unit tests (hand-assembled code)
#   make -f mk/emu.mk emu-test-decode    every instruction of hsaco/{gfx942,gfx1100}
#                                        against llvm-objdump-22 (EMU_DECODE_ARCHS)
#   make -f mk/emu.mk emu-test-cover     every instruction of those objects executes
#                                        (no "not implemented")
#   make -f mk/emu.mk emu-isa-check      all three
EMU_ISA_SRCS := $(EMU_DIR)/isa_tab.c $(EMU_DIR)/decode_gfx.c $(EMU_DIR)/decode_vopd.c \
                $(EMU_DIR)/disasm.c
EMU_EXEC_SRCS := $(wildcard $(EMU_DIR)/exec_*.c)
EMU_ISA_HDRS := $(EMU_DIR)/isa.h $(EMU_DIR)/emu.h $(wildcard $(EMU_DIR)/isa_*.inc $(EMU_DIR)/exec*.h)
EMU_DECODE_ARCHS ?= gfx942 gfx1100

# All ISA objects in one archive: libemu_isa.a
EMU_ISA_OBJS := $(patsubst $(EMU_DIR)/%.c,$(EMU_OUT)/isa/%.o,$(EMU_ISA_SRCS) $(EMU_EXEC_SRCS))
$(EMU_OUT)/isa/%.o: $(EMU_DIR)/%.c $(EMU_ISA_HDRS)
	@mkdir -p $(@D)
	@echo "  CC    $<"
	$(Q)$(CC) $(EMU_CFLAGS) -c $< -o $@
$(EMU_OUT)/libemu_isa.a: $(EMU_ISA_OBJS)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(EMU_OUT)/emu-disasm: $(EMU_DIR)/disasm_main.c $(EMU_OUT)/libemu_isa.a $(EMU_ISA_HDRS)
	@echo "  CC    $@"
	$(Q)$(CC) $(EMU_CFLAGS) $< $(EMU_OUT)/libemu_isa.a -lm -o $@

$(EMU_OUT)/test_exec: $(EMU_DIR)/test_exec.c $(EMU_OUT)/libemu_isa.a $(EMU_ISA_HDRS)
	@echo "  CC    $@"
	$(Q)$(CC) $(EMU_CFLAGS) $< $(EMU_OUT)/libemu_isa.a -lm -o $@

emu-isa: $(EMU_OUT)/libemu_isa.a $(EMU_OUT)/emu-disasm $(EMU_OUT)/test_exec
emu-test-exec: $(EMU_OUT)/test_exec
	$(EMU_OUT)/test_exec
emu-test-decode: $(EMU_OUT)/emu-disasm
	OBJDUMP=$(EMU_OBJDUMP) $(EMU_DIR)/test_decode.sh 20 $(EMU_DECODE_ARCHS)
emu-test-cover: $(EMU_OUT)/emu-disasm
	@rc=0; n=0; for a in $(EMU_DECODE_ARCHS); do for f in hsaco/$$a/*.hsaco; do \
	  [ -e "$$f" ] || continue; n=$$((n + 1)); \
	  out=$$($(EMU_OUT)/emu-disasm --exec-check $$a $$f) || { rc=1; echo "$$f:"; }; \
	  [ -z "$$out" ] || printf '%s\n' "$$out" | head -n 20; done; done; \
	  echo "emu-test-cover: $$n code objects"; exit $$rc
emu-isa-check: emu-test-exec emu-test-decode emu-test-cover
.PHONY: emu-isa emu-test-exec emu-test-decode emu-test-cover emu-isa-check
# --- end ISA ---

# --- runtime ---
# The stand-in HIP runtime: $(EMU_OUT)/libamdhip64.so, what libcrk's HIP back
# end dlopens when CRK_HIP_LIBRARY names it. It holds the runtime (rt_*.c,
# hip_*.c), the ISA half (its sources, compiled again here with -fPIC) and
# libcrk's own code-object parsers (loader/codeobj_*.c, msgpack.c,
# target_id.c). HIP declarations come from the toolchain's hip_runtime_api.h.
#   make -f mk/emu.mk emu-rt        the library and build/emu/test_rt
#   make -f mk/emu.mk emu-rt-check  runtime unit tests (test_rt)
#   make -f mk/emu.mk check-emu     numeric suite on the emulator, per arch
EMU_HIP_INC ?= .toolchain/root/usr/include
EMU_ARCHS ?= gfx942 gfx1100
EMU_NUMERIC ?= build/numeric
EMU_NUMERIC_ARGS ?= --no-huge
EMU_RT_CFLAGS = $(EMU_CFLAGS) -D_GNU_SOURCE -D__HIP_PLATFORM_AMD__ -Iinclude -Iloader -I$(EMU_DIR) \
  -isystem $(EMU_HIP_INC) -fPIC -fvisibility=hidden
EMU_RT_SRCS := $(wildcard $(EMU_DIR)/rt_*.c)
EMU_HIP_SRCS := $(wildcard $(EMU_DIR)/hip_*.c)
EMU_CO_SRCS := $(wildcard loader/codeobj_*.c) loader/msgpack.c loader/target_id.c
EMU_RT_HDRS := $(wildcard $(EMU_DIR)/rt*.h) $(EMU_DIR)/emu.h $(wildcard loader/codeobj.h loader/msgpack.h \
  loader/target_id.h include/crk.h)
EMU_RT_LIBS := -lzstd -lz -lpthread -lm
# Everything the library is made of, as position-independent objects.
EMU_SO_SRCS = $(EMU_RT_SRCS) $(EMU_HIP_SRCS) $(EMU_CO_SRCS) $(EMU_ISA_SRCS) $(EMU_EXEC_SRCS)
emu_pic = $(patsubst %.c,$(EMU_OUT)/pic/%.o,$(1))

# (HIP's headers are the toolchain's: after scripts/toolchain.sh when included.)
$(EMU_OUT)/pic/%.o: %.c $(EMU_RT_HDRS) $(EMU_ISA_HDRS) | $(TOOLSTAMP)
	@mkdir -p $(@D)
	@echo "  CC    $< (emulator, -fPIC)"
	$(Q)$(CC) $(EMU_RT_CFLAGS) -c $< -o $@

$(EMU_OUT)/libamdhip64.so: $(call emu_pic,$(EMU_SO_SRCS))
	@echo "  LD    $@ (stand-in HIP runtime)"
	$(Q)$(CC) -shared -Wl,-soname,libamdhip64.so -Wl,--no-undefined $^ $(EMU_RT_LIBS) -o $@

# Unit tests of the runtime: link the same objects; test_rt.c carries a weak
# emu_step stub that the ISA half's real one overrides once it exists.
# It also runs libcrk's HIP back end (loader/gpu_hip.c) on the library.
$(EMU_OUT)/test_rt: $(EMU_DIR)/test_rt.c loader/gpu_hip.c $(call emu_pic,$(EMU_SO_SRCS)) $(EMU_RT_HDRS)
	@echo "  CC    $@"
	$(Q)$(CC) $(EMU_RT_CFLAGS) -Itests/unit $(filter %.c %.o,$^) $$(pkg-config --cflags --libs check) \
	  $(EMU_RT_LIBS) -ldl -o $@

emu-rt: $(EMU_OUT)/libamdhip64.so $(EMU_OUT)/test_rt
emu-rt-check: $(EMU_OUT)/test_rt $(if $(EMU_EXEC_SRCS),$(EMU_OUT)/libamdhip64.so)
	$(EMU_OUT)/test_rt

# The numeric suite through libcrk's HIP back end on the emulator, one line
# per arch (full output in build/emu/numeric-<arch>.log). Needs $(EMU_NUMERIC)
# (top-level make builds it).
check-emu: $(EMU_OUT)/libamdhip64.so
	@test -x $(EMU_NUMERIC) || { echo "check-emu: $(EMU_NUMERIC) missing (run make first)"; exit 1; }
	@rc=0; for a in $(EMU_ARCHS); do \
	  log=$(EMU_OUT)/numeric-$$a.log; t0=$$(date +%s); \
	  CRK_GPU_API=hip CRK_HIP_LIBRARY=$(CURDIR)/$(EMU_OUT)/libamdhip64.so CRK_EMU_ARCH=$$a CRK_EMU_STATS=1 \
	    $(EMU_NUMERIC) $(EMU_NUMERIC_ARGS) > $$log 2>&1; r=$$?; \
	  line=$$(grep -E '^(numeric:|skipped:|error:)' $$log | tail -n 1); \
	  rate=$$(sed -n 's/.*(\(.* M lane-inst\/s\)).*/\1/p' $$log | tail -n 1); \
	  echo "emu $$a: $${line:-no result (exit $$r)} ($$(( $$(date +%s) - t0 )) s$${rate:+, $$rate}; log $$log)"; \
	  [ $$r -eq 0 ] || rc=1; done; exit $$rc
.PHONY: emu-rt emu-rt-check check-emu
# --- end runtime ---
