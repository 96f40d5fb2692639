"""Runs the top-level ``test_*`` functions of a pytest-style file (no pytest needed), and
reports as unittest does ("Ran N tests", "OK" or "FAILED (errors=K)"), for
run_realworld.py: ``python -m pykc run tests/gpu/jit/run_test_functions.py FILE``."""

import os
import runpy
import sys
import traceback
import unittest


def main() -> int:
    path = sys.argv[1]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    names = runpy.run_path(path, run_name="pykc_test_functions")
    ran, errors, skipped = 0, 0, 0
    for name, fn in names.items():
        if not name.startswith("test_") or not callable(fn) or isinstance(fn, type):
            continue
        ran += 1
        try:
            fn()
            print(f"{name} ... ok", file=sys.stderr)
        except unittest.SkipTest as e:
            skipped += 1
            print(f"{name} ... skipped {e}", file=sys.stderr)
        except Exception:  # noqa: BLE001
            errors += 1
            print(f"{name} ... ERROR", file=sys.stderr)
            traceback.print_exc()
    print(f"Ran {ran} tests", file=sys.stderr)
    extra = f" (skipped={skipped})" if skipped else ""
    print("OK" + extra if not errors else f"FAILED (errors={errors})", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
