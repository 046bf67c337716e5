"""What the documentation checkers of tests/docs share: their command line (a checkout to check,
or --self-test) and the self-test's verdicts on lines that must and must not be flagged."""
import os
import subprocess
import sys


def run(doc, check, self_test):
    """`check.py CHECKOUT` returns check(CHECKOUT); `check.py --self-test`, self_test()."""
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    if len(sys.argv) != 2:
        sys.exit(doc)
    return check(sys.argv[1])


def verdicts(name, flagged, clean, flags, what):
    """1 (after naming each) where `flags` misses a line of `flagged` or flags one of `clean`."""
    bad = [l for l in flagged if not flags(l)] + [l for l in clean if flags(l)]
    for l in bad:
        print(f"{name} self-test: wrong verdict on: {l}")
    if not bad:
        print(f"{name} self-test: {len(flagged)} {what} caught, {len(clean)} clean lines passed")
    return 1 if bad else 0


def text_lines(source_dir, files, skip):
    """(path, line number, line) of every line of the text files `files` (paths relative to
    `source_dir`) but those `skip(path)` leaves out, files missing from the work tree, and binary
    ones (a NUL byte)."""
    for rel in files:
        if skip(rel):
            continue
        path = os.path.join(source_dir, rel)
        if not os.path.isfile(path):  # deleted in the work tree, not yet in the index
            continue
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue
        for n, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
            yield rel, n, line


def tracked_files(source_dir, name):
    """The files git tracks in `source_dir`, or None (after saying why `name` skips) where it is
    not a git checkout."""
    try:
        listed = subprocess.run(["git", "-C", source_dir, "ls-files", "-z"], check=True,
                                capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"{name}: {source_dir} is not a git checkout ({e}): skipped")
        return None
    return [f for f in listed if f]
