#!/usr/bin/env python3
"""Nothing machine-specific in tracked files: no absolute path into a home or work folder of the
machine that wrote the file (issue 60).

usage: check_machine_paths.py SOURCE_DIR     check every text file `git ls-files` lists
       check_machine_paths.py --self-test    check the rule itself on sample lines

A line is machine-specific when it holds
  1. an absolute path into a home or work folder: `/home/`, `/root/`, `/work/` or `/Users/`
     followed by a name, where the `/` does not continue a word or a path (so
     `tests/work/x` and `https://host/home/` are not; `/home/me/build` and `"/work/main"` are);
  2. the absolute path of this checkout itself (wherever it lies: a build folder under it
     printed into a document, say).
Write such paths relative to the checkout (`build-cap/tools/...`, `tests/groundtruth/...`).
Skipped: the fuzz corpus (tests/fuzz/corpus/: inputs made by the fuzzer), binary files (those
holding a NUL byte) and this file. Exit status 0 when no line matches, 1 listing every match as
FILE:LINE: TEXT, 77 (skipped) when SOURCE_DIR is not a git checkout.
"""
import os
import re
import sys

import doc_check  # tests/docs/doc_check.py: the shared command line

HOME = re.compile(r"(?<![A-Za-z0-9_.~:/-])/(?:home|root|work|Users)/[A-Za-z0-9_.-]")
SKIP_PREFIXES = ("tests/fuzz/corpus/",)
SELF = "tests/docs/check_machine_paths.py"


def line_paths(line, checkout):
    """The machine-specific paths of one line, as matched text."""
    found = [m.group(0) for m in HOME.finditer(line)]
    if checkout and checkout != "/":
        own = re.compile(r"(?<![A-Za-z0-9_.~:/-])" + re.escape(checkout) + r"(?![A-Za-z0-9_.-])")
        found += [m.group(0) for m in own.finditer(line)]
    return found


def check(source_dir):
    files = doc_check.tracked_files(source_dir, "check_machine_paths")
    if files is None:
        return 77
    checkout = os.path.realpath(source_dir)
    problems = []
    skip = lambda rel: rel == SELF or rel.startswith(SKIP_PREFIXES)  # noqa: E731
    for rel, n, line in doc_check.text_lines(source_dir, files, skip):
        for hit in line_paths(line, checkout):
            problems.append(f"{rel}:{n}: machine path '{hit}': {line.strip()[:160]}")
    for p in problems:
        print(p)
    if problems:
        print(f"check_machine_paths: {len(problems)} absolute path(s) of a machine in tracked "
              "files (write them relative to the checkout)")
        return 1
    print(f"check_machine_paths: {len(files)} tracked files, none names a folder of a machine")
    return 0


def self_test():
    checkout = "/srv/ci/gpumemsim"
    caught = [
        "/work/main/build-cap/tools/groundtruth/gms_calibrate --capture tests/groundtruth/traces",
        "bench/compare_commits.py 7d848c7 HEAD --dir /work/gms-compare",
        "cd /home/alice/gpumemsim && cmake -B build",
        'out="/root/gms/out"',
        "see /Users/bob/src/gpumemsim/README.md",
        "built in /srv/ci/gpumemsim/build-rel, see there",
    ]
    clean = [
        "build-cap/tools/groundtruth/gms_calibrate --capture tests/groundtruth/traces",
        "tests/work/x and sim/home/y are folders of the project",
        "https://example.org/home/page and /usr/local/cuda/bin/ncu",
        "TMPDIR=/tmp/gms-install; --prefix /opt/gpumemsim",
        "/srv/ci/gpumemsim-2 is another folder, and so is /opt/srv/ci/gpumemsim",
        "~/home/ is not absolute",
    ]
    return doc_check.verdicts("check_machine_paths", caught, clean,
                              lambda l: line_paths(l, checkout), "machine paths")


if __name__ == "__main__":
    sys.exit(doc_check.run(__doc__, check, self_test))
