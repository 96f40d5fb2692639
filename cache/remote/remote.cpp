#include "cache/remote/remote.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <thread>

namespace cache {
namespace {

using Clock = std::chrono::steady_clock;

int msLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

template <typename T>
bool parseNumber(std::string_view text, T& out) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

bool isHostChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '_';
}

bool isPathChar(char c) {
  return isHostChar(c) || c == '/' || c == '~' || c == '%' || c == '+' || c == ':' || c == '@' ||
         c == '=' || c == ',' || c == '!';
}

// ---------------------------------------------------------------------------
// Sockets with deadlines.

struct Address {
  sockaddr_storage storage{};
  socklen_t length = 0;
};

// getaddrinfo can block for as long as the resolver likes, so a name is
// resolved on a helper thread that is abandoned when the deadline passes.
std::optional<Address> resolve(const std::string& host, std::uint16_t port,
                               Clock::time_point deadline, std::string* error) {
  Address a;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&a.storage);
  if (::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    a.length = sizeof(sockaddr_in);
    return a;
  }
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&a.storage);
  if (::inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    a.length = sizeof(sockaddr_in6);
    return a;
  }
  struct Shared {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::optional<Address> result;
    std::string error;
  };
  auto shared = std::make_shared<Shared>();
  std::thread([shared, host, port] {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* list = nullptr;
    std::string service = std::to_string(port);
    int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
    std::lock_guard<std::mutex> lock(shared->m);
    if (rc == 0 && list) {
      Address found;
      std::memcpy(&found.storage, list->ai_addr, list->ai_addrlen);
      found.length = list->ai_addrlen;
      shared->result = found;
    } else {
      shared->error = rc == 0 ? "no address" : ::gai_strerror(rc);
    }
    if (list) ::freeaddrinfo(list);
    shared->done = true;
    shared->cv.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(shared->m);
  if (!shared->cv.wait_until(lock, deadline, [&] { return shared->done; })) {
    *error = "cannot resolve `" + host + "`: timed out";
    return std::nullopt;
  }
  if (!shared->result) *error = "cannot resolve `" + host + "`: " + shared->error;
  return shared->result;
}

std::string errnoText(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

int connectTo(const Address& address, Clock::time_point deadline, int connectTimeoutMs,
              std::string* error) {
  int fd = ::socket(address.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *error = errnoText("socket");
    return -1;
  }
  int one = 1;
  (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address.storage), address.length) != 0) {
    if (errno != EINPROGRESS) {
      *error = errnoText("connect");
      ::close(fd);
      return -1;
    }
    pollfd p{fd, POLLOUT, 0};
    int wait = std::min(msLeft(deadline), connectTimeoutMs);
    int rc;
    do {
      rc = ::poll(&p, 1, wait);
    } while (rc < 0 && errno == EINTR);
    if (rc <= 0) {
      *error = rc == 0 ? "connect: timed out" : errnoText("poll");
      ::close(fd);
      return -1;
    }
    int soError = 0;
    socklen_t len = sizeof soError;
    (void)::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len);
    if (soError != 0) {
      *error = std::string("connect: ") + std::strerror(soError);
      ::close(fd);
      return -1;
    }
  }
  return fd;
}

enum class Fault { None, Transport, Timeout, Protocol, Server };

struct Outcome {
  Fault fault = Fault::None;
  std::string error;
  // Whether any byte of an answer arrived (a stale kept-alive connection
  // fails before that; it is retried at once on a fresh one).
  bool answered = false;
};

bool waitFor(int fd, short events, Clock::time_point deadline, Outcome& out) {
  pollfd p{fd, events, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, msLeft(deadline));
  } while (rc < 0 && errno == EINTR);
  if (rc == 0) {
    out = {Fault::Timeout, "timed out", out.answered};
    return false;
  }
  if (rc < 0) {
    out = {Fault::Transport, errnoText("poll"), out.answered};
    return false;
  }
  return true;
}

bool sendAll(int fd, std::string_view data, Clock::time_point deadline, Outcome& out) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!waitFor(fd, POLLOUT, deadline, out)) return false;
      continue;
    }
    out = {Fault::Transport, errnoText("send"), out.answered};
    return false;
  }
  return true;
}

// Buffered reads from a socket, all bounded by one deadline.
class Reader {
public:
  Reader(int fd, Clock::time_point deadline, Outcome& out) : fd_(fd), deadline_(deadline), out_(out) {}

  // Reads more; false on close (with `eofOk`, a close is not a fault), error
  // or timeout.
  bool fill(bool eofOk = false) {
    for (;;) {
      char chunk[65536];
      ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n > 0) {
        out_.answered = true;
        if (pos_ > 0 && pos_ == buf_.size()) {
          buf_.clear();
          pos_ = 0;
        }
        buf_.append(chunk, static_cast<size_t>(n));
        return true;
      }
      if (n == 0) {
        if (!eofOk) out_ = {Fault::Transport, "connection closed mid-answer", out_.answered};
        eof_ = true;
        return false;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        if (!waitFor(fd_, POLLIN, deadline_, out_)) return false;
        continue;
      }
      out_ = {Fault::Transport, errnoText("recv"), out_.answered};
      return false;
    }
  }

  // A line ending in CRLF (without it), of at most `max` bytes.
  bool line(std::string& text, size_t max) {
    for (;;) {
      size_t end = buf_.find("\r\n", pos_);
      if (end != std::string::npos) {
        if (end - pos_ > max) break;
        text.assign(buf_, pos_, end - pos_);
        pos_ = end + 2;
        return true;
      }
      // (+ 1: the CR of a CRLF split across two reads.)
      if (buf_.size() - pos_ > max + 1) break;
      if (!fill()) return false;
    }
    out_ = {Fault::Protocol, "a line of the answer is too long", true};
    return false;
  }

  bool exact(size_t n, std::string& into) {
    while (buf_.size() - pos_ < n) {
      if (!fill()) return false;
    }
    into.append(buf_, pos_, n);
    pos_ += n;
    return true;
  }

  bool untilClose(std::string& into, size_t max) {
    while (fill(/*eofOk=*/true)) {
      if (buf_.size() - pos_ > max) {
        out_ = {Fault::Protocol, "the answer is too large", true};
        return false;
      }
    }
    if (!eof_) return false;
    into.append(buf_, pos_, std::string::npos);
    pos_ = buf_.size();
    return true;
  }

  bool drained() const { return pos_ == buf_.size(); }

private:
  int fd_;
  Clock::time_point deadline_;
  Outcome& out_;
  std::string buf_;
  size_t pos_ = 0;
  bool eof_ = false;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

struct HttpAnswer {
  int status = 0;
  std::string body;
  bool keepAlive = false;
};

std::string httpRequest(const RemoteSpec& spec, std::string_view method, const std::string& path,
                        std::uint64_t bodySize) {
  bool v6 = spec.host.find(':') != std::string::npos;
  std::string head = std::string(method) + " " + path + " HTTP/1.1\r\nHost: " +
                     (v6 ? "[" + spec.host + "]" : spec.host);
  if (spec.port != 80) head += ":" + std::to_string(spec.port);
  head += "\r\nUser-Agent: pykc\r\nAccept: */*\r\n";
  if (method == "PUT") {
    head += "Content-Type: application/octet-stream\r\nContent-Length: " +
            std::to_string(bodySize) + "\r\n";
  }
  head += "\r\n";
  return head;
}

// Reads one HTTP/1.1 answer to `method` from `reader`.
bool readHttpAnswer(Reader& reader, std::string_view method, std::uint64_t maxBytes,
                    HttpAnswer& answer, Outcome& out) {
  std::string line;
  if (!reader.line(line, 8192)) return false;
  // `HTTP/1.1 200 OK`
  if (line.size() < 12 || line.compare(0, 7, "HTTP/1.") != 0 || line[8] != ' ' ||
      !parseNumber(std::string_view(line).substr(9, 3), answer.status) ||
      (line.size() > 12 && line[12] != ' ')) {
    out = {Fault::Protocol, "not an HTTP answer", true};
    return false;
  }
  bool http10 = line[7] == '0';
  answer.keepAlive = !http10;
  std::optional<std::uint64_t> length;
  bool chunked = false;
  size_t headerBytes = 0;
  for (;;) {
    if (!reader.line(line, 8192)) return false;
    if (line.empty()) break;
    headerBytes += line.size();
    if (headerBytes > 65536) {
      out = {Fault::Protocol, "too many header bytes", true};
      return false;
    }
    size_t colon = line.find(':');
    if (colon == std::string::npos) {
      out = {Fault::Protocol, "a malformed header line", true};
      return false;
    }
    std::string name = lower(trim(std::string_view(line).substr(0, colon)));
    std::string value = lower(trim(std::string_view(line).substr(colon + 1)));
    if (name == "content-length") {
      std::uint64_t n = 0;
      if (!parseNumber(value, n) || (length && *length != n)) {
        out = {Fault::Protocol, "a malformed Content-Length", true};
        return false;
      }
      length = n;
    } else if (name == "transfer-encoding") {
      chunked = value.find("chunked") != std::string::npos;
    } else if (name == "connection") {
      if (value.find("close") != std::string::npos) answer.keepAlive = false;
      if (value.find("keep-alive") != std::string::npos && http10) answer.keepAlive = true;
    }
  }
  // 1xx (100 Continue is never asked for), 204 and 304 carry no body.
  bool noBody = answer.status < 200 || answer.status == 204 || answer.status == 304;
  if (noBody) return true;
  // Only a found object's body matters; others (a 404 page, a PUT's
  // answer) are read to keep the connection usable, up to 64 KiB.
  if (answer.status != 200 || method != "GET") maxBytes = 65536;
  if (chunked) {
    for (;;) {
      if (!reader.line(line, 1024)) return false;
      std::string_view size = line;
      if (size_t semi = size.find(';'); semi != std::string_view::npos) size = size.substr(0, semi);
      size = trim(size);
      std::uint64_t n = 0;
      auto [p, ec] = std::from_chars(size.data(), size.data() + size.size(), n, 16);
      if (size.empty() || ec != std::errc() || p != size.data() + size.size()) {
        out = {Fault::Protocol, "a malformed chunk size", true};
        return false;
      }
      if (n > maxBytes - std::min<std::uint64_t>(maxBytes, answer.body.size())) {
        out = {Fault::Protocol, "the answer is too large", true};
        return false;
      }
      if (n == 0) break;
      if (!reader.exact(static_cast<size_t>(n), answer.body)) return false;
      if (!reader.line(line, 0)) return false;
    }
    // Trailers, up to the empty line.
    do {
      if (!reader.line(line, 8192)) return false;
    } while (!line.empty());
  } else if (length) {
    if (*length > maxBytes) {
      out = {Fault::Protocol, "the answer is too large (" + std::to_string(*length) + " bytes)",
             true};
      return false;
    }
    if (!reader.exact(static_cast<size_t>(*length), answer.body)) return false;
  } else {
    answer.keepAlive = false;
    if (!reader.untilClose(answer.body, maxBytes)) return false;
  }
  return true;
}

// One HTTP/1.1 request and its answer on `fd`.
bool httpExchange(int fd, const RemoteSpec& spec, std::string_view method, const std::string& path,
                  std::string_view body, std::uint64_t maxBytes, Clock::time_point deadline,
                  HttpAnswer& answer, Outcome& out) {
  if (!sendAll(fd, httpRequest(spec, method, path, body.size()), deadline, out) ||
      !sendAll(fd, body, deadline, out)) {
    return false;
  }
  Reader reader(fd, deadline, out);
  if (!readHttpAnswer(reader, method, maxBytes, answer, out)) return false;
  // Bytes after the answer: the server is confused; do not reuse.
  if (!reader.drained()) answer.keepAlive = false;
  return true;
}

std::string respCommand(std::initializer_list<std::string_view> args) {
  std::string out;
  out.push_back('*');
  out.append(std::to_string(args.size()));
  out.append("\r\n");
  for (std::string_view a : args) {
    out.push_back('$');
    out.append(std::to_string(a.size()));
    out.append("\r\n");
    out.append(a);
    out.append("\r\n");
  }
  return out;
}

// One reply: a bulk string (`found`), nil (`!found`) or +OK.
bool respReply(Reader& reader, std::uint64_t maxBytes, std::string& bulk, bool& found,
               Outcome& out) {
  std::string line;
  if (!reader.line(line, 8192)) return false;
  if (line.empty()) {
    out = {Fault::Protocol, "an empty Redis reply", true};
    return false;
  }
  found = false;
  switch (line[0]) {
    case '+':
      return true;
    case '-':
      out = {Fault::Server, "Redis: " + line.substr(1), true};
      return false;
    case '$': {
      if (line == "$-1") return true;
      std::uint64_t n = 0;
      if (!parseNumber(std::string_view(line).substr(1), n)) break;
      if (n > maxBytes) {
        out = {Fault::Protocol, "the answer is too large (" + std::to_string(n) + " bytes)", true};
        return false;
      }
      if (!reader.exact(static_cast<size_t>(n), bulk)) return false;
      std::string crlf;
      if (!reader.exact(2, crlf)) return false;
      if (crlf != "\r\n") break;
      found = true;
      return true;
    }
    default:
      break;
  }
  out = {Fault::Protocol, "not a Redis reply", true};
  return false;
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

Remote::Remote(RemoteSpec spec) : spec_(std::move(spec)), pool_(std::make_unique<Pool>()) {}

Remote::~Remote() = default;

namespace {

// The name of an object on the server.
std::string objectName(const RemoteSpec& spec, RemoteObject object, const Digest& digest) {
  if (spec.protocol == RemoteProtocol::Redis) {
    return std::string(object == RemoteObject::Record ? "pykc:ac:" : "pykc:cas:") + digest.hex();
  }
  bool ac = object == RemoteObject::Record || spec.blobsInAc;
  return spec.prefix + (ac ? "/ac/" : "/cas/") + digest.hex();
}

// What one attempt found.
struct Attempt {
  Outcome outcome;
  bool found = false;
  std::string bytes;
};

// A fresh connection (Redis: with the database selected).
int openConnection(const RemoteSpec& spec, std::optional<Address>& address, std::mutex& mutex,
                   Clock::time_point deadline, Outcome& out) {
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
  if (spec.protocol == RemoteProtocol::Redis && spec.db != 0) {
    std::string select = respCommand({"SELECT", std::to_string(spec.db)});
    Reader reader(fd, deadline, out);
    std::string ignored;
    bool found = false;
    if (!sendAll(fd, select, deadline, out) || !respReply(reader, 0, ignored, found, out)) {
      ::close(fd);
      return -1;
    }
    out = {};
  }
  return fd;
}

}  // namespace

namespace {

// Runs `exchange(fd, attempt)` with retries: at once on a stale kept-alive
// connection, with back-off (25, 50 ms) after a refused connection, a reset
// or a server error; never past `deadline`.
template <typename A = Attempt, typename Exchange>
A withRetries(const RemoteSpec& spec, Remote::Pool& pool, std::optional<Address>& address,
              std::mutex& mutex, Exchange exchange) {
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
      fd = openConnection(spec, address, mutex, deadline, attempt.outcome);
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
  std::string name = objectName(spec_, object, digest);
  Attempt attempt;
  if (spec_.protocol == RemoteProtocol::Http) {
    attempt = withRetries(spec_, *pool_, pool_->address, pool_->mutex,
                          [&](int fd, Clock::time_point deadline, Attempt& a) {
                            HttpAnswer answer;
                            if (!httpExchange(fd, spec_, "GET", name, {}, maxBytes, deadline,
                                              answer, a.outcome)) {
                              return false;
                            }
                            if (answer.status == 200) {
                              a.found = true;
                              a.bytes = std::move(answer.body);
                            } else if (answer.status != 404) {
                              a.outcome = {answer.status >= 500 ? Fault::Server : Fault::Protocol,
                                           "HTTP status " + std::to_string(answer.status), true};
                            }
                            return answer.keepAlive;
                          });
  } else {
    attempt = withRetries(spec_, *pool_, pool_->address, pool_->mutex,
                          [&](int fd, Clock::time_point deadline, Attempt& a) {
                            if (!sendAll(fd, respCommand({"GET", name}), deadline, a.outcome)) {
                              return false;
                            }
                            Reader reader(fd, deadline, a.outcome);
                            if (!respReply(reader, maxBytes, a.bytes, a.found, a.outcome)) {
                              return false;
                            }
                            return reader.drained();
                          });
  }
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

namespace {

// What one pipelined attempt found: the first `done` answers.
struct ManyAttempt {
  Outcome outcome;
  size_t done = 0;
  std::vector<char> found;
  std::vector<std::string> bytes;
};

}  // namespace

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
  for (const Digest& d : digests) names.push_back(objectName(spec_, object, d));
  auto begin = [n](ManyAttempt& a) {
    a.found.assign(n, 0);
    a.bytes.assign(n, std::string());
  };
  ManyAttempt attempt;
  if (spec_.protocol == RemoteProtocol::Http) {
    attempt = withRetries<ManyAttempt>(
        spec_, *pool_, pool_->address, pool_->mutex,
        [&](int fd, Clock::time_point deadline, ManyAttempt& a) {
          begin(a);
          std::string requests;
          for (const std::string& name : names) requests += httpRequest(spec_, "GET", name, 0);
          if (!sendAll(fd, requests, deadline, a.outcome)) return false;
          Reader reader(fd, deadline, a.outcome);
          for (size_t i = 0; i < n; ++i) {
            HttpAnswer answer;
            if (!readHttpAnswer(reader, "GET", maxBytes[i], answer, a.outcome)) return false;
            if (answer.status == 200) {
              a.found[i] = 1;
              a.bytes[i] = std::move(answer.body);
            } else if (answer.status != 404) {
              a.outcome = {answer.status >= 500 ? Fault::Server : Fault::Protocol,
                           "HTTP status " + std::to_string(answer.status), true};
              return false;
            }
            a.done = i + 1;
            // The server ends the connection early: the rest go one by one.
            if (!answer.keepAlive) return false;
          }
          return reader.drained();
        });
  } else {
    attempt = withRetries<ManyAttempt>(
        spec_, *pool_, pool_->address, pool_->mutex,
        [&](int fd, Clock::time_point deadline, ManyAttempt& a) {
          begin(a);
          std::string commands;
          for (const std::string& name : names) commands += respCommand({"GET", name});
          if (!sendAll(fd, commands, deadline, a.outcome)) return false;
          Reader reader(fd, deadline, a.outcome);
          for (size_t i = 0; i < n; ++i) {
            bool found = false;
            if (!respReply(reader, maxBytes[i], a.bytes[i], found, a.outcome)) return false;
            a.found[i] = found;
            a.done = i + 1;
          }
          return reader.drained();
        });
  }
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
  std::string name = objectName(spec_, object, digest);
  Attempt attempt;
  if (spec_.protocol == RemoteProtocol::Http) {
    attempt = withRetries(spec_, *pool_, pool_->address, pool_->mutex,
                          [&](int fd, Clock::time_point deadline, Attempt& a) {
                            HttpAnswer answer;
                            if (!httpExchange(fd, spec_, "PUT", name, bytes, 0, deadline,
                                              answer, a.outcome)) {
                              return false;
                            }
                            if (answer.status < 200 || answer.status > 299) {
                              a.outcome = {answer.status >= 500 ? Fault::Server : Fault::Protocol,
                                           "HTTP status " + std::to_string(answer.status), true};
                            }
                            return answer.keepAlive;
                          });
  } else {
    attempt = withRetries(spec_, *pool_, pool_->address, pool_->mutex,
                          [&](int fd, Clock::time_point deadline, Attempt& a) {
                            if (!sendAll(fd, respCommand({"SET", name, bytes}), deadline,
                                         a.outcome)) {
                              return false;
                            }
                            Reader reader(fd, deadline, a.outcome);
                            std::string ignored;
                            bool found = false;
                            if (!respReply(reader, 0, ignored, found, a.outcome)) return false;
                            return reader.drained();
                          });
  }
  if (attempt.outcome.fault != Fault::None) {
    broken_ = true;
    *error = attempt.outcome.error;
    return false;
  }
  return true;
}

}  // namespace cache
