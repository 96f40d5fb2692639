#pragma once
// `pykc inspect --emit ptx|sass`: machine code interleaved with the Python
// lines it came from (read from the line tables: PTX `.loc` directives, and
// nvdisasm's `--print-line-info` comments on the cubin).
#include <llvm/Support/Error.h>

#include <string>
#include <string_view>

namespace frontend {
class SourceFile;
}

namespace cli {

// `ptx` with a comment `// file.py:LINE  <the Python line>` inserted before
// each `.loc` that moves to another line of `source` (line 0, compiler-made
// code, is skipped). Lines of files other than `source` show only the
// position. Everything else is kept verbatim.
std::string interleavePtx(std::string_view ptx, const frontend::SourceFile& source);

// nvdisasm's output with each `//## File "f.py", line N` comment replaced by
// `// f.py:N  <the Python line>` (an `inlined at` tail is kept as
// `(inlined at line M)`).
std::string interleaveSass(std::string_view sass, const frontend::SourceFile& source);

// Where nvdisasm is, in this order: $PYKC_NVDISASM, PATH, the CUDA toolkit
// (PYKC_CUDA_ROOT/bin, $CUDA_HOME/bin, $CUDA_PATH/bin), then the PyPI
// package `nvidia-cuda-nvdisasm` installed into build/pydeps by
// scripts/deps.sh, into the active virtualenv/conda environment, or into
// ~/.local. Fails, saying where it looked and how to get it, when none is.
llvm::Expected<std::string> findNvdisasm();

// The text of `nvdisasm --print-line-info --print-code` on `cubin` (written
// to a temporary file, removed afterwards). Fails if the temporary file
// cannot be written or nvdisasm does not run or exits non-zero (with its
// stderr).
llvm::Expected<std::string> disassembleCubin(std::string_view cubin, const std::string& nvdisasm);

}  // namespace cli
