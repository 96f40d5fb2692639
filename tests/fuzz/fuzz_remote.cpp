// libFuzzer target for the remote cache's parsers that remain pykc's own
// (the wire protocols are libcurl's and hiredis's): remote URLs and their
// redaction, netrc and header files, record signature trailers, key files.
// The first byte picks the parser; the rest is its input. Each must return
// (never crash, hang or read out of bounds) and keep its promises, checked
// here with asserts.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cache/remote/credentials.h"
#include "cache/remote/remote.h"
#include "cache/remote/signature.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string why;
  switch (data[0] % 6) {
    case 0: {
      std::optional<cache::RemoteSpec> spec = cache::parseRemote(text, &why);
      assert((spec.has_value() || !why.empty()) && "a refusal says why");
      // A URL with credentials is refused, and the redacted text keeps no userinfo.
      if (spec) assert(spec->text == text);
      std::string redacted = cache::redactRemote(text);
      assert(redacted.size() <= text.size() + 3);
      break;
    }
    case 1: {
      std::optional<cache::remote::NetrcEntry> entry = cache::remote::findNetrcEntry(text, "127.0.0.1", &why);
      if (!why.empty()) assert(!entry);
      break;
    }
    case 2: {
      std::vector<std::string> headers;
      if (cache::remote::parseHeaderLines(text, &headers, &why)) {
        for (const std::string& h : headers) assert(h.find('\n') == std::string::npos && h.find(':') != std::string::npos);
      }
      break;
    }
    case 3: {
      std::optional<cache::remote::SplitRecord> split = cache::remote::splitRecord(text);
      if (split) {
        assert(split->entry.data() == text.data() && split->entry.size() <= text.size());
        assert(text.size() - split->entry.size() == (split->signedRecord ? cache::remote::kTrailerBytes : 0));
      }
      break;
    }
    case 4: {
      auto key = cache::remote::parseKeyLine(text, cache::remote::kPublicKeyTag, &why);
      if (key) {
        std::string line = cache::remote::formatKeyLine(cache::remote::kPublicKeyTag, key->data());
        std::string again;
        assert(cache::remote::parseKeyLine(line, cache::remote::kPublicKeyTag, &again) == key);
      }
      break;
    }
    default:
      for (const std::string& item : cache::splitRemoteList(text)) {
        assert(!item.empty() && item.find(' ') == std::string::npos);
      }
      break;
  }
  return 0;
}
