# libcrk (static and shared) and the crk CLI.
# EMBED: which code objects are linked into libcrk ("amd nvidia", "amd", "nvidia", "none").
EMBED ?= amd nvidia
LIB_SRCS := $(wildcard loader/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=build/obj/%.o) build/obj/gen/registry.o build/obj/gen/embedded.o
LIB_CFLAGS = $(WARN) $(CFLAGS) $(CPPFLAGS) -fPIC -fvisibility=default
LIB_LIBS := -lzstd -lz -ldl -lpthread -lm

build/obj/%.o: %.c $(wildcard include/*.h loader/*.h) | build/gen/stamp $(TOOLSTAMP)
	@mkdir -p $(@D)
	@echo "  CC    $<"
	$(Q)$(CC) $(LIB_CFLAGS) -c $< -o $@
build/obj/gen/registry.o: build/gen/registry.c $(wildcard include/*.h loader/*.h)
	@mkdir -p $(@D)
	@echo "  CC    $<"
	$(Q)$(CC) $(LIB_CFLAGS) -c $< -o $@

EMBED_FILES := $(if $(filter amd,$(EMBED)),$(PER_ARCH)) $(if $(filter nvidia,$(EMBED)),$(NV_FATBINS))
build/gen/embedded.S: scripts/embed.sh $(EMBED_FILES) build/gen/stamp FORCE
	$(Q)scripts/embed.sh $@.tmp hsaco "$(ARCHS)" "$(MODULES)" "$(EMBED)"
	$(Q)cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
build/obj/gen/embedded.o: build/gen/embedded.S $(EMBED_FILES)
	@mkdir -p $(@D)
	@echo "  AS    embedded code objects ($(EMBED))"
	$(Q)$(CC) -c $< -o $@

build/libcrk.a: $(LIB_OBJS)
	@echo "  AR    $@"
	$(Q)rm -f $@ && ar rcs $@ $^
build/libcrk.so: $(LIB_OBJS) loader/libcrk.map
	@echo "  LD    $@"
	$(Q)$(CC) -shared -Wl,--version-script=loader/libcrk.map -Wl,-soname,libcrk.so.0 $(LIB_OBJS) $(LIB_LIBS) -o $@

CLI_SRCS := $(wildcard cli/*.c)
build/crk: $(CLI_SRCS) $(wildcard cli/*.h) build/libcrk.a
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Icli $(CLI_SRCS) build/libcrk.a $(LIB_LIBS) -o $@

lib: build/libcrk.a build/libcrk.so
cli: build/crk
FORCE:
.PHONY: lib cli FORCE
