"""corpus.json's in-domain inputs (tests/realworld_numba/corpus/corpus_inputs.py) are well
formed: one value per parameter of the kernel's --sig, arrays of the signature's rank, launch
dimensions positive, at the first size and grown, and malformed specs are refused."""
import json
import math
import os
import re
import sys

import numpy as np
import pytest

CORPUS = os.path.join(os.path.dirname(__file__), "..", "realworld_numba", "corpus")
sys.path.insert(0, CORPUS)
from corpus_inputs import evaluate, evaluate_tile, expected_tile, sig_param_count, sig_params  # noqa: E402


def _specs():
    for entry in json.load(open(os.path.join(CORPUS, "corpus.json"), encoding="utf-8")):
        for kernel, spec in entry.get("inputs", {}).items():
            sigs = [s for s in entry["sigs"] if s.startswith(kernel + "(")]
            yield pytest.param(spec, sigs, id=f"{os.path.basename(entry['file'])}:{kernel}")


@pytest.mark.parametrize("spec,sigs", list(_specs()))
def test_spec_matches_signature(spec, sigs):
    assert sigs, "inputs given for a kernel that has no --sig"
    for sig in sigs:
        params = sig_params(sig)
        for scale in (1, 4):
            values, (grid, block, shared) = evaluate(spec, len(params), np.random.default_rng(0), scale)
            assert all(g > 0 for g in grid) and all(b > 0 for b in block) and np.prod(block) <= 1024
            assert shared <= 48 * 1024
            for p, v in zip(params, values):
                m = re.search(r"\[(.*)\]$", p)
                if m:
                    assert isinstance(v, np.ndarray) and v.ndim == m.group(1).count(",") + 1, p
                else:
                    assert np.isscalar(v) or (isinstance(v, np.ndarray) and v.ndim == 0), p


def test_malformed_specs_are_refused():
    rng = np.random.default_rng(0)
    ok = {"let": {"N": 4}, "args": ["rand(N)", "N"], "grid": "1", "block": "N"}
    assert evaluate(ok, 2, rng)[1] == ((1,), (4,), 0)
    assert evaluate(dict(ok, shared="N * 8"), 2, rng)[1][2] == 32
    with pytest.raises(ValueError, match="3 expressions"):
        evaluate(ok, 3, rng)
    with pytest.raises(ValueError, match="grow names"):
        evaluate(dict(ok, grow=["M"]), 2, rng)
    with pytest.raises(ValueError, match="non-negative"):
        evaluate(dict(ok, shared="-1"), 2, rng)
    with pytest.raises(ValueError, match="positive"):
        evaluate(dict(ok, block="0"), 2, rng)
    assert sig_param_count("k()") == 0 and sig_param_count("k(float32[:, ::1], int64)") == 2
    assert sig_params("k(float32[:, ::1], Record(a=int32[2]), int64)") == ["float32[:, ::1]", "Record(a=int32[2])", "int64"]


TILE_CORPUS = os.path.join(os.path.dirname(__file__), "..", "realworld_tile", "corpus")


def _tile_specs():
    for entry in json.load(open(os.path.join(TILE_CORPUS, "corpus.json"), encoding="utf-8")):
        for i, kernel in enumerate(entry.get("kernels", [])):
            if "inputs" in kernel:
                yield pytest.param(kernel, id=f"{os.path.basename(entry['file'])}:{i}:{kernel['name']}")


@pytest.mark.parametrize("kernel", list(_tile_specs()))
def test_tile_spec_matches_signature(kernel):
    """The tile corpus's `inputs` (run_vs_cutile.py): one value per run-time parameter of the
    kernel's --sig, arrays of its rank, a positive grid, at the first size and grown; the
    planning (shape-only) values have the shapes the drawn ones get."""
    params = sig_params(kernel["sig"])
    expected_tile(kernel["inputs"], len(params))  # (raises on a malformed `expect`)
    for k, expr in kernel["inputs"].get("reference", {}).items():  # outputs' PyTorch references
        assert 0 <= int(k) < len(params) and compile(expr, "reference", "eval")
    for scale in (1, 4):
        values, grid = evaluate_tile(kernel["inputs"], len(params), None, scale)
        assert all(g > 0 for g in grid) and len(grid) <= 3
        drawn, _ = evaluate_tile(kernel["inputs"], len(params), _numpy_constructors(), scale) \
            if scale == 1 and max(math.prod(getattr(v, "shape", ())) for v in values) < 1 << 24 else (values, grid)
        for p, v, d in zip(params, values, drawn):
            m = re.search(r"\[(.*)\]$", p)
            if m:
                rank = 0 if m.group(1) == "()" else m.group(1).count(",") + 1
                assert isinstance(v, np.ndarray) and v.ndim == rank, p
                assert np.shape(d) == v.shape, p
            else:
                assert np.isscalar(v) or (isinstance(v, np.ndarray) and v.ndim == 0), p


def _numpy_constructors():
    import corpus_inputs
    return corpus_inputs._constructors(np.random.default_rng(0))  # noqa: SLF001 - the numba run's own


def test_tile_specs_refuse_launch_details():
    ok = {"let": {"N": 4}, "args": ["rand(N)", "N"], "grid": "(N, 2)"}
    values, grid = evaluate_tile(ok, 2)
    assert grid == (4, 2) and values[0].shape == (4,) and values[1] == 4
    assert evaluate_tile(dict(ok, grow=["N"]), 2, None, 2)[1] == (8, 2)
    with pytest.raises(ValueError, match="no `block`"):
        evaluate_tile(dict(ok, block="32"), 2)
    with pytest.raises(ValueError, match="3 expressions"):
        evaluate_tile(ok, 3)
