# %% [markdown]
# # pykc's JIT, as a Python user meets it
#
# Cells (`# %%`) for Jupyter or VS Code; also runs as a script on a machine with a CUDA
# GPU, PyTorch and pykc (`PYTHONPATH=python python3 examples/jit_notebook.py`).
# Written for numba.cuda's API: only the import differs (`from numba import cuda`
# would do the same under `python -m pykc run`).

# %%
import math

import numpy as np
import torch

from pykc import cuda


@cuda.jit
def gelu(x, out):
    """The tanh approximation of GELU, one element per thread."""
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))


# %% The first call types the arguments and compiles (in this process, about 30 ms).
x = torch.randn(1 << 24, device="cuda", dtype=torch.float32)
out = torch.empty_like(x)
threads = 256
blocks = (x.numel() + threads - 1) // threads
gelu[blocks, threads](x, out)
torch.testing.assert_close(out, torch.nn.functional.gelu(x, approximate="tanh"),
                           rtol=1e-5, atol=1e-5)
print("compiled for", gelu.signatures)

# %% Later calls with the same types launch directly. Time them with CUDA events.
start, end = cuda.event(), cuda.event()
stream = cuda.external_stream(torch.cuda.current_stream().cuda_stream)
start.record(stream)
for _ in range(100):
    gelu[blocks, threads, stream](x, out)
end.record(stream)
end.synchronize()
ms = start.elapsed_time(end) / 100
print(f"gelu: {ms:.3f} ms per call, {2 * x.numel() * 4 / ms / 1e6:.0f} GB/s")

# %% A float64 array is another signature: a second instance, compiled once.
xd = x.double()
outd = torch.empty_like(xd)
gelu[blocks, threads](xd, outd)
print("signatures:", gelu.signatures)

# %% What the compiler made: PTX (and SASS, with nvdisasm on PATH).
ptx = gelu.inspect_asm(("float32[::1]", "float32[::1]"))
print("\n".join(line for line in ptx.splitlines() if "tanh" in line or ".entry" in line))

# %% Mistakes are Python exceptions with the compiler's diagnostics.
@cuda.jit
def broken(x):
    x[0] = undefined_name  # noqa: F821


try:
    broken[1, 1](x)
except cuda.CompileError as e:
    print(e)          # file:line:col: error: name `undefined_name` is not defined, and a caret

# %% NumPy arrays work too: copied over and back, as numba does.
h = np.linspace(-3, 3, 1000, dtype=np.float32)
ho = np.empty_like(h)
gelu[4, 256](h, ho)
print(ho[:4])
