#!/usr/bin/env python3
"""One line per statistic of the calibration table: how many calibration kernels it was compared
on, how many matched exactly, and the median and largest error (percent, or points for a
percentage), with the kernel of the largest. Reads `calibration_table.sh --format csv`.

usage: tools/groundtruth/calibration_table.sh build --format csv | \
           tools/groundtruth/calibration_summary.py [--kernels 1-13,20-28]
"""
import argparse
import csv
import statistics
import sys


def id_set(spec):
    ids = set()
    for part in filter(None, spec.split(",")):
        lo, _, hi = part.partition("-")
        ids.update(range(int(lo), int(hi or lo) + 1))
    return ids


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", default="", help="kernel ids to keep, e.g. 1-13,20-28 (all)")
    args = ap.parse_args()
    keep = id_set(args.kernels)
    rows = {}
    for r in csv.DictReader(sys.stdin):
        if keep and int(r["kernel_id"]) not in keep:
            continue
        rows.setdefault((r["statistic"], r["mode"], r["error_unit"]), []).append(r)
    if not rows:
        sys.exit("calibration_summary: no rows (pipe calibration_table.sh --format csv in)")
    print("| statistic | mode | kernels | exact | median error | largest error (kernel) |")
    print("|---|---|---|---|---|---|")
    for (stat, mode, unit), rs in rows.items():
        errors = [float(r["error"]) for r in rs]
        exact = sum(1 for r in rs if float(r["simulated"]) == float(r["measured"]))
        worst = max(rs, key=lambda r: float(r["error"]))
        u = " pt" if unit == "points" else "%"
        print(f"| {stat} | {mode} | {len(rs)} | {exact} | {statistics.median(errors):.2f}{u} | "
              f"{float(worst['error']):.2f}{u} ({worst['kernel_id']} {worst['kernel_name']}) |")


if __name__ == "__main__":
    main()
