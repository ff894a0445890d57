#!/usr/bin/env bash
# check_tools.sh — proves mk/tools.mk complete: builds and tests a small
# configuration (one arch, no NVIDIA build) from a copy of the tracked files
# with PATH holding only the commands mk/tools.mk lists. A command the build
# or `make check` runs that the list lacks fails here as "command not found"
# (and would fail on a fresh machine that installed only the list's packages).
# `make check-tools`; CI runs it. The emulated numeric run takes one family
# (affine: EMU_NUMERIC_FILTER): the suite runs no command, and make check
# runs it whole.
# Every module compiles through one pattern rule (the same commands), so one
# module (CRK_CHECK_TOOLS_MODULE, affine) is compiled here; the arch's other
# code objects are the main tree's, brought up to date there first: compiling
# them all again cost CI about 6 CPU-minutes and proved nothing more.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${CRK_CHECK_TOOLS_ARCH:-gfx1100}
module=${CRK_CHECK_TOOLS_MODULE:-affine}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -f "$top/.toolchain/.stamp" ] && [ -x "$top/build/crk-gen" ] || { echo "check_tools: run make first (.toolchain/ or build/crk-gen missing)" >&2; exit 1; }
mkdir -p "$work/bin" "$work/src"
n=0
while read -r c; do
  p=$(command -v "$c" 2>/dev/null) || { echo "check_tools: '$c' (mk/tools.mk) is not installed: run make" >&2; exit 1; }
  case $p in /*) ln -sf "$p" "$work/bin/$c"; n=$((n + 1)) ;; *) ;; esac  # builtins need no link
done < <(sed -nE 's/^[A-Z_0-9]+[[:space:]]*:=[[:space:]]*([^[:space:]#]+)[[:space:]]*#[[:space:]]*pkg:.*/\1/p' "$top/mk/tools.mk")

# The tracked files (what a clone has), plus the toolchain already set up.
(cd "$top" && git ls-files -z | xargs -0 cp --parents -t "$work/src")
ln -s "$top/.toolchain" "$work/src/.toolchain"
# The main tree's code objects for $arch, up to date (a no-op after make), and
# the generated sources and header dependencies they were built from; copied
# after the sources, so they are newer than them and make keeps them. $module
# is left out: it compiles here.
modules=$("$top/build/crk-gen" modules) # the op table's modules, as the Makefile's
grep -qx "$module" <<< "$modules" || { echo "check_tools: no module '$module' (CRK_CHECK_TOOLS_MODULE)" >&2; exit 1; }
make -s -C "$top" ARCHS="$arch" NVCC= $(printf "hsaco/$arch/%s.hsaco " $modules) >&2
mkdir -p "$work/src/hsaco/$arch" "$work/src/build/dep"
cp -r "$top/build/gen" "$work/src/build/gen"
cp -r "$top/build/dep/$arch" "$work/src/build/dep/$arch"
cp "$top/build/hipflags" "$work/src/build/hipflags"
cp "$top/hsaco/$arch/"*.hsaco "$work/src/hsaco/$arch/"
rm -f "$work/src/hsaco/$arch/$module.hsaco" "$work/src/build/dep/$arch/$module.d"
find "$work/src/build" "$work/src/hsaco" -type f -exec touch {} +

echo "check_tools: make all check for $arch (module $module compiled, the others from the main tree) with PATH = the $n commands of mk/tools.mk"
if ! (cd "$work/src" && env -i HOME="$HOME" PATH="$work/bin" LANG=C EMU_NUMERIC_FILTER='affine_*' \
      make -j"$(nproc)" ARCHS="$arch" NVCC= all check > "$work/log" 2>&1); then
  if grep -E 'command not found|: not found' "$work/log" | head -20 >&2; then
    tail -n 30 "$work/log" >&2
    echo "check_tools: FAILED: the build needs a command mk/tools.mk does not list (see above)" >&2
  else # every command was found: a build error or a failing test, not the list
    grep -E '^FAIL|Error [0-9]|error:' "$work/log" | head -20 >&2 || true
    tail -n 30 "$work/log" >&2
    echo "check_tools: FAILED: make all check failed for $arch with every command found (see above: a build error or a failing test, not mk/tools.mk)" >&2
  fi
  exit 1
fi
if grep -E 'command not found' "$work/log" >&2; then
  echo "check_tools: FAILED: a command was not found (see above), though make succeeded" >&2
  exit 1
fi
grep -qE "HIP +$arch/$module " "$work/log" || { echo "check_tools: FAILED: $arch/$module was not compiled (the copied code objects hid it)" >&2; exit 1; }
grep -E '^check: ' "$work/log"
echo "check_tools: 1 passed, 0 failed (every command the build and make check ran is in mk/tools.mk)"
