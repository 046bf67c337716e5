#!/usr/bin/env python3
"""A cached replay in each order (`gpumemsim run --order`) on one thread: wall seconds (the
median of --runs) and peak memory of the whole process, per trace, and each order's time against
the file order's. The traces are `gpumemsim gen` ones, made once in --dir, and the H200 capture's
128 KiB L1 window (tests/groundtruth). Prints a markdown table headed by the machine, the commit
and the command.

usage: bench/order_speed.py [--bin build/gpumemsim] [--dir /tmp/gms-bench] [--runs 3]
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDERS = ("file", "lockstep", "timed")


def one_run(cmd):
    """Wall seconds and peak RSS (MiB) of one run of `cmd` (GNU time's figures)."""
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M", *cmd], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall, kib = r.stderr.strip().splitlines()[-1].split()
    return float(wall), int(kib) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "gpumemsim"))
    ap.add_argument("--dir", default="/tmp/gms-bench")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    traces = []
    for pattern, records in (("stream", 4_000_000), ("random", 1_000_000)):
        path = os.path.join(args.dir, f"{pattern}-{records}.gmt")
        if not os.path.exists(path):
            subprocess.run([args.bin, "gen", pattern, "--records", str(records), "-o", path],
                           check=True, stdout=subprocess.DEVNULL)
        traces.append((f"gen {pattern}, {records:,} records", path))
    traces.append(("H200 capture, window128k (524,288 records)",
                   os.path.join(ROOT, "tests/groundtruth/traces/102-window128k.wtrace.zst")))
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    print(f"{cpu}, {os.cpu_count()} cores; commit {commit}; {time.strftime('%Y-%m-%d')}; "
          f"`{' '.join(['bench/order_speed.py', *sys.argv[1:]])}` (median of {args.runs})\n")
    print("| trace | order | wall s | vs file | peak MiB |")
    print("|---|---|---|---|---|")
    for name, path in traces:
        file_s = None
        for order in ORDERS:
            cmd = [args.bin, "run", path, "--mode", "cached", "--threads", "1", "--order", order,
                   "--format", "json"]
            runs = [one_run(cmd) for _ in range(args.runs)]
            wall = statistics.median(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            file_s = wall if order == "file" else file_s
            print(f"| {name} | {order} | {wall:.2f} | {file_s / wall:.2f}x | {peak:.0f} |")


if __name__ == "__main__":
    main()
