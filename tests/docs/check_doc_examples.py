#!/usr/bin/env python3
"""The examples of the README and the tutorials print what the pages show (issue 60).

usage: check_doc_examples.py GPUMEMSIM SOURCE_DIR

In each page of PAGES, every ```sh block followed by a line that starts with "prints" and then a
```text block is an example: its lines run in one bash, in a temporary folder of the page's own
(so a later example of a page sees the files an earlier one wrote), with
`build/gpumemsim` replaced by GPUMEMSIM and the presets found in SOURCE_DIR/configs; what they
print must be the text block (blank lines at either end aside). Exit status 0 when every example
prints its block, 1 showing the difference of each that does not.
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile

PAGES = ["README.md", "docs/tutorial-cached.md"]
EXAMPLE = re.compile(r"```sh\n((?:(?!```).)*?)```\n\nprints[^\n]*\n\n```text\n((?:(?!```).)*?)```",
                     re.S)


def examples(text):
    return [(m.group(1), m.group(2)) for m in EXAMPLE.finditer(text)]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    program, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    env = dict(os.environ, GPUMEMSIM_PRESETS=os.path.join(src, "configs"))
    failed = checked = 0
    for page in PAGES:
        found = examples(open(os.path.join(src, page)).read())
        if not found:
            print(f"{page}: no example found (a ```sh block, a 'prints' line, a ```text block)")
            failed += 1
        with tempfile.TemporaryDirectory() as cwd:
            for script, shown in found:
                checked += 1
                r = subprocess.run(["bash", "-euo", "pipefail", "-c",
                                    script.replace("build/gpumemsim", program)],
                                   cwd=cwd, env=env, capture_output=True, text=True)
                got = r.stdout.strip("\n")
                if r.returncode != 0 or got != shown.strip("\n"):
                    failed += 1
                    print(f"{page}: the example\n{script}printed (status {r.returncode}):")
                    print("".join(difflib.unified_diff(shown.strip("\n").splitlines(True),
                                                       got.splitlines(True), "page", "program")))
                    print(r.stderr)
    if failed:
        print(f"check_doc_examples: {failed} of {checked} examples differ from their pages")
        return 1
    print(f"check_doc_examples: {checked} examples print what {len(PAGES)} pages show")
    return 0


if __name__ == "__main__":
    sys.exit(main())
