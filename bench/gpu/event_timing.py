"""GPU timing shared by the benchmark scripts that run on PyTorch's current stream
(tile_matmul.py, tile_attention.py)."""
import statistics


def timed(fn, reps, batch):
    """Median seconds per launch over `reps` batches of `batch` launches queued back to
    back between two CUDA events (the Python launcher's overhead then overlaps the GPU's
    work instead of being counted as GPU time)."""
    import torch

    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(batch):
            fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3 / batch)
    return statistics.median(times)
