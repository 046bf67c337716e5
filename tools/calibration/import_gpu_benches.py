#!/usr/bin/env python3
"""Writes tests/fidelity/data/ from a checkout of te42kyfo/gpu-benches (its result files).

usage: import_gpu_benches.py GPU_BENCHES_GIT_DIR OUT_DIR

Reads the files at the commit the git directory's HEAD names (git show), copies the numbers as
printed (no rounding, no unit change) and writes one table per board and benchmark, headed by
its source: repository, file, commit, board, clock and how the benchmark runs. It never writes a
number that the source file does not print.
"""
import subprocess
import sys
from pathlib import Path

REPO = "te42kyfo/gpu-benches"

# board notes: what each result file measured (the repository's README and HARDWARE.md section
# "Caveats"; the clock is the one the file itself prints).
BOARDS = {
    "v100": ("Tesla V100-PCIE-16GB (80 SMs)", "volta-v100"),
    "a100_40": ("A100 40 GB (108 SMs)", "ampere-a100"),
    "a100_80": ("A100 80 GB (108 SMs)", "ampere-a100"),
    "h100_pcie": ("H100 PCIe (114 SMs, HBM2e)", "hopper-h100"),
    "h200": ("H200 SXM (132 SMs)", "hopper-h200"),
}


def show(git_dir, rev, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{rev}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def last_commit(git_dir, path):
    return subprocess.run(["git", "--git-dir", git_dir, "log", "-1", "--format=%H", "--", path],
                          check=True, capture_output=True, text=True).stdout.strip()


def latency(git_dir, head, board, out):
    path = f"gpu-latency/{board}.txt"
    text = show(git_dir, head, path)
    rows = []
    for line in text.splitlines():
        f = line.split()
        if len(f) == 5 and f[0].isdigit():
            rows.append(f)
    clocks = {r[1] for r in rows}
    assert len(clocks) == 1, (path, clocks)
    name, preset = BOARDS[board]
    with open(out / f"latency_{board}.txt", "w") as o:
        o.write(f"# source: {REPO} {path} @ {head} (file last changed in {last_commit(git_dir, path)})\n")
        o.write(f"# board: {name}; clock: {rows[0][1]} MHz (as the file prints it)\n")
        o.write(f"# preset: {preset}\n")
        o.write("# benchmark: gpu-latency/main.cu: one CTA of 64 threads chases one random cyclic chain\n")
        o.write("#   of 8-byte pointers spaced 64 bytes apart (all lanes load the same address), plain\n")
        o.write("#   loads; one warm-up launch, then the minimum of 7 launches of max(LEN, 1e6) loads.\n")
        o.write("# columns: footprint_kb (LEN x 64 B / 1024, truncated), ns_per_load, cycles_per_load\n")
        for r in rows:
            o.write(f"{r[2]} {r[3]} {r[4]}\n")


def stream(git_dir, head, board, out):
    path = f"gpu-stream/{board}.txt"
    text = show(git_dir, head, path)
    lines = text.splitlines()
    header = lines[0].split("|")[1].split()
    rows = []
    for line in lines[1:]:
        if "|" not in line:
            continue
        left, right = line.split("|")
        l = left.replace("%", " ").split()
        r = right.replace("GB/s:", " ").split()
        if len(l) == 3 and len(r) == len(header):
            rows.append(l + r)
    name, preset = BOARDS[board]
    with open(out / f"stream_{board}.txt", "w") as o:
        o.write(f"# source: {REPO} {path} @ {head} (file last changed in {last_commit(git_dir, path)})\n")
        o.write(f"# board: {name}; clock: not printed by the file\n")
        o.write(f"# preset: {preset}\n")
        o.write("# benchmark: gpu-stream/main.cu: one element (double) per thread, 128 Mi + 2 elements\n")
        o.write("#   per array, grid of N / block + 1 CTAs; 6 KB of static shared memory per CTA and the\n")
        o.write("#   smallest carve-out (percent) for which cudaOccupancyMaxActiveBlocksPerMultiprocessor\n")
        o.write("#   gives 2 CTAs per SM; GB/s = arrays x N x 8 B / median time (GB = 1e9 B).\n")
        o.write("#   arrays: init 1 (store), read 1 (load), scale 2 (load+store), triad 3 (2 loads+store)\n")
        o.write("# columns: block threads occupancy_pct " + " ".join(header) + "\n")
        for r in rows:
            o.write(" ".join(r) + "\n")


def main():
    git_dir, out = sys.argv[1], Path(sys.argv[2])
    head = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    out.mkdir(parents=True, exist_ok=True)
    for b in ("v100", "a100_40", "a100_80", "h100_pcie"):
        latency(git_dir, head, b, out)
    for b in ("v100", "a100_40", "a100_80", "h100_pcie", "h200"):
        stream(git_dir, head, b, out)


if __name__ == "__main__":
    main()
