#!/usr/bin/env python3
"""bench_plot.py RESULTS_JSON OUT_PNG -- plot of build/bench's results.

One subplot per op: achieved GB/s against the element count (log2), crk
(solid) and PyTorch (dashed) for each layout, and the copy reference (grey).
Without matplotlib it says so and exits 0: the CSV beside the JSON is the
result then.
"""
import json
import sys


def main():
    if len(sys.argv) != 3:
        print("usage: bench_plot.py RESULTS_JSON OUT_PNG", file=sys.stderr)
        return 2
    src, dst = sys.argv[1], sys.argv[2]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # noqa: BLE001
        print(f"plot: matplotlib unavailable ({e}); CSV only")
        return 0
    with open(src) as f:
        res = json.load(f)
    rows = res.get("rows", [])
    ops = []
    for r in rows:
        if r["op"] not in ops:
            ops.append(r["op"])
    if not ops:
        print("plot: no rows")
        return 0

    # copy reference per size: torch's contiguous copy where it ran, else ours
    ref = {}
    for r in rows:
        if r["op"] == "copy" and r["layout"] == "contiguous":
            v = r.get("torch_gbps") or r.get("ours_gbps")
            if v:
                ref[r["log2n"]] = v

    colors = {"contiguous": "tab:blue", "strided": "tab:orange", "broadcast": "tab:green"}
    ncol = min(4, len(ops))
    nrow = (len(ops) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.4 * nrow), squeeze=False)
    for k, op in enumerate(ops):
        ax = axes[k // ncol][k % ncol]
        mine = [r for r in rows if r["op"] == op]
        dtype = mine[0].get("dtype", "")
        for layout, color in colors.items():
            pts = sorted((r["log2n"], r.get("ours_gbps"), r.get("torch_gbps")) for r in mine if r["layout"] == layout)
            xs_o = [p[0] for p in pts if p[1]]
            ys_o = [p[1] for p in pts if p[1]]
            xs_t = [p[0] for p in pts if p[2]]
            ys_t = [p[2] for p in pts if p[2]]
            if xs_o:
                ax.plot(xs_o, ys_o, "-o", color=color, label=f"crk {layout}")
            if xs_t:
                ax.plot(xs_t, ys_t, "--s", color=color, alpha=0.7, label=f"torch {layout}")
        if ref:
            xs = sorted(ref)
            ax.plot(xs, [ref[x] for x in xs], ":", color="grey", label="copy")
        ax.set_title(f"{op} ({dtype})", fontsize=10)
        ax.set_xlabel("log2(elements)")
        ax.set_ylabel("GB/s (read + written)")
        ax.set_xticks(sorted({r["log2n"] for r in mine}))
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        if k == 0:
            ax.legend(fontsize=7)
    for k in range(len(ops), nrow * ncol):
        axes[k // ncol][k % ncol].axis("off")
    fig.suptitle(f"crk vs PyTorch: {res.get('device', '')}", fontsize=11)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    print(f"plot: wrote {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
