# make bench: bandwidth of crk's element-wise kernels vs PyTorch on the GPU present
# (bench/README.md). Options go through BENCH_ARGS, e.g.
#   make bench BENCH_ARGS="--sizes 24 --ops exp,gelu"
# Results: build/bench-results/{results.json,results.csv,bench.png}.
BENCH_ARGS ?=
BENCH_SRCS := $(wildcard bench/*.c)

build/bench: $(BENCH_SRCS) $(wildcard bench/*.h) include/crk.h build/libcrk.a
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Ibench $(BENCH_SRCS) build/libcrk.a $(LIB_LIBS) -o $@

bench: build/bench
	$(Q)build/bench $(BENCH_ARGS)

.PHONY: bench

.device/bench: $(BENCH_SRCS) $(wildcard bench/*.h) .device/libcrk.so
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Ibench $(BENCH_SRCS) $(DEVICE_LINK) -o $@
device-stage: .device/bench
