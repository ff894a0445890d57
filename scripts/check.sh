#!/usr/bin/env bash
# check.sh "ARCHS" — the steps of `make check`, each counted, then one closing
# line for the whole run, counting tests (a test's inner comparisons are
# reported apart). GPU tests count as skipped (never passed) without a GPU.
# EMU_ARCHS (from make): the AMD targets the emulator (tests/emu) runs the
# numeric suite on, through libcrk's HIP back end and the stand-in runtime.
set -uo pipefail
archs=$1
emu_archs=${EMU_ARCHS-gfx942 gfx1100}
# EMU_NUMERIC_FILTER: a --filter glob for the emulated numeric runs (check_tools.sh
# runs one family there: it proves the tool list, which the numeric suite uses none of)
emu_filter=(); [ -n "${EMU_NUMERIC_FILTER:-}" ] && emu_filter=(--filter "$EMU_NUMERIC_FILTER")
# EMU_MAX_NUMEL (mk/check.mk): the emulated runs skip (and count as skipped)
# the cases whose largest tensor passes it: 2^17+3 keeps every layout case and leaves the
# n=2^18+3 vectors, the 2^20-element rows and the 1M-element index source to
# the GPU run (the vector path and its tail run on the 65537-element prime
# there, the row kernels' paths on 32768- to 65536-element rows; 2^18+3 took
# a quarter of an f32 run, the 2^20 rows two thirds of the rest). CI's 2
# cores must fit the whole job in 90 min.
emu_limit=(--max-numel "${EMU_MAX_NUMEL:?set by mk/check.mk}")
passed=0 failed=0 skipped=0 comparisons=0
full_step="numeric suite on the GPU present"  # numeric tables are shown whole: no row dropped
log=build/check.log
: > "$log"
step() { # step NAME COMMAND...: runs it, echoes its output, adds what it counted
  local name=$1; shift
  local out rc t0=$SECONDS
  out=$("$@" 2>&1); rc=$?
  echo "== $name ($((SECONDS - t0)) s)" # the time: CI's 90 min are counted
  echo "$out" | tee -a "$log" >/dev/null
  case $name in "numeric suite"*) echo "$out" ;; *) echo "$out" | tail -n 12 ;; esac
  local p f s
  if line=$(echo "$out" | grep -E '^(numeric: )?[0-9]+ passed, [0-9]+ failed' | tail -1); then
    p=$(echo "$line" | sed -E 's/^[a-z: ]*([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | grep -oE '[0-9]+ skipped' | cut -d' ' -f1); s=${s:-0}
    c=$(echo "$line" | grep -oE '\([0-9]+ comparisons' | tr -dc 0-9); comparisons=$((comparisons + ${c:-0}))
  elif line=$(echo "$out" | grep -E 'Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' | tail -1); then
    p=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/'); f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1+\2/'); f=$((f)); p=$((p - f)); s=0
  elif line=$(echo "$out" | grep -E '[0-9]+/[0-9]+ passed' | tail -1); then
    p=$(echo "$line" | sed -E 's/.* ([0-9]+)\/([0-9]+) passed.*/\1/'); f=$(( $(echo "$line" | sed -E 's/.* ([0-9]+)\/([0-9]+) passed.*/\2/') - p )); s=0
  else
    p=$((rc == 0)) f=$((rc != 0)) s=0
  fi
  [ $rc -ne 0 ] && [ "$f" = 0 ] && f=1
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}
# The emulated numeric runs take minutes: they start now, one per arch in
# the background, while the steps below run; their steps wait for them.
mkdir -p build/emu
for a in $emu_archs; do
  ( t0=$SECONDS; CRK_GPU_API=hip CRK_HIP_LIBRARY="$PWD/build/emu/libamdhip64.so" CRK_EMU_ARCH=$a CRK_EMU_STATS=1 \
      build/numeric --no-huge "${emu_limit[@]}" "${emu_filter[@]}" --json "build/emu/numeric-$a.json" > "build/emu/numeric-$a.log" 2>&1
    echo $? > "build/emu/numeric-$a.rc"; echo "emulated $a: $((SECONDS - t0)) s in the background" >> "build/emu/numeric-$a.log" ) &
  eval "emu_pid_$a=$!"
done
emu_result() { # emu_result ARCH: the finished run's log, and its exit status
  cat "build/emu/numeric-$1.log"; return "$(cat "build/emu/numeric-$1.rc")"
}
# generic_run DEVICE OBJECT GLOB: an emulated chip no exact object covers
# runs GLOB's kernels from the generic object libcrk must pick for it.
generic_run() {
  local out rc
  out=$(CRK_GPU_API=hip CRK_HIP_LIBRARY="$PWD/build/emu/libamdhip64.so" CRK_EMU_ARCH=$1 \
        build/numeric --no-huge "${emu_limit[@]}" --filter "$3" 2>&1); rc=$?
  echo "$out" | grep -E '^(device|numeric):'
  grep -q "code object $2)" <<< "$out" || { echo "expected code object $2"; return 1; }
  return $rc
}

step "manifest vs files and registry" scripts/check_manifest.sh $archs
step "AMDGPU ABI and resources, every kernel in every arch" build/crk verify hsaco
step "CPU references" build/ref_selftest
for t in build/unit/test_*; do
  step "unit: ${t##*/}" env CRK_TEST_HSACO=hsaco/${archs%% *}/unary.hsaco CRK_TEST_HSACO_DIR=hsaco \
    CRK_TEST_STANDIN_HIP=build/unit/libstandin_hip.so "$t"
done
step "CLI" env CRK=build/crk tests/unit/test_cli.sh
step "programs linked with libcrk (static, shared, small)" tests/unit/test_link.sh
step "$full_step" build/numeric --json build/numeric.json
if [ -n "$emu_archs" ]; then
  step "emulator: executor unit tests (hand-assembled gfx942/gfx1100 code)" build/emu/test_exec
  step "emulator: stand-in HIP runtime unit tests" build/emu/test_rt
  step "emulator: every instruction of the shipped objects decodes as llvm-objdump-22 says" \
    env OBJDUMP=llvm-objdump-22 tests/emu/test_decode.sh 20 $emu_archs
  step "emulator: every instruction of the shipped objects executes" make -s emu-test-cover EMU_DECODE_ARCHS="$emu_archs"
  case " $emu_archs " in *" gfx942 "*)
    step "deliberately broken kernels fail on emulated gfx942" make -s check-mutants MUTANT_ARCH=gfx942 ;;
  esac
  case " $archs " in *" gfx11-generic "*)
    step "generic target: emulated gfx1103 (780M, no exact object) runs gfx11-generic" \
      generic_run gfx1103 gfx11-generic 'fast_sum_*' ;;
  esac
  for a in $emu_archs; do
    eval "wait \$emu_pid_$a" # (a step runs in a subshell, which cannot wait for it)
    step "numeric suite on emulated $a" emu_result "$a"
  done
fi
echo
echo "CPU reference comparisons (inside the tests above): $comparisons"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
