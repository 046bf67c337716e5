#!/usr/bin/env python3
"""A naive matrix transpose built in numpy, replayed on Kepler (loads cached in L1: 128-byte
transactions, the notes' model B) and Volta (32-byte sectors, model A), side by side.

    PYTHONPATH=build/python /usr/bin/python3 examples/transpose_kepler_volta.py [--n 256]
        [--plot transpose.png | --no-plot]

A warp accesses 32 consecutive floats of a row (coalesced) on one side and 32 floats down a
column (a stride of n floats: one segment per lane) on the other. Kepler's 128-byte load
transactions make the column reads cost 4x Volta's 32-byte sectors; stores are 32 bytes on
both. With matplotlib installed the bytes fetched per instruction are plotted too.
"""

import argparse

import numpy as np

import gpumemsim


def transpose_trace(n):
    """out = in^T for an n x n float matrix, one warp per 32 consecutive elements, two ways:
    kernel 0 reads rows and writes columns, kernel 1 reads columns and writes rows."""
    b = gpumemsim.TraceBuilder()
    y, bx = np.divmod(np.arange(n * (n // 32)), n // 32)  # one warp per (row, 32 columns)
    x = bx[:, None] * 32 + np.arange(32)                  # the warp's 32 columns
    src, dst = 0x10000000, 0x10000000 + 4 * n * n
    along_row = (4 * (y[:, None] * n + x)).astype(np.uint64)
    down_column = (4 * (x * n + y[:, None])).astype(np.uint64)
    common = dict(size=4, cta=y * (n // 32) + bx, warp=0, mask=0xFFFFFFFF)
    for kernel, (reads, writes) in enumerate([(along_row, down_column),
                                              (down_column, along_row)]):
        name = ["transpose_write_columns", "transpose_read_columns"][kernel]
        b.kernel(id=kernel, name=name, grid=(n // 32, n), block=32)
        b.add_many(inst=0, op="LDG", addrs=src + reads, **common)
        b.add_many(inst=1, op="STG", addrs=dst + writes, **common)
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=256, help="matrix size (a multiple of 32)")
    ap.add_argument("--plot", default="transpose_kepler_volta.png", help="PNG to write")
    ap.add_argument("--no-plot", action="store_true", help="print the table only")
    args = ap.parse_args()
    trace = transpose_trace(args.n)
    frames = []
    for preset in ("kepler-k40-ca", "volta-v100"):
        df = gpumemsim.run(trace, config=preset).to_pandas("instruction")
        df.insert(0, "preset", preset)
        frames.append(df)
    import pandas as pd

    table = pd.concat(frames)[["preset", "kernel_name", "op", "requests", "transactions",
                               "sectors", "bytes_fetched", "efficiency"]]
    print(table.to_string(index=False))
    if args.no_plot:
        return
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no plot)")
        return
    table["access"] = table["kernel_name"].str.replace("transpose_", "") + " " + table["op"]
    pivot = table.pivot(index="access", columns="preset", values="bytes_fetched")
    ax = pivot.plot.bar(rot=0, title=f"naive transpose, n = {args.n}: bytes fetched")
    ax.set_ylabel("bytes")
    plt.tight_layout()
    plt.savefig(args.plot)
    print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
