"""What the fidelity.py tests share: tools/calibration/fidelity.py loaded as a module (it is a
script, not a package), and the one-line failure check."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("fidelity", ROOT / "tools/calibration/fidelity.py")
fidelity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fidelity)


def check(cond, what):
    if not cond:
        print(f"FAIL {what}")
        sys.exit(1)
