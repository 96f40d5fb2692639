#!/usr/bin/env python3
"""Golden-file tests (STYLE.md §7).

A golden test is a Python file in tests/<phase>/. The folder picks the
command; a `# ARGS: ...` line overrides it (`%s` stands for the file).
Expected output sits in comments:

    # CHECK:STDERR: fail_x.py:[[@LINE+4]]:5: error: invalid syntax [invalid-syntax]
    # CHECK:STDERR:     x = = 1
    # CHECK:STDERR:         ^
    # CHECK:STDERR:
    x = = 1

`[[@LINE+N]]` is the line of the CHECK comment plus N. STDERR checks sit just
above the line the diagnostic points at (diagnostics without a line go at the
end of the file); STDOUT checks go at the end, in order. All output must
match exactly, after masking the test's folder out of paths. A file named
`fail_*` must exit with status 1 (source errors), any other with 0.

    tests/golden_runner.py --pykc build/bin/pykc tests/parse          # run
    tests/golden_runner.py --pykc build/bin/pykc tests/parse --update # rewrite CHECK lines

Review the diff of --update like code. Files are handled as bytes, so
tests may hold CRLF line ends, a BOM or invalid UTF-8.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# The command each folder runs (pykc's arguments; %s is the test file).
FOLDER_ARGS = {
    "parse": ["--diag-kinds", "parse", "%s"],
    "check": ["--diag-kinds", "compile", "%s", "--phase=check", "--dump-typed"],
    "inspect": ["--diag-kinds", "inspect", "%s", "--emit", "types"],
    "sass": ["--diag-kinds", "inspect", "%s", "--emit", "sass"],
    # Linked CUDA C++ (docs/INTEROP.md): a full compile into a fresh folder.
    "interop": ["--diag-kinds", "compile", "%s", "--arch", "sm_90", "--no-cache", "-o", "%t"],
}

# Output masked per folder (regex, replacement), after the paths: digests
# change with every build of pykc and every edit of a test. A test adds its
# own with `# MASK: REGEX` lines (each match becomes [[MASKED]]).
FOLDER_MASKS = {
    "inspect": [(rb"\b[0-9a-f]{16,}\b", b"[[HASH]]")],
    "sass": [(rb"\b[0-9a-f]{16,}\b", b"[[HASH]]")],
    # Linked files are named by the absolute paths the tests compute.
    "interop": [(rb"(?:/[^\s`'\"]*/|\b)tests/interop/", b"")],
}
MASK_RE = re.compile(rb"^[ \t]*# MASK: (.*?)(\r?\n|\r)?$")
# `# EXIT: N`: the exit status expected instead of 0 / 1 (e.g. 2, usage errors).
EXIT_RE = re.compile(rb"^[ \t]*# EXIT: (\d+)")

CHECK_RE = re.compile(rb"^[ \t]*# CHECK:(STDERR|STDOUT):(?: (.*?))?(\r?\n|\r)?$")
ARGS_RE = re.compile(rb"^[ \t]*# ARGS:(.*?)(\r?\n|\r)?$")
LINE_RE = re.compile(rb"\[\[@LINE([+-]\d+)?\]\]")
# A diagnostic's first line: `name.py:LINE:COL: severity: ...`.
DIAG_RE = re.compile(rb"^([^:\n]+\.py):(\d+):(\d+): (error|warning|note): ")


def split_lines(data):
    """Lines with their endings (\\n, \\r\\n or \\r as in the file)."""
    return re.findall(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", data)


def newline_of(lines):
    for line in lines:
        if line.endswith(b"\r\n"):
            return b"\r\n"
        if line.endswith(b"\r"):
            return b"\r"
    return b"\n"


def test_args(path, lines):
    for line in lines:
        m = ARGS_RE.match(line)
        if m:
            # `%s` may be part of an argument (`%s::kernel`).
            return [a.replace("%s", path) for a in m.group(1).decode().split()]
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return [a.replace("%s", path) for a in FOLDER_ARGS.get(folder, FOLDER_ARGS["parse"])]


def run_pykc(pykc, path, lines):
    # `%t`: a fresh output folder for the test.
    with tempfile.TemporaryDirectory(prefix="pykc-golden-") as tmp:
        # `%d`: the test's folder (for --link and -I arguments).
        folder = os.path.dirname(path) or "."
        args = [a.replace("%t", tmp).replace("%d", folder) for a in test_args(path, lines)]
        proc = subprocess.run([pykc] + args, capture_output=True, timeout=120)
    masks = extra_masks(path, lines)
    return proc.returncode, mask(proc.stdout, path, masks), mask(proc.stderr, path, masks)


def extra_masks(path, lines):
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    masks = list(FOLDER_MASKS.get(folder, []))
    for line in lines:
        m = MASK_RE.match(line)
        if m:
            masks.append((m.group(1), b"[[MASKED]]"))
    return masks


def mask(out, path, masks=()):
    # Paths become the file's base name, so tests run from any folder.
    base = os.path.basename(path).encode()
    for p in sorted({path.encode(), os.path.abspath(path).encode()}, key=len, reverse=True):
        out = out.replace(p, base)
    for regex, replacement in masks:
        out = re.sub(regex, replacement, out)
    # Other files of the test's folder (helpers in sibling modules) by their path in it,
    # where no mask took the folder already.
    folder = os.path.dirname(path)
    for p in sorted({folder, os.path.abspath(folder or ".")}, key=len, reverse=True):
        if p:
            out = out.replace((p + os.sep).encode(), b"")
    return out


def expected_output(lines):
    err, out = [], []
    for number, line in enumerate(lines, start=1):
        m = CHECK_RE.match(line)
        if not m:
            continue
        text = m.group(2) or b""

        def line_ref(mm, number=number):
            return str(number + int(mm.group(1) or 0)).encode()

        text = LINE_RE.sub(line_ref, text)
        (err if m.group(1) == b"STDERR" else out).append(text + b"\n")
    return b"".join(out), b"".join(err)


def strip_checks(lines):
    return [line for line in lines if not CHECK_RE.match(line)]


def diagnostic_blocks(stderr):
    """Splits stderr into blocks (each ends with its blank line) with the line
    each one points at (None when it has no position)."""
    blocks, cur = [], []
    if not stderr:
        return []
    for line in stderr.split(b"\n")[:-1] if stderr.endswith(b"\n") else stderr.split(b"\n"):
        cur.append(line)
        if line == b"":
            blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    result = []
    for block in blocks:
        m = DIAG_RE.match(block[0])
        result.append((int(m.group(2)) if m else None, block))
    return result


def update(pykc, path):
    with open(path, "rb") as f:
        lines = split_lines(f.read())
    base = strip_checks(lines)
    nl = newline_of(base)
    tmp = path + ".update.tmp"
    with open(tmp, "wb") as f:
        f.write(b"".join(base))
    try:
        _, out, err = run_pykc(pykc, tmp, base)
        # Output files named after the file's stem (`x.fatbin`) are named after the
        # temporary file's here (`x.py.update.tmp.fatbin`).
        tmp_name, name = os.path.basename(tmp).encode(), os.path.basename(path).encode()
        stem = os.path.splitext(os.path.basename(path))[0].encode()
        err = err.replace(tmp_name + b".", stem + b".").replace(tmp_name, name)
        out = out.replace(tmp_name + b".", stem + b".").replace(tmp_name, name)
    finally:
        os.remove(tmp)
    blocks = diagnostic_blocks(err)
    # Group the blocks by target line; a block whose line is past the end (or
    # absent) goes to the end of the file.
    above = {}
    tail = []
    own = os.path.basename(path).encode()

    def in_this_file(block):
        # Diagnostics in other files (helpers pasted from sibling modules) keep their
        # own line numbers and go to the end.
        m = DIAG_RE.match(block[0])
        return m is not None and os.path.basename(m.group(1)) == own

    for line, block in blocks:
        if line is not None and 1 <= line <= len(base) and in_this_file(block):
            above.setdefault(line, []).append(block)
        else:
            tail.append((line, block))

    def indent_of(text):
        m = re.match(rb"[ \t]*", text)
        return m.group(0) if text.strip() else b""

    # Where each base line lands once the CHECK lines are in.
    inserted = 0
    new_number = {}
    for number in range(1, len(base) + 1):
        inserted += sum(len(b) for b in above.get(number, []))
        new_number[number] = number + inserted

    def to_new(n):
        return new_number.get(n, n + inserted)

    def relative(cl, check_line, target):
        # The position, then any "line N" in the message, relative to the
        # CHECK line itself (positions in other files stay as they are).
        m = DIAG_RE.match(cl)
        if m is not None and os.path.basename(m.group(1)) != own:
            return cl
        cl = re.sub(rb"^([^:\n]+\.py):%d:" % target,
                    lambda m: m.group(1) + b":[[@LINE%+d]]:" % (to_new(target) - check_line), cl)
        return re.sub(rb"\b(line )(\d+)\b",
                      lambda m: m.group(1) + b"[[@LINE%+d]]" % (to_new(int(m.group(2))) - check_line), cl)

    new = []
    for number, text in enumerate(base, start=1):
        if number in above:
            ind = indent_of(text)
            for block in above[number]:
                for cl in block:
                    if cl is block[0]:
                        cl = relative(cl, len(new) + 1, number)
                    elif DIAG_RE.match(cl):
                        # A note's position, relative like the first line's.
                        cl = relative(cl, len(new) + 1, int(DIAG_RE.match(cl).group(2)))
                    new.append(ind + b"# CHECK:STDERR:" + (b" " + cl if cl else b"") + nl)
        new.append(text)
    if new and not new[-1].endswith((b"\n", b"\r")):
        new[-1] += nl
    for line, block in tail:
        for cl in block:
            if cl is block[0]:
                cl = relative(cl, len(new) + 1, line if line is not None else -1)
            new.append(b"# CHECK:STDERR:" + (b" " + cl if cl else b"") + nl)
    body = new

    def with_stdout(out_text):
        lines_out = out_text.split(b"\n")[:-1] if out_text.endswith(b"\n") else (out_text.split(b"\n") if out_text else [])
        return body + [b"# CHECK:STDOUT:" + (b" " + ol if ol else b"") + nl for ol in lines_out]

    new = with_stdout(out)
    # The STDOUT checks sit at the end, which can shift what pykc prints
    # (token positions at the end of the file): settle on a fixed point.
    for _ in range(3):
        with open(path, "wb") as f:
            f.write(b"".join(new))
        _, out2, _ = run_pykc(pykc, path, new)
        if out2 == out:
            break
        out = out2
        new = with_stdout(out)
    with open(path, "wb") as f:
        f.write(b"".join(new))


def check(pykc, path):
    with open(path, "rb") as f:
        lines = split_lines(f.read())
    rc, out, err = run_pykc(pykc, path, lines)
    exp_out, exp_err = expected_output(lines)
    problems = []
    want_rc = 1 if os.path.basename(path).startswith("fail_") else 0
    for line in lines:
        m = EXIT_RE.match(line)
        if m:
            want_rc = int(m.group(1))
    if rc != want_rc:
        problems.append(f"exit status {rc}, expected {want_rc}")
    if err != exp_err:
        problems.append("stderr differs:\n--- expected\n" + exp_err.decode("utf-8", "replace") +
                        "--- actual\n" + err.decode("utf-8", "replace"))
    if out != exp_out:
        problems.append("stdout differs:\n--- expected\n" + exp_out.decode("utf-8", "replace") +
                        "--- actual\n" + out.decode("utf-8", "replace"))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pykc", required=True, help="the pykc binary")
    ap.add_argument("--update", action="store_true", help="rewrite the CHECK lines from pykc's output")
    ap.add_argument("paths", nargs="+", help="test files or folders")
    args = ap.parse_args()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".py") and not f.startswith("."))
        else:
            files.append(p)
    # Helper scripts that generate test tables or run other checks are not golden tests.
    files = [f for f in files if not os.path.basename(f).startswith(("verdicts", "gen_", "run_"))]
    failed = 0
    for f in files:
        if args.update:
            update(args.pykc, f)
            continue
        problems = check(args.pykc, f)
        if problems:
            failed += 1
            print(f"FAIL {f}")
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
    if not args.update:
        print(f"{len(files) - failed} of {len(files)} golden tests passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
