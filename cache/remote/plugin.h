#pragma once
// The boundary between pykc_cache and the remote cache's clients, in two
// plugins: libpykc_remote_http.so (libcurl) and libpykc_remote_redis.so
// (hiredis + OpenSSL), each with Ed25519 (libsodium). A plugin is loaded with
// dlopen at a remote's first operation: libcurl alone pulls some 30 shared
// libraries (about 12 ms at process start here), which no compile without
// an HTTP remote should pay.
//
// Both sides are built by one build from one tree; the table's `abi` and
// `specSize` refuse a plugin of another build.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cache/remote/remote.h"

namespace cache::remote {

inline constexpr std::uint32_t kPluginAbi = 2;
inline constexpr const char* kPluginEntry = "pykc_remote_plugin";
// The plugin for `protocol`'s clients.
inline const char* pluginFile(RemoteProtocol protocol) {
  return protocol == RemoteProtocol::Http ? "libpykc_remote_http.so" : "libpykc_remote_redis.so";
}

// Secrets for one remote (cache/remote/credentials.h). Never logged.
struct Credentials {
  // $PYKC_REMOTE_TOKEN: HTTP `Authorization: Bearer`; Redis `AUTH TOKEN`.
  std::string token;
  // A netrc entry for the host: HTTP basic auth; Redis `AUTH USER PASS`.
  std::string user;
  std::string password;
  // `header-file` lines (`Name: value`), sent with every HTTP request.
  std::vector<std::string> headers;
};

// One remote's wire client: moves named objects, retries within the
// operation's deadline, never throws. Thread-safe.
class Client {
public:
  virtual ~Client() = default;
  // The objects `names` (each at most `maxBytes[i]` bytes), requested back to
  // back. One Failed result fails the lot (every result Failed, same error).
  virtual std::vector<RemoteFetch> get(const std::vector<std::string>& names,
                                       const std::vector<std::uint64_t>& maxBytes) = 0;
  virtual bool put(const std::string& name, std::string_view bytes, std::string* error) = 0;
  // Names starting with `prefix` (Redis SCAN); false with `error` where the
  // protocol cannot list.
  virtual bool list(const std::string& prefix, std::vector<std::string>* names, std::string* error) = 0;
};

inline constexpr size_t kPublicKeyBytes = 32;
inline constexpr size_t kSeedBytes = 32;
inline constexpr size_t kSignatureBytes = 64;

struct PluginApi {
  std::uint32_t abi;
  size_t specSize;
  // A client for `spec` (of this plugin's protocol); null with `error` (a CA
  // file that does not load, a TLS library that cannot start). Connects at
  // the first operation.
  std::unique_ptr<Client> (*open)(const RemoteSpec& spec, const Credentials& credentials,
                                  std::string* error);
  // Ed25519 (libsodium): a fresh random seed and its public key; the public
  // key of a seed; a detached signature; its check.
  bool (*generateKey)(unsigned char seed[kSeedBytes], unsigned char publicKey[kPublicKeyBytes]);
  bool (*publicKeyOf)(const unsigned char seed[kSeedBytes], unsigned char publicKey[kPublicKeyBytes]);
  bool (*sign)(const unsigned char seed[kSeedBytes], std::string_view message,
               unsigned char signature[kSignatureBytes]);
  bool (*verify)(const unsigned char publicKey[kPublicKeyBytes], std::string_view message,
                 const unsigned char signature[kSignatureBytes]);
};

// The table of `protocol`'s plugin: looked up beside the object that holds
// this code (the executable's ../lib/, its own folder), then in the build's
// lib/. Null with `error` when no usable plugin is found. Each call dlopens
// (the loader counts references; nothing is cached here). Signing alone
// (keygen) takes the Redis plugin, which loads less.
const PluginApi* loadPlugin(RemoteProtocol protocol, std::string* error);

}  // namespace cache::remote
