#!/usr/bin/env bash
# mutants.sh OUTDIR — builds deliberately broken NVIDIA variants of kernels
# (sm_90 only) to show that the numeric suite catches real bugs:
#   tail      affine: the contiguous tail loop is skipped (unwritten outputs)
#   overrun   affine: the tail loop writes one element past the end
#   gelu      unary: gelu's 0.044715 becomes 0.0447
#   swap      ternary: strided where reads t and f through each other's strides
#   divzero   binary: integer x/0 gives 0 instead of all ones
#   rhsstride binary: a strided rhs is read at lhs's offsets
#   nenan     cmp: ne is false on NaN (ordered compare)
#   nanprop   binary: 16-bit maximum/minimum ignore NaN
#   setflat   const_set: a strided view is written as if contiguous
#   rowover   copy2d: each row copies one element too many
#   fillshort fill: the last element is left unwritten
# MUTANTS (below) pairs each with the kernels it breaks, for device_run.sh.
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
mutate tail affine elementwise.h 's/for (size_t i = head + gid; i < numel; i += gs) out\[i\] = f(in\[i\]...);/(void)head;/'
mutate overrun affine elementwise.h 's/for (size_t i = head + gid; i < numel; i += gs)/for (size_t i = head + gid; i <= numel; i += gs)/'
mutate gelu unary unary.h 's/m::cst<A>(0.044715)/m::cst<A>(0.0447)/'
mutate swap ternary ternary.h 's/return ids\[o.o\[0\]\] != 0 ? t\[o.o\[1\]\] : f\[o.o\[2\]\];/return ids[o.o[0]] != 0 ? t[o.o[2]] : f[o.o[1]];/'
mutate divzero binary binary.h 's/if (b == 0) return (I)~(I)0;/if (b == 0) return 0;/'
mutate rhsstride binary binary.h 's/return f(lhs\[o.o\[0\]\], rhs\[o.o\[1\]\]);/return f(lhs[o.o[0]], rhs[o.o[0]]);/'
mutate nenan binary binary.h 's/m::cmpv(a) != m::cmpv(b)/m::cmpv(a) < m::cmpv(b) || m::cmpv(a) > m::cmpv(b)/'
mutate nanprop binary numeric.h 's/if (a.f() != a.f() || b.f() != b.f()) return H<S>{0x7FFF};//'
mutate setflat fill fill.h 's/out\[c.o.o\[0\]\] = v;/out[i] = v;/'
mutate rowover fill fill.h 's/col + j < d2; ++j/col + j <= d2; ++j/'
mutate fillshort fill fill.h 's/zip_contiguous<16 \/ sizeof(T)>(numel, buf/zip_contiguous<16 \/ sizeof(T)>(numel - 1, buf/'
