#!/usr/bin/env bash
# device_run.sh PARTS... — run on the lent NVIDIA GPU from the repository root,
# with .device/ carried (make device-stage). PARTS: hello overhead numeric
# memcheck bench. Logs and JSON go to $OUT (the device tool brings them back).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd .device
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
seed=${SEED:-$(date +%s)}
for part in "$@"; do
  echo "=== $part"
  case $part in
    hello) ./hello ;;
    overhead) ./overhead | tee "$OUT/overhead.txt" ;;
    numeric) timeout ${NUMERIC_TIMEOUT:-300} ./numeric --seed "$seed"  --json "$OUT/numeric.json" > "$OUT/numeric.log" 2>&1
             echo "rc=$?"; grep -E '^(FAIL|skipped|ok )' "$OUT/numeric.log" | head -40; tail -50 "$OUT/numeric.log" ;;
    memcheck) timeout ${MEMCHECK_TIMEOUT:-200} compute-sanitizer --tool memcheck --print-limit 20 ./numeric --seed "$seed" --no-huge  \
                > "$OUT/memcheck.log" 2>&1; echo "rc=$?"; grep -E 'ERROR SUMMARY|FAIL|numeric:' "$OUT/memcheck.log" | tail -5 ;;
    mutants) # deliberately broken builds (scripts/mutants.sh): each must fail
      for m in tail:affine_* overrun:affine_* gelu:ugelu_f32 swap:where_* divzero:bdiv_* rhsstride:badd_* \
               nenan:ne_* nanprop:bmaximum_* setflat:const_set_* rowover:copy2d_* fillshort:fill_*; do
        name=${m%%:*} glob=${m#*:}
        ./numeric --no-huge --source dir --path "mutants/$name" --filter "$glob" > "$OUT/mutant-$name.log" 2>&1
        echo "mutant $name (rc=$?): $(grep -c '^FAIL' "$OUT/mutant-$name.log") FAIL lines; $(grep -m1 '^FAIL' "$OUT/mutant-$name.log"); $(tail -1 "$OUT/mutant-$name.log")"
      done ;;
    bench) PYTHONUNBUFFERED=1 ./bench  --out "$OUT/bench" > "$OUT/bench.txt" 2>&1; echo "rc=$?"; tail -60 "$OUT/bench.txt" ;;
  esac
done
