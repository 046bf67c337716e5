#!/usr/bin/env python3
"""Replays the published measurements of tests/fidelity/data through gpumemsim and compares.

usage: fidelity.py [--bin build/gpumemsim] [--quick] [--check BOUNDS] [--write-bounds BOUNDS]
                   [--points-csv FILE] [--curve NAME]... [--extra-set KEY=VALUE]...
                   [--order file|lockstep|timed] [--threads N]

For each curve (tests/fidelity/boards.txt names its preset and board), every published point is
rebuilt with `gpumemsim gen` and replayed with `gpumemsim run --mode cached --format json`:

- latency_* (method gms-capture, latency_h200): the project's own H200 chase, replayed from
  its captured addresses (capture_chase_traces): per footprint, the warp's warm-up as one
  kernel, then lane 0's chase as another (loads_in_flight=1), the L2 kept across the two.
- latency_* (the others): `gen pointer_chase` with gpu-latency's chain (8-byte elements 64 bytes apart, the
  chain lengths its loop makes), a warm-up lap then max(LEN, 1e6) loads as gpu-latency makes,
  one warp, the L2 kept across the two kernels (as the hardware keeps it across launches); on a
  preset with L2 partitions, two warm-up laps (see latency_curve).
  Simulated cycles per load = (estimate_ns - overhead_ns) x clock / loads. Points from 8 KB to
  4x the preset's L2, as issue 20's acceptance says.
- l2bw_*: `gen cta_reuse` with gpu-l2-cache's sumKernel (1024-thread CTAs, 64 doubles per
  thread, CTA b reading data set b mod R): per published data set, a warm-up kernel reads each
  set once and the measured kernel of whole waves (at least 4, and at least 4 passes over the
  sets) rereads them, the L2 kept across the two (the benchmark's 200,000 CTAs follow earlier
  launches). Simulated GB/s = CTAs x 512 KiB / (estimate_ns - launch overhead). Data sets up to
  4x the preset's L2 (past it every point is the DRAM plateau); --quick: every third.
- l1bw_*: `gen cta_reuse` with one data set (R = 1) is gpu-cache's sumKernel: 256-thread CTAs,
  thread t of every CTA reading B[t + 256 i] over the whole set, one CTA per SM (as the
  benchmark launches, blockCount = SM count), each rereading the set `--passes` times (at least
  4 and L1BW_BYTES_PER_SM bytes, so that the first, cold pass weighs little, as in the
  benchmark's 1e8 / N rereads); a warm-up kernel puts the set in the L2 first; the kernel line
  says the benchmark's loads in flight per warp (l1bw_loads_in_flight: from its PTX, as
  tests/fidelity/gpu_cache_loads_in_flight.txt records them). Simulated GB/s = set
  bytes x SMs x passes / (estimate_ns - launch overhead). Data
  sets up to L1BW_MAX_KB (every L2 here holds them: the benchmark's larger sets, read by every SM
  at once, hit the L2 in an order a trace written CTA by CTA does not keep), whose sweep is an
  even number of loads per thread (cta_reuse's loop takes two a trip); --quick: every third.
- stream_*: `gen stream_occupancy` per block size and kernel with gpu-stream's launch: 6 KB of
  shared memory per CTA and the smallest carve-out holding two CTAs (the loop of gpu-stream).
  The arrays are 128 MiB, not gpu-stream's 1 GiB: both far exceed every L2 here, so the
  simulated kernel is the measured one's first eighth; its fixed launch cost is left out
  (gpu.launch_overhead_ns) as it is in an eighth of the measured time. Simulated GB/s = arrays x
  bytes per array / (estimate_ns - launch overhead).

Errors: the mean absolute relative error (MAE) per curve; for latency curves also the L1 and L2
edges (rule in edges()). --quick replays a fixed subset of points (CTest: every third latency
point up to 2x the L2, 100k loads past 1 MiB; block sizes 32, 256 and 1024); the full run
replays every point. Each curve's points are marked in tests/fidelity/roles.txt as fitted (a
model constant was set on them) or kept as checks; every curve has the MAE of each group it has
(mae_fit, mae_check), and the summary pools each group per preset and kind (latency,
bandwidth), so the in-sample agreement is not read as a check. --check compares each curve's
errors with the bounds file and fails on any above its bound; --write-bounds FILE writes bounds
for this run's curves (keeping the file's others): 1.5x each error, rounded down to 0.1, at
least 0.5 (bound_for), or the file's bound where that is tighter; it refuses to raise a bound
(an error over it) unless --reason WHY is given, which it writes beside the raised bound, and
the summary prints every raised bound with its reason.

--points-csv FILE writes every replayed point and every error metric as a tidy CSV (as gpumemsim
writes its own: '#' lines naming what wrote it, the point set and the bounds file, then a header
row, then RFC 4180 rows), which `gpumemsim fidelity FILE --format html` draws (report.sh --html
runs both). One row per point or metric, columns:
  kind        point | metric
  curve       the data file's name (latency_v100, stream_h200, ...)
  preset      the preset it replays on; overrides: boards.txt's --set values, space-separated
  board       the table's '# board:' line; source: its '# source:' line
  x_label     a point's x axis: "footprint (KiB)" (latency), "data set (KiB)" (l2bw, l1bw),
              "stride (elements)" (strides) or "block size (threads)" (stream)
  unit        of published/simulated: cycles/load, GB/s; KiB on an edge metric
  series      a point's line: latency, l2bw, l1bw, the element type of a stride curve (float,
              double), or the stream kernel (init, read, scale, triad)
  x           a point's footprint or data set in KiB (6 significant digits) or block size
  published, simulated   a point's values; an edge metric's two edges in KiB (empty where
              that curve has no edge); empty on the MAE metrics
  error_pct   a point's (simulated - published) / published x 100
  metric      a metric's name (mae, l1_edge, l2_edge, mae_init, ...); value: its error (percent)
  bound       its bound in the bounds file (--check's, else tests/fidelity/bounds.txt; empty
              when the file has none); target: issue 20's target (percent)
  within      yes | no, as --check decides (no bound: no)
  role        a point's role: fit | check (tests/fidelity/roles.txt); empty on metrics
Cells a kind does not use are empty. The file is written whole at the end of the run.
"""
import argparse
import csv
import functools
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "fidelity" / "data"
BOARDS = ROOT / "tests" / "fidelity" / "boards.txt"
BOUNDS = ROOT / "tests" / "fidelity" / "bounds.txt"
ROLES = ROOT / "tests" / "fidelity" / "roles.txt"

# Issue 20's acceptance targets (percent).
TARGET_LATENCY_MAE = 10.0
TARGET_EDGE = 5.0
TARGET_BANDWIDTH_MAE = 15.0
# A bound is written at most this many times the error it has (issue 34), so a regression fails;
# an error under BOUND_FLOOR / BOUND_FACTOR gets BOUND_FLOOR (points of a percent: an edge or a
# plateau that matches exactly would otherwise get a bound of 0, failing on rounding).
BOUND_FACTOR = 1.5
BOUND_FLOOR = 0.5

STREAM_KINDS = {"init": ("write", 1), "read": ("read", 1), "scale": ("copy", 2),
                "triad": ("triad", 3)}
QUICK_BLOCKS = {32, 256, 1024}
STREAM_SHMEM = 6 * 1024
STREAM_FOOTPRINT = 128 << 20
L2BW_BLOCK = 1024  # gpu-l2-cache's blockSize (threads per CTA)
L2BW_LOADS = 64    # its N: doubles per thread, one data set = 1024 x 64 x 8 B = 512 KiB
L1BW_BLOCK = 256     # gpu-cache's blockSize
L1BW_BYTES_PER_SM = 512 << 10  # bytes each SM rereads at least (and at least 4 rereads)
L1BW_MAX_KB = 1024   # data sets replayed: up to 1 MiB, 4x the largest L1 here


def fail(msg):
    print(f"fidelity: {msg}", file=sys.stderr)
    sys.exit(1)


def read_table(path):
    head, rows = {}, []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(":")
            if key in ("source", "board", "preset", "columns", "method"):
                head[key] = value.strip()
            continue
        if not line.strip():
            continue
        try:
            rows.append([float(x) for x in line.split()])
        except ValueError:
            fail(f"{path}:{n}: not a row of numbers")
    if "columns" not in head:
        fail(f"{path}: no '# columns:' line")
    return head, rows


def read_boards():
    boards = {}
    for n, line in enumerate(BOARDS.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split()
        if len(f) < 2 or any("=" not in s for s in f[2:]):
            fail(f"{BOARDS}:{n}: expected 'data-file preset [key=value ...]'")
        boards[f[0]] = (f[1], f[2:])
    return boards


def read_roles():
    """{curve: (fit selector words, what was fitted)} of tests/fidelity/roles.txt."""
    roles = {}
    for n, line in enumerate(ROLES.read_text().splitlines(), 1):
        text, _, note = line.partition("#")
        f = text.split()
        if not f:
            continue
        if len(f) < 2:
            fail(f"{ROLES}:{n}: expected 'data-file fit-points  # what was fitted'")
        if f[0] in roles:
            fail(f"{ROLES}:{n}: a second line for {f[0]}")
        sel = f[1:]
        if len(sel) == 1 and sel[0] in ("all", "none"):
            pass
        elif all(w.startswith("x") for w in sel):
            for w in sel:
                if x_range(w) is None:
                    fail(f"{ROLES}:{n}: '{w}': expected x<=N, x>=N or x=A..B")
        elif any("/" not in w for w in sel):
            fail(f"{ROLES}:{n}: fit points '{' '.join(sel)}': expected all, none, x<=N, x>=N, "
                 "x=A..B ... or BLOCK/KERNEL ...")
        if sel != ["none"] and not note.strip():
            fail(f"{ROLES}:{n}: {f[0]} fits constants: say which after '#'")
        roles[f[0]] = (sel, note.strip())
    return roles


def x_range(word):
    """(low, high) of a roles.txt x selector: x<=N, x>=N or x=A..B (inclusive); None if
    malformed."""
    try:
        if word.startswith("x<="):
            return (-math.inf, float(word[3:]))
        if word.startswith("x>="):
            return (float(word[3:]), math.inf)
        if word.startswith("x=") and ".." in word:
            low, high = word[2:].split("..")
            return (float(low), float(high))
    except ValueError:
        pass
    return None


def role_of(selector, x):
    """'fit' or 'check': a point's role by its curve's selector (x: a latency point's footprint
    or an l2bw point's data set in KiB, or a stream point's 'block/kernel'). x selectors: the
    point is fitted if any range holds it."""
    if selector == ["all"]:
        return "fit"
    if selector == ["none"]:
        return "check"
    if selector[0].startswith("x"):
        return "fit" if not isinstance(x, str) and any(
            lo <= x <= hi for lo, hi in map(x_range, selector)) else "check"
    return "fit" if str(x) in selector else "check"


def ini_value(preset, section, key):
    sec = None
    for line in (ROOT / "configs" / f"{preset}.ini").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("["):
            sec = line.strip("[]")
        elif "=" in line and sec == section:
            k, v = (s.strip() for s in line.split("=", 1))
            if k == key:
                return v
    fail(f"configs/{preset}.ini: no {section}.{key}")


class Sim:
    def __init__(self, binary, tmp, order="file", threads=None):
        self.bin, self.tmp, self.n, self.order = binary, Path(tmp), 0, order
        self.threads = threads

    def gen(self, pattern, args):
        # zstd's fast level -1: a throwaway trace, and a chase's scattered addresses are written
        # about twice as fast and read faster (the records, hence every replay, are the same).
        self.n += 1
        out = self.tmp / f"t{self.n}.gmt"
        self.call([self.bin, "gen", pattern, *args, "--zstd-level", "-1", "-o", str(out)])
        return out

    @staticmethod
    def call(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"{' '.join(cmd)}: {r.stderr.strip()}")
        return r.stdout

    def run(self, trace, preset, sets, before=()):
        cmd = [self.bin, "run", *map(str, before), str(trace), "--mode", "cached", "--format",
               "json", "--config", str(ROOT / "configs" / f"{preset}.ini")]
        if self.order != "file":
            cmd += ["--order", self.order]
        if self.threads is not None:
            cmd += ["--threads", str(self.threads)]
        for s in sets:
            cmd += ["--set", s]
        return json.loads(self.call(cmd))


# gpu-latency's loop over chain lengths, by the main.cu that made a result file (its '# method:'
# line): (growth, step, MiB past which LEN grows x1.5). At a7dc559 (the V100, A100 and H100
# files): LEN = LEN * 1.1 + 16; from 5ff059f (the L40 file): LEN = LEN * 1.04 + 32, x1.5 past
# 120 MiB. The chain and the kernel are otherwise the same.
CHASE_LOOPS = {"gpu-latency": (1.1, 16, 80), "gpu-latency-5ff059f": (1.04, 32, 120)}


def chase_lengths(method="gpu-latency"):
    """The chain lengths gpu-latency's loop made for the stored results (CHASE_LOOPS: from 16,
    LEN = LEN x growth + step, x1.5 past a footprint), with the footprint in KiB it prints for
    each."""
    growth, step, jump_mib = CHASE_LOOPS[method]
    out, n = {}, 16
    while n < (1 << 24):
        if n * 8 * 8 > jump_mib * 1024 * 1024:
            n = int(n * 1.5)
        out.setdefault(n * 64 // 1024, n)
        n = int(n * growth + step)
    return out


def bound_for(error):
    """The bound --write-bounds writes for an error: BOUND_FACTOR x the error, rounded down to 0.1
    (still at least the error for errors of 0.2 and more), at least BOUND_FLOOR."""
    return max(BOUND_FLOOR, math.floor(BOUND_FACTOR * error * 10 + 1e-9) / 10)


def group_maes(curves, roles):
    """{(preset, kind, role): (MAE %, points, curves)} over every point of a preset's curves of a
    kind (latency, bandwidth) and role (fit, check)."""
    pooled = {}
    for name, (preset, _, pts, _) in curves.items():
        kind = "latency" if name.startswith("latency_") else "bandwidth"
        for x, p, s in pts:
            g = pooled.setdefault((preset, kind, role_of(roles[name][0], x)), ([], set()))
            g[0].append((p, s))
            g[1].add(name)
    presets = list(dict.fromkeys(preset for preset, _, _, _ in curves.values()))
    order = [(p, k, r) for p in presets for k in ("latency", "bandwidth") for r in ("fit", "check")]
    return {g: (mae(pooled[g][0]), len(pooled[g][0]), sorted(pooled[g][1]))
            for g in order if g in pooled}


def target_of(curve, metric):
    if curve.startswith(("stream_", "strides_", "l2bw_", "l1bw_")):
        return TARGET_BANDWIDTH_MAE
    return TARGET_EDGE if metric.endswith("_edge") else TARGET_LATENCY_MAE


def mae(pairs):
    return 100.0 * sum(abs(s - p) / p for p, s in pairs) / len(pairs)


def edges(points):
    """(L1 edge, L2 edge) in KiB of a latency curve [(kb, cycles)]: the L1 edge is the first
    footprint whose cycles exceed 1.5x those of the smallest footprint; the L2 edge is the first
    footprint past 1 MiB whose cycles exceed 1.2x those at the first footprint >= 1 MiB."""
    first = points[0][1]
    l1 = next((kb for kb, c in points if c > 1.5 * first), None)
    big = [(kb, c) for kb, c in points if kb >= 1024]
    l2 = None
    if big:
        l2 = next((kb for kb, c in big if c > 1.2 * big[0][1]), None)
    return l1, l2


def latency_points(name, head, rows):
    """[(footprint KiB, published cycles, gen pointer_chase arguments, chain length)] of a
    latency table, by the benchmark that made it (its '# method:' line)."""
    method = head.get("method", "gpu-latency")
    if method in CHASE_LOOPS:
        lengths = chase_lengths(method)
        out = []
        for r in rows:
            kb = int(r[0])
            if kb not in lengths:
                fail(f"{name}: footprint {kb} KiB is not one gpu-latency's loop makes")
            out.append((kb, r[2], ["--elem", "8", "--stride", "8", "--footprint",
                                   str(lengths[kb] * 64)], lengths[kb]))
        return out
    if method == "gms-capture":
        # The project's own chase (tests/groundtruth): replayed from its captured addresses
        # (capture_chase_traces), not rebuilt with gen.
        return [(r[0] / 1024, r[3], None, None) for r in rows]
    if method == "ai-kernels":
        # One thread; 4-byte ints, one per 128-byte line (stride 32 ints): N bytes make
        # N / 128 lines (the benchmark's M = N / 4 / 32, truncated).
        return [(r[0] / 1024, r[3], ["--elem", "4", "--stride", "32", "--mask", "1",
                                     "--footprint", str(int(r[0]) // 128 * 128)],
                 int(r[0]) // 128) for r in rows]
    fail(f"{name}: unknown method '{method}'")


def l1_plateau(name):
    """The median published cycles per load of a latency table's footprints up to 64 KiB."""
    head, rows = read_table(DATA / f"{name}.txt")
    c = sorted(cyc for kb, cyc, _, _ in latency_points(name, head, rows) if kb <= 64)
    return c[len(c) // 2]


def method_cycles(head):
    """Cycles per load a benchmark's own loop adds to the load-to-use latency, beyond
    gpu-latency's (whose plateaus the presets' latencies are): AI_kernels' chase computes each
    address from the loaded index (a + idx x 4), which puts integer arithmetic in the dependent
    chain (its README: its L1 latency is "consistently a few cycles higher" than gpu-benches').
    Measured once, on the H100, as the difference of the two benchmarks' L1 plateaus (SXM and
    PCIe boards share the SM), and added to every simulated point of that method."""
    if head.get("method", "gpu-latency") in CHASE_LOOPS:
        return 0.0
    return l1_plateau("latency_h100_sxm") - l1_plateau("latency_h100_pcie")


CAPTURED_CHASE = ROOT / "tests" / "groundtruth" / "traces" / "110-ptrchase.wtrace.zst"


def capture_chase_traces(sim):
    """{footprint bytes: (warm-up trace, chase trace, loads)} from the captured pointer chase
    (calibrate_kernels.cuh chase_body): per footprint, in program order, the warp's warm-up
    loads (inst 0), lane 0's chase (inst 1) and its store of the timings (inst 2). Each
    footprint's warm-up becomes a kernel of its own and its chase another, with
    loads_in_flight=1 (every address is the previous load's value); the store is left out, as
    the timed loop leaves it out."""
    text = sim.call([sim.bin, "convert", str(CAPTURED_CHASE), "-"])
    kernel = next(l for l in text.splitlines() if l.startswith("#kernel"))
    block = dict(kv.split("=", 1) for kv in kernel.split()[1:] if "=" in kv)["block"]
    records = [l for l in text.splitlines() if l and not l.startswith("#")]
    out, i = {}, 0
    while i < len(records):
        warm, chase = [], []
        while i < len(records) and records[i].split()[0] == "0":
            warm.append(records[i])
            i += 1
        while i < len(records) and records[i].split()[0] == "1":
            chase.append(records[i])
            i += 1
        while i < len(records) and records[i].split()[0] == "2":
            i += 1
        if not warm or not chase:
            fail(f"{CAPTURED_CHASE}: not a warm-up then a chase per footprint near record {i}")
        footprint = len(warm) * 32 * 128  # the warm-up reads each 128-byte line once
        paths = []
        for n, (name, recs, extra) in enumerate(((
                "warm", warm, ""), ("chase", chase, " loads_in_flight=1")), 1):
            sim.n += 1
            path = sim.tmp / f"t{sim.n}.wtrace"
            path.write_text(f"#wtrace 1\n#kernel id={n} name={name} grid=1,1,1 block={block}"
                            f"{extra}\n" + "\n".join(recs) + "\n")
            paths.append(path)
        out[footprint] = (paths[0], paths[1], len(chase))
    return out


def latency_curve(sim, name, preset, sets, head, rows, quick):
    l2_kb = int(ini_value(preset, "l2", "size_kb"))
    pts = [p for p in latency_points(name, head, rows) if 8 <= p[0] <= 4 * l2_kb]
    if quick:
        # every third point up to 2x the L2 (the edges stay in); past 1 MiB, where the L1 holds
        # nothing of the chain and the warm-up lap has warmed the L2, 100k loads per point
        pts = [p for i, p in enumerate(pts) if i % 3 == 0 and p[0] <= 2 * l2_kb]
    sets = ["l2.persist_across_kernels=true", *sets]
    if head.get("method") == "gms-capture":
        # The captured addresses: the warm-up the GPU ran, then its chase of `steps` loads.
        captured = capture_chase_traces(sim)
        out = []
        for kb, published, _, _ in pts:
            warm, chase, loads = captured[int(kb * 1024)]
            rep = sim.run(chase, preset, sets, [warm])
            t = rep["kernels"][-1]["totals"]["time"]
            clock = float(rep["config"]["gpu"]["clock_mhz"]) / 1000
            out.append((kb, published, (t["estimate_ns"] - t["overhead_ns"]) * clock / loads))
        return out
    # gpu-latency reports the minimum of 7 launches after its warm-up, the steady state
    # (AI_kernels' 2^25 loads are dozens of laps of any chain within the L2), so with near/far L2
    # partitions the chase is warmed with two laps: one warm-up lap (and 2 loads) replayed
    # before the chase's own, written into the chase's trace by `gen --rewarm 2` (one shuffle
    # and walk of the chain instead of a second trace's; every point's estimate is the same to
    # the last digit of --points-csv). (Copies of far lines were once made on a line's second
    # read, and one lap left the far half uncopied; now the first read copies, and the second
    # lap settles which copies the home lines leave.) Past 1.25x the L2 the chain thrashes both
    # partitions and one lap reaches the steady state (the second would only cost CI time).
    partitions = int(board_value(preset, sets, "l2", "partitions"))
    extra = method_cycles(head)
    out = []
    for kb, published, chase, length in pts:
        loads = max(length, 100000 if quick and kb > 1024 else 1000000)
        two_laps = partitions > 1 and kb <= 1.25 * l2_kb
        rewarm = ["--rewarm", "2"] if two_laps else []
        trace = sim.gen("pointer_chase", [*chase, *rewarm, "--n", str(loads)])
        rep = sim.run(trace, preset, sets)
        os.unlink(trace)
        t = rep["kernels"][-1]["totals"]["time"]
        clock = float(rep["config"]["gpu"]["clock_mhz"]) / 1000
        out.append((kb, published, (t["estimate_ns"] - t["overhead_ns"]) * clock / loads + extra))
    return out


def stream_curve(sim, name, preset, sets, head, rows, quick, traces):
    cols = head["columns"].split()
    carveouts = [int(c) for c in ini_value(preset, "l1", "carveouts_kb").split(",")]
    reserved = int(ini_value(preset, "gpu", "smem_reserved_per_cta_bytes"))
    carveout = next(c for c in carveouts if c * 1024 // (STREAM_SHMEM + reserved) >= 2)
    launch = None
    out = []
    for r in rows:
        block = int(r[0])
        if quick and block not in QUICK_BLOCKS:
            continue
        for kind, (gen_kind, arrays) in STREAM_KINDS.items():
            published = r[cols.index(kind)]
            key = (block, gen_kind, carveout)
            if key not in traces:
                traces[key] = sim.gen("stream_occupancy", [
                    "--kind", gen_kind, "--block", str(block), "--elem", "8", "--footprint",
                    str(STREAM_FOOTPRINT), "--shmem", str(STREAM_SHMEM), "--carveout",
                    str(carveout)])
            rep = sim.run(traces[key], preset, sets)
            launch = float(rep["config"]["gpu"]["launch_overhead_ns"])
            k = rep["kernels"][0]
            ns = k["totals"]["time"]["estimate_ns"] - launch
            out.append((f"{block}/{kind}", published, arrays * STREAM_FOOTPRINT / ns))
    return out


STRIDE_TRIPS = 50  # loop trips replayed per point: the first trip's misses weigh 2% of the loads
STRIDE_SERIES = {4: "float", 8: "double"}


def board_value(preset, sets, section, key):
    """A configuration value of a board: its boards.txt override, else the preset's."""
    return dict(s.split("=", 1) for s in sets).get(f"{section}.{key}",
                                                   ini_value(preset, section, key))


def l2bw_curve(sim, name, preset, sets, head, rows, quick):
    """gpu-l2-cache per data set (rows: KiB per CTA, KiB of all sets, published GB/s)."""
    l2_kb = int(ini_value(preset, "l2", "size_kb"))
    set_bytes = L2BW_BLOCK * L2BW_LOADS * 8
    gbps = head["columns"].split().index("gbps")
    pts = []
    for r in rows:
        if int(r[0]) * 1024 != set_bytes:
            fail(f"{name}: a data set of {r[0]} KiB per CTA; gpu-l2-cache's is {set_bytes // 1024}")
        if r[1] <= 4 * l2_kb:
            pts.append((int(r[1]), r[gbps]))
    if quick:
        pts = pts[::3]
    # Two 1024-thread CTAs per SM on every preset here (2048 threads per SM, no shared memory).
    slots = 2 * int(board_value(preset, sets, "gpu", "sm_count"))
    sets = ["l2.persist_across_kernels=true", *sets]
    out = []
    for kb, published in pts:
        data_sets = kb * 1024 // set_bytes
        ctas = slots * max(4, -(-4 * data_sets // slots))
        trace = sim.gen("cta_reuse", ["--block", str(L2BW_BLOCK), "--n", str(L2BW_LOADS),
                                      "--elem", "8", "--footprint", str(kb * 1024), "--ctas",
                                      str(ctas)])
        rep = sim.run(trace, preset, sets)
        os.unlink(trace)
        launch = float(rep["config"]["gpu"]["launch_overhead_ns"])
        ns = rep["kernels"][-1]["totals"]["time"]["estimate_ns"] - launch
        out.append((kb, published, ctas * set_bytes / ns))
    return out


L1BW_LOADS = ROOT / "tests" / "fidelity" / "gpu_cache_loads_in_flight.txt"


@functools.cache
def l1bw_loads_table():
    """tests/fidelity/gpu_cache_loads_in_flight.txt: doubles in the data set -> loads in flight."""
    table = {}
    for line in L1BW_LOADS.read_text().splitlines():
        if line and not line.startswith("#"):
            doubles, in_flight = line.split()
            table[int(doubles)] = int(in_flight)
    return table


def l1bw_loads_in_flight(n):
    """Loads a warp of gpu-cache's sumKernel keeps in flight with n loads per thread a sweep
    (N = 256 n doubles): read from the kernel's PTX at the result files' commit
    (tests/fidelity/gpu_cache_loads_in_flight.txt, written by
    tools/calibration/gpu_cache_loads.py), not from the unroll its source asks for."""
    table = l1bw_loads_table()
    if n * L1BW_BLOCK not in table:
        fail(f"{L1BW_LOADS}: no figure for sumKernel<{n * L1BW_BLOCK}, ...>")
    return table[n * L1BW_BLOCK]


def l1bw_curve(sim, name, preset, sets, head, rows, quick):
    """gpu-cache per data set (rows: KiB, ms, spread %, published GB/s, counters)."""
    gbps = head["columns"].split().index("gbps")
    pts = [(int(r[0]), r[gbps]) for r in rows
           if r[0] <= L1BW_MAX_KB and int(r[0]) * 1024 % (2 * L1BW_BLOCK * 8) == 0]
    if quick:
        pts = pts[::3]
    sms = int(board_value(preset, sets, "gpu", "sm_count"))
    sets = ["l2.persist_across_kernels=true", *sets]
    out = []
    for kb, published in pts:
        passes = max(4, -(-L1BW_BYTES_PER_SM // (kb * 1024)))
        n = kb * 1024 // (L1BW_BLOCK * 8)
        trace = sim.gen("cta_reuse", ["--block", str(L1BW_BLOCK), "--n", str(n), "--elem", "8",
                                      "--footprint", str(kb * 1024), "--ctas", str(sms),
                                      "--passes", str(passes),
                                      "--loads-in-flight", str(l1bw_loads_in_flight(n))])
        rep = sim.run(trace, preset, sets)
        os.unlink(trace)
        launch = float(rep["config"]["gpu"]["launch_overhead_ns"])
        ns = rep["kernels"][-1]["totals"]["time"]["estimate_ns"] - launch
        out.append((kb, published, sms * passes * kb * 1024 / ns))
    return out


def strides_curve(sim, name, preset, sets, head, rows):
    """gpu-strides' strideKernel per stride and element size: one CTA of 1024 threads; thread t
    loads A[(t % 64) x stride + 4k], k = 0..7, every trip (written as wtrace records: warp w's
    lanes are t = 32w .. 32w + 31). Simulated cycles per warp-level load = (estimate_ns - launch
    overhead) x clock / loads; the first trip's misses are part of it, as they are of the
    benchmark's own timing (whose 18 x 64 Ki loads per thread make them negligible)."""
    out = []
    for r in rows:
        elem, stride, published = int(r[0]), int(r[1]), r[2]
        sim.n += 1
        trace = sim.tmp / f"t{sim.n}.wtrace"
        lines = ["#wtrace 1",
                 "#kernel id=1 name=strides grid=1,1,1 block=1024,1,1 shmem=0 flops=0"]
        for _ in range(STRIDE_TRIPS):
            for w in range(32):
                for k in range(8):
                    base = (32 * (w % 2) * stride + 4 * k) * elem
                    lines.append(f"{k} LDG {elem} - 0 {w} ffffffff @0x{base:x}:{stride * elem}")
        trace.write_text("\n".join(lines) + "\n")
        rep = sim.run(trace, preset, sets)
        os.unlink(trace)
        t = rep["kernels"][0]["totals"]["time"]
        clock = float(rep["config"]["gpu"]["clock_mhz"]) / 1000
        launch = float(rep["config"]["gpu"]["launch_overhead_ns"])
        loads = STRIDE_TRIPS * 32 * 8
        out.append((f"{stride}/{STRIDE_SERIES[elem]}", published,
                    (t["estimate_ns"] - launch) * clock / loads))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpumemsim"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--check")
    ap.add_argument("--write-bounds")
    ap.add_argument("--reason", help="with --write-bounds: why a bound may be raised (written "
                                     "beside each raised bound; without it --write-bounds "
                                     "refuses to raise one)")
    ap.add_argument("--points-csv", help="write every point and error metric to this CSV "
                                         "(layout in this script's header)")
    ap.add_argument("--curve", action="append")
    ap.add_argument("--calibrate", action="store_true",
                    help="print, per stream curve, the wave overhead, wave dispatch and store "
                         "path rate its calibration points ask for (see calibrate()), and exit")
    ap.add_argument("--order", default="file", choices=["file", "lockstep", "timed"],
                    help="the order of every replay (gpumemsim run --order)")
    ap.add_argument("--threads", type=int,
                    help="the threads of every replay (gpumemsim run --threads; the same "
                         "estimates on any number): CTest, which runs tests side by side, gives 1")
    ap.add_argument("--extra-set", action="append", default=[],
                    help="a further --set for every run (to show the check catches a change)")
    args = ap.parse_args()

    boards = read_boards()
    roles = read_roles()
    for f in sorted(DATA.glob("*.txt")):
        if f.stem not in roles:
            fail(f"{f}: no line in {ROLES} (every curve is marked fit or check)")
    for c in roles:
        if not (DATA / f"{c}.txt").exists():
            fail(f"{ROLES}: {c}: no such data file in {DATA}")
    if args.reason is not None and not args.reason.strip():
        fail("--reason: say why")
    if args.calibrate:
        calibrate(args, boards)
        return
    files = sorted(DATA.glob("*.txt"))
    if args.curve:
        files = [f for f in files if f.stem in args.curve]
    results = {}  # curve -> {metric: error percent}
    curves = {}
    about = {}  # curve -> (table head, board overrides)
    with tempfile.TemporaryDirectory() as tmp:
        sim = Sim(args.bin, tmp, args.order, args.threads)
        traces = {}
        for f in files:
            if f.stem not in boards:
                fail(f"{f}: no line in {BOARDS}")
            preset, sets = boards[f.stem]
            sets = sets + args.extra_set
            head, rows = read_table(f)
            if head.get("preset") != preset:
                fail(f"{f}: preset '{head.get('preset')}' but {BOARDS} says '{preset}'")
            if f.stem.startswith("latency_"):
                pts = latency_curve(sim, f.stem, preset, sets, head, rows, args.quick)
                e_pub, e_sim = edges([(kb, p) for kb, p, _ in pts]), edges(
                    [(kb, s) for kb, _, s in pts])
                res = {"mae": mae([(p, s) for _, p, s in pts])}
                for i, edge in enumerate(("l1_edge", "l2_edge")):
                    if i == 0 and pts and pts[0][0] >= 1024:
                        continue  # a curve that starts in the L2 (latency_h200) has no L1 edge
                    if e_pub[i] and e_sim[i]:
                        res[edge] = 100.0 * abs(e_sim[i] - e_pub[i]) / e_pub[i]
                    else:
                        res[edge] = 100.0  # an edge one curve has and the other lacks
                curves[f.stem] = (preset, "cycles/load", pts, (e_pub, e_sim))
            elif f.stem.startswith(("l2bw_", "l1bw_")):
                curve = l2bw_curve if f.stem.startswith("l2bw_") else l1bw_curve
                pts = curve(sim, f.stem, preset, sets, head, rows, args.quick)
                res = {"mae": mae([(p, s) for _, p, s in pts])}
                curves[f.stem] = (preset, "GB/s", pts, None)
            elif f.stem.startswith("strides_"):
                pts = strides_curve(sim, f.stem, preset, sets, head, rows)
                res = {"mae": mae([(p, s) for _, p, s in pts])}
                for series in STRIDE_SERIES.values():
                    sub = [(p, s) for x, p, s in pts if x.endswith("/" + series)]
                    if sub:
                        res[f"mae_{series}"] = mae(sub)
                curves[f.stem] = (preset, "cycles/request", pts, None)
            else:
                pts = stream_curve(sim, f.stem, preset, sets, head, rows, args.quick, traces)
                res = {"mae": mae([(p, s) for _, p, s in pts])}
                for kind in STREAM_KINDS:
                    sub = [(p, s) for x, p, s in pts if x.endswith("/" + kind)]
                    res[f"mae_{kind}"] = mae(sub)
                curves[f.stem] = (preset, "GB/s", pts, None)
            for role in ("fit", "check"):
                sub = [(p, s) for x, p, s in curves[f.stem][2]
                       if role_of(roles[f.stem][0], x) == role]
                if sub:
                    res[f"mae_{role}"] = mae(sub)
            results[f.stem] = res
            about[f.stem] = (head, sets)
            print_curve(f.stem, head, preset, sets, curves[f.stem], res)

    bounds_file = Path(args.check) if args.check else BOUNDS
    print_summary(results, group_maes(curves, roles), roles,
                  read_bounds(bounds_file) if bounds_file.exists() else {})
    if args.points_csv:
        write_points_csv(args.points_csv, curves, about, results, read_bounds(bounds_file),
                         bounds_file, args, roles)
    if args.write_bounds:
        out = Path(args.write_bounds)
        refused = write_bounds(out, results, read_bounds(out) if out.exists() else {},
                               args.reason, "--quick" if args.quick else "full")
        for line in refused:
            print(f"fidelity: --write-bounds refuses to raise {line} (give --reason WHY)",
                  file=sys.stderr)
        if refused:
            sys.exit(1)
    if args.check:
        bad, bounded = 0, set()
        for (c, m), (bound, n, _) in read_bounds(Path(args.check)).items():
            if c not in results:
                continue
            if m not in results[c]:
                fail(f"{args.check}:{n}: no metric '{m}' for {c}")
            bounded.add((c, m))
            if not within(results[c][m], bound):
                print(f"FAIL {c} {m}: {results[c][m]:.2f}% > bound {bound}%")
                bad += 1
        for c, res in results.items():
            for m in res:
                if (c, m) not in bounded:
                    print(f"FAIL {c} {m}: no bound in {args.check}")
                    bad += 1
        if bad:
            sys.exit(1)
        print("fidelity: every curve within its bound")


def read_bounds(path):
    """{(curve, metric): (bound text, line, why it was raised or '')} of a bounds file, in file
    order. A line is 'curve metric bound', then optionally '# raised: WHY'."""
    out = {}
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        text, _, note = line.partition("#")
        f = text.split()
        note = note.strip()
        if len(f) != 3 or (note and not note.startswith("raised: ")):
            fail(f"{path}:{n}: expected 'curve metric bound [# raised: WHY]'")
        try:
            float(f[2])
        except ValueError:
            fail(f"{path}:{n}: bound '{f[2]}' is not a number")
        if (f[0], f[1]) in out:
            fail(f"{path}:{n}: a second bound for {f[0]} {f[1]} (line {out[(f[0], f[1])][1]})")
        out[(f[0], f[1])] = (f[2], n, note[len("raised: "):])
    return out


def write_bounds(path, results, old, reason, point_set):
    """Writes the bounds file `path` for `results` ({curve: {metric: error %}}), keeping `old`'s
    bounds (read_bounds) of curves not in the run. A bound is bound_for(error), or the old bound
    where that is tighter and the error still within it: a bound only tightens. An error over its
    old bound raises it only with `reason`, written beside it; without one, nothing is written and
    the raised lines are returned (the caller refuses)."""
    new, refused = dict(old), []
    for c, res in results.items():
        for m, v in res.items():
            cap = bound_for(v)
            if (c, m) not in old:
                new[(c, m)] = (f"{cap:.1f}", 0, "")
                continue
            text, _, why = old[(c, m)]
            if within(v, text):
                new[(c, m)] = (text, 0, why) if float(text) <= cap else (f"{cap:.1f}", 0, "")
            elif reason:
                new[(c, m)] = (f"{cap:.1f}", 0, reason.strip())
            else:
                refused.append(f"{c} {m}: error {v:.2f}% over its bound {text}%")
    if refused:
        return refused
    with open(path, "w") as o:
        o.write(f"""# Error bounds (percent) the fidelity test asserts, written by fidelity.py --write-bounds
# for the {point_set} point set (issue 34): each bound is at most {BOUND_FACTOR}x the error the
# model had when it was written (rounded down to 0.1; at least {BOUND_FLOOR}), so a regression
# fails. --write-bounds only tightens a bound; one raised (with --reason) says why after
# '# raised:', and the report prints it. Metrics: mae (every point), mae_fit and mae_check (the
# points tests/fidelity/roles.txt marks as fitted and as checks), l1_edge and l2_edge (latency),
# mae_KERNEL (stream).
""")
        for (c, m), (text, _, why) in sorted(new.items()):
            o.write(f"{c} {m} {text}" + (f"  # raised: {why}" if why else "") + "\n")
    return []


def within(value, bound):
    """An error within its bound (a bound given as the bounds file writes it)."""
    return value <= float(bound) + 1e-9


def calibrate(args, boards):
    """The wave constants and the DRAM queue of each preset, each from one point of its stream
    curve (every other point is a check). The simulated time is launch + max(bandwidth terms,
    chain + queue, (waves - 1) x wave dispatch), the chain = latency + store path + (waves - 1) x
    wave overhead, the queue = T - chain with (T - chain)(T - dram) = s x dram.queue_ns x dram
    (docs/statistics.md "Time model"), so:
    - gpu.wave_overhead_ns from the read kernel at block 32 (2 one-warp CTAs per SM, thousands of
      latency-bound waves, no stores): (published - simulated without it) / (waves - 1);
    - dram.queue_ns from the read kernel at block 1024, or the file's largest (where the latency-bound chain meets the
      DRAM's rate): the queue is linear in dram.queue_ns for a given T, so a run at 1 ns gives
      s x dram, and the published time T gives the constant. The two depend on each other a
      little (the queue adds to the block-32 chain too): two rounds;
    - gpu.wave_dispatch_ns from the init kernel at block 32 (stores only, no latency term):
      published / (waves - 1);
    - l1.store_path_bytes_per_cycle from the scale kernel at block 256 (a load, then a store of
      its data): the rate whose store path term makes up what the chain lacks. The store path
      term is inversely proportional to the rate, so a run at 1 B/clk gives it directly; where
      the preset has a queue, which grows as the store path shrinks, a few corrections of the
      rate by what the simulated time still misses settle it on the point.
    Printed per curve; the presets take their calibration curve's values (docs/fidelity.md)."""
    def kernel_ns(sim, preset, sets, kind, block, carveout):
        trace = sim.gen("stream_occupancy", ["--kind", kind, "--block", str(block), "--elem", "8",
                                             "--footprint", str(STREAM_FOOTPRINT), "--shmem",
                                             str(STREAM_SHMEM), "--carveout", str(carveout)])
        rep = sim.run(trace, preset, sets)
        t = rep["kernels"][0]["totals"]["time"]
        return t, t["estimate_ns"] - float(rep["config"]["gpu"]["launch_overhead_ns"])

    with tempfile.TemporaryDirectory() as tmp:
        sim = Sim(args.bin, tmp)
        for f in sorted(DATA.glob("stream_*.txt")):
            if args.curve and f.stem not in args.curve:
                continue
            preset, sets = boards[f.stem]
            head, rows = read_table(f)
            cols = head["columns"].split()
            carveouts = [int(c) for c in ini_value(preset, "l1", "carveouts_kb").split(",")]
            reserved = int(ini_value(preset, "gpu", "smem_reserved_per_cta_bytes"))
            carveout = next(c for c in carveouts if c * 1024 // (STREAM_SHMEM + reserved) >= 2)

            def published_ns(block, kind):
                row = next(r for r in rows if int(r[0]) == block)
                return STREAM_KINDS[kind][1] * STREAM_FOOTPRINT / row[cols.index(kind)]

            # The largest block the file has (1024; the L40's file stops at 768).
            top = max(int(r[0]) for r in rows)
            bare = [*sets, "gpu.wave_overhead_ns=0", "gpu.wave_dispatch_ns=0",
                    "l1.store_path_bytes_per_cycle=0"]
            queue = 0.0
            for _ in range(2):
                t, ns = kernel_ns(sim, preset, [*bare, f"dram.queue_ns={queue}"], "read", 32,
                                  carveout)
                overhead = (published_ns(32, "read") - ns) / (t["waves"] - 1)
                loaded = [*bare, f"gpu.wave_overhead_ns={overhead:.0f}", "dram.queue_ns=1"]
                t, ns = kernel_ns(sim, preset, loaded, "read", top, carveout)
                launch = t["estimate_ns"] - ns
                chain = t["latency_ns"] + t["store_path_ns"] + t["overhead_ns"] - launch
                target = published_ns(top, "read")
                one_ns = t["queue_ns"] * (chain + t["queue_ns"] - t["dram_ns"])  # s x dram
                queue = max(0.0, (target - chain) * (target - t["dram_ns"]) / one_ns
                            if target > max(chain, t["dram_ns"]) and one_ns > 0 else 0.0)
            t, _ = kernel_ns(sim, preset, bare, "write", 32, carveout)
            dispatch = published_ns(32, "init") / (t["waves"] - 1)
            with_overhead = [*bare[:-1], f"gpu.wave_overhead_ns={overhead:.0f}",
                             f"dram.queue_ns={queue:.0f}", "l1.store_path_bytes_per_cycle=1"]
            t, ns = kernel_ns(sim, preset, with_overhead, "copy", 256, carveout)
            missing = published_ns(256, "scale") - (ns - t["store_path_ns"])
            rate = t["store_path_ns"] / missing if missing > 0 else float("inf")
            # The queue grows as the store path shrinks: a few corrections of the store path
            # term by what the simulated time still misses settle the rate on the point.
            for _ in range(4 if missing > 0 and queue > 0 else 0):
                t, ns = kernel_ns(sim, preset, [*with_overhead[:-1],
                                                f"l1.store_path_bytes_per_cycle={rate}"],
                                  "copy", 256, carveout)
                rate *= t["store_path_ns"] / (t["store_path_ns"] + published_ns(256, "scale") - ns)
            print(f"{f.stem:<18} {preset:<12} gpu.wave_overhead_ns = {overhead:.0f} (read@32)  "
                  f"dram.queue_ns = {queue:.0f} (read@{top})  "
                  f"gpu.wave_dispatch_ns = {dispatch:.0f} (init@32)  "
                  f"l1.store_path_bytes_per_cycle = {rate:.1f} (scale@256)")


def print_curve(name, head, preset, sets, curve, res):
    _, unit, pts, e = curve
    print(f"== {name}: {head.get('board')} | preset {preset} {' '.join(sets)}")
    print(f"   source: {head.get('source')}")
    print(f"   {'point':>14} {'published':>10} {'simulated':>10} {'error':>8}  ({unit})")
    for x, p, s in pts:
        print(f"   {str(x):>14} {p:10.1f} {s:10.1f} {100 * (s - p) / p:+7.1f}%")
    if e:
        print(f"   L1 edge KiB: published {e[0][0]} simulated {e[1][0]}; "
              f"L2 edge KiB: published {e[0][1]} simulated {e[1][1]}")
    print("   " + ", ".join(f"{m} {v:.1f}%" for m, v in res.items()))


def print_summary(results, groups, roles, bounds):
    print("== summary (error %; targets: latency MAE 10, edges 5, bandwidth MAE 15)")
    for c, res in results.items():
        print(f"   {c:<18} " + "  ".join(f"{m} {v:6.1f}" for m, v in res.items()))
    print("== fits and checks apart (MAE % over the points of each group; tests/fidelity/roles.txt)")
    print(f"   {'preset':<12} {'kind':<9} {'role':<5} {'MAE':>6} {'points':>6}  curves")
    for (preset, kind, role), (err, n, names) in groups.items():
        print(f"   {preset:<12} {kind:<9} {role:<5} {err:6.1f} {n:6d}  {' '.join(names)}")
    raised = [(c, m, b) for (c, m), b in bounds.items() if b[2] and c in results]
    if raised:
        print("== bounds raised, and why")
        for c, m, (text, _, why) in raised:
            print(f"   {c} {m} {text}: {why}")


def num(v):
    """A number for the points CSV: integers as they are, others to 10 significant digits."""
    return str(v) if isinstance(v, int) else f"{v:.10g}"


def label(x):
    """A point's x for the points CSV: a footprint AI_kernels' chase gives in bytes is a
    fraction of a KiB, written to 6 significant digits (a chart's label, not a quantity)."""
    return str(x) if isinstance(x, int) else f"{x:.6g}"


def write_points_csv(path, curves, about, results, bounds, bounds_file, args, roles):
    """Every point and error metric of the run (layout in this script's header), written to a
    temporary file that replaces `path` once whole."""
    try:
        shown = bounds_file.resolve().relative_to(ROOT)
    except ValueError:
        shown = bounds_file
    rows = []
    for name, (preset, unit, pts, e) in curves.items():
        head, sets = about[name]
        common = [name, preset, " ".join(sets), head.get("board", ""), head.get("source", "")]
        latency = name.startswith("latency_")
        by_data_set = name.startswith(("l2bw_", "l1bw_"))
        x_label = ("footprint (KiB)" if latency else "data set (KiB)" if by_data_set else
                   "stride (elements)" if name.startswith("strides_") else "block size (threads)")
        for x, p, s in pts:
            role = role_of(roles[name][0], x)
            series, x = (("latency", x) if latency else (name[:4], x) if by_data_set else
                         (x.split("/")[1], int(x.split("/")[0])))
            rows.append(["point", *common, x_label, unit, series, label(x), num(p), num(s),
                         num(100 * (s - p) / p), "", "", "", "", "", role])
        for m, v in results[name].items():
            edge = ["", ""]
            if e and m in ("l1_edge", "l2_edge"):
                i = 0 if m == "l1_edge" else 1
                edge = ["" if e[j][i] is None else num(e[j][i]) for j in (0, 1)]
            bound = bounds.get((name, m), ("", 0))[0]
            rows.append(["metric", *common, "", "KiB" if any(edge) else "", "", "", *edge, "", m,
                         num(v), bound, num(target_of(name, m)),
                         "yes" if bound and within(v, bound) else "no", ""])
    out = Path(path)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=out.name + ".")
    try:
        with os.fdopen(fd, "w", newline="") as o:
            o.write("# gpumemsim fidelity points, written by tools/calibration/fidelity.py "
                    "--points-csv\n")
            o.write(f"# points={'quick' if args.quick else 'full'}\n# bounds={shown}\n")
            for extra in args.extra_set:
                o.write(f"# extra_set={extra}\n")
            if getattr(args, "order", "file") != "file":
                o.write(f"# order={args.order}\n")
            w = csv.writer(o, lineterminator="\n")
            w.writerow(["kind", "curve", "preset", "overrides", "board", "source", "x_label",
                        "unit", "series", "x", "published", "simulated", "error_pct", "metric",
                        "value", "bound", "target", "within", "role"])
            w.writerows(rows)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise


if __name__ == "__main__":
    main()
