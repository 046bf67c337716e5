#!/usr/bin/env python3
"""One trace across GPU generations: tests/data/cta_reuse_32m.wtrace.zst replayed with
`gpumemsim sweep --vary preset=...` on a Volta, Ampere, Hopper, Ada and Blackwell preset each
(and their siblings), with the time model's estimate of each from `gpumemsim run`.

    python3 examples/cross_generation.py [--bin build/gpumemsim] [--markdown] [--html FILE]
                                         [--check docs/cross-generation.md] [--write PAGE]

The trace is gpu-l2-cache's kernel (`gpumemsim gen cta_reuse --footprint 33554432 --block 1024
--n 64 --elem 8 --ctas 256`, the command that wrote it): a warm-up kernel reads 64 data sets of
512 KiB once (32 MiB in all), then 256 CTAs of 1024 threads read them again, each set four
times. Whether the 32 MiB stay in the L2 between those reads is what the generations differ in.
--markdown prints the table of docs/cross-generation.md; --html writes the sweep's own HTML page
(its charts: each statistic against the preset) and --svg DIR the two of its charts the manual
shows (CHARTS, as cross-generation-NAME.svg); --check PAGE compares the page's table with this
run's (exit 1 when they differ), --write PAGE replaces it.
"""
import argparse
import csv
import io
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACE = "tests/data/cta_reuse_32m.wtrace.zst"  # relative to ROOT, where gpumemsim runs
CHARTS = ("l2_hit_rate", "dram_read_bytes")  # the sweep page's charts the manual shows
PRESETS = ["volta-v100", "ampere-a100", "hopper-h100", "hopper-h200", "ada-l40s", "ada-rtx4090",
           "blackwell-b200", "blackwell-rtx5090", "blackwell-rtx-pro-6000"]
KERNEL = "cta_reuse"  # the measured kernel (the other is its warm-up)
BEGIN, END = "<!-- cross-generation table: begin -->", "<!-- cross-generation table: end -->"


def gms(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True,
                          cwd=ROOT).stdout


def sweep_rows(binary):
    """{preset: the measured kernel's row} of the sweep's tidy CSV."""
    out = gms(binary, "sweep", "--trace", TRACE, "--vary", "preset=" + ",".join(PRESETS),
              "--mode", "cached", "--no-progress", "-j", "1")
    rows = csv.DictReader(io.StringIO("".join(l for l in out.splitlines(True)
                                              if not l.startswith("#"))))
    return {r["cfg.preset"]: r for r in rows if r["kernel_name"] == KERNEL}


def run_report(binary, preset):
    """The JSON report of `run --config PRESET` (configuration and the time model)."""
    return json.loads(gms(binary, "run", TRACE, "--config", preset, "--mode", "cached",
                          "--format", "json"))


def table(binary):
    rows = sweep_rows(binary)
    lines = ["| preset | arch | SMs | L1+shared KiB | L2 MiB (partitions) | DRAM GB/s | L2 hit rate "
             "| DRAM read MiB | estimate us | bound | GB/s read |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in PRESETS:
        rep = run_report(binary, p)
        cfg = rep["config"]
        k = next(k for k in rep["kernels"] if k["name"] == KERNEL)
        t = k["totals"]["time"]
        r = rows[p]
        read = float(r["bytes_requested"])
        l1 = cfg["l1"]["unified_kb"] if cfg["l1"]["unified_kb"] != "0" else cfg["l1"]["size_kb"]
        lines.append(
            f"| {p} | {cfg['gpu']['arch']} | {cfg['gpu']['sm_count']} | {l1} | "
            f"{int(cfg['l2']['size_kb']) / 1024:g} ({cfg['l2']['partitions']}) | "
            f"{cfg['dram']['peak_gbps']} | {float(r['l2_hit_rate']):.3f} | "
            f"{int(r['dram_read_bytes']) / 2**20:.1f} | {t['estimate_ns'] / 1000:.1f} | "
            f"{t['bound']} | {read / t['estimate_ns']:.0f} |")
    return "\n".join(lines) + "\n"


def page_table(text):
    a, b = text.index(BEGIN) + len(BEGIN) + 1, text.index(END)
    return a, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpumemsim"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--html")
    ap.add_argument("--svg", help="folder for the charts the manual shows")
    ap.add_argument("--check")
    ap.add_argument("--write")
    a = ap.parse_args()
    if a.html or a.svg:
        page = gms(a.bin, "sweep", "--trace", TRACE, "--vary", "preset=" + ",".join(PRESETS),
                   "--mode", "cached", "--no-progress", "-j", "1", "--format", "html")
        if a.html:
            Path(a.html).write_text(page)
        for name in CHARTS if a.svg else ():
            # The page's inline <svg> of that chart, made a file of its own (its namespace added).
            start = page.index(f'aria-label="{name} vs preset"')
            start = page.rindex("<svg", 0, start)
            end = page.index("</svg>", start) + len("</svg>")
            svg = page[start:end].replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
            Path(a.svg, f"cross-generation-{name}.svg").write_text(svg + "\n")
    if not (a.markdown or a.check or a.write):
        return 0
    got = table(a.bin)
    if a.markdown:
        sys.stdout.write(got)
    for page, write in ((a.check, False), (a.write, True)):
        if not page:
            continue
        text = Path(page).read_text()
        s, e = page_table(text)
        if write:
            Path(page).write_text(text[:s] + got + text[e:])
        elif text[s:e] != got:
            print(f"{page}: the table differs from this run's:\n{text[s:e]}\n--- run:\n{got}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
