#!/usr/bin/env python3
"""Before/after timings for bench/RESULTS.md: builds two commits and runs them alternately.

Each commit is built in a git worktree of its own (Release, no tests, no benchmarks, no CUDA)
under --dir; the traces are generated once by the second commit's binary. Every case then runs
BASE, HEAD, BASE, HEAD, ... --runs times each (alternating, so that a slow minute of the host
hits both sides), and the table gives each side's best and median wall time and best(BASE) /
best(HEAD): above 1 is faster. Both sides' outputs are compared byte for byte on every case.

usage: bench/compare_commits.py BASE [HEAD] [--runs 5] [--dir /tmp/gms-compare] [--cases ...]
                               [--threads 1]
  BASE, HEAD   commits (anything git rev-parse takes; HEAD defaults to the working tree's HEAD)
"""
import argparse
import os
import platform
import statistics
import subprocess
import time

# name: (trace file name, `gpumemsim gen` arguments, run arguments)
CASES = {
    "cold stream": ("stream-10M.gmt", ["stream", "--records", "10000000"], ["--mode", "cold"]),
    "cold random": ("random-2M.gmt", ["random", "--records", "2000000"], ["--mode", "cold"]),
    "cached stream": ("stream-10M.gmt", ["stream", "--records", "10000000"], ["--mode", "cached"]),
    "cached random": ("random-1M.gmt", ["random", "--records", "1000000"], ["--mode", "cached"]),
    "cold matmul": ("matmul512.gmt", ["matmul_naive", "--n", "512"], ["--mode", "cold"]),
    "cached matmul": ("matmul512.gmt", ["matmul_naive", "--n", "512"], ["--mode", "cached"]),
    "both stream lists": ("lists-5M.gmt", ["stream_lists", "--records", "5000000"],
                          ["--mode", "both"]),
}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, **kw)


def build(repo, commit, root):
    sha = sh(["git", "-C", repo, "rev-parse", commit], capture_output=True).stdout.strip()
    tree = os.path.join(root, f"wt-{sha[:12]}")
    if not os.path.exists(tree):
        sh(["git", "-C", repo, "worktree", "add", "--detach", tree, sha], capture_output=True)
    out = os.path.join(tree, "build")
    sh(["cmake", "-S", tree, "-B", out, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
        "-DGMS_BUILD_TESTS=OFF", "-DGMS_BUILD_BENCH=OFF", "-DGMS_BUILD_CUDA=OFF"],
       capture_output=True)
    sh(["ninja", "-C", out, "gpumemsim"], capture_output=True)
    return sha[:12], os.path.join(out, "gpumemsim")


def trace(binary, root, name, gen_args):
    path = os.path.join(root, name)
    if not os.path.exists(path):
        sh([binary, "gen", *gen_args, "-o", path], stdout=subprocess.DEVNULL)
    return path


def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True).stdout
    return time.perf_counter() - start, out


def cpu_name():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


def thread_args(binary, threads):
    """`--threads N` for a binary that has the option (the parallel replay), else nothing: an
    older commit replays on one thread."""
    help_text = subprocess.run([binary, "run", "--help"], capture_output=True, text=True).stdout
    return ["--threads", str(threads)] if "--threads" in help_text else []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("head", nargs="?", default="HEAD")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", default="/tmp/gms-compare")
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    ap.add_argument("--model-change", action="store_true",
                    help="HEAD is meant to change results: mark cases whose outputs differ "
                    "instead of stopping")
    ap.add_argument("--threads", type=int, default=1,
                    help="replay threads of a commit that has --threads (default 1: both sides "
                    "sequential)")
    args = ap.parse_args()
    repo = sh(["git", "rev-parse", "--show-toplevel"], capture_output=True).stdout.strip()
    os.makedirs(args.dir, exist_ok=True)
    base_sha, base = build(repo, args.base, args.dir)
    head_sha, head = build(repo, args.head, args.dir)
    cpu = cpu_name()
    extra = {base: thread_args(base, args.threads), head: thread_args(head, args.threads)}
    print(f"BASE {base_sha}, HEAD {head_sha}; {args.runs} runs each, alternating; "
          f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    print(f"command: bench/compare_commits.py {args.base} {args.head} --runs {args.runs}\n")
    print("| case | BASE best s | BASE median s | HEAD best s | HEAD median s | best BASE / HEAD |")
    print("|---|---|---|---|---|---|")
    for name in args.cases.split(","):
        file_name, gen_args, run_args = CASES[name]
        path = trace(head, args.dir, file_name, gen_args)
        times = {base: [], head: []}
        outputs = {}
        for _ in range(args.runs):
            for binary in (base, head):
                seconds, out = timed([binary, "run", path, "--format", "json", *run_args,
                                      *extra[binary]])
                times[binary].append(seconds)
                outputs[binary] = out
        note = ""
        if outputs[base] != outputs[head]:
            if not args.model_change:
                raise SystemExit(f"{name}: the two commits' outputs differ")
            note = " (outputs differ)"
        b, h = times[base], times[head]
        print(f"| {name}{note} | {min(b):.3f} | {statistics.median(b):.3f} | {min(h):.3f} | "
              f"{statistics.median(h):.3f} | {min(b) / min(h):.3f} |", flush=True)


if __name__ == "__main__":
    main()
