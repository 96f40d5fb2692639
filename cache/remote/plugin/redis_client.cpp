// The Redis client of the remote cache, on hiredis (hiredis_ssl and OpenSSL
// for rediss://): GET and SET of pykc:ac:<key> and pykc:cas:<digest>,
// pipelined GETs, AUTH (a password, or an ACL user and password) and SELECT
// on each fresh connection. Connections are pooled.
#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

extern "C" {
#include "hiredis.h"
#include "hiredis_ssl.h"
}

#include "cache/remote/plugin/plugin_internal.h"

namespace cache::remote {
namespace {

struct Failure {
  Fault fault = Fault::None;
  std::string error;
};

timeval toTimeval(int ms) {
  ms = std::max(ms, 1);
  return timeval{ms / 1000, static_cast<suseconds_t>((ms % 1000) * 1000)};
}

// What a context's error means.
Failure contextFailure(const redisContext* c) {
  if (c->err == REDIS_ERR_EOF) return {Fault::Transport, "connection closed mid-answer"};
  if (c->err == REDIS_ERR_PROTOCOL) return {Fault::Protocol, std::string("not a Redis reply (") + c->errstr + ")"};
  std::string text = c->errstr;
  if (text.find("Resource temporarily unavailable") != std::string::npos ||
      text.find("timed out") != std::string::npos || text.find("Timeout") != std::string::npos) {
    return {Fault::Timeout, "timed out"};
  }
  if (text.find("Connection refused") != std::string::npos) return {Fault::Refused, "connect: Connection refused"};
  return {Fault::Transport, text};
}

void freeReply(redisReply* r) {
  if (r) freeReplyObject(r);
}

class RedisClient : public Client {
public:
  RedisClient(const RemoteSpec& spec, Credentials credentials, SSL_CTX* tls)
      : spec_(spec), credentials_(std::move(credentials)), tls_(tls) {}

  ~RedisClient() override {
    SigpipeGuard guard;
    for (redisContext* c : idle_) redisFree(c);
    if (tls_) SSL_CTX_free(tls_);
  }

  std::vector<RemoteFetch> get(const std::vector<std::string>& names,
                               const std::vector<std::uint64_t>& maxBytes) override {
    std::vector<RemoteFetch> results(names.size());
    std::uint64_t total = 0;
    for (std::uint64_t m : maxBytes) total += m;
    Failure f = withRetries([&](redisContext* c, Clock::time_point deadline) -> Failure {
      for (const std::string& name : names) {
        if (redisAppendCommand(c, "GET %b", name.data(), name.size()) != REDIS_OK) return contextFailure(c);
      }
      for (size_t i = 0; i < names.size(); ++i) {
        redisReply* reply = nullptr;
        if (Failure rf = readReply(c, total + 4096, deadline, &reply); rf.fault != Fault::None) return rf;
        Failure answer = takeBulk(reply, maxBytes[i], results[i]);
        freeReply(reply);
        if (answer.fault != Fault::None) return answer;
      }
      return {};
    });
    if (f.fault != Fault::None) {
      for (RemoteFetch& r : results) r = RemoteFetch{RemoteFetch::Status::Failed, {}, f.error};
    }
    return results;
  }

  bool put(const std::string& name, std::string_view bytes, std::string* error) override {
    Failure f = withRetries([&](redisContext* c, Clock::time_point deadline) -> Failure {
      if (redisAppendCommand(c, "SET %b %b", name.data(), name.size(), bytes.data(), bytes.size()) != REDIS_OK) {
        return contextFailure(c);
      }
      redisReply* reply = nullptr;
      if (Failure rf = readReply(c, 65536, deadline, &reply); rf.fault != Fault::None) return rf;
      Failure answer = expectOk(reply);
      freeReply(reply);
      return answer;
    });
    if (f.fault != Fault::None) *error = f.error;
    return f.fault == Fault::None;
  }

  bool list(const std::string& prefix, std::vector<std::string>* names, std::string* error) override {
    Failure f = withRetries([&](redisContext* c, Clock::time_point deadline) -> Failure {
      names->clear();
      std::string cursor = "0";
      std::string pattern = prefix + "*";
      do {
        if (redisAppendCommand(c, "SCAN %s MATCH %b COUNT 1000", cursor.c_str(), pattern.data(), pattern.size()) !=
            REDIS_OK) {
          return contextFailure(c);
        }
        redisReply* reply = nullptr;
        if (Failure rf = readReply(c, 1 << 24, deadline, &reply); rf.fault != Fault::None) return rf;
        bool ok = reply->type == REDIS_REPLY_ARRAY && reply->elements == 2 &&
                  reply->element[0]->type == REDIS_REPLY_STRING && reply->element[1]->type == REDIS_REPLY_ARRAY;
        if (ok) {
          cursor.assign(reply->element[0]->str, reply->element[0]->len);
          for (size_t i = 0; i < reply->element[1]->elements; ++i) {
            redisReply* e = reply->element[1]->element[i];
            if (e->type == REDIS_REPLY_STRING) names->emplace_back(e->str, e->len);
          }
        }
        Failure bad = ok ? Failure{} : replyError(reply, "SCAN");
        freeReply(reply);
        if (!ok) return bad;
      } while (cursor != "0");
      return {};
    });
    if (f.fault != Fault::None) *error = f.error;
    return f.fault == Fault::None;
  }

private:
  static Failure replyError(const redisReply* reply, const char* what) {
    if (reply->type == REDIS_REPLY_ERROR) return {Fault::Server, "Redis: " + std::string(reply->str, reply->len)};
    return {Fault::Protocol, std::string("not a Redis reply to ") + what};
  }

  static Failure takeBulk(redisReply* reply, std::uint64_t maxBytes, RemoteFetch& into) {
    if (reply->type == REDIS_REPLY_NIL) {
      into.status = RemoteFetch::Status::Missing;
      return {};
    }
    if (reply->type != REDIS_REPLY_STRING) return replyError(reply, "GET");
    if (reply->len > maxBytes) {
      return {Fault::Protocol, "the answer is too large (" + std::to_string(reply->len) + " bytes)"};
    }
    into.status = RemoteFetch::Status::Found;
    into.bytes.assign(reply->str, reply->len);
    return {};
  }

  static Failure expectOk(redisReply* reply) {
    if (reply->type == REDIS_REPLY_STATUS) return {};
    return replyError(reply, "SET");
  }

  // Sends what is buffered and reads one reply, failing when more than
  // `limit` bytes pile up unanswered (a server sending an endless reply).
  static Failure readReply(redisContext* c, std::uint64_t limit, Clock::time_point deadline, redisReply** out) {
    void* reply = nullptr;
    int done = 0;
    while (!done) {
      if (msLeft(deadline) == 0) return {Fault::Timeout, "timed out"};
      timeval tv = toTimeval(msLeft(deadline));
      redisSetTimeout(c, tv);
      if (redisBufferWrite(c, &done) != REDIS_OK) return contextFailure(c);
    }
    if (redisGetReplyFromReader(c, &reply) != REDIS_OK) return contextFailure(c);
    while (!reply) {
      if (msLeft(deadline) == 0) return {Fault::Timeout, "timed out"};
      redisSetTimeout(c, toTimeval(msLeft(deadline)));
      if (redisBufferRead(c) != REDIS_OK) return contextFailure(c);
      if (c->reader->len > limit) return {Fault::Protocol, "the answer is too large"};
      if (redisGetReplyFromReader(c, &reply) != REDIS_OK) return contextFailure(c);
    }
    *out = static_cast<redisReply*>(reply);
    return {};
  }

  // A fresh connection: TCP (the name resolved within the deadline), TLS,
  // AUTH, SELECT.
  redisContext* connect(Clock::time_point deadline, Failure* failure) {
    std::string error;
    std::optional<std::string> ip = resolveNumeric(spec_.host, spec_.port, deadline, &error);
    if (!ip) {
      *failure = {Fault::Transport, error};
      return nullptr;
    }
    timeval connectTimeout = toTimeval(std::min(spec_.connectTimeoutMs, msLeft(deadline)));
    timeval commandTimeout = toTimeval(msLeft(deadline));
    redisOptions options{};
    REDIS_OPTIONS_SET_TCP(&options, ip->c_str(), spec_.port);
    options.connect_timeout = &connectTimeout;
    options.command_timeout = &commandTimeout;
    options.options = REDIS_OPT_NOAUTOFREEREPLIES;
    redisContext* c = redisConnectWithOptions(&options);
    if (!c) {
      *failure = {Fault::Transport, "out of memory"};
      return nullptr;
    }
    if (c->err) {
      *failure = contextFailure(c);
      if (failure->fault == Fault::Timeout) failure->error = "connect: timed out";
      redisFree(c);
      return nullptr;
    }
    if (tls_ && !startTls(c, deadline, failure)) {
      redisFree(c);
      return nullptr;
    }
    auto command = [&](const char* what, auto... args) -> bool {
      if (redisAppendCommand(c, args...) != REDIS_OK) {
        *failure = contextFailure(c);
        return false;
      }
      redisReply* reply = nullptr;
      if (Failure rf = readReply(c, 65536, deadline, &reply); rf.fault != Fault::None) {
        *failure = rf;
        return false;
      }
      bool ok = reply->type == REDIS_REPLY_STATUS;
      if (!ok) *failure = replyError(reply, what);
      freeReply(reply);
      return ok;
    };
    bool ok = true;
    if (!credentials_.user.empty()) {
      ok = command("AUTH", "AUTH %b %b", credentials_.user.data(), credentials_.user.size(),
                   credentials_.password.data(), credentials_.password.size());
    } else if (!credentials_.password.empty() || !credentials_.token.empty()) {
      const std::string& pass = credentials_.password.empty() ? credentials_.token : credentials_.password;
      ok = command("AUTH", "AUTH %b", pass.data(), pass.size());
    }
    // An AUTH refused is no server fault to retry.
    if (!ok && failure->fault == Fault::Server) failure->fault = Fault::Protocol;
    if (ok && spec_.db != 0) ok = command("SELECT", "SELECT %d", spec_.db);
    if (!ok) {
      redisFree(c);
      return nullptr;
    }
    return c;
  }

  bool startTls(redisContext* c, Clock::time_point deadline, Failure* failure) {
    SSL* ssl = SSL_new(tls_);
    if (!ssl) {
      *failure = {Fault::Protocol, "TLS: cannot make a session"};
      return false;
    }
    SSL_set_tlsext_host_name(ssl, spec_.host.c_str());
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    in6_addr ignored{};
    bool literal = ::inet_pton(AF_INET, spec_.host.c_str(), &ignored) == 1 ||
                   ::inet_pton(AF_INET6, spec_.host.c_str(), &ignored) == 1;
    if (literal) {
      X509_VERIFY_PARAM_set1_ip_asc(param, spec_.host.c_str());
    } else {
      X509_VERIFY_PARAM_set1_host(param, spec_.host.c_str(), 0);
    }
    SSL_set_verify(ssl, SSL_VERIFY_PEER, nullptr);
    errno = 0;
    if (redisInitiateSSL(c, ssl) == REDIS_OK) return true;
    bool stalled = errno == EAGAIN || errno == EWOULDBLOCK;
    long verify = SSL_get_verify_result(ssl);
    if (verify != X509_V_OK) {
      *failure = {Fault::Protocol, std::string("TLS: the server's certificate is not trusted: ") +
                                       X509_verify_cert_error_string(verify)};
    } else if (stalled || msLeft(deadline) <= 10) {
      // The socket's timeout (what was left of the deadline) ran out: OpenSSL
      // sees a read that would block.
      *failure = {Fault::Timeout, "TLS handshake: timed out"};
    } else {
      *failure = {Fault::Protocol, std::string("TLS handshake failed: ") + c->errstr};
    }
    SSL_free(ssl);
    return false;
  }

  // Runs `exchange` on a pooled or fresh connection; retries a reused
  // connection that turned out dead at once, and refused connections,
  // resets and server errors after 25, then 50 ms, within the deadline.
  template <typename Exchange>
  Failure withRetries(Exchange exchange) {
    SigpipeGuard guard;
    Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(spec_.operationTimeoutMs);
    int backoffMs = 25;
    int retries = 0;
    for (;;) {
      Failure f;
      redisContext* c = take();
      bool reused = c != nullptr;
      if (!c) c = connect(deadline, &f);
      if (c) {
        f = exchange(c, deadline);
        if (f.fault == Fault::None && c->reader->len == c->reader->pos) {
          give(c);
        } else {
          redisFree(c);
        }
      }
      if (f.fault == Fault::None || f.fault == Fault::Timeout || f.fault == Fault::Protocol) return f;
      if (reused && f.fault == Fault::Transport) continue;
      if (retries == 2 || msLeft(deadline) <= backoffMs) return f;
      std::this_thread::sleep_for(std::chrono::milliseconds(backoffMs));
      backoffMs *= 2;
      ++retries;
    }
  }

  redisContext* take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.empty()) return nullptr;
    redisContext* c = idle_.back();
    idle_.pop_back();
    return c;
  }

  void give(redisContext* c) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.size() < 16) {
      idle_.push_back(c);
    } else {
      redisFree(c);
    }
  }

  RemoteSpec spec_;
  Credentials credentials_;
  SSL_CTX* tls_;
  std::mutex mutex_;
  std::vector<redisContext*> idle_;
};

std::string opensslError() {
  unsigned long e = ERR_get_error();
  char text[256] = "unknown error";
  if (e) ERR_error_string_n(e, text, sizeof text);
  ERR_clear_error();
  return text;
}

}  // namespace

std::unique_ptr<Client> openRedisClient(const RemoteSpec& spec, const Credentials& credentials, std::string* error) {
  SSL_CTX* tls = nullptr;
  if (spec.tls) {
    tls = SSL_CTX_new(TLS_client_method());
    if (!tls) {
      *error = "TLS: OpenSSL cannot start: " + opensslError();
      return nullptr;
    }
    SSL_CTX_set_min_proto_version(tls, TLS1_2_VERSION);
    SSL_CTX_set_verify(tls, SSL_VERIFY_PEER, nullptr);
    bool ok = spec.caFile.empty() ? SSL_CTX_set_default_verify_paths(tls) == 1
                                  : SSL_CTX_load_verify_locations(tls, spec.caFile.c_str(), nullptr) == 1;
    if (!ok) {
      *error = "TLS: cannot load the CA file `" + spec.caFile + "`: " + opensslError();
      SSL_CTX_free(tls);
      return nullptr;
    }
    if (!spec.clientCert.empty() &&
        (SSL_CTX_use_certificate_chain_file(tls, spec.clientCert.c_str()) != 1 ||
         SSL_CTX_use_PrivateKey_file(tls, spec.clientKey.c_str(), SSL_FILETYPE_PEM) != 1)) {
      *error = "TLS: cannot use the client certificate: " + opensslError();
      SSL_CTX_free(tls);
      return nullptr;
    }
  }
  return std::make_unique<RedisClient>(spec, credentials, tls);
}

}  // namespace cache::remote
