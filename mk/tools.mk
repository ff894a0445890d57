# mk/tools.mk — every external command that `make` and `make check` invoke,
# with the Debian 12 package and apt suite that provide it. One list, two
# readers: the Makefile calls the tools through these variables, and
# scripts/toolchain.sh installs the packages and then checks that every command
# is present, failing in seconds with the package and suite named.
# scripts/check_tools.sh proves the list complete: it builds and tests a small
# configuration with PATH holding only these commands.
#
# Format (parsed by scripts/toolchain.sh, keep it):
#   NAME := command   # pkg: PACKAGE SUITE
# NAME in upper case is a variable the Makefile uses; TOOL_* names only list
# commands that recipes and scripts call by name.

# The AMDGPU build (clang-22 and friends live only in Debian 12's security suite).
CLANG        := clang-22                 # pkg: clang-22 bookworm-security
BUNDLER      := clang-offload-bundler-22 # pkg: clang-tools-22 bookworm-security
TOOL_LLD     := ld.lld-22                # pkg: lld-22 bookworm-security
# clang-offload-bundler runs llvm-objcopy from its own directory (llvm-22),
# not from PATH: check_tools.sh cannot see it, a fresh root did.
TOOL_OBJCOPY := llvm-objcopy-22          # pkg: llvm-22 bookworm-security
EMU_OBJDUMP  := llvm-objdump-22          # pkg: llvm-22 bookworm-security

# Host code, libraries and tests.
CC           := gcc                      # pkg: gcc bookworm
AR           := ar                       # pkg: binutils bookworm
TOOL_AS      := as                       # pkg: binutils bookworm
TOOL_LD      := ld                       # pkg: binutils bookworm
TOOL_OBJDUMP := objdump                  # pkg: binutils bookworm
PKG_CONFIG   := pkg-config               # pkg: pkg-config bookworm
TOOL_MAKE    := make                     # pkg: make bookworm
TOOL_BASH    := bash                     # pkg: bash bookworm

# The unstable data packages (scripts/toolchain.sh) and the package checks.
TOOL_APT     := apt-get                  # pkg: apt bookworm
TOOL_APTC    := apt-cache                # pkg: apt bookworm
TOOL_DPKG    := dpkg                     # pkg: dpkg bookworm
TOOL_DPKGD   := dpkg-deb                 # pkg: dpkg bookworm
TOOL_DPKGQ   := dpkg-query               # pkg: dpkg bookworm

# Used by the scripts (all in Debian's Essential set, listed so that the
# restricted-PATH check knows them).
TOOL_1  := sh          # pkg: dash bookworm
TOOL_2  := sed         # pkg: sed bookworm
TOOL_3  := grep        # pkg: grep bookworm
TOOL_4  := awk         # pkg: mawk bookworm
TOOL_5  := cmp         # pkg: diffutils bookworm
TOOL_6  := find        # pkg: findutils bookworm
TOOL_7  := cat         # pkg: coreutils bookworm
TOOL_8  := cp          # pkg: coreutils bookworm
TOOL_9  := cut         # pkg: coreutils bookworm
TOOL_10 := date        # pkg: coreutils bookworm
TOOL_11 := du          # pkg: coreutils bookworm
TOOL_12 := head        # pkg: coreutils bookworm
TOOL_13 := id          # pkg: coreutils bookworm
TOOL_14 := ln          # pkg: coreutils bookworm
TOOL_15 := ls          # pkg: coreutils bookworm
TOOL_16 := mkdir       # pkg: coreutils bookworm
TOOL_17 := mktemp      # pkg: coreutils bookworm
TOOL_18 := mv          # pkg: coreutils bookworm
TOOL_19 := realpath    # pkg: coreutils bookworm
TOOL_20 := rm          # pkg: coreutils bookworm
TOOL_21 := sha256sum   # pkg: coreutils bookworm
TOOL_22 := sort        # pkg: coreutils bookworm
TOOL_23 := stat        # pkg: coreutils bookworm
TOOL_24 := tail        # pkg: coreutils bookworm
TOOL_25 := tee         # pkg: coreutils bookworm
TOOL_26 := touch       # pkg: coreutils bookworm
TOOL_27 := tr          # pkg: coreutils bookworm
TOOL_28 := wc          # pkg: coreutils bookworm
TOOL_29 := basename    # pkg: coreutils bookworm
TOOL_30 := dirname     # pkg: coreutils bookworm
TOOL_31 := env         # pkg: coreutils bookworm
TOOL_32 := uniq        # pkg: coreutils bookworm
TOOL_33 := nproc       # pkg: coreutils bookworm
TOOL_34 := cksum       # pkg: coreutils bookworm
TOOL_35 := true        # pkg: coreutils bookworm
TOOL_36 := rmdir       # pkg: coreutils bookworm
TOOL_37 := mkfifo      # pkg: coreutils bookworm
TOOL_38 := timeout     # pkg: coreutils bookworm
TOOL_39 := seq         # pkg: coreutils bookworm
TOOL_40 := chmod       # pkg: coreutils bookworm
TOOL_41 := xargs       # pkg: findutils bookworm

# make keeps the spaces before a trailing comment in a value: drop them.
$(foreach v,CLANG BUNDLER CC AR PKG_CONFIG,$(eval $(v) := $(strip $($(v)))))
