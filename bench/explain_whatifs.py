#!/usr/bin/env python3
"""What `gpumemsim explain --top N` costs against N + 1 separate `gpumemsim run`s (bench/RESULTS.md).

Generates one trace (not timed): N global loads, each wasteful in its own way (strides of 2, 4,
8 and 32 floats, 12- and 24-byte structure fields, a misaligned start, a column walk), every
load executed by `--warps` warps, as .gmt; in one kernel, or with `--kernels K` load i in kernel
i mod K (each what-if then replays its own kernel only). Then times, best of `--repeat`:
  - `explain --top N` on one thread (--jobs 1) and on every core (--jobs 0);
  - `explain --top N --jobs 1` with the layout changes the diagnosis suggests (structure of
    arrays for the structure fields, transposes for the column walks: L more replays, each of
    the kernels its array is in), against the same without them (`--no-suggested-layouts`, the
    instruction what-ifs alone, as the other explain rows);
  - N + 1 separate `run`s of the trace (the replays a user would make by hand: the trace as it
    is and one per fixed instruction; all N + 1 replay the original trace here, since the cost of
    a replay does not depend on which instruction was fixed), on one thread each and with the
    program's own thread choice.
usage: bench/explain_whatifs.py [--bin build/gpumemsim] [--warps 65536] [--top 8] [--kernels 1]
                                [--mode cached] [--repeat 3]
"""
import argparse
import json
import os
import platform
import subprocess
import tempfile
import time

# (stride in bytes, offset): lane t of warp w reads base_i + 4096 w + stride t + offset.
LOADS = [(8, 0), (16, 0), (32, 0), (128, 0), (12, 0), (24, 0), (4, 8), (4096, 0)]


def timed(cmd):
    """(wall seconds, CPU seconds: user + system) of one command."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def best(cmds, repeat):
    """The best of `repeat` runs of the command list (run one after another): wall and CPU
    seconds, each the least of the repeats."""
    runs = [[timed(c) for c in cmds] for _ in range(repeat)]
    return (min(sum(w for w, _ in r) for r in runs), min(sum(c for _, c in r) for r in runs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/gpumemsim")
    ap.add_argument("--warps", type=int, default=65536)
    ap.add_argument("--top", type=int, default=len(LOADS))
    ap.add_argument("--mode", default="cached")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernels", type=int, default=1)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        text, gmt = os.path.join(tmp, "t.wtrace"), os.path.join(tmp, "t.gmt")
        with open(text, "w") as f:
            f.write("#wtrace 1\n")
            for k in range(a.kernels):
                f.write(f"#kernel id={k + 1} name=wasteful{k} grid=512,1,1 block=256,1,1 "
                        "shmem=0\n")
                for w in range(a.warps):
                    for i, (stride, offset) in enumerate(LOADS[: a.top]):
                        if i % a.kernels != k:
                            continue
                        base = (i + 1) << 36
                        f.write(f"{i} LDG 4 - {w // 8} {w % 8} ffffffff "
                                f"@0x{base + 4096 * w + offset:x}:{stride}\n")
        subprocess.run([a.bin, "convert", text, gmt], check=True, stdout=subprocess.DEVNULL)
        records = a.warps * min(a.top, len(LOADS))
        n = min(a.top, len(LOADS))
        with_layouts = [a.bin, "explain", gmt, "--top", str(n), "--mode", a.mode]
        explain = with_layouts + ["--no-suggested-layouts"]
        run = [a.bin, "run", gmt, "--mode", a.mode, "--no-progress"]
        report = json.loads(subprocess.run(with_layouts + ["--format", "json"], check=True,
                                           capture_output=True, text=True).stdout)
        layouts = len({w["layout"] for w in report["what_ifs"] if w["kind"] == "layout"})
        rows = [
            ("explain --jobs 1", best([explain + ["--jobs", "1"]], a.repeat)),
            ("explain (--jobs 0: one per core)", best([explain], a.repeat)),
            (f"explain --jobs 1 with {layouts} suggested layout changes",
             best([with_layouts + ["--jobs", "1"]], a.repeat)),
            (f"{n + 1} x run --threads 1", best([run + ["--threads", "1"]] * (n + 1), a.repeat)),
            (f"{n + 1} x run (program's thread choice)", best([run] * (n + 1), a.repeat)),
        ]
    print(f"# {platform.node()}: {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}; {records} records ({a.warps} warps x {n} loads, "
          f"{a.kernels} kernel(s)), .gmt, "
          f"--mode {a.mode}, best of {a.repeat}")
    print(f"| what | wall s | CPU s (user + sys) | wall against {n + 1} x run --threads 1 |")
    print("|---|---|---|---|")
    base = rows[3][1][0]
    for name, (wall, cpu) in rows:
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {base / wall:.2f}x |")


if __name__ == "__main__":
    main()
