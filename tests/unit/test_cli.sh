#!/bin/sh
# test_cli.sh — exit codes and one-line errors of the `crk` command.
# Env: CRK (binary, default build/crk), CRK_TEST_HSACO (a valid code object
# named <module>.hsaco, default hsaco/gfx942/unary.hsaco; cases needing it
# are skipped when it is missing).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CRK=${CRK:-$ROOT/build/crk}
HSACO=${CRK_TEST_HSACO:-$ROOT/hsaco/gfx942/unary.hsaco}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
n=0

# expect RC DESCRIPTION -- CMD...: runs CMD, checks the exit code (RC may be
# "0|1"); for codes 1 and 3 also that stderr is exactly one line; never a
# sanitizer report.
expect() {
    want=$1; desc=$2; shift 3
    n=$((n + 1))
    "$@" > "$T/out" 2> "$T/err"
    rc=$?
    lines=$(wc -l < "$T/err")
    msg=""
    case "|$want|" in *"|$rc|"*) want=$rc ;; *) msg="exit $rc, want $want" ;; esac
    if [ -z "$msg" ] && { [ "$want" -eq 3 ] || [ "$want" -eq 1 ]; } && [ "$lines" -ne 1 ] &&
       ! grep -q '^{' "$T/out"; then
        msg="stderr has $lines lines, want 1"
    fi
    if grep -q -E 'Sanitizer|runtime error' "$T/err"; then msg="sanitizer report"; fi
    if [ -n "$msg" ]; then
        echo "FAIL: $desc: $msg"; sed 's/^/  | /' "$T/err" | head -5
        fails=$((fails + 1))
    fi
}

[ -x "$CRK" ] || { echo "test_cli: $CRK not built"; exit 1; }
# check DESCRIPTION CONDITION...: one more case, failed when CONDITION is false.
check() {
    desc=$1; shift
    n=$((n + 1))
    "$@" || { echo "FAIL: $desc"; fails=$((fails + 1)); }
}
# The one arch order (scripts/arch_order.sh, as the build summary sorts):
# 0 if the gfx names on stdin are in it.
in_arch_order() {
    grep -oE 'gfx[0-9a-z]+(-[0-9]+)?(-generic)?' > "$T/archs"
    "$ROOT/scripts/arch_order.sh" < "$T/archs" > "$T/sorted"
    [ -s "$T/archs" ] && cmp -s "$T/archs" "$T/sorted"
}

expect 0 "help" -- "$CRK" --help
expect 0 "help list" -- "$CRK" list --help
expect 0 "help verify" -- "$CRK" help verify
expect 2 "no command" -- "$CRK"
expect 2 "unknown command" -- "$CRK" frobnicate
expect 2 "unknown option" -- "$CRK" list --bogus
expect 2 "missing option value" -- "$CRK" list --family
expect 2 "archs without file" -- "$CRK" archs
expect 2 "unknown dtype" -- "$CRK" list --dtype f99
expect 0 "list" -- "$CRK" list
expect 0 "list --json" -- "$CRK" list --json
grep -q '^\[' "$T/out" || { echo "FAIL: list --json is not an array"; fails=$((fails + 1)); }
check "list --json: one kernel object per line" \
    test "$(grep -c '^{"name":' "$T/out")" -eq "$("$CRK" list | wc -l)"
expect 1 "list: no match" -- "$CRK" list 'no_such_kernel_*'
expect 0 "version" -- "$CRK" version
check "version prints crk N.N" grep -qE '^crk [0-9]+\.[0-9]+' "$T/out"
expect 0 "--version" -- "$CRK" --version
expect 2 "version with an argument" -- "$CRK" version extra
# The where_* kernels' family is 'ternary' (Candle's module); 'where' means the same.
expect 0 "list --family where" -- "$CRK" list --family where
check "--family where lists where_u8_f32" grep -q '^where_u8_f32 ' "$T/out"
"$CRK" list --family ternary > "$T/ternary" 2>&1
check "--family where = --family ternary" cmp -s "$T/out" "$T/ternary"
# cmp shares module binary with binary: the family filter tells them apart.
expect 0 "list --family cmp" -- "$CRK" list --family cmp
check "--family cmp lists eq_f32 and no badd" bash -c "grep -q '^eq_f32 ' '$T/out' && ! grep -q '^badd_' '$T/out'"
expect 0 "list --module binary" -- "$CRK" list --module binary
check "--module binary lists both families" bash -c "grep -q '^eq_f32 ' '$T/out' && grep -q '^badd_f32 ' '$T/out'"
expect 2 "unknown family" -- "$CRK" list --family bogus
check "unknown family is named, with the known ones" grep -q "unknown family 'bogus' (families: .*cast" "$T/err"
expect 2 "unknown module" -- "$CRK" list --module nomod
check "unknown module is named" grep -q "unknown module 'nomod'" "$T/err"
mkdir -p "$T/archdir/gfx942"
expect 1 "unknown arch" -- "$CRK" list --arch gfx9999 --dir "$T/archdir"
check "unknown arch is named, with the archs there" grep -q "arch 'gfx9999' in .*gfx942" "$T/err"
expect 3 "list --arch, no such dir" -- "$CRK" list --arch gfx942 --dir "$T/nonexistent"
expect 3 "show --dir nonexistent" -- "$CRK" show uexp_f32 --dir "$T/nonexistent"
check "show names the unreadable dir" grep -q "cannot read directory '$T/nonexistent'" "$T/err"
expect 1 "show, no code object holds it" -- "$CRK" show uexp_f32 --dir "$T/archdir"
expect 1 "show unknown" -- "$CRK" show no_such_kernel_xyz
grep -q nearest "$T/err" || { echo "FAIL: show unknown names no suggestions"; fails=$((fails + 1)); }
expect 3 "archs missing file" -- "$CRK" archs "$T/does-not-exist"
: > "$T/empty.hsaco"
expect 3 "archs empty file" -- "$CRK" archs "$T/empty.hsaco"
printf 'this is not a code object at all' > "$T/text.hsaco"
expect 3 "archs text" -- "$CRK" archs "$T/text.hsaco"
expect 3 "verify text" -- "$CRK" verify "$T/text.hsaco"
head -c 4096 /dev/urandom > "$T/random.hsaco"
expect 3 "archs random" -- "$CRK" archs "$T/random.hsaco"
printf '__CLANG_OFFLOAD_BUNDLE__\0\0\0\0\0\0\0\0' > "$T/zero.hsaco"
expect 3 "bundle with zero entries" -- "$CRK" archs "$T/zero.hsaco"
printf 'CCOB\003\0\001\0\377\377\377\377\377\377\0\0\377\377\377\377\377\377\0\0' > "$T/ccob.hsaco"
expect 3 "absurd CCOB" -- "$CRK" archs "$T/ccob.hsaco"

if [ -f "$HSACO" ]; then
    mod=$(basename "$HSACO")
    size=$(wc -c < "$HSACO")
    expect 0 "archs valid" -- "$CRK" archs "$HSACO"
    grep -q gfx "$T/out" || { echo "FAIL: archs printed no gfx target"; fails=$((fails + 1)); }
    expect 0 "archs --json" -- "$CRK" archs --json "$HSACO"
    # A valid file parses; whether its kernels pass (1 = e.g. register spills)
    # depends on the build, so both outcomes are accepted here.
    expect 0 "verify valid" -- "$CRK" verify "$HSACO"
    mkdir -p "$T/dir/gfx942"
    cp "$HSACO" "$T/dir/gfx942/$mod"
    expect 0 "verify dir" -- "$CRK" verify "$T/dir"
    expect 0 "verify dir --json" -- "$CRK" verify --json "$T/dir"
    first=$("$CRK" list --module "${mod%.hsaco}" 2>/dev/null | awk 'NR==1{print $1}')
    if [ -n "$first" ]; then
        expect 0 "show $first" -- "$CRK" show "$first" --dir "$T/dir"
        grep -q 'vgpr=' "$T/out" || { echo "FAIL: show printed no resources"; fails=$((fails + 1)); }
        expect 0 "list --arch" -- "$CRK" list --arch gfx942 --dir "$T/dir" "$first"
    fi
    expect 0 "verify an arch directory" -- "$CRK" verify "$T/dir/gfx942"
    check "verify an arch directory finds its file" grep -q '^ok: 1 file' "$T/out"
    cp "$HSACO" "$T/not_a_module.hsaco"
    expect 1 "verify unknown module" -- "$CRK" verify "$T/not_a_module.hsaco"
    for cut in 1 16 63 64 65 200 1000 $((size / 2)) $((size - 1)); do
        [ "$cut" -lt "$size" ] || continue
        head -c "$cut" "$HSACO" > "$T/cut.hsaco"
        expect 3 "archs truncated at $cut" -- "$CRK" archs "$T/cut.hsaco"
        expect 3 "verify truncated at $cut" -- "$CRK" verify "$T/cut.hsaco"
    done
    { printf 'XELF'; tail -c +5 "$HSACO"; } > "$T/badmagic.hsaco"
    expect 3 "bad magic" -- "$CRK" archs "$T/badmagic.hsaco"
    head -c 100 "$HSACO" > "$T/dir/gfx942/$mod"
    expect 3 "verify dir with a corrupt file" -- "$CRK" verify "$T/dir"
else
    echo "test_cli: $HSACO missing, valid-file cases skipped"
fi

# The one arch order, on the build's own tree when there is one.
if [ -f "$ROOT/hsaco/unary.hsaco" ] && [ -d "$ROOT/hsaco/gfx908" ]; then
    expect 0 "show in the build tree" -- "$CRK" show uexp_f32 --dir "$ROOT/hsaco"
    check "show lists archs in the one order" in_arch_order < "$T/out"
    expect 0 "archs of a bundle" -- "$CRK" archs "$ROOT/hsaco/unary.hsaco"
    check "archs lists targets in the one order" in_arch_order < "$T/out"
    expect 0 "verify the bundles and every arch" -- "$CRK" verify "$ROOT/hsaco"
else
    echo "test_cli: no built hsaco/ tree, arch-order cases skipped"
fi

# ---- issue 11: hostile files and directories ----
# A FIFO is refused, named, never waited on (timeout turns a hang into a failure).
mkfifo "$T/fifo.hsaco"
expect 3 "archs on a FIFO" -- timeout 10 "$CRK" archs "$T/fifo.hsaco"
check "archs names the FIFO" grep -q "is a FIFO" "$T/err"
expect 3 "verify a FIFO" -- timeout 10 "$CRK" verify "$T/fifo.hsaco"
mkdir -p "$T/fifodir/gfx942"
mkfifo "$T/fifodir/gfx942/unary.hsaco"
expect 3 "verify a directory holding a FIFO" -- timeout 10 "$CRK" verify "$T/fifodir"
expect 3 "show with a FIFO in the arch directory" -- timeout 10 "$CRK" show uexp_f32 --dir "$T/fifodir"
expect 3 "list --arch with a FIFO" -- timeout 10 "$CRK" list --arch gfx942 --dir "$T/fifodir"
# No listing limit: 20000 other files do not hide a corrupt code object.
mkdir -p "$T/many/gfx942"
(cd "$T/many/gfx942" && seq 1 20000 | sed 's/^/junk/' | xargs touch)
printf 'not a code object' > "$T/many/gfx942/cast.hsaco"
expect 3 "verify: a corrupt file among 20000 others" -- "$CRK" verify "$T/many"
check "verify names the corrupt file" grep -q "many/gfx942/cast.hsaco" "$T/err"
ln -s "$T/nowhere" "$T/many/gfx942/dangling.hsaco"
rm "$T/many/gfx942/cast.hsaco"
expect 3 "verify: a code object name that cannot be read" -- "$CRK" verify "$T/many"
rm "$T/many/gfx942/dangling.hsaco"
if [ "$(id -u)" != 0 ]; then
    mkdir -p "$T/many/gfx90a" && chmod 000 "$T/many/gfx90a"
    expect 3 "verify: an unreadable arch directory" -- "$CRK" verify "$T/many"
    chmod 755 "$T/many/gfx90a"
else
    echo "test_cli: running as root, unreadable-directory case skipped"
fi
# A bundle with a host entry only holds no target.
{ printf '__CLANG_OFFLOAD_BUNDLE__\001\0\0\0\0\0\0\0'; printf '\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'
  printf '\036\0\0\0\0\0\0\0host-x86_64-unknown-linux-gnu-'; } > "$T/hostonly.hsaco"
expect 1 "archs: a bundle with a host entry only" -- "$CRK" archs "$T/hostonly.hsaco"
if [ -f "$HSACO" ] && command -v python3 > /dev/null; then
    # Bundle ids with bytes >= 0x80 and a terminal escape: JSON stays valid
    # UTF-8, text and errors carry no escape byte.
    python3 - "$HSACO" "$T/evil.hsaco" "$T/evilcut.hsaco" <<'PY'
import struct, sys
img = open(sys.argv[1], 'rb').read()
bid = b'hipv4-amdgcn-amd-amdhsa--gfx942\xff\xc3(\x1b[31mred'
def bundle(data):
    hdr = 24 + 8 + 24 + len(bid)
    return b'__CLANG_OFFLOAD_BUNDLE__' + struct.pack('<QQQQ', 1, hdr, len(data), len(bid)) + bid + data
open(sys.argv[2], 'wb').write(bundle(img))
open(sys.argv[3], 'wb').write(bundle(img[:100]))
PY
    expect 0 "archs --json on a hostile bundle id" -- "$CRK" archs --json "$T/evil.hsaco"
    check "archs --json is valid UTF-8 JSON" python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$T/out"
    expect 0 "archs (text) on a hostile bundle id" -- "$CRK" archs "$T/evil.hsaco"
    check "text output has no escape byte" sh -c "! grep -q \"\$(printf '\\033')\" '$T/out'"
    expect 3 "archs on a damaged hostile bundle" -- "$CRK" archs "$T/evilcut.hsaco"
    check "error has no escape byte" sh -c "! grep -q \"\$(printf '\\033')\" '$T/err'"
    mkdir -p "$T/evildir/gfx942" && cp "$T/evilcut.hsaco" "$T/evildir/gfx942/unary.hsaco"
    expect 3 "verify --json on a damaged hostile bundle" -- "$CRK" verify --json "$T/evildir"
    check "verify --json is valid UTF-8 JSON" python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$T/out"
    # Many symbols sharing one long name: linear, not quadratic (issue 11
    # defect 1: a 256 KiB cubin took 8 s and 0.7 GB).
    cat > "$T/cubin.py" <<'PY'
import struct, sys
name = b'k' * int(sys.argv[2]) + b'\0'
nsym = int(sys.argv[3])
strtab = b'\0' + name
symtab = b'\0' * 24 + b''.join(struct.pack('<IBBHQQ', 1, 0x12, 0x10, 0, 0, 0) for _ in range(nsym))
shstr = b'\0.strtab\0.symtab\0.shstrtab\0'
off_str = 64; off_sym = off_str + len(strtab); off_shs = off_sym + len(symtab)
shoff = (off_shs + len(shstr) + 7) & ~7
def sh(name, typ, off, size, link=0, ent=0):
    return struct.pack('<IIQQQQIIQQ', name, typ, 0, 0, off, size, link, 0, 1, ent)
ehdr = b'\x7fELF\x02\x01\x01\x33\x07' + b'\0' * 7 + struct.pack('<HHIQQQIHHHHHH', 2, 190, 1, 0, 0, shoff, 0x5a, 64, 0, 0, 64, 4, 3)
body = ehdr + strtab + symtab + shstr
body += b'\0' * (shoff - len(body))
body += sh(0, 0, 0, 0) + sh(1, 3, off_str, len(strtab)) + sh(9, 2, off_sym, len(symtab), 1, 24) + sh(17, 3, off_shs, len(shstr))
open(sys.argv[1], 'wb').write(body)
PY
    python3 "$T/cubin.py" "$T/wide.cubin" 4000 40000
    python3 "$T/cubin.py" "$T/long.cubin" 131072 5000
    expect 3 "archs on a cubin of 5000 kernels sharing one 128 KiB name" -- timeout 20 "$CRK" archs "$T/long.cubin"
    check "the over-long name is named with the limit" grep -q 'longer than 4096 bytes' "$T/err"
    expect 0 "archs on a cubin of 40000 kernels sharing one 4000-byte name" -- timeout 20 "$CRK" archs "$T/wide.cubin"
    check "all 40000 kernels listed" grep -q '40000 kernels' "$T/out"
fi
# The NVIDIA build verifies (module name without .fatbin), alone and in a tree.
if [ -f "$ROOT/hsaco/nvidia/unary.fatbin" ]; then
    expect 0 "verify a fatbin" -- "$CRK" verify "$ROOT/hsaco/nvidia/unary.fatbin"
    mkdir -p "$T/nvtree/nvidia"
    cp "$ROOT/hsaco/nvidia/"*.fatbin "$T/nvtree/nvidia/"
    expect 0 "verify a tree with hsaco/nvidia" -- "$CRK" verify "$T/nvtree"
    head -c 200 "$ROOT/hsaco/nvidia/unary.fatbin" > "$T/nvtree/nvidia/unary.fatbin"
    expect 3 "verify finds a damaged fatbin in nvidia/" -- "$CRK" verify "$T/nvtree"
else
    echo "test_cli: no hsaco/nvidia/unary.fatbin (no nvcc), fatbin cases skipped"
fi

echo "test_cli: $((n - fails))/$n passed"
[ "$fails" -eq 0 ]
