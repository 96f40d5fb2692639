"""Kernel times of pykc's and numba-cuda's builds of one corpus kernel, for run_vs_numba.py
--time (issue 21's speed bar: pykc's kernels at least 1.1x numba-cuda's, geomean).

What is timed is the GPU's time per kernel, not the cost of a launch from Python (which
bench/jit measures apart): a busy kernel runs first on the stream, the CUDA events and R
launches queue up behind it while it runs, so the time between the events is R kernels
back to back. That the queue filled before the GPU reached the first event is checked (the
event had not completed when the last launch was queued); when it had, the spin is doubled
and the round repeated.

Sizes: generic inputs as for the comparison, grown 4x a step (each dimension by 2, 4 for 1-D
arrays) from run_vs_numba's sizes while numba's kernel takes under 0.3 ms and the inputs
hold under 2^24 elements; the grid grows with them, the block stays. Kernels with in-domain
inputs in corpus.json (corpus_inputs.py) grow by doubling the spec's `grow` names. Both builds run on the
same device arrays at the same size, alternating, best of 5 rounds each; every round starts
from the arrays' first contents (restored ahead of the busy kernel), so that kernels updating
their arguments in place are timed on the same data by both builds.
"""
import math

ROUNDS, REPEAT = 5, 20
TARGET_MS, MAX_ELEMENTS = 0.3, 1 << 24


def _spin_kernel():
    from numba import cuda

    @cuda.jit("void(float32[::1], int64)")
    def spin(out, n):  # one thread, a dependent chain: about n * 4 cycles
        x = out[0]
        for _ in range(n):
            x = x * 0.999999 + 1e-7
        out[0] = x
    return spin


class EventTimer:
    """The timing rounds, for any library's streams and events: a subclass gives `stream`,
    `spin_n` and the methods below."""

    def _spin(self, n):
        """Queue the busy kernel (about n * 4 cycles) on `self.stream`."""
        raise NotImplementedError

    def _events(self):
        """Two new timing events (start, end)."""
        raise NotImplementedError

    def _elapsed_ms(self, start, end):
        raise NotImplementedError

    def _round(self, launch, before=None):
        s = self.stream
        start, end = self._events()
        for _ in range(6):
            if before is not None:
                before(s)  # queued ahead of the busy kernel: not timed
            self._spin(self.spin_n)
            start.record(s)
            for _ in range(REPEAT):
                launch(s)
            end.record(s)
            queued_in_time = not start.query()
            end.synchronize()
            if queued_in_time:
                return self._elapsed_ms(start, end) / REPEAT
            self.spin_n *= 2
        raise RuntimeError("launches could not be queued behind the spin kernel")

    def best(self, launch, before=None):
        """The best of ROUNDS rounds; `before(stream)`, when given, runs ahead of each round
        (restoring the arguments a kernel updates in place)."""
        return min(self._round(launch, before) for _ in range(ROUNDS))


class Timer(EventTimer):
    """Events on one numba stream; pykc launches on the same stream (its handle)."""

    def __init__(self):
        import numpy as np
        from numba import cuda
        self.cuda, self.stream = cuda, cuda.stream()
        self.spin = _spin_kernel()
        self.scratch = cuda.to_device(np.ones(1, np.float32))
        self.spin_n = 1 << 18

    def _spin(self, n):
        self.spin[1, 1, self.stream](self.scratch, n)

    def _events(self):
        return self.cuda.event(), self.cuda.event()

    def _elapsed_ms(self, start, end):
        return self.cuda.event_elapsed_time(start, end)


def _grow(shapes, launch_shape):
    """Each array 4x larger and the grid with it: 1-D arrays 4x, others 2x per dimension."""
    grid, block = launch_shape
    new = {nd: tuple(d * (4 if nd == 1 else 2) for d in shape) for nd, shape in shapes.items()}
    factor = 4 if len(grid) == 1 else 2
    return new, (tuple(g * factor for g in grid), block)


def grown(shapes, launch_shape, step):
    """Generic sizes after `step` growth steps (4x the elements each); launch_shape is
    (grid, block, dynamic shared bytes)."""
    grid, block, shared = launch_shape
    launch = (grid, block)
    for _ in range(step):
        shapes, launch = _grow(shapes, launch)
    return shapes, launch + (shared,)


def _restorer(cuda, args):
    """What restores the device arrays `args` to their first contents before each round, so
    that kernels updating their arguments in place (datashader's *_in_place_*, ising) start
    every round of either build from the same state."""
    saved = [(a, cuda.device_array_like(a)) for a in args if hasattr(a, "copy_to_device")]
    for a, copy in saved:
        copy.copy_to_device(a)

    def restore(stream):
        for a, copy in saved:
            a.copy_to_device(copy, stream=stream)
    return restore


def time_kernel(timer, theirs, mine, make):
    """Best kernel times (ms) of numba's `theirs` and pykc's `mine`: make(step) gives the host
    arguments and (grid, block, shared bytes) of growth step 0, 1, ... (4x the work a step),
    or None where the sizes cannot grow. Returns a dict for the corpus report."""
    cuda = timer.cuda
    step, chosen = 0, None
    while True:
        made = make(step)
        if made is None:
            break
        host, launch = made
        elements = max((a.size for a in host if hasattr(a, "shape") and a.ndim), default=0)
        if chosen is not None and elements > MAX_ELEMENTS:
            break
        args = [cuda.to_device(a) if hasattr(a, "shape") and a.ndim else a for a in host]
        reset = _restorer(cuda, args)
        grid, block, shared = launch
        numba_ms = timer.best(lambda s: theirs[grid, block, s, shared](*args), reset)
        chosen = (args, launch, numba_ms, elements, reset)
        if numba_ms >= TARGET_MS or elements == 0:
            break
        step += 1
    args, (grid, block, shared), numba_ms, elements, reset = chosen
    pykc_ms = timer.best(lambda s: mine[grid, block, s, shared](*args), reset)
    numba_ms = min(numba_ms, timer.best(lambda s: theirs[grid, block, s, shared](*args), reset))
    return {"numba_ms": numba_ms, "pykc_ms": pykc_ms, "speedup": numba_ms / pykc_ms,
            "elements": elements, "grid": list(grid), "block": list(block)}
