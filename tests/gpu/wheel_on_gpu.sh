#!/usr/bin/env bash
# Issue 26 item 2 on a GPU host: the wheel installed as a user installs it, then a numba
# program unchanged under the JIT and the C++ example built with find_package(pykc).
#
#     bash tests/gpu/wheel_on_gpu.sh dist/pykc-*.whl
#
# Offline hosts: --no-deps, so nvJitLink, NVRTC and libdevice come from the host's
# toolkit (/usr/local/cuda or $CUDA_HOME); with network access drop --no-deps to take
# NVIDIA's wheels instead. Exit 77 (skip) without a GPU.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
wheel=$(readlink -f "${1:?usage: wheel_on_gpu.sh WHEEL}")
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no GPU"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
status=0
step() { echo "=== $*"; }
check() { if "$@"; then echo "ok: $*"; else echo "FAIL: $*"; status=1; fi; }

step "install"
# --system-site-packages: the host's NumPy/CuPy/PyTorch, as a user's environment has them.
python3 -m venv --system-site-packages "$work/venv"
# When python3 is itself a virtualenv (the host's PyTorch one), its packages too.
python3 -c 'import site, sys; print("\n".join(site.getsitepackages()))' \
  > "$("$work/venv/bin/python" -c 'import site; print(site.getsitepackages()[0])')/_host_env.pth"
t0=$(date +%s%N)
check "$work/venv/bin/pip" install -q --no-deps --no-index "$wheel"
echo "install: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
export PATH="$work/venv/bin:$PATH"
unset PYTHONPATH
check pykc --version

step "pykc compile"
check pykc compile "$root/examples/saxpy.py" --arch sm_90 -o "$work/saxpy" --cache-dir "$work/cache"
ls "$work/saxpy"

step "numba program, unchanged, under python -m pykc run"
cat > "$work/prog.py" <<'PY'
import numpy as np
from numba import cuda

@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]

n = 1 << 20
x = np.random.rand(n).astype(np.float32)
y = np.random.rand(n).astype(np.float32)
d_out = cuda.device_array_like(x)
axpy[(n + 255) // 256, 256](np.float32(2.0), cuda.to_device(x), cuda.to_device(y), d_out)
out = d_out.copy_to_host()
err = float(np.max(np.abs(out - (2 * x + y))))
import pykc
print("pykc from", pykc.__file__, "max error", err)
assert err < 1e-5
PY
(cd "$work" && check python -m pykc run prog.py)
# numba-cuda's documentation examples, unchanged, with their own checks (pykc from the venv).
# Reported, not a verdict: the JIT's known gaps (docs/JIT.md) fail here as from the source tree.
python "$root/tests/gpu/jit/run_realworld.py" --json "$work/realworld.json" | tail -1

step "C++: find_package(pykc) from the wheel, kernels compiled at build time"
prefix=$(python -c "import pykc, os; print(os.path.dirname(pykc.__file__))")
check cmake -S "$root/examples/cpp_launch" -B "$work/cpp" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
check cmake --build "$work/cpp" -j8
check "$work/cpp/saxpy_launch"
[ $status -eq 0 ] && echo PASS || echo FAILED
exit $status
