#pragma once
// Credentials of the remote cache (docs/CACHE.md, "Credentials"): from the
// environment or from files, never from the command line or the URL.
//
//   $PYKC_REMOTE_TOKEN      HTTP `Authorization: Bearer TOKEN`; Redis `AUTH TOKEN`
//   netrc file              `machine HOST login USER password PASS` (curl's and
//                           ftp's format; `default` matches any host): HTTP basic
//                           auth, Redis ACL `AUTH USER PASS`
//   header file             `Name: value` lines added to every HTTP request
//
// The parsers take text and never read files themselves, so they can be
// fuzzed (tests/fuzz/fuzz_remote.cpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/remote/plugin.h"

namespace cache::remote {

struct NetrcEntry {
  std::string login;
  std::string password;
};

// The entry of `host` in netrc text (the first `machine HOST`, else
// `default`); nullopt when none. `why` is set when the text is malformed
// (a keyword without its value, an unquoted token that is too long).
std::optional<NetrcEntry> findNetrcEntry(std::string_view text, std::string_view host,
                                         std::string* why);

// Header lines from a header file's text: blank lines and `#` comments
// skipped; false with `why` (naming the line, never its value) on a line
// that is no `Name: value`.
bool parseHeaderLines(std::string_view text, std::vector<std::string>* headers, std::string* why);

// Reads what `spec` and the environment name; false with `error` (naming the
// file, never a secret). A file that grants secrets to other users (group or
// other permission bits) is refused.
bool loadCredentials(const RemoteSpec& spec, Credentials* out, std::string* error);

// Reads a secret file (at most 64 KiB): false with `error` when it cannot
// be read or is readable by group or others.
bool readSecretFile(const std::string& path, const char* what, std::string* text, std::string* error);

}  // namespace cache::remote
