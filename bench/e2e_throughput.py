#!/usr/bin/env python3
"""End-to-end throughput of gpumemsim on generated traces (bench/RESULTS.md).

Generates each trace once (not timed), then times `gpumemsim info` (decoding plus its footprint
summary) and `gpumemsim run` (decoding, coalescing, bank arbitration, caches, statistics) and
reports warp instructions per second and the peak resident set size of each command.

usage: bench/e2e_throughput.py [--bin build/gpumemsim] [--records 10000000] [--dir /tmp/gms-bench]
       bench/e2e_throughput.py --flat-memory 10000000,1000000000   peak RSS at both ends
       bench/e2e_throughput.py --sweep-records 2000000             sweep on 1 job, then 2
(bench/run_all.sh runs every table of bench/RESULTS.md.)
"""
import argparse
import os
import platform
import subprocess
import time


def timed(cmd):
    """Runs cmd with its output discarded; returns (seconds, peak RSS of that process in MiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return seconds, usage.ru_maxrss / 1024.0


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def trace(args, pattern, records, fmt):
    """The generated trace of `records` instructions, made once and kept in --dir."""
    path = os.path.join(args.dir, f"{pattern}-{records}.{fmt}")
    if not os.path.exists(path):
        subprocess.run([args.bin, "gen", pattern, "--records", str(records), "-o", path], check=True)
    return path


def flat_memory(args):
    """Peak RSS of cold and cached runs of the stream trace at each size: flat means the same."""
    print("| records | mode | wall s | Minstr/s | peak RSS MiB |")
    print("|---|---|---|---|---|")
    for records in (int(r) for r in args.flat_memory.split(",")):
        path = trace(args, "stream", records, "gmt")
        for mode in args.modes.split(","):
            run_s, rss = timed([args.bin, "run", path, "--format", "json", "--mode", mode,
                                "--threads", str(args.threads)])
            print(f"| {records:,} | {mode} | {run_s:.2f} | {records / run_s / 1e6:.2f} | {rss:.0f} |",
                  flush=True)


def sweep_scaling(args):
    """Wall time of one cached sweep (six configurations) on 1 job and on 2; outputs must match."""
    path = trace(args, "stream", args.sweep_records, "gmt")
    csv, seconds = {}, {}
    print("| jobs | wall s | speed-up |")
    print("|---|---|---|")
    for jobs in (1, 2):
        csv[jobs] = os.path.join(args.dir, f"sweep-{jobs}.csv")
        seconds[jobs], _ = timed([args.bin, "sweep", "--trace", path,
                                  "--vary", "coalescer.segment_bytes=32,64,128",
                                  "--vary", "preset=hopper-h200,volta-v100", "--mode", "cached",
                                  "--jobs", str(jobs), "--no-progress", "-o", csv[jobs]])
        print(f"| {jobs} | {seconds[jobs]:.2f} | {seconds[1] / seconds[jobs]:.2f}x |", flush=True)
    with open(csv[1], "rb") as a, open(csv[2], "rb") as b:
        if a.read() != b.read():
            raise SystemExit("sweep outputs differ between 1 and 2 jobs")
    print("(the two CSVs are byte-identical)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/gpumemsim")
    ap.add_argument("--records", type=int, default=10_000_000)
    ap.add_argument("--dir", default="/tmp/gms-bench")
    ap.add_argument("--patterns", default="stream,random")
    ap.add_argument("--formats", default="gmt,wtrace.zst")
    ap.add_argument("--modes", default="cold,cached")
    ap.add_argument("--threads", type=int, default=1,
                    help="run's --threads (default 1: the sequential replay's figures; "
                    "bench/thread_scaling.py measures the parallel one)")
    ap.add_argument("--flat-memory", help="comma-separated record counts of the stream trace")
    ap.add_argument("--sweep-records", type=int, help="stream trace size for the sweep table")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)

    print(f"machine: {cpu_name()}, {os.cpu_count()} cores; binary {args.bin}")
    if args.flat_memory:
        flat_memory(args)
        return
    if args.sweep_records:
        sweep_scaling(args)
        return
    print(f"records per trace: {args.records:,}")
    print("| trace | format | file MiB | bytes/record | info Mrec/s | mode | run Minstr/s | run peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for pattern in args.patterns.split(","):
        for fmt in args.formats.split(","):
            path = trace(args, pattern, args.records, fmt)
            size = os.path.getsize(path)
            dec_s, _ = timed([args.bin, "info", path])
            for mode in args.modes.split(","):
                run_s, rss = timed([args.bin, "run", path, "--format", "json", "--mode", mode,
                                "--threads", str(args.threads)])
                print(f"| {pattern} | {fmt} | {size / 2**20:.1f} | {size / args.records:.2f} | "
                      f"{args.records / dec_s / 1e6:.1f} | {mode} | {args.records / run_s / 1e6:.2f} | "
                      f"{rss:.0f} |", flush=True)


if __name__ == "__main__":
    main()
