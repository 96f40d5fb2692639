#!/usr/bin/env python3
"""`pykc cache ...` on an empty and a populated temporary cache.

Runs a fixed script of commands and compares the transcript (command, exit
status, stdout, stderr) with transcript.expected beside this file, after
masking the temporary folder (<TMP>) and timestamps (<TIME>). The populated
cache comes from importing sample.pykc-cache (written by the GoogleTest
CacheArchive.CliFixtureIsStable). The cache folder's name holds a space and
non-ASCII letters on purpose.

    tests/cache/cli/cache_cli_test.py --pykc build/bin/pykc           # check
    tests/cache/cli/cache_cli_test.py --pykc build/bin/pykc --update  # rewrite

Review the diff of --update like code.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "transcript.expected")
SAMPLE = os.path.join(HERE, "sample.pykc-cache")
TIME_RE = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")

# (arguments after `pykc cache`, with {cache} and {tmp} substituted)
SCRIPT = [
    # An empty (not even created) cache.
    ["stats", "--cache-dir", "{cache}"],
    ["stats", "--cache-dir", "{cache}", "--json"],
    ["ls", "--cache-dir", "{cache}"],
    ["ls", "--cache-dir", "{cache}", "--json"],
    ["verify", "--cache-dir", "{cache}"],
    ["gc", "--cache-dir", "{cache}"],
    ["clear", "--cache-dir", "{cache}"],
    ["show", "--cache-dir", "{cache}", "abcd"],
    ["show", "--cache-dir", "{cache}", "../etc"],
    ["export", "--cache-dir", "{cache}", "{tmp}/empty.pykc-cache"],
    # Populated from the sample archive.
    ["import", "--cache-dir", "{cache}", "{sample}"],
    ["!same-time"],
    ["stats", "--cache-dir", "{cache}"],
    ["ls", "--cache-dir", "{cache}"],
    ["ls", "--cache-dir", "{cache}", "--json"],
    ["show", "--cache-dir", "{cache}", "{first_key_prefix}"],
    ["verify", "--cache-dir", "{cache}"],
    ["export", "--cache-dir", "{cache}", "{tmp}/out.pykc-cache"],
    # A damaged blob: verify reports it, --fix removes it.
    ["!damage"],
    ["verify", "--cache-dir", "{cache}"],
    ["verify", "--cache-dir", "{cache}", "--fix"],
    ["verify", "--cache-dir", "{cache}"],
    # A tampered archive is refused whole.
    ["import", "--cache-dir", "{tmp}/other", "{tmp}/tampered.pykc-cache"],
    ["stats", "--cache-dir", "{tmp}/other"],
    ["gc", "--cache-dir", "{cache}", "--max-size", "6K"],
    ["gc", "--cache-dir", "{cache}", "--max-size", "lots"],
    ["stats", "--cache-dir", "{cache}"],
    ["clear", "--cache-dir", "{cache}"],
    ["stats", "--cache-dir", "{cache}", "--json"],
    ["populate", "x.py", "--arch", "sm_90"],
]


def run_script(pykc):
    tmp = tempfile.mkdtemp(prefix="pykc-cache-cli.")
    try:
        cache = os.path.join(tmp, "c\u00e4che dir")
        out = []
        first_key = None
        for step in SCRIPT:
            if step == ["!damage"]:
                # Flip the last byte of the first blob (sorted by path).
                blobs = sorted(os.path.join(r, f) for r, _, fs in os.walk(os.path.join(cache, "cas"))
                               for f in fs)
                with open(blobs[0], "r+b") as f:
                    f.seek(-1, os.SEEK_END)
                    b = f.read(1)
                    f.seek(-1, os.SEEK_END)
                    f.write(bytes([b[0] ^ 1]))
                out.append(b"$ (flip the last byte of the first blob)\n")
                continue
            if step == ["!same-time"]:
                # One last-use time for every entry, so that `ls` orders by key.
                for r, _, fs in os.walk(cache):
                    for f in fs:
                        os.utime(os.path.join(r, f), (1767225600, 1767225600))
                out.append(b"$ (set every file's time to 2026-01-01)\n")
                continue
            if step[0] == "import" and "tampered" in step[-1]:
                with open(SAMPLE, "rb") as f:
                    data = bytearray(f.read())
                data[len(data) // 2] ^= 0x40
                with open(os.path.join(tmp, "tampered.pykc-cache"), "wb") as f:
                    f.write(data)
            args = [a.format(cache=cache, tmp=tmp, sample=SAMPLE,
                             first_key_prefix=(first_key or "")[:10]) for a in step]
            env = dict(os.environ)
            for v in ("PYKC_CACHE_DIR", "PYKC_CACHE_MAXSIZE"):
                env.pop(v, None)
            proc = subprocess.run([pykc, "cache"] + args, capture_output=True, env=env, timeout=60)
            if step[0] == "ls" and "--json" not in step and proc.stdout and not first_key:
                first_key = proc.stdout.split()[0].decode()
            shown = " ".join(step).replace("{sample}", "sample.pykc-cache")
            shown = shown.replace("{first_key_prefix}", "<first key, 10 digits>")
            out.append(b"$ pykc cache " + shown.encode() + b"\n")
            out.append(b"[exit %d]\n" % proc.returncode)
            for name, data in ((b"stdout", proc.stdout), (b"stderr", proc.stderr)):
                if data:
                    out.append(b"-- " + name + b"\n" + data + (b"" if data.endswith(b"\n") else b"\n"))
        # Export of the imported sample must give the sample back, byte for byte.
        with open(os.path.join(tmp, "out.pykc-cache"), "rb") as f, open(SAMPLE, "rb") as g:
            out.append(b"export reproduces sample.pykc-cache: %s\n" %
                       (b"yes" if f.read() == g.read() else b"NO"))
        text = b"".join(out)
        text = text.replace(tmp.encode(), b"<TMP>")
        text = text.replace(SAMPLE.encode(), b"sample.pykc-cache")
        return TIME_RE.sub(b"<TIME>", text)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pykc", required=True)
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    actual = run_script(os.path.abspath(args.pykc))
    if args.update:
        with open(EXPECTED, "wb") as f:
            f.write(actual)
        print("rewrote " + EXPECTED)
        return 0
    with open(EXPECTED, "rb") as f:
        expected = f.read()
    if actual == expected:
        print("cache CLI transcript matches")
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(True),
        actual.decode("utf-8", "replace").splitlines(True), "expected", "actual"))
    return 1


if __name__ == "__main__":
    sys.exit(main())
