#!/usr/bin/env python3
"""The parallel replay's speed-up (bench/RESULTS.md): `gpumemsim run --threads 1` against
`--threads N`, or against the program's own choice (`--threads default`: no --threads option,
sim/replay/thread_choice.h), on the cases of bench/compare_commits.py, side by side in one
sitting.

Each case runs 1, N, 1, N, ... --runs times each (alternating, so that a slow minute of the host
hits both sides); the table gives each side's best and median wall time and best(1) / best(N).
Both sides' outputs are compared byte for byte on every case. Traces are generated once into
--dir by the binary under test; the Accel-Sim cases ('cold accelsim', 'cached accelsim') read
the post-processed kernel-1.traceg that bench/gen_raw_accelsim.py writes (576,000 records, each
warp's lines as the tracer wrote them, strided and listed addresses).

With --curve 1,2,4,8,16,default it measures every listed count instead, each case's counts in
turn, --runs rounds, and prints one row per case: the median wall time of each count and its
speed-up over the first count's median (the curve on a many-core machine).

usage: bench/thread_scaling.py [--bin build/gpumemsim] [--threads 2|default] [--runs 5]
                               [--dir /tmp/gms-compare] [--cases ...] [--curve 1,2,4,...]
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_commits import CASES, cpu_name, timed, trace  # noqa: E402

ACCELSIM_CASES = {"cold accelsim": ["--mode", "cold"], "cached accelsim": ["--mode", "cached"]}


def accelsim_trace(root):
    """bench/gen_raw_accelsim.py's post-processed trace, made once under root/accelsim."""
    out = os.path.join(root, "accelsim")
    path = os.path.join(out, "kernel-1.traceg")
    if not os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "gen_raw_accelsim.py"), out], check=True)
    return path


def case_trace(args, name):
    """The trace path and run options of one case, generating the trace on first use."""
    if name in ACCELSIM_CASES:
        return accelsim_trace(args.dir), ACCELSIM_CASES[name]
    file_name, gen_args, run_args = CASES[name]
    return trace(args.bin, args.dir, file_name, gen_args), run_args


def curve(args):
    """Median wall time of each count in --curve, per case, and its speed-up over the first."""
    counts = args.curve.split(",")
    print(f"{args.bin}: the thread counts {', '.join(counts)} in turn; {args.runs} rounds; "
          f"{cpu_name()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    print(f"command: bench/thread_scaling.py --curve {args.curve} --runs {args.runs}\n")
    print("| case | " + " | ".join(f"{c} s" for c in counts) + " | " +
          " | ".join(f"{c}: x" for c in counts[1:]) + " |")
    print("|---|" + "---|" * (2 * len(counts) - 1))
    for name in args.cases.split(","):
        path, run_args = case_trace(args, name)
        times = {c: [] for c in counts}
        outputs = {}
        for _ in range(args.runs):
            for c in counts:
                extra = [] if c == "default" else ["--threads", c]
                seconds, out = timed([args.bin, "run", path, "--format", "json", *run_args, *extra])
                times[c].append(seconds)
                outputs[c] = out
        differing = [c for c in counts if outputs[c] != outputs[counts[0]]]
        if differing:
            raise SystemExit(f"{name}: the outputs of {counts[0]} and {differing} differ")
        med = {c: statistics.median(times[c]) for c in counts}
        print(f"| {name} | " + " | ".join(f"{med[c]:.3f}" for c in counts) + " | " +
              " | ".join(f"{med[counts[0]] / med[c]:.2f}x" for c in counts[1:]) + " |",
              flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/gpumemsim")
    ap.add_argument("--threads", default="2", help="a count, or default: the program's choice")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", default="/tmp/gms-compare")
    ap.add_argument("--cases", default="cached random,cached stream,cold random,cold stream,"
                    "cached matmul,cold matmul,both stream lists,cached accelsim,cold accelsim",
                    help="comma-separated case names")
    ap.add_argument("--curve", default="",
                    help="comma-separated counts (or default) measured in turn, one row per case")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    if args.curve:
        return curve(args)
    n = args.threads
    side = "the default" if n == "default" else f"--threads {n}"
    extra = {1: ["--threads", "1"], n: [] if n == "default" else ["--threads", n]}
    print(f"{args.bin}: --threads 1 against {side}; {args.runs} runs each, alternating; "
          f"{cpu_name()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    print(f"command: bench/thread_scaling.py --threads {n} --runs {args.runs}\n")
    print(f"| case | 1 thread best s | median s | {side} best s | median s | speed-up by best "
          "| by median |")
    print("|---|---|---|---|---|---|---|")
    for name in args.cases.split(","):
        path, run_args = case_trace(args, name)
        times = {1: [], n: []}
        outputs = {}
        for _ in range(args.runs):
            for threads in (1, n):
                seconds, out = timed([args.bin, "run", path, "--format", "json", *run_args,
                                      *extra[threads]])
                times[threads].append(seconds)
                outputs[threads] = out
        if outputs[1] != outputs[n]:
            raise SystemExit(f"{name}: --threads 1 and {side} differ")
        a, b = times[1], times[n]
        print(f"| {name} | {min(a):.3f} | {statistics.median(a):.3f} | {min(b):.3f} | "
              f"{statistics.median(b):.3f} | {min(a) / min(b):.2f}x | "
              f"{statistics.median(a) / statistics.median(b):.2f}x |", flush=True)


if __name__ == "__main__":
    main()
