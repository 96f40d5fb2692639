#pragma once
// `pykc cache populate` (docs/CACHE.md) and the remote-storage flags that
// `compile` shares with it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/remote/remote.h"
#include "cache/store.h"
#include "driver/codegen_flags.h"

namespace cli {

using driver::CodegenFlags;

struct Invocation;

// The remote levels (docs/CACHE.md, "Remote storage"): the `--remote` values
// when there are any (each may list several, separated by spaces), else
// $PYKC_REMOTE_STORAGE's items. None with `noRemote`. nullopt, after
// `pykc: error: --remote URL: why` on inv.err, when a --remote value is
// malformed (exit 2); a malformed item of the variable is left out with a
// warning (a cache setting never fails a compile).
std::optional<std::vector<cache::RemoteSpec>> resolveRemotes(const std::vector<std::string>& flags,
                                                             bool noRemote, Invocation& inv);

// `--shard I/N`: 1 <= I <= N. nullopt (with `why`) when malformed.
struct Shard {
  unsigned index = 1;
  unsigned count = 1;
};
std::optional<Shard> parseShard(std::string_view text, std::string* why);

struct PopulateOptions {
  // Files and folders (searched recursively for *.py).
  std::vector<std::string> paths;
  std::vector<std::string> archs;
  // -O, --use-fast-math, -D, --link, ...: as `pykc compile`'s, for every file.
  CodegenFlags codegen;
  // JSON: {"file.py": {"sigs": [...], "defines": [...], "opt": 2, ...}} or
  // {"file.py": [{...}, {...}]} (docs/CACHE.md); empty: none.
  std::string specFile;
  // Threads in all, shared by the workers (one job each) and the kernel
  // partitions of their compiles; 0: the hardware's.
  int jobs = 0;
  // --per-instance: one cache unit per kernel instance (the entries that a
  // JIT or C API request for one kernel and one signature hits) instead of
  // one per file.
  bool perInstance = false;
  // Only the jobs of this shard: the whole list sorted by (file, spec
  // entry, arch), and of it every job whose index modulo N is I-1.
  Shard shard;
};

// `pykc cache populate`: every file x arch into `store`, in parallel. Prints
// the failures' diagnostics and `populate: N jobs, H hits, C compiled, F
// failed, S.SS s`. Returns the exit status: 0, 1 (source errors), 2 (bad
// arch, flag or spec file, or an --nvrtc-option NVRTC refuses), 3
// (environment; it wins over 2, which wins over 1).
int runPopulate(Invocation& inv, cache::Store& store, const PopulateOptions& options);

}  // namespace cli
