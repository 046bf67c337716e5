"""The command line the include checkers of this folder share: `SCRIPT ROOT` prints each
violation and exits 1 if there is any; `SCRIPT --self-test` runs the checker on a made-up tree."""
import pathlib
import sys


def run_checker(usage, check, self_test, passed):
    """Runs `check(root)` (a list of violations) or `self_test()` as sys.argv asks; `passed` is
    printed when the tree has no violation."""
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    if len(sys.argv) != 2:
        sys.exit(usage)
    errors = check(pathlib.Path(sys.argv[1]))
    for e in errors:
        print(e)
    if errors:
        sys.exit(1)
    print(passed)
