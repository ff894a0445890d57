#!/usr/bin/env bash
# profile_reduce.sh — Nsight Compute reports of module reduce's kernels under
# libcrk's launch (the first launches of each name in ./bench are libcrk's
# helper's), from .device/ on the lent GPU. Reports go to $OUT/ncu-*.txt, a
# summary of each to stdout. Usage: scripts/profile_reduce.sh [op:kernel ...]
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd .device
pairs=${*:-softmax_bf16:crk_softmax_vec_bf16 softmax_f32:crk_softmax_vec_f32 sum:fast_sum_f32 sum0:crk_fast_sum_cols_f32 max0:crk_fast_max_cols_f32 rope_bf16:rope_bf16 rope_f32:rope_f32}
for p in $pairs; do
  op=${p%%:*} k=${p#*:}
  timeout 120 ncu --clock-control none -k "$k" --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
    --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    ./bench --candle-dir cr --no-torch --no-candle --no-plot --sizes 24 --ops "$op" --out /tmp/ncu-bench \
    > "$OUT/ncu-$op-$k.txt" 2>&1
  echo "=== $op $k rc=$?"
  grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Block Size|Grid Size|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|One or More Eligible|Warp Cycles Per Issued" "$OUT/ncu-$op-$k.txt" | head -24
done
