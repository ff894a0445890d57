#!/usr/bin/env bash
# device_run.sh PARTS... — run on the lent NVIDIA GPU from the repository root,
# with .device/ carried (make device-stage), or .device/pack.tgz (make device-pack). PARTS: hello overhead numeric
# memcheck threads ggml mutants bench parity (mutants: with build/gen carried too, the
# mutated kernels are built there with nvcc, MUTANT_JOBS at once). Logs and JSON go to $OUT (the device tool brings them back).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
[ -f .device/pack.tgz ] && { tar xzf .device/pack.tgz || exit 1; }  # make device-pack
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
    threads) ./threads --threads 16 --iterations 20 | tee "$OUT/threads.txt" ;;
    ggml) ./ggml_parity | tee "$OUT/ggml_parity.txt" ;; # tests/ref's GGML blocks against Candle's quantized.cubin
    mutants) # deliberately broken builds (scripts/mutants.sh): each must fail
      [ -d mutants ] || MUTANT_JOBS=${MUTANT_JOBS:-14} ../scripts/mutants.sh mutants nvidia > "$OUT/mutants-build.log" 2>&1 \
        || { echo "mutants: build failed"; tail -20 "$OUT/mutants-build.log"; }
      NUMERIC=./numeric ../scripts/check_mutants.sh mutants | tee "$OUT/mutants.txt" ;;
    parity) # Candle's own cubins (make device-stage) under Candle's launches against our references:
            # a value failure is a parity bug (ours or the reference's); a kernel upstream lacks
            # (i16/i32 variants, our crk_* kernels) fails as "named symbol not found", counted apart
      rm -rf parity && mkdir -p parity/nvidia
      for c in peers/candle-0.11-sm90/*.cubin; do cp "$c" "parity/nvidia/$(basename "${c%.cubin}").fatbin"; done
      timeout "${PARITY_TIMEOUT:-300}" ./numeric --no-huge --seed "$seed" --shape candle --source dir --path parity \
        > "$OUT/parity.log" 2>&1; echo "rc=$?"
      missing=$(grep -c '^FAIL.*named symbol not found' "$OUT/parity.log")
      wrong=$(grep '^FAIL' "$OUT/parity.log" | grep -vc 'named symbol not found')
      echo "parity: $wrong value failures; $missing failures of kernels upstream lacks; $(tail -1 "$OUT/parity.log")"
      grep '^FAIL' "$OUT/parity.log" | grep -v 'named symbol not found' | head -20 ;;
    bench) # Candle's cubins: .device/peers/candle-0.11-sm90 (make device-stage), found next to ./bench
      PYTHONUNBUFFERED=1 timeout ${BENCH_TIMEOUT:-540} ./bench --out "$OUT/bench" ${BENCH_ARGS:-} > "$OUT/bench.txt" 2>&1
      echo "rc=$?"; grep -E '^(candle|torch|ERROR|WARNING)' "$OUT/bench.txt" | head -20; sed -n '/^== crk vs/,$p' "$OUT/bench.txt" ;;
  esac
done
