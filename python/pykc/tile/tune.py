"""cuTile's autotuner, ``cuda.tile.tune``, for kernels compiled by pykc.

    from cuda.tile.tune import exhaustive_search      # or pykc.tile.tune
    result = exhaustive_search(configs, stream, grid_fn=..., kernel=k, args_fn=...,
                               hints_fn=lambda cfg: {"num_ctas": cfg.num_ctas})
    best = result.best.config

Every config is compiled (on its first launch, through pykc's JIT and kernel cache),
warmed up and timed with CUDA events on ``stream``; a config whose compile or launch
fails is recorded in ``result.failures`` and the search goes on. A config is measured
until its mean is known to 1 % (95 % confidence) or 0.5 µs, or 1000 runs, or 5 s; once
five configs are known, the others are measured only while they could still beat them.
The best is the config with the lowest mean time. ``hints_fn``'s hints go to
``kernel.replace_hints`` (pykc records ``num_ctas``/``occupancy``/``opt_level``/
``num_worker_warps`` and checks them; its code generation does not depend on them,
docs/TILE.md), so configs that differ only in hints share one compiled kernel.
"""

from __future__ import annotations

import heapq
import math
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Sequence, TypeVar

__all__ = ["exhaustive_search", "Measurement", "TuningResult"]

T = TypeVar("T")

_WARM_UP = 3        # launches before timing (the first one compiles)
_BATCH = 5          # launches timed per round
_MIN_SAMPLES = 5
_MAX_SAMPLES = 1000
_MAX_TIME_US = 5_000_000
_TOP_K = 5


@dataclass(frozen=True, kw_only=True)
class Measurement(Generic[T]):
    """One config's timing: mean and half the 95 % confidence interval, in µs."""
    config: T
    mean_us: float
    num_samples: int
    error_margin_us: float


@dataclass(frozen=True, kw_only=True)
class TuningResult(Generic[T]):
    """The best measurement, every successful one, and ``(config, exception type,
    message)`` for each config that failed."""
    best: Measurement
    successes: Sequence[Measurement]
    failures: Sequence[tuple]

    def summary(self, *, top_k: int = 10) -> str:
        lines = [f"{len(self.successes)} succeeded, {len(self.failures)} failed"]
        for m in sorted(self.successes, key=lambda m: m.mean_us)[:top_k]:
            mark = "*" if m is self.best else " "
            lines.append(f"{mark} {m.config}: {m.mean_us:.1f}±{m.error_margin_us:.1f} us "
                         f"({m.num_samples} samples)")
        if len(self.successes) > top_k:
            lines.append(f"    ... {len(self.successes) - top_k} more not shown")
        for cfg, exc, msg in self.failures[:top_k]:
            first = msg.split("\n", 1)[0]
            lines.append(f"  failed {cfg}: {exc.__name__}: {first[:80]}")
        return "\n".join(lines)

    def __str__(self):
        return self.summary()


@dataclass
class _Candidate:
    config: Any
    order: int
    grid: tuple
    kernel: Any
    args: Callable[[], tuple]
    samples: int = 0
    mean_us: float = 0.0
    m2: float = 0.0
    margin_us: float = field(default=math.inf)

    def time_one(self, stream, start, end) -> float:
        from . import launch
        args = self.args()
        start.record(stream)
        launch(stream, self.grid, self.kernel, args)
        end.record(stream)
        end.synchronize()
        return start.elapsed_time(end) * 1000.0

    def add(self, us: float):
        # Welford's running mean and variance.
        self.samples += 1
        delta = us - self.mean_us
        self.mean_us += delta / self.samples
        self.m2 += delta * (us - self.mean_us)
        if self.samples > 1:
            self.margin_us = 1.96 * math.sqrt(self.m2 / (self.samples - 1) / self.samples)

    def converged(self) -> bool:
        return self.samples >= _MIN_SAMPLES and (
            self.margin_us <= 0.01 * self.mean_us or self.margin_us <= 0.5
            or self.samples >= _MAX_SAMPLES or self.mean_us * self.samples > _MAX_TIME_US)

    def measurement(self) -> Measurement:
        return Measurement(config=self.config, mean_us=self.mean_us,
                           num_samples=self.samples,
                           error_margin_us=0.0 if math.isinf(self.margin_us) else self.margin_us)


def _stream_of(stream):
    from .._backends import stream_handle
    return stream_handle(stream)


def exhaustive_search(search_space: Sequence[T], stream,
                      grid_fn: Callable[[T], tuple],
                      kernel, args_fn: Callable[[T], tuple],
                      hints_fn: Callable[[T], dict] | None = None, *,
                      quiet: bool = False,
                      single_run_timeout_sec: float | None = None) -> TuningResult[T]:
    """Times ``kernel`` (a ``ct.kernel``, or a function from a config to one) on every
    config of ``search_space`` and returns the fastest (see the module's doc).
    ``single_run_timeout_sec`` is accepted for cuTile's signature; pykc runs each launch
    in this process and does not enforce it."""
    from . import TileKernel
    from ..cuda._host import Event
    configs = list(search_space)
    if not configs:
        raise ValueError("Search space is empty.")
    handle = _stream_of(stream)
    start, end = Event(), Event()
    running, done, failures = [], [], []

    def measure(c: _Candidate, n: int) -> bool:
        try:
            for _ in range(min(n, _MAX_SAMPLES - c.samples)):
                c.add(c.time_one(handle, start, end))
            return True
        except Exception as e:  # noqa: BLE001 (a failing config is a result)
            failures.append((c.config, type(e), str(e)))
            return False

    def settle(c: _Candidate):
        """One batch more; then c is known, or back among the running."""
        if not measure(c, _BATCH):
            return
        if c.converged():
            done.append(c)
        else:
            heapq.heappush(running, (c.mean_us, c.margin_us, c.order, c))

    for i, cfg in enumerate(configs):
        try:
            k = kernel if isinstance(kernel, TileKernel) else kernel(cfg)
            if not isinstance(k, TileKernel):
                raise TypeError(f"`kernel` gave {k!r} for {cfg}, not a ct.kernel")
            hints = hints_fn(cfg) if hints_fn is not None else {}
            c = _Candidate(cfg, i, tuple(grid_fn(cfg)), k.replace_hints(**hints),
                           lambda cfg=cfg: tuple(args_fn(cfg)))
            from . import launch
            for _ in range(_WARM_UP):
                launch(handle, c.grid, c.kernel, c.args())
        except Exception as e:  # noqa: BLE001
            failures.append((cfg, type(e), str(e)))
            continue
        settle(c)
    # Measure the most promising until _TOP_K are known ...
    while len(done) < _TOP_K and running:
        settle(heapq.heappop(running)[3])
    # ... then the rest while they could still beat the _TOP_K-th best.
    if done and running:
        cutoff = sorted(c.mean_us for c in done)[min(_TOP_K, len(done)) - 1]
        for _, _, _, c in running:
            ok = True
            while ok and not c.converged() and c.mean_us - c.margin_us < cutoff:
                ok = measure(c, _BATCH)
            if ok:
                done.append(c)
    successes = [c.measurement() for c in sorted(done, key=lambda c: c.order)]
    if not successes:
        cfg, exc, msg = failures[0]
        raise ValueError(f"No valid config found in search space.\nConfig: {cfg}\n"
                         f"{exc.__name__}: {msg}")
    best = min(successes, key=lambda m: m.mean_us)
    result = TuningResult(best=best, successes=tuple(successes), failures=tuple(failures))
    if not quiet:
        print(result, file=sys.stdout)
    return result
