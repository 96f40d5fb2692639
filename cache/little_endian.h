#pragma once
// Little-endian integers in the cache's binary formats (entries, archives).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cache {

// Appends the low `bytes` bytes of `v`, least significant first.
inline void putLe(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// The `bytes`-byte little-endian integer at in[at]; the caller checks the bounds.
inline std::uint64_t getLe(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) {
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  }
  return v;
}

}  // namespace cache
