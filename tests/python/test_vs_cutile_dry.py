"""CPU-only tests of tests/realworld_tile/corpus/run_vs_cutile.py (pykc against NVIDIA's
cuTile on the cuTile corpus): its signature reading and input plans always; with pykc's
binary (``$PYKC``, else build/bin/pykc) the plans of a few compiled corpus files; with
cuTile importable (``cuda.tile``, or ``$PYKC_CUTILE_PATH`` naming a folder holding it,
e.g. ``pip install --target DIR cuda-tile==1.7.0``) the whole ``--dry-run``, which imports
the files with cuTile and runs cuTile's front end on the planned signatures. No GPU.
"""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "tests", "realworld_tile", "corpus")
SCRIPT = os.path.join(CORPUS, "run_vs_cutile.py")
sys.path.insert(0, CORPUS)

import run_vs_cutile as vs  # noqa: E402

# Small files that reach tuples with constant elements, lists of arrays, a 3-D grid.
FILES = ["test__test_tuple_arguments.py", "src__tilegym__ops__cutile__group_gemm.py",
         "golden__level1_3_bmm.py"]


def _pykc():
    p = os.environ.get("PYKC") or os.path.join(ROOT, "build", "bin", "pykc")
    if not os.access(p, os.X_OK):
        pytest.skip(f"no pykc binary at {p} (set PYKC)")
    return p


def _cutile_path():
    """Folders to add for cuda.tile; skips the test when cuTile cannot be imported."""
    extra = [p for p in os.environ.get("PYKC_CUTILE_PATH", "").split(os.pathsep) if p]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(extra + [os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", "import cuda.tile"], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["?"])[-1]
        pytest.skip(f"cuTile (cuda.tile) cannot be imported here ({last}); set PYKC_CUTILE_PATH "
                    f"to a folder holding it (pip install --target DIR cuda-tile==1.7.0)")
    return extra


def _entries():
    entries = json.load(open(os.path.join(CORPUS, "corpus.json"), encoding="utf-8"))
    return [e for e in entries if os.path.basename(e["file"]) in FILES]


def test_parse_type():
    assert vs.parse_type("float32[:, ::1]") == ("array", "float32", 2, "C", (), ())
    assert vs.parse_type("float32[::1,:]")[3] == "F"
    assert vs.parse_type("int32[()]") == ("array", "int32", 0, "C", (), ())
    assert vs.parse_type("bool_[::1]")[1] == "bool"
    assert vs.parse_type("UniTuple(int32,2)") == ("tuple", (("scalar", "int32"),) * 2)
    assert vs.parse_type("Tuple(float32[::1],int32)")[1][1] == ("scalar", "int32")
    assert vs.parse_type("float16[:,::1].assume(stride_constant=(10, None))")[5] == (10, None)
    assert vs.parse_type("KernelArg(float32[:,::1], UniTuple(int32, 2), int32)")[0] == "other"
    assert vs.sig_params("k(float32[:, ::1], UniTuple(int32, 2))") == ["float32[:, ::1]", "UniTuple(int32, 2)"]


def test_extents_and_grid():
    assert vs.extents(1, 1024) == [2048]
    assert vs.extents(2, 4096) == [512, 8192]          # 2^22 elements at most
    assert vs.extents(4, 64) == [2, 128, 128, 128]
    src = ("def helper():\n    return ct.bid(2)\n"
           "def k1(x):\n    a = ct.bid(0) + ct.bid(1)\n"
           "def k2(x):\n    helper()\n"
           "def k3(x):\n    ct.store(x, (0,), 1)\n")

    def rank(name):
        return vs.grid_rank(vs.kernel_source(src, name)[0], src)
    assert (rank("k1"), rank("k2"), rank("k3")) == (2, 3, 0)  # k2 through its helper


def test_plans_of_compiled_files(tmp_path):
    pykc = _pykc()
    rows = []
    for i, e in enumerate(_entries()):
        built = vs.compile_file(e, pykc, "sm_90", str(tmp_path / f"f{i}"), 120)
        rows += vs.plan_file(e, built)
    planned = [r for r in rows if "plan" in r]
    assert len(planned) >= 10, [r.get("why") for r in rows if "plan" not in r]
    by_name = {r["kernel"]: r for r in planned}
    # cfg[0]=8: a constant element inside the tuple argument, which is passed whole
    cfg = by_name["kernel_partial_const_first"]["plan"]["args"][2]
    assert cfg["kind"] == "tuple" and cfg["items"][0] == {
        "kind": "const", "name": "cfg[0]", "pykc": 8, "text": "8"}
    # lists of arrays (TileGym's group GEMM) are marked for cuTile's list parameters
    gg = by_name["_group_gemm_kernel"]["plan"]
    assert gg["args"][0]["kind"] == "tuple" and gg["args"][0]["arrays"]
    assert by_name["bmm_kernel"]["plan"]["grid"] == list(vs.GRIDS[3])


def test_dry_run(tmp_path):
    pykc = _pykc()
    extra = _cutile_path()
    out = tmp_path / "dry.json"
    cmd = [sys.executable, SCRIPT, "--dry-run", "--pykc", pykc, "--json", str(out)]
    for p in extra:
        cmd += ["--cutile-path", p]
    r = subprocess.run(cmd + FILES, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.load(open(out, encoding="utf-8"))
    counts = data["summary"]["counts"]
    assert counts.get("planned", 0) >= 10, r.stdout
    fe = data["summary"]["cutile_frontend"]
    # cuTile's front end takes these kernels as planned (tuples, lists, constants)
    assert fe["ok"] >= 10 and fe["rejects"] == 0, r.stdout


def test_hang_and_crash_are_contained(tmp_path):
    """A kernel that hangs or crashes its process is reported, and a fresh process goes on
    with the file's other kernels."""
    pykc = _pykc()
    extra = _cutile_path()
    out = tmp_path / "hooks.json"
    cmd = [sys.executable, SCRIPT, "--dry-run", "--no-frontend-check", "--pykc", pykc,
           "--kernel-timeout", "3", "--json", str(out), FILES[0]]
    for p in extra:
        cmd += ["--cutile-path", p]
    env = dict(os.environ, PYKC_VSCUTILE_TEST_HOOK="hang:1,crash:3")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = json.load(open(out, encoding="utf-8"))["files"][0]["kernels"]
    assert rows[1]["verdict"] == "timeout", rows[1]
    assert rows[3]["verdict"] == "crash", rows[3]
    assert sum(k["verdict"] == "planned" for k in rows) >= 5, rows


def test_tolerances_follow_the_precision_a_kernel_computes_in():
    """A float32 output computed through tfloat32 products or from half-precision inputs is
    compared at that precision; 8-bit floats never loosen it; an output dtype's own
    tolerance is kept where it is the looser."""
    import corpus_tensors as ctz

    class Tensor:
        def __init__(self, dtype):
            self.dtype = dtype

    class FakeTorch:
        pass
    FakeTorch.Tensor = Tensor
    args = (Tensor("torch.float16"), [Tensor("torch.float32"), Tensor("torch.float8_e4m3fn")], 3)
    assert ctz.compute_dtypes(args, FakeTorch, False) == ["float16"]
    assert ctz.compute_dtypes(args, FakeTorch, True) == ["tfloat32", "float16"]
    assert ctz.compute_dtypes((Tensor("torch.float32"),), FakeTorch, False) == []
    assert ctz.tolerance("float32") == (1e-4, 1e-5)
    assert ctz.tolerance("float32", ["tfloat32"]) == (2e-3, 1e-3)
    assert ctz.tolerance("float32", ["tfloat32", "bfloat16"]) == (2e-2, 1e-2)
    assert ctz.tolerance("float8_e4m3fn", ["float16"]) == (0.25, 0.05)
    assert ctz.tolerance("float64", []) == (1e-9, 1e-12)


def test_expected_values_and_file_verdicts():
    """corpus.json's `expect` (the values a test asserts, for kernels cuTile refuses) lists
    one entry per run-time argument; a file matches when each of its kernels is same, close
    or as-asserted, and the summary names the others with their verdicts."""
    from corpus_inputs import expected_tile
    assert expected_tile({"args": ["full(-1, 2)"], "grid": "(1,)"}, 1) == []
    assert expected_tile({"args": ["full(-1, 2)"], "expect": [[1, 0]]}, 1) == [[1, 0]]
    with pytest.raises(ValueError, match="one per `args` entry"):
        expected_tile({"args": ["full(-1, 2)"], "expect": [[1, 0], None]}, 1)
    results = [{"file": "a.py", "kernels": [{"verdict": "same"}, {"verdict": "as-asserted"}]},
               {"file": "b.py", "kernels": [{"verdict": "close"}, {"verdict": "cutile-fails"}]},
               {"file": "c.py", "kernels": [], "error": "compile: timeout"},
               {"file": "d.py", "kernels": []}]
    files = vs.summarise(results)["files"]
    assert files["total"] == 4 and files["matching"] == 1
    assert files["not_matching"] == {"b.py": ["cutile-fails"], "c.py": ["error"], "d.py": ["no kernels"]}


def test_timing_replans_a_row_as_the_first_plan(tmp_path):
    """The timing rounds plan again from the row (at growing scales): a kernel with its
    caller's `inputs` must get the same plan from its row as from its corpus.json entry
    (session 30's H200 run lost every timing to a row whose printed launch shadowed the
    inputs), and a bigger one a step up."""
    pykc = _pykc()
    entry = next(e for e in json.load(open(os.path.join(CORPUS, "corpus.json")))
                 if e["file"].endswith("test__test_reshape.py"))
    built = vs.compile_file(entry, pykc, "sm_90", str(tmp_path / "f"), 120)
    rows = [r for r in vs.plan_file(entry, built) if r["kernel"] == "reshape_copy"]
    assert rows and "plan" in rows[0], rows
    row = rows[0]
    text = open(os.path.join(CORPUS, entry["file"]), encoding="utf-8").read()
    manifest_entry = next(e for e in vs.read_manifest(row["build"]).kernels if e.symbol == row["symbol"])
    again = vs.plan_kernel(row, manifest_entry, text, 0)
    assert again["args"] == row["plan"]["args"] and again["grid"] == row["plan"]["grid"] == [1]
    bigger = vs.plan_kernel(row, manifest_entry, text, 1)
    assert bigger["grid"] == [2] and vs.plan_elements(bigger) > vs.plan_elements(again)
