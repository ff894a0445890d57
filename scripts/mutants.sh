#!/usr/bin/env bash
# mutants.sh OUTDIR [nvidia | amd ARCH] — builds deliberately broken
# variants of kernels to show that the numeric suite catches real bugs:
# NVIDIA (sm_90, nvcc; run on the lent GPU by device_run.sh) or one AMD arch
# (clang with $CLANG and $HIPFLAGS from make; run on the emulator by
# `make check-mutants`). OUTDIR/list holds "name glob" per mutant: the
# kernels each must break. Each OUTDIR/<name>/<nvidia|ARCH> holds the mutated
# module and an empty unary placeholder (target selection only checks that
# it exists). Run: numeric --source dir --path OUTDIR/<name> --filter GLOB --no-huge
# A mutated module holds only the kernels of its glob (and of KEEP, the
# kernels libcrk's helpers launch for them): a small compile. A kernel the
# run needs and the module lacks fails check_mutants.sh as BROKEN, never as
# caught.
set -euo pipefail
out=$1 kind=${2:-nvidia} arch=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out" && : > "$out/list"
# only_kernels GLOB... < module.hip: the generated module with the kernels
# whose names match a GLOB (each kernel: a CRK_KERNEL line to its "}").
only_kernels() {
  local re g
  re=$(for g in "$@"; do printf '%s\n' "$g"; done | sed 's/\./\\./g; s/\*/.*/g; s/?/./g' | paste -sd'|')
  awk -v re="^($re)\$" '
    /^CRK_KERNEL/ { name = $0; sub(/^[^)]*\) */, "", name); sub(/\(.*/, "", name); keep = name ~ re; if (keep) n++ }
    /^CRK_KERNEL/ || inside { inside = !/^}/; if (keep) print; next }
    { print }
    END { if (!n) exit 1 }'
}
mutate() { # name glob module sed-file sed-expression [keep globs]
  local name=$1 glob=$2 module=$3 file=$4 expr=$5 keep=${6:-} src=/tmp/crk-mutant-$1
  rm -rf "$src" && cp -r "$top/kernels" "$src"
  sed -i "$expr" "$src/$file"
  if cmp -s "$src/$file" "$top/kernels/$file"; then echo "mutants: $name: the edit did not apply" >&2; exit 1; fi
  # shellcheck disable=SC2086 # keep: a list of globs, unexpanded (noglob)
  (set -f; only_kernels "$glob" $keep) < "$top/build/gen/$module.hip" > "$src/$module.hip" ||
    { echo "mutants: $name: no kernel of module $module matches '$glob'" >&2; exit 1; }
  if [ "$kind" = amd ]; then
    mkdir -p "$out/$name/$arch"
    # shellcheck disable=SC2086 # HIPFLAGS is a list of flags
    $CLANG -I"$src" $HIPFLAGS --offload-arch="$arch" -c "$src/$module.hip" -o "$out/$name/$arch/$module.hsaco"
    [ -f "$out/$name/$arch/unary.hsaco" ] || : > "$out/$name/$arch/unary.hsaco"
  else
    mkdir -p "$out/$name/nvidia"
    "$nvcc" -x cu -std=c++17 -O3 -I"$src" -fatbin -gencode arch=compute_90,code=sm_90 \
      "$src/$module.hip" -o "$out/$name/nvidia/$module.fatbin"
    [ -f "$out/$name/nvidia/unary.fatbin" ] || : > "$out/$name/nvidia/unary.fatbin"
  fi
  echo "$name $glob" >> "$out/list"
  echo "mutant $name: $module ($file: $expr)"
}
jobs_max=${MUTANT_JOBS:-1} pids=()
spawn() { # mutate in the background, at most jobs_max at once (MUTANT_ONLY: that one only)
  if [ -n "${MUTANT_ONLY:-}" ] && [ "$1" != "$MUTANT_ONLY" ]; then return; fi
  if [ "$jobs_max" -le 1 ]; then mutate "$@"; return; fi
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  mutate "$@" & pids+=($!)
}
nvidia_only() { # spawn, for code AMD builds do not compile in (e.g. conv.h kPoolRowsFirst)
  if [ "$kind" = nvidia ]; then spawn "$@"; fi
}
# affine: the contiguous tail loop is skipped (unwritten outputs)
spawn tail 'affine_*' affine elementwise.h 's/for (size_t i = head + gid; i < numel; i += gs) out\[i\] = f(in\[i\]...);/(void)head;/'
# affine: the tail loop writes one element past the end
spawn overrun 'affine_*' affine elementwise.h 's/for (size_t i = head + gid; i < numel; i += gs)/for (size_t i = head + gid; i <= numel; i += gs)/'
# the row walk: a row's last run is taken whole (writes past the row, and past the end)
spawn colend 'affine_*' affine elementwise.h 's/bool whole = col + N <= last \&\& aligned_for<D, N>(out + i0);/bool whole = col < last \&\& aligned_for<D, N>(out + i0);/'
# unary: gelu's 0.044715 becomes 0.0447
spawn gelu 'ugelu_f32' unary unary.h 's/m::cst<A>(0.044715)/m::cst<A>(0.0447)/'
# ternary: strided where takes on_true and on_false for each other
spawn swap 'where_*' ternary ternary.h 's/map_strided<N>(numel, nd, info, out, Select{}, ids, t, f);/map_strided<N>(numel, nd, info, out, Select{}, ids, f, t);/'
# binary: integer x/0 gives 0 instead of all ones
spawn divzero 'bdiv_*' binary binary.h 's/if (b == 0) return (I)~(I)0;/if (b == 0) return 0;/'
# binary: a strided rhs steps along its rows with lhs's last-dim stride
spawn rhsstride 'badd_*' binary elementwise.h 's/step\[k\] = info\[(k + 2) \* nd - 1\];/step[k] = info[2 * nd - 1];/'
# binary: a run broadcast along the row (stride 0) loads its neighbour's element
spawn bcastrun 'badd_*' binary elementwise.h 's/const S v = \*p;/const S v = p[1];/'
# transposed copy through tiles: the block writes its tile out before every group has stored its rows into it
spawn tilebar 'ucopy_f32' unary elementwise.h 's/^        block_barrier();$//'
# transposed cast through tiles: a lane's run reads its tile row's values in swapped pairs
spawn tilecol 'cast_f32_bf16' cast elementwise.h 's/r.v\[j\] = tr\[j\];/r.v[j] = tr[j ^ 1];/'
# tiles: rows of odd length written one column short (their coalesced store loop)
spawn tileodd 'ucopy_f32' unary elementwise.h 's/for (uint32_t j = lane; j < ncols; j += 32) dst\[j\]/for (uint32_t j = lane; j + 1 < ncols; j += 32) dst[j]/'
# binary of 2-byte operands through tiles (runs of 8): the last column of a tile row not loaded
spawn tilebin 'bmaximum_bf16' binary elementwise.h 's/if (c0 + g + groups \* j < last) next\[j\]/if (c0 + g + groups * j + 1 < last) next[j]/'
# is_contiguous's flat loads (up to 4 dims): dim 0's stride never compared (a [1,C] broadcast taken as contiguous)
spawn flatdim0 'ucopy_f32' unary elementwise.h 's/            if (d < (int)nd) ok \&= (dv\[d\] <= 1) | (sv\[d\] == acc), acc \*= dv\[d\];/            if (d > 0 \&\& d < (int)nd) ok \&= (dv[d] <= 1) | (sv[d] == acc), acc *= dv[d];/'
# Candle's grid in spaced runs: each working block starts one run late (the grid's first run unwritten)
spawn spacedrun 'ucopy_f32' unary elementwise.h 's/w = {(size_t)b \* blockDim.x + threadIdx.x, (size_t)nb/w = {(size_t)b * blockDim.x + threadIdx.x + 1, (size_t)nb/'
# Candle's grid in spaced runs: the contiguous tail's last element unwritten
spawn spacedtail 'ucopy_f32' unary elementwise.h 's/if (w.first < numel - nvec \* N) {/if (w.first + 1 < numel - nvec * N) {/'
# cmp: ne is false on NaN (an ordered compare)
spawn nenan 'ne_*' binary binary.h 's/m::cmpv(a) != m::cmpv(b)/m::cmpv(a) < m::cmpv(b) || m::cmpv(a) > m::cmpv(b)/'
# binary: 16-bit maximum/minimum ignore NaN
spawn nanprop 'bmaximum_*' binary numeric.h 's/if (a.f() != a.f() || b.f() != b.f()) return H<S>{0x7FFF};//'
# const_set: a strided view is written as if contiguous
spawn setflat 'const_set_*' fill fill.h 's/out\[strided_offsets<1, uint32_t>((uint32_t)i, nd, info, info + nd).o\[0\]\] = v;/out[i] = v;/; s/out\[c.o.o\[0\]\] = v;/out[i] = v;/'
# copy2d: each row copies one element too many
spawn rowover 'copy2d_*' fill fill.h 's/col + j < d2; ++j/col + j <= d2; ++j/; s/dst\[row \* dst_s + col\] = src\[row \* src_s + col\];/dst[row * dst_s + col + (col + 1 == d2)] = src[row * src_s + col];/'
# fill: the last element is left unwritten
spawn fillshort 'fill_*' fill fill.h 's/zip_contiguous<16 \/ sizeof(T)>(numel, buf/zip_contiguous<16 \/ sizeof(T)>(numel - 1, buf/'
# reduce (norms, softmax): 16-lane shuffles where Candle's groups are 32 lanes
spawn width 'rmsnorm_*' reduce crk_port.h 's/return shfl_xor_w<32>(v, mask);/return shfl_xor_w<16>(v, mask);/' 'crk_rmsnorm_*'
# reduce: libcrk's vector norms leave a row's last chunk out (not summed, not written)
spawn lastchunk 'crk_rmsnorm_vec_*' reduce rows.h 's/chunks = cols \/ V;/chunks = cols \/ V - (V > 1);/'
# reduce: the halving tree without its barrier (threads read partners' slots early)
spawn barrier 'fast_sum_*' reduce reduce.h '/for (unsigned s = p \/ 2; s > last; s >>= 1) {/{n;s/block_barrier();//}' 'crk_fast_sum_cols_*'
# reduce: libcrk's packed load reads the next step's elements (a lane folds the wrong ones)
spawn lanepack 'fast_sum_f32' reduce reduce.h 's/const Pack<T, R> p = load_pack<T, R>(src + i0);/const Pack<T, R> p = load_pack<T, R>(src + i0 + (k + 1 < count ? P : 0));/' 'crk_fast_sum_cols_f32'
# reduce: the column kernel's tree takes the wrong partner (the next column's value)
spawn colstree 'crk_fast_sum_cols_*' reduce reduce.h 's/sh\[i\] = step(sh\[i\], sh\[i + s \* W\]);/sh[i] = step(sh[i], sh[i + s]);/'
# reduce: Candle's launch over a middle dim reads the column count one short (a column of each row left out)
spawn colsmap 'fast_sum_f32' reduce reduce.h 's/\*B = numel \/ (E \* c), \*C = c;/*B = numel \/ (E * c), *C = c - 1;/' 'crk_fast_sum_cols_f32'
# softmax: a thread's second held chunk is written with its first chunk's exps
spawn held 'crk_softmax_vec_*' reduce rows.h 's/r.store(q, scale_chunk(p\[k\], inv));/r.store(q, scale_chunk(p[0], inv));/'
# softmax wide rows: the exps are not kept in place of the held inputs (the inputs are written, times
# 1/sum; the one-value exps, every dtype on AMD, f32/f64 on NVIDIA)
spawn widep 'crk_softmax_wide_*' reduce rows.h 's/                c.v\[j\] = Arith<T>::out(x);//'
# softmax wide rows, persistent: the next row's first chunks are loaded from this row
spawn widenext 'crk_softmax_wide_*' reduce rows.h 's/e\[j\] = r.load(nx, r.tid + j \* r.threads);/e[j] = r.load(r.x, r.tid + j * r.threads);/'
# norms under Candle's launch: a thread's held columns are all written from its first one
spawn normheld 'rmsnorm_*' reduce rows.h 's/            f(q, p\[k\]);/            f(q, p[fill ? k : 0]);/' 'crk_rmsnorm_*'
# norms' 16-bit conversions: a bf16 word's two columns read swapped (kernels/rows.h unpack_f32)
spawn normhalves 'crk_*norm_vec_bf16' reduce rows.h 's/f\[j\] = bits_f32(w\[j \/ 2\] << 16), f\[j + 1\] = bits_f32(w\[j \/ 2\] \& 0xFFFF0000u)/f[j + 1] = bits_f32(w[j \/ 2] << 16), f[j] = bits_f32(w[j \/ 2] \& 0xFFFF0000u)/'
# softmax split rows: a piece of -inf (m = -inf, s = NaN) is added as s·0 = NaN, not left out
spawn splitinf 'crk_softmax_fin_*' reduce rows.h 's/if (w != (C)0) piece.sum = fma/piece.sum = fma/'
# softmax split rows: a piece stores its part in slot i of span i, not in its own slot
spawn splitslot 'crk_softmax_part_*' reduce rows.h 's/Sp::span(dst, row, i, (unsigned)pieces)\[blockIdx.x\] = part/Sp::span(dst, row, i, (unsigned)pieces)[i] = part/' 'crk_softmax_fin_*'
# rope: libcrk's interleaved runs pair an element with the next pair's first (x1 = element 2k + 2)
spawn ropevec 'crk_rope_i_vec_*' reduce rope.h 's/x1.v\[k\] = at2(lo, hi, 2 \* k + 1);/x1.v[k] = at2(lo, hi, (2 * k + 2) % (2 * P));/'
# rope: Candle's kernels grouped under their shape leave each block's last run of pairs unwritten
spawn ropegroup 'rope_*' reduce elementwise.h 's/if (threadIdx.x >= w) return;/if (threadIdx.x + 1 >= w) return;/' 'crk_rope_*'
# reduce: argmin takes a later equal value (ties must keep the first)
spawn ties 'fast_argmin_*' reduce reduce.h 's/static CRK_DEV bool better(A b, A a) { return b < a; }/static CRK_DEV bool better(A b, A a) { return !(a < b); }/'
# sum (atomic): a summed dim's removal drops the position after it (outputs misplaced)
spawn sumpost 'sum_*' reduce sum.h 's/i = pre \/ sum_l\[k\] \* s + (i - pre \* s);/i = pre \/ sum_l[k] * s;/'
# sum (atomic, 1-2 bytes): the add is written to the word's low bytes whatever the element's place
spawn sumword 'sum_u8' reduce atomic.h 's/(want \& ~mask) | (nb << shift)/(want \& ~mask) | nb/'
# indexing: index_select reads strided ids linearly (upstream's reading, §6 item 9)
spawn idsbug 'is_*' indexing indexing.h 's/ids\[strided_ids ? strided_offsets<1, Idx>(k, nd, info, info + nd).o\[0\] : (size_t)k\]/ids[(size_t)k]/'
# indexing: the range test is off by one (id == dim selects a row past the end)
spawn offbyone 'ia_*' indexing indexing.h 's/(uint64_t)id < dim;/(uint64_t)id <= dim;/'
# indexing: index_add with a wrong right_size (one less) in the destination
spawn rightsize 'ia_*' indexing indexing.h 's/T \*d = dst + (size_t)ids\[j0 + q\] \* right;/T *d = dst + (size_t)ids[j0 + q] * (right > 1 ? right - 1 : 1);/'
# indexing: scatter_add's part taken from the column index (a column's threads all get the same
# part, the rows of the others are never added). ("Parts overlap", <= for ==, is no mutant:
# a column's parts are lanes of one wave, whose equal racing writes agree.)
spawn parts 'sa_*' indexing indexing.h 's/const uint32_t part = (uint32_t)w \& (R - 1);/const uint32_t part = (uint32_t)(w \/ R) \& (R - 1);/'
# sort: padding indices are not moved to the end of an up half
spawn sortpad 'asort_asc_f32' sort sort.h 's/? a >= ncols || (b < ncols/? (b < ncols/' 'crk_asort_*_asc_f32'
# sort: equal keys swap (>= instead of Candle's strict >)
spawn sortstrict 'asort_asc_u32' sort sort.h 's/return Asc ? a > b : a < b;/return Asc ? !(b > a) : a < b;/' 'crk_asort_*_asc_u32'
# sort: Candle's network without its stage barrier (waves race on dst_row)
spawn sortbarrier 'asort_desc_f64' sort sort.h 's/^            block_barrier();$//' 'crk_asort_*_desc_f64'
# sort (long rows): ties by descending column (not stable)
spawn sortstable 'crk_asort_chunk_asc_i32' sort sort.h 's/return ia < ib; \/\* equal/return ia > ib; \/* equal/'
# sort (long rows): a merge pass places the partner run's first element wrong
spawn sortmerge 'crk_asort_merge_desc_f16' sort sort.h 's/const size_t at = p < mid ?/const size_t at = p <= mid ?/' 'crk_asort_chunk_desc_f16'
# conv: conv2d's padding test is off by one on the far side (reads the element past a row)
spawn padoff 'conv2d_u8' conv conv.h 's/if (sw < padding || sw >= w_in + padding) continue;/if (sw < padding || sw > w_in + padding) continue;/'
# conv: the transposed convolution takes taps whose offset the stride does not divide
spawn convtdiv 'conv_transpose1d_f32' conv conv.h 's/if (s < 0 || (uint64_t)s % stride) return -1;/if (s < 0) return -1;/'
# conv: im2col1d zero-pads one position too few on the right (reads past the row)
spawn im2colpad 'im2col1d_f16' conv conv.h 's/px >= w_in + pad_w) return T{};/px > w_in + pad_w) return T{};/' 'crk_im2col1d_rows_f16'
# conv: libcrk's im2col row walk steps its window digits without ky's carry into the channel
spawn rowcarry 'crk_im2col_rows_f32' conv conv.h 's/w.c += sci + cy;/w.c += sci;/'
# conv: the row walk's source cursor does not step a row at kx's wrap
spawn rowwrap 'crk_im2col_rows_f16' conv conv.h 's/off += wy ? dc : wx ? dh : sw;/off += wy ? dc : sw;/'
# conv: a row whose window reaches one past the source's last row counts as inside (no zero padding read)
spawn rowinside 'crk_im2col1d_rows_u8' conv conv.h 's/px + (size_t)(w_k - 1) \* dilation < w_in + pad_w;/px + (size_t)(w_k - 1) * dilation <= w_in + pad_w;/'
# conv: col2im1d stops one kernel tap early
spawn col2imtap 'col2im1d_u32' conv conv.h 's/li-- > 0 \&\& k0 < k_size;/li-- > 0 \&\& k0 + 1 < k_size;/'
# pool: max_pool2d's window walks h along dims[2] and w along dims[3] (h/w swapped)
spawn poolhw 'max_pool2d_bf16' conv conv.h 's/return p\[(I)wo \* s2 + (I)ho \* s3\];/return p[(I)wo * s3 + (I)ho * s2];/' 'crk_max_pool2d_rows_bf16'
# pool: the second output of a pair reads the first one's window (libcrk's launch of two outputs a thread)
spawn poolpair 'avg_pool2d_f32' conv conv.h 's/f(i0 + k, W{base + hs \* (dh0 + (I)k) \* s3, s2, s3, wk, hk});/f(i0 + k, W{base + hs * dh0 * s3, s2, s3, wk, hk});/' 'crk_avg_pool2d_rows_f32'
# pool: libcrk's runs take each output's window K values on in the row's span, not S (3x3 stride 2)
spawn poolstep 'crk_max_pool2d_rows_f32' conv conv.h 's/p.v\[k \* S + ho\]/p.v[k * K + ho]/'
# pool: max runs folded rows first take each output's values K on in the folded span, not S (3x3 stride 2)
nvidia_only poolcol 'crk_max_pool2d_rows_f32' conv conv.h 's/d\[k\] = op.join(d\[k\], c(k \* S + ho));/d[k] = op.join(d[k], c(k * K + ho));/'
# pool: a 16-bit max run's folded words give their halves swapped
nvidia_only poolword 'crk_max_pool2d_rows_bf16' conv conv.h 's/(j % 2 \* 16)/((j + 1) % 2 * 16)/'
# pool: the second window row overwrites the first in a 16-bit max run's fold
nvidia_only poolfold 'crk_max_pool2d_rows_f16' conv conv.h 's/cw\[i\] = wo ? op.join_word/cw[i] = wo > 1 ? op.join_word/'
# pool: a run at a row's end stores one output past it (into the next row, or past dst)
spawn pooltail 'crk_avg_pool2d_rows_f64' conv conv.h 's/if (dh0 + k < ho) o\[k\] = out.v\[k\];/if (dh0 + k <= ho) o[k] = out.v[k];/'
# pool: 3x3 stride 2 runs take their span's last value one place early (it is loaded alone)
spawn poolspanend 'crk_max_pool2d_rows_f32' conv conv.h 's/p.v\[R \* S\] = base\[wo \* s2 + R \* S\];/p.v[R * S] = base[wo * s2 + R * S - 1];/'
# upsample: nearest 2x along h takes a run's sources in order, not each twice
spawn up2x 'upsample_nearest2d_f16' conv conv.h 's/p.v\[j\] = q.v\[j >> K\];/p.v[j] = q.v[j % M];/'
# upsample: bilinear ignores align_corners in its scale
spawn bilalign 'upsample_bilinear2d_f64' conv conv.h 's/if (align_corners) return out > 1/if (false) return out > 1/' 'crk_upsample_bilinear2d_strips_f64'
# upsample: bilinear's whole 16-bit runs gather their values in reversed pairs
spawn bilword 'upsample_bilinear2d_f16' conv conv.h 's/u\[0\] = u\[0\] >> 8 \* S | b << (32 - 8 \* S);/u[0] = u[0] << 8 * S | b;/' 'crk_upsample_bilinear2d_strips_f16'
# upsample: libcrk's bilinear strips keep the old top when the lower source row moves by one
spawn stripmove 'crk_upsample_bilinear2d_strips_f32' conv conv.h 's/for (int q = 0; q < C; ++q) top\[q\] = bot\[q\];/for (int q = 0; q < C; ++q) (void)bot[q];/'
# upsample: a strip at a plane's last rows writes one row past them (into the next plane, or past dst)
spawn striprows 'crk_upsample_bilinear2d_strips_bf16' conv conv.h 's/? (int)(h_out - dh0) : kStripRows;/? (int)(h_out - dh0) + 1 : kStripRows;/'
# quantized: q4_0's nibbles swapped (the high nibbles give the first 16 values)
spawn nibble 'dequantize_block_q4_0_f32' quantized quantized.h '0,/const int shift = j < 16 ? 0 : 4;/s//const int shift = j < 16 ? 4 : 0;/'
# quantized: q4_K's sub-blocks 4-7 take their scales' high bits from the wrong byte
spawn kscale 'dequantize_block_q4_K_f16' quantized quantized.h 's/sc = (q\[s + 4\] \& 0xF) | (q\[s - 4\] >> 6) << 4;/sc = (q[s + 4] \& 0xF) | (q[s - 3] >> 6) << 4;/'
# quantized: dequantize's words give their bytes in swapped pairs (NVIDIA's byte_perm selector, AMD's shift)
spawn wordbyte 'dequantize_block_q6_K_f16' quantized quantized.h 's/0x7650u | k)/0x7650u | (k ^ 1))/; s/return (float)((w >> (8 \* k)) \& 0xFFu) - bias;/return (float)((w >> (8 * (k ^ 1))) \& 0xFFu) - bias;/'
# quantized: crk_get_rows loses its row bound (an id past the source reads out of bounds)
spawn rowbound 'crk_get_rows_q8_0' quantized quantized.h 's/if (id >= nrows) {/if (false) {/'
# quantized: quantize_q8_1 reduces max|x| and the sum over 16 lanes, not the block's 32
spawn q81width 'quantize_q8_1' quantized quantized.h 's|for (int m = 16; m >= 1; m /= 2) { /\* own + partner|for (int m = 8; m >= 1; m /= 2) { /* own + partner|'
# quantized: DMMV runs one row past nrows (reads past the matrix, writes past dst)
spawn dmmvbound 'dequantize_mul_mat_vec_q4_k' quantized quantized.h 's/for (size_t row = first; row < nrows; row += gridDim.x)/for (size_t row = first; row <= nrows; row += gridDim.x)/'
# MMVQ: the pair's second row written past an odd nrows (upstream's PTX bug)
spawn mmvqbound 'mul_mat_vec_q4_0_q8_1_cuda2' quantized mmvq.h 's/if (t < (unsigned)NV \&\& (int)(t % RPB) < nr) {/if (t < (unsigned)NV) {/'
# MMVQ: the lanes' butterfly stops at 16 (a wave32 port's width bug)
spawn mmvqwidth 'mmvq_gguf_q4_k_f32_plain_cuda1' quantized mmvq.h 's/for (int m = 16; m >= 1; m \/= 2) x += shfl_xor_w<32>(x, m);/for (int m = 8; m >= 1; m \/= 2) x += shfl_xor_w<32>(x, m);/'
# MMVQ: q4_0's high nibbles against the low values of y
spawn mmvqnibble 'mmvq_gguf_q4_0_f16_plain_cuda3' quantized mmvq.h 's/sumi = dot4_i8(hi, q8_int(yb, k + 4), sumi);/sumi = dot4_i8(hi, q8_int(yb, k), sumi);/'
# MMVQ: q6_K's scale of the wrong 16 values
spawn mmvqscale 'mul_mat_vec_q6_K_q8_1_cuda1' quantized mmvq.h 's|bx\[192 + 8 \* half + 2 \* quarter + p / 4\]|bx[192 + 8 * half + 2 * quarter]|'
# indexed MoE: upstream's expert stride, k/256 blocks a row for every type (q8_0's experts past 0 misread)
spawn moestride 'indexed_moe_forward_q8_0_q8_1' quantized mmvq.h 's|(size_t)(k > 0 ? k / B::values : 0) \* B::bytes;|(size_t)(k > 0 ? k / 256 : 0) * B::bytes;|'
for p in "${pids[@]}"; do wait "$p" || { echo "mutants: a mutant failed to build" >&2; exit 1; }; done
