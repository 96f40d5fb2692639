"""Project decorators around numba.cuda.jit (tests/check/project_decorators.py and
project_decorators_ignored.py), as fbpic's fbpic/utils/cuda.py defines `compile_cupy`."""
from numba import cuda

try:
    import cupy
    cupy_installed = cupy.is_available()
except ImportError:
    cupy_installed = False


def gpu_kernel(f):
    """Compiles `f` as a kernel."""
    return cuda.jit(f)


if cupy_installed:

    class compile_gpu(object):
        """Compiles the function with numba at its first launch, launches through CuPy."""

        def __init__(self, func):
            self.python_func = func
            self.kernels = {}

        def specialize(self, signature):
            self.kernel = cuda.jit(signature)(self.python_func)
            return self

        def __getitem__(self, config):
            def launch(*args):
                kernel = cuda.jit()(self.python_func)
                kernel[config](*args)

            return launch


def fast_kernel(f):
    return cuda.jit(f, fastmath=True)


class traced(object):
    def __init__(self, func):
        self.func = func

    def __call__(self, *args):
        print(self.func.__name__)
        return cuda.jit(self.func)
