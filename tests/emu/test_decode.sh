#!/bin/sh
# test_decode.sh — decodes every instruction of every shipped code object
# for gfx942 and gfx1100 with build/emu/emu-disasm and compares it with
# llvm-objdump-22, instruction by instruction (address, mnemonic, operands,
# modifiers). Only cosmetic differences are normalised: runs of blanks and
# objdump's trailing "// ADDR: BYTES <sym+off>" comment (its address is
# kept for the pairing).
# Usage: tests/emu/test_decode.sh [max-mismatches-shown] [arch...]
# Exit: 0 all equal, 1 any mismatch, 77 nothing to test.
set -eu
SHOW=${1:-20}
[ $# -gt 0 ] && shift
ARCHS=${*:-gfx942 gfx1100}
DIS=${EMU_DISASM:-build/emu/emu-disasm}
OBJDUMP=${OBJDUMP:-llvm-objdump-22}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
total=0 bad=0 files=0
for arch in $ARCHS; do
    for f in hsaco/$arch/*.hsaco; do
        [ -e "$f" ] || continue
        files=$((files + 1))
        # objdump: "<TAB>text  // 00000000ADDR: BYTES <sym>" -> "ADDR<TAB>text"
        "$OBJDUMP" -d --mcpu="$arch" "$f" | awk '
            /\/\/ [0-9A-F]+:/ {
                i = index($0, "//"); text = substr($0, 1, i - 1)
                rest = substr($0, i + 3); addr = substr(rest, 1, index(rest, ":") - 1)
                sub(/^0+/, "", addr); if (addr == "") addr = "0"
                gsub(/[ \t]+/, " ", text); sub(/^ /, "", text); sub(/ $/, "", text)
                print addr "\t" text
            }' >"$TMP/ref"
        "$DIS" "$arch" "$f" | awk -F'\t' '{ t = $2; gsub(/[ \t]+/, " ", t); sub(/ $/, "", t); print $1 "\t" t }' >"$TMP/got" || true
        n=$(wc -l <"$TMP/ref")
        total=$((total + n))
        # equal text: no mismatch (the usual case, a byte compare); else pair
        # lines by address, a missing or extra address a mismatch too
        if cmp -s "$TMP/ref" "$TMP/got"; then echo 0 >"$TMP/m"; else awk -F'\t' -v show="$SHOW" -v file="$f" -v already="$bad" '
            NR == FNR { ref[$1] = $2; order[++nr] = $1; next }
            { got[$1] = $2 }
            END {
                m = 0
                for (i = 1; i <= nr; i++) {
                    a = order[i]
                    if (!(a in got) || got[a] != ref[a]) {
                        m++
                        if (already + m <= show)
                            printf "%s 0x%s\n  objdump: %s\n  emu:     %s\n", file, a, ref[a], (a in got) ? got[a] : "<no instruction at this address>"
                    }
                }
                print m > "/dev/stderr"
            }' "$TMP/ref" "$TMP/got" 2>"$TMP/m"; fi
        m=$(cat "$TMP/m")
        bad=$((bad + m))
        echo "$arch $(basename "$f"): $n instructions, $m mismatches"
    done
done
echo "test_decode: $files code objects, $total instructions compared, $bad mismatches"
[ "$files" -gt 0 ] || exit 77
[ "$bad" -eq 0 ]
