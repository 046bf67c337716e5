#!/usr/bin/env python3
"""docs/config.md's key table shows the program's defaults (issue 60: a table a program computes
is checked for staleness, never trusted as copied).

usage: check_config_doc.py GPUMEMSIM SOURCE_DIR

Every row of the table under "| key | unit | default (H200) | meaning |" names a key whose value
in the built-in configuration (the "config" of `gpumemsim run --format json` on a bundled trace,
no --config) is the row's default. That every key has a row is ConfigTest.DocsListEveryKey's.
Exit status 0 when every row agrees, 1 listing each that does not.
"""
import json
import os
import re
import subprocess
import sys

HEADER = "| key | unit | default (H200) | meaning |"


def doc_defaults(text):
    """{key: default} of the key table's rows (a default in backticks is taken without them)."""
    lines = text.split("\n")
    i = lines.index(HEADER) + 2
    rows = {}
    while i < len(lines) and lines[i].startswith("|"):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        m = re.fullmatch(r"`([^`]*)`", cells[2])
        rows[cells[0].strip("`")] = m.group(1) if m else cells[2]
        i += 1
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    program, src = sys.argv[1], sys.argv[2]
    r = subprocess.run([program, "run", os.path.join(src, "tests/data/a1_sequential.wtrace"),
                        "--format", "json"], capture_output=True, text=True, check=True)
    config = json.loads(r.stdout)["config"]
    actual = {f"{s}.{k}": str(v) for s, keys in config.items() for k, v in keys.items()}
    rows = doc_defaults(open(os.path.join(src, "docs/config.md")).read())
    bad = []
    for key, shown in rows.items():
        if key not in actual:
            bad.append(f"docs/config.md: {key} is no key of the program's configuration")
        elif actual[key] != shown:
            bad.append(f"docs/config.md: {key} shows the default {shown}, the program has "
                       f"{actual[key]}")
    for b in bad:
        print(b)
    if bad:
        print(f"check_config_doc: {len(bad)} of {len(rows)} rows differ from the program")
        return 1
    print(f"check_config_doc: the {len(rows)} keys of docs/config.md show the program's defaults")
    return 0


if __name__ == "__main__":
    sys.exit(main())
