#include "cache/remote/transport.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

namespace cache::remote {

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

}  // namespace cache::remote
