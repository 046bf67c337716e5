#!/usr/bin/env python3
"""Writes tests/fidelity/data/latency_h200.txt from this project's own H200 capture: the pointer
chase of the calibration kit (tests/groundtruth/h200_latency.csv, kernel 110), as a latency curve
that tools/calibration/fidelity.py replays with the captured addresses (its '# method:
gms-capture'). Copies the numbers as the capture wrote them; takes the board, clock and date
from the capture's README.md.

usage: import_groundtruth_chase.py [GROUNDTRUTH_DIR] [OUT_FILE]
"""
import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_line(readme, prefix):
    for line in readme.splitlines():
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    sys.exit(f"import_groundtruth_chase: no '{prefix}' line in the capture's README.md")


def main():
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "groundtruth"
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else (
        ROOT / "tests" / "fidelity" / "data" / "latency_h200.txt")
    readme = (src / "README.md").read_text()
    commit = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%H", "--",
                             str(src / "h200_latency.csv")], capture_output=True,
                            text=True).stdout.strip() or "uncommitted"
    with open(src / "h200_latency.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"import_groundtruth_chase: no rows in {src / 'h200_latency.csv'}")
    lines = [
        f"# source: this project's capture, tests/groundtruth/h200_latency.csv @ {commit}",
        "#   (tools/groundtruth/capture.sh; the addresses are tests/groundtruth/traces/"
        "110-ptrchase.wtrace.zst)",
        f"# board: {readme_line(readme, '- GPU:')}; {readme_line(readme, '- Driver:')}",
        f"# clock: {readme_line(readme, '- Clocks during the capture:')}; "
        f"{readme_line(readme, '- Date:')}",
        "# preset: hopper-h200",
        "# benchmark: tools/groundtruth/calibrate_kernels.cuh chase_body: one warp; per footprint,",
        "#   the warp reads every 128-byte line of the region once (lane t of iteration i: line",
        "#   32i + t), then lane 0 follows steps pointers along a random cyclic order of the",
        "#   lines (8-byte loads, p = *p), timed with clock64() (cycles per load). One launch,",
        "#   footprints in increasing order, no carve-out preference.",
        "# method: gms-capture",
        "# columns: footprint_bytes footprint_kib footprint_mib cycles_per_load",
    ]
    for r in rows:
        b = int(r["footprint_bytes"])
        lines.append(f"{b} {b // 1024} {b // (1024 * 1024)} {r['cycles_per_load']}")
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out} ({len(rows)} footprints)")


if __name__ == "__main__":
    main()
