# make bench: bandwidth of crk's element-wise and indexing kernels, under
# libcrk's launch and Candle's, vs Candle's own kernels and PyTorch on the GPU present
# (bench/README.md). Options go through BENCH_ARGS, e.g.
#   make bench BENCH_ARGS="--sizes 24 --ops exp,gelu --candle-dir ../shared/peers/candle-0.11-sm90"
# Results: build/bench-results/{results.json,results.csv,bench.png}.
BENCH_ARGS ?=
BENCH_SRCS := $(wildcard bench/*.c)
# the quantized rows check against tests/ref's GGML blocks
BENCH_REF := tests/ref/ref_ggml.c tests/ref/ref_convert.c

build/bench: $(BENCH_SRCS) $(BENCH_REF) $(wildcard bench/*.h) include/crk.h build/libcrk.a
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Ibench -Itests/ref $(BENCH_SRCS) $(BENCH_REF) build/libcrk.a $(LIB_LIBS) -o $@

bench: build/bench
	$(Q)build/bench $(BENCH_ARGS)

.PHONY: bench

.device/bench: $(BENCH_SRCS) $(BENCH_REF) $(wildcard bench/*.h) .device/libcrk.so
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Ibench -Itests/ref $(BENCH_SRCS) $(BENCH_REF) $(DEVICE_LINK) -o $@

# Candle's sm_90 cubins (shared/peers/README.md), the modules the bench's ops
# and the parity runs use (about 6.5 MB; quantized: ggml_parity), staged where
# .device/bench looks by default. Not part of the product; skipped when the
# folder is absent.
CANDLE_PEER_DIR ?= ../shared/peers/candle-0.11-sm90
CANDLE_PEER_CUBINS := $(patsubst %,.device/peers/candle-0.11-sm90/%.cubin,unary affine cast ternary binary fill indexing sort reduce conv quantized)
.device/peers/candle-0.11-sm90/%.cubin: $(CANDLE_PEER_DIR)/%.cubin
	@mkdir -p $(@D)
	$(Q)install -m 644 $< $@
# and the static library's MMVQ launchers (launch_mmvq_gguf_*: the mmvq rows' peer, 3.6 MB)
CANDLE_PEER_CUBINS += .device/peers/candle-0.11-sm90/libcandle_mmvq.so
.device/peers/candle-0.11-sm90/libcandle_mmvq.so: $(CANDLE_PEER_DIR)/libcandle_mmvq.so
	@mkdir -p $(@D)
	$(Q)install -m 755 $< $@
device-stage: .device/bench $(if $(wildcard $(CANDLE_PEER_DIR)/unary.cubin),$(CANDLE_PEER_CUBINS))
