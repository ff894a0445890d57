#!/bin/sh
# test_link.sh — programs linked with libcrk start and run, linked each way a
# user links (the README's link lines): static (build/libcrk.a), shared
# (-Lbuild -lcrk, through the libcrk.so -> .so.0 -> .so.0.1 links) and the
# small library without embedded code objects (build/small/). examples/hello
# prints "ok" on a GPU; without one it must still start and say "no GPU".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
fails=0 n=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run NAME LIBDIR BINARY: starts it with LD_LIBRARY_PATH=LIBDIR.
run() {
    n=$((n + 1))
    [ -x "$3" ] || { fail "$1: $3 not built"; return; }
    out=$(LD_LIBRARY_PATH=$2 "$3" 2>&1); rc=$?
    case $out in
        *"error while loading shared libraries"*) fail "$1: does not start: $out" ;;
        *": ok") [ $rc -eq 0 ] || fail "$1: printed ok but exit $rc" ;;
        *"no GPU"*|*"no embedded code objects"*) echo "$1: starts ($out)" ;;
        *) fail "$1: exit $rc: $out" ;;
    esac
}

# The shared library's files: the soname link, the versioned file.
for d in build build/small; do
    n=$((n + 1))
    [ -L $d/libcrk.so ] && [ -L $d/libcrk.so.0 ] && [ -f "$(realpath $d/libcrk.so)" ] &&
        [ "$(basename "$(realpath $d/libcrk.so)")" = "$(basename "$(realpath $d/libcrk.so.0)")" ] ||
        fail "$d: libcrk.so -> libcrk.so.0 -> libcrk.so.0.N links missing"
done
n=$((n + 1))
big=$(wc -c < "$(realpath build/libcrk.so)") small=$(wc -c < "$(realpath build/small/libcrk.so)")
[ "$small" -lt 4194304 ] && [ "$small" -lt "$big" ] || fail "small library is $small bytes (full: $big)"

run "static" "" build/hello
run "shared" build build/hello-shared
run "small" build/small build/hello-small

# Symbol versions: crk_launch@@CRK_0.2 is the default, crk_launch@CRK_0.1
# stays for programs built against 0.1, and one such program runs.
for d in build build/small; do
    n=$((n + 1))
    syms=$(objdump -T "$(realpath $d/libcrk.so)" | awk '$NF == "crk_launch" {print $(NF-1)}' | sort | tr '\n' ' ')
    [ "$syms" = "(CRK_0.1) CRK_0.2 " ] || fail "$d: crk_launch versions are '$syms', want (CRK_0.1) CRK_0.2"
done
n=$((n + 1))
out=$(LD_LIBRARY_PATH=build/small build/abi_v0_1 2>&1) || fail "a program built against 0.1: $out"

echo "test_link: $((n - fails))/$n passed"
[ "$fails" -eq 0 ]
