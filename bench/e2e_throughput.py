#!/usr/bin/env python3
"""End-to-end throughput of gpumemsim on generated traces (bench/RESULTS.md).

Generates each trace once (not timed), then times `gpumemsim info` (decoding only) and
`gpumemsim run` (decoding, coalescing, bank arbitration, statistics) and reports warp
instructions per second and the peak resident set size of each command.

usage: bench/e2e_throughput.py [--bin build/gpumemsim] [--records 10000000] [--dir /tmp/gms-bench]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/gpumemsim")
    ap.add_argument("--records", type=int, default=10_000_000)
    ap.add_argument("--dir", default="/tmp/gms-bench")
    ap.add_argument("--patterns", default="stream,random")
    ap.add_argument("--formats", default="gmt,wtrace.zst")
    ap.add_argument("--modes", default="cold,cached")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)

    print(f"machine: {cpu_name()}, {os.cpu_count()} cores; binary {args.bin}")
    print(f"records per trace: {args.records:,}")
    print("| trace | format | file MiB | bytes/record | info Mrec/s | mode | run Minstr/s | run peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for pattern in args.patterns.split(","):
        for fmt in args.formats.split(","):
            path = os.path.join(args.dir, f"{pattern}-{args.records}.{fmt}")
            if not os.path.exists(path):
                subprocess.run([args.bin, "gen", pattern, "--records", str(args.records), "-o", path],
                               check=True)
            size = os.path.getsize(path)
            dec_s, _ = timed([args.bin, "info", path])
            for mode in args.modes.split(","):
                run_s, rss = timed([args.bin, "run", path, "--format", "json", "--mode", mode])
                print(f"| {pattern} | {fmt} | {size / 2**20:.1f} | {size / args.records:.2f} | "
                      f"{args.records / dec_s / 1e6:.1f} | {mode} | {args.records / run_s / 1e6:.2f} | "
                      f"{rss:.0f} |", flush=True)


if __name__ == "__main__":
    main()
