#!/usr/bin/env python3
"""One version everywhere: the CMake project version (passed in), CHANGELOG.md's newest release
heading and CITATION.cff's `version` agree (issue 60).

usage: check_version.py SOURCE_DIR VERSION
Exit status 0 when they agree, 1 naming each file that says otherwise.
"""
import re
import sys


def changelog_version(text):
    """The version of the first `## [X.Y.Z]` heading (Keep a Changelog), None if none."""
    m = re.search(r"^## \[(\d+\.\d+\.\d+)\]", text, re.M)
    return m.group(1) if m else None


def citation_version(text):
    """CITATION.cff's top-level `version: "X.Y.Z"`, None if none."""
    m = re.search(r"^version:\s*\"?([^\"\s]+)\"?\s*$", text, re.M)
    return m.group(1) if m else None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, version = sys.argv[1], sys.argv[2]
    found = {
        "CHANGELOG.md": changelog_version(open(f"{src}/CHANGELOG.md").read()),
        "CITATION.cff": citation_version(open(f"{src}/CITATION.cff").read()),
    }
    bad = {f: v for f, v in found.items() if v != version}
    for f, v in bad.items():
        print(f"check_version: {f} says {v}, the CMake project version is {version}")
    if not bad:
        print(f"check_version: CHANGELOG.md and CITATION.cff say {version}, as CMake does")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
