#!/usr/bin/env python3
"""Fits the H200 preset's gpu.launch_overhead_ns on named calibration kernels: the median, over
those kernels, of the measured time less what the replay adds to the launch (its estimate less
the launch overhead it was run with). The default kernels, 20-28, are the shared-memory ones:
no global traffic, a few hundred warps, so their time is the launch and little else. Every other
kernel stays a check (tools/groundtruth/calibration_summary.py --kernels reports them apart).

usage: tools/groundtruth/calibration_table.sh build --format csv --order timed | \\
           tools/calibration/fit_launch_overhead.py [--kernels 20-28] [--launch-ns NS]
--launch-ns: the overhead the table was run with (default: configs/hopper-h200.ini's).
"""
import argparse
import configparser
import csv
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


sys.path.insert(0, str(ROOT / "tools" / "groundtruth"))
from calibration_summary import id_set  # noqa: E402  (the same kernel list syntax)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", default="20-28")
    ap.add_argument("--launch-ns", type=float)
    args = ap.parse_args()
    launch = args.launch_ns
    if launch is None:
        ini = configparser.ConfigParser(inline_comment_prefixes=("#",))
        ini.read(ROOT / "configs" / "hopper-h200.ini")
        launch = float(ini["gpu"]["launch_overhead_ns"])
    keep = id_set(args.kernels)
    rest = []
    for r in csv.DictReader(sys.stdin):
        if (r["statistic"] == "time.estimate_ns" and r["mode"] == "cached"
                and int(r["kernel_id"]) in keep):
            rest.append(float(r["measured"]) - (float(r["simulated"]) - launch))
    if len(rest) != len(keep):
        sys.exit(f"fit_launch_overhead.py: {len(rest)} of the {len(keep)} kernels in the table")
    print(f"gpu.launch_overhead_ns = {statistics.median(rest):.0f} (median over kernels "
          f"{args.kernels}, from {len(rest)} kernels; the table ran with {launch:g})")


if __name__ == "__main__":
    main()
