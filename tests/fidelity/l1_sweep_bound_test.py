#!/usr/bin/env python3
"""tools/calibration/l1_sweep_bound.py (issue 34): Belady's MIN on a cyclic sweep, checked
against hand counts and against LRU, and the verdicts it gives the stored l1bw_* curves.

usage: l1_sweep_bound_test.py
"""
import contextlib
import importlib.util
import io
import random

from fidelity_test_support import ROOT, check

_spec = importlib.util.spec_from_file_location("l1_sweep_bound",
                                               ROOT / "tools/calibration/l1_sweep_bound.py")
bound = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bound)


def lru_miss_share(lines, capacity):
    cache = []
    misses = counted = 0
    for t in range(bound.PASSES * lines):
        x = t % lines
        last = t >= (bound.PASSES - 2) * lines
        if x in cache:
            cache.remove(x)
        else:
            misses += last
            if len(cache) >= capacity:
                cache.pop(0)
        cache.append(x)
        counted += last
    return misses / counted


def opt_by_search(lines, capacity):
    """The fewest misses over the last two passes of any policy, by trying random ones: each
    miss keeps a random subset; MIN must be at most every one of them."""
    best = 1.0
    rng = random.Random(7)
    for _ in range(200):
        cache, misses, counted = set(), 0, 0
        for t in range(bound.PASSES * lines):
            x = t % lines
            last = t >= (bound.PASSES - 2) * lines
            if x not in cache:
                misses += last
                if len(cache) >= capacity:
                    victim = rng.choice(sorted(cache) + [x])
                    if victim == x:
                        counted += last
                        continue
                    cache.remove(victim)
                cache.add(x)
            counted += last
        best = min(best, misses / counted)
    return best


def main():
    # Hand counts: a sweep that fits never misses; 5 lines through 4: MIN keeps 4 of them and
    # misses one access in five (10 accesses counted, 2 misses); 8 through 4: half.
    check(bound.min_miss_share(4, 4) == 0.0, "a sweep that fits")
    check(bound.min_miss_share(5, 4) == 0.2, f"5 through 4: {bound.min_miss_share(5, 4)}")
    check(bound.min_miss_share(8, 4) == 0.5, f"8 through 4: {bound.min_miss_share(8, 4)}")
    # LRU misses every access of a sweep one line too long; MIN never misses more than a policy.
    check(lru_miss_share(5, 4) == 1.0, "LRU, 5 through 4")
    for lines, capacity in ((5, 4), (9, 6), (12, 5)):
        m = bound.min_miss_share(lines, capacity)
        check(m <= opt_by_search(lines, capacity) + 1e-12,
              f"MIN above a policy at {lines}/{capacity}")
        check(m <= lru_miss_share(lines, capacity), f"MIN above LRU at {lines}/{capacity}")

    # The stored curves: the V100's three points past its whole 128 KiB array miss less than MIN
    # allows; the A100's none on its whole array, its 204 KiB point on the preset's 160 KiB L1;
    # the H100's counter misses L1 misses, so it is not judged.
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bound.main_with([])
    text = out.getvalue()
    check("points below MIN: 3 on the whole array, 3 on the preset's L1" in text, "V100 verdict")
    check("points below MIN: 0 on the whole array, 1 on the preset's L1" in text, "A100 verdict")
    check("points below MIN: - on the whole array, - on the preset's L1" in text, "H100 verdict")
    print("ok")


if __name__ == "__main__":
    main()
