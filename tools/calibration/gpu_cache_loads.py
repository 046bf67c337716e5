#!/usr/bin/env python3
"""Writes tests/fidelity/gpu_cache_loads_in_flight.txt: the loads a warp of gpu-benches'
gpu-cache sumKernel keeps in flight, per data set, read from the kernel's PTX (issue 59: the L1
bandwidth checks take loads in flight from the benchmark's code, not from a rule written for
it).

usage: gpu_cache_loads.py GPU_BENCHES_GIT_DIR OUT [--rev REV] [--nvcc NVCC]
                          [--archs sm_75,sm_80,sm_90]

Takes gpu-cache/main.cu and the headers it includes from REV (default a7dc559, the commit of the
stored l1bw_* result files) of a gpu-benches git directory, compiles it to PTX with nvcc for
each architecture, and reads each sumKernel<N, iters, 256> instantiation's figure by
tools/groundtruth/ptx_loads.py's rule (the largest wave of loads in a basic block whose
addresses depend on no load of the block). It fails when the architectures disagree: the figure
must not hang on which one is asked (nvcc 13 has dropped sm_70, the V100's). Nothing of the
benchmark's code is kept; the table names its source and compiler.

What nvcc does with the kernel's `#pragma unroll N/BLOCKSIZE >= 64 ? 32 : N/BLOCKSIZE`: the
sweep's body is unrolled as asked, but where the sweep has few trips the outer loop is unrolled
too (more loads in flight than one sweep's), and where the trip count is not a multiple of the
unroll the body is split at an exit test (fewer loads in flight than 32).
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "groundtruth"))
import ptx_loads  # noqa: E402  (the rule, shared with the capture kit's table)

REPO = "te42kyfo/gpu-benches"
KERNEL = re.compile(r"sumKernelILi(\d+)ELi\d+ELi256E")


def fail(msg):
    print(f"gpu_cache_loads: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(map(str, cmd))}: {r.stderr.strip()}")
    return r.stdout


def figures(tree, nvcc, arch):
    """{N: loads in flight} of every sumKernel instantiation, compiled for `arch`."""
    ptx = tree / f"gpu-cache-{arch}.ptx"
    ptx_loads.compile_ptx(nvcc, arch, tree / "gpu-cache" / "main.cu", ptx, std="c++17",
                          include=tree)
    with open(ptx) as f:
        entries = ptx_loads.read_ptx(f, str(ptx))
    out = {}
    for name, _, _, in_flight in entries:
        if m := KERNEL.search(name):
            out[int(m.group(1))] = in_flight
    if not out:
        fail(f"{ptx}: no sumKernel<N, iters, 256> in the PTX")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("git_dir")
    ap.add_argument("out")
    ap.add_argument("--rev", default="a7dc559")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--archs", default="sm_75,sm_80,sm_90")
    args = ap.parse_args()
    full = run(["git", "--git-dir", args.git_dir, "rev-parse", f"{args.rev}^{{commit}}"]).strip()
    version = run([args.nvcc, "--version"]).strip().splitlines()
    release = next((line for line in version if "release" in line), version[-1])
    archs = args.archs.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        archive = subprocess.run(["git", "--git-dir", args.git_dir, "archive", full],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "x", "-C", tmp], input=archive, check=True)
        tables = {arch: figures(tree, args.nvcc, arch) for arch in archs}
    first = tables[archs[0]]
    for arch in archs[1:]:
        if tables[arch] != first:
            fail(f"{arch} and {archs[0]} give different figures; name one with --archs")
    with open(args.out, "w") as o:
        o.write(f"# source: {REPO} gpu-cache/main.cu @ {full} (the l1bw_* result files' "
                "commit), sumKernel<N, iters, 256>\n")
        o.write(f"# compiled: nvcc -std=c++17 -ptx ({release.strip()}) for "
                f"{', '.join(archs)}: the same figures on each\n")
        o.write("# rule: tools/groundtruth/ptx_loads.py's (the largest wave of loads in a basic "
                "block whose addresses depend on no load of the block)\n")
        o.write("# written by: tools/calibration/gpu_cache_loads.py\n")
        o.write("# columns: N (doubles in the data set) loads_in_flight (per warp)\n")
        for n in sorted(first):
            o.write(f"{n} {first[n]}\n")


if __name__ == "__main__":
    main()
