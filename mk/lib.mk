# libcrk (static and shared) and the crk CLI.
# EMBED: which code objects are linked into libcrk ("amd nvidia", "amd", "nvidia", "none").
EMBED ?= amd nvidia
LIB_SRCS := $(wildcard loader/*.c)
# kernels/ headers that libcrk's C includes too (the shared fp8 encoder)
HOST_KERNEL_HDRS := kernels/f8_encode.h
LIB_OBJS := $(LIB_SRCS:%.c=build/obj/%.o) build/obj/gen/registry.o build/obj/gen/embedded.o
LIB_CFLAGS = $(WARN) $(CFLAGS) $(CPPFLAGS) -fPIC -fvisibility=default
LIB_LIBS := -lzstd -lz -ldl -lpthread -lm

build/obj/%.o: %.c $(wildcard include/*.h loader/*.h) $(HOST_KERNEL_HDRS) | build/gen/stamp $(TOOLSTAMP)
	@mkdir -p $(@D)
	@echo "  CC    $<"
	$(Q)$(CC) $(LIB_CFLAGS) -c $< -o $@
build/obj/gen/registry.o: build/gen/registry.c $(wildcard include/*.h loader/*.h) $(HOST_KERNEL_HDRS)
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

# The shared library is a versioned file with the usual links:
#   libcrk.so -> libcrk.so.0 (soname) -> libcrk.so.0.1 (the file).
# build/small/ holds the same library without embedded code objects (a few
# hundred KiB instead of ~60 MiB): open it with CRK_SOURCE_DIR/BUNDLE.
crk_version = $(shell sed -nE 's/^\#define CRK_VERSION_$(1) ([0-9]+)/\1/p' include/crk.h)
SOMAJOR := $(call crk_version,MAJOR)
SOVERSION := $(SOMAJOR).$(call crk_version,MINOR)
LIB_OBJS_SMALL := $(filter-out build/obj/gen/embedded.o,$(LIB_OBJS)) build/obj/gen/embedded-none.o
build/gen/embedded-none.S: scripts/embed.sh
	$(Q)scripts/embed.sh $@ hsaco "" "" none
build/obj/gen/embedded-none.o: build/gen/embedded-none.S
	@mkdir -p $(@D)
	$(Q)$(CC) -c $< -o $@

# lib_rules DIR OBJS: DIR/libcrk.a, DIR/libcrk.so.$(SOVERSION) and its links.
define lib_rules
$(1)/libcrk.a: $(2)
	@mkdir -p $$(@D)
	@echo "  AR    $$@"
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^
$(1)/libcrk.so.$(SOVERSION): $(2) loader/libcrk.map
	@mkdir -p $$(@D)
	@echo "  LD    $$@"
	$$(Q)$$(CC) -shared -Wl,--version-script=loader/libcrk.map -Wl,-soname,libcrk.so.$(SOMAJOR) $(2) $$(LIB_LIBS) -o $$@
$(1)/libcrk.so.$(SOMAJOR) $(1)/libcrk.so &: $(1)/libcrk.so.$(SOVERSION)
	$$(Q)ln -sf libcrk.so.$(SOVERSION) $(1)/libcrk.so.$(SOMAJOR) && ln -sf libcrk.so.$(SOMAJOR) $(1)/libcrk.so
LIB_FILES += $(1)/libcrk.a $(1)/libcrk.so.$(SOVERSION) $(1)/libcrk.so.$(SOMAJOR) $(1)/libcrk.so
endef
$(eval $(call lib_rules,build,$(LIB_OBJS)))
$(eval $(call lib_rules,build/small,$(LIB_OBJS_SMALL)))

CLI_SRCS := $(wildcard cli/*.c)
build/crk: $(CLI_SRCS) $(wildcard cli/*.h) build/libcrk.a
	@echo "  CC    $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Icli $(CLI_SRCS) build/libcrk.a $(LIB_LIBS) -o $@

lib: $(LIB_FILES)
cli: build/crk
FORCE:
.PHONY: lib cli FORCE
