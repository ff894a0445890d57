# make device-stage: what a run on the lent NVIDIA GPU needs, in .device/
# (git-ignored; carried by the device tool): test programs without embedded
# AMD blobs, the README example with the NVIDIA build embedded, the fatbins.
DEVICE_LIB = $(LIB_SRCS) build/gen/registry.c
build/gen/embedded-nvidia.S: scripts/embed.sh $(NV_FATBINS)
	$(Q)scripts/embed.sh $@ hsaco "" "$(MODULES)" nvidia
.device/numeric: $(NUMERIC_SRCS) $(DEVICE_LIB) build/gen/embedded-none.S $(wildcard tests/gpu/*.h tests/ref/*.h loader/*.h)
	@mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) $(NUMERIC_SRCS) $(DEVICE_LIB) build/gen/embedded-none.S $(LIB_LIBS) -o $@
.device/overhead: tests/perf/overhead.c $(DEVICE_LIB) build/gen/embedded-none.S $(wildcard loader/*.h)
	@mkdir -p $(@D)
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(DEVICE_LIB) build/gen/embedded-none.S $(LIB_LIBS) -o $@
.device/hello: examples/hello.c $(DEVICE_LIB) build/gen/embedded-nvidia.S
	@mkdir -p $(@D)
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(DEVICE_LIB) build/gen/embedded-nvidia.S $(LIB_LIBS) -o $@
device-stage: .device/numeric .device/overhead .device/hello $(NV_FATBINS)
	$(Q)mkdir -p .device/hsaco/nvidia && cp $(NV_FATBINS) .device/hsaco/nvidia/
	$(Q)du -sh .device
.PHONY: device-stage
