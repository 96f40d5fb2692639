#pragma once
// Remote levels of the kernel cache (docs/CACHE.md, "Remote storage"): the
// entry files of ac/ and cas/, byte for byte, on servers teams already run.
//
//   http[s]://HOST[:PORT][/PREFIX]   GET/PUT PREFIX/ac/<key>, PREFIX/cas/<digest>
//                                    (nginx with WebDAV, bazel-remote, S3 gateways)
//   redis[s]://HOST[:PORT][/DB]      GET/SET pykc:ac:<key>, pykc:cas:<digest>
//
// followed by `|ATTRIBUTE` items (parseRemote). The clients are libcurl and
// hiredis (with OpenSSL for TLS), inside libpykc_remote_http.so and
// libpykc_remote_redis.so, loaded with dlopen at a remote's first operation
// so that a process without remotes loads none of them (cache/remote/plugin.h). One deadline bounds each
// operation, connect, retries and back-off included, and a remote that fails
// once is not tried again by the process (circuit breaker). Nothing here
// throws. A Remote only moves bytes and checks signatures: the Store verifies
// everything fetched before use.
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
class Client;
struct PluginApi;
struct SigningKey;
struct VerifyKey;
}  // namespace cache::remote

namespace cache {

enum class RemoteProtocol { Http, Redis };

struct RemoteSpec {
  RemoteProtocol protocol = RemoteProtocol::Http;
  // https:// or rediss://: TLS with the server's certificate verified.
  bool tls = false;
  // The URL as given, attributes included (for logs and stats). Never holds
  // a secret: parseRemote refuses credentials in the URL.
  std::string text;
  std::string host;
  std::uint16_t port = 0;
  // HTTP: the path before /ac/ and /cas/, without a trailing slash ("" or
  // "/pykc").
  std::string prefix;
  // Redis: the database number.
  int db = 0;
  // Remotes are only read unless marked `read-write` (a trusted builder).
  bool readOnly = true;
  // HTTP, `layout=bazel`: blobs go under ac/ as well (bazel-remote checks
  // that a cas/ object is the SHA-256 of its bytes; its ac/ takes anything
  // with --disable_http_ac_validation).
  bool blobsInAc = false;
  int connectTimeoutMs = 500;
  int operationTimeoutMs = 5000;
  // TLS: `ca-file=PATH` (PEM; default: the system's CA store),
  // `client-cert=PATH` and `client-key=PATH` (PEM; mutual TLS).
  std::string caFile;
  std::string clientCert;
  std::string clientKey;
  // `netrc=PATH`: a netrc-style file with `machine HOST login USER password
  // PASS` (HTTP basic auth; Redis ACL `AUTH USER PASS`). Default:
  // $PYKC_REMOTE_NETRC when set.
  std::string netrcFile;
  // `header-file=PATH`: `Name: value` lines sent with every HTTP request
  // (header credentials of S3 gateways and the like).
  std::string headerFile;
  // `signing-key=PATH`: records are signed on upload and checked on read with
  // its public half. `verify-key=PATH`: records must carry a good signature
  // by that key (docs/CACHE.md, "Trusted writers").
  std::string signingKeyFile;
  std::string verifyKeyFile;
};

// Parses one remote; nullopt with `why` (a sentence fragment) when malformed.
std::optional<RemoteSpec> parseRemote(std::string_view text, std::string* why);
// Splits $PYKC_REMOTE_STORAGE at spaces and tabs (empty items dropped).
std::vector<std::string> splitRemoteList(std::string_view text);
// `text` with any `user:password@` of its URL replaced by `***@`, for
// messages about a URL that was refused.
std::string redactRemote(std::string_view text);

enum class RemoteObject { Record, Blob };

struct RemoteFetch {
  enum class Status { Found, Missing, Failed } status = Status::Missing;
  std::string bytes;
  // With Failed: what went wrong.
  std::string error;
};

// What a record's signature trailer said (cache/remote/signature.h).
enum class RecordSignature { Unsigned, Good, Bad, OtherKey };

// "it is not signed", "its signature does not verify", ... for messages.
std::string describeSignature(RecordSignature signature);

// One remote level. Thread-safe; connections are kept alive and reused.
class Remote {
public:
  // Never connects nor loads anything (that waits for the first operation).
  explicit Remote(RemoteSpec spec);
  ~Remote();
  Remote(const Remote&) = delete;
  Remote& operator=(const Remote&) = delete;

  const RemoteSpec& spec() const { return spec_; }
  // False once an operation failed (timeout, refused, garbage answer, the
  // plugin, a credentials or key file that cannot be read): the process then
  // leaves this remote alone.
  bool usable() const { return !broken_.load(); }
  // Whether records read from this remote must carry a good signature.
  bool requiresSignature() const { return !spec_.verifyKeyFile.empty() || !spec_.signingKeyFile.empty(); }
  // Whether records uploaded to this remote are signed.
  bool signs() const { return !spec_.signingKeyFile.empty(); }
  // The object `digest` of kind `object`: at most `maxBytes` bytes. Failed
  // trips the circuit breaker. A record's signature trailer is removed from
  // `bytes` and judged into `*signature` (when given).
  RemoteFetch get(RemoteObject object, const Digest& digest, std::uint64_t maxBytes,
                  RecordSignature* signature = nullptr);
  // Several objects of one kind, requested back to back (Redis pipelining;
  // HTTP/2 multiplexing or parallel kept-alive HTTP/1.1 connections).
  // `maxBytes[i]` bounds object i. Results in order, each as get() gives it;
  // one failure fails (and trips) the lot.
  std::vector<RemoteFetch> getMany(RemoteObject object, const std::vector<Digest>& digests,
                                   const std::vector<std::uint64_t>& maxBytes);
  // Stores `bytes` as object `digest` (a record signed when a signing key is
  // set); false with `error` (the breaker trips). Refused on a read-only remote.
  bool put(RemoteObject object, const Digest& digest, std::string_view bytes, std::string* error);
  // The record keys on the remote (Redis: SCAN of pykc:ac:*); false with
  // `error` where the protocol cannot list (HTTP).
  bool listRecords(std::vector<Digest>* keys, std::string* error);

private:
  // Loads the plugin, credentials and keys, and opens the client, once;
  // false (breaker tripped) with `error` when any fails.
  bool ready(std::string* error);
  std::string objectName(RemoteObject object, const Digest& digest) const;

  RemoteSpec spec_;
  std::atomic<bool> broken_{false};
  std::mutex setupMutex_;
  bool setUp_ = false;
  std::string setupError_;
  const remote::PluginApi* api_ = nullptr;
  std::unique_ptr<remote::Client> client_;
  std::unique_ptr<remote::SigningKey> signingKey_;
  std::unique_ptr<remote::VerifyKey> verifyKey_;
};

}  // namespace cache
