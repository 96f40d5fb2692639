#!/usr/bin/env python3
"""Robustness of `--const NAME=VALUE` and `-D NAME=VALUE` values, which pykc parses as Python
expressions and binds to what the file defines (numbers, tuples, strings, dtypes, imported
names, frozen dataclass instances such as `Spot(idx=(1, 2), val=5)`): random edits of valid
values (characters cut, doubled, swapped or inserted from the expression alphabet) must end in
exit 0, or exit 1 with a diagnostic; never a signal, a hang, an internal
error or a silent exit without the kernel. CPU only (`--phase check`, the first ones through
the lowering to a cubin).

    tests/driver/const_values_test.py --pykc build/bin/pykc [--values N]
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from line_mutants import clean  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALPHABET = "()[],=.'\"+-*/ 0123456789eSpotWindowidxvalnpfloat32ctTrueNone_"

# (file, the flag's form, kernel-qualified name, valid values to mutate)
CASES = [
    ("tests/check/typed_tile_dataclass_post_init.py", "--const", "kern.d",
     ["Spot(idx=(1,2),val=5)", "Spot((3, 4), 2.5)", "Spot(idx=(0, 0), val=-1)"]),
    ("tests/check/typed_tile_dataclass_post_init.py", "--const", "kern.w",
     ["Window((2,3))", "Window(shape=(4, 8))"]),
    ("tests/check/fail_tile_define_instance.py", "-D", "spot", ["Spot(1,2,3)", "Spot(1, 2)"]),
]


def other_flags(path, flag, name):
    """The file's other `--const`/`-D` flags from its `# ARGS:` line (the one being mutated
    left out), so that only the mutated value can be wrong."""
    for line in open(path):
        if line.startswith("# ARGS:"):
            words = line[len("# ARGS:"):].split()
            out, i = [], 0
            while i < len(words):
                if words[i] in ("--const", "-D") and i + 1 < len(words):
                    if not words[i + 1].startswith(name + "="):
                        out += words[i:i + 2]
                    i += 2
                    continue
                i += 1
            return out
    return []


def mutate(value, rng):
    """`value` with one to three character edits."""
    s = value
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(s) + 1)
        op = rng.randrange(4)
        if op == 0 and s:
            s = s[:i] + s[i + 1:]
        elif op == 1:
            s = s[:i] + rng.choice(ALPHABET) + s[i:]
        elif op == 2 and len(s) > 1:
            j = rng.randrange(len(s))
            chars = list(s)
            i = min(i, len(s) - 1)
            chars[i], chars[j] = chars[j], chars[i]
            s = "".join(chars)
        else:
            s = s[:i] + s[i:i + 3] + s[i:]
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pykc", required=True)
    ap.add_argument("--values", type=int, default=300, help="mutated values per case (300)")
    ap.add_argument("--full", type=int, default=10, help="of those, how many are compiled to cubins (10)")
    a = ap.parse_args()
    rng = random.Random(20261208)
    failures, counts = [], {0: 0, 1: 0}
    with tempfile.TemporaryDirectory(prefix="pykc-const-values-") as tmp:
        for rel, flag, name, values in CASES:
            path = os.path.join(ROOT, rel)
            rest = other_flags(path, flag, name)
            for n in range(a.values):
                value = mutate(rng.choice(values), rng)
                phase = [] if n < a.full else ["--phase", "check"]
                cmd = [a.pykc, "compile", path, "--no-cache", *phase, *rest, flag, f"{name}={value}",
                       "-o", os.path.join(tmp, "out")]
                try:
                    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
                except subprocess.TimeoutExpired:
                    failures.append(f"{rel} {flag} {name}={value!r}: timed out")
                    continue
                if clean(r):
                    counts[r.returncode] += 1
                else:
                    print(f"FAIL {rel} {flag} {name}={value!r}: rc {r.returncode}\n{r.stderr[-1500:]}")
                    failures.append(f"{rel} {name}={value!r}")
    print(f"const_values: {counts[0]} compiled, {counts[1]} refused with a diagnostic")
    if failures:
        print(f"const_values: {len(failures)} failed: " + ", ".join(failures[:20]))
        return 1
    print("const_values: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
