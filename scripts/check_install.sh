#!/usr/bin/env bash
# scripts/check_install.sh — make check-install: installs into a temporary
# DESTDIR (the environment of scripts/install.sh, from mk/install.mk), builds
# examples/hello.c with `pkg-config --cflags --libs crk` against it, runs it
# and tests/install/open_installed.c (installed artifacts found without a
# path) on the emulated gfx942, then uninstalls and expects an empty tree.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ROOT=$tmp/root
scripts/install.sh install > /dev/null
fail() { echo "check-install: FAILED: $*"; exit 1; }

export PKG_CONFIG_PATH=$ROOT$LIBDIR/pkgconfig PKG_CONFIG_SYSROOT_DIR=$ROOT
flags=$(pkg-config --cflags --libs crk) || fail "pkg-config cannot read crk.pc"
[ "$(pkg-config --modversion crk)" = "$SOVERSION" ] || fail "crk.pc version is not $SOVERSION"
# (outputs go through files: under pipefail, `cmd | grep -q` fails when grep
# exits at its first match while cmd still writes: SIGPIPE)
pkg-config --static --libs crk > "$tmp/static-libs"
grep -q -- -lzstd "$tmp/static-libs" || fail "crk.pc: --static lacks libcrk's dependencies"
# shellcheck disable=SC2086
"${CC:-gcc}" -std=c11 -Wall -Werror examples/hello.c $flags -lm -o "$tmp/hello" || fail "hello.c does not build with: $flags"
# shellcheck disable=SC2086
"${CC:-gcc}" -std=c11 -Wall -Werror tests/install/open_installed.c $flags -o "$tmp/open_installed"
lib=$ROOT$LIBDIR
[ "$(readlink "$lib/libcrk.so")" = "libcrk.so.$SOMAJOR" ] || fail "libcrk.so does not point at libcrk.so.$SOMAJOR"
objdump -p "$lib/libcrk.so.$SOVERSION" > "$tmp/headers"
grep -q "SONAME *libcrk.so.$SOMAJOR" "$tmp/headers" || fail "no soname libcrk.so.$SOMAJOR"
objdump -T "$lib/libcrk.so.$SOVERSION" > "$tmp/dynsym"
grep -Eq "CRK_[0-9.]+ +crk_open$" "$tmp/dynsym" || fail "crk_open not exported with a CRK_ symbol version"
man -l "$ROOT$MANDIR/man1/crk.1" > /dev/null 2>&1 || [ ! -x "$(command -v man)" ] || fail "crk.1 does not format"
"$ROOT$BINDIR/crk" verify "$ROOT$CRKDATA/hsaco" > "$tmp/verify.log" || { cat "$tmp/verify.log"; fail "crk verify on the installed artifacts"; }
n=$(find "$ROOT" -type f | wc -l)
echo "check-install: $n files installed; hello.c built with pkg-config; crk verify passes on share/crk/hsaco"

emu=build/emu/libamdhip64.so
if [ -f "$emu" ]; then
  export CRK_GPU_API=hip CRK_HIP_LIBRARY=$PWD/$emu CRK_EMU_ARCH=gfx942
  LD_LIBRARY_PATH=$lib "$tmp/hello" || fail "installed hello on the emulated gfx942"
  LD_LIBRARY_PATH=$lib "$tmp/open_installed" || fail "installed artifacts not found by default"
else
  echo "check-install: skipped: running hello (no emulator at $emu)"
fi

# The installed crate builds against the installed artifacts, with no setting.
if command -v cargo > /dev/null; then
  (cd "$ROOT$CRKDATA/rust/crk-kernels" && CARGO_TARGET_DIR=$tmp/cargo cargo test --offline -q > "$tmp/cargo.log" 2>&1) ||
    { cat "$tmp/cargo.log"; fail "cargo test in the installed share/crk/rust/crk-kernels"; }
  rm -f "$ROOT$CRKDATA/rust/crk-kernels/Cargo.lock"
  echo "check-install: the installed crate's cargo test passes on share/crk/hsaco"
else
  echo "check-install: skipped: the installed crate (no cargo)"
fi

scripts/install.sh uninstall > /dev/null
left=$(find "$ROOT" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left: $left"
echo "check-install: uninstall removed every file"
