// Remote storage for the kernel cache: the specs (`--remote` URLs), and Remote,
// which runs one protocol (cache/remote/protocol.h) with a connection pool,
// retries and the error policy.
#include "cache/remote/remote.h"

#include <arpa/inet.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "cache/remote/protocol.h"

namespace cache {
namespace {

using namespace remote;

bool isHostChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '_';
}

bool isPathChar(char c) {
  return isHostChar(c) || c == '/' || c == '~' || c == '%' || c == '+' || c == ':' || c == '@' ||
         c == '=' || c == ',' || c == '!';
}

}  // namespace

std::vector<std::string> splitRemoteList(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    size_t start = i;
    while (i < text.size() && !(text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

std::optional<RemoteSpec> parseRemote(std::string_view text, std::string* why) {
  RemoteSpec spec;
  spec.text = std::string(text);
  std::string_view url = text.substr(0, text.find('|'));
  std::string_view attributes =
      url.size() < text.size() ? text.substr(url.size() + 1) : std::string_view();
  auto fail = [&](std::string message) -> std::optional<RemoteSpec> {
    *why = std::move(message);
    return std::nullopt;
  };
  std::string_view rest;
  if (url.substr(0, 7) == "http://") {
    spec.protocol = RemoteProtocol::Http;
    spec.port = 80;
    rest = url.substr(7);
  } else if (url.substr(0, 8) == "redis://") {
    spec.protocol = RemoteProtocol::Redis;
    spec.port = 6379;
    rest = url.substr(8);
  } else if (url.substr(0, 8) == "https://" || url.substr(0, 9) == "rediss://") {
    return fail("TLS is not supported: use http:// or redis:// on a trusted network (or a TLS "
                "tunnel on the machine)");
  } else {
    return fail("expected http://HOST[:PORT][/PREFIX] or redis://HOST[:PORT][/DB]");
  }
  std::string_view authority = rest.substr(0, rest.find('/'));
  std::string_view path = rest.substr(authority.size());
  if (authority.find('@') != std::string_view::npos) {
    return fail("credentials in the URL are not supported");
  }
  std::string_view portText;
  if (!authority.empty() && authority[0] == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return fail("an unclosed `[` in the host");
    spec.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return fail("expected `:PORT` after `]`");
      portText = after.substr(1);
      if (portText.empty()) return fail("an empty port");
    }
    in6_addr ignored{};
    if (::inet_pton(AF_INET6, spec.host.c_str(), &ignored) != 1) {
      return fail("`" + spec.host + "` is not an IPv6 address");
    }
  } else {
    size_t colon = authority.find(':');
    spec.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      portText = authority.substr(colon + 1);
      if (portText.empty()) return fail("an empty port");
    }
    if (spec.host.empty()) return fail("no host");
    for (char c : spec.host) {
      if (!isHostChar(c)) return fail("`" + spec.host + "` is not a host name");
    }
  }
  if (!portText.empty()) {
    unsigned port = 0;
    if (!parseNumber(portText, port) || port == 0 || port > 65535) {
      return fail("`" + std::string(portText) + "` is not a port (1 to 65535)");
    }
    spec.port = static_cast<std::uint16_t>(port);
  }
  if (spec.protocol == RemoteProtocol::Http) {
    for (char c : path) {
      if (!isPathChar(c)) return fail("the path `" + std::string(path) + "` has a character other than letters, digits and -._~%/+:@=,!");
    }
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    spec.prefix = std::string(path);
  } else if (!path.empty() && path != "/") {
    if (!parseNumber(path.substr(1), spec.db) || spec.db < 0 || spec.db > 1000000) {
      return fail("`" + std::string(path.substr(1)) + "` is not a database number");
    }
  }
  bool more = url.size() < text.size();
  while (more) {
    std::string_view item = attributes.substr(0, attributes.find('|'));
    more = item.size() < attributes.size();
    attributes.remove_prefix(std::min(attributes.size(), item.size() + 1));
    if (item.empty()) return fail("an empty attribute (a `|` too many)");
    std::string_view name = item.substr(0, item.find('='));
    bool hasValue = name.size() < item.size();
    std::string_view value = hasValue ? item.substr(name.size() + 1) : std::string_view();
    auto milliseconds = [&](int& into, int max) -> bool {
      int ms = 0;
      if (!hasValue || !parseNumber(value, ms) || ms < 1 || ms > max) {
        *why = "`" + std::string(item) + "`: expected " + std::string(name) + "=MS, 1 to " +
               std::to_string(max);
        return false;
      }
      into = ms;
      return true;
    };
    if (name == "read-only" && !hasValue) {
      spec.readOnly = true;
    } else if (name == "connect-timeout") {
      if (!milliseconds(spec.connectTimeoutMs, 60000)) return std::nullopt;
    } else if (name == "operation-timeout") {
      if (!milliseconds(spec.operationTimeoutMs, 600000)) return std::nullopt;
    } else if (name == "layout" && spec.protocol == RemoteProtocol::Http &&
               (value == "bazel" || value == "standard")) {
      spec.blobsInAc = value == "bazel";
    } else {
      return fail("unknown attribute `" + std::string(item) +
                  "` (known: read-only, connect-timeout=MS, operation-timeout=MS" +
                  (spec.protocol == RemoteProtocol::Http ? ", layout=bazel|standard)" : ")"));
    }
  }
  return spec;
}

struct Remote::Pool {
  std::mutex mutex;
  std::vector<int> idle;
  std::optional<Address> address;

  ~Pool() {
    for (int fd : idle) ::close(fd);
  }
  int take() {
    std::lock_guard<std::mutex> lock(mutex);
    if (idle.empty()) return -1;
    int fd = idle.back();
    idle.pop_back();
    return fd;
  }
  void give(int fd) {
    std::lock_guard<std::mutex> lock(mutex);
    if (idle.size() < 16) {
      idle.push_back(fd);
    } else {
      ::close(fd);
    }
  }
};

Remote::Remote(RemoteSpec spec)
    : spec_(std::move(spec)),
      pool_(std::make_unique<Pool>()),
      protocol_(spec_.protocol == RemoteProtocol::Http ? httpProtocol(spec_) : redisProtocol(spec_)) {}

Remote::~Remote() = default;

namespace {

// A fresh connection, set up by its protocol.
int openConnection(const RemoteSpec& spec, const Protocol& protocol, std::optional<Address>& address,
                   std::mutex& mutex, Clock::time_point deadline, Outcome& out) {
  std::optional<Address> target;
  {
    std::lock_guard<std::mutex> lock(mutex);
    target = address;
  }
  if (!target) {
    std::string error;
    target = resolve(spec.host, spec.port, deadline, &error);
    if (!target) {
      out = {Fault::Transport, error, false};
      return -1;
    }
    std::lock_guard<std::mutex> lock(mutex);
    address = target;
  }
  std::string error;
  int fd = connectTo(*target, deadline, spec.connectTimeoutMs, &error);
  if (fd < 0) {
    out = {error.find("timed out") != std::string::npos ? Fault::Timeout : Fault::Transport, error,
           false};
    return -1;
  }
  if (!protocol.prepare(fd, deadline, out)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Runs `exchange(fd, deadline, attempt)` with retries: at once on a stale
// kept-alive connection, with back-off (25, 50 ms) after a refused connection,
// a reset or a server error; never past the operation's deadline.
template <typename A, typename Exchange>
A withRetries(const RemoteSpec& spec, const Protocol& protocol, Remote::Pool& pool, Exchange exchange) {
  Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(spec.operationTimeoutMs);
  int backoffMs = 25;
  int retries = 0;
  for (;;) {
    A attempt;
    bool reused = false;
    int fd = pool.take();
    if (fd >= 0) {
      reused = true;
    } else {
      fd = openConnection(spec, protocol, pool.address, pool.mutex, deadline, attempt.outcome);
    }
    bool keep = false;
    if (fd >= 0) keep = exchange(fd, deadline, attempt);
    if (fd >= 0) {
      if (keep && attempt.outcome.fault == Fault::None) {
        pool.give(fd);
      } else {
        ::close(fd);
      }
    }
    Fault fault = attempt.outcome.fault;
    if (fault == Fault::None || fault == Fault::Timeout || fault == Fault::Protocol) return attempt;
    if (reused && !attempt.outcome.answered && fault == Fault::Transport) continue;
    if (retries == 2 || msLeft(deadline) <= backoffMs) return attempt;
    std::this_thread::sleep_for(std::chrono::milliseconds(backoffMs));
    backoffMs *= 2;
    ++retries;
  }
}

}  // namespace

RemoteFetch Remote::get(RemoteObject object, const Digest& digest, std::uint64_t maxBytes) {
  RemoteFetch result;
  if (broken_) {
    result.status = RemoteFetch::Status::Failed;
    result.error = "not used after an earlier failure";
    return result;
  }
  std::string name = protocol_->objectName(object, digest);
  Attempt attempt = withRetries<Attempt>(spec_, *protocol_, *pool_, [&](int fd, Clock::time_point deadline, Attempt& a) {
    return protocol_->get(fd, name, maxBytes, deadline, a);
  });
  if (attempt.outcome.fault != Fault::None) {
    broken_ = true;
    result.status = RemoteFetch::Status::Failed;
    result.error = attempt.outcome.error;
    return result;
  }
  result.status = attempt.found ? RemoteFetch::Status::Found : RemoteFetch::Status::Missing;
  result.bytes = std::move(attempt.bytes);
  return result;
}

std::vector<RemoteFetch> Remote::getMany(RemoteObject object, const std::vector<Digest>& digests,
                                         const std::vector<std::uint64_t>& maxBytes) {
  size_t n = digests.size();
  std::vector<RemoteFetch> results(n);
  if (n == 1) results[0] = get(object, digests[0], maxBytes[0]);
  if (n <= 1) return results;
  if (broken_) {
    for (RemoteFetch& r : results) {
      r.status = RemoteFetch::Status::Failed;
      r.error = "not used after an earlier failure";
    }
    return results;
  }
  std::vector<std::string> names;
  for (const Digest& d : digests) names.push_back(protocol_->objectName(object, d));
  ManyAttempt attempt =
      withRetries<ManyAttempt>(spec_, *protocol_, *pool_, [&](int fd, Clock::time_point deadline, ManyAttempt& a) {
        a.found.assign(n, 0);
        a.bytes.assign(n, std::string());
        return protocol_->getMany(fd, names, maxBytes, deadline, a);
      });
  if (attempt.outcome.fault != Fault::None) {
    broken_ = true;
    for (RemoteFetch& r : results) {
      r.status = RemoteFetch::Status::Failed;
      r.error = attempt.outcome.error;
    }
    return results;
  }
  for (size_t i = 0; i < n; ++i) {
    if (i >= attempt.done) {
      results[i] = get(object, digests[i], maxBytes[i]);
      continue;
    }
    results[i].status = attempt.found[i] ? RemoteFetch::Status::Found : RemoteFetch::Status::Missing;
    results[i].bytes = std::move(attempt.bytes[i]);
  }
  return results;
}

bool Remote::put(RemoteObject object, const Digest& digest, std::string_view bytes,
                 std::string* error) {
  if (broken_) {
    *error = "not used after an earlier failure";
    return false;
  }
  if (spec_.readOnly) {
    *error = "read-only";
    return false;
  }
  std::string name = protocol_->objectName(object, digest);
  Attempt attempt = withRetries<Attempt>(spec_, *protocol_, *pool_, [&](int fd, Clock::time_point deadline, Attempt& a) {
    return protocol_->put(fd, name, bytes, deadline, a);
  });
  if (attempt.outcome.fault != Fault::None) {
    broken_ = true;
    *error = attempt.outcome.error;
    return false;
  }
  return true;
}

}  // namespace cache
