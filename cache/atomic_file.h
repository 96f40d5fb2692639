#pragma once
// The one atomic file writer (the cache's entries and pykc's output files):
// a unique temporary name beside the target (O_EXCL, so two processes
// writing one output folder never share it), optionally fsynced, renamed
// over the target. Readers see the old file or the new one, never a part.
#include <string>
#include <string_view>

namespace cache {

// Writes `bytes` to `path` as above, creating missing parent folders. On
// failure removes the temporary file and returns false with `error` set
// (`cannot create|write|rename into `PATH`: reason`).
bool writeFileAtomic(const std::string& path, std::string_view bytes, bool sync, std::string* error);

}  // namespace cache
