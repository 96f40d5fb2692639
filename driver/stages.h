#pragma once
// The stage table (as Triton's `stages`): every form a compile can stop at or
// write, once, with its name, the file it goes to and which front doors offer
// it. `pykc compile --emit/--phase`, `pykc inspect --emit`, the manifest and
// the cache entry read their names and file suffixes from here.
#include <span>
#include <string>
#include <string_view>

namespace driver {

struct StageInfo {
  std::string_view name;    // as on the command line: "llvm-opt"
  std::string_view suffix;  // of the file it is written to, after the stem
  // The suffix follows `.ARCH` (the form depends on the target).
  bool perArch = false;
  // `.txt` or `.json` by inspect's --json (the suffix is the stem's part).
  bool textOrJson = false;
  // What `pykc compile --emit` writes (llvm, ptx, cubin).
  bool compileEmit = false;
  // Where `pykc compile --phase` can stop (check, llvm, ptx, cubin).
  bool compilePhase = false;
  // What `pykc inspect --emit` prints (in this table's order).
  bool inspect = false;
  // A named output of a compile unit's cache entry (cache/entry.h).
  bool cacheOutput = false;
};

// Every stage, in pipeline order (inspect prints its forms in this order).
std::span<const StageInfo> stages();

// `name`'s row, or nullptr.
const StageInfo* findStage(std::string_view name);

// The names of the stages with `StageInfo::*flag`, as "a, b or c" (for help
// and error messages).
std::string stageNames(bool StageInfo::*flag);

// The file name of `stage` for a compile of `stem` for `arch`: stem + ".ARCH" +
// suffix (per-arch stages), `json` choosing `.json` over `.txt` where the stage
// has both.
std::string stageFileName(const StageInfo& stage, std::string_view stem, std::string_view arch, bool json = false);

}  // namespace driver
