# mk/rust.mk — the crk-kernels crate (rust/, README "Using crk from Candle").
# hsaco/manifest.rs is the op table as Rust constants, written next to the
# artifacts (and installed with them) for the crate's build script.
#   make check-rust     cargo test --offline, and the HIP example: on the GPU
#                       present, else on the emulated gfx942 (skipped without either)
CARGO ?= cargo
hsaco/manifest.rs: $(PER_ARCH) $(BUNDLES) $(GEN)
	@echo "  GEN   $@"
	$(Q)$(GEN) rust $@ $(COV) $(ARCHS)
artifacts: hsaco/manifest.rs

check-rust: artifacts $(EMU_OUT)/libamdhip64.so
	$(Q)cd rust && $(CARGO) test --offline -q
	$(Q)cd rust && $(CARGO) run --offline -q --example load_module
	$(Q)cd rust && CRK_GPU_API=hip CRK_HIP_LIBRARY=$(CURDIR)/$(EMU_OUT)/libamdhip64.so CRK_EMU_ARCH=gfx942 \
	  $(CARGO) run --offline -q --example load_module
.PHONY: check-rust
