"""The kernels of tests/gpu/kernels/tile_kernels9.py (arrays in variables, Array.slice) with
NumPy references, shared by tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases9.py.

`view_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs a
kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with (its defaults), passed last on the GPU.
CONSTS = {"segment_scale": (16,), "column_window": (16,), "chosen_view": (), "ragged_matmul": (16, 16, 16)}


def view_cases(run, arr, rng):
    # Ragged segments of rows (empty, shorter than a tile, several tiles, ending mid-tile).
    for offsets in ([0, 0, 5, 37, 40], [0, 16, 16, 33]):
        offsets = np.array(offsets, np.int32)
        total = int(offsets[-1])
        x = rng.standard_normal((total + 3, 8)).astype(np.float32)
        y = np.full_like(x, np.nan)
        run("segment_scale", offsets.size - 1, arr(x) + arr(y) + arr(offsets))
        want = np.full_like(x, np.nan)
        for s in range(offsets.size - 1):
            lo, hi = offsets[s], offsets[s + 1]
            want[lo:hi] = x[lo:hi] * 2 + s
        yield f"segment_scale offsets {offsets.tolist()} (rows past the last stay)", y, want, "exact-nan"
    # A window of columns through a helper; its end past the row pads zeros on load, and
    # the store keeps to the window's own extent (the view's shape, not the array's).
    x = rng.standard_normal((5, 40)).astype(np.float32)
    for first in (0, 7, 30):
        out = np.full((5, 16), np.nan, np.float32)
        run("column_window", 5, arr(x) + arr(out) + [first])
        win = np.zeros((5, 16), np.float32)
        n = min(16, 40 - first)
        win[:, :n] = x[:, first:first + n]
        yield f"column_window first={first} (slice axis=-1, view passed to a helper)", out, win + 1, "exact"
    # A view chosen in a run-time branch, then aliased.
    x = rng.standard_normal(64).astype(np.float32)
    for flag, lo in ((1, 8), (0, 0), (-3, 0)):
        out = np.full(32, np.nan, np.float32)
        run("chosen_view", 1, arr(x) + arr(out) + [flag])
        yield f"chosen_view flag={flag} (view assigned in a branch)", out, x[lo:lo + 32], "exact"
    # Ragged matmul: segment q's rows of a times b[q].
    m_indptr = np.array([0, 20, 20, 53, 64], np.int32)
    q, k, n = m_indptr.size - 1, 40, 24
    a = rng.standard_normal((int(m_indptr[-1]), k)).astype(np.float32)
    b = rng.standard_normal((q, k, n)).astype(np.float32)
    c = np.full((int(m_indptr[-1]), n), np.nan, np.float32)
    most = int(np.max(np.diff(m_indptr)))
    run("ragged_matmul", (-(-most // 16), q), arr(a) + arr(b) + arr(c) + arr(m_indptr))
    want = np.concatenate([a[m_indptr[i]:m_indptr[i + 1]].astype(np.float64) @ b[i] for i in range(q)])
    yield f"ragged_matmul segments {m_indptr.tolist()}, K={k}, N={n}", c, want, ("close", 1e-4)
