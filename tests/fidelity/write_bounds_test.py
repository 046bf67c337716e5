#!/usr/bin/env python3
"""fidelity.py --write-bounds without a replay (issue 34): a bound is at most 1.5x the error it
has when written (rounded down to 0.1, at least 0.5); it only tightens; an error over its bound
raises it only with a reason, written beside it and read back; without one nothing is written.
And tests/fidelity/roles.txt marks every data file, with the roles role_of gives.

usage: write_bounds_test.py
"""
import sys
import tempfile
from pathlib import Path

from fidelity_test_support import ROOT, check, fidelity


def bounds_of(path):
    return {k: (v[0], v[2]) for k, v in fidelity.read_bounds(path).items()}


def main():
    # 1.5 x 7.77 = 11.655 -> 11.6; 1.5 x 2 = 3.0; 1.5 x 0.3 = 0.45 -> 0.4 -> the floor 0.5.
    check(fidelity.bound_for(7.77) == 11.6, f"bound_for(7.77) = {fidelity.bound_for(7.77)}")
    check(fidelity.bound_for(2.0) == 3.0, "bound_for(2.0)")
    check(fidelity.bound_for(0.3) == 0.5 and fidelity.bound_for(0) == 0.5, "the floor")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bounds.txt"
        # No bounds yet: every metric gets bound_for(error).
        results = {"c": {"mae": 2.0, "l1_edge": 0.0, "mae_fit": 0.3}}
        check(fidelity.write_bounds(path, results, {}, None, "--quick") == [], "first write")
        check(bounds_of(path) == {("c", "mae"): ("3.0", ""), ("c", "l1_edge"): ("0.5", ""),
                                  ("c", "mae_fit"): ("0.5", "")}, path.read_text())
        # A tighter old bound the error is within stays; a looser one tightens to 1.5x; a curve
        # not in the run keeps its bound.
        path.write_text("c mae 2.5\nc l1_edge 4.0\nd mae 9.0  # raised: an earlier reason\n")
        check(fidelity.write_bounds(path, {"c": {"mae": 2.0, "l1_edge": 0.0}},
                                    fidelity.read_bounds(path), None, "--quick") == [],
              "tighten")
        check(bounds_of(path) == {("c", "mae"): ("2.5", ""), ("c", "l1_edge"): ("0.5", ""),
                                  ("d", "mae"): ("9.0", "an earlier reason")}, path.read_text())
        # An error over its bound: refused without a reason, and the file is left as it was.
        before = path.read_text()
        refused = fidelity.write_bounds(path, {"c": {"mae": 2.6}}, fidelity.read_bounds(path),
                                        None, "--quick")
        check(len(refused) == 1 and "c mae: error 2.60% over its bound 2.5%" in refused[0],
              f"refused: {refused}")
        check(path.read_text() == before, "a refused write leaves the file")
        # With a reason: raised to 1.5 x 2.6 = 3.9, the reason beside it.
        check(fidelity.write_bounds(path, {"c": {"mae": 2.6}}, fidelity.read_bounds(path),
                                    "the L1 term now charges one request per cycle",
                                    "--quick") == [], "raise with a reason")
        check(bounds_of(path)[("c", "mae")] ==
              ("3.9", "the L1 term now charges one request per cycle"), path.read_text())
        check("c mae 3.9  # raised: the L1 term now charges one request per cycle\n"
              in path.read_text(), path.read_text())
    # Every data file has a role line; the selectors pick the points they name.
    roles = fidelity.read_roles()
    for f in sorted((ROOT / "tests/fidelity/data").glob("*.txt")):
        check(f.stem in roles, f"{f.stem} has no line in roles.txt")
    check(fidelity.role_of(["all"], 8) == "fit" and fidelity.role_of(["none"], 8) == "check",
          "all / none")
    check(fidelity.role_of(["x<=64"], 64) == "fit" and fidelity.role_of(["x<=64"], 65) == "check",
          "x<=64")
    check(fidelity.role_of(["32/read", "256/scale"], "256/scale") == "fit" and
          fidelity.role_of(["32/read", "256/scale"], "256/read") == "check", "stream points")
    print("write_bounds_test: bounds only tighten, a raised one says why")


if __name__ == "__main__":
    main()
