#!/usr/bin/env python3
"""Each calibration kernel's loads in flight per warp, read from the PTX of gms_calibrate
(issue 59: a kernel's memory-level parallelism from the capture kit), in the CSV that
gms_sass_loads writes from a SASS listing (header kernel_id,name,arch,loads,loads_in_flight;
tools/groundtruth/loads_table.h reads it).

usage: ptx_loads.py PTX_FILE [--arch sm_90]      print the CSV of a PTX file
       ptx_loads.py --compile [--nvcc NVCC] [--arch sm_90] [--check TABLE]
                                                compile tools/groundtruth/calibrate.cu to PTX
                                                with nvcc, then print its CSV (--check: compare
                                                it with TABLE instead; exit 1 when they differ,
                                                77 when there is no nvcc)

Why PTX: the capture reads the figure from the binary's SASS (capture.sh step 0, cuobjdump and
gms_sass_loads), which needs cuobjdump. A machine with nvcc alone (no cuobjdump, no nvdisasm,
no GPU) can still compile the kit's kernels to PTX with the nvcc that built the capture's
binary (tests/groundtruth/README.md names it) and read the same figure from it.

The rule. SASS lists instructions in the order ptxas scheduled them, so gms_sass_loads counts
the loads a warp has issued before it first uses one (the scoreboard of load_concurrency.h).
PTX lists them in source order: an unrolled `sum += p[i]` body reads each load's register in
the next instruction, and ptxas hoists the body's independent loads above those uses (a
scheduler issues a load as early as its address allows, so that its latency overlaps). So the
PTX is read per basic block (a block ends at a label, a branch, ret or exit), and a block's
loads are put in waves: a load whose address registers depend on no load of the block is in
wave 1, a load whose address depends on a wave-k load's data in wave k + 1 (a chase through
memory is one load per wave). A warp has a whole wave in flight before it waits. A kernel's
figure is its largest wave in any block: what the same scoreboard counts on SASS where ptxas
hoisted each wave. Like the SASS rule it is one figure per kernel, the most the kernel's code
keeps in flight (a kernel with an unrolled loop and a chase loop, as the pointer chase's
warm-up and chase, gets the unrolled loop's).

Loads counted, as gms_sass_loads counts LDG, LDL, LD, ATOM and ATOMG: ld and ldu of the global
and local state spaces and of generic addresses, and atom (which always returns its old value)
outside shared memory. Not counted: ld.param, ld.const, ld.shared (shared loads are not in the
figure there either), red (returns nothing). Only the plain kernels count
(gt<ID>_<name><false>, mangled ...gt<ID>_<name>ILb0E..., the code ncu profiles); the capture
variants carry the recorder's own loads.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = "kernel_id,name,arch,loads,loads_in_flight"
ENTRY = re.compile(r"^\.(?:visible\s+|weak\s+)?\.entry\s+([\w$]+)\s*\(")
LABEL = re.compile(r"^[\w$]+:$")
PLAIN = re.compile(r"\d+gt(\d+)_(\w+?)ILb0E")
TARGET = re.compile(r"^\.target\s+(\w+)")
REGISTER = re.compile(r"%[\w$]+")
NOT_COUNTED_SPACES = {"param", "const", "shared", "tex"}
ENDS_BLOCK = ("bra", "ret", "exit", "brx")


def fail(msg):
    print(f"ptx_loads: {msg}", file=sys.stderr)
    sys.exit(1)


def is_counted_load(opcode):
    """ld/ldu of global, local or generic addresses; atom outside shared memory."""
    parts = opcode.split(".")
    if parts[0] not in ("ld", "ldu", "atom"):
        return False
    spaces = {p.split("::")[0] for p in parts[1:]}
    return not spaces & NOT_COUNTED_SPACES


def split_operands(text):
    """The operands of an instruction (`{%f1, %f2}` and `[%rd1+8]` stay whole)."""
    out, depth, cur = [], 0, ""
    for c in text:
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def instruction(line):
    """(opcode, operands) of a PTX instruction line, without its guard; None for others."""
    s = line.split("//", 1)[0].strip()
    if not s.endswith(";"):
        return None
    s = s[:-1].strip()
    if s.startswith("@"):
        s = s.split(None, 1)[1] if " " in s or "\t" in s else ""
    if not s or s.startswith("."):
        return None
    parts = s.split(None, 1)
    return parts[0], split_operands(parts[1]) if len(parts) > 1 else []


def largest_wave(block):
    """The largest wave of counted loads in one basic block (a list of (opcode, operands)),
    and the block's counted loads."""
    wave_of = {}  # register -> the latest wave whose load data it depends on (0: none)
    waves = {}
    for opcode, ops in block:
        name = opcode.split(".")[0]
        # Stores and the like write memory, not a register: every operand is a source.
        writes = bool(ops) and name not in ("st", "red", "bar", "membar", "fence", "prefetch")
        dests = REGISTER.findall(ops[0]) if writes and not ops[0].startswith("[") else []
        srcs = [r for op in (ops[1:] if writes else ops) for r in REGISTER.findall(op)]
        wave = max((wave_of.get(r, 0) for r in srcs), default=0)
        if is_counted_load(opcode):
            wave += 1
            waves[wave] = waves.get(wave, 0) + 1
        for d in dests:
            wave_of[d] = wave
    return max(waves.values(), default=0), sum(waves.values())


def read_ptx(lines, source):
    """[(mangled name, arch, loads, loads in flight)] of every .entry of a PTX listing."""
    arch, out, blocks, name = "", [], None, None
    for number, line in enumerate(lines, 1):
        s = line.strip()
        if m := TARGET.match(s):
            arch = m.group(1)
            continue
        if m := ENTRY.match(s):
            if name is not None:
                fail(f"{source}:{number}: .entry {m.group(1)} inside {name}")
            name, blocks, depth = m.group(1), [[]], 0
            continue
        if name is None:
            continue
        depth += s.count("{") - s.count("}")
        if s == "}" and depth == 0:
            figures = [largest_wave(b) for b in blocks]
            out.append((name, arch, sum(f[1] for f in figures), max(f[0] for f in figures)))
            name = None
            continue
        if LABEL.match(s):
            blocks.append([])
            continue
        ins = instruction(s)
        if ins is None:
            continue
        blocks[-1].append(ins)
        if ins[0].split(".")[0] in ENDS_BLOCK:
            blocks.append([])
    if name is not None:
        fail(f"{source}: .entry {name} has no closing brace")
    if not out:
        fail(f"{source}: no .entry in the PTX")
    return out


def compile_ptx(nvcc, arch, source, out, std="c++20", include=ROOT):
    """`source` compiled to PTX for `arch` at `out` (tools/calibration/gpu_cache_loads.py compiles
    gpu-benches' code with it too); fails with nvcc's message."""
    cmd = [nvcc, f"-std={std}", f"-arch={arch}", "-ptx", "-I", str(include), str(source), "-o",
           str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)}: {r.stderr.strip()}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ptx", nargs="?", help="a PTX file (else --compile)")
    ap.add_argument("--compile", action="store_true", help="compile calibrate.cu with nvcc")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--arch", default="sm_90", help="the capture's GPU (H200: sm_90)")
    ap.add_argument("--check", metavar="TABLE", help="with --compile: is TABLE up to date?")
    args = ap.parse_args()
    if bool(args.ptx) == args.compile or (args.check and not args.compile):
        fail("give a PTX file or --compile (see --help)")
    if args.check and shutil.which(args.nvcc) is None:
        print(f"ptx_loads: skipped (no {args.nvcc})")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.ptx
        if args.compile:
            path = os.path.join(tmp, "calibrate.ptx")
            compile_ptx(args.nvcc, args.arch, os.path.join(ROOT, "tools/groundtruth/calibrate.cu"),
                        path)
        try:
            with open(path) as f:
                entries = read_ptx(f, path)
        except OSError as e:
            fail(f"cannot read {path}: {e.strerror}")
    rows = []
    for mangled, arch, loads, in_flight in entries:
        if m := PLAIN.search(mangled):
            rows.append((int(m.group(1)), m.group(2), arch, loads, in_flight))
    if not rows:
        fail(f"{path}: no calibration kernel (gt<ID>_<name><false>) in the PTX")
    lines = [HEADER, *(",".join(map(str, row)) for row in sorted(rows))]
    table = "".join(line + "\n" for line in lines)
    if not args.check:
        sys.stdout.write(table)
        return
    with open(args.check) as f:
        if f.read() != table:
            fail(f"{args.check} is not what the PTX gives; rewrite it with\n"
                 f"  tools/groundtruth/ptx_loads.py --compile > {args.check}\n"
                 f"The PTX gives:\n{table}")
    print(f"ptx_loads: {args.check} is the PTX's table")


if __name__ == "__main__":
    main()
