#!/usr/bin/env python3
"""Compile the real-world cuTile corpus (corpus.json) with pykc's CLI and report.

For each entry of corpus.json this runs

    PYKC compile FILE --arch ARCH -o TMP --no-cache --kernel K ... --sig ... --const K.NAME=VALUE ...

(one compile at a time, 120 s each), records pass/fail, the exit code and the first
`error:` line, prints one line per file and a summary grouped by cause, and with
`--json OUT` writes every result. When a file with several kernels fails, each kernel is
compiled alone as well, so that the kernels that pass and the causes of the others are
known (`--no-per-kernel` turns that off). Entries with no kernels (files whose kernels
are made inside functions) are compiled whole, without flags.

Outcomes: pass; fail (non-zero exit); crash (killed by a signal); timeout; no-kernels
(exit 0 but a listed kernel missing from the manifest, or nothing written). A kernel
compiled alone that fails only on errors located in other kernels of its file (which
`--kernel` did not keep out) is counted as "blocked". Entries with "skip" are not run.

Exit status 0 unless --strict and some file did not pass. Python 3.11 standard library.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import OrderedDict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[2]


def kernel_flags(kernels: list[dict]) -> list[str]:
    """--kernel/--sig/--const flags for a list of manifest kernel entries."""
    names: list[str] = []
    sigs: list[str] = []
    consts: list[str] = []
    for k in kernels:
        if k["name"] not in names:
            names.append(k["name"])
        if k.get("sig") and k["sig"] not in sigs:
            sigs.append(k["sig"])
        for c in k.get("consts", []):
            flag = f"{k['name']}.{c}"
            if flag not in consts:
                consts.append(flag)
    out: list[str] = []
    for n in names:
        out += ["--kernel", n]
    for s in sigs:
        out += ["--sig", s]
    for c in consts:
        out += ["--const", c]
    for k in kernels:
        for d in k.get("defines", []):
            if d not in out:
                out += ["-D", d]
    return out


def define_groups(kernels: list[dict]) -> list[list[dict]]:
    """The kernels in groups of one set of `-D` values ("defines": a kernel made inside a
    factory takes the factory's arguments as `-D NAME=VALUE`), in order; each group is one
    compile."""
    groups: OrderedDict[tuple, list[dict]] = OrderedDict()
    for k in kernels:
        groups.setdefault(tuple(k.get("defines", [])), []).append(k)
    return list(groups.values()) or [[]]


def run_kernels(pykc: str, file: Path, arch: str, kernels: list[dict], timeout: float) -> dict:
    """One compile per group of `-D` values; the first group that does not pass decides."""
    results = [run_one(pykc, file, arch, kernel_flags(g), timeout) for g in define_groups(kernels)]
    for r in results:
        if r["outcome"] != "pass":
            return r
    merged = dict(results[0])
    merged["built"] = [b for r in results for b in r["built"]]
    merged["resources"] = [x for r in results for x in r.get("resources", [])]
    merged["seconds"] = round(sum(r["seconds"] for r in results), 2)
    return merged


ERROR_RE = re.compile(r"\berror:\s*(.*)")
LOC_RE = re.compile(r"^\S+?:\d+:\d+:\s*")


def normalise(msg: str) -> str:
    """A pykc error message without what is particular to one file."""
    m = ERROR_RE.search(msg)
    text = m.group(1) if m else msg
    text = text.strip()
    # Invocation-specific parts: quoted flags, kernel/parameter/variable names.
    text = re.sub(r"`--sig '[^']*'`", "`--sig '...'`", text)
    text = re.sub(r"--(sig|const) '[^']*'", r"--\1 '...'", text)

    # names of the file's own kernels, parameters and variables
    text = re.sub(r"`--const [^`]*`", "`--const ...`", text)
    text = re.sub(r"--const [A-Za-z_][\w.]*=VALUE", "--const NAME=VALUE", text)
    text = re.sub(r"(kernel|function|helper) `[^`]*`", r"\1 `<name>`", text)
    text = re.sub(r"parameter `[^`]*` of `[^`]*`", "parameter `<name>` of `<name>`", text)
    text = re.sub(r"parameter of `[^`]*`", "parameter of `<name>`", text)
    text = re.sub(r"^`[^`]*` is used but never assigned", "`<name>` is used but never assigned", text)
    text = re.sub(r"`[A-Za-z_]\w* \+=`", "`<name> +=`", text)
    text = re.sub(r"`[^`]*/[^`]*\.py`", "`<file>`", text)
    text = re.sub(r"--sig '[A-Za-z_]\w*\(\.\.\.\)'", "--sig '<name>(...)'", text)
    text = re.sub(r"parameter `[^`]*` of tile kernel", "parameter `<name>` of tile kernel", text)
    text = re.sub(r"^`[^`]*` is not a compile-time constant", "`<name>` is not a compile-time constant", text)
    text = re.sub(r"^`[^`]*` is assigned `", "`<name>` is assigned `", text)
    text = re.sub(r"^`[^`]*` holds `", "`<name>` holds `", text)
    text = re.sub(r"`(Uni)?Tuple\([^`]*\)`", r"`\1Tuple(...)`", text)
    text = re.sub(r"`(array|tile)\([^`]*\)`", r"`\1(...)`", text)
    scalar = r"`(?:u?int\d+|float\d+|bfloat16|bool|tile\(\.\.\.\)|-?\d+(?:\.\d*)?)`"
    text = re.sub(r"^" + scalar + r" has no attribute", "`<scalar or tile>` has no attribute", text)
    text = re.sub(r"(needs a tile with the array's \S+ dimension\(s\), found )" + scalar, r"\1`<scalar or rank-zero tile>`", text)
    text = re.sub(r"\b\d+\b", "N", text)
    return text


def parse_errors(output: str) -> list[dict]:
    """Each `error:` line with the source line pykc shows after it."""
    lines = output.splitlines()
    errs = []
    for i, line in enumerate(lines):
        if ERROR_RE.search(line):
            src = ""
            if i + 1 < len(lines) and not ERROR_RE.search(lines[i + 1]) and lines[i + 1].strip():
                src = lines[i + 1].strip()
            errs.append({"line": line.strip(), "source": src, "cause": normalise(line)})
    return errs


LINE_RE = re.compile(r"^(\S+?\.py):(\d+):\d+:")


def function_spans(file: Path) -> list[tuple[int, int, str, bool]]:
    """(first line, last line, name, is a kernel) of the file's top-level functions."""
    try:
        tree = ast.parse(file.read_text(errors="replace"))
    except SyntaxError:
        return []
    spans = []
    for n in tree.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([n.lineno] + [d.lineno for d in n.decorator_list])
            is_kernel = any("kernel" in ast.unparse(d) for d in n.decorator_list)
            spans.append((first, n.end_lineno or n.lineno, n.name, is_kernel))
    return spans


def owner_of(err: dict, file: Path, spans) -> str | None:
    """The top-level function of `file` an error points into, if any."""
    m = LINE_RE.match(err["line"])
    if not m or Path(m.group(1)).name != file.name:
        return None
    line = int(m.group(2))
    for first, last, name, _ in spans:
        if first <= line <= last:
            return name
    return None


def run_one(pykc: str, file: Path, arch: str, flags: list[str], timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="pykc-corpus-") as tmp:
        out_dir = Path(tmp) / "out"
        cmd = [pykc, "compile", str(file), "--arch", arch, "-o", str(out_dir), "--no-cache"] + flags
        t0 = time.monotonic()
        try:
            proc = subprocess.run(cmd, cwd=file.parent, capture_output=True, text=True,
                                  errors="replace", timeout=timeout)
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or "") if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace")
            err = (e.stderr or "") if isinstance(e.stderr, str) else (e.stderr or b"").decode(errors="replace")
            return {"outcome": "timeout", "rc": None, "seconds": round(time.monotonic() - t0, 2),
                    "output": (out + err)[-4000:], "errors": parse_errors(out + err), "built": []}
        secs = round(time.monotonic() - t0, 2)
        output = proc.stdout + proc.stderr
        built: list[str] = []
        resources: list[dict] = []
        manifest = out_dir / "manifest.json"
        if manifest.is_file():
            try:
                kernels = json.loads(manifest.read_text()).get("kernels", [])
                built = [k["name"] for k in kernels]
                resources = [{"name": k["name"], "symbol": k["symbol"], **k.get("resources", {}).get(arch, {})}
                             for k in kernels]
            except (ValueError, KeyError, TypeError):
                built = []
        rc = proc.returncode
        if rc < 0:
            outcome = "crash"
        elif rc != 0:
            # a compiler that dies of a signal under a shell-like wrapper exits 128+N
            outcome = "crash" if rc >= 128 and not ERROR_RE.search(output) else "fail"
        else:
            outcome = "pass"
        return {"outcome": outcome, "rc": rc, "seconds": secs, "output": output[-4000:],
                "errors": parse_errors(output), "built": built, "resources": resources}


def signal_name(rc: int | None) -> str:
    if rc is None:
        return ""
    n = -rc if rc < 0 else rc - 128
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def check_built(res: dict, kernels: list[dict]) -> None:
    """Exit 0 with a listed kernel missing from the manifest: no-kernels."""
    if res["outcome"] != "pass":
        return
    want = {k["name"] for k in kernels}
    missing = sorted(want - set(res["built"]))
    if (not kernels and not res["built"]) or missing:
        res["outcome"] = "no-kernels"
        res["missing"] = missing


def run_arch(entries: list[dict], pykc: str, arch: str, timeout: float, per_kernel: bool,
             quiet: bool) -> list[dict]:
    results = []
    for e in entries:
        if e.get("skip"):
            continue
        file = HERE / e["file"]
        kernels = e.get("kernels", [])
        res = run_kernels(pykc, file, arch, kernels, timeout)
        check_built(res, kernels)
        r = {"file": e["file"], "arch": arch, "kernels_listed": len({k['name'] for k in kernels}),
             **res}
        # Per-kernel attribution.
        names = list(OrderedDict.fromkeys(k["name"] for k in kernels))
        if res["outcome"] == "pass":
            r["kernel_results"] = {n: "pass" for n in names}
        elif len(names) == 1:
            r["kernel_results"] = {names[0]: res["outcome"]}
            r["kernel_errors"] = {names[0]: res["errors"]}
        elif per_kernel and names:
            r["kernel_results"] = {}
            r["kernel_errors"] = {}
            spans = function_spans(file)
            other_kernels = {name for _, _, name, is_k in spans if is_k}
            for n in names:
                ks = [k for k in kernels if k["name"] == n]
                kr = run_kernels(pykc, file, arch, ks, timeout)
                check_built(kr, ks)
                outcome = kr["outcome"]
                for er in kr["errors"]:
                    o = owner_of(er, file, spans)
                    er["in"] = o
                    er["other_kernel"] = bool(o and o != n and o in other_kernels)
                # failed only through errors inside other kernels: --kernel did not isolate it
                if outcome == "fail" and kr["errors"] and all(er["other_kernel"] for er in kr["errors"]):
                    outcome = "blocked"
                r["kernel_results"][n] = outcome
                r["kernel_errors"][n] = kr["errors"]
        else:
            r["kernel_results"] = {n: res["outcome"] for n in names}
        r["kernels_passed"] = sum(1 for v in r.get("kernel_results", {}).values() if v == "pass")
        first = res["errors"][0]["line"] if res["errors"] else ""
        r["first_error"] = first
        results.append(r)
        if not quiet:
            tag = res["outcome"].upper()
            extra = ""
            if res["outcome"] == "crash":
                extra = f" {signal_name(res['rc'])}"
            elif res["outcome"] == "no-kernels":
                extra = f" missing {','.join(res.get('missing', [])) or '(none listed)'}"
            elif res["outcome"] != "pass":
                extra = f" rc={res['rc']} {first}"
            print(f"{tag:10} {arch} {e['file']} [{r['kernels_passed']}/{r['kernels_listed']} kernels, "
                  f"{res['seconds']}s]{extra}", flush=True)
    return results


def summarise(results: list[dict], arch: str) -> dict:
    files = len(results)
    by = {o: [r for r in results if r["outcome"] == o] for o in ("pass", "fail", "crash", "timeout", "no-kernels")}
    k_total = sum(r["kernels_listed"] for r in results)
    k_pass = sum(r["kernels_passed"] for r in results)
    k_blocked = sum(1 for r in results for v in r.get("kernel_results", {}).values() if v == "blocked")
    causes: dict[str, dict] = {}
    for r in results:
        if r["outcome"] == "pass":
            continue
        errs = list(r["errors"])
        for lst in r.get("kernel_errors", {}).values():
            errs += lst
        seen = set()
        for er in errs:
            c = er["cause"]
            d = causes.setdefault(c, {"files": [], "kernels": 0, "example": er})
            if c not in seen:
                d["files"].append(r["file"])
                seen.add(c)
            # prefer the shortest example source line
            if er["source"] and (not d["example"]["source"] or len(er["source"]) < len(d["example"]["source"])):
                d["example"] = er
        for n, lst in r.get("kernel_errors", {}).items():
            for c in {er["cause"] for er in lst if not er.get("other_kernel")}:
                causes[c]["kernels"] += 1
    ordered = sorted(causes.items(), key=lambda kv: (-len(kv[1]["files"]), kv[0]))
    # kernels whose registers spill or that use local memory (ptxas' resource report in the
    # manifest): where the code generator, not the kernel, may limit speed
    spills = sorted(({"file": r["file"], **x} for r in results for x in r.get("resources", [])
                     if x.get("spill_stores") or x.get("spill_loads") or x.get("local_bytes")),
                    key=lambda x: -(x.get("spill_stores", 0) + x.get("spill_loads", 0)))
    return {"spills": spills,"arch": arch, "files": files, "files_passed": len(by["pass"]), "files_failed": len(by["fail"]),
            "crashes": [r["file"] for r in by["crash"]], "timeouts": [r["file"] for r in by["timeout"]],
            "no_kernels": [r["file"] for r in by["no-kernels"]],
            "kernels": k_total, "kernels_passed": k_pass, "kernels_blocked_by_other_kernels": k_blocked,
            "causes": [{"cause": c, "files_blocked": len(d["files"]), "kernels": d["kernels"],
                        "files": d["files"], "example": d["example"]["line"],
                        "example_source": d["example"]["source"]} for c, d in ordered]}


def print_summary(s: dict) -> None:
    print(f"\n== {s['arch']}: files {s['files_passed']}/{s['files']} passed, {s['files_failed']} failed, "
          f"{len(s['crashes'])} crashed, {len(s['timeouts'])} timed out, "
          f"{len(s['no_kernels'])} exit 0 without (all) kernels; kernels {s['kernels_passed']}/{s['kernels']} passed, "
          f"{s['kernels_blocked_by_other_kernels']} failed only on errors in other kernels of their file")
    if s["causes"]:
        print("Causes (files blocked, kernels):")
        for c in s["causes"]:
            print(f"  {c['files_blocked']:3} {c['kernels']:4}  {c['cause']}")
            if c["example_source"]:
                print(f"            e.g. {c['example_source'][:110]}")
    if s.get("spills"):
        print(f"Kernels that spill or use local memory ({len(s['spills'])}; ptxas' counts in the manifest):")
        for x in s["spills"]:
            print(f"  {x.get('spill_stores', 0):6} stores {x.get('spill_loads', 0):6} loads {x.get('local_bytes', 0):6} "
                  f"local bytes {x.get('registers', 0):4} regs  {x['file']} {x['symbol'][:90]}")
    for what, key in (("crashes", "crashes"), ("timeouts", "timeouts"), ("exit 0 without kernels", "no_kernels")):
        if s[key]:
            print(f"{what}:")
            for f in s[key]:
                print(f"  {f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pykc", default=str(REPO_ROOT / "build" / "bin" / "pykc"), help="pykc binary")
    ap.add_argument("--arch", default="sm_90",
                    help="comma-separated architectures, each run separately (e.g. sm_80,sm_90,sm_90a)")
    ap.add_argument("--manifest", default=str(HERE / "corpus.json"))
    ap.add_argument("--json", metavar="OUT", help="write all results as JSON")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per compile (120)")
    ap.add_argument("--filter", action="append", default=[], help="only files whose path contains this")
    ap.add_argument("--no-per-kernel", action="store_true", help="do not compile a failing file's kernels one by one")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any file did not pass")
    ap.add_argument("-q", "--quiet", action="store_true", help="no per-file lines")
    ap.add_argument("--at-least", type=int, default=0, metavar="N",
                    help="exit 1 unless at least N files pass on every architecture and none "
                         "crashes, times out or exits 0 without its kernels (CI's floor)")
    args = ap.parse_args(argv)
    args.pykc = os.path.abspath(args.pykc)  # compiles run in each file's folder

    if not os.access(args.pykc, os.X_OK):
        print(f"run_corpus: no pykc at {args.pykc} (give --pykc)", file=sys.stderr)
        return 2
    entries = json.loads(Path(args.manifest).read_text())
    if args.filter:
        entries = [e for e in entries if any(f in e["file"] for f in args.filter)]
    skipped = [e for e in entries if e.get("skip")]
    if skipped:
        print(f"{len(skipped)} entries skipped (see their \"skip\" in corpus.json)")
    all_results = {}
    summaries = []
    for arch in [a.strip() for a in args.arch.split(",") if a.strip()]:
        res = run_arch(entries, args.pykc, arch, args.timeout, not args.no_per_kernel, args.quiet)
        s = summarise(res, arch)
        print_summary(s)
        all_results[arch] = res
        summaries.append(s)
    if args.json:
        Path(args.json).write_text(json.dumps({"pykc": args.pykc, "summaries": summaries,
                                               "results": all_results}, indent=1))
    bad = any(s["files_passed"] != s["files"] for s in summaries)
    if args.at_least:
        for s in summaries:
            broken = s["crashes"] or s["timeouts"] or s["no_kernels"]
            if s["files_passed"] < args.at_least or broken:
                print(f"FAILED ({s['arch']}): {s['files_passed']} files passed, at least "
                      f"{args.at_least} expected, and no crash, timeout or exit 0 without kernels",
                      file=sys.stderr)
                return 1
    return 1 if (args.strict and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
