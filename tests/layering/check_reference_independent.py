#!/usr/bin/env python3
"""Holds the reference engine to its independence from the fast engine's model.

sim/replay/reference_engine.cc and every file of sim/replay/reference/ may include, of the
simulator's own headers, only what the reference shares with the fast engine: the configuration
(sim/config), the records, types and statistics (sim/core), the address maps and placement
(sim/model/address_map.h, sim/model/placement.h: pure functions of the configuration), the
kernel's frame with the run options (sim/replay/kernel_frame.h, simulator.h,
run_options.h), its own header, and its own plain model (sim/replay/reference/). Trace readers
(trace/) are free. Anything else of sim/ (the fast model's coalescer, caches, DRAM model,
charging rules, host devices) is an error: the differential tests would then compare the fast
model with itself.

Usage: check_reference_independent.py SOURCE_DIR    exits 1 and lists each violation
       check_reference_independent.py --self-test   checks that a violation is caught
"""
import pathlib
import re
import sys
import tempfile

from checker_main import run_checker

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ALLOWED_PREFIXES = ("sim/config/", "sim/core/", "sim/replay/reference/", "trace/")
ALLOWED_FILES = {"sim/model/address_map.h", "sim/model/placement.h",
                 "sim/replay/kernel_frame.h", "sim/replay/simulator.h",
                 "sim/replay/run_options.h", "sim/replay/reference_engine.h"}


def checked_files(root: pathlib.Path):
    files = [root / "sim/replay/reference_engine.cc", root / "sim/replay/reference_engine.h"]
    files += sorted((root / "sim/replay/reference").glob("*"))
    return [f for f in files if f.is_file()]


def check(root: pathlib.Path):
    errors = []
    files = checked_files(root)
    if len(files) < 3:
        errors.append("sim/replay/reference_engine.cc or sim/replay/reference/ is missing")
    for path in files:
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if target.startswith(ALLOWED_PREFIXES) or target in ALLOWED_FILES:
                continue
            errors.append(f"{rel}:{n}: includes {target}, which the reference must not share "
                          "with the fast engine")
    return errors


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "sim/replay/reference").mkdir(parents=True)
        (root / "sim/replay/reference_engine.cc").write_text(
            '#include "sim/replay/reference/plain_l2.h"\n#include "sim/model/l2_cache.h"\n')
        (root / "sim/replay/reference_engine.h").write_text('#include "sim/config/config.h"\n')
        (root / "sim/replay/reference/plain_l2.h").write_text('#include "sim/core/stats.h"\n')
        errors = check(root)
        if len(errors) != 1 or "reference_engine.cc:2" not in errors[0]:
            sys.exit(f"self-test: expected one violation in reference_engine.cc, got {errors}")
    print("self-test passed")


if __name__ == "__main__":
    run_checker(__doc__, check, self_test,
                "the reference engine includes none of the fast engine's model")
