# mk/install.mk — installing, releasing, and the size of what is shipped.
#   make install [PREFIX=/usr/local] [DESTDIR=/tmp/stage]   libcrk.so.$(SOMAJOR) (soname, versioned
#        symbols), libcrk.a, crk.h, crk_libmoe.h, crk.pc, the crk CLI and crk(1), share/crk/hsaco/
#        (code objects, bundles, NVIDIA build, manifest.json, manifest.rs), share/crk/rust/crk-kernels
#   make uninstall [PREFIX=...] [DESTDIR=...]      removes exactly those files
#   make check-install     installs into a temporary DESTDIR, builds examples/hello.c
#                          with pkg-config against it and runs it (emulated gfx942)
#   make dist              build/dist/crk-$(SOVERSION)-linux-x86_64.tar.gz, with SHA256SUMS inside
#   make sizes             bytes per arch and module; bundles plain vs compressed
#   make compressed        build/compressed/<module>.hsaco: CCOB bundles (CCOB_VERSION 2 or 3)
#   COMPRESS=1             install and dist ship the compressed bundles instead
PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
DATAROOTDIR ?= $(PREFIX)/share
MANDIR ?= $(DATAROOTDIR)/man
CRKDATA = $(DATAROOTDIR)/crk
COMPRESS ?= 0
# v2 (32-bit sizes) is what HIP runtimes before ROCm 6.4 read; v3 needs a newer one.
CCOB_VERSION ?= 2
CCOB_LEVEL ?= 19

# libcrk's default for CRK_SOURCE_DIR/BUNDLE without a path is found next to
# the library; this compiled-in PREFIX is the fallback (static links).
$(shell mkdir -p build; echo '$(CRKDATA)' | cmp -s - build/crkdata || echo '$(CRKDATA)' > build/crkdata)
build/obj/loader/datadir.o: build/crkdata
build/obj/loader/datadir.o: private CPPFLAGS += -DCRK_DATADIR='"$(CRKDATA)"'

COMPRESSED := $(MODULES:%=build/compressed/%.hsaco)
$(COMPRESSED): build/compressed/%.hsaco: $(foreach a,$(ARCHS),hsaco/$(a)/%.hsaco)
	@mkdir -p $(@D)
	@echo "  CCOB  $@  (v$(CCOB_VERSION), zstd level $(CCOB_LEVEL))"
	$(Q)COMPRESSED_BUNDLE_FORMAT_VERSION=$(CCOB_VERSION) $(BUNDLER) -type=o -compress -compression-level=$(CCOB_LEVEL) \
	  -targets=$(call join_comma,host-x86_64-unknown-linux-gnu- $(ARCHS:%=hipv4-amdgcn-amd-amdhsa--%)) \
	  -input=/dev/null $(foreach a,$(ARCHS),-input=hsaco/$(a)/$*.hsaco) -output=$@
compressed: $(COMPRESSED)

# The crate's sources, installed next to the artifacts it embeds.
RUST_SRCS := $(wildcard rust/crk-kernels/Cargo.toml rust/crk-kernels/*.rs rust/crk-kernels/src/*.rs \
  rust/crk-kernels/tests/*.rs rust/crk-kernels/examples/*.rs)
SHIP_BUNDLES = $(if $(filter 1,$(COMPRESS)),$(COMPRESSED),$(BUNDLES))
# install_env ROOT PREFIX-VARS...: what scripts/install.sh reads.
install_env = ROOT='$(1)' PREFIX='$(2)' LIBDIR='$(3)' INCLUDEDIR='$(4)' BINDIR='$(5)' MANDIR='$(6)' \
  CRKDATA='$(7)' SOMAJOR=$(SOMAJOR) SOVERSION=$(SOVERSION) \
  PER_ARCH='$(PER_ARCH)' NV='$(NV_FATBINS)' BUNDLES='$(SHIP_BUNDLES)' \
  RUST='$(RUST_SRCS)' CC=$(CC) GEN=$(GEN) COV=$(COV) ARCHS='$(ARCHS)' VERSIONS=$(TOOLS)/versions.txt
INSTALL_ENV = $(call install_env,$(DESTDIR),$(PREFIX),$(LIBDIR),$(INCLUDEDIR),$(BINDIR),$(MANDIR),$(CRKDATA)) \
  PC_PREFIX='$(PREFIX)' PC_LIBDIR='$(LIBDIR)' PC_INCLUDEDIR='$(INCLUDEDIR)' PC_HSACODIR='$(CRKDATA)/hsaco'

install: artifacts lib cli $(SHIP_BUNDLES)
	$(Q)$(INSTALL_ENV) scripts/install.sh install
uninstall:
	$(Q)$(INSTALL_ENV) scripts/install.sh uninstall

# A release: the same tree under crk-<version>/, relocatable (crk.pc is
# relative to itself; libcrk finds ../share/crk/hsaco next to itself).
DIST_NAME := crk-$(SOVERSION)-linux-x86_64
DIST_DIR := build/dist/$(DIST_NAME)
DIST_ENV = $(call install_env,$(DIST_DIR),,/lib,/include,/bin,/share/man,/share/crk) \
  PC_PREFIX='$${pcfiledir}/../..' PC_LIBDIR='$${prefix}/lib' PC_INCLUDEDIR='$${prefix}/include' \
  PC_HSACODIR='$${prefix}/share/crk/hsaco'
dist: artifacts lib cli $(SHIP_BUNDLES)
	$(Q)rm -rf $(DIST_DIR) && $(DIST_ENV) scripts/install.sh install
	$(Q)cp README.md $(DIST_DIR)/
	$(Q)cd $(DIST_DIR) && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | sed 's|^\./||' | xargs sha256sum > SHA256SUMS
	$(Q)tar -C build/dist --owner=0 --group=0 --sort=name -czf build/dist/$(DIST_NAME).tar.gz $(DIST_NAME)
	$(Q)cd build/dist && sha256sum $(DIST_NAME).tar.gz > $(DIST_NAME).tar.gz.sha256
	@echo "  DIST  build/dist/$(DIST_NAME).tar.gz  ($$(du -h build/dist/$(DIST_NAME).tar.gz | cut -f1); \
	  $$(wc -l < $(DIST_DIR)/SHA256SUMS) files in SHA256SUMS)"

sizes: artifacts $(COMPRESSED)
	$(Q)scripts/artifact_sizes.sh "$(ARCHS)" "$(MODULES)" $(CCOB_VERSION) | tee build/sizes.txt

check-install: artifacts lib cli $(SHIP_BUNDLES) $(EMU_OUT)/libamdhip64.so
	$(Q)$(INSTALL_ENV) scripts/check_install.sh

.PHONY: install uninstall dist sizes compressed check-install
