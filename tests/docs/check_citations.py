#!/usr/bin/env python3
"""The repository stands alone: no tracked file cites a document outside it (issue 36).

usage: check_citations.py SOURCE_DIR     check every file `git ls-files` lists in SOURCE_DIR
       check_citations.py --self-test    check the rule itself on sample lines

A line of a tracked file is a citation of a document outside the repository when it holds

  1. a path into the folder beside the checkout: `..` then `/shared`, not followed by a letter,
     digit, `_` or `-` (so `/shared/...`, `/shared.` and `/shared.md` are, `/shared_lib` is not;
     any number of leading `../`);
  2. a path that begins with `shared/` (the character before it, if any, is not one a path may
     hold: a letter, digit, `_`, `-`, `.` or `/`) and goes on into one of that folder's
     subfolders (`design/`, `groundtruth/`, `seeds/`, `hooks/`) or names a document there (its
     next part ends in `.md`, `.txt` or `.pdf`). So `shared/L1` (the Kepler split) and
     `sim/shared/...` (a folder of the project) are not citations;
  3. an upper-case document name, `NAME.md` with NAME of capitals, digits and `_` (the way that
     folder's documents are named), whose file name no tracked file has: README.md passes
     because the repository has one, a name of that other folder does not.

Skipped: the fuzz corpus (tests/fuzz/corpus/: inputs made by the fuzzer, not documents), binary
files (those holding a NUL byte), and this file, which has to spell the patterns out.
Exit status 0 when no line matches, 1 listing every match as FILE:LINE: TEXT, 77 (skipped)
when SOURCE_DIR is not a git checkout (a source archive has nothing to list).
"""
import os
import re
import sys

import doc_check  # tests/docs/doc_check.py: the shared command line

OUTSIDE = re.compile(r"\.\./shared(?![A-Za-z0-9_-])")
SHARED_PATH = re.compile(
    r"(?:^|(?<=[^A-Za-z0-9_./-]))shared/"
    r"(?:(?:design|groundtruth|seeds|hooks)/|[A-Za-z0-9_.-]*\.(?:md|txt|pdf)\b)")
DOC_NAME = re.compile(r"(?<![A-Za-z0-9_])([A-Z][A-Z0-9_]*\.md)\b")
SKIP_PREFIXES = ("tests/fuzz/corpus/",)
SELF = "tests/docs/check_citations.py"


def line_citations(line, known_names):
    """The outside citations of one line, as matched text."""
    found = [m.group(0) for m in OUTSIDE.finditer(line)]
    found += [m.group(0) for m in SHARED_PATH.finditer(line)]
    found += [m.group(1) for m in DOC_NAME.finditer(line) if m.group(1) not in known_names]
    return found


def check(source_dir):
    files = doc_check.tracked_files(source_dir, "check_citations")
    if files is None:
        return 77
    known_names = {os.path.basename(f) for f in files}
    problems = []
    skip = lambda rel: rel == SELF or rel.startswith(SKIP_PREFIXES)  # noqa: E731
    for rel, n, line in doc_check.text_lines(source_dir, files, skip):
        for hit in line_citations(line, known_names):
            problems.append(f"{rel}:{n}: cites '{hit}' outside the repository: {line.strip()}")
    for p in problems:
        print(p)
    if problems:
        print(f"check_citations: {len(problems)} citation(s) of documents outside the repository "
              "(cite docs/... or the public source itself)")
        return 1
    print(f"check_citations: {len(files)} tracked files, none cites a document outside the "
          "repository")
    return 0


def self_test():
    known = {"README.md", "RESULTS.md"}
    dots = ".."  # spelled apart so that this file's own text stays clean
    cited = [
        f"# Sources: {dots}/shared/design/HARDWARE.md section 4",
        f"see {dots}/{dots}/shared/seeds/ for the notes",
        f"the folder {dots}/shared.",
        "/// (spec: shared/groundtruth/README.md, section 1)",
        "`shared/EXAMPLES.md`",
        "([GB] ~126 B/clk/SM (HARDWARE.md 4))",
        "Lane address formulas of EXAMPLES.md A and B.",
    ]
    clean = [
        "# 64 KB per SM, split 48/16, 32/32 or 16/48 KB shared/L1 with cudaFuncSetCacheConfig",
        "#include \"sim/shared/bank.h\"",
        "see README.md and bench/RESULTS.md, docs/hardware.md#volta-v100",
        "a value in shared/ memory of the CTA",
        f"{dots}/shared_lib/libx.so",
        "the te42kyfo/gpu-benches README.md",
    ]
    return doc_check.verdicts("check_citations", cited, clean,
                              lambda l: line_citations(l, known), "citations")


if __name__ == "__main__":
    sys.exit(doc_check.run(__doc__, check, self_test))
