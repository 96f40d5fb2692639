// Name resolution with a deadline for the remote clients: getaddrinfo can
// block for as long as the resolver likes, so a name is resolved on a helper
// thread that is abandoned when the deadline passes.
#include <arpa/inet.h>
#include <netdb.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "cache/remote/plugin/plugin_internal.h"

namespace cache::remote {

std::optional<std::string> resolveNumeric(const std::string& host, std::uint16_t port, Clock::time_point deadline,
                                          std::string* error) {
  in6_addr ignored{};
  if (::inet_pton(AF_INET, host.c_str(), &ignored) == 1 || ::inet_pton(AF_INET6, host.c_str(), &ignored) == 1) {
    return host;
  }
  struct Shared {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::optional<std::string> result;
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
    char text[INET6_ADDRSTRLEN] = {};
    std::lock_guard<std::mutex> lock(shared->m);
    if (rc == 0 && list) {
      const void* addr = list->ai_family == AF_INET6
                             ? static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(list->ai_addr)->sin6_addr)
                             : static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(list->ai_addr)->sin_addr);
      if (::inet_ntop(list->ai_family, addr, text, sizeof text)) shared->result = std::string(text);
    }
    if (!shared->result) shared->error = rc == 0 ? "no address" : ::gai_strerror(rc);
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

}  // namespace cache::remote
