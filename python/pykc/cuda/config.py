"""numba.cuda.config's settings that programs and numba's tests read or set. pykc reads
none of them for compiling; they exist so that code which sets them keeps working."""

ENABLE_CUDASIM = 0
CUDA_LOW_OCCUPANCY_WARNINGS = 0
CUDA_WARN_ON_IMPLICIT_COPY = 0
CUDA_DEFAULT_PTX_CC = (5, 0)
CUDA_PER_THREAD_DEFAULT_STREAM = 0
CUDA_ENABLE_PYNVJITLINK = 1
CUDA_USE_NVIDIA_BINDING = 1
DISABLE_JIT = 0
DEBUGINFO_DEFAULT = 0
OPT = 3
CUDA_ENABLE_NRT = 0
