#!/usr/bin/env python3
"""fidelity.py --points-csv and `gpumemsim fidelity` agree on the points CSV, without a replay:
write_points_csv() writes two made-up curves (a latency curve with its edges, one metric over
its bound and one without a bound; a stream curve with two kernels), and the program reads the
file back into its summary. A layout change on one side only fails here.

usage: points_csv_test.py GPUMEMSIM
"""
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

from fidelity_test_support import ROOT, check, fidelity


def main():
    gms = sys.argv[1]
    head = {"board": 'Board "A", 80 SMs', "source": "repo file @ commit"}
    curves = {
        "latency_t": ("volta-v100", "cycles/load",
                      [(9, 30.0, 30.2), (130, 89.5, 71.2), (7684, 395.8, 394.1)],
                      ((130, 7684), (130, None))),
        "stream_t": ("hopper-h200", "GB/s",
                     [("32/init", 100.0, 110.0), ("32/read", 80.0, 70.0),
                      ("256/init", 900.0, 880.0), ("256/read", 700.0, 800.0)], None),
    }
    about = {"latency_t": (head, ["gpu.clock_mhz=1380"]), "stream_t": (head, [])}
    results = {"latency_t": {"mae": 7.5, "l1_edge": 0.0, "l2_edge": 100.0},
               "stream_t": {"mae": 9.7, "mae_init": 7.7}}
    with tempfile.TemporaryDirectory() as tmp:
        bounds = Path(tmp) / "bounds.txt"
        bounds.write_text("latency_t mae 10.0\nlatency_t l1_edge 5.0\nlatency_t l2_edge 5.0\n"
                          "stream_t mae 9.7\n")
        out = Path(tmp) / "points.csv"
        roles = {"latency_t": (["x<=9"], "made up"), "stream_t": (["32/read"], "made up")}
        fidelity.write_points_csv(out, curves, about, results, fidelity.read_bounds(bounds),
                                  bounds, SimpleNamespace(quick=True, extra_set=[]), roles)
        text = out.read_text()
        check(text.startswith("# gpumemsim fidelity points"), "the first comment names the writer")
        check(",KiB,,,130,130,,l1_edge,0,5.0,5,yes,\n" in text, "an edge metric row:\n" + text)
        check(",KiB,,,7684,,,l2_edge,100,5.0,5,no,\n" in text, "a missing edge is empty:\n" + text)
        check(",,,,,,,,mae_init,7.7,,15,no,\n" in text, "no bound: empty, not within:\n" + text)
        # roles: the 9 KiB point and 32/read are fits, the others checks
        check(",latency,9,30,30.2,0.6666666667,,,,,,fit\n" in text, "a fit point:\n" + text)
        check(",latency,130,89.5,71.2,-20.44692737,,,,,,check\n" in text, "a check:\n" + text)
        check(",read,32,80,70,-12.5,,,,,,fit\n" in text, "a fit stream point:\n" + text)
        r = subprocess.run([gms, "fidelity", str(out)], capture_output=True, text=True)
        check(r.returncode == 0, f"gpumemsim fidelity reads it: {r.stderr}")
        lines = r.stdout.splitlines()
        # a header, two curves, the totals; the groups' title and header, and 4 groups
        check(len(lines) == 10, "the summary and the groups:\n" + r.stdout)
        check(lines[6].split()[:5] == ["volta-v100", "latency", "fit", "0.7", "1"] and
              lines[7].split()[:5] == ["volta-v100", "latency", "check", "10.4", "2"],
              "the latency curve's fit (|0.67|) and checks ((20.45 + 0.43) / 2):\n" + r.stdout)
        check(lines[1].startswith("latency_t") and "3  " in lines[1] and
              "l2_edge 100.00 > 5.0" in lines[1], "the latency curve:\n" + r.stdout)
        check(lines[2].startswith("stream_t") and "mae_init 7.70 (no bound)" in lines[2],
              "the stream curve (mae 9.7 is within 9.7):\n" + r.stdout)
        check(lines[3].startswith("2 curves, 5 metrics: 2 over their bound"), r.stdout)
    print("points_csv_test: the points CSV fidelity.py writes is the one gpumemsim reads")


if __name__ == "__main__":
    main()
