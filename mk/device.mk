# make device-stage: what a run on the lent NVIDIA GPU needs, in .device/
# (git-ignored; carried by the device tool, 64 MiB at most): one libcrk.so with
# the NVIDIA build embedded (all symbols visible: overhead.c reaches the raw
# launch), and the test programs linked to it with rpath $ORIGIN.
DEVICE_LIB = $(LIB_SRCS) build/gen/registry.c
DEVICE_LINK = -L.device -Wl,-rpath,'$$ORIGIN' -lcrk $(LIB_LIBS)
build/gen/embedded-nvidia.S: scripts/embed.sh $(NV_FATBINS)
	$(Q)scripts/embed.sh $@ hsaco "" "$(MODULES)" nvidia
.device/libcrk.so: $(DEVICE_LIB) build/gen/embedded-nvidia.S $(wildcard include/*.h loader/*.h) $(HOST_KERNEL_HDRS) loader/libcrk-device.map
	@mkdir -p $(@D)
	$(Q)$(CC) $(LIB_CFLAGS) -shared -Wl,--version-script=loader/libcrk-device.map $(DEVICE_LIB) build/gen/embedded-nvidia.S $(LIB_LIBS) -o $@
.device/numeric: $(NUMERIC_SRCS) .device/libcrk.so $(wildcard tests/gpu/*.h tests/ref/*.h)
	$(Q)$(CC) $(TEST_CFLAGS) $(NUMERIC_SRCS) $(DEVICE_LINK) -o $@
.device/overhead: tests/perf/overhead.c .device/libcrk.so
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(DEVICE_LINK) -o $@
.device/hello: examples/hello.c .device/libcrk.so
	$(Q)$(CC) $(WARN) $(CFLAGS) -Iinclude $< $(DEVICE_LINK) -o $@
.device/ggml_parity: tests/device/ggml_parity.c $(REF_LIB_SRCS) .device/libcrk.so $(wildcard tests/ref/*.h)
	$(Q)$(CC) $(TEST_CFLAGS) $< $(REF_LIB_SRCS) $(DEVICE_LINK) -o $@
.device/threads: tests/device/threads.c .device/libcrk.so
	$(Q)$(CC) $(WARN) $(CFLAGS) -Iinclude $< $(DEVICE_LINK) -lpthread -lm -o $@
device-stage: .device/numeric .device/overhead .device/hello .device/threads .device/ggml_parity
	$(Q)du -sh .device
# The NVIDIA libcrk outgrew the 64 MiB the device tool carries (reduce's
# fatbin, sm_80 + sm_90): carry .device/pack.tgz alone (all of .device/, a
# third of the bytes); scripts/device_run.sh unpacks it.
device-pack: device-stage
	$(Q)tar --exclude=.device/pack.tgz -cf - .device | gzip -1 > .device/pack.tgz
	$(Q)ls -l .device/pack.tgz | awk '{print "  PACK  .device/pack.tgz", $$5, "bytes"}'
.PHONY: device-stage device-pack
