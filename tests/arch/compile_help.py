# ARGS: compile --help
"""`pykc compile --help`: --arch names every arch form, --fatbin and --nvfatbin say what
they do."""
# CHECK:STDOUT: Compile the kernels of a Python file to cubins.
# CHECK:STDOUT: Writes, per architecture, one cubin holding every kernel x signature of
# CHECK:STDOUT: FILE, its PTX, and a manifest.json that says how to launch each kernel
# CHECK:STDOUT: (see docs/ABI.md). Example:
# CHECK:STDOUT:   pykc compile kernels.py --arch sm_80,sm_90 -o build/kernels
# CHECK:STDOUT:
# CHECK:STDOUT: A full compile (cubins; no --emit llvm or --phase) goes through the
# CHECK:STDOUT: kernel cache, one entry per file and arch: a hit reads the cubin, PTX
# CHECK:STDOUT: and manifest facts back without loading nvJitLink or LLVM's code
# CHECK:STDOUT: generator. Only kernel code, the constants and modules it reads, the
# CHECK:STDOUT: signatures, the arch, the options and the compiler versions count:
# CHECK:STDOUT: edits to host code or comments still hit. -v says hit or miss per arch;
# CHECK:STDOUT: PYKC_CACHE_MAXSIZE sets the size limit (2G). With --remote URL (or
# CHECK:STDOUT: $PYKC_REMOTE_STORAGE) a local miss asks remote storage (HTTP or Redis,
# CHECK:STDOUT: see `pykc cache --help`) and a compile is uploaded to remotes marked
# CHECK:STDOUT: `read-write`.
# CHECK:STDOUT: See docs/CACHE.md.
# CHECK:STDOUT: Usage: pykc compile [OPTIONS] FILE
# CHECK:STDOUT:
# CHECK:STDOUT: Positionals:
# CHECK:STDOUT:   FILE TEXT REQUIRED          Python file holding @cuda.jit kernels
# CHECK:STDOUT:
# CHECK:STDOUT: Options:
# CHECK:STDOUT:   -h,--help                   Print this help message and exit
# CHECK:STDOUT:   --arch TEXT=[sm_90] ...     GPU architectures, comma separated: sm_75 ... sm_121f for cubins
# CHECK:STDOUT:                               (sm_100 and newer from sm_90 PTX, which LLVM 19 writes at most),
# CHECK:STDOUT:                               compute_75 ... compute_90a for PTX alone (the driver JIT-compiles
# CHECK:STDOUT:                               it on that GPU and every later one)
# CHECK:STDOUT:   --fatbin                    Also write FILE's name + .fatbin: every arch's cubin and the PTX of
# CHECK:STDOUT:                               the compute_XY arches in one file (made by NVIDIA's nvFatbin), from
# CHECK:STDOUT:                               which the CUDA driver loads the GPU's code (see docs/compile.md)
# CHECK:STDOUT:   --nvfatbin TEXT             The nvFatbin library --fatbin opens (default: the CUDA toolkit's,
# CHECK:STDOUT:                               else the nvidia-nvfatbin wheel's, else libnvfatbin.so.13 on
# CHECK:STDOUT:                               LD_LIBRARY_PATH)
# CHECK:STDOUT:   -o,--output TEXT            Output folder (default: FILE's name without .py, beside it)
# CHECK:STDOUT:   --emit TEXT=[cubin,ptx] ... What to write: llvm, ptx or cubin
# CHECK:STDOUT:   --sig TEXT ...              Signature for an untyped kernel: 'name(float32[::1], int64)'
# CHECK:STDOUT:   -D TEXT ...                 Override a module constant: NAME=VALUE
# CHECK:STDOUT:   -O INT:INT in [0 - 3]=3     Optimisation level 0-3
# CHECK:STDOUT:   --lineinfo                  Map machine code to Python lines
# CHECK:STDOUT:   --use-fast-math             Approximate division and square root, flush denormals to zero
# CHECK:STDOUT:   --maxrregcount INT          Limit registers per thread (0: no limit)
# CHECK:STDOUT:   --no-alias-versioning       Do not give kernels a second body for arrays that do not overlap
# CHECK:STDOUT:                               (chosen at run time; docs/compile.md)
# CHECK:STDOUT:   --link TEXT ...             Link FILE into every cubin: .cu (compiled by NVRTC for each arch),
# CHECK:STDOUT:                               .ptx, .ltoir (NVRTC/nvcc -dlto output), .cubin, .fatbin, .o, .a.
# CHECK:STDOUT:                               Kernels call its functions through cuda.declare_device
# CHECK:STDOUT:                               (docs/INTEROP.md); `link=` in the source does the same
# CHECK:STDOUT:   -I TEXT ...                 Include folder for linked .cu files (the toolkit's include and
# CHECK:STDOUT:                               include/cccl are searched after it); -D NAME=VALUE reaches NVRTC too
# CHECK:STDOUT:   --nvrtc-option TEXT ...     Pass an option to NVRTC as is, e.g. --nvrtc-option=-std=c++20
# CHECK:STDOUT:   --python-path TEXT ...      Folder searched for the modules the file imports device functions,
# CHECK:STDOUT:                               helpers and constants from (`from pkg.mod import f`, `from . import core`),
# CHECK:STDOUT:                               after the file's own folder; repeatable. $PYTHONPATH's folders follow
# CHECK:STDOUT:   --lto                       Compile linked .cu files to LTO-IR (NVRTC -dlto) and link with
# CHECK:STDOUT:                               nvJitLink -lto instead of as PTX
# CHECK:STDOUT:   --const TEXT ...            A tile kernel's Constant parameter: NAME=VALUE (repeat for more
# CHECK:STDOUT:                               specialisations), or KERNEL.NAME=VALUE for one kernel alone
# CHECK:STDOUT:   --kernel TEXT ...           Compile only this kernel (repeatable); the file's other kernels
# CHECK:STDOUT:                               are not checked, so their errors do not fail it
# CHECK:STDOUT:   -W TEXT ...                 Warnings: -Wno-float64 turns off the float64-arithmetic warning
# CHECK:STDOUT:   --no-cache                  Do not read or write the kernel cache
# CHECK:STDOUT:   --cache-dir TEXT            Kernel cache folder (default: $PYKC_CACHE_DIR, else
# CHECK:STDOUT:                               $XDG_CACHE_HOME/pykc, else ~/.cache/pykc)
# CHECK:STDOUT:   --remote TEXT ...           Remote cache storage, repeatable (overrides $PYKC_REMOTE_STORAGE):
# CHECK:STDOUT:                               http://HOST[:PORT][/PREFIX] or redis://HOST[:PORT][/DB], then
# CHECK:STDOUT:                               |read-only, |connect-timeout=MS, |operation-timeout=MS
# CHECK:STDOUT:   --no-remote                 Use no remote storage (ignore $PYKC_REMOTE_STORAGE)
# CHECK:STDOUT:   --phase TEXT=cubin          Stop after this stage: check, llvm, ptx or cubin (writes what it has)
# CHECK:STDOUT:   --dump-typed                Print every kernel/device function instance and its variables' types
# CHECK:STDOUT:   -j,--jobs INT:INT in [0 - 1024]
# CHECK:STDOUT:                               Threads for a multi-kernel file's LLVM work, one kernel per task
# CHECK:STDOUT:                               (default: hardware threads); the outputs do not depend on it
# CHECK:STDOUT:
