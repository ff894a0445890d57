#!/usr/bin/env python3
"""torch_peer.py -- the PyTorch side of build/bench (bench/README.md).

Runs the same operations as build/bench, at the same sizes and layouts, on the
same GPU, and prints one JSON object per line on stdout:
  {"kind": "meta", "torch": ..., "device": ..., "timer": ...}
  {"kind": "row", "op": ..., "dtype": ..., "layout": ..., "log2n": ..., "n": ...,
   "ms": ..., "gbps": ..., "torch_op": ...}
  {"kind": "error", "msg": ...}
Layouts for an (R, C) problem, R = 2^(k//2), C = n / R:
  contiguous     x of shape (R, C)
  strided        x = base.t() with base of shape (C, R)   (strides (1, R));
                 binary: the lhs; const_set: the view filled
  broadcast      x = row.expand(R, C) with row of shape (C,)   (strides (0, 1));
                 where: the condition only; binary: the rhs (a bias add)
  broadcast_col  binary rhs = col.expand(R, C) with col of shape (R, 1)
  pitched        copy2d: dst[:, :C].copy_(src), dst of shape (R, C + 64)
Outputs are preallocated contiguous (R, C) tensors written through out= or
copy_ wherever torch offers that (torch_op says what ran).
Indexing rows (bench/index.c, fixed shapes, log2n 0, layout = the case's
label, matched by kernel too): embedding = the faster of
torch.index_select(table, 0, ids, out=) and F.embedding(ids, table);
gather = torch.gather(src, 1, ids, out=); scatter_add = dst.scatter_add_(0,
ids, src); index_add = dst.index_add_(0, ids, src), in place as ours (dst
keeps accumulating while timed). int32 ids where ours are u32 (int64 where
torch refuses them), int64 where ours are i64.
Argsort rows (bench/argsort.c, label "ROWSxCOLS", log2n 0): torch.argsort(x,
dim=-1) of random f32 (R, C), torch's default (stable=False), allocating its
output; bytes = R*C*4 read + R*C*4 written.
Reduce rows (bench/reduce.c, label "ROWSxCOLS" or rope's "1xHxTxD", log2n 0):
softmax = torch.softmax(x, -1, out=); rmsnorm = F.rms_norm(x, (C,), alpha,
1e-5); layernorm = F.layer_norm(x, (C,), alpha, beta, 1e-5); sum/max/argmax =
torch.sum/amax/argmax(x, -1, out=) (argmax writes int64); rope = eager
rotate-half (x1*c - x2*s, x1*s + x2*c, concatenated: several kernels, as
written by models without a fused rope). Bytes as bench/reduce.c counts them.
Conv rows (bench/conv.c, the case's label, log2n 0): im2col = F.unfold(x, k,
padding=, stride=) (its (b, c*k*k, L) layout, Candle's is (b, L, c*k*k); 1-D:
unfold of (b, c, 1, l) with a (1, k) window), bytes = bytes written;
max/avg_pool2d = F.max_pool2d / F.avg_pool2d(x, k, stride); upsample =
F.interpolate(x, size=, mode="nearest" / "bilinear", align_corners=False);
conv1d/conv2d = F.conv1d / F.conv2d (cuDNN, torch.backends.cudnn.benchmark
on); all allocate their outputs. Bytes as bench/conv.c counts them.
Timing: triton.testing.do_bench (CUDA events, L2 flushed before each call,
median) when triton imports, else CUDA events around batches of >= 20 ms of
back-to-back calls rotating over several buffer sets, median of 15.
"""
import argparse
import itertools
import json
import statistics
import sys

# name, kernel, input pools, output dtype name, family, layouts (same table as bench/ops.c)
MAP3 = ("contiguous", "strided", "broadcast")
OPS = [
    ("copy", "ucopy_f32", ("f32",), "f32", "copy", MAP3),
    ("exp", "uexp_f32", ("f32",), "f32", "exp", MAP3),
    ("gelu", "ugelu_f32", ("f32",), "f32", "gelu", MAP3),
    ("silu", "usilu_f32", ("f32",), "f32", "silu", MAP3),
    ("gelu_bf16", "ugelu_bf16", ("bf16",), "bf16", "gelu", MAP3),
    ("cast_f32_bf16", "cast_f32_bf16", ("f32",), "bf16", "cast", MAP3),
    ("cast_bf16_f32", "cast_bf16_f32", ("bf16",), "f32", "cast", MAP3),
    ("cast_f32_f16", "cast_f32_f16", ("f32",), "f16", "cast", MAP3),
    ("cast_f16_f32", "cast_f16_f32", ("f16",), "f32", "cast", MAP3),
    ("cast_f32_u8", "cast_f32_u8", ("f32pos",), "u8", "cast", MAP3),
    ("affine", "affine_f32", ("f32",), "f32", "affine", MAP3),
    ("where", "where_u8_f32", ("u8", "f32", "f32pos"), "f32", "where", MAP3),
    # binary: strided = lhs transposed; broadcast = rhs [1,C]; broadcast_col = rhs [R,1]
    ("add", "badd_f32", ("f32", "f32"), "f32", "add", MAP3),
    ("mul", "bmul_f32", ("f32", "f32"), "f32", "mul", ("contiguous", "broadcast_col")),
    ("maximum_bf16", "bmaximum_bf16", ("bf16", "bf16"), "bf16", "maximum", MAP3),
    ("lt", "lt_f32", ("f32", "f32"), "u8", "lt", MAP3),
    ("const_set", "const_set_f32", (), "f32", "const_set", ("contiguous", "strided")),
    ("copy2d", "copy2d_f32", ("f32",), "f32", "copy2d", ("pitched",)),
    ("copy2d_bf16", "copy2d_bf16", ("bf16",), "bf16", "copy2d", ("pitched",)),
]
# indexing (same tables as bench/index.c): name, kernel, ids dtype, T, family;
# cases (label, left, dim_size, n, right, dim), full and --tiny-index
INDEX_OPS = [
    ("embedding", "is_u32_bf16", "u32", "bf16", "embedding"),
    ("embedding", "is_u32_f32", "u32", "f32", "embedding"),
    ("gather", "gather_i64_f32", "i64", "f32", "gather"),
    ("scatter_add", "sa_i64_f32", "i64", "f32", "scatter_add"),
    ("index_add", "ia_u32_bf16", "u32", "bf16", "index_add"),
    ("index_add", "ia_u32_f32", "u32", "f32", "index_add"),
]
_COMBINE = ([("8192->1024", 1, 1024, 8192, 4096, 0)], [("256->32", 1, 32, 256, 64, 0)])
INDEX_CASES = {
    "embedding": ([("ids %d" % n, 1, 131072, n, 4096, 0) for n in (1, 64, 1024, 8192)],
                  [("ids %d" % n, 1, 4096, n, 64, 0) for n in (1, 16, 512)]),
    "gather": ([("4096x2048", 4096, 4096, 2048, 1, 1)], [("64x32", 64, 64, 32, 1, 1)]),
    "scatter_add": _COMBINE,
    "index_add": _COMBINE,
}
# argsort (same tables as bench/argsort.c): (rows, cols), full and --tiny-index
ARGSORT_OPS = [("argsort", "asort_asc_f32", "f32")]
ARGSORT_CASES = ([(4096, 1024), (1024, 4096), (64, 8192), (16, 32768), (4, 131072), (1, 262144)],
                 [(4, 1000), (2, 20000)])
# module reduce (same tables as bench/reduce.c): name, kernel, T, family;
# cases (label, rows, cols[, d]) full and --tiny-index
REDUCE_OPS = [
    ("softmax", "softmax_f32", "f32", "softmax"), ("softmax", "softmax_bf16", "bf16", "softmax"),
    ("rmsnorm", "rmsnorm_bf16", "bf16", "rmsnorm"), ("rmsnorm", "rmsnorm_f32", "f32", "rmsnorm"),
    ("layernorm", "layernorm_bf16", "bf16", "layernorm"), ("sum", "fast_sum_f32", "f32", "sum"),
    ("max", "fast_max_f32", "f32", "max"), ("sum0", "fast_sum_f32", "f32", "sum0"),
    ("max0", "fast_max_f32", "f32", "max0"), ("argmax", "fast_argmax_f32", "f32", "argmax"),
    ("rope", "rope_bf16", "bf16", "rope"), ("rope", "rope_f32", "f32", "rope"),
]
REDUCE_CASES = {
    "softmax": ([("4096x4096", 4096, 4096), ("1024x32768", 1024, 32768), ("32x32768", 32, 32768),
                 ("1x32768", 1, 32768), ("32x128256", 32, 128256), ("8192x32768", 8192, 32768)],
                [("16x1000", 16, 1000), ("4x5000", 4, 5000)]),
    "norm": ([("8192x4096", 8192, 4096), ("32x4096", 32, 4096), ("1x4096", 1, 4096), ("16x32768", 16, 32768)], [("8x500", 8, 500), ("4x2048", 4, 2048)]),
    "fast": ([("8192x4096", 8192, 4096)], [("8x500", 8, 500), ("4x2048", 4, 2048)]),
    "argmax": ([("32x128256", 32, 128256)], [("4x5000", 4, 5000)]),
    "rope": ([("1x32x4096x128", 32, 4096, 128)], [("1x4x16x32", 4, 16, 32)]),
}
# module conv (same tables as bench/conv.c): name, kernel, T; cases (label,
# b, c, h, w, c_out, kh, kw, stride, pad, out_h, out_w) full and --tiny-index
CONV_OPS = [
    ("im2col1d", "im2col1d_f32", "f32"), ("im2col1d", "im2col1d_f16", "f16"), ("im2col", "im2col_f16", "f16"),
    ("im2col", "im2col_f32", "f32"), ("max_pool2d", "max_pool2d_f32", "f32"), ("max_pool2d", "max_pool2d_bf16", "bf16"),
    ("avg_pool2d", "avg_pool2d_f32", "f32"), ("upsample_nearest2d", "upsample_nearest2d_f16", "f16"),
    ("upsample_nearest2d", "upsample_nearest2d_f32", "f32"), ("upsample_bilinear2d", "upsample_bilinear2d_f16", "f16"),
    ("upsample_bilinear2d", "upsample_bilinear2d_f32", "f32"), ("conv1d", "conv1d_f32", "f32"),
    ("conv2d", "conv2d_f32", "f32"),
]
_W1 = ("whisper 80x3000 k3", 1, 80, 1, 3000, 384, 1, 3, 1, 1, 0, 0)
_T1 = ("2x5x40 k3 s2", 2, 5, 1, 40, 3, 1, 3, 2, 1, 0, 0)
_T2 = ("2x4x9x11 k3", 2, 4, 9, 11, 3, 3, 3, 1, 1, 0, 0)
_POOL = ([("8x64x112x112 k2 s2", 8, 64, 112, 112, 0, 2, 2, 2, 0, 0, 0),
          ("8x64x112x112 k3 s2", 8, 64, 112, 112, 0, 3, 3, 2, 0, 0, 0)],
         [("2x3x12x10 k3 s2", 2, 3, 12, 10, 0, 3, 3, 2, 0, 0, 0)])
_UP = ([("2x1280x32x32 ->64x64", 2, 1280, 32, 32, 0, 0, 0, 1, 0, 64, 64),
        ("2x640x64x64 ->128x128", 2, 640, 64, 64, 0, 0, 0, 1, 0, 128, 128)],
       [("2x3x5x7 ->10x13", 2, 3, 5, 7, 0, 0, 0, 1, 0, 10, 13)])
CONV_CASES = {
    "im2col1d": ([_W1, ("whisper 1280x3000 k3 s2", 1, 1280, 1, 3000, 0, 1, 3, 2, 1, 0, 0)], [_T1]),
    "im2col": ([("2x320x64x64 k3", 2, 320, 64, 64, 0, 3, 3, 1, 1, 0, 0),
                ("128x256x256 k3", 1, 128, 256, 256, 0, 3, 3, 1, 1, 0, 0)], [_T2]),
    "max_pool2d": _POOL, "avg_pool2d": _POOL, "upsample_nearest2d": _UP, "upsample_bilinear2d": _UP,
    "conv1d": ([(_W1[0] + " ->384",) + _W1[1:]], [_T1]),
    "conv2d": ([("64x56x56 k3 ->64", 1, 64, 56, 56, 64, 3, 3, 1, 1, 0, 0)], [_T2]),
}
AFFINE_MUL, AFFINE_ADD = 1.5, -0.25
CONST_VALUE = 1.5
PITCH_PAD = 64  # copy2d: dst row stride C + 64
ROTATE_BYTES = 256 << 20
MAX_SETS = 8


def emit(**kw):
    print(json.dumps(kw), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="24,28")
    ap.add_argument("--ops", default=None)
    ap.add_argument("--tiny-index", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    try:
        import torch
        import torch.nn.functional as F
    except Exception as e:  # noqa: BLE001
        emit(kind="error", msg=f"cannot import torch: {e}")
        return 0
    if not torch.cuda.is_available():
        emit(kind="error", msg=f"torch {torch.__version__}: no CUDA/ROCm device")
        return 0
    dev = torch.device("cuda")

    do_bench = None
    try:
        from triton.testing import do_bench  # noqa: F811
    except Exception:  # noqa: BLE001
        do_bench = None
    emit(kind="meta", torch=torch.__version__, device=torch.cuda.get_device_name(dev),
         timer="triton.testing.do_bench median" if do_bench else "cuda events, median of 15 batches")

    DT = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16, "u8": torch.uint8}
    ISZ = {"f32": 4, "bf16": 2, "f16": 2, "u8": 1, "f32pos": 4, "u32": 4, "i64": 8}
    gen = torch.Generator(device=dev)
    gen.manual_seed(12345)

    def make(pool, shape):
        """Random non-zero data of a pool, like bench.c's fill()."""
        if pool == "u8":  # the condition: torch.where needs bool (same 1 byte per element)
            return torch.rand(shape, device=dev, generator=gen) < 0.5
        if pool == "f32pos":
            return 1.0 + torch.rand(shape, device=dev, generator=gen) * 249.0
        x = torch.rand(shape, device=dev, generator=gen) * 16.0 - 8.0
        x[x.abs() < 1.0 / 64] = 0.75
        return x.to(DT[pool]) if pool != "f32" else x

    def view(pool, layout, R, C):
        if layout == "strided":
            return make(pool, (C, R)).t()
        if layout == "broadcast":
            return make(pool, (C,)).expand(R, C)
        if layout == "broadcast_col":
            return make(pool, (R, 1)).expand(R, C)
        return make(pool, (R, C))

    # Out-variants that not every torch version exposes: probe once.
    def probe(fn):
        try:
            a = torch.ones(4, device=dev)
            o = torch.empty(4, device=dev)
            fn(a, o)
            return True
        except Exception:  # noqa: BLE001
            return False

    gelu_out = probe(lambda a, o: torch._C._nn.gelu(a, approximate="tanh", out=o))
    silu_out = probe(lambda a, o: torch._C._nn.silu(a, out=o))
    where_out = probe(lambda a, o: torch.where(a > 0, a, a, out=o))
    lt_u8 = probe(lambda a, o: torch.lt(a, a, out=o.to(torch.uint8)))
    mul_t = torch.tensor(AFFINE_MUL, device=dev)
    add_t = torch.tensor(AFFINE_ADD, device=dev)
    try:  # one fused kernel: add + x * mul, with 0-d device tensors
        a = torch.linspace(-3, 3, 64, device=dev)
        o = torch.empty_like(a)
        torch.addcmul(add_t, a, mul_t, out=o)
        addcmul_ok = torch.allclose(o, a * AFFINE_MUL + AFFINE_ADD)
    except Exception:  # noqa: BLE001
        addcmul_ok = False

    def build(family, x, y, extra):
        """Returns (callable, description of what torch runs)."""
        if family in ("copy", "cast"):
            return (lambda: y.copy_(x)), "Tensor.copy_" + (" (dtype conversion)" if family == "cast" else "")
        if family == "exp":
            return (lambda: torch.exp(x, out=y)), "torch.exp(out=)"
        if family == "gelu":
            if gelu_out:
                return (lambda: torch._C._nn.gelu(x, approximate="tanh", out=y)), "gelu(approximate='tanh', out=)"
            return (lambda: F.gelu(x, approximate="tanh")), "F.gelu(approximate='tanh') (allocates its output)"
        if family == "silu":
            if silu_out:
                return (lambda: torch._C._nn.silu(x, out=y)), "silu(out=)"
            return (lambda: F.silu(x)), "F.silu (allocates its output)"
        if family == "affine":
            if addcmul_ok:
                return (lambda: torch.addcmul(add_t, x, mul_t, out=y)), "torch.addcmul(add0d, x, mul0d, out=) (1 kernel)"
            return (lambda: torch.mul(x, AFFINE_MUL, out=y).add_(AFFINE_ADD)), "torch.mul(out=) + add_ (2 kernels)"
        if family in ("add", "mul", "maximum", "lt"):
            fn = {"add": torch.add, "mul": torch.mul, "maximum": torch.maximum, "lt": torch.lt}[family]
            into = str(y.dtype).replace("torch.", "")
            return (lambda: fn(x, extra, out=y)), f"torch.{fn.__name__}(lhs, rhs, out={into})"
        if family == "const_set":
            return (lambda: x.fill_(CONST_VALUE)), "Tensor.fill_" + (" (transposed view)" if not x.is_contiguous() else "")
        if family == "copy2d":
            return (lambda: y.copy_(x)), "dst[:, :C].copy_(src) (dst rows of C + 64)"
        c, t, f = extra
        if where_out:
            return (lambda: torch.where(c, t, f, out=y)), "torch.where(bool cond, out=)"
        return (lambda: torch.where(c, t, f)), "torch.where(bool cond) (allocates its output)"

    def time_call(call):
        if do_bench is not None:
            try:
                ms = do_bench(call, warmup=25, rep=200, return_mode="median")
            except TypeError:
                ms = do_bench(call, warmup=25, rep=200, quantiles=[0.5])
            if isinstance(ms, (list, tuple)):
                ms = ms[0]
            return float(ms)
        for _ in range(3):
            call()
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        count = 4
        while True:
            s.record()
            for _ in range(count):
                call()
            e.record()
            e.synchronize()
            t = s.elapsed_time(e)
            if t >= 20.0 or count >= 200000:
                break
            count = min(200000, int(count * 25.0 / max(t, 1e-3)) + 1)
        samples = []
        for _ in range(15):
            s.record()
            for _ in range(count):
                call()
            e.record()
            e.synchronize()
            samples.append(s.elapsed_time(e) / count)
        return statistics.median(samples)

    def operands(family, pools, out_dt, layout, R, C):
        """(x, y, extra, inputs) of one buffer set; inputs: what is read."""
        if family == "where":
            tl = "contiguous" if layout == "broadcast" else layout
            ins = (view("u8", layout, R, C), view(pools[1], tl, R, C), view(pools[2], tl, R, C))
            return None, torch.empty((R, C), device=dev, dtype=DT[out_dt]), ins, ins
        if family in ("add", "mul", "maximum", "lt"):
            x = view(pools[0], "strided" if layout == "strided" else "contiguous", R, C)
            rhs = view(pools[1], layout if layout.startswith("broadcast") else "contiguous", R, C)
            ydt = torch.bool if family == "lt" and not lt_u8 else DT[out_dt]
            return x, torch.empty((R, C), device=dev, dtype=ydt), rhs, (x, rhs)
        if family == "const_set":
            x = view("f32", layout, R, C)  # the view filled in place
            return x, None, None, ()
        if family == "copy2d":
            x = make(pools[0], (R, C))
            dst = torch.empty((R, C + PITCH_PAD), device=dev, dtype=DT[out_dt])
            return x, dst[:, :C], None, (x,)
        x = view(pools[0], layout, R, C)
        return x, torch.empty((R, C), device=dev, dtype=DT[out_dt]), None, (x,)

    def unique_bytes(t):
        """Bytes of the storage behind a view: a broadcast operand once."""
        try:
            return t.untyped_storage().nbytes()
        except AttributeError:
            return t.storage().size() * t.element_size()

    wanted = None if args.ops is None else set(args.ops.split(","))
    for k in [int(v) for v in args.sizes.split(",") if v]:
        n = 1 << k
        R = 1 << (k // 2)
        C = n // R
        sets = max(1, min(MAX_SETS, -(-ROTATE_BYTES // (n * 4))))
        for name, kernel, pools, out_dt, family, layouts in OPS:
            selected = wanted is None or name in wanted or kernel in wanted
            for layout in layouts:
                if not selected and not (name == "copy" and layout == "contiguous"):
                    continue  # the contiguous copy always runs: it is the reference
                fns, desc, nbytes = [], "", 0
                try:
                    for _ in range(sets):
                        x, y, extra, ins = operands(family, pools, out_dt, layout, R, C)
                        fn, desc = build(family, x, y, extra)
                        fns.append(fn)
                        nbytes = sum(unique_bytes(t) for t in ins) + n * ISZ[out_dt]
                    it = itertools.cycle(fns)
                    ms = time_call(lambda: next(it)())
                    emit(kind="row", op=name, kernel=kernel, dtype=out_dt, layout=layout, log2n=k, n=n, ms=ms,
                         gbps=nbytes / (ms * 1e6), torch_op=desc, buffer_sets=sets)
                except Exception as e:  # noqa: BLE001
                    emit(kind="error", msg=f"{name} {layout} 2^{k}: {type(e).__name__}: {e}"[:190])
                finally:
                    fns = it = None
                    torch.cuda.synchronize()
                    torch.cuda.empty_cache()

    def ids_tensor(values, idt):
        """values (int64) as the ids torch takes for ours of dtype idt."""
        return values.to(torch.int32) if idt == "u32" else values

    def index_bytes(family, idt, t, c):
        """bench/index.c's index_bytes: ids + elements read + written."""
        _, left, dim_size, n, right, _ = c
        at_n, at_dim = left * n * right, left * dim_size * right
        ids_el = n if family in ("embedding", "index_add") else at_n
        b = ids_el * ISZ[idt]
        if family in ("embedding", "gather"):
            return b + 2 * at_n * ISZ[t]
        return b + at_n * ISZ[t] + 2 * at_dim * ISZ[t]

    def index_set(family, idt, t, c, src):
        """(callable, description) of one buffer set: its own ids and output."""
        _, left, dim_size, n, right, dim = c
        if family == "embedding":
            ids = torch.randint(0, dim_size, (n,), device=dev, generator=gen)
            y = torch.empty((n, right), device=dev, dtype=DT[t])
            try:
                i32 = ids_tensor(ids, idt)
                torch.index_select(src, 0, i32, out=y)
                torch.nn.functional.embedding(i32, src)
                ids = i32
            except Exception:  # noqa: BLE001  (int64 ids)
                pass
            return ((lambda: torch.index_select(src, 0, ids, out=y)), (lambda: F.embedding(ids, src)),
                    f"torch.index_select(table, 0, {str(ids.dtype)[6:]} ids, out=)")
        if family == "gather":
            ids = torch.randint(0, dim_size, (left, n), device=dev, generator=gen)
            y = torch.empty((left, n), device=dev, dtype=DT[t])
            return (lambda: torch.gather(src, 1, ids, out=y)), None, "torch.gather(src, 1, int64 ids, out=)"
        # MoE combine along dim 0: each dst row k = n / dim_size times, shuffled
        row = torch.randperm(n, device=dev, generator=gen) % dim_size
        dst = torch.randint(-4, 5, (dim_size, right), device=dev, generator=gen).to(DT[t])
        if family == "scatter_add":
            ids = row.view(n, 1).expand(n, right).contiguous()
            return (lambda: dst.scatter_add_(0, ids, src)), None, "dst.scatter_add_(0, int64 ids, src)"
        ids = ids_tensor(row, idt)
        try:
            dst.index_add_(0, ids, src)
        except Exception:  # noqa: BLE001
            ids = row
        return (lambda: dst.index_add_(0, ids, src)), None, f"dst.index_add_(0, {str(ids.dtype)[6:]} ids, src)"

    def timed_sets(fns):
        it = itertools.cycle(fns)
        return time_call(lambda: next(it)())

    def timed_row(name, kernel, t, label, n, fns, nbytes, what, sets):
        """Times fns (one call per buffer set, rotated) and emits a fixed-shape row."""
        ms = timed_sets(fns)
        emit(kind="row", op=name, kernel=kernel, dtype=t, layout=label, log2n=0, n=n, ms=ms,
             gbps=nbytes / (ms * 1e6), torch_op=what, buffer_sets=sets)

    tiny = 1 if args.tiny_index else 0
    for name, kernel, idt, t, family in INDEX_OPS:
        if wanted is not None and name not in wanted and kernel not in wanted:
            continue
        for c in INDEX_CASES[family][tiny]:
            label, left, dim_size, n, right, dim = c
            src = fns = alt = None
            try:
                if family in ("embedding", "gather"):
                    src = make(t, (left * dim_size, right) if dim == 0 else (left, dim_size))
                else:  # integers: sums exact in any order
                    src = torch.randint(-4, 5, (n, right), device=dev, generator=gen).to(DT[t])
                nbytes = index_bytes(family, idt, t, c)
                sets = max(1, min(MAX_SETS, -(-ROTATE_BYTES // nbytes)))
                made = [index_set(family, idt, t, c, src) for _ in range(sets)]
                fns, desc = [m[0] for m in made], made[0][2]
                ms = timed_sets(fns)
                if made[0][1] is not None:  # embedding: F.embedding too, the faster one counts
                    alt = timed_sets([m[1] for m in made])
                    if alt < ms:
                        desc = f"F.embedding(ids, table) (index_select(out=): {ms:.4f} ms)"
                        ms, alt = alt, ms
                    else:
                        desc += f" (F.embedding: {alt:.4f} ms)"
                emit(kind="row", op=name, kernel=kernel, dtype=f"{idt}:{t}", layout=label, log2n=0, n=left * n * right,
                     ms=ms, gbps=nbytes / (ms * 1e6), torch_op=desc, buffer_sets=sets)
            except Exception as e:  # noqa: BLE001
                emit(kind="error", msg=f"{name} {kernel} {label}: {type(e).__name__}: {e}"[:190])
            finally:
                src = fns = made = None
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
    for name, kernel, t in ARGSORT_OPS:
        if wanted is not None and name not in wanted and kernel not in wanted:
            continue
        for R, C in ARGSORT_CASES[tiny]:
            xs = None
            try:
                nbytes = R * C * 8
                sets = max(1, min(MAX_SETS, -(-ROTATE_BYTES // nbytes)))
                xs = [make(t, (R, C)) for _ in range(sets)]
                ms = timed_sets([(lambda x=x: torch.argsort(x, dim=-1)) for x in xs])
                emit(kind="row", op=name, kernel=kernel, dtype=t, layout=f"{R}x{C}", log2n=0, n=R * C, ms=ms,
                     gbps=nbytes / (ms * 1e6), torch_op="torch.argsort(x, dim=-1) (stable=False, allocates)",
                     buffer_sets=sets)
            except Exception as e:  # noqa: BLE001
                emit(kind="error", msg=f"{name} {kernel} {R}x{C}: {type(e).__name__}: {e}"[:190])
            finally:
                xs = None
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
    for name, kernel, t, family in REDUCE_OPS:
        if wanted is not None and name not in wanted and kernel not in wanted:
            continue
        key = family if family in ("softmax", "argmax", "rope") else "norm" if family in ("rmsnorm", "layernorm") else "fast"
        for case in REDUCE_CASES[key][tiny]:
            xs = aux = None
            try:
                label, R, C = case[0], case[1], case[2]
                d = case[3] if family == "rope" else 1
                ts = ISZ[t]
                el = R * C * d
                out_el = R if family in ("sum", "max", "argmax") else C if family in ("sum0", "max0") else el
                out_sz = 4 if family == "argmax" else ts
                nbytes = el * ts + out_el * out_sz
                if family in ("rmsnorm", "layernorm"):
                    nbytes += (2 if family == "layernorm" else 1) * C * ts
                if family == "rope":
                    nbytes += C * d * ts
                sets = max(1, min(MAX_SETS, -(-ROTATE_BYTES // nbytes)))
                shape = (1, R, C, d) if family == "rope" else (R, C)
                xs = [make(t, shape) for _ in range(sets)]
                if family in ("sum", "max"):
                    ys = [torch.empty((R,), device=dev, dtype=DT[t]) for _ in range(sets)]
                elif family in ("sum0", "max0"):
                    ys = [torch.empty((C,), device=dev, dtype=DT[t]) for _ in range(sets)]
                elif family == "argmax":
                    ys = [torch.empty((R,), device=dev, dtype=torch.int64) for _ in range(sets)]
                elif family == "softmax":
                    ys = [torch.empty_like(x) for x in xs]
                if family == "softmax":
                    fns = [(lambda x=x, y=y: torch.softmax(x, -1, out=y)) for x, y in zip(xs, ys)]
                    what = "torch.softmax(x, -1, out=)"
                elif family == "rmsnorm":
                    aux = make(t, (C,))
                    fns = [(lambda x=x: F.rms_norm(x, (C,), aux, 1e-5)) for x in xs]
                    what = "F.rms_norm(x, (C,), alpha, 1e-5) (allocates)"
                elif family == "layernorm":
                    aux = (make(t, (C,)), make(t, (C,)))
                    fns = [(lambda x=x: F.layer_norm(x, (C,), aux[0], aux[1], 1e-5)) for x in xs]
                    what = "F.layer_norm(x, (C,), alpha, beta, 1e-5) (allocates)"
                elif family in ("sum", "max", "argmax", "sum0", "max0"):
                    f = {"sum": torch.sum, "max": torch.amax, "argmax": torch.argmax}[family.rstrip("0")]
                    dim = 0 if family.endswith("0") else -1
                    fns = [(lambda x=x, y=y: f(x, dim, out=y)) for x, y in zip(xs, ys)]
                    what = f"torch.{f.__name__}(x, {dim}, out=)"
                else:
                    h = d // 2
                    aux = (make(t, (C, h)).cos(), make(t, (C, h)).sin())
                    c2, s2 = aux

                    def rope(x):
                        x1, x2 = x[..., :h], x[..., h:]
                        return torch.cat((x1 * c2 - x2 * s2, x1 * s2 + x2 * c2), dim=-1)
                    fns = [(lambda x=x: rope(x)) for x in xs]
                    what = "eager rotate-half: cat(x1*c - x2*s, x1*s + x2*c) (several kernels)"
                timed_row(name, kernel, t, label, el, fns, nbytes, what, sets)
            except Exception as e:  # noqa: BLE001
                emit(kind="error", msg=f"{name} {kernel} {case[0]}: {type(e).__name__}: {e}"[:190])
            finally:
                xs = aux = ys = fns = None
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
    torch.backends.cudnn.benchmark = True  # cuDNN at its best algorithm for the conv rows
    for name, kernel, t in CONV_OPS:
        if wanted is not None and name not in wanted and kernel not in wanted:
            continue
        for case in CONV_CASES[name][tiny]:
            xs = wt = None
            try:
                label, b, c, h, w, c_out, kh, kw, stride, pad, oh, ow = case
                ts, one_d = ISZ[t], name.endswith("1d")
                src_el = b * c * h * w
                if name.startswith("im2col"):
                    ho = 1 if one_d else (h + 2 * pad - kh) // stride + 1
                    wo = (w + 2 * pad - kw) // stride + 1
                    nbytes = b * ho * wo * c * kh * kw * ts
                elif name.endswith("pool2d"):
                    nbytes = (src_el + b * c * ((h - kh) // stride + 1) * ((w - kw) // stride + 1)) * ts
                elif name.startswith("upsample"):
                    nbytes = (src_el + b * c * oh * ow) * ts
                else:
                    ho = 1 if one_d else (h + 2 * pad - kh) // stride + 1
                    wo = (w + 2 * pad - kw) // stride + 1
                    nbytes = (src_el + c_out * c * kh * kw + b * c_out * ho * wo) * ts
                sets = max(1, min(MAX_SETS, -(-ROTATE_BYTES // nbytes)))
                shape = (b, c, w) if one_d else (b, c, h, w)
                xs = [make(t, shape) for _ in range(sets)]
                if name == "im2col1d":
                    fns = [(lambda x=x: F.unfold(x.unsqueeze(2), (1, kw), padding=(0, pad), stride=(1, stride)))
                           for x in xs]
                    what = "F.unfold(x[:, :, None], (1, k), padding=, stride=) (allocates; (b, c*k, L))"
                elif name == "im2col":
                    fns = [(lambda x=x: F.unfold(x, (kh, kw), padding=pad, stride=stride)) for x in xs]
                    what = "F.unfold(x, k, padding=, stride=) (allocates; (b, c*kh*kw, L))"
                elif name.endswith("pool2d"):
                    f = F.max_pool2d if name == "max_pool2d" else F.avg_pool2d
                    fns = [(lambda x=x: f(x, (kh, kw), (stride, stride))) for x in xs]
                    what = f"F.{name}(x, k, stride) (allocates)"
                elif name.startswith("upsample"):
                    mode = "nearest" if "nearest" in name else "bilinear"
                    extra = {} if mode == "nearest" else {"align_corners": False}
                    fns = [(lambda x=x: F.interpolate(x, size=(oh, ow), mode=mode, **extra)) for x in xs]
                    what = f"F.interpolate(x, size=, mode='{mode}') (allocates)"
                else:
                    wt = make(t, (c_out, c, kw) if one_d else (c_out, c, kh, kw))
                    f = F.conv1d if one_d else F.conv2d
                    fns = [(lambda x=x: f(x, wt, None, stride, pad)) for x in xs]
                    what = f"F.{name}(x, w, stride, padding) (cuDNN, benchmark mode; allocates)"
                timed_row(name, kernel, t, label, src_el, fns, nbytes, what, sets)
            except Exception as e:  # noqa: BLE001
                emit(kind="error", msg=f"{name} {kernel} {case[0]}: {type(e).__name__}: {e}"[:190])
            finally:
                xs = wt = fns = None
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
