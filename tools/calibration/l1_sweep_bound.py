#!/usr/bin/env python3
"""Can any L1 replacement policy match gpu-cache's curves past the L1? (issue 34)

usage: l1_sweep_bound.py [--curve l1bw_v100] ...   (default: every l1bw_* curve)

gpu-cache's sumKernel (tests/fidelity/data/l1bw_*.txt) has each SM's one CTA reread its data set
in a fixed order, and a replay of its trace interleaves the CTA's warps in step: the L1 then sees
one cyclic sweep of the set's lines, the same order every pass. For such a sweep the fewest
misses any replacement policy can have are those of Belady's MIN (the policy that evicts the
line used farthest in the future, optimal for every reference string). This script replays the
cyclic sweep of each published data set through MIN on a fully associative cache holding the
board's whole unified L1/shared array (l1.unified_kb of the curve's preset: every byte of it as
L1, no carve-out, no set conflicts; so a real L1 can only miss more), and prints, per point past
that capacity, MIN's share of bytes missed against the share the board read from the L2 (the
file's l2_read_gbps / gbps), and MIN's share again on the L1 the preset gives this kernel
(unified_kb less l1.default_carveout_kb, the carve-out fitted on the chases' L1 edges). A point
whose published share is below MIN's cannot be matched by any replacement policy on a replay
that keeps the warps in step: there the hardware's warps must have left step (those whose lines
hit run ahead), which changes the order the L1 sees.

The L2 column is gpu-benches' lts__t_sectors_op_read x 32 B. It is a miss share only where it
counts every byte an L1 misses: far past the L1 (from 4x its array to 4 MiB, where every L1
misses all) the file's share must be at least 90%; a curve whose share is less there (the
median is printed) is shown but not judged.
"""
import argparse
import heapq
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fidelity  # noqa: E402  (the data files' reader and the presets' values)

LINE = 128
PASSES = 4  # MIN reaches its steady state after the first pass; the last two are counted


def min_miss_share(lines, capacity):
    """Belady's MIN on `PASSES` cyclic sweeps of `lines` lines through `capacity` lines, fully
    associative: the share of the last two sweeps' accesses that miss."""
    if lines <= capacity:
        return 0.0
    resident = {}  # line -> time of its next use
    heap = []  # (-next use, line), stale entries skipped
    misses = counted = 0
    for t in range(PASSES * lines):
        x = t % lines
        last = t >= (PASSES - 2) * lines
        nxt = t + lines  # a cyclic sweep uses x again one pass later
        if x not in resident:
            if last:
                misses += 1
            if len(resident) >= capacity:
                while True:
                    neg, y = heapq.heappop(heap)
                    if resident.get(y) == -neg:
                        break
                # MIN evicts the line used farthest ahead; x itself may be it, then bypassed
                if -neg > nxt:
                    del resident[y]
                else:
                    heapq.heappush(heap, (neg, y))
                    counted += last
                    continue
        resident[x] = nxt
        heapq.heappush(heap, (-nxt, x))
        counted += last
    return misses / counted


def main_with(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--curve", action="append")
    args = ap.parse_args(argv)
    boards = fidelity.read_boards()
    curves = args.curve or sorted(c for c in boards if c.startswith("l1bw_"))
    print("# footprint_kb published_gbps l2_read_gbps l2_share_pct min_miss_pct below_min "
          "min_miss_preset_l1_pct below_min_preset_l1")
    for name in curves:
        if name not in boards:
            fidelity.fail(f"{name}: not in {fidelity.BOARDS}")
        preset, sets = boards[name]
        head, rows = fidelity.read_table(fidelity.DATA / f"{name}.txt")
        cols = head["columns"].split()
        kb_col, gbps_col, l2_col = (cols.index(c) for c in ("dataset_kb", "gbps", "l2_read_gbps"))
        unified = int(fidelity.board_value(preset, sets, "l1", "unified_kb"))
        capacity = unified * 1024 // LINE
        preset_l1 = unified - int(fidelity.board_value(preset, sets, "l1", "default_carveout_kb"))
        print(f"== {name}: {head['board']}; preset {preset}, whole L1/shared array {unified} KiB, "
              f"the preset's L1 for this kernel {preset_l1} KiB")
        far = sorted(100 * r[l2_col] / r[gbps_col] for r in rows
                     if 4 * unified < r[kb_col] <= 4096)
        counted = far[len(far) // 2] if far else 0.0
        judged = counted >= 90
        print(f"   L2 read share from 4x the array to 4 MiB (median of {len(far)} points): "
              f"{counted:.1f}%" + ("" if judged else ": the counter misses L1 misses, not judged"))
        below = below_preset = 0
        for r in rows:
            kb = int(r[kb_col])
            if kb <= preset_l1 or kb > 4 * unified:
                continue
            share = 100 * r[l2_col] / r[gbps_col]
            bound = 100 * min_miss_share(kb * 1024 // LINE, capacity)
            bound_preset = 100 * min_miss_share(kb * 1024 // LINE, preset_l1 * 1024 // LINE)
            flags = [("yes" if share < b else "no") if judged else "-"
                     for b in (bound, bound_preset)]
            below += judged and share < bound
            below_preset += judged and share < bound_preset
            print(f"{kb:8d} {r[gbps_col]:10.1f} {r[l2_col]:8.0f} {share:7.1f} {bound:7.1f}  "
                  f"{flags[0]:3s} {bound_preset:7.1f}  {flags[1]}")
        print(f"   points below MIN: {below if judged else '-'} on the whole array, "
              f"{below_preset if judged else '-'} on the preset's L1")


if __name__ == "__main__":
    main_with(sys.argv[1:])
