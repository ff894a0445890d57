#!/usr/bin/env bash
# check.sh "ARCHS" — the steps of `make check`, each counted, then one closing
# line for the whole run, counting tests (a test's inner comparisons are
# reported apart). GPU tests count as skipped (never passed) without a GPU.
set -uo pipefail
archs=$1
passed=0 failed=0 skipped=0 comparisons=0
full_step="numeric suite on the GPU present"  # its table is shown whole: no row dropped
log=build/check.log
: > "$log"
step() { # step NAME COMMAND...: runs it, echoes its output, adds what it counted
  local name=$1; shift
  echo "== $name"
  local out rc
  out=$("$@" 2>&1); rc=$?
  echo "$out" | tee -a "$log" >/dev/null
  if [ "$name" = "$full_step" ]; then echo "$out"; else echo "$out" | tail -n 12; fi
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
step "manifest vs files and registry" scripts/check_manifest.sh $archs
step "AMDGPU ABI and resources, every kernel in every arch" build/crk verify hsaco
step "CPU references" build/ref_selftest
for t in build/unit/test_*; do
  step "unit: ${t##*/}" env CRK_TEST_HSACO=hsaco/${archs%% *}/unary.hsaco CRK_TEST_HSACO_DIR=hsaco "$t"
done
step "CLI" env CRK=build/crk tests/unit/test_cli.sh
step "programs linked with libcrk (static, shared, small)" tests/unit/test_link.sh
step "$full_step" build/numeric --json build/numeric.json
echo
echo "CPU reference comparisons (inside the tests above): $comparisons"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
