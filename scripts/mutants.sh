#!/usr/bin/env bash
# mutants.sh OUTDIR — builds deliberately broken NVIDIA variants of kernels
# (sm_90 only) to show that the numeric suite catches real bugs:
#   tail      affine: the contiguous tail loop is skipped (unwritten outputs)
#   overrun   affine: the tail loop writes one element past the end
#   gelu      unary: gelu's 0.044715 becomes 0.0447
#   swap      ternary: strided where reads t and f through each other's strides
# Each OUTDIR/<mutant>/nvidia holds the mutated module and an empty
# unary.fatbin placeholder (target selection only checks that it exists).
# Run: numeric --source dir --path OUTDIR/<mutant> --filter GLOB --no-huge
set -euo pipefail
out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mutate() { # name module sed-file sed-expression
  local name=$1 module=$2 file=$3 expr=$4 src=/tmp/crk-mutant-$1
  rm -rf "$src" && cp -r "$top/kernels" "$src"
  sed -i "$expr" "$src/$file"
  if cmp -s "$src/$file" "$top/kernels/$file"; then echo "mutants: $name: the edit did not apply" >&2; exit 1; fi
  mkdir -p "$out/$name/nvidia"
  "$nvcc" -x cu -std=c++17 -O3 -I"$src" -fatbin -gencode arch=compute_90,code=sm_90 \
    "$top/build/gen/$module.hip" -o "$out/$name/nvidia/$module.fatbin"
  [ -f "$out/$name/nvidia/unary.fatbin" ] || : > "$out/$name/nvidia/unary.fatbin"
  echo "mutant $name: $module ($file: $expr)"
}
mutate tail affine elementwise.h 's/for (size_t i = head + gid; i < numel; i += gs) out\[i\] = f(in\[i\]);/(void)head;/'
mutate overrun affine elementwise.h 's/for (size_t i = head + gid; i < numel; i += gs)/for (size_t i = head + gid; i <= numel; i += gs)/'
mutate gelu unary unary.h 's/m::cst<A>(0.044715)/m::cst<A>(0.0447)/'
mutate swap ternary ternary.h 's/return ids\[o.o\[0\]\] != 0 ? t\[o.o\[1\]\] : f\[o.o\[2\]\];/return ids[o.o[0]] != 0 ? t[o.o[2]] : f[o.o[1]];/'
