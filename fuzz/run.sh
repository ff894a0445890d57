#!/bin/sh
# fuzz/run.sh DURATION_S — build the libFuzzer targets into build/fuzz/ and run
# each for DURATION_S seconds. Seeds: code objects found under hsaco/ and
# build/, plus tiny handmade inputs. Prints executions per target; exits
# non-zero if any target crashes (the reproducer is left in build/fuzz/).
set -eu
DUR=${1:-60}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/fuzz
CC=${FUZZ_CC:-clang-14}
# Low decompression cap: keeps hostile CCOB sizes cheap under ASan.
CFLAGS="-std=c11 -Wall -Werror -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
 -DCRK_CO_MAX_UNCOMPRESSED=(64u<<20) -I$ROOT/include -I$ROOT/loader -I$ROOT/fuzz"
# Every parser, the layout API and target selection (pure code, no GPU).
SRC="$ROOT/loader/codeobj_*.c $ROOT/loader/msgpack.c $ROOT/loader/layout.c $ROOT/loader/error.c
 $ROOT/loader/candidates.c $ROOT/loader/target_id.c"
TARGETS="elf msgpack bundle nv layout select"
# Inputs up to 4 MiB, so that size-driven blow-ups (issue 11: a quadratic
# cubin needed 256 KiB) are reachable; a process above RSS_MB is a finding.
MAX_LEN=${FUZZ_MAX_LEN:-4194304}
RSS_MB=${FUZZ_RSS_MB:-1024}
# Targets build and run FUZZ_JOBS at a time (default: one per core), each
# for the whole DURATION_S on its own core (CI's 2 cores: 3 rounds, not 6).
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p "$OUT"

# each_target CMD: CMD t for every target, JOBS at once; fails if one failed
each_target() {
    n=0 pids=""
    for t in $TARGETS; do
        "$@" "$t" & pids="$pids $!"
        n=$((n + 1))
        if [ "$n" -ge "$JOBS" ]; then
            for p in $pids; do wait "$p" || return 1; done
            n=0 pids=""
        fi
    done
    for p in $pids; do wait "$p" || return 1; done
}
build_target() {
    # shellcheck disable=SC2086
    $CC $CFLAGS "$ROOT/fuzz/fuzz_$1.c" $SRC -lzstd -lz -o "$OUT/fuzz_$1"
}
each_target build_target

# Seeds.
for t in $TARGETS; do rm -rf "$OUT/seed_$t"; mkdir -p "$OUT/seed_$t" "$OUT/corpus_$t"; done
find "$ROOT/hsaco" "$ROOT/build" -type f \( -name '*.hsaco' -o -name '*.co' -o -name '*.cubin' \
    -o -name '*.fatbin' -o -name '*.bundle' \) -size -4M 2>/dev/null | head -200 |
while read -r f; do
    h=$(cksum < "$f" | cut -d' ' -f1)
    for t in elf bundle nv; do cp "$f" "$OUT/seed_$t/$h"; done
done
S=$OUT/seed_msgpack
printf '\x80' > "$S/empty_map"
printf '\x81\xaeamdhsa.kernels\x90' > "$S/no_kernels"
printf '\x82\xaeamdhsa.version\x92\x01\x02\xaeamdhsa.kernels\x91\x82\xa5.name\xa1k\xa5.args\x91\x83\xa7.offset\x00\xa5.size\x08\xab.value_kind\xa8by_value' > "$S/one_kernel"
printf '\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x90' > "$S/nested"
printf '__CLANG_OFFLOAD_BUNDLE__\001\0\0\0\0\0\0\0' > "$OUT/seed_bundle/hdr_only"
printf 'CCOB\003\0\001\0' > "$OUT/seed_bundle/ccob_hdr"
printf '\x50\xed\x55\xba\001\0\020\0\0\0\0\0\0\0\0\0' > "$OUT/seed_nv/fatbin_empty"
printf '\177ELF\002\001\001\100\002' > "$OUT/seed_elf/elf_ident"
printf '\001\000\002\010\003\000\000\000\000\000\000\000\001\000\000\000' > "$OUT/seed_layout/rank2"
printf '\003\000\021\001\377\377\377\377' > "$OUT/seed_layout/rank17"
printf '\001gfx90a:sramecc+:xnack-\ngfx90a\ngfx90a:xnack-\ngfx942\ngfx9-generic\n' > "$OUT/seed_select/dir"
printf '\000gfx1100\ngfx11-generic\ngfx1100\ngfx1100\n' > "$OUT/seed_select/repeats"
# Metadata notes of real code objects make good msgpack seeds.
if command -v python3 >/dev/null; then
    python3 - "$OUT/seed_elf" "$S" <<'PY' || true
import os, sys
src, dst = sys.argv[1], sys.argv[2]
for n in os.listdir(src):
    b = open(os.path.join(src, n), 'rb').read()
    i = b.find(b'AMDGPU\0\0')
    while i >= 12:
        desc = int.from_bytes(b[i-8:i-4], 'little')
        if int.from_bytes(b[i-4:i], 'little') == 32:
            open(os.path.join(dst, n), 'wb').write(b[i+8:i+8+desc]); break
        i = b.find(b'AMDGPU\0\0', i + 1)
PY
fi

run_target() {
    if (cd "$OUT" && ./fuzz_$1 -max_total_time="$DUR" -max_len="$MAX_LEN" -rss_limit_mb="$RSS_MB" -malloc_limit_mb="$RSS_MB" \
            -print_final_stats=1 "corpus_$1" "seed_$1") > "$OUT/fuzz_$1.log" 2>&1; then
        echo ok > "$OUT/fuzz_$1.result"
    else
        echo CRASH > "$OUT/fuzz_$1.result"
    fi
}
rm -f "$OUT"/fuzz_*.result
each_target run_target
status=0
for t in $TARGETS; do
    log=$OUT/fuzz_$t.log
    r=$(cat "$OUT/fuzz_$t.result" 2>/dev/null || echo CRASH)
    [ "$r" = ok ] || status=1
    execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz_$t: $r, ${execs:-?} executions in ${DUR}s (log: $log)"
    [ "$r" = ok ] || grep -m3 -E 'ERROR|SUMMARY' "$log" || true
done
exit $status
