/* sum.h — sum_<dt>: upstream's atomicAdd strided sum (fact sheet §4.10),
 * which Candle ships and never calls.
 *
 * info = [dims, strides, sum_dims_l, sum_dims_s] of the source view: the
 * summed dims' extents and their strides in the contiguous source index
 * space (the product of the dims after each), listed in increasing dim
 * order, so that each removal leaves the next stride valid. Element i of
 * the view is added into out[j], j = i with the summed dims removed: out
 * holds the kept dims, contiguous, and is added to, not overwritten (zero
 * it first for a plain sum). The order of the adds is the hardware's, so
 * float sums are not deterministic (upstream's are not either).
 *
 * A thread folds a run of Fold consecutive elements, one atomic add per
 * run of equal outputs (in T's arithmetic: a 16-bit fold rounds each add,
 * so an output still sees one rounding per element), where upstream adds
 * each element alone: under contention (a long last-dim sum into one
 * output) Fold times fewer atomics on one word.
 *
 * Beyond upstream: 64-bit indices (upstream loops and decodes in
 * `unsigned`, so views of 2^32 elements or more go wrong), any 1-D grid,
 * and every reduction dtype (upstream: bf16 f16 f32 f64 u32). */
#ifndef CRK_SUM_H
#define CRK_SUM_H
#include "atomic.h"
#include "elementwise.h"

namespace crk {

template <class T>
CRK_DEV void atomic_sum(size_t numel, size_t num_dims, size_t num_sum_dims, const size_t *info, const T *inp,
                        T *out) {
    constexpr unsigned Fold = 16;
    using Ar = Arith<T>;
    const size_t *dims = info, *strides = info + num_dims;
    const size_t *sum_l = info + 2 * num_dims, *sum_s = sum_l + num_sum_dims;
    const bool contiguous = is_contiguous(num_dims, dims, strides);
    auto out_index = [&](size_t i) {
        for (size_t k = 0; k < num_sum_dims; ++k) {
            const size_t s = sum_s[k], pre = i / s;
            i = pre / sum_l[k] * s + (i - pre * s);
        }
        return i;
    };
    auto value = [&](size_t i) { return Ar::in(inp[contiguous ? i : offsets_of<1>(numel, i, num_dims, info).o[0]]); };
    for (size_t first = global_id() * Fold; first < numel; first += global_stride() * Fold) {
        const size_t end = numel - first < Fold ? numel : first + Fold;
        size_t j = out_index(first);
        typename Ar::A acc = value(first);
        for (size_t i = first + 1; i < end; ++i) {
            const size_t ji = out_index(i);
            if (ji != j) {
                atomic_add(out + j, Ar::out(acc));
                j = ji, acc = value(i);
            } else {
                acc = acc + value(i);
            }
        }
        atomic_add(out + j, Ar::out(acc));
    }
}

} // namespace crk
#endif
