#pragma once
// Sockets with deadlines for the remote cache's protocols (cache/remote/):
// name resolution that gives up at the deadline, non-blocking connects, sends
// and buffered reads bounded by one deadline, and what went wrong (Outcome).
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <charconv>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cache::remote {

using Clock = std::chrono::steady_clock;

inline int msLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

template <typename T>
inline bool parseNumber(std::string_view text, T& out) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

struct Address {
  sockaddr_storage storage{};
  socklen_t length = 0;
};

// Resolves `host` (a literal address at once; a name on a helper thread that is
// abandoned when the deadline passes).
std::optional<Address> resolve(const std::string& host, std::uint16_t port, Clock::time_point deadline,
                               std::string* error);

std::string errnoText(const char* what);

// A connected non-blocking socket, or -1 with `*error`.
int connectTo(const Address& address, Clock::time_point deadline, int connectTimeoutMs, std::string* error);

enum class Fault { None, Transport, Timeout, Protocol, Server };

struct Outcome {
  Fault fault = Fault::None;
  std::string error;
  // Whether any byte of an answer arrived (a stale kept-alive connection
  // fails before that; it is retried at once on a fresh one).
  bool answered = false;
};

bool waitFor(int fd, short events, Clock::time_point deadline, Outcome& out);
bool sendAll(int fd, std::string_view data, Clock::time_point deadline, Outcome& out);

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


}  // namespace cache::remote
