#pragma once
// `pykc header`: a C/C++ header that launches the kernels of one `pykc compile`
// output folder through the CUDA driver API, as Triton's AOT C launcher does.
// It embeds the cubins (or the fatbin, and compute_XY PTX) and declares, per
// kernel entry, an argument struct laid out as docs/ABI.md passes parameters
// and a typed launch function (grid, block, dynamic shared memory, stream).
#include <llvm/Support/Error.h>

#include <string>

namespace cli {

struct LaunchHeaderOptions {
  // The compile output folder (manifest.json and the files it names).
  std::string folder;
  // The C identifier every name of the header starts with; empty: the
  // manifest's source file name without `.py`, made a C identifier.
  std::string prefix;
};

// The header's text: the same bytes for the same folder (no dates, no absolute
// paths). Fails when the manifest is missing, not a pykc ABI v1 manifest, or
// names a file that cannot be read, or a parameter type the ABI lacks.
llvm::Expected<std::string> renderLaunchHeader(const LaunchHeaderOptions& options);

}  // namespace cli
