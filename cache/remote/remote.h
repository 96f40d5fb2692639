#pragma once
// Remote levels of the kernel cache (docs/CACHE.md, "Remote storage"): the
// entry files of ac/ and cas/, byte for byte, on servers teams already run.
//
//   http://HOST[:PORT][/PREFIX]   GET/PUT PREFIX/ac/<key>, PREFIX/cas/<digest>
//                                 (nginx with WebDAV, bazel-remote, ccache's
//                                 http storage servers)
//   redis://HOST[:PORT][/DB]      GET/SET pykc:ac:<key>, pykc:cas:<digest>
//
// followed by `|ATTRIBUTE` items: `read-only`, `connect-timeout=MS`,
// `operation-timeout=MS`, `layout=bazel` (HTTP: blobs under ac/ too).
//
// The clients are small and our own (POSIX sockets, no TLS): one deadline
// bounds each operation, connect, retries and back-off included, and a
// remote that fails once is not tried again by the process (circuit
// breaker). Nothing here throws. A Remote only moves bytes: the Store
// verifies everything fetched before use.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/key.h"

namespace cache::remote {
class Protocol;
}  // namespace cache::remote

namespace cache {

enum class RemoteProtocol { Http, Redis };

struct RemoteSpec {
  RemoteProtocol protocol = RemoteProtocol::Http;
  // The URL as given, attributes included (for logs and stats).
  std::string text;
  std::string host;
  std::uint16_t port = 0;
  // HTTP: the path before /ac/ and /cas/, without a trailing slash ("" or
  // "/pykc").
  std::string prefix;
  // Redis: the database number.
  int db = 0;
  bool readOnly = false;
  // HTTP, `layout=bazel`: blobs go under ac/ as well (bazel-remote checks
  // that a cas/ object is the SHA-256 of its bytes; its ac/ takes anything
  // with --disable_http_ac_validation).
  bool blobsInAc = false;
  int connectTimeoutMs = 500;
  int operationTimeoutMs = 5000;
};

// Parses one remote; nullopt with `why` (a sentence fragment) when malformed.
std::optional<RemoteSpec> parseRemote(std::string_view text, std::string* why);
// Splits $PYKC_REMOTE_STORAGE at spaces and tabs (empty items dropped).
std::vector<std::string> splitRemoteList(std::string_view text);

enum class RemoteObject { Record, Blob };

struct RemoteFetch {
  enum class Status { Found, Missing, Failed } status = Status::Missing;
  std::string bytes;
  // With Failed: what went wrong.
  std::string error;
};

// One remote level. Thread-safe; connections are kept alive and reused.
class Remote {
public:
  // Never connects (that waits for the first operation).
  explicit Remote(RemoteSpec spec);
  ~Remote();
  Remote(const Remote&) = delete;
  Remote& operator=(const Remote&) = delete;

  const RemoteSpec& spec() const { return spec_; }
  // False once an operation failed (timeout, refused, garbage answer): the
  // process then leaves this remote alone.
  bool usable() const { return !broken_.load(); }
  // The object `digest` of kind `object`: at most `maxBytes` bytes. Failed
  // trips the circuit breaker.
  RemoteFetch get(RemoteObject object, const Digest& digest, std::uint64_t maxBytes);
  // Several objects of one kind, requested back to back on one connection
  // (HTTP/1.1 and Redis pipelining): one round trip instead of one each.
  // `maxBytes[i]` bounds object i. Results in order, each as get() gives it;
  // one failure fails (and trips) the lot.
  std::vector<RemoteFetch> getMany(RemoteObject object, const std::vector<Digest>& digests,
                                   const std::vector<std::uint64_t>& maxBytes);
  // Stores `bytes` as object `digest`; false with `error` (the breaker trips).
  bool put(RemoteObject object, const Digest& digest, std::string_view bytes, std::string* error);

  // Implementation detail, public for the .cpp's helpers.
  struct Pool;

private:
  RemoteSpec spec_;
  std::atomic<bool> broken_{false};
  std::unique_ptr<Pool> pool_;
  std::unique_ptr<remote::Protocol> protocol_;
};

}  // namespace cache
