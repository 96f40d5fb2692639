#pragma once
// Private to the remote plugins (cache/remote/plugin.h): the clients and what
// they share (deadlines, name resolution, fault kinds).
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "cache/remote/plugin.h"

namespace cache::remote {

using Clock = std::chrono::steady_clock;

inline int msLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

// What went wrong with one attempt: Transport and Server faults are retried
// (after 25, then 50 ms, within the deadline); the others end the operation.
enum class Fault { None, Transport, Timeout, Protocol, Server, Refused };

// The numeric address of `host` (a literal at once; a name on a helper thread
// that is abandoned when the deadline passes); nullopt with `error`.
std::optional<std::string> resolveNumeric(const std::string& host, std::uint16_t port, Clock::time_point deadline,
                                          std::string* error);

// Blocks SIGPIPE in this thread while it lives, and takes back one that
// arrived meanwhile: hiredis and OpenSSL write to sockets without
// MSG_NOSIGNAL, and a server that resets a connection must be an error, not
// the end of the process. (Process-wide SIG_IGN would be global state.)
class SigpipeGuard {
public:
  SigpipeGuard() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    wasPending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeGuard() {
    sigset_t pending;
    sigemptyset(&pending);
    if (!wasPending_ && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
      timespec zero{};
      sigtimedwait(&pipe_, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

private:
  sigset_t pipe_;
  sigset_t old_;
  bool wasPending_ = false;
};

std::unique_ptr<Client> openHttpClient(const RemoteSpec& spec, const Credentials& credentials, std::string* error);
std::unique_ptr<Client> openRedisClient(const RemoteSpec& spec, const Credentials& credentials, std::string* error);

}  // namespace cache::remote
