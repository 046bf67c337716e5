#!/usr/bin/env python3
"""Turns the output of `ncu --csv --page raw --print-units base` into h200_counters.csv.

usage: ncu_to_csv.py NCU_OUTPUT KERNEL_LIST METRICS > h200_counters.csv

NCU_OUTPUT   what ncu printed (program output and ==PROF== lines before the CSV are skipped;
             a units row after the header is skipped when present)
KERNEL_LIST  `gms_calibrate --list` output: one "id,name" per line
METRICS      comma-separated metric names, the CSV's columns after kernel_id,name

Every row comes from one profiled launch; the kernel id is read from the kernel name
(gt<ID>_<name>). Values are copied as ncu printed them, without thousands separators. A metric
ncu did not report (ncu drops a name it does not know without an error) keeps its column, empty,
with a warning; nothing is computed or filled in. Exits 1 when a kernel of the list has no row,
has two rows, or no metric at all was reported.
"""
import csv
import re
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    ncu_path, list_path, metrics_arg = sys.argv[1:]
    metrics = [m for m in metrics_arg.split(",") if m]
    names = {}
    with open(list_path) as f:
        for line in f:
            line = line.strip()
            if line:
                kid, name = line.split(",", 1)
                names[int(kid)] = name

    with open(ncu_path, newline="") as f:
        lines = f.read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        sys.exit("ncu_to_csv: no CSV header (a line starting with \"ID\") in " + ncu_path)
    rows = list(csv.reader(l for l in lines[start:] if not l.startswith("==")))
    header = rows[0]
    col = {h: i for i, h in enumerate(header)}
    errors = []
    missing = [m for m in metrics if m not in col]
    for m in missing:
        sys.stderr.write("ncu_to_csv: warning: ncu reported no " + m + "; its column stays empty\n")
    if len(missing) == len(metrics):
        errors.append("none of the metrics is in the ncu output")
    kname = col.get("Kernel Name")
    if kname is None:
        errors.append("no 'Kernel Name' column")
    if errors:
        sys.exit("ncu_to_csv: " + "; ".join(errors))

    out = {}
    for r in rows[1:]:
        if len(r) < len(header) or not r[0].strip().isdigit():
            continue  # the units row, or a truncated line
        m = re.search(r"gt(\d+)_", r[kname])
        if not m:
            continue
        kid = int(m.group(1))
        if kid not in names:
            errors.append("kernel id %d is not in the kernel list" % kid)
            continue
        if kid in out:
            errors.append("kernel id %d was profiled twice" % kid)
            continue
        out[kid] = [r[col[x]].replace(",", "").strip() if x in col else "" for x in metrics]
    for kid in names:
        if kid not in out:
            errors.append("kernel id %d (%s) has no ncu row" % (kid, names[kid]))

    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["kernel_id", "name"] + metrics)
    for kid in sorted(out):
        w.writerow([kid, names[kid]] + out[kid])
    if errors:
        sys.stderr.write("ncu_to_csv: " + "\n  ".join(errors) + "\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
