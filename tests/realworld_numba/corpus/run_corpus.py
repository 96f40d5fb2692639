#!/usr/bin/env python3
"""Compile the real-world numba.cuda corpus (corpus.json) with pykc.

For each entry: `PYKC compile FILE --arch ARCH -o TMPDIR --sig S... -D D...`,
one file at a time, a per-file timeout. Prints one line per file and a
summary; --json OUT writes the details. Outcomes:

  pass      exit 0 and at least one cubin written
  empty     exit 0 but no cubin (no kernel compiled)
  fail      non-zero exit (the first `error:` line of stderr is recorded)
  crash     killed by a signal (negative return code)
  timeout   did not finish within --timeout seconds

Exit status 0 unless --strict (then 1 when any file is not `pass`).
Python 3.11 standard library only.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def first_error(stderr):
    for line in stderr.splitlines():
        line = ANSI.sub("", line)
        if "error:" in line or "error[" in line:
            return line.strip()
    for line in stderr.splitlines():
        line = ANSI.sub("", line).strip()
        if line:
            return line
    return ""


def cubins(folder):
    n = 0
    for dirpath, _, files in os.walk(folder):
        n += sum(1 for f in files if f.endswith(".cubin"))
    return n


def run_one(pykc, entry, arch, timeout, extra):
    src = os.path.join(HERE, entry["file"])
    with tempfile.TemporaryDirectory(prefix="pykc-corpus-") as out:
        cmd = [pykc, "compile", src, "--arch", arch, "-o", out, "--no-cache"]
        for s in entry.get("sigs", []):
            cmd += ["--sig", s]
        for d in entry.get("defines", []):
            cmd += ["-D", d]
        # The repository's package root, as its users put it on PYTHONPATH.
        for d in entry.get("python_path", []):
            cmd += ["--python-path", os.path.join(HERE, d)]
        cmd += extra
        t0 = time.monotonic()
        try:
            # A new session, so that a timeout kills the compiler and anything it started.
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, errors="replace", start_new_session=True)
            try:
                stdout, stderr = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                stdout, stderr = p.communicate()
                return dict(status="timeout", rc=None, error=f"timed out after {timeout} s",
                            seconds=round(time.monotonic() - t0, 2), cubins=0, cmd=cmd,
                            stderr=stderr[-4000:], stdout=stdout[-2000:])
        except OSError as ex:
            return dict(status="fail", rc=None, error=f"cannot run pykc: {ex}", seconds=0.0,
                        cubins=0, cmd=cmd, stderr="", stdout="")
        secs = round(time.monotonic() - t0, 2)
        rc = p.returncode
        n = cubins(out)
        if rc < 0:
            try:
                name = signal.Signals(-rc).name
            except ValueError:
                name = f"signal {-rc}"
            status, err = "crash", f"killed by {name}"
            tail = first_error(stderr)
            if tail:
                err += f" ({tail})"
        elif rc == 0:
            status, err = ("pass", "") if n else ("empty", "exit 0 but no cubin written")
        else:
            status, err = "fail", first_error(stderr)
        return dict(status=status, rc=rc, error=err, seconds=secs, cubins=n, cmd=cmd,
                    stderr=stderr[-4000:], stdout=stdout[-2000:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pykc", default=os.path.join(ROOT, "build", "bin", "pykc"),
                    help="pykc binary (default: build/bin/pykc under the repo root)")
    ap.add_argument("--manifest", default=os.path.join(HERE, "corpus.json"))
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per file (default 60)")
    ap.add_argument("--json", metavar="OUT", help="write per-file details to OUT")
    ap.add_argument("--strict", action="store_true", help="exit 1 when any file does not pass")
    ap.add_argument("--at-least", type=int, default=0, metavar="N",
                    help="exit 1 when fewer than N files pass, or any crashes, hangs or "
                         "exits 0 without kernels (CI's regression guard)")
    ap.add_argument("--filter", metavar="SUBSTR", help="only files whose path contains SUBSTR")
    ap.add_argument("--pykc-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for every compile (repeatable)")
    args = ap.parse_args()

    with open(args.manifest, encoding="utf-8") as f:
        entries = json.load(f)
    if args.filter:
        entries = [e for e in entries if args.filter in e["file"]]

    results = []
    width = max((len(e["file"]) for e in entries), default=10)
    for e in entries:
        r = run_one(args.pykc, e, args.arch, args.timeout, args.pykc_arg)
        r.update(file=e["file"], repo=e["repo"])
        results.append(r)
        msg = r["error"]
        if len(msg) > 160:
            msg = msg[:157] + "..."
        print(f"{r['status'].upper():7} {e['file']:<{width}}  {r['seconds']:6.2f}s  {msg}", flush=True)

    by = {}
    for r in results:
        by.setdefault(r["status"], []).append(r)
    repos = {r["repo"] for r in results}
    repos_ok = {r["repo"] for r in results if r["status"] == "pass"}
    repos_all_ok = {x for x in repos if all(r["status"] == "pass" for r in results if r["repo"] == x)}
    npass = len(by.get("pass", []))
    print()
    print(f"files passed: {npass} / {len(results)}; repos: {len(repos)} "
          f"(with a passing file: {len(repos_ok)}, all files passing: {len(repos_all_ok)})")
    print("  " + ", ".join(f"{k}: {len(v)}" for k, v in sorted(by.items())))
    for k in ("crash", "timeout", "empty"):
        for r in by.get(k, []):
            print(f"  {k.upper()}: {r['file']}: {r['error']}")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"pykc": args.pykc, "arch": args.arch, "files": len(results), "passed": npass,
                       "repos": len(repos), "counts": {k: len(v) for k, v in by.items()},
                       "results": results}, f, indent=1, ensure_ascii=False)
            f.write("\n")
    if args.strict and npass != len(results):
        return 1
    if args.at_least and (npass < args.at_least or any(by.get(k) for k in ("crash", "timeout", "empty"))):
        print(f"FAILED: {npass} files passed, at least {args.at_least} expected, and no crash, "
              "hang or empty output")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
