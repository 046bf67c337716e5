#!/usr/bin/env python3
"""The example of docs/wtrace.md is a valid trace and means what the page says (issue 36).

usage: check_wtrace_example.py GPUMEMSIM SOURCE_DIR

Takes the first fenced block of docs/wtrace.md that starts with `#wtrace 1`, runs
`GPUMEMSIM run FILE --format json` on it (the built-in H200 configuration, cold mode) and checks
the page's reading of it: kernel 7 with two global loads of one request and four sectors each
and two stores, kernel 8 with one shared load of two active lanes, and the extra `tag=demo` kept.
Exit status 0 when it holds, 1 naming what differs.
"""
import json
import os
import subprocess
import sys
import tempfile


def example(doc):
    text = open(doc).read()
    for block in text.split("```")[1::2]:
        body = block.split("\n", 1)[1] if "\n" in block else ""
        if body.startswith("#wtrace 1\n"):
            return body
    sys.exit(f"check_wtrace_example: no ```-block starting with '#wtrace 1' in {doc}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    program, src = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "example.wtrace")
        with open(path, "w") as f:
            f.write(example(os.path.join(src, "docs/wtrace.md")))
        run = subprocess.run([program, "run", path, "--format", "json"], capture_output=True,
                             text=True)
    if run.returncode != 0:
        print(f"check_wtrace_example: the example does not run: {run.stderr.strip()}")
        return 1
    kernels = {k["id"]: k for k in json.loads(run.stdout)["kernels"]}
    want = {
        (7, "global_load", "requests"): 2,
        (7, "global_load", "sectors"): 8,
        (7, "global_store", "requests"): 2,
        (8, "shared_load", "instructions"): 1,
        (8, "shared_load", "active_threads"): 2,
    }
    problems = []
    if sorted(kernels) != [7, 8]:
        problems.append(f"kernels {sorted(kernels)}, the page says 7 and 8")
    else:
        for (kid, cls, field), value in want.items():
            got = kernels[kid]["totals"][cls].get(field)
            if got != value:
                problems.append(f"kernel {kid} {cls}.{field} = {got}, the page implies {value}")
    for p in problems:
        print(f"check_wtrace_example: {p}")
    if not problems:
        print("check_wtrace_example: the example of docs/wtrace.md reads as the page says")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
