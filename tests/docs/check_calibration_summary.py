#!/usr/bin/env python3
"""The fidelity page's calibration summary is the program's (issue 60: a table a program computes
is generated, never copied by hand). .ci/run runs it in the manual's stage.

usage: check_calibration_summary.py BUILD_DIR SOURCE_DIR [--write]

Runs `tools/groundtruth/calibration_table.sh BUILD_DIR --format csv` piped through
`tools/groundtruth/calibration_summary.py` (every calibration kernel of tests/groundtruth
replayed, about 30 s) and compares its table with the first table after that command in
docs/fidelity.md. Exit status 0 when they agree, 1 showing both when they differ (with --write,
the page's table is replaced instead), 77 (skipped) while there is no capture.
"""
import os
import subprocess
import sys

COMMAND = ("tools/groundtruth/calibration_table.sh build --format csv | "
           "tools/groundtruth/calibration_summary.py")


def page_table(text):
    """(start, end) offsets of the first Markdown table after COMMAND in the page."""
    at = text.index(COMMAND)
    start = text.index("\n|", at) + 1
    end = start
    while end < len(text) and text.startswith("|", end):
        end = text.index("\n", end) + 1
    return start, end


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--write"):
        sys.exit(__doc__)
    build, src = os.path.abspath(sys.argv[1]), sys.argv[2]
    table = subprocess.run(["bash", os.path.join(src, "tools/groundtruth/calibration_table.sh"),
                            build, "--format", "csv"], capture_output=True, text=True)
    if table.returncode == 77:
        print(f"check_calibration_summary: skipped ({table.stderr.strip()})")
        return 77
    if table.returncode != 0:
        print(table.stderr)
        sys.exit(f"check_calibration_summary: calibration_table.sh exited {table.returncode}")
    summary = subprocess.run([sys.executable,
                              os.path.join(src, "tools/groundtruth/calibration_summary.py")],
                             input=table.stdout, capture_output=True, text=True, check=True).stdout
    page = os.path.join(src, "docs/fidelity.md")
    text = open(page).read()
    start, end = page_table(text)
    if text[start:end] == summary:
        print("check_calibration_summary: docs/fidelity.md's summary is the program's")
        return 0
    if len(sys.argv) == 4:
        open(page, "w").write(text[:start] + summary + text[end:])
        print("check_calibration_summary: docs/fidelity.md's summary rewritten")
        return 0
    print("docs/fidelity.md shows:\n" + text[start:end] + "\nthe program prints:\n" + summary)
    print("check_calibration_summary: the page's summary is stale; rewrite it with\n"
          f"  python3 tests/docs/check_calibration_summary.py {sys.argv[1]} {src} --write")
    return 1


if __name__ == "__main__":
    sys.exit(main())
