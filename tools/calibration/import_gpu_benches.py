#!/usr/bin/env python3
"""Writes tests/fidelity/data/ from a checkout of te42kyfo/gpu-benches (its result files).

usage: import_gpu_benches.py GPU_BENCHES_GIT_DIR OUT_DIR
       import_gpu_benches.py --fork REPO REV GIT_DIR OUT_DIR

Reads the files at the commit the git directory's HEAD names (git show), copies the numbers as
printed (no rounding, no unit change) and writes one table per board and benchmark, headed by
its source: repository, file, commit, board, clock and how the benchmark runs. It never writes a
number that the source file does not print. With --fork, reads the L2-cache files of FORK_BOARDS
from REV of a fork's git directory (REPO names it in the '# source:' line): gpu-benches' own
history up to that fork's HEAD, plus result files the fork added.
"""
import subprocess
import sys
from pathlib import Path

REPO = "te42kyfo/gpu-benches"

# board notes: what each result file measured (the repository's README and docs/hardware.md
# "Caveats"; the clock is the one the file itself prints).
BOARDS = {
    "v100": ("Tesla V100-PCIE-16GB (80 SMs)", "volta-v100"),
    "a100_40": ("A100 40 GB (108 SMs)", "ampere-a100"),
    "a100_80": ("A100 80 GB (108 SMs)", "ampere-a100"),
    "h100_pcie": ("H100 PCIe (114 SMs, HBM2e)", "hopper-h100"),
    "h200": ("H200 SXM (132 SMs)", "hopper-h200"),
    "l40": ("L40 (AD102, 142 SMs, GDDR6; the L40S preset's sibling board)", "ada-l40s"),
    "gb200": ("GB200 (the Blackwell GPU of a GB200 superchip: the B200's two dies, HBM3e; the"
              " SM count is not printed; the B200 preset's sibling board)", "blackwell-b200"),
}

# Boards whose results only a fork holds (--fork): xxrjun/gpu-benches' branch dev/personal,
# 739d965 ("add gb200 for gpu-cache, gpu-l2-cache, and gpu-roofline", 2025-10-24), on top of
# gpu-benches' history (gpu-l2-cache/main.cu last changed in 3088b33 there too).
FORK_BOARDS = ("gb200",)


def show(git_dir, rev, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{rev}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def last_commit(git_dir, path, rev="HEAD"):
    return subprocess.run(["git", "--git-dir", git_dir, "log", "-1", "--format=%H", rev, "--",
                           path], check=True, capture_output=True, text=True).stdout.strip()


def write_table(out, file_name, path, head, git_dir, board_line, preset, about, rows):
    """One table: its source, board, preset and benchmark lines (`about`: the '# benchmark:'
    paragraph and the '# columns:' line, as written), then its rows."""
    with open(out / file_name, "w") as o:
        o.write(f"# source: {REPO} {path} @ {head} "
                f"(file last changed in {last_commit(git_dir, path, head)})\n")
        o.write(f"# board: {board_line}\n")
        o.write(f"# preset: {preset}\n")
        for line in about:
            o.write(line + "\n")
        for r in rows:
            o.write(" ".join(r) + "\n")


# The L40 file was made by main.cu as of 5ff059f, whose loop steps the chain length differently
# (tools/calibration/fidelity.py CHASE_LOOPS).
LATENCY_METHOD = {"l40": ["# method: gpu-latency-5ff059f", "#   (its loop: LEN = LEN x 1.04 + 32, x1.5 past 120 MiB)"]}


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
    write_table(out, f"latency_{board}.txt", path, head, git_dir,
                f"{name}; clock: {rows[0][1]} MHz (as the file prints it)", preset, [
                    "# benchmark: gpu-latency/main.cu: one CTA of 64 threads chases one random cyclic chain",
                    "#   of 8-byte pointers spaced 64 bytes apart (all lanes load the same address), plain",
                    "#   loads; one warm-up launch, then the minimum of 7 launches of max(LEN, 1e6) loads.",
                    "# columns: footprint_kb (LEN x 64 B / 1024, truncated), ns_per_load, cycles_per_load",
                ] + LATENCY_METHOD.get(board, []), [r[2:5] for r in rows])


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
    write_table(out, f"stream_{board}.txt", path, head, git_dir,
                f"{name}; clock: not printed by the file", preset, [
                    "# benchmark: gpu-stream/main.cu: one element (double) per thread, 128 Mi + 2 elements",
                    "#   per array, grid of N / block + 1 CTAs; 6 KB of static shared memory per CTA and the",
                    "#   smallest carve-out (percent) for which cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                    "#   gives 2 CTAs per SM; GB/s = arrays x N x 8 B / median time (GB = 1e9 B).",
                    "#   arrays: init 1 (store), read 1 (load), scale 2 (load+store), triad 3 (2 loads+store)",
                    "# columns: block threads occupancy_pct " + " ".join(header),
                ], rows)


STRIDE_BOARDS = {
    "a100": ("A100 (108 SMs; the file does not say which memory size)", "ampere-a100"),
    "h200": ("H200 SXM (132 SMs)", "hopper-h200"),
}


def strides(git_dir, head, board, out):
    """gpu-strides' stride rows ('float|double stride S S cycles B/clk data_pipe t_output lts')."""
    path = f"gpu-strides/{board}.txt"
    rows = []
    for line in show(git_dir, head, path).splitlines():
        f = line.split()
        if len(f) == 9 and f[0] in ("float", "double") and f[1] == "stride":
            rows.append(["4" if f[0] == "float" else "8", f[2], f[4], f[6], f[7]])
    name, preset = STRIDE_BOARDS[board]
    write_table(out, f"strides_{board}.txt", path, head, git_dir,
                f"{name}; clock: the SM clock of each measurement (cycles are SM cycles)", preset, [
                    "# benchmark: gpu-strides/main.cu strideKernel: one CTA of 1024 threads on one SM; thread t",
                    "#   reads A[(t % 64) x stride + 4k] for k = 0..7 (8 loads a loop trip, float or double), the",
                    "#   same addresses every trip (L1 hits); cycles = SM cycles / warp-level loads; the data-pipe",
                    "#   and t-stage output wavefronts per load are Nsight Compute's l1tex__data_pipe_lsu_wavefronts",
                    "#   and l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld over the loads.",
                    "# columns: elem_bytes stride cycles_per_load data_pipe_wavefronts t_output_wavefronts",
                ], rows)


def bandwidth_table(git_dir, head, board, out, bench, prefix, row, about):
    """One table of a bandwidth-against-data-set benchmark: `row(fields)` is the row of a result
    line split on white space, or None for a line that is not a result."""
    path = f"{bench}/{board}.txt"
    rows = [r for r in (row(line.split()) for line in show(git_dir, head, path).splitlines()) if r]
    name, preset = BOARDS[board]
    write_table(out, f"{prefix}_{board}.txt", path, head, git_dir,
                f"{name}; clock: not printed by the file", preset, about, rows)


L2_CACHE_BOARDS = ("a100_80", "h100_pcie", "h200", "l40")


def l2_cache(git_dir, head, board, out):
    """gpu-l2-cache's rows ('512 kB   1536 kB   4ms   1.0%   13526.6 GB/s   0 GB/s ...')."""
    def row(f):
        if len(f) == 16 and f[1] == "kB" and f[3] == "kB" and f[4].endswith("ms"):
            return [f[0], f[2], f[4][:-2], f[5].rstrip("%"), f[6], f[8], f[10], f[12], f[14]]
        return None
    bandwidth_table(git_dir, head, board, out, "gpu-l2-cache", "l2bw", row, [
        "# benchmark: gpu-l2-cache/main.cu sumKernel: CTAs of 1024 threads, each reading one data set of",
        "#   512 KiB (64 doubles per thread; as of 3088b33 thread t of CTA b reads B[j] and B[j + 1024],",
        "#   j = 2048 (R i + b mod R) + t, i = 0..31), R data sets reread cyclically by 200,000 CTAs",
        "#   (100,000 before 3088b33); GB/s = CTAs x 512 KiB / the minimum of 7 launches (GB = 1e9 B).",
        "#   The four counter columns print 0 in these files.",
        "# columns: block_kb dataset_kb ms spread_pct gbps dram_read_gbps dram_write_gbps "
        "l2_read_gbps l2_write_gbps",
    ])


L1_CACHE_BOARDS = ("v100", "a100_80", "h100_pcie")


def gpu_cache(git_dir, head, board, out):
    """gpu-cache's rows ('   148 kB   6ms   5.0%   10158.2 GB/s   0 GB/s   0 GB/s   795 GB/s ...')."""
    def row(f):
        if len(f) == 14 and f[1] == "kB" and f[2].endswith("ms") and f[5] == "GB/s":
            return [f[0], f[2][:-2], f[3].rstrip("%"), f[4], f[6], f[8], f[10], f[12]]
        return None
    bandwidth_table(git_dir, head, board, out, "gpu-cache", "l1bw", row, [
        "# benchmark: gpu-cache/main.cu sumKernel as of a7dc559 (the files' commit): one CTA of 256",
        "#   threads per SM (blockCount = SM count), all reading the same data set of N doubles",
        "#   (dtype = double then; float since 71a3611): thread t adds B[t + 256 i], i = 0..N/256 - 1,",
        "#   the whole set reread 1e8 / N + 2 times by every CTA; GB/s = N x 8 B x CTAs x rereads /",
        "#   the minimum of 15 launches (GB = 1e9 B). The four counter columns (DRAM and L2 read and",
        "#   write GB/s) print what the file prints (0 where the counters were off).",
        "# columns: dataset_kb ms spread_pct gbps dram_read_gbps dram_write_gbps l2_read_gbps "
        "l2_write_gbps",
    ])


def main():
    global REPO
    if len(sys.argv) == 6 and sys.argv[1] == "--fork":
        REPO, rev, git_dir, out = sys.argv[2], sys.argv[3], sys.argv[4], Path(sys.argv[5])
        head = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", rev], check=True,
                              capture_output=True, text=True).stdout.strip()
        out.mkdir(parents=True, exist_ok=True)
        for b in FORK_BOARDS:
            l2_cache(git_dir, head, b, out)
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    git_dir, out = sys.argv[1], Path(sys.argv[2])
    head = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    out.mkdir(parents=True, exist_ok=True)
    for b in ("v100", "a100_40", "a100_80", "h100_pcie", "l40"):
        latency(git_dir, head, b, out)
    for b in ("v100", "a100_40", "a100_80", "h100_pcie", "h200", "l40"):
        stream(git_dir, head, b, out)
    for b in STRIDE_BOARDS:
        strides(git_dir, head, b, out)
    for b in L2_CACHE_BOARDS:
        l2_cache(git_dir, head, b, out)
    for b in L1_CACHE_BOARDS:
        gpu_cache(git_dir, head, b, out)


if __name__ == "__main__":
    main()
